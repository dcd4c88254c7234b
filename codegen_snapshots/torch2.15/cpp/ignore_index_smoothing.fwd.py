# forward of ce(x, t, ignore_index=0, label_smoothing=0.1)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride_grouped((primals_1, primals_2), ((4096, 128256), (4096, )), ((128256, 1), (1, )), 'input')
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf5 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf6 = buf3; del buf3  # reuse
    buf7 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf8 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf9 = empty_strided_cpu((), (), torch.float32)
    buf10 = empty_strided_cpu((), (), torch.float32)
    buf1 = buf0; del buf0  # reuse
    cpp_fused_ce_fwd_0(buf6, buf1, primals_1, primals_2, buf4, buf5, buf7, buf8, buf9, buf10)
    del buf4
    del buf5
    torch.ops.aten._assert_async.msg(buf1, 'inductor_ce: target out of range: every target must be in [0, V) or equal to ignore_index')
    del buf1
    buf11 = buf9; del buf9  # reuse
    cpp_fused_1(buf11, buf10)
    return (buf11, primals_1, primals_2, buf6, buf7, buf8, buf10, )


extern "C"  void  cpp_fused_ce_fwd_0(float* in_out_ptr0,
                       bool* in_out_ptr1,
                       const at::BFloat16* in_ptr0,
                       const int64_t* in_ptr1,
                       float* out_ptr1,
                       float* out_ptr2,
                       bool* out_ptr4,
                       float* out_ptr5,
                       float* out_ptr6,
                       float* out_ptr7)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
    auto out_ptr3 = in_out_ptr1;
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
                                auto tmp21 = decltype(tmp20)::blendv(tmp2, tmp20, inductor_vec_mask_cast<float,2>(tmp18));
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
                                auto tmp21 = decltype(tmp20)::blendv(tmp2, tmp20, inductor_vec_mask_cast<float,2>(tmp18));
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
                            auto tmp0 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp17 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp18 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp35 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp2 = (tmp0);
                            auto tmp1 = static_cast<int64_t>(0);
                            auto tmp3 = at::vec::VectorizedN<int64_t,2>(tmp1);
                            auto tmp4 = at::vec::VecMask<int64_t,2>(tmp2 == tmp3);
                            auto tmp5 = at::vec::VecMask<int64_t,2>(tmp2 >= tmp3);
                            auto tmp6 = static_cast<int64_t>(128256);
                            auto tmp7 = at::vec::VectorizedN<int64_t,2>(tmp6);
                            auto tmp8 = at::vec::VecMask<int64_t,2>(tmp2 < tmp7);
                            auto tmp9 = inductor_vec_mask_cast<int32_t,1>(tmp5);
                            auto tmp10 = inductor_vec_mask_cast<int32_t,1>(tmp8);
                            auto tmp11 = tmp9 & tmp10;
                            auto tmp12 = inductor_vec_mask_cast<int32_t,1>(tmp4);
                            auto tmp13 = inductor_vec_mask_cast<int32_t,1>(tmp11);
                            auto tmp14 = tmp12 | tmp13;
                            auto tmp15 = ~tmp14;
                            auto tmp16 = inductor_vec_mask_cast<float,1>(tmp15);
                            auto tmp19 = tmp18.log();
                            auto tmp20 = tmp17 + tmp19;
                            auto tmp21 = at::vec::VecMask<int64_t,2>(tmp0 != tmp3);
                            auto tmp22 = at::vec::VecMask<int64_t,2>(tmp2 != tmp3);
                            auto tmp23 = inductor_vec_mask_cast<int32_t,1>(tmp22);
                            auto tmp24 = tmp23 & tmp13;
                            auto tmp25 = at::vec::convert<int32_t,1,int64_t,2>(tmp2);
                            auto tmp26 = static_cast<int32_t>(-1);
                            auto tmp27 = at::vec::Vectorized<int32_t>(tmp26);
                            auto tmp28 = decltype(tmp25)::blendv(tmp27, tmp25, inductor_vec_mask_cast<int32_t,1>(tmp24));
                            auto tmp29 = static_cast<int32_t>(0);
                            auto tmp30 = at::vec::Vectorized<int32_t>(tmp29);
                            auto tmp31 = at::vec::VecMask<int32_t,1>(tmp28 >= tmp30);
                            auto tmp32 = decltype(tmp28)::blendv(tmp30, tmp28, inductor_vec_mask_cast<int32_t,1>(tmp31));
                            auto tmp33 = 128256L;
                            auto tmp34 = c10::convert<int64_t>(tmp33);
                            auto tmp36 = at::vec::convert<int64_t,2,int32_t,1>(tmp32);
                            auto tmp37 = at::vec::VectorizedN<int64_t,2>(tmp34);
                            auto tmp38 = tmp36 + tmp37;
                            auto tmp39 = at::vec::VecMask<int64_t,2>(tmp36 < tmp3);
                            auto tmp40 = decltype(tmp38)::blendv(tmp36, tmp38, inductor_vec_mask_cast<int64_t,2>(tmp39));
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
                            auto tmp46 = decltype(tmp43)::blendv(tmp45, tmp43, inductor_vec_mask_cast<float,1>(tmp31));
                            auto tmp47 = static_cast<float>(0.0);
                            auto tmp48 = at::vec::Vectorized<float>(tmp47);
                            auto tmp49 = decltype(tmp46)::blendv(tmp48, tmp46, inductor_vec_mask_cast<float,1>(tmp21));
                            auto tmp50 = tmp21.to<float,1>();
                            auto tmp51 = static_cast<float>(0.9);
                            auto tmp52 = at::vec::Vectorized<float>(tmp51);
                            auto tmp53 = tmp50 * tmp52;
                            auto tmp54 = decltype(tmp20)::blendv(tmp48, tmp20, inductor_vec_mask_cast<float,1>(tmp21));
                            auto tmp55 = at::vec::maximum(tmp49, tmp48);
                            auto tmp56 = tmp55 * tmp48;
                            auto tmp57 = tmp54 + tmp56;
                            auto tmp58 = tmp57 - tmp49;
                            auto tmp59 = static_cast<float>(20.0);
                            auto tmp60 = at::vec::Vectorized<float>(tmp59);
                            auto tmp61 = at::vec::VecMask<float,1>(tmp58 > tmp60);
                            auto tmp62 = tmp58.exp();
                            auto tmp63 = tmp62.log1p();
                            auto tmp64 = decltype(tmp58)::blendv(tmp63, tmp58, inductor_vec_mask_cast<float,1>(tmp61));
                            auto tmp65 = tmp53 * tmp64;
                            auto tmp66 = at::vec::VecMask<float,1>(tmp57 == tmp57);
                            auto tmp67 = tmp57.abs();
                            auto tmp68 = std::numeric_limits<float>::infinity();
                            auto tmp69 = at::vec::Vectorized<float>(tmp68);
                            auto tmp70 = at::vec::VecMask<float,1>(tmp67 != tmp69);
                            auto tmp71 = inductor_vec_mask_cast<int32_t,1>(tmp66);
                            auto tmp72 = inductor_vec_mask_cast<int32_t,1>(tmp70);
                            auto tmp73 = tmp71 & tmp72;
                            auto tmp74 = ~tmp73;
                            auto tmp75 = at::vec::VecMask<float,1>(tmp57 == tmp49);
                            auto tmp76 = inductor_vec_mask_cast<int32_t,1>(tmp74);
                            auto tmp77 = inductor_vec_mask_cast<int32_t,1>(tmp75);
                            auto tmp78 = tmp76 & tmp77;
                            auto tmp79 = at::vec::VecMask<float,1>(tmp57 >= tmp49);
                            auto tmp80 = decltype(tmp57)::blendv(tmp49, tmp57, inductor_vec_mask_cast<float,1>(tmp79));
                            auto tmp81 = decltype(tmp49)::blendv(tmp57, tmp49, inductor_vec_mask_cast<float,1>(tmp79));
                            auto tmp82 = tmp81 - tmp80;
                            auto tmp83 = tmp82.exp();
                            auto tmp84 = tmp83.log1p();
                            auto tmp85 = tmp80 + tmp84;
                            auto tmp86 = decltype(tmp57)::blendv(tmp85, tmp57, inductor_vec_mask_cast<float,1>(tmp78));
                            auto tmp87 = static_cast<float>(128256.0);
                            auto tmp88 = at::vec::Vectorized<float>(tmp87);
                            auto tmp89 = tmp86 * tmp88;
                            auto tmp90 = decltype(tmp35)::blendv(tmp48, tmp35, inductor_vec_mask_cast<float,1>(tmp21));
                            auto tmp91 = tmp89 - tmp90;
                            auto tmp92 = static_cast<float>(7.796906187624751e-07);
                            auto tmp93 = at::vec::Vectorized<float>(tmp92);
                            auto tmp94 = tmp91 * tmp93;
                            auto tmp95 = tmp65 + tmp94;
                            auto tmp96 = decltype(tmp95)::blendv(tmp48, tmp95, inductor_vec_mask_cast<float,1>(tmp21));
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp16;
                            tmp20.store(in_out_ptr0 + static_cast<int64_t>(x0));
                            tmp21.store(out_ptr4 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            tmp49.store(out_ptr5 + static_cast<int64_t>(x0));
                            tmp_acc1_vec_local = tmp_acc1_vec_local + tmp96;
                            tmp_acc2_vec_local = tmp_acc2_vec_local + tmp50;
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
