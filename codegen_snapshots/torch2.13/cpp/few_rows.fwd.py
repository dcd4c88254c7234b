# forward of ce(x, t), x: bf16[8, 128256]
def call(args):
    primals_1, primals_2 = args
    assert_size_stride(primals_1, (8, 128256), (128256, 1), 'input')
    assert_size_stride(primals_2, (8, ), (1, ), 'input')
    buf3 = empty_strided_cpu((8, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((8, ), (1, ), torch.float32)
    buf5 = buf3; del buf3  # reuse
    buf8 = empty_strided_cpu((8, ), (1, ), torch.float32)
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf6 = empty_strided_cpu((), (), torch.float32)
    buf7 = empty_strided_cpu((), (), torch.float32)
    buf1 = buf0; del buf0  # reuse
    cpp_fused_ce_fwd_0(buf5, buf1, primals_1, primals_2, buf4, buf8, buf6, buf7)
    del buf4
    torch.ops.aten._assert_async.msg(buf1, 'inductor_ce: target out of range: every target must be in [0, V) or equal to ignore_index')
    del buf1
    buf9 = buf6; del buf6  # reuse
    cpp_fused_1(buf9, buf7)
    return (buf9, primals_1, primals_2, buf5, buf7, buf8, )


extern "C"  void  cpp_fused_ce_fwd_0(float* in_out_ptr0,
                       bool* in_out_ptr1,
                       const at::BFloat16* in_ptr0,
                       const int64_t* in_ptr1,
                       float* out_ptr1,
                       float* out_ptr2,
                       float* out_ptr4,
                       float* out_ptr5)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
    auto out_ptr3 = in_out_ptr1;
    {
        #pragma GCC ivdep
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(8L); x0+=static_cast<int64_t>(1L))
        {
            {
                float tmp_acc0 = -std::numeric_limits<float>::infinity();
                at::vec::VectorizedN<float,2> tmp_acc0_vec = at::vec::VectorizedN<float,2>(-std::numeric_limits<float>::infinity());
                int max_threads = omp_get_max_threads();
                at::vec::VectorizedN<float,2> tmp_acc0_vec_arr[max_threads];
                for (int i = 0; i < max_threads; i++)
                {
                    tmp_acc0_vec_arr[i] = at::vec::VectorizedN<float,2>(-std::numeric_limits<float>::infinity());
                }
                float tmp_acc0_arr[max_threads];
                for (int i = 0; i < max_threads; i++)
                {
                    tmp_acc0_arr[i] = -std::numeric_limits<float>::infinity();
                }
                #pragma omp parallel
                {
                    int tid = omp_get_thread_num();
                    at::vec::VectorizedN<float,2> tmp_acc0_vec_local = at::vec::VectorizedN<float,2>(-std::numeric_limits<float>::infinity());
                    float tmp_acc0_local = -std::numeric_limits<float>::infinity();
                    #pragma omp for
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
                                tmp_acc0_vec_local = at::vec::maximum(tmp_acc0_vec_local, tmp22);
                            }
                        }
                    }
                    tmp_acc0_vec_arr[tid] = tmp_acc0_vec_local;
                    tmp_acc0_arr[tid] = tmp_acc0_local;
                }
                for (int tid = 0; tid < max_threads; tid++)
                {
                    tmp_acc0_vec = at::vec::maximum(tmp_acc0_vec, tmp_acc0_vec_arr[tid]);
                }
                for (int tid = 0; tid < max_threads; tid++)
                {
                    tmp_acc0 = max_propagate_nan(tmp_acc0, tmp_acc0_arr[tid]);
                }
                tmp_acc0 = max_propagate_nan(tmp_acc0, at::vec::vec_reduce_all<float, 2>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return at::vec::maximum(x, y); }, tmp_acc0_vec));
                out_ptr0[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc0);
            }
        }
    }
    {
        #pragma GCC ivdep
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(8L); x0+=static_cast<int64_t>(1L))
        {
            {
                float tmp_acc0 = 0;
                at::vec::VectorizedN<float,2> tmp_acc0_vec = at::vec::VectorizedN<float,2>(0);
                at::vec::VectorizedN<float,2> masked_tmp_acc0_vec = at::vec::VectorizedN<float,2>(0);
                int max_threads = omp_get_max_threads();
                at::vec::VectorizedN<float,2> tmp_acc0_vec_arr[max_threads];
                for (int i = 0; i < max_threads; i++)
                {
                    tmp_acc0_vec_arr[i] = at::vec::VectorizedN<float,2>(0);
                }
                float tmp_acc0_arr[max_threads];
                for (int i = 0; i < max_threads; i++)
                {
                    tmp_acc0_arr[i] = 0;
                }
                at::vec::VectorizedN<float,2> masked_tmp_acc0_vec_arr[max_threads];
                for (int i = 0; i < max_threads; i++)
                {
                    masked_tmp_acc0_vec_arr[i] = at::vec::VectorizedN<float,2>(0);
                }
                #pragma omp parallel
                {
                    int tid = omp_get_thread_num();
                    CascadeSumHelper<float, 4096> scalar_cascade_helper0(static_cast<int64_t>(c10::div_floor_integer(static_cast<int64_t>(128255L + max_threads), static_cast<int64_t>(max_threads))));
                    CascadeSumHelper<at::vec::VectorizedN<float,2>, 4096> cascade_helper0(static_cast<int64_t>(c10::div_floor_integer(static_cast<int64_t>(8015L + max_threads), static_cast<int64_t>(max_threads))));
                    CascadeSumHelper<at::vec::VectorizedN<float,2>, 4096> masked_cascade_helper0(static_cast<int64_t>(0L));
                    at::vec::VectorizedN<float,2> tmp_acc0_vec_local = at::vec::VectorizedN<float,2>(0);
                    float tmp_acc0_local = 0;
                    at::vec::VectorizedN<float,2> masked_tmp_acc0_vec_local = at::vec::VectorizedN<float,2>(0);
                    #pragma omp for
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
                                tmp_acc0_vec_local = cascade_sum_combine(tmp32, &cascade_helper0);
                            }
                        }
                    }
                    tmp_acc0_local = cascade_sum_final(&scalar_cascade_helper0);
                    tmp_acc0_vec_local = cascade_sum_final(&cascade_helper0);
                    masked_tmp_acc0_vec_local = cascade_sum_final(&masked_cascade_helper0);
                    tmp_acc0_vec_arr[tid] = tmp_acc0_vec_local;
                    tmp_acc0_arr[tid] = tmp_acc0_local;
                    masked_tmp_acc0_vec_arr[tid] = masked_tmp_acc0_vec_local;
                }
                for (int tid = 0; tid < max_threads; tid++)
                {
                    tmp_acc0_vec = tmp_acc0_vec + tmp_acc0_vec_arr[tid];
                }
                for (int tid = 0; tid < max_threads; tid++)
                {
                    tmp_acc0 = tmp_acc0 + tmp_acc0_arr[tid];
                }
                for (int tid = 0; tid < max_threads; tid++)
                {
                    masked_tmp_acc0_vec = masked_tmp_acc0_vec + masked_tmp_acc0_vec_arr[tid];
                }
                tmp_acc0 = tmp_acc0 + at::vec::vec_reduce_all<float, 2>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc0_vec + masked_tmp_acc0_vec);
                out_ptr1[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc0);
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
                for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(8L); x0+=static_cast<int64_t>(8L))
                {
                    {
                        if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8L)))
                        {
                            auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp2 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp4 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp1 = tmp2.log();
                            auto tmp3 = tmp0 + tmp1;
                            auto tmp5 = at::vec::convert<int32_t,1,int64_t,2>(tmp4);
                            auto tmp6 = static_cast<int32_t>(-100);
                            auto tmp7 = at::vec::Vectorized<int32_t>(tmp6);
                            auto tmp8 = at::vec::VecMask<int32_t,1>(tmp5 != tmp7);
                            auto tmp9 = static_cast<float>(0.0);
                            auto tmp10 = at::vec::Vectorized<float>(tmp9);
                            auto tmp11 = decltype(tmp3)::blendv(tmp10, tmp3, tmp8.template cast<float,1>());
                            auto tmp12 = (tmp4);
                            auto tmp13 = static_cast<int64_t>(-100);
                            auto tmp14 = at::vec::VectorizedN<int64_t,2>(tmp13);
                            auto tmp15 = at::vec::VecMask<int64_t,2>(tmp12 != tmp14);
                            auto tmp16 = static_cast<int64_t>(0);
                            auto tmp17 = at::vec::VectorizedN<int64_t,2>(tmp16);
                            auto tmp18 = at::vec::VecMask<int64_t,2>(tmp12 >= tmp17);
                            auto tmp19 = static_cast<int64_t>(128256);
                            auto tmp20 = at::vec::VectorizedN<int64_t,2>(tmp19);
                            auto tmp21 = at::vec::VecMask<int64_t,2>(tmp12 < tmp20);
                            auto tmp22 = tmp18.template cast<int32_t,1>();
                            auto tmp23 = tmp21.template cast<int32_t,1>();
                            auto tmp24 = tmp22 & tmp23;
                            auto tmp25 = tmp15.template cast<int32_t,1>();
                            auto tmp26 = tmp24.template cast<int32_t,1>();
                            auto tmp27 = tmp25 & tmp26;
                            auto tmp28 = at::vec::convert<int32_t,1,int64_t,2>(tmp12);
                            auto tmp29 = static_cast<int32_t>(-1);
                            auto tmp30 = at::vec::Vectorized<int32_t>(tmp29);
                            auto tmp31 = decltype(tmp28)::blendv(tmp30, tmp28, tmp27.template cast<int32_t,1>());
                            auto tmp32 = static_cast<int32_t>(0);
                            auto tmp33 = at::vec::Vectorized<int32_t>(tmp32);
                            auto tmp34 = at::vec::VecMask<int32_t,1>(tmp31 >= tmp33);
                            auto tmp35 = decltype(tmp31)::blendv(tmp33, tmp31, tmp34.template cast<int32_t,1>());
                            auto tmp36 = 128256L;
                            auto tmp37 = c10::convert<int64_t>(tmp36);
                            auto tmp38 = at::vec::convert<int64_t,2,int32_t,1>(tmp35);
                            auto tmp39 = at::vec::VectorizedN<int64_t,2>(tmp37);
                            auto tmp40 = tmp38 + tmp39;
                            auto tmp41 = at::vec::VecMask<int64_t,2>(tmp38 < tmp17);
                            auto tmp42 = decltype(tmp40)::blendv(tmp38, tmp40, tmp41.template cast<int64_t,2>());
                            auto tmp43 =
                            [&]
                            {
                                __at_align__ std::array<int64_t, 8> tmpbuf;
                                tmp42.store(tmpbuf.data(), static_cast<int64_t>(8));
                                return tmpbuf;
                            }
                            ()
                            ;
                            auto tmp44 =
                            [&]
                            {
                                __at_align__ std::array<at::BFloat16, 16> tmpbuf;
                                #pragma GCC unroll 8
                                for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                                {
                                    tmpbuf[x0_inner] = in_ptr0[static_cast<int64_t>(tmp43[x0_inner] + 128256L*x0 + 128256L*x0_inner)];
                                }
                                return at::vec::Vectorized<at::BFloat16>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                            }
                            ()
                            ;
                            auto tmp45 = at::vec::convert<float>(tmp44);
                            auto tmp46 = -std::numeric_limits<float>::infinity();
                            auto tmp47 = at::vec::Vectorized<float>(tmp46);
                            auto tmp48 = decltype(tmp45)::blendv(tmp47, tmp45, tmp34.template cast<float,1>());
                            auto tmp49 = decltype(tmp48)::blendv(tmp10, tmp48, tmp8.template cast<float,1>());
                            auto tmp50 = at::vec::maximum(tmp49, tmp10);
                            auto tmp51 = tmp50 * tmp10;
                            auto tmp52 = tmp11 + tmp51;
                            auto tmp53 = tmp52 - tmp49;
                            auto tmp54 = static_cast<float>(1.0);
                            auto tmp55 = at::vec::Vectorized<float>(tmp54);
                            auto tmp56 = tmp53 * tmp55;
                            auto tmp57 = at::vec::VecMask<int64_t,2>(tmp12 == tmp14);
                            auto tmp58 = tmp57.template cast<int32_t,1>();
                            auto tmp59 = tmp58 | tmp26;
                            auto tmp60 = ~tmp59;
                            auto tmp61 = tmp60.template cast<float,1>();
                            auto tmp62 = tmp8.to<float,1>();
                            auto tmp63 = tmp62 * tmp55;
                            auto tmp64 = static_cast<float>(20.0);
                            auto tmp65 = at::vec::Vectorized<float>(tmp64);
                            auto tmp66 = at::vec::VecMask<float,1>(tmp53 > tmp65);
                            auto tmp67 = tmp53.exp();
                            auto tmp68 = tmp67.log1p();
                            auto tmp69 = decltype(tmp53)::blendv(tmp68, tmp53, tmp66.template cast<float,1>());
                            auto tmp70 = tmp63 * tmp69;
                            auto tmp71 = decltype(tmp70)::blendv(tmp10, tmp70, tmp8.template cast<float,1>());
                            tmp3.store(in_out_ptr0 + static_cast<int64_t>(x0));
                            tmp56.store(out_ptr2 + static_cast<int64_t>(x0));
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp61;
                            tmp_acc1_vec_local = tmp_acc1_vec_local + tmp71;
                            tmp_acc2_vec_local = tmp_acc2_vec_local + tmp62;
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
            out_ptr4[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc1);
            tmp_acc2 = tmp_acc2 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc2_vec);
            out_ptr5[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc2);
        }
    }
    {
        {
            {
                auto tmp0 = out_ptr3[static_cast<int64_t>(0L)];
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
