# forward of ce(x.float() / 0.7, t): a user-written cast and temperature
def call(args):
    primals_1, primals_2 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1), 'input')
    assert_size_stride(primals_2, (4096, ), (1, ), 'input')
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf5 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf6 = buf3; del buf3  # reuse
    buf7 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf10 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf8 = empty_strided_cpu((), (), torch.float32)
    buf9 = empty_strided_cpu((), (), torch.float32)
    buf1 = buf0; del buf0  # reuse
    buf11 = buf8; del buf8  # reuse
    cpp_fused_ce_fwd_0(buf6, buf1, buf11, primals_1, primals_2, buf4, buf5, buf7, buf10, buf9)
    return (buf11, primals_1, primals_2, buf6, buf7, buf9, buf10, )


extern "C"  void  cpp_fused_ce_fwd_0(float* in_out_ptr0,
                       bool* in_out_ptr1,
                       float* in_out_ptr2,
                       const at::BFloat16* in_ptr0,
                       const int64_t* in_ptr1,
                       float* out_ptr1,
                       float* out_ptr2,
                       bool* out_ptr3,
                       float* out_ptr4,
                       float* out_ptr7)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
    auto out_ptr5 = in_out_ptr1;
    auto out_ptr6 = in_out_ptr2;
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
                                auto tmp3 = static_cast<float>(0.7);
                                auto tmp4 = at::vec::VectorizedN<float,2>(tmp3);
                                auto tmp5 = tmp2 / tmp4;
                                auto tmp6 = (tmp5);
                                auto tmp7 = c10::convert<int64_t>(tmp1);
                                auto tmp8 = static_cast<int64_t>(-100);
                                auto tmp9 = tmp7 != tmp8;
                                auto tmp10 = static_cast<int64_t>(0);
                                auto tmp11 = tmp7 >= tmp10;
                                auto tmp12 = static_cast<int64_t>(128256);
                                auto tmp13 = tmp7 < tmp12;
                                auto tmp14 = tmp11 && tmp13;
                                auto tmp15 = tmp9 && tmp14;
                                auto tmp16 = c10::convert<int32_t>(tmp7);
                                auto tmp17 = static_cast<int32_t>(-1);
                                auto tmp18 = tmp15 ? tmp16 : tmp17;
                                auto tmp19 = x1;
                                auto tmp20 = c10::convert<int32_t>(tmp19);
                                auto tmp21 = at::vec::VectorizedN<int32_t,2>::arange(tmp20, 1);
                                auto tmp22 = at::vec::VectorizedN<int32_t,2>(tmp18);
                                auto tmp23 = at::vec::VecMask<int32_t,2>(tmp21 == tmp22);
                                auto tmp24 = -std::numeric_limits<float>::infinity();
                                auto tmp25 = at::vec::VectorizedN<float,2>(tmp24);
                                auto tmp26 = decltype(tmp25)::blendv(tmp6, tmp25, tmp23.template cast<float,2>());
                                tmp_acc0_vec = at::vec::maximum(tmp_acc0_vec, tmp26);
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
                                auto tmp27 = out_ptr0[static_cast<int64_t>(x0)];
                                auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                                auto tmp3 = static_cast<float>(0.7);
                                auto tmp4 = at::vec::VectorizedN<float,2>(tmp3);
                                auto tmp5 = tmp2 / tmp4;
                                auto tmp6 = (tmp5);
                                auto tmp7 = c10::convert<int64_t>(tmp1);
                                auto tmp8 = static_cast<int64_t>(-100);
                                auto tmp9 = tmp7 != tmp8;
                                auto tmp10 = static_cast<int64_t>(0);
                                auto tmp11 = tmp7 >= tmp10;
                                auto tmp12 = static_cast<int64_t>(128256);
                                auto tmp13 = tmp7 < tmp12;
                                auto tmp14 = tmp11 && tmp13;
                                auto tmp15 = tmp9 && tmp14;
                                auto tmp16 = c10::convert<int32_t>(tmp7);
                                auto tmp17 = static_cast<int32_t>(-1);
                                auto tmp18 = tmp15 ? tmp16 : tmp17;
                                auto tmp19 = x1;
                                auto tmp20 = c10::convert<int32_t>(tmp19);
                                auto tmp21 = at::vec::VectorizedN<int32_t,2>::arange(tmp20, 1);
                                auto tmp22 = at::vec::VectorizedN<int32_t,2>(tmp18);
                                auto tmp23 = at::vec::VecMask<int32_t,2>(tmp21 == tmp22);
                                auto tmp24 = -std::numeric_limits<float>::infinity();
                                auto tmp25 = at::vec::VectorizedN<float,2>(tmp24);
                                auto tmp26 = decltype(tmp25)::blendv(tmp6, tmp25, tmp23.template cast<float,2>());
                                auto tmp28 = tmp27 == tmp24;
                                auto tmp29 = static_cast<float>(0.0);
                                auto tmp30 = tmp28 ? tmp29 : tmp27;
                                auto tmp31 = at::vec::VectorizedN<float,2>(tmp30);
                                auto tmp32 = tmp26 - tmp31;
                                auto tmp33 = static_cast<float>(1.4426950408889634);
                                auto tmp34 = at::vec::VectorizedN<float,2>(tmp33);
                                auto tmp35 = tmp32 * tmp34;
                                auto tmp36 = tmp35.exp2();
                                auto tmp37 = at::vec::VectorizedN<float,2>(tmp29);
                                auto tmp38 = decltype(tmp6)::blendv(tmp37, tmp6, tmp23.template cast<float,2>());
                                tmp_acc0_vec = cascade_sum_combine(tmp36, &cascade_helper0);
                                tmp_acc1_vec = cascade_sum_combine(tmp38, &cascade_helper1);
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
                            auto tmp5 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp11 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp3 = tmp2.log();
                            auto tmp4 = tmp0 + tmp3;
                            auto tmp6 = static_cast<int64_t>(-100);
                            auto tmp1 = at::vec::VectorizedN<int64_t,2>(tmp6);
                            auto tmp7 = at::vec::VecMask<int64_t,2>(tmp5 != tmp1);
                            auto tmp8 = static_cast<float>(0.0);
                            auto tmp9 = at::vec::Vectorized<float>(tmp8);
                            auto tmp10 = decltype(tmp4)::blendv(tmp9, tmp4, tmp7.template cast<float,1>());
                            auto tmp12 = (tmp5);
                            auto tmp13 = at::vec::VecMask<int64_t,2>(tmp12 != tmp1);
                            auto tmp14 = static_cast<int64_t>(0);
                            auto tmp15 = at::vec::VectorizedN<int64_t,2>(tmp14);
                            auto tmp16 = at::vec::VecMask<int64_t,2>(tmp12 >= tmp15);
                            auto tmp17 = static_cast<int64_t>(128256);
                            auto tmp18 = at::vec::VectorizedN<int64_t,2>(tmp17);
                            auto tmp19 = at::vec::VecMask<int64_t,2>(tmp12 < tmp18);
                            auto tmp20 = tmp16.template cast<int32_t,1>();
                            auto tmp21 = tmp19.template cast<int32_t,1>();
                            auto tmp22 = tmp20 & tmp21;
                            auto tmp23 = tmp13.template cast<int32_t,1>();
                            auto tmp24 = tmp22.template cast<int32_t,1>();
                            auto tmp25 = tmp23 & tmp24;
                            auto tmp26 = at::vec::convert<int32_t,1,int64_t,2>(tmp12);
                            auto tmp27 = static_cast<int32_t>(-1);
                            auto tmp28 = at::vec::Vectorized<int32_t>(tmp27);
                            auto tmp29 = decltype(tmp26)::blendv(tmp28, tmp26, tmp25.template cast<int32_t,1>());
                            auto tmp30 = static_cast<int32_t>(0);
                            auto tmp31 = at::vec::Vectorized<int32_t>(tmp30);
                            auto tmp32 = at::vec::VecMask<int32_t,1>(tmp29 >= tmp31);
                            auto tmp33 = -std::numeric_limits<float>::infinity();
                            auto tmp34 = at::vec::Vectorized<float>(tmp33);
                            auto tmp35 = decltype(tmp11)::blendv(tmp34, tmp11, tmp32.template cast<float,1>());
                            auto tmp36 = decltype(tmp35)::blendv(tmp9, tmp35, tmp7.template cast<float,1>());
                            auto tmp37 = tmp10 - tmp36;
                            auto tmp38 = static_cast<float>(1.0);
                            auto tmp39 = at::vec::Vectorized<float>(tmp38);
                            auto tmp40 = tmp37 * tmp39;
                            auto tmp41 = at::vec::VecMask<int64_t,2>(tmp5 == tmp1);
                            auto tmp42 = at::vec::VecMask<int64_t,2>(tmp5 >= tmp15);
                            auto tmp43 = at::vec::VecMask<int64_t,2>(tmp5 < tmp18);
                            auto tmp44 = tmp42.template cast<int32_t,1>();
                            auto tmp45 = tmp43.template cast<int32_t,1>();
                            auto tmp46 = tmp44 & tmp45;
                            auto tmp47 = tmp41.template cast<int32_t,1>();
                            auto tmp48 = tmp46.template cast<int32_t,1>();
                            auto tmp49 = tmp47 | tmp48;
                            auto tmp50 = ~tmp49;
                            auto tmp51 = tmp50.template cast<float,1>();
                            auto tmp52 = tmp7.to<float,1>();
                            auto tmp53 = tmp52 * tmp39;
                            auto tmp54 = static_cast<float>(20.0);
                            auto tmp55 = at::vec::Vectorized<float>(tmp54);
                            auto tmp56 = at::vec::VecMask<float,1>(tmp37 > tmp55);
                            auto tmp57 = tmp37.exp();
                            auto tmp58 = tmp57.log1p();
                            auto tmp59 = decltype(tmp37)::blendv(tmp58, tmp37, tmp56.template cast<float,1>());
                            auto tmp60 = tmp53 * tmp59;
                            auto tmp61 = decltype(tmp60)::blendv(tmp9, tmp60, tmp7.template cast<float,1>());
                            tmp4.store(in_out_ptr0 + static_cast<int64_t>(x0));
                            tmp7.store(out_ptr3 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            tmp40.store(out_ptr4 + static_cast<int64_t>(x0));
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp51;
                            tmp_acc1_vec_local = tmp_acc1_vec_local + tmp61;
                            tmp_acc2_vec_local = tmp_acc2_vec_local + tmp52;
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
            out_ptr5[static_cast<int64_t>(0L)] = static_cast<bool>(tmp_acc0);
            tmp_acc1 = tmp_acc1 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc1_vec);
            out_ptr6[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc1);
            tmp_acc2 = tmp_acc2 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc2_vec);
            out_ptr7[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc2);
        }
    }
    {
        {
            {
                auto tmp0 = out_ptr5[static_cast<int64_t>(0L)];
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
                auto tmp3 = tmp0 / tmp2;
                in_out_ptr2[static_cast<int64_t>(0L)] = tmp3;
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
