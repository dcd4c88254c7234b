# the chunk kernels of linear_cross_entropy(h, w, t, memory_budget=65667072), eager, h: bf16[300, 16], w: bf16[128256, 16]
# --- compiled graph 0
def call(args):
    arg0_1, arg1_1, arg2_1 = args
    arg0_1_size = arg0_1.size()
    s26 = arg0_1_size[0]
    assert_size_stride(arg0_1, (s26, 128256), (128256, 1), 'input')
    assert_size_stride(arg1_1, (s26, ), (1, ), 'input')
    buf3 = empty_strided_cpu((s26, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((s26, ), (1, ), torch.float32)
    assert_size_stride(arg2_1, (), (), 'input')
    buf5 = empty_strided_cpu((s26, ), (1, ), torch.float32)
    buf8 = empty_strided_cpu((s26, ), (1, ), torch.float32)
    buf9 = empty_strided_cpu((s26, ), (1, ), torch.float32)
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf6 = empty_strided_cpu((), (), torch.float32)
    buf1 = buf0; del buf0  # reuse
    cpp_fused_0(buf1, arg0_1, arg1_1, arg2_1, buf3, buf4, buf5, buf8, buf9, buf6, s26)
    del buf3
    del buf4
    torch.ops.aten._assert_async.msg(buf1, 'inductor_ce: target out of range: every target must be in [0, V) or equal to ignore_index')
    del buf1
    buf49 = buf6; del buf6  # reuse
    cpp_fused_1(buf49, arg0_1, arg1_1, buf5, buf9, buf8, arg2_1, arg0_1, s26)
    del arg0_1
    del arg1_1
    del arg2_1
    return (buf49, buf5, )


extern "C"  void  cpp_fused_0(bool* in_out_ptr0,
                       const at::BFloat16* in_ptr0,
                       const int64_t* in_ptr1,
                       const float* in_ptr2,
                       float* out_ptr0,
                       float* out_ptr1,
                       float* out_ptr2,
                       float* out_ptr4,
                       float* out_ptr5,
                       float* out_ptr7,
                       const int64_t ks0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr6 = in_out_ptr0;
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(1L))
            {
                {
                    float tmp_acc0 = -std::numeric_limits<float>::infinity();
                    at::vec::VectorizedN<float,2> tmp_acc0_vec = at::vec::VectorizedN<float,2>(-std::numeric_limits<float>::infinity());
                    for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(128256L); x1+=static_cast<int64_t>(16L))
                    {
                        {
                            if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(128256L)))
                            {
                                auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                                auto tmp1 = in_ptr1[static_cast<int64_t>(x0)];
                                auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                                auto tmp3 = c10::convert<int64_t>(tmp1);
                                auto tmp4 = static_cast<int64_t>(-100);
                                auto tmp5 = tmp3 != tmp4;
                                auto tmp6 = static_cast<int64_t>(0);
                                auto tmp7 = tmp3 >= tmp6;
                                auto tmp8 = static_cast<int64_t>(128256);
                                auto tmp9 = tmp3 < tmp8;
                                auto tmp10 = tmp7 && tmp9;
                                auto tmp11 = tmp5 && tmp10;
                                auto tmp12 = c10::convert<int32_t>(tmp3);
                                auto tmp13 = static_cast<int32_t>(-1);
                                auto tmp14 = tmp11 ? tmp12 : tmp13;
                                auto tmp15 = x1;
                                auto tmp16 = c10::convert<int32_t>(tmp15);
                                auto tmp17 = at::vec::VectorizedN<int32_t,2>::arange(tmp16, 1);
                                auto tmp18 = at::vec::VectorizedN<int32_t,2>(tmp14);
                                auto tmp19 = at::vec::VecMask<int32_t,2>(tmp17 == tmp18);
                                auto tmp20 = -std::numeric_limits<float>::infinity();
                                auto tmp21 = at::vec::VectorizedN<float,2>(tmp20);
                                auto tmp22 = decltype(tmp21)::blendv(tmp2, tmp21, tmp19.template cast<float,2>());
                                tmp_acc0_vec = at::vec::maximum(tmp_acc0_vec, tmp22);
                            }
                        }
                    }
                    tmp_acc0 = max_propagate_nan(tmp_acc0, at::vec::vec_reduce_all<float, 2>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return at::vec::maximum(x, y); }, tmp_acc0_vec));
                    out_ptr0[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc0);
                }
                {
                    float tmp_acc0 = 0;
                    at::vec::VectorizedN<float,2> tmp_acc0_vec = at::vec::VectorizedN<float,2>(0);
                    at::vec::VectorizedN<float,2> masked_tmp_acc0_vec = at::vec::VectorizedN<float,2>(0);
                    CascadeSumHelper<float, 4096> scalar_cascade_helper0(static_cast<int64_t>(128256L));
                    CascadeSumHelper<at::vec::VectorizedN<float,2>, 4096> cascade_helper0(static_cast<int64_t>(8016L));
                    CascadeSumHelper<at::vec::VectorizedN<float,2>, 4096> masked_cascade_helper0(static_cast<int64_t>(0L));
                    for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(128256L); x1+=static_cast<int64_t>(16L))
                    {
                        {
                            if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(128256L)))
                            {
                                auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                                auto tmp1 = in_ptr1[static_cast<int64_t>(x0)];
                                auto tmp23 = out_ptr0[static_cast<int64_t>(x0)];
                                auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                                auto tmp3 = c10::convert<int64_t>(tmp1);
                                auto tmp4 = static_cast<int64_t>(-100);
                                auto tmp5 = tmp3 != tmp4;
                                auto tmp6 = static_cast<int64_t>(0);
                                auto tmp7 = tmp3 >= tmp6;
                                auto tmp8 = static_cast<int64_t>(128256);
                                auto tmp9 = tmp3 < tmp8;
                                auto tmp10 = tmp7 && tmp9;
                                auto tmp11 = tmp5 && tmp10;
                                auto tmp12 = c10::convert<int32_t>(tmp3);
                                auto tmp13 = static_cast<int32_t>(-1);
                                auto tmp14 = tmp11 ? tmp12 : tmp13;
                                auto tmp15 = x1;
                                auto tmp16 = c10::convert<int32_t>(tmp15);
                                auto tmp17 = at::vec::VectorizedN<int32_t,2>::arange(tmp16, 1);
                                auto tmp18 = at::vec::VectorizedN<int32_t,2>(tmp14);
                                auto tmp19 = at::vec::VecMask<int32_t,2>(tmp17 == tmp18);
                                auto tmp20 = -std::numeric_limits<float>::infinity();
                                auto tmp21 = at::vec::VectorizedN<float,2>(tmp20);
                                auto tmp22 = decltype(tmp21)::blendv(tmp2, tmp21, tmp19.template cast<float,2>());
                                auto tmp24 = tmp23 == tmp20;
                                auto tmp25 = static_cast<float>(0.0);
                                auto tmp26 = tmp24 ? tmp25 : tmp23;
                                auto tmp27 = at::vec::VectorizedN<float,2>(tmp26);
                                auto tmp28 = tmp22 - tmp27;
                                auto tmp29 = static_cast<float>(1.4426950408889634);
                                auto tmp30 = at::vec::VectorizedN<float,2>(tmp29);
                                auto tmp31 = tmp28 * tmp30;
                                auto tmp32 = tmp31.exp2();
                                tmp_acc0_vec = cascade_sum_combine(tmp32, &cascade_helper0);
                            }
                        }
                    }
                    tmp_acc0 = cascade_sum_final(&scalar_cascade_helper0);
                    tmp_acc0_vec = cascade_sum_final(&cascade_helper0);
                    masked_tmp_acc0_vec = cascade_sum_final(&masked_cascade_helper0);
                    tmp_acc0 = tmp_acc0 + at::vec::vec_reduce_all<float, 2>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc0_vec + masked_tmp_acc0_vec);
                    out_ptr1[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc0);
                }
            }
        }
    }
    {
        {
            bool tmp_acc0 = 0;
            at::vec::VecMask<float,1> tmp_acc0_vec = at::vec::VecMask<float,1>::from(0);
            float tmp_acc1 = 0;
            at::vec::Vectorized<float> tmp_acc1_vec = at::vec::Vectorized<float>(0);
            int max_threads = omp_get_max_threads();
            at::vec::VecMask<float,1> tmp_acc0_vec_arr[max_threads];
            for (int i = 0; i < max_threads; i++)
            {
                tmp_acc0_vec_arr[i] = at::vec::VecMask<float,1>::from(0);
            }
            bool tmp_acc0_arr[max_threads];
            for (int i = 0; i < max_threads; i++)
            {
                tmp_acc0_arr[i] = 0;
            }
            at::vec::Vectorized<float> tmp_acc1_vec_arr[max_threads];
            for (int i = 0; i < max_threads; i++)
            {
                tmp_acc1_vec_arr[i] = at::vec::Vectorized<float>(0);
            }
            float tmp_acc1_arr[max_threads];
            for (int i = 0; i < max_threads; i++)
            {
                tmp_acc1_arr[i] = 0;
            }
            #pragma omp parallel
            {
                int tid = omp_get_thread_num();
                at::vec::VecMask<float,1> tmp_acc0_vec_local = at::vec::VecMask<float,1>::from(0);
                bool tmp_acc0_local = 0;
                at::vec::Vectorized<float> tmp_acc1_vec_local = at::vec::Vectorized<float>(0);
                float tmp_acc1_local = 0;
                #pragma omp for
                for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(8L))
                {
                    {
                        if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))))))
                        {
                            auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp2 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp4 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp33 = in_ptr2[static_cast<int64_t>(0L)];
                            auto tmp1 = tmp2.log();
                            auto tmp3 = tmp0 + tmp1;
                            auto tmp5 = static_cast<int64_t>(-100);
                            auto tmp6 = at::vec::VectorizedN<int64_t,2>(tmp5);
                            auto tmp7 = at::vec::VecMask<int64_t,2>(tmp4 != tmp6);
                            auto tmp8 = static_cast<float>(0.0);
                            auto tmp9 = at::vec::Vectorized<float>(tmp8);
                            auto tmp10 = decltype(tmp3)::blendv(tmp9, tmp3, tmp7.template cast<float,1>());
                            auto tmp11 = (tmp4);
                            auto tmp12 = at::vec::VecMask<int64_t,2>(tmp11 != tmp6);
                            auto tmp13 = static_cast<int64_t>(0);
                            auto tmp14 = at::vec::VectorizedN<int64_t,2>(tmp13);
                            auto tmp15 = at::vec::VecMask<int64_t,2>(tmp11 >= tmp14);
                            auto tmp16 = static_cast<int64_t>(128256);
                            auto tmp17 = at::vec::VectorizedN<int64_t,2>(tmp16);
                            auto tmp18 = at::vec::VecMask<int64_t,2>(tmp11 < tmp17);
                            auto tmp19 = tmp15.template cast<int32_t,1>();
                            auto tmp20 = tmp18.template cast<int32_t,1>();
                            auto tmp21 = tmp19 & tmp20;
                            auto tmp22 = tmp12.template cast<int32_t,1>();
                            auto tmp23 = tmp21.template cast<int32_t,1>();
                            auto tmp24 = tmp22 & tmp23;
                            auto tmp25 = at::vec::convert<int32_t,1,int64_t,2>(tmp11);
                            auto tmp26 = static_cast<int32_t>(-1);
                            auto tmp27 = at::vec::Vectorized<int32_t>(tmp26);
                            auto tmp28 = decltype(tmp25)::blendv(tmp27, tmp25, tmp24.template cast<int32_t,1>());
                            auto tmp29 = static_cast<int32_t>(0);
                            auto tmp30 = at::vec::Vectorized<int32_t>(tmp29);
                            auto tmp31 = at::vec::VecMask<int32_t,1>(tmp28 >= tmp30);
                            auto tmp32 = decltype(tmp28)::blendv(tmp30, tmp28, tmp31.template cast<int32_t,1>());
                            auto tmp34 = 128256L;
                            auto tmp35 = c10::convert<int64_t>(tmp34);
                            auto tmp36 = at::vec::convert<int64_t,2,int32_t,1>(tmp32);
                            auto tmp37 = at::vec::VectorizedN<int64_t,2>(tmp35);
                            auto tmp38 = tmp36 + tmp37;
                            auto tmp39 = at::vec::VecMask<int64_t,2>(tmp36 < tmp14);
                            auto tmp40 = decltype(tmp38)::blendv(tmp36, tmp38, tmp39.template cast<int64_t,2>());
                            auto tmp41 =
                            [&]
                            {
                                __at_align__ std::array<int64_t, 8> tmpbuf;
                                tmp40.store(tmpbuf.data(), static_cast<int64_t>(8));
                                return tmpbuf;
                            }
                            ()
                            ;
                            auto tmp42 =
                            [&]
                            {
                                __at_align__ std::array<at::BFloat16, 16> tmpbuf;
                                #pragma GCC unroll 8
                                for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                                {
                                    tmpbuf[x0_inner] = in_ptr0[static_cast<int64_t>(tmp41[x0_inner] + 128256L*x0 + 128256L*x0_inner)];
                                }
                                return at::vec::Vectorized<at::BFloat16>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                            }
                            ()
                            ;
                            auto tmp43 = at::vec::convert<float>(tmp42);
                            auto tmp44 = -std::numeric_limits<float>::infinity();
                            auto tmp45 = at::vec::Vectorized<float>(tmp44);
                            auto tmp46 = decltype(tmp43)::blendv(tmp45, tmp43, tmp31.template cast<float,1>());
                            auto tmp47 = decltype(tmp46)::blendv(tmp9, tmp46, tmp7.template cast<float,1>());
                            auto tmp48 = at::vec::maximum(tmp47, tmp9);
                            auto tmp49 = tmp48 * tmp9;
                            auto tmp50 = tmp10 + tmp49;
                            auto tmp51 = tmp50 - tmp47;
                            auto tmp52 = static_cast<float>(1.0);
                            auto tmp53 = at::vec::Vectorized<float>(tmp52);
                            auto tmp54 = tmp51 * tmp53;
                            auto tmp55 = tmp54.exp();
                            auto tmp56 = static_cast<float>(20.0);
                            auto tmp57 = at::vec::Vectorized<float>(tmp56);
                            auto tmp58 = at::vec::VecMask<float,1>(tmp54 > tmp57);
                            auto tmp59 = decltype(tmp53)::blendv(tmp9, tmp53, tmp7.template cast<float,1>());
                            auto tmp60 = tmp7.to<float,1>();
                            auto tmp61 = tmp60 * tmp53;
                            auto tmp62 = tmp59 * tmp61;
                            auto tmp63 = tmp62 * tmp55;
                            auto tmp64 = tmp55 + tmp53;
                            auto tmp65 = tmp63 / tmp64;
                            auto tmp66 = decltype(tmp62)::blendv(tmp65, tmp62, tmp58.template cast<float,1>());
                            auto tmp67 = decltype(tmp66)::blendv(tmp9, tmp66, tmp7.template cast<float,1>());
                            auto tmp68 = at::vec::Vectorized<float>(tmp33);
                            auto tmp69 = tmp67 * tmp68;
                            auto tmp70 = decltype(tmp69)::blendv(tmp9, tmp69, tmp7.template cast<float,1>());
                            auto tmp71 = tmp66.neg();
                            auto tmp72 = decltype(tmp71)::blendv(tmp9, tmp71, tmp7.template cast<float,1>());
                            auto tmp73 = tmp72 * tmp68;
                            auto tmp74 = decltype(tmp73)::blendv(tmp9, tmp73, tmp7.template cast<float,1>());
                            auto tmp75 = at::vec::VecMask<int64_t,2>(tmp11 == tmp6);
                            auto tmp76 = tmp75.template cast<int32_t,1>();
                            auto tmp77 = tmp76 | tmp23;
                            auto tmp78 = ~tmp77;
                            auto tmp79 = tmp78.template cast<float,1>();
                            auto tmp80 = at::vec::VecMask<float,1>(tmp51 > tmp57);
                            auto tmp81 = tmp51.exp();
                            auto tmp82 = tmp81.log1p();
                            auto tmp83 = decltype(tmp51)::blendv(tmp82, tmp51, tmp80.template cast<float,1>());
                            auto tmp84 = tmp61 * tmp83;
                            auto tmp85 = decltype(tmp84)::blendv(tmp9, tmp84, tmp7.template cast<float,1>());
                            tmp3.store(out_ptr2 + static_cast<int64_t>(x0));
                            tmp70.store(out_ptr4 + static_cast<int64_t>(x0));
                            tmp74.store(out_ptr5 + static_cast<int64_t>(x0));
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp79;
                            tmp_acc1_vec_local = tmp_acc1_vec_local + tmp85;
                        }
                        if(C10_UNLIKELY(x0 >= static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))) && x0 < static_cast<int64_t>(ks0)))
                        {
                            for (int64_t x0_tail = static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))));x0_tail < static_cast<int64_t>(ks0); x0_tail++)
                            {
                                auto tmp0 = out_ptr0[static_cast<int64_t>(x0_tail)];
                                auto tmp2 = out_ptr1[static_cast<int64_t>(x0_tail)];
                                auto tmp4 = in_ptr1[static_cast<int64_t>(x0_tail)];
                                auto tmp52 = in_ptr2[static_cast<int64_t>(0L)];
                                auto tmp1 = std::log(tmp2);
                                auto tmp3 = float(tmp0 + tmp1);
                                auto tmp5 = static_cast<int64_t>(-100);
                                auto tmp6 = tmp4 != tmp5;
                                auto tmp7 = static_cast<float>(0.0);
                                auto tmp8 = tmp6 ? tmp3 : tmp7;
                                auto tmp9 = c10::convert<int64_t>(tmp4);
                                auto tmp10 = tmp9 != tmp5;
                                auto tmp11 = static_cast<int64_t>(0);
                                auto tmp12 = tmp9 >= tmp11;
                                auto tmp13 = static_cast<int64_t>(128256);
                                auto tmp14 = tmp9 < tmp13;
                                auto tmp15 = tmp12 && tmp14;
                                auto tmp16 = tmp10 && tmp15;
                                auto tmp17 = c10::convert<int32_t>(tmp9);
                                auto tmp18 = static_cast<int32_t>(-1);
                                auto tmp19 = tmp16 ? tmp17 : tmp18;
                                auto tmp20 = static_cast<int32_t>(0);
                                auto tmp21 = tmp19 >= tmp20;
                                auto tmp22 = tmp21 ? tmp19 : tmp20;
                                auto tmp23 = 128256L;
                                auto tmp24 = c10::convert<int64_t>(tmp23);
                                auto tmp25 = int64_t(tmp22 + tmp24);
                                auto tmp26 = tmp22 < 0;
                                auto tmp27 = tmp26 ? tmp25 : tmp22;
                                auto tmp28 = in_ptr0[static_cast<int64_t>(tmp27 + 128256L*x0_tail)];
                                auto tmp29 = c10::convert<float>(tmp28);
                                auto tmp30 = -std::numeric_limits<float>::infinity();
                                auto tmp31 = tmp21 ? tmp29 : tmp30;
                                auto tmp32 = tmp6 ? tmp31 : tmp7;
                                auto tmp34 = max_propagate_nan(tmp32, tmp7);
                                auto tmp35 = float(tmp34 * tmp7);
                                auto tmp36 = float(tmp8 + tmp35);
                                auto tmp37 = float(tmp36 - tmp32);
                                auto tmp38 = static_cast<float>(1.0);
                                auto tmp39 = float(tmp37 * tmp38);
                                auto tmp40 = std::exp(tmp39);
                                auto tmp41 = static_cast<float>(20.0);
                                auto tmp42 = tmp39 > tmp41;
                                auto tmp43 = tmp6 ? tmp38 : tmp7;
                                auto tmp44 = c10::convert<float>(tmp6);
                                auto tmp45 = float(tmp44 * tmp38);
                                auto tmp46 = float(tmp43 * tmp45);
                                auto tmp47 = float(tmp46 * tmp40);
                                auto tmp48 = float(tmp40 + tmp38);
                                auto tmp49 = tmp47 / tmp48;
                                auto tmp50 = tmp42 ? tmp46 : tmp49;
                                auto tmp51 = tmp6 ? tmp50 : tmp7;
                                auto tmp53 = float(tmp51 * tmp52);
                                auto tmp54 = tmp6 ? tmp53 : tmp7;
                                auto tmp55 = decltype(tmp50)(-tmp50);
                                auto tmp56 = tmp6 ? tmp55 : tmp7;
                                auto tmp57 = float(tmp56 * tmp52);
                                auto tmp58 = tmp6 ? tmp57 : tmp7;
                                auto tmp59 = tmp9 == tmp5;
                                auto tmp60 = tmp59 || tmp15;
                                auto tmp61 = !tmp60;
                                auto tmp62 = tmp37 > tmp41;
                                auto tmp63 = std::exp(tmp37);
                                auto tmp64 = std::log1p(tmp63);
                                auto tmp65 = tmp62 ? tmp37 : tmp64;
                                auto tmp66 = float(tmp45 * tmp65);
                                auto tmp67 = tmp6 ? tmp66 : tmp7;
                                out_ptr2[static_cast<int64_t>(x0_tail)] = tmp3;
                                out_ptr4[static_cast<int64_t>(x0_tail)] = tmp54;
                                out_ptr5[static_cast<int64_t>(x0_tail)] = tmp58;
                                tmp_acc0_local = tmp_acc0_local || tmp61;
                                tmp_acc1_local = tmp_acc1_local + tmp67;
                            }
                        }
                    }
                }
                tmp_acc0_vec_arr[tid] = tmp_acc0_vec_local;
                tmp_acc0_arr[tid] = tmp_acc0_local;
                tmp_acc1_vec_arr[tid] = tmp_acc1_vec_local;
                tmp_acc1_arr[tid] = tmp_acc1_local;
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc0_vec = tmp_acc0_vec | tmp_acc0_vec_arr[tid];
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc0 = tmp_acc0 || tmp_acc0_arr[tid];
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc1_vec = tmp_acc1_vec + tmp_acc1_vec_arr[tid];
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc1 = tmp_acc1 + tmp_acc1_arr[tid];
            }
            tmp_acc0 = tmp_acc0 || !tmp_acc0_vec.all_zero();
            out_ptr6[static_cast<int64_t>(0L)] = static_cast<bool>(tmp_acc0);
            tmp_acc1 = tmp_acc1 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc1_vec);
            out_ptr7[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc1);
        }
    }
    {
        {
            {
                auto tmp0 = out_ptr6[static_cast<int64_t>(0L)];
                auto tmp2 = !tmp0;
                in_out_ptr0[static_cast<int64_t>(0L)] = tmp2;
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}


extern "C"  void  cpp_fused_1(float* in_out_ptr0,
                       const at::BFloat16* in_ptr0,
                       const int64_t* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       const float* in_ptr4,
                       const float* in_ptr5,
                       at::BFloat16* out_ptr1,
                       const int64_t ks0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(1L))
            {
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(128256L); x1+=static_cast<int64_t>(16L))
                {
                    {
                        if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(128256L)))
                        {
                            auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(out_ptr1 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                            auto tmp1 = in_ptr1[static_cast<int64_t>(x0)];
                            auto tmp2 = in_ptr2[static_cast<int64_t>(x0)];
                            auto tmp3 = in_ptr3[static_cast<int64_t>(x0)];
                            auto tmp4 = in_ptr4[static_cast<int64_t>(x0)];
                            auto tmp5 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                            auto tmp6 = c10::convert<int64_t>(tmp1);
                            auto tmp7 = static_cast<int64_t>(-100);
                            auto tmp8 = tmp6 != tmp7;
                            auto tmp9 = static_cast<int64_t>(0);
                            auto tmp10 = tmp6 >= tmp9;
                            auto tmp11 = static_cast<int64_t>(128256);
                            auto tmp12 = tmp6 < tmp11;
                            auto tmp13 = tmp10 && tmp12;
                            auto tmp14 = tmp8 && tmp13;
                            auto tmp15 = c10::convert<int32_t>(tmp6);
                            auto tmp16 = static_cast<int32_t>(-1);
                            auto tmp17 = tmp14 ? tmp15 : tmp16;
                            auto tmp18 = x1;
                            auto tmp19 = c10::convert<int32_t>(tmp18);
                            auto tmp20 = at::vec::VectorizedN<int32_t,2>::arange(tmp19, 1);
                            auto tmp21 = at::vec::VectorizedN<int32_t,2>(tmp17);
                            auto tmp22 = at::vec::VecMask<int32_t,2>(tmp20 == tmp21);
                            auto tmp23 = -std::numeric_limits<float>::infinity();
                            auto tmp24 = tmp2 == tmp23;
                            auto tmp25 = static_cast<float>(0.0);
                            auto tmp26 = tmp24 ? tmp25 : tmp2;
                            auto tmp27 = at::vec::VectorizedN<float,2>(tmp26);
                            auto tmp28 = tmp5 - tmp27;
                            auto tmp29 = static_cast<float>(1.4426950408889634);
                            auto tmp30 = at::vec::VectorizedN<float,2>(tmp29);
                            auto tmp31 = tmp28 * tmp30;
                            auto tmp32 = tmp31.exp2();
                            auto tmp33 = at::vec::VectorizedN<float,2>(tmp4);
                            auto tmp34 = tmp33 * tmp32;
                            auto tmp35 = at::vec::VectorizedN<float,2>(tmp3);
                            auto tmp36 = decltype(tmp35)::blendv(tmp34, tmp35, tmp22.template cast<float,2>());
                            auto tmp37 = at::vec::convert<at::BFloat16,1,float,2>(tmp36);
                            tmp37.store(out_ptr1 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                        }
                    }
                }
            }
        }
        #pragma omp single
        {
            {
                {
                    {
                        auto tmp0 = in_out_ptr0[static_cast<int64_t>(0L)];
                        auto tmp5 = in_ptr5[static_cast<int64_t>(0L)];
                        auto tmp1 = float(tmp0 * tmp5);
                        in_out_ptr0[static_cast<int64_t>(0L)] = tmp1;
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}


# --- compiled graph 1
def call(args):
    arg0_1, arg1_1 = args
    arg0_1_size = arg0_1.size()
    s26 = arg0_1_size[0]
    assert_size_stride(arg0_1, (s26, 16), (16, 1), 'input')
    assert_size_stride(arg1_1, (), (), 'input')
    cpp_fused_0(arg0_1, arg1_1, arg0_1, s26)
    del arg0_1
    return (arg1_1, )


extern "C"  void  cpp_fused_0(const at::BFloat16* in_ptr0,
                       const float* in_ptr1,
                       at::BFloat16* out_ptr1,
                       const int64_t ks0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(16L*ks0); x0+=static_cast<int64_t>(16L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(16L*ks0)))
                    {
                        auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                        auto tmp1 = in_ptr1[static_cast<int64_t>(0L)];
                        auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                        auto tmp3 = static_cast<float>(0.0);
                        auto tmp4 = at::vec::VectorizedN<float,2>(tmp3);
                        auto tmp5 = at::vec::VecMask<float,2>(tmp2 == tmp4);
                        auto tmp6 = c10::convert<float>(tmp1);
                        auto tmp7 = at::vec::VectorizedN<float,2>(tmp6);
                        auto tmp8 = tmp2 * tmp7;
                        auto tmp9 = decltype(tmp2)::blendv(tmp8, tmp2, tmp5.template cast<float,2>());
                        auto tmp10 = at::vec::convert<at::BFloat16,1,float,2>(tmp9);
                        tmp10.store(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
