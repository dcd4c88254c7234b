# forward of ce(x, t, weight=w), w: f32[128256]
def call(args):
    primals_1, primals_2, primals_3 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1), 'input')
    assert_size_stride(primals_2, (4096, ), (1, ), 'input')
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    assert_size_stride(primals_3, (128256, ), (1, ), 'input')
    buf5 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf7 = empty_strided_cpu((), (), torch.float32)
    buf4 = buf2; del buf2  # reuse
    buf8 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf6 = empty_strided_cpu((), (), torch.float32)
    buf9 = buf6; del buf6  # reuse
    cpp_fused_ce_fwd_0(buf4, buf9, primals_1, primals_2, primals_3, buf3, buf5, buf7, buf8, buf0)
    del buf0
    del buf3
    del primals_3
    return (buf9, primals_1, primals_2, buf4, buf5, buf7, buf8, )


extern "C"  void  cpp_fused_ce_fwd_0(float* in_out_ptr0,
                       float* in_out_ptr1,
                       const at::BFloat16* in_ptr0,
                       const int64_t* in_ptr1,
                       const float* in_ptr2,
                       float* out_ptr1,
                       float* out_ptr2,
                       float* out_ptr3,
                       float* out_ptr4,
                       bool* out_ptr5)
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
            float tmp_acc0 = 0;
            at::vec::Vectorized<float> tmp_acc0_vec = at::vec::Vectorized<float>(0);
            int max_threads = omp_get_max_threads();
            at::vec::Vectorized<float> tmp_acc0_vec_arr[max_threads];
            for (int i = 0; i < max_threads; i++)
            {
                tmp_acc0_vec_arr[i] = at::vec::Vectorized<float>(0);
            }
            float tmp_acc0_arr[max_threads];
            for (int i = 0; i < max_threads; i++)
            {
                tmp_acc0_arr[i] = 0;
            }
            #pragma omp parallel
            {
                int tid = omp_get_thread_num();
                at::vec::Vectorized<float> tmp_acc0_vec_local = at::vec::Vectorized<float>(0);
                float tmp_acc0_local = 0;
                #pragma omp for
                for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4096L); x0+=static_cast<int64_t>(8L))
                {
                    {
                        if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(4096L)))
                        {
                            auto tmp0 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp2 = at::vec::convert<int32_t,1,int64_t,2>(tmp0);
                            auto tmp1 = static_cast<int32_t>(-100);
                            auto tmp3 = at::vec::Vectorized<int32_t>(tmp1);
                            auto tmp4 = at::vec::VecMask<int32_t,1>(tmp2 != tmp3);
                            auto tmp5 = static_cast<int64_t>(0);
                            auto tmp6 = at::vec::VectorizedN<int64_t,2>(tmp5);
                            auto tmp7 = decltype(tmp0)::blendv(tmp6, tmp0, tmp4.template cast<int64_t,2>());
                            auto tmp8 = 128256L;
                            auto tmp9 = c10::convert<int64_t>(tmp8);
                            auto tmp10 = at::vec::VectorizedN<int64_t,2>(tmp9);
                            auto tmp11 = tmp7 + tmp10;
                            auto tmp12 = at::vec::VecMask<int64_t,2>(tmp7 < tmp6);
                            auto tmp13 = decltype(tmp11)::blendv(tmp7, tmp11, tmp12.template cast<int64_t,2>());
                            auto tmp14 =
                            [&]
                            {
                                __at_align__ std::array<int64_t, 8> tmpbuf;
                                tmp13.store(tmpbuf.data(), static_cast<int64_t>(8));
                                return tmpbuf;
                            }
                            ()
                            ;
                            auto tmp15 =
                            [&]
                            {
                                __at_align__ std::array<int64_t, 8> tmpbuf;
                                #pragma GCC unroll 8
                                for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                                {
                                    tmpbuf[x0_inner] = static_cast<int64_t>(tmp14[x0_inner]);
                                }
                                return at::vec::VectorizedN<int64_t,2>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                            }
                            ()
                            ;
                            TORCH_CHECK((at::vec::VecMask<int64_t,2>((at::vec::VectorizedN<int64_t,2>(0) <= tmp15) & (tmp15 < at::vec::VectorizedN<int64_t,2>(128256L)))).all_masked(), "index out of bounds: 0 <= tmp15 < 128256L");
                            auto tmp17 =
                            [&]
                            {
                                __at_align__ std::array<float, 8> tmpbuf;
                                #pragma GCC unroll 8
                                for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                                {
                                    tmpbuf[x0_inner] = in_ptr2[static_cast<int64_t>(tmp14[x0_inner])];
                                }
                                return at::vec::Vectorized<float>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                            }
                            ()
                            ;
                            auto tmp18 = static_cast<float>(0.0);
                            auto tmp19 = at::vec::Vectorized<float>(tmp18);
                            auto tmp20 = decltype(tmp17)::blendv(tmp19, tmp17, tmp4.template cast<float,1>());
                            auto tmp21 = static_cast<float>(1.0);
                            auto tmp22 = at::vec::Vectorized<float>(tmp21);
                            auto tmp23 = tmp20 * tmp22;
                            tmp23.store(out_ptr2 + static_cast<int64_t>(x0));
                            tmp_acc0_vec_local = tmp_acc0_vec_local + tmp20;
                        }
                    }
                }
                tmp_acc0_vec_arr[tid] = tmp_acc0_vec_local;
                tmp_acc0_arr[tid] = tmp_acc0_local;
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc0_vec = tmp_acc0_vec + tmp_acc0_vec_arr[tid];
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc0 = tmp_acc0 + tmp_acc0_arr[tid];
            }
            tmp_acc0 = tmp_acc0 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc0_vec);
            out_ptr3[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc0);
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
                for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4096L); x0+=static_cast<int64_t>(8L))
                {
                    {
                        if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(4096L)))
                        {
                            auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp2 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp4 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp33 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
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
                            auto tmp34 = at::vec::Vectorized<int32_t>(tmp32);
                            auto tmp35 = at::vec::VecMask<int32_t,1>(tmp31 >= tmp34);
                            auto tmp36 = decltype(tmp31)::blendv(tmp34, tmp31, tmp35.template cast<int32_t,1>());
                            auto tmp37 = 128256L;
                            auto tmp38 = c10::convert<int64_t>(tmp37);
                            auto tmp39 = at::vec::convert<int64_t,2,int32_t,1>(tmp36);
                            auto tmp40 = at::vec::VectorizedN<int64_t,2>(tmp38);
                            auto tmp41 = tmp39 + tmp40;
                            auto tmp42 = at::vec::VecMask<int64_t,2>(tmp39 < tmp17);
                            auto tmp43 = decltype(tmp41)::blendv(tmp39, tmp41, tmp42.template cast<int64_t,2>());
                            auto tmp44 =
                            [&]
                            {
                                __at_align__ std::array<int64_t, 8> tmpbuf;
                                tmp43.store(tmpbuf.data(), static_cast<int64_t>(8));
                                return tmpbuf;
                            }
                            ()
                            ;
                            auto tmp45 =
                            [&]
                            {
                                __at_align__ std::array<at::BFloat16, 16> tmpbuf;
                                #pragma GCC unroll 8
                                for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                                {
                                    tmpbuf[x0_inner] = in_ptr0[static_cast<int64_t>(tmp44[x0_inner] + 128256L*x0 + 128256L*x0_inner)];
                                }
                                return at::vec::Vectorized<at::BFloat16>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                            }
                            ()
                            ;
                            auto tmp46 = at::vec::convert<float>(tmp45);
                            auto tmp47 = -std::numeric_limits<float>::infinity();
                            auto tmp48 = at::vec::Vectorized<float>(tmp47);
                            auto tmp49 = decltype(tmp46)::blendv(tmp48, tmp46, tmp35.template cast<float,1>());
                            auto tmp50 = decltype(tmp49)::blendv(tmp10, tmp49, tmp8.template cast<float,1>());
                            auto tmp51 = tmp11 - tmp50;
                            auto tmp52 = static_cast<float>(1.0);
                            auto tmp53 = at::vec::Vectorized<float>(tmp52);
                            auto tmp54 = tmp51 * tmp53;
                            auto tmp55 = at::vec::VecMask<int64_t,2>(tmp12 == tmp14);
                            auto tmp56 = tmp55.template cast<int32_t,1>();
                            auto tmp57 = tmp56 | tmp26;
                            auto tmp58 = ~tmp57;
                            auto tmp59 = tmp58.template cast<float,1>();
                            auto tmp60 = static_cast<float>(20.0);
                            auto tmp61 = at::vec::Vectorized<float>(tmp60);
                            auto tmp62 = at::vec::VecMask<float,1>(tmp51 > tmp61);
                            auto tmp63 = tmp51.exp();
                            auto tmp64 = tmp63.log1p();
                            auto tmp65 = decltype(tmp51)::blendv(tmp64, tmp51, tmp62.template cast<float,1>());
                            auto tmp66 = tmp33 * tmp65;
                            auto tmp67 = decltype(tmp66)::blendv(tmp10, tmp66, tmp8.template cast<float,1>());
                            tmp3.store(in_out_ptr0 + static_cast<int64_t>(x0));
                            tmp54.store(out_ptr4 + static_cast<int64_t>(x0));
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp59;
                            tmp_acc1_vec_local = tmp_acc1_vec_local + tmp67;
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
            out_ptr5[static_cast<int64_t>(0L)] = static_cast<bool>(tmp_acc0);
            tmp_acc1 = tmp_acc1 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc1_vec);
            out_ptr6[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc1);
        }
    }
    {
        {
            {
                auto tmp3 = out_ptr5[static_cast<int64_t>(0L)];
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
                auto tmp0 = out_ptr6[static_cast<int64_t>(0L)];
                auto tmp2 = out_ptr3[static_cast<int64_t>(0L)];
                auto tmp1 = tmp0 / tmp2;
                in_out_ptr1[static_cast<int64_t>(0L)] = tmp1;
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
