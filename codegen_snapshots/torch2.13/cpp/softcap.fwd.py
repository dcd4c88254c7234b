# forward of ce(x, t, softcap=30.0)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1), 'input')
    assert_size_stride(primals_2, (4096, ), (1, ), 'input')
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf4 = buf2; del buf2  # reuse
    buf5 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf9 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf7 = empty_strided_cpu((), (), torch.float32)
    buf8 = empty_strided_cpu((), (), torch.float32)
    buf10 = buf7; del buf7  # reuse
    cpp_fused_ce_fwd_0(buf4, buf10, primals_1, primals_2, buf3, buf0, buf5, buf9, buf8)
    return (buf10, primals_1, primals_2, buf4, buf5, buf8, buf9, )


extern "C"  void  cpp_fused_ce_fwd_0(float* in_out_ptr0,
                       float* in_out_ptr1,
                       const at::BFloat16* in_ptr0,
                       const int64_t* in_ptr1,
                       float* out_ptr1,
                       bool* out_ptr2,
                       bool* out_ptr3,
                       float* out_ptr5,
                       float* out_ptr7)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
    auto out_ptr6 = in_out_ptr1;
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
                                auto tmp3 = static_cast<float>(0.03333333333333333);
                                auto tmp4 = at::vec::VectorizedN<float,2>(tmp3);
                                auto tmp5 = tmp2 * tmp4;
                                auto tmp6 = tmp5.tanh();
                                auto tmp7 = static_cast<float>(30.0);
                                auto tmp8 = at::vec::VectorizedN<float,2>(tmp7);
                                auto tmp9 = tmp8 * tmp6;
                                auto tmp10 = c10::convert<int64_t>(tmp1);
                                auto tmp11 = static_cast<int64_t>(-100);
                                auto tmp12 = tmp10 != tmp11;
                                auto tmp13 = static_cast<int64_t>(0);
                                auto tmp14 = tmp10 >= tmp13;
                                auto tmp15 = static_cast<int64_t>(128256);
                                auto tmp16 = tmp10 < tmp15;
                                auto tmp17 = tmp14 && tmp16;
                                auto tmp18 = tmp12 && tmp17;
                                auto tmp19 = c10::convert<int32_t>(tmp10);
                                auto tmp20 = static_cast<int32_t>(-1);
                                auto tmp21 = tmp18 ? tmp19 : tmp20;
                                auto tmp22 = x1;
                                auto tmp23 = c10::convert<int32_t>(tmp22);
                                auto tmp24 = at::vec::VectorizedN<int32_t,2>::arange(tmp23, 1);
                                auto tmp25 = at::vec::VectorizedN<int32_t,2>(tmp21);
                                auto tmp26 = at::vec::VecMask<int32_t,2>(tmp24 == tmp25);
                                auto tmp27 = -std::numeric_limits<float>::infinity();
                                auto tmp28 = at::vec::VectorizedN<float,2>(tmp27);
                                auto tmp29 = decltype(tmp28)::blendv(tmp9, tmp28, tmp26.template cast<float,2>());
                                tmp_acc0_vec = at::vec::maximum(tmp_acc0_vec, tmp29);
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
                                auto tmp30 = out_ptr0[static_cast<int64_t>(x0)];
                                auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                                auto tmp3 = static_cast<float>(0.03333333333333333);
                                auto tmp4 = at::vec::VectorizedN<float,2>(tmp3);
                                auto tmp5 = tmp2 * tmp4;
                                auto tmp6 = tmp5.tanh();
                                auto tmp7 = static_cast<float>(30.0);
                                auto tmp8 = at::vec::VectorizedN<float,2>(tmp7);
                                auto tmp9 = tmp8 * tmp6;
                                auto tmp10 = c10::convert<int64_t>(tmp1);
                                auto tmp11 = static_cast<int64_t>(-100);
                                auto tmp12 = tmp10 != tmp11;
                                auto tmp13 = static_cast<int64_t>(0);
                                auto tmp14 = tmp10 >= tmp13;
                                auto tmp15 = static_cast<int64_t>(128256);
                                auto tmp16 = tmp10 < tmp15;
                                auto tmp17 = tmp14 && tmp16;
                                auto tmp18 = tmp12 && tmp17;
                                auto tmp19 = c10::convert<int32_t>(tmp10);
                                auto tmp20 = static_cast<int32_t>(-1);
                                auto tmp21 = tmp18 ? tmp19 : tmp20;
                                auto tmp22 = x1;
                                auto tmp23 = c10::convert<int32_t>(tmp22);
                                auto tmp24 = at::vec::VectorizedN<int32_t,2>::arange(tmp23, 1);
                                auto tmp25 = at::vec::VectorizedN<int32_t,2>(tmp21);
                                auto tmp26 = at::vec::VecMask<int32_t,2>(tmp24 == tmp25);
                                auto tmp27 = -std::numeric_limits<float>::infinity();
                                auto tmp28 = at::vec::VectorizedN<float,2>(tmp27);
                                auto tmp29 = decltype(tmp28)::blendv(tmp9, tmp28, tmp26.template cast<float,2>());
                                auto tmp31 = tmp30 == tmp27;
                                auto tmp32 = static_cast<float>(0.0);
                                auto tmp33 = tmp31 ? tmp32 : tmp30;
                                auto tmp34 = at::vec::VectorizedN<float,2>(tmp33);
                                auto tmp35 = tmp29 - tmp34;
                                auto tmp36 = static_cast<float>(1.4426950408889634);
                                auto tmp37 = at::vec::VectorizedN<float,2>(tmp36);
                                auto tmp38 = tmp35 * tmp37;
                                auto tmp39 = tmp38.exp2();
                                tmp_acc0_vec = cascade_sum_combine(tmp39, &cascade_helper0);
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
                for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4096L); x0+=static_cast<int64_t>(8L))
                {
                    {
                        if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(4096L)))
                        {
                            auto tmp0 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp19 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp20 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp2 = (tmp0);
                            auto tmp3 = static_cast<int64_t>(-100);
                            auto tmp4 = at::vec::VectorizedN<int64_t,2>(tmp3);
                            auto tmp5 = at::vec::VecMask<int64_t,2>(tmp2 == tmp4);
                            auto tmp6 = static_cast<int64_t>(0);
                            auto tmp7 = at::vec::VectorizedN<int64_t,2>(tmp6);
                            auto tmp8 = at::vec::VecMask<int64_t,2>(tmp2 >= tmp7);
                            auto tmp9 = static_cast<int64_t>(128256);
                            auto tmp1 = at::vec::VectorizedN<int64_t,2>(tmp9);
                            auto tmp10 = at::vec::VecMask<int64_t,2>(tmp2 < tmp1);
                            auto tmp11 = tmp8.template cast<int32_t,1>();
                            auto tmp12 = tmp10.template cast<int32_t,1>();
                            auto tmp13 = tmp11 & tmp12;
                            auto tmp14 = tmp5.template cast<int32_t,1>();
                            auto tmp15 = tmp13.template cast<int32_t,1>();
                            auto tmp16 = tmp14 | tmp15;
                            auto tmp17 = ~tmp16;
                            auto tmp18 = tmp17.template cast<float,1>();
                            auto tmp21 = tmp20.log();
                            auto tmp22 = tmp19 + tmp21;
                            auto tmp23 = at::vec::VecMask<int64_t,2>(tmp0 != tmp4);
                            auto tmp24 = static_cast<float>(0.0);
                            auto tmp25 = at::vec::Vectorized<float>(tmp24);
                            auto tmp26 = decltype(tmp22)::blendv(tmp25, tmp22, tmp23.template cast<float,1>());
                            auto tmp27 = at::vec::VecMask<int64_t,2>(tmp2 != tmp4);
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
                            auto tmp43 = at::vec::VecMask<int64_t,2>(tmp40 < tmp7);
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
                            auto tmp48 = static_cast<float>(0.03333333333333333);
                            auto tmp49 = at::vec::Vectorized<float>(tmp48);
                            auto tmp50 = tmp47 * tmp49;
                            auto tmp51 = tmp50.tanh();
                            auto tmp52 = static_cast<float>(30.0);
                            auto tmp53 = at::vec::Vectorized<float>(tmp52);
                            auto tmp54 = tmp53 * tmp51;
                            auto tmp55 = -std::numeric_limits<float>::infinity();
                            auto tmp56 = at::vec::Vectorized<float>(tmp55);
                            auto tmp57 = decltype(tmp54)::blendv(tmp56, tmp54, tmp36.template cast<float,1>());
                            auto tmp58 = decltype(tmp57)::blendv(tmp25, tmp57, tmp23.template cast<float,1>());
                            auto tmp59 = tmp26 - tmp58;
                            auto tmp60 = static_cast<float>(1.0);
                            auto tmp61 = at::vec::Vectorized<float>(tmp60);
                            auto tmp62 = tmp59 * tmp61;
                            auto tmp63 = tmp23.to<float,1>();
                            auto tmp64 = tmp63 * tmp61;
                            auto tmp65 = static_cast<float>(20.0);
                            auto tmp66 = at::vec::Vectorized<float>(tmp65);
                            auto tmp67 = at::vec::VecMask<float,1>(tmp59 > tmp66);
                            auto tmp68 = tmp59.exp();
                            auto tmp69 = tmp68.log1p();
                            auto tmp70 = decltype(tmp59)::blendv(tmp69, tmp59, tmp67.template cast<float,1>());
                            auto tmp71 = tmp64 * tmp70;
                            auto tmp72 = decltype(tmp71)::blendv(tmp25, tmp71, tmp23.template cast<float,1>());
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp18;
                            tmp22.store(in_out_ptr0 + static_cast<int64_t>(x0));
                            tmp23.store(out_ptr3 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            tmp62.store(out_ptr5 + static_cast<int64_t>(x0));
                            tmp_acc1_vec_local = tmp_acc1_vec_local + tmp72;
                            tmp_acc2_vec_local = tmp_acc2_vec_local + tmp63;
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
            out_ptr6[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc1);
            tmp_acc2 = tmp_acc2 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc2_vec);
            out_ptr7[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc2);
        }
    }
    {
        {
            {
                auto tmp4 = out_ptr2[static_cast<int64_t>(0L)];
                auto tmp0 = static_cast<int64_t>(0);
                auto tmp2 = static_cast<int64_t>(1);
                auto tmp3 = tmp0 >= tmp2;
                auto tmp5 = !tmp4;
                auto tmp6 = tmp3 || tmp5;
                (tmp6 ? 0 : (throw std::runtime_error("inductor_ce.cross_entropy: target out of range: every target must be in [0, V) or equal to ignore_index"), 0));
            }
        }
    }
    {
        {
            {
                auto tmp0 = out_ptr6[static_cast<int64_t>(0L)];
                auto tmp2 = out_ptr7[static_cast<int64_t>(0L)];
                auto tmp3 = tmp0 / tmp2;
                in_out_ptr1[static_cast<int64_t>(0L)] = tmp3;
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
