# forward of ce(x, t, ignore_index=0, label_smoothing=0.1)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1), 'input')
    assert_size_stride(primals_2, (4096, ), (1, ), 'input')
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf5 = buf2; del buf2  # reuse
    buf6 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf7 = empty_strided_cpu((), (), torch.float32)
    buf8 = empty_strided_cpu((), (), torch.float32)
    buf9 = buf7; del buf7  # reuse
    cpp_fused_ce_fwd_0(buf5, buf9, primals_1, primals_2, buf3, buf4, buf6, buf0, buf8)
    return (buf9, primals_1, primals_2, buf5, buf6, buf8, )


extern "C"  void  cpp_fused_ce_fwd_0(float* in_out_ptr0,
                       float* in_out_ptr1,
                       const at::BFloat16* in_ptr0,
                       const int64_t* in_ptr1,
                       float* out_ptr1,
                       float* out_ptr2,
                       float* out_ptr3,
                       bool* out_ptr4,
                       float* out_ptr6)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
    auto out_ptr5 = in_out_ptr1;
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4096L); x0+=static_cast<int64_t>(1L))
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
                                auto tmp4 = static_cast<int64_t>(0);
                                auto tmp5 = tmp3 != tmp4;
                                auto tmp6 = tmp3 >= tmp4;
                                auto tmp7 = static_cast<int64_t>(128256);
                                auto tmp8 = tmp3 < tmp7;
                                auto tmp9 = tmp6 && tmp8;
                                auto tmp10 = tmp5 && tmp9;
                                auto tmp11 = c10::convert<int32_t>(tmp3);
                                auto tmp12 = static_cast<int32_t>(-1);
                                auto tmp13 = tmp10 ? tmp11 : tmp12;
                                auto tmp14 = x1;
                                auto tmp15 = c10::convert<int32_t>(tmp14);
                                auto tmp16 = at::vec::VectorizedN<int32_t,2>::arange(tmp15, 1);
                                auto tmp17 = at::vec::VectorizedN<int32_t,2>(tmp13);
                                auto tmp18 = at::vec::VecMask<int32_t,2>(tmp16 == tmp17);
                                auto tmp19 = -std::numeric_limits<float>::infinity();
                                auto tmp20 = at::vec::VectorizedN<float,2>(tmp19);
                                auto tmp21 = decltype(tmp20)::blendv(tmp2, tmp20, tmp18.template cast<float,2>());
                                tmp_acc0_vec = at::vec::maximum(tmp_acc0_vec, tmp21);
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
                    float tmp_acc1 = 0;
                    at::vec::VectorizedN<float,2> tmp_acc1_vec = at::vec::VectorizedN<float,2>(0);
                    at::vec::VectorizedN<float,2> masked_tmp_acc1_vec = at::vec::VectorizedN<float,2>(0);
                    CascadeSumHelper<float, 4096> scalar_cascade_helper0(static_cast<int64_t>(128256L));
                    CascadeSumHelper<at::vec::VectorizedN<float,2>, 4096> cascade_helper0(static_cast<int64_t>(8016L));
                    CascadeSumHelper<at::vec::VectorizedN<float,2>, 4096> masked_cascade_helper0(static_cast<int64_t>(0L));
                    CascadeSumHelper<float, 4096> scalar_cascade_helper1(static_cast<int64_t>(128256L));
                    CascadeSumHelper<at::vec::VectorizedN<float,2>, 4096> cascade_helper1(static_cast<int64_t>(8016L));
                    CascadeSumHelper<at::vec::VectorizedN<float,2>, 4096> masked_cascade_helper1(static_cast<int64_t>(0L));
                    for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(128256L); x1+=static_cast<int64_t>(16L))
                    {
                        {
                            if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(128256L)))
                            {
                                auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                                auto tmp1 = in_ptr1[static_cast<int64_t>(x0)];
                                auto tmp22 = out_ptr0[static_cast<int64_t>(x0)];
                                auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                                auto tmp3 = c10::convert<int64_t>(tmp1);
                                auto tmp4 = static_cast<int64_t>(0);
                                auto tmp5 = tmp3 != tmp4;
                                auto tmp6 = tmp3 >= tmp4;
                                auto tmp7 = static_cast<int64_t>(128256);
                                auto tmp8 = tmp3 < tmp7;
                                auto tmp9 = tmp6 && tmp8;
                                auto tmp10 = tmp5 && tmp9;
                                auto tmp11 = c10::convert<int32_t>(tmp3);
                                auto tmp12 = static_cast<int32_t>(-1);
                                auto tmp13 = tmp10 ? tmp11 : tmp12;
                                auto tmp14 = x1;
                                auto tmp15 = c10::convert<int32_t>(tmp14);
                                auto tmp16 = at::vec::VectorizedN<int32_t,2>::arange(tmp15, 1);
                                auto tmp17 = at::vec::VectorizedN<int32_t,2>(tmp13);
                                auto tmp18 = at::vec::VecMask<int32_t,2>(tmp16 == tmp17);
                                auto tmp19 = -std::numeric_limits<float>::infinity();
                                auto tmp20 = at::vec::VectorizedN<float,2>(tmp19);
                                auto tmp21 = decltype(tmp20)::blendv(tmp2, tmp20, tmp18.template cast<float,2>());
                                auto tmp23 = tmp22 == tmp19;
                                auto tmp24 = static_cast<float>(0.0);
                                auto tmp25 = tmp23 ? tmp24 : tmp22;
                                auto tmp26 = at::vec::VectorizedN<float,2>(tmp25);
                                auto tmp27 = tmp21 - tmp26;
                                auto tmp28 = static_cast<float>(1.4426950408889634);
                                auto tmp29 = at::vec::VectorizedN<float,2>(tmp28);
                                auto tmp30 = tmp27 * tmp29;
                                auto tmp31 = tmp30.exp2();
                                auto tmp32 = static_cast<float>(1.0);
                                auto tmp33 = at::vec::VectorizedN<float,2>(tmp32);
                                auto tmp34 = tmp33 * tmp2;
                                tmp_acc0_vec = cascade_sum_combine(tmp31, &cascade_helper0);
                                tmp_acc1_vec = cascade_sum_combine(tmp34, &cascade_helper1);
                            }
                        }
                    }
                    tmp_acc0 = cascade_sum_final(&scalar_cascade_helper0);
                    tmp_acc0_vec = cascade_sum_final(&cascade_helper0);
                    masked_tmp_acc0_vec = cascade_sum_final(&masked_cascade_helper0);
                    tmp_acc1 = cascade_sum_final(&scalar_cascade_helper1);
                    tmp_acc1_vec = cascade_sum_final(&cascade_helper1);
                    masked_tmp_acc1_vec = cascade_sum_final(&masked_cascade_helper1);
                    tmp_acc0 = tmp_acc0 + at::vec::vec_reduce_all<float, 2>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc0_vec + masked_tmp_acc0_vec);
                    out_ptr1[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc0);
                    tmp_acc1 = tmp_acc1 + at::vec::vec_reduce_all<float, 2>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc1_vec + masked_tmp_acc1_vec);
                    out_ptr2[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc1);
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
                for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4096L); x0+=static_cast<int64_t>(8L))
                {
                    {
                        if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(4096L)))
                        {
                            auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp2 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp4 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp35 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp1 = tmp2.log();
                            auto tmp3 = tmp0 + tmp1;
                            auto tmp5 = at::vec::convert<int32_t,1,int64_t,2>(tmp4);
                            auto tmp6 = static_cast<int32_t>(0);
                            auto tmp7 = at::vec::Vectorized<int32_t>(tmp6);
                            auto tmp8 = at::vec::VecMask<int32_t,1>(tmp5 != tmp7);
                            auto tmp9 = (tmp4);
                            auto tmp10 = static_cast<int64_t>(0);
                            auto tmp11 = at::vec::VectorizedN<int64_t,2>(tmp10);
                            auto tmp12 = at::vec::VecMask<int64_t,2>(tmp9 != tmp11);
                            auto tmp13 = at::vec::VecMask<int64_t,2>(tmp9 >= tmp11);
                            auto tmp14 = static_cast<int64_t>(128256);
                            auto tmp15 = at::vec::VectorizedN<int64_t,2>(tmp14);
                            auto tmp16 = at::vec::VecMask<int64_t,2>(tmp9 < tmp15);
                            auto tmp17 = tmp13.template cast<int32_t,1>();
                            auto tmp18 = tmp16.template cast<int32_t,1>();
                            auto tmp19 = tmp17 & tmp18;
                            auto tmp20 = tmp12.template cast<int32_t,1>();
                            auto tmp21 = tmp19.template cast<int32_t,1>();
                            auto tmp22 = tmp20 & tmp21;
                            auto tmp23 = at::vec::convert<int32_t,1,int64_t,2>(tmp9);
                            auto tmp24 = static_cast<int32_t>(-1);
                            auto tmp25 = at::vec::Vectorized<int32_t>(tmp24);
                            auto tmp26 = decltype(tmp23)::blendv(tmp25, tmp23, tmp22.template cast<int32_t,1>());
                            auto tmp27 = at::vec::VecMask<int32_t,1>(tmp26 >= tmp7);
                            auto tmp28 = decltype(tmp26)::blendv(tmp7, tmp26, tmp27.template cast<int32_t,1>());
                            auto tmp29 = 128256L;
                            auto tmp30 = c10::convert<int64_t>(tmp29);
                            auto tmp31 = at::vec::convert<int64_t,2,int32_t,1>(tmp28);
                            auto tmp32 = at::vec::VectorizedN<int64_t,2>(tmp30);
                            auto tmp33 = tmp31 + tmp32;
                            auto tmp34 = at::vec::VecMask<int64_t,2>(tmp31 < tmp11);
                            auto tmp36 = decltype(tmp33)::blendv(tmp31, tmp33, tmp34.template cast<int64_t,2>());
                            auto tmp37 =
                            [&]
                            {
                                __at_align__ std::array<int64_t, 8> tmpbuf;
                                tmp36.store(tmpbuf.data(), static_cast<int64_t>(8));
                                return tmpbuf;
                            }
                            ()
                            ;
                            auto tmp38 =
                            [&]
                            {
                                __at_align__ std::array<at::BFloat16, 16> tmpbuf;
                                #pragma GCC unroll 8
                                for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                                {
                                    tmpbuf[x0_inner] = in_ptr0[static_cast<int64_t>(tmp37[x0_inner] + 128256L*x0 + 128256L*x0_inner)];
                                }
                                return at::vec::Vectorized<at::BFloat16>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                            }
                            ()
                            ;
                            auto tmp39 = at::vec::convert<float>(tmp38);
                            auto tmp40 = -std::numeric_limits<float>::infinity();
                            auto tmp41 = at::vec::Vectorized<float>(tmp40);
                            auto tmp42 = decltype(tmp39)::blendv(tmp41, tmp39, tmp27.template cast<float,1>());
                            auto tmp43 = static_cast<float>(0.0);
                            auto tmp44 = at::vec::Vectorized<float>(tmp43);
                            auto tmp45 = decltype(tmp42)::blendv(tmp44, tmp42, tmp8.template cast<float,1>());
                            auto tmp46 = at::vec::VecMask<int64_t,2>(tmp9 == tmp11);
                            auto tmp47 = tmp46.template cast<int32_t,1>();
                            auto tmp48 = tmp47 | tmp21;
                            auto tmp49 = ~tmp48;
                            auto tmp50 = tmp49.template cast<float,1>();
                            auto tmp51 = tmp8.to<float,1>();
                            auto tmp52 = static_cast<float>(0.9);
                            auto tmp53 = at::vec::Vectorized<float>(tmp52);
                            auto tmp54 = tmp51 * tmp53;
                            auto tmp55 = decltype(tmp3)::blendv(tmp44, tmp3, tmp8.template cast<float,1>());
                            auto tmp56 = tmp55 - tmp45;
                            auto tmp57 = static_cast<float>(20.0);
                            auto tmp58 = at::vec::Vectorized<float>(tmp57);
                            auto tmp59 = at::vec::VecMask<float,1>(tmp56 > tmp58);
                            auto tmp60 = tmp56.exp();
                            auto tmp61 = tmp60.log1p();
                            auto tmp62 = decltype(tmp56)::blendv(tmp61, tmp56, tmp59.template cast<float,1>());
                            auto tmp63 = tmp54 * tmp62;
                            auto tmp64 = at::vec::VecMask<float,1>(tmp55 == tmp55);
                            auto tmp65 = tmp55.abs();
                            auto tmp66 = std::numeric_limits<float>::infinity();
                            auto tmp67 = at::vec::Vectorized<float>(tmp66);
                            auto tmp68 = at::vec::VecMask<float,1>(tmp65 != tmp67);
                            auto tmp69 = tmp64.template cast<int32_t,1>();
                            auto tmp70 = tmp68.template cast<int32_t,1>();
                            auto tmp71 = tmp69 & tmp70;
                            auto tmp72 = ~tmp71;
                            auto tmp73 = at::vec::VecMask<float,1>(tmp55 == tmp45);
                            auto tmp74 = tmp72.template cast<int32_t,1>();
                            auto tmp75 = tmp73.template cast<int32_t,1>();
                            auto tmp76 = tmp74 & tmp75;
                            auto tmp77 = at::vec::VecMask<float,1>(tmp55 >= tmp45);
                            auto tmp78 = decltype(tmp55)::blendv(tmp45, tmp55, tmp77.template cast<float,1>());
                            auto tmp79 = decltype(tmp45)::blendv(tmp55, tmp45, tmp77.template cast<float,1>());
                            auto tmp80 = tmp79 - tmp78;
                            auto tmp81 = tmp80.exp();
                            auto tmp82 = tmp81.log1p();
                            auto tmp83 = tmp78 + tmp82;
                            auto tmp84 = decltype(tmp55)::blendv(tmp83, tmp55, tmp76.template cast<float,1>());
                            auto tmp85 = static_cast<float>(128256.0);
                            auto tmp86 = at::vec::Vectorized<float>(tmp85);
                            auto tmp87 = tmp84 * tmp86;
                            auto tmp88 = decltype(tmp35)::blendv(tmp44, tmp35, tmp8.template cast<float,1>());
                            auto tmp89 = tmp87 - tmp88;
                            auto tmp90 = static_cast<float>(7.796906187624751e-07);
                            auto tmp91 = at::vec::Vectorized<float>(tmp90);
                            auto tmp92 = tmp89 * tmp91;
                            auto tmp93 = tmp63 + tmp92;
                            auto tmp94 = decltype(tmp93)::blendv(tmp44, tmp93, tmp8.template cast<float,1>());
                            tmp3.store(in_out_ptr0 + static_cast<int64_t>(x0));
                            tmp45.store(out_ptr3 + static_cast<int64_t>(x0));
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp50;
                            tmp_acc1_vec_local = tmp_acc1_vec_local + tmp94;
                            tmp_acc2_vec_local = tmp_acc2_vec_local + tmp51;
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
            out_ptr4[static_cast<int64_t>(0L)] = static_cast<bool>(tmp_acc0);
            tmp_acc1 = tmp_acc1 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc1_vec);
            out_ptr5[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc1);
            tmp_acc2 = tmp_acc2 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc2_vec);
            out_ptr6[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc2);
        }
    }
    {
        {
            {
                auto tmp3 = out_ptr4[static_cast<int64_t>(0L)];
                auto tmp0 = static_cast<int64_t>(0);
                auto tmp2 = static_cast<int64_t>(1);
                auto tmp1 = tmp0 >= tmp2;
                auto tmp4 = !tmp3;
                auto tmp5 = tmp1 || tmp4;
                (tmp5 ? 0 : (throw std::runtime_error("inductor_ce.cross_entropy: target out of range: every target must be in [0, V) or equal to ignore_index"), 0));
            }
        }
    }
    {
        {
            {
                auto tmp0 = out_ptr5[static_cast<int64_t>(0L)];
                auto tmp2 = out_ptr6[static_cast<int64_t>(0L)];
                auto tmp1 = tmp0 / tmp2;
                in_out_ptr1[static_cast<int64_t>(0L)] = tmp1;
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
