# forward of ce(x, t), rows marked dynamic
def call(args):
    primals_1, primals_2, primals_3, primals_4 = args
    s13 = primals_1
    s77 = s13
    assert_size_stride_grouped((primals_2, primals_4), ((s13, 128256), (s13, )), ((128256, 1), (1, )), 'input')
    buf3 = empty_strided_cpu((s13, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((s13, ), (1, ), torch.float32)
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf5 = buf3; del buf3  # reuse
    buf6 = empty_strided_cpu((s13, ), (1, ), torch.bool)
    buf7 = empty_strided_cpu((s13, ), (1, ), torch.float32)
    buf8 = empty_strided_cpu((), (), torch.float32)
    buf9 = empty_strided_cpu((), (), torch.float32)
    buf1 = buf0; del buf0  # reuse
    cpp_fused_ce_fwd_0(buf5, buf1, primals_2, primals_4, buf4, buf6, buf7, buf8, buf9, s13)
    del buf4
    torch.ops.aten._assert_async.msg(buf1, 'inductor_ce: target out of range: every target must be in [0, V) or equal to ignore_index')
    del buf1
    buf10 = buf8; del buf8  # reuse
    cpp_fused_1(buf10, buf9)
    return (buf10, primals_2, primals_4, buf5, buf6, buf7, buf9, s13, s13, )


extern "C"  void  cpp_fused_ce_fwd_0(float* in_out_ptr0,
                       bool* in_out_ptr1,
                       const at::BFloat16* in_ptr0,
                       const int64_t* in_ptr1,
                       float* out_ptr1,
                       bool* out_ptr3,
                       float* out_ptr4,
                       float* out_ptr5,
                       float* out_ptr6,
                       const int64_t ks0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
    auto out_ptr2 = in_out_ptr1;
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
            float tmp_acc2 = 0;
            at::vec::Vectorized<float> tmp_acc2_vec = at::vec::Vectorized<float>(0);
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
            at::vec::Vectorized<float> tmp_acc2_vec_arr[max_threads];
            for (int i = 0; i < max_threads; i++)
            {
                tmp_acc2_vec_arr[i] = at::vec::Vectorized<float>(0);
            }
            float tmp_acc2_arr[max_threads];
            for (int i = 0; i < max_threads; i++)
            {
                tmp_acc2_arr[i] = 0;
            }
            #pragma omp parallel
            {
                int tid = omp_get_thread_num();
                at::vec::VecMask<float,1> tmp_acc0_vec_local = at::vec::VecMask<float,1>::from(0);
                bool tmp_acc0_local = 0;
                at::vec::Vectorized<float> tmp_acc1_vec_local = at::vec::Vectorized<float>(0);
                float tmp_acc1_local = 0;
                at::vec::Vectorized<float> tmp_acc2_vec_local = at::vec::Vectorized<float>(0);
                float tmp_acc2_local = 0;
                #pragma omp for
                for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(8L))
                {
                    {
                        if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))))))
                        {
                            auto tmp0 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp19 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp20 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp2 = (tmp0);
                            auto tmp1 = static_cast<int64_t>(-100);
                            auto tmp3 = at::vec::VectorizedN<int64_t,2>(tmp1);
                            auto tmp4 = at::vec::VecMask<int64_t,2>(tmp2 == tmp3);
                            auto tmp5 = static_cast<int64_t>(0);
                            auto tmp6 = at::vec::VectorizedN<int64_t,2>(tmp5);
                            auto tmp7 = at::vec::VecMask<int64_t,2>(tmp2 >= tmp6);
                            auto tmp8 = static_cast<int64_t>(128256);
                            auto tmp9 = at::vec::VectorizedN<int64_t,2>(tmp8);
                            auto tmp10 = at::vec::VecMask<int64_t,2>(tmp2 < tmp9);
                            auto tmp11 = tmp7.template cast<int32_t,1>();
                            auto tmp12 = tmp10.template cast<int32_t,1>();
                            auto tmp13 = tmp11 & tmp12;
                            auto tmp14 = tmp4.template cast<int32_t,1>();
                            auto tmp15 = tmp13.template cast<int32_t,1>();
                            auto tmp16 = tmp14 | tmp15;
                            auto tmp17 = ~tmp16;
                            auto tmp18 = tmp17.template cast<float,1>();
                            auto tmp21 = tmp20.log();
                            auto tmp22 = tmp19 + tmp21;
                            auto tmp23 = at::vec::VecMask<int64_t,2>(tmp0 != tmp3);
                            auto tmp24 = static_cast<float>(0.0);
                            auto tmp25 = at::vec::Vectorized<float>(tmp24);
                            auto tmp26 = decltype(tmp22)::blendv(tmp25, tmp22, tmp23.template cast<float,1>());
                            auto tmp27 = at::vec::VecMask<int64_t,2>(tmp2 != tmp3);
                            auto tmp28 = tmp27.template cast<int32_t,1>();
                            auto tmp29 = tmp28 & tmp15;
                            auto tmp30 = at::vec::convert<int32_t,1,int64_t,2>(tmp2);
                            auto tmp31 = static_cast<int32_t>(-1);
                            auto tmp32 = at::vec::Vectorized<int32_t>(tmp31);
                            auto tmp33 = decltype(tmp30)::blendv(tmp32, tmp30, tmp29.template cast<int32_t,1>());
                            auto tmp34 = static_cast<int32_t>(0);
                            auto tmp35 = at::vec::Vectorized<int32_t>(tmp34);
                            auto tmp36 = at::vec::VecMask<int32_t,1>(tmp33 >= tmp35);
                            auto tmp37 = decltype(tmp33)::blendv(tmp35, tmp33, tmp36.template cast<int32_t,1>());
                            auto tmp38 = 128256L;
                            auto tmp39 = c10::convert<int64_t>(tmp38);
                            auto tmp40 = at::vec::convert<int64_t,2,int32_t,1>(tmp37);
                            auto tmp41 = at::vec::VectorizedN<int64_t,2>(tmp39);
                            auto tmp42 = tmp40 + tmp41;
                            auto tmp43 = at::vec::VecMask<int64_t,2>(tmp40 < tmp6);
                            auto tmp44 = decltype(tmp42)::blendv(tmp40, tmp42, tmp43.template cast<int64_t,2>());
                            auto tmp45 =
                            [&]
                            {
                                __at_align__ std::array<int64_t, 8> tmpbuf;
                                tmp44.store(tmpbuf.data(), static_cast<int64_t>(8));
                                return tmpbuf;
                            }
                            ()
                            ;
                            auto tmp46 =
                            [&]
                            {
                                __at_align__ std::array<at::BFloat16, 16> tmpbuf;
                                #pragma GCC unroll 8
                                for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                                {
                                    tmpbuf[x0_inner] = in_ptr0[static_cast<int64_t>(tmp45[x0_inner] + 128256L*x0 + 128256L*x0_inner)];
                                }
                                return at::vec::Vectorized<at::BFloat16>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                            }
                            ()
                            ;
                            auto tmp47 = at::vec::convert<float>(tmp46);
                            auto tmp48 = -std::numeric_limits<float>::infinity();
                            auto tmp49 = at::vec::Vectorized<float>(tmp48);
                            auto tmp50 = decltype(tmp47)::blendv(tmp49, tmp47, tmp36.template cast<float,1>());
                            auto tmp51 = decltype(tmp50)::blendv(tmp25, tmp50, tmp23.template cast<float,1>());
                            auto tmp52 = at::vec::maximum(tmp51, tmp25);
                            auto tmp53 = tmp52 * tmp25;
                            auto tmp54 = tmp26 + tmp53;
                            auto tmp55 = tmp54 - tmp51;
                            auto tmp56 = tmp23.to<float,1>();
                            auto tmp57 = static_cast<float>(20.0);
                            auto tmp58 = at::vec::Vectorized<float>(tmp57);
                            auto tmp59 = at::vec::VecMask<float,1>(tmp55 > tmp58);
                            auto tmp60 = tmp55.exp();
                            auto tmp61 = tmp60.log1p();
                            auto tmp62 = decltype(tmp55)::blendv(tmp61, tmp55, tmp59.template cast<float,1>());
                            auto tmp63 = tmp56 * tmp62;
                            auto tmp64 = decltype(tmp63)::blendv(tmp25, tmp63, tmp23.template cast<float,1>());
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp18;
                            tmp22.store(in_out_ptr0 + static_cast<int64_t>(x0));
                            tmp23.store(out_ptr3 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            tmp55.store(out_ptr4 + static_cast<int64_t>(x0));
                            tmp_acc1_vec_local = tmp_acc1_vec_local + tmp64;
                            tmp_acc2_vec_local = tmp_acc2_vec_local + tmp56;
                        }
                        if(C10_UNLIKELY(x0 >= static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))) && x0 < static_cast<int64_t>(ks0)))
                        {
                            for (int64_t x0_tail = static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))));x0_tail < static_cast<int64_t>(ks0); x0_tail++)
                            {
                                auto tmp0 = in_ptr1[static_cast<int64_t>(x0_tail)];
                                auto tmp11 = out_ptr0[static_cast<int64_t>(x0_tail)];
                                auto tmp12 = out_ptr1[static_cast<int64_t>(x0_tail)];
                                auto tmp2 = c10::convert<int64_t>(tmp0);
                                auto tmp1 = static_cast<int64_t>(-100);
                                auto tmp3 = tmp2 == tmp1;
                                auto tmp4 = static_cast<int64_t>(0);
                                auto tmp5 = tmp2 >= tmp4;
                                auto tmp6 = static_cast<int64_t>(128256);
                                auto tmp7 = tmp2 < tmp6;
                                auto tmp8 = tmp5 && tmp7;
                                auto tmp9 = tmp3 || tmp8;
                                auto tmp10 = !tmp9;
                                auto tmp13 = std::log(tmp12);
                                auto tmp14 = float(tmp11 + tmp13);
                                auto tmp15 = tmp0 != tmp1;
                                auto tmp16 = static_cast<float>(0.0);
                                auto tmp17 = tmp15 ? tmp14 : tmp16;
                                auto tmp18 = tmp2 != tmp1;
                                auto tmp19 = tmp18 && tmp8;
                                auto tmp20 = c10::convert<int32_t>(tmp2);
                                auto tmp21 = static_cast<int32_t>(-1);
                                auto tmp22 = tmp19 ? tmp20 : tmp21;
                                auto tmp23 = static_cast<int32_t>(0);
                                auto tmp24 = tmp22 >= tmp23;
                                auto tmp25 = tmp24 ? tmp22 : tmp23;
                                auto tmp26 = 128256L;
                                auto tmp27 = c10::convert<int64_t>(tmp26);
                                auto tmp28 = int64_t(static_cast<std::make_unsigned_t<int64_t>>(tmp25) + static_cast<std::make_unsigned_t<int64_t>>(tmp27));
                                auto tmp29 = tmp25 < 0;
                                auto tmp30 = tmp29 ? tmp28 : tmp25;
                                auto tmp31 = in_ptr0[static_cast<int64_t>(tmp30 + 128256L*x0_tail)];
                                auto tmp32 = c10::convert<float>(tmp31);
                                auto tmp33 = -std::numeric_limits<float>::infinity();
                                auto tmp34 = tmp24 ? tmp32 : tmp33;
                                auto tmp35 = tmp15 ? tmp34 : tmp16;
                                auto tmp36 = max_propagate_nan(tmp35, tmp16);
                                auto tmp37 = float(tmp36 * tmp16);
                                auto tmp38 = float(tmp17 + tmp37);
                                auto tmp39 = float(tmp38 - tmp35);
                                auto tmp40 = c10::convert<float>(tmp15);
                                auto tmp41 = static_cast<float>(20.0);
                                auto tmp42 = tmp39 > tmp41;
                                auto tmp43 = std::exp(tmp39);
                                auto tmp44 = std::log1p(tmp43);
                                auto tmp45 = tmp42 ? tmp39 : tmp44;
                                auto tmp46 = float(tmp40 * tmp45);
                                auto tmp47 = tmp15 ? tmp46 : tmp16;
                                tmp_acc0_local = tmp_acc0_local || tmp10;
                                in_out_ptr0[static_cast<int64_t>(x0_tail)] = tmp14;
                                out_ptr3[static_cast<int64_t>(x0_tail)] = tmp15;
                                out_ptr4[static_cast<int64_t>(x0_tail)] = tmp39;
                                tmp_acc1_local = tmp_acc1_local + tmp47;
                                tmp_acc2_local = tmp_acc2_local + tmp40;
                            }
                        }
                    }
                }
                tmp_acc0_vec_arr[tid] = tmp_acc0_vec_local;
                tmp_acc0_arr[tid] = tmp_acc0_local;
                tmp_acc1_vec_arr[tid] = tmp_acc1_vec_local;
                tmp_acc1_arr[tid] = tmp_acc1_local;
                tmp_acc2_vec_arr[tid] = tmp_acc2_vec_local;
                tmp_acc2_arr[tid] = tmp_acc2_local;
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
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc2_vec = tmp_acc2_vec + tmp_acc2_vec_arr[tid];
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc2 = tmp_acc2 + tmp_acc2_arr[tid];
            }
            tmp_acc0 = tmp_acc0 || !tmp_acc0_vec.all_zero();
            out_ptr2[static_cast<int64_t>(0L)] = static_cast<bool>(tmp_acc0);
            tmp_acc1 = tmp_acc1 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc1_vec);
            out_ptr5[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc1);
            tmp_acc2 = tmp_acc2 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc2_vec);
            out_ptr6[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc2);
        }
    }
    {
        {
            {
                auto tmp0 = out_ptr2[static_cast<int64_t>(0L)];
                auto tmp2 = !tmp0;
                in_out_ptr1[static_cast<int64_t>(0L)] = tmp2;
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}


extern "C"  void  cpp_fused_1(float* in_out_ptr0,
                       const float* in_ptr0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    {
        {
            {
                auto tmp0 = in_out_ptr0[static_cast<int64_t>(0L)];
                auto tmp1 = in_ptr0[static_cast<int64_t>(0L)];
                auto tmp2 = tmp0 / tmp1;
                in_out_ptr0[static_cast<int64_t>(0L)] = tmp2;
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
