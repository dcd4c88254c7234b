# forward of ce(x, t, return_lse=True)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1), 'input')
    assert_size_stride(primals_2, (4096, ), (1, ), 'input')
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf5 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf6 = buf3; del buf3  # reuse
    buf7 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf8 = buf5; del buf5  # reuse
    buf9 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf10 = empty_strided_cpu((), (), torch.float32)
    buf11 = empty_strided_cpu((), (), torch.float32)
    buf1 = buf0; del buf0  # reuse
    buf12 = buf10; del buf10  # reuse
    cpp_fused_ce_fwd_0(buf6, buf8, buf1, buf12, primals_1, primals_2, buf4, buf7, buf9, buf11)
    return (buf12, buf9, primals_1, primals_2, buf6, buf7, buf8, buf11, )


extern "C"  void  cpp_fused_ce_fwd_0(float* in_out_ptr0,
                       float* in_out_ptr1,
                       bool* in_out_ptr2,
                       float* in_out_ptr3,
                       const at::BFloat16* in_ptr0,
                       const int64_t* in_ptr1,
                       float* out_ptr1,
                       bool* out_ptr4,
                       float* out_ptr5,
                       float* out_ptr7)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
    auto out_ptr2 = in_out_ptr1;
    auto out_ptr3 = in_out_ptr2;
    auto out_ptr6 = in_out_ptr3;
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
                                auto tmp33 = at::vec::VectorizedN<float,2>(tmp25);
                                auto tmp34 = decltype(tmp2)::blendv(tmp33, tmp2, tmp19.template cast<float,2>());
                                tmp_acc0_vec = cascade_sum_combine(tmp32, &cascade_helper0);
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
                            auto tmp0 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp18 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp19 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp23 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp2 = static_cast<int64_t>(-100);
                            auto tmp1 = at::vec::VectorizedN<int64_t,2>(tmp2);
                            auto tmp3 = at::vec::VecMask<int64_t,2>(tmp0 == tmp1);
                            auto tmp4 = static_cast<int64_t>(0);
                            auto tmp5 = at::vec::VectorizedN<int64_t,2>(tmp4);
                            auto tmp6 = at::vec::VecMask<int64_t,2>(tmp0 >= tmp5);
                            auto tmp7 = static_cast<int64_t>(128256);
                            auto tmp8 = at::vec::VectorizedN<int64_t,2>(tmp7);
                            auto tmp9 = at::vec::VecMask<int64_t,2>(tmp0 < tmp8);
                            auto tmp10 = tmp6.template cast<int32_t,1>();
                            auto tmp11 = tmp9.template cast<int32_t,1>();
                            auto tmp12 = tmp10 & tmp11;
                            auto tmp13 = tmp3.template cast<int32_t,1>();
                            auto tmp14 = tmp12.template cast<int32_t,1>();
                            auto tmp15 = tmp13 | tmp14;
                            auto tmp16 = ~tmp15;
                            auto tmp17 = tmp16.template cast<float,1>();
                            auto tmp20 = tmp19.log();
                            auto tmp21 = tmp18 + tmp20;
                            auto tmp22 = at::vec::VecMask<int64_t,2>(tmp0 != tmp1);
                            auto tmp24 = (tmp0);
                            auto tmp25 = at::vec::VecMask<int64_t,2>(tmp24 != tmp1);
                            auto tmp26 = at::vec::VecMask<int64_t,2>(tmp24 >= tmp5);
                            auto tmp27 = at::vec::VecMask<int64_t,2>(tmp24 < tmp8);
                            auto tmp28 = tmp26.template cast<int32_t,1>();
                            auto tmp29 = tmp27.template cast<int32_t,1>();
                            auto tmp30 = tmp28 & tmp29;
                            auto tmp31 = tmp25.template cast<int32_t,1>();
                            auto tmp32 = tmp30.template cast<int32_t,1>();
                            auto tmp33 = tmp31 & tmp32;
                            auto tmp34 = at::vec::convert<int32_t,1,int64_t,2>(tmp24);
                            auto tmp35 = static_cast<int32_t>(-1);
                            auto tmp36 = at::vec::Vectorized<int32_t>(tmp35);
                            auto tmp37 = decltype(tmp34)::blendv(tmp36, tmp34, tmp33.template cast<int32_t,1>());
                            auto tmp38 = static_cast<int32_t>(0);
                            auto tmp39 = at::vec::Vectorized<int32_t>(tmp38);
                            auto tmp40 = at::vec::VecMask<int32_t,1>(tmp37 >= tmp39);
                            auto tmp41 = -std::numeric_limits<float>::infinity();
                            auto tmp42 = at::vec::Vectorized<float>(tmp41);
                            auto tmp43 = decltype(tmp23)::blendv(tmp42, tmp23, tmp40.template cast<float,1>());
                            auto tmp44 = static_cast<float>(0.0);
                            auto tmp45 = at::vec::Vectorized<float>(tmp44);
                            auto tmp46 = decltype(tmp43)::blendv(tmp45, tmp43, tmp22.template cast<float,1>());
                            auto tmp47 = decltype(tmp21)::blendv(tmp45, tmp21, tmp22.template cast<float,1>());
                            auto tmp48 = at::vec::VecMask<float,1>(tmp47 == tmp47);
                            auto tmp49 = tmp47.abs();
                            auto tmp50 = std::numeric_limits<float>::infinity();
                            auto tmp51 = at::vec::Vectorized<float>(tmp50);
                            auto tmp52 = at::vec::VecMask<float,1>(tmp49 != tmp51);
                            auto tmp53 = tmp48.template cast<int32_t,1>();
                            auto tmp54 = tmp52.template cast<int32_t,1>();
                            auto tmp55 = tmp53 & tmp54;
                            auto tmp56 = ~tmp55;
                            auto tmp57 = at::vec::VecMask<float,1>(tmp47 == tmp46);
                            auto tmp58 = tmp56.template cast<int32_t,1>();
                            auto tmp59 = tmp57.template cast<int32_t,1>();
                            auto tmp60 = tmp58 & tmp59;
                            auto tmp61 = at::vec::VecMask<float,1>(tmp47 >= tmp46);
                            auto tmp62 = decltype(tmp47)::blendv(tmp46, tmp47, tmp61.template cast<float,1>());
                            auto tmp63 = decltype(tmp46)::blendv(tmp47, tmp46, tmp61.template cast<float,1>());
                            auto tmp64 = tmp63 - tmp62;
                            auto tmp65 = tmp64.exp();
                            auto tmp66 = tmp65.log1p();
                            auto tmp67 = tmp62 + tmp66;
                            auto tmp68 = decltype(tmp47)::blendv(tmp67, tmp47, tmp60.template cast<float,1>());
                            auto tmp69 = decltype(tmp68)::blendv(tmp21, tmp68, tmp22.template cast<float,1>());
                            auto tmp70 = tmp22.to<float,1>();
                            auto tmp71 = static_cast<float>(1.0);
                            auto tmp72 = at::vec::Vectorized<float>(tmp71);
                            auto tmp73 = tmp70 * tmp72;
                            auto tmp74 = tmp47 - tmp46;
                            auto tmp75 = static_cast<float>(20.0);
                            auto tmp76 = at::vec::Vectorized<float>(tmp75);
                            auto tmp77 = at::vec::VecMask<float,1>(tmp74 > tmp76);
                            auto tmp78 = tmp74.exp();
                            auto tmp79 = tmp78.log1p();
                            auto tmp80 = decltype(tmp74)::blendv(tmp79, tmp74, tmp77.template cast<float,1>());
                            auto tmp81 = tmp73 * tmp80;
                            auto tmp82 = decltype(tmp81)::blendv(tmp45, tmp81, tmp22.template cast<float,1>());
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp17;
                            tmp21.store(in_out_ptr0 + static_cast<int64_t>(x0));
                            tmp22.store(out_ptr4 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            tmp46.store(in_out_ptr1 + static_cast<int64_t>(x0));
                            tmp69.store(out_ptr5 + static_cast<int64_t>(x0));
                            tmp_acc1_vec_local = tmp_acc1_vec_local + tmp82;
                            tmp_acc2_vec_local = tmp_acc2_vec_local + tmp70;
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
            out_ptr3[static_cast<int64_t>(0L)] = static_cast<bool>(tmp_acc0);
            tmp_acc1 = tmp_acc1 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc1_vec);
            out_ptr6[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc1);
            tmp_acc2 = tmp_acc2 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc2_vec);
            out_ptr7[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc2);
        }
    }
    {
        {
            {
                auto tmp0 = out_ptr3[static_cast<int64_t>(0L)];
                auto tmp2 = !tmp0;
                (tmp2 ? 0 : (throw std::runtime_error("inductor_ce.cross_entropy: target out of range: every target must be in [0, V) or equal to ignore_index"), 0));
            }
        }
    }
    {
        {
            {
                auto tmp0 = out_ptr6[static_cast<int64_t>(0L)];
                auto tmp2 = out_ptr7[static_cast<int64_t>(0L)];
                auto tmp1 = tmp0 / tmp2;
                in_out_ptr3[static_cast<int64_t>(0L)] = tmp1;
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
