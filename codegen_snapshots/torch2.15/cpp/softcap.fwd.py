# forward of ce(x, t, softcap=30.0)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride_grouped((primals_1, primals_2), ((4096, 128256), (4096, )), ((128256, 1), (1, )), 'input')
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf5 = buf3; del buf3  # reuse
    buf6 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf7 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf8 = buf7; del buf7  # reuse
    buf9 = empty_strided_cpu((), (), torch.float32)
    buf10 = empty_strided_cpu((), (), torch.float32)
    buf1 = buf0; del buf0  # reuse
    cpp_fused_ce_fwd_0(buf5, buf8, buf1, primals_1, primals_2, buf4, buf6, buf9, buf10)
    del buf4
    torch.ops.aten._assert_async.msg(buf1, 'inductor_ce: target out of range: every target must be in [0, V) or equal to ignore_index')
    del buf1
    buf11 = buf9; del buf9  # reuse
    cpp_fused_1(buf11, buf10)
    return (buf11, primals_1, primals_2, buf5, buf6, buf8, buf10, )


extern "C"  void  cpp_fused_ce_fwd_0(float* in_out_ptr0,
                       float* in_out_ptr1,
                       bool* in_out_ptr2,
                       const at::BFloat16* in_ptr0,
                       const int64_t* in_ptr1,
                       float* out_ptr1,
                       bool* out_ptr3,
                       float* out_ptr5,
                       float* out_ptr6)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
    auto out_ptr2 = in_out_ptr2;
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
                                auto tmp3 = static_cast<float>(1.0);
                                auto tmp4 = static_cast<float>(30.0);
                                auto tmp5 = tmp3 / tmp4;
                                auto tmp6 = at::vec::VectorizedN<float,2>(tmp5);
                                auto tmp7 = tmp2 * tmp6;
                                auto tmp8 = tmp7.tanh();
                                auto tmp9 = at::vec::VectorizedN<float,2>(tmp4);
                                auto tmp10 = tmp9 * tmp8;
                                auto tmp11 = c10::convert<int64_t>(tmp1);
                                auto tmp12 = static_cast<int64_t>(-100);
                                auto tmp13 = tmp11 != tmp12;
                                auto tmp14 = static_cast<int64_t>(0);
                                auto tmp15 = tmp11 >= tmp14;
                                auto tmp16 = static_cast<int64_t>(128256);
                                auto tmp17 = tmp11 < tmp16;
                                auto tmp18 = tmp15 && tmp17;
                                auto tmp19 = tmp13 && tmp18;
                                auto tmp20 = c10::convert<int32_t>(tmp11);
                                auto tmp21 = static_cast<int32_t>(-1);
                                auto tmp22 = tmp19 ? tmp20 : tmp21;
                                auto tmp23 = x1;
                                auto tmp24 = c10::convert<int32_t>(tmp23);
                                auto tmp25 = at::vec::VectorizedN<int32_t,2>::arange(tmp24, 1);
                                auto tmp26 = at::vec::VectorizedN<int32_t,2>(tmp22);
                                auto tmp27 = at::vec::VecMask<int32_t,2>(tmp25 == tmp26);
                                auto tmp28 = -std::numeric_limits<float>::infinity();
                                auto tmp29 = at::vec::VectorizedN<float,2>(tmp28);
                                auto tmp30 = decltype(tmp29)::blendv(tmp10, tmp29, inductor_vec_mask_cast<float,2>(tmp27));
                                tmp_acc0_vec = at::vec::maximum(tmp_acc0_vec, tmp30);
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
                                auto tmp31 = out_ptr0[static_cast<int64_t>(x0)];
                                auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                                auto tmp3 = static_cast<float>(1.0);
                                auto tmp4 = static_cast<float>(30.0);
                                auto tmp5 = tmp3 / tmp4;
                                auto tmp6 = at::vec::VectorizedN<float,2>(tmp5);
                                auto tmp7 = tmp2 * tmp6;
                                auto tmp8 = tmp7.tanh();
                                auto tmp9 = at::vec::VectorizedN<float,2>(tmp4);
                                auto tmp10 = tmp9 * tmp8;
                                auto tmp11 = c10::convert<int64_t>(tmp1);
                                auto tmp12 = static_cast<int64_t>(-100);
                                auto tmp13 = tmp11 != tmp12;
                                auto tmp14 = static_cast<int64_t>(0);
                                auto tmp15 = tmp11 >= tmp14;
                                auto tmp16 = static_cast<int64_t>(128256);
                                auto tmp17 = tmp11 < tmp16;
                                auto tmp18 = tmp15 && tmp17;
                                auto tmp19 = tmp13 && tmp18;
                                auto tmp20 = c10::convert<int32_t>(tmp11);
                                auto tmp21 = static_cast<int32_t>(-1);
                                auto tmp22 = tmp19 ? tmp20 : tmp21;
                                auto tmp23 = x1;
                                auto tmp24 = c10::convert<int32_t>(tmp23);
                                auto tmp25 = at::vec::VectorizedN<int32_t,2>::arange(tmp24, 1);
                                auto tmp26 = at::vec::VectorizedN<int32_t,2>(tmp22);
                                auto tmp27 = at::vec::VecMask<int32_t,2>(tmp25 == tmp26);
                                auto tmp28 = -std::numeric_limits<float>::infinity();
                                auto tmp29 = at::vec::VectorizedN<float,2>(tmp28);
                                auto tmp30 = decltype(tmp29)::blendv(tmp10, tmp29, inductor_vec_mask_cast<float,2>(tmp27));
                                auto tmp32 = tmp31 == tmp28;
                                auto tmp33 = static_cast<float>(0.0);
                                auto tmp34 = tmp32 ? tmp33 : tmp31;
                                auto tmp35 = at::vec::VectorizedN<float,2>(tmp34);
                                auto tmp36 = tmp30 - tmp35;
                                auto tmp37 = static_cast<float>(1.4426950408889634);
                                auto tmp38 = at::vec::VectorizedN<float,2>(tmp37);
                                auto tmp39 = tmp36 * tmp38;
                                auto tmp40 = tmp39.exp2();
                                tmp_acc0_vec = cascade_sum_combine(tmp40, &cascade_helper0);
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
                            auto tmp10 = at::vec::VectorizedN<int64_t,2>(tmp9);
                            auto tmp1 = at::vec::VecMask<int64_t,2>(tmp2 < tmp10);
                            auto tmp11 = inductor_vec_mask_cast<int32_t,1>(tmp8);
                            auto tmp12 = inductor_vec_mask_cast<int32_t,1>(tmp1);
                            auto tmp13 = tmp11 & tmp12;
                            auto tmp14 = inductor_vec_mask_cast<int32_t,1>(tmp5);
                            auto tmp15 = inductor_vec_mask_cast<int32_t,1>(tmp13);
                            auto tmp16 = tmp14 | tmp15;
                            auto tmp17 = ~tmp16;
                            auto tmp18 = inductor_vec_mask_cast<float,1>(tmp17);
                            auto tmp21 = tmp20.log();
                            auto tmp22 = tmp19 + tmp21;
                            auto tmp23 = at::vec::VecMask<int64_t,2>(tmp0 != tmp4);
                            auto tmp24 = at::vec::VecMask<int64_t,2>(tmp2 != tmp4);
                            auto tmp25 = inductor_vec_mask_cast<int32_t,1>(tmp24);
                            auto tmp26 = tmp25 & tmp15;
                            auto tmp27 = at::vec::convert<int32_t,1,int64_t,2>(tmp2);
                            auto tmp28 = static_cast<int32_t>(-1);
                            auto tmp29 = at::vec::Vectorized<int32_t>(tmp28);
                            auto tmp30 = decltype(tmp27)::blendv(tmp29, tmp27, inductor_vec_mask_cast<int32_t,1>(tmp26));
                            auto tmp31 = static_cast<int32_t>(0);
                            auto tmp32 = at::vec::Vectorized<int32_t>(tmp31);
                            auto tmp33 = at::vec::VecMask<int32_t,1>(tmp30 >= tmp32);
                            auto tmp34 = decltype(tmp30)::blendv(tmp32, tmp30, inductor_vec_mask_cast<int32_t,1>(tmp33));
                            auto tmp35 = 128256L;
                            auto tmp36 = c10::convert<int64_t>(tmp35);
                            auto tmp37 = at::vec::convert<int64_t,2,int32_t,1>(tmp34);
                            auto tmp38 = at::vec::VectorizedN<int64_t,2>(tmp36);
                            auto tmp39 = tmp37 + tmp38;
                            auto tmp40 = at::vec::VecMask<int64_t,2>(tmp37 < tmp7);
                            auto tmp41 = decltype(tmp39)::blendv(tmp37, tmp39, inductor_vec_mask_cast<int64_t,2>(tmp40));
                            auto tmp42 =
                            [&]
                            {
                                __at_align__ std::array<int64_t, 8> tmpbuf;
                                tmp41.store(tmpbuf.data(), static_cast<int64_t>(8));
                                return tmpbuf;
                            }
                            ()
                            ;
                            auto tmp43 =
                            [&]
                            {
                                __at_align__ std::array<at::BFloat16, 16> tmpbuf;
                                #pragma GCC unroll 8
                                for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                                {
                                    tmpbuf[x0_inner] = in_ptr0[static_cast<int64_t>(tmp42[x0_inner] + 128256L*x0 + 128256L*x0_inner)];
                                }
                                return at::vec::Vectorized<at::BFloat16>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                            }
                            ()
                            ;
                            auto tmp44 = at::vec::convert<float>(tmp43);
                            auto tmp45 = static_cast<float>(1.0);
                            auto tmp46 = static_cast<float>(30.0);
                            auto tmp47 = tmp45 / tmp46;
                            auto tmp48 = at::vec::Vectorized<float>(tmp47);
                            auto tmp49 = tmp44 * tmp48;
                            auto tmp50 = tmp49.tanh();
                            auto tmp51 = at::vec::Vectorized<float>(tmp46);
                            auto tmp52 = tmp51 * tmp50;
                            auto tmp53 = -std::numeric_limits<float>::infinity();
                            auto tmp54 = at::vec::Vectorized<float>(tmp53);
                            auto tmp55 = decltype(tmp52)::blendv(tmp54, tmp52, inductor_vec_mask_cast<float,1>(tmp33));
                            auto tmp56 = static_cast<float>(0.0);
                            auto tmp57 = at::vec::Vectorized<float>(tmp56);
                            auto tmp58 = decltype(tmp55)::blendv(tmp57, tmp55, inductor_vec_mask_cast<float,1>(tmp23));
                            auto tmp59 = decltype(tmp22)::blendv(tmp57, tmp22, inductor_vec_mask_cast<float,1>(tmp23));
                            auto tmp60 = at::vec::maximum(tmp58, tmp57);
                            auto tmp61 = tmp60 * tmp57;
                            auto tmp62 = tmp59 + tmp61;
                            auto tmp63 = tmp62 - tmp58;
                            auto tmp64 = tmp23.to<float,1>();
                            auto tmp65 = static_cast<float>(20.0);
                            auto tmp66 = at::vec::Vectorized<float>(tmp65);
                            auto tmp67 = at::vec::VecMask<float,1>(tmp63 > tmp66);
                            auto tmp68 = tmp63.exp();
                            auto tmp69 = tmp68.log1p();
                            auto tmp70 = decltype(tmp63)::blendv(tmp69, tmp63, inductor_vec_mask_cast<float,1>(tmp67));
                            auto tmp71 = tmp64 * tmp70;
                            auto tmp72 = decltype(tmp71)::blendv(tmp57, tmp71, inductor_vec_mask_cast<float,1>(tmp23));
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp18;
                            tmp22.store(in_out_ptr0 + static_cast<int64_t>(x0));
                            tmp23.store(out_ptr3 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            tmp63.store(in_out_ptr1 + static_cast<int64_t>(x0));
                            tmp_acc1_vec_local = tmp_acc1_vec_local + tmp72;
                            tmp_acc2_vec_local = tmp_acc2_vec_local + tmp64;
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
                in_out_ptr2[static_cast<int64_t>(0L)] = tmp2;
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
