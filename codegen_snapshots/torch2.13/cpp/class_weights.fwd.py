# forward of ce(x, t, weight=w), w: f32[128256]
def call(args):
    primals_1, primals_2, primals_3 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1), 'input')
    assert_size_stride(primals_2, (4096, ), (1, ), 'input')
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    assert_size_stride(primals_3, (128256, ), (1, ), 'input')
    buf5 = buf3; del buf3  # reuse
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf6 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf7 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf10 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf8 = empty_strided_cpu((), (), torch.float32)
    buf9 = empty_strided_cpu((), (), torch.float32)
    buf1 = buf0; del buf0  # reuse
    cpp_fused_ce_fwd_0(buf5, buf1, primals_1, primals_2, primals_3, buf4, buf6, buf7, buf10, buf8, buf9)
    del buf4
    del primals_3
    torch.ops.aten._assert_async.msg(buf1, 'inductor_ce: target out of range: every target must be in [0, V) or equal to ignore_index')
    del buf1
    buf11 = buf8; del buf8  # reuse
    cpp_fused_1(buf11, buf9)
    return (buf11, primals_1, primals_2, buf5, buf6, buf7, buf9, buf10, )


extern "C"  void  cpp_fused_ce_fwd_0(float* in_out_ptr0,
                       bool* in_out_ptr1,
                       const at::BFloat16* in_ptr0,
                       const int64_t* in_ptr1,
                       const float* in_ptr2,
                       float* out_ptr1,
                       bool* out_ptr3,
                       float* out_ptr4,
                       float* out_ptr5,
                       float* out_ptr6,
                       float* out_ptr7)
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
                            auto tmp1 = tmp2.log();
                            auto tmp3 = tmp0 + tmp1;
                            auto tmp5 = (tmp4);
                            auto tmp6 = static_cast<int64_t>(-100);
                            auto tmp7 = at::vec::VectorizedN<int64_t,2>(tmp6);
                            auto tmp8 = at::vec::VecMask<int64_t,2>(tmp5 == tmp7);
                            auto tmp9 = static_cast<int64_t>(0);
                            auto tmp10 = at::vec::VectorizedN<int64_t,2>(tmp9);
                            auto tmp11 = at::vec::VecMask<int64_t,2>(tmp5 >= tmp10);
                            auto tmp12 = static_cast<int64_t>(128256);
                            auto tmp13 = at::vec::VectorizedN<int64_t,2>(tmp12);
                            auto tmp14 = at::vec::VecMask<int64_t,2>(tmp5 < tmp13);
                            auto tmp15 = tmp11.template cast<int32_t,1>();
                            auto tmp16 = tmp14.template cast<int32_t,1>();
                            auto tmp17 = tmp15 & tmp16;
                            auto tmp18 = tmp8.template cast<int32_t,1>();
                            auto tmp19 = tmp17.template cast<int32_t,1>();
                            auto tmp20 = tmp18 | tmp19;
                            auto tmp21 = ~tmp20;
                            auto tmp22 = tmp21.template cast<float,1>();
                            auto tmp23 = at::vec::VecMask<int64_t,2>(tmp4 != tmp7);
                            auto tmp24 = decltype(tmp4)::blendv(tmp10, tmp4, tmp23.template cast<int64_t,2>());
                            auto tmp25 = at::vec::maximum(tmp24, tmp10);
                            auto tmp26 = static_cast<int64_t>(128255);
                            auto tmp27 = at::vec::VectorizedN<int64_t,2>(tmp26);
                            auto tmp28 = at::vec::minimum(tmp25, tmp27);
                            auto tmp29 = 128256L;
                            auto tmp30 = c10::convert<int64_t>(tmp29);
                            auto tmp31 = at::vec::VectorizedN<int64_t,2>(tmp30);
                            auto tmp32 = tmp28 + tmp31;
                            auto tmp33 = at::vec::VecMask<int64_t,2>(tmp28 < tmp10);
                            auto tmp34 = decltype(tmp32)::blendv(tmp28, tmp32, tmp33.template cast<int64_t,2>());
                            auto tmp35 =
                            [&]
                            {
                                __at_align__ std::array<int64_t, 8> tmpbuf;
                                tmp34.store(tmpbuf.data(), static_cast<int64_t>(8));
                                return tmpbuf;
                            }
                            ()
                            ;
                            auto tmp36 =
                            [&]
                            {
                                __at_align__ std::array<int64_t, 8> tmpbuf;
                                #pragma GCC unroll 8
                                for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                                {
                                    tmpbuf[x0_inner] = static_cast<int64_t>(tmp35[x0_inner]);
                                }
                                return at::vec::VectorizedN<int64_t,2>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                            }
                            ()
                            ;
                            TORCH_CHECK((at::vec::VecMask<int64_t,2>((at::vec::VectorizedN<int64_t,2>(0) <= tmp36) & (tmp36 < at::vec::VectorizedN<int64_t,2>(128256L)))).all_masked(), "index out of bounds: 0 <= tmp36 < 128256L");
                            auto tmp37 =
                            [&]
                            {
                                __at_align__ std::array<float, 8> tmpbuf;
                                #pragma GCC unroll 8
                                for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                                {
                                    tmpbuf[x0_inner] = in_ptr2[static_cast<int64_t>(tmp35[x0_inner])];
                                }
                                return at::vec::Vectorized<float>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                            }
                            ()
                            ;
                            auto tmp38 = static_cast<float>(0.0);
                            auto tmp39 = at::vec::Vectorized<float>(tmp38);
                            auto tmp40 = decltype(tmp37)::blendv(tmp39, tmp37, tmp23.template cast<float,1>());
                            auto tmp41 = static_cast<float>(1.0);
                            auto tmp42 = at::vec::Vectorized<float>(tmp41);
                            auto tmp43 = tmp40 * tmp42;
                            auto tmp44 = decltype(tmp3)::blendv(tmp39, tmp3, tmp23.template cast<float,1>());
                            auto tmp45 = at::vec::VecMask<int64_t,2>(tmp5 != tmp7);
                            auto tmp46 = tmp45.template cast<int32_t,1>();
                            auto tmp47 = tmp46 & tmp19;
                            auto tmp48 = at::vec::convert<int32_t,1,int64_t,2>(tmp5);
                            auto tmp49 = static_cast<int32_t>(-1);
                            auto tmp50 = at::vec::Vectorized<int32_t>(tmp49);
                            auto tmp51 = decltype(tmp48)::blendv(tmp50, tmp48, tmp47.template cast<int32_t,1>());
                            auto tmp52 = static_cast<int32_t>(0);
                            auto tmp53 = at::vec::Vectorized<int32_t>(tmp52);
                            auto tmp54 = at::vec::VecMask<int32_t,1>(tmp51 >= tmp53);
                            auto tmp55 = decltype(tmp51)::blendv(tmp53, tmp51, tmp54.template cast<int32_t,1>());
                            auto tmp56 = at::vec::convert<int64_t,2,int32_t,1>(tmp55);
                            auto tmp57 = tmp56 + tmp31;
                            auto tmp58 = at::vec::VecMask<int64_t,2>(tmp56 < tmp10);
                            auto tmp59 = decltype(tmp57)::blendv(tmp56, tmp57, tmp58.template cast<int64_t,2>());
                            auto tmp60 =
                            [&]
                            {
                                __at_align__ std::array<int64_t, 8> tmpbuf;
                                tmp59.store(tmpbuf.data(), static_cast<int64_t>(8));
                                return tmpbuf;
                            }
                            ()
                            ;
                            auto tmp61 =
                            [&]
                            {
                                __at_align__ std::array<at::BFloat16, 16> tmpbuf;
                                #pragma GCC unroll 8
                                for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                                {
                                    tmpbuf[x0_inner] = in_ptr0[static_cast<int64_t>(tmp60[x0_inner] + 128256L*x0 + 128256L*x0_inner)];
                                }
                                return at::vec::Vectorized<at::BFloat16>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                            }
                            ()
                            ;
                            auto tmp62 = at::vec::convert<float>(tmp61);
                            auto tmp63 = -std::numeric_limits<float>::infinity();
                            auto tmp64 = at::vec::Vectorized<float>(tmp63);
                            auto tmp65 = decltype(tmp62)::blendv(tmp64, tmp62, tmp54.template cast<float,1>());
                            auto tmp66 = decltype(tmp65)::blendv(tmp39, tmp65, tmp23.template cast<float,1>());
                            auto tmp67 = at::vec::maximum(tmp66, tmp39);
                            auto tmp68 = tmp67 * tmp39;
                            auto tmp69 = tmp44 + tmp68;
                            auto tmp70 = tmp69 - tmp66;
                            auto tmp71 = tmp70 * tmp42;
                            auto tmp72 = static_cast<float>(20.0);
                            auto tmp73 = at::vec::Vectorized<float>(tmp72);
                            auto tmp74 = at::vec::VecMask<float,1>(tmp70 > tmp73);
                            auto tmp75 = tmp70.exp();
                            auto tmp76 = tmp75.log1p();
                            auto tmp77 = decltype(tmp70)::blendv(tmp76, tmp70, tmp74.template cast<float,1>());
                            auto tmp78 = tmp43 * tmp77;
                            auto tmp79 = decltype(tmp78)::blendv(tmp39, tmp78, tmp23.template cast<float,1>());
                            tmp3.store(in_out_ptr0 + static_cast<int64_t>(x0));
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp22;
                            tmp23.store(out_ptr3 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            tmp43.store(out_ptr4 + static_cast<int64_t>(x0));
                            tmp71.store(out_ptr5 + static_cast<int64_t>(x0));
                            tmp_acc1_vec_local = tmp_acc1_vec_local + tmp79;
                            tmp_acc2_vec_local = tmp_acc2_vec_local + tmp40;
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
