# the chunk kernels of linear_cross_entropy(h, w, t, memory_budget=19660800), eager, h: bf16[300, 16], w: bf16[128256, 16]
# --- compiled graph 0
def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1, arg4_1 = args
    arg0_1_size = arg0_1.size()
    s26 = arg0_1_size[0]
    assert_size_stride(arg1_1, (s26, ), (1, ), 'input')
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf1 = buf0; del buf0  # reuse
    cpp_fused_0(buf1, arg1_1, s26)
    torch.ops.aten._assert_async.msg(buf1, 'inductor_ce: target out of range: every target must be in [0, V) or equal to ignore_index')
    del buf1
    assert_size_stride(arg0_1, (s26, 2368), (2368, 1), 'input')
    assert_size_stride(arg2_1, (s26, ), (1, ), 'input')
    buf3 = empty_strided_cpu((s26, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((s26, ), (1, ), torch.float32)
    buf5 = buf3; del buf3  # reuse
    buf20 = buf5; del buf5  # reuse
    assert_size_stride(arg3_1, (s26, ), (1, ), 'input')
    assert_size_stride(arg4_1, (s26, ), (1, ), 'input')
    cpp_fused_1(buf20, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, buf4, arg2_1, arg3_1, arg4_1, s26)
    del arg0_1
    del arg2_1
    del arg3_1
    del arg4_1
    return (arg1_1, )


extern "C"  void  cpp_fused_0(bool* in_out_ptr0,
                       const int32_t* in_ptr0,
                       const int64_t ks0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
    {
        {
            bool tmp_acc0 = 0;
            at::vec::VecMask<float,1> tmp_acc0_vec = at::vec::VecMask<float,1>::from(0);
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
            #pragma omp parallel
            {
                int tid = omp_get_thread_num();
                at::vec::VecMask<float,1> tmp_acc0_vec_local = at::vec::VecMask<float,1>::from(0);
                bool tmp_acc0_local = 0;
                #pragma omp for
                for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(8L))
                {
                    {
                        if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))))))
                        {
                            auto tmp0 = at::vec::Vectorized<int32_t>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp1 = at::vec::convert<int64_t,2,int32_t,1>(tmp0);
                            auto tmp2 = static_cast<int64_t>(-1);
                            auto tmp3 = at::vec::VectorizedN<int64_t,2>(tmp2);
                            auto tmp4 = at::vec::VecMask<int64_t,2>(tmp1 == tmp3);
                            auto tmp5 = static_cast<int64_t>(0);
                            auto tmp6 = at::vec::VectorizedN<int64_t,2>(tmp5);
                            auto tmp7 = at::vec::VecMask<int64_t,2>(tmp1 >= tmp6);
                            auto tmp8 = static_cast<int64_t>(2368);
                            auto tmp9 = at::vec::VectorizedN<int64_t,2>(tmp8);
                            auto tmp10 = at::vec::VecMask<int64_t,2>(tmp1 < tmp9);
                            auto tmp11 = tmp7.template cast<int32_t,1>();
                            auto tmp12 = tmp10.template cast<int32_t,1>();
                            auto tmp13 = tmp11 & tmp12;
                            auto tmp14 = tmp4.template cast<int32_t,1>();
                            auto tmp15 = tmp13.template cast<int32_t,1>();
                            auto tmp16 = tmp14 | tmp15;
                            auto tmp17 = ~tmp16;
                            auto tmp18 = tmp17.template cast<float,1>();
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp18;
                        }
                        if(C10_UNLIKELY(x0 >= static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))) && x0 < static_cast<int64_t>(ks0)))
                        {
                            auto tmp0 = at::vec::Vectorized<int32_t>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                            auto tmp1 = at::vec::convert<int64_t,2,int32_t,1>(tmp0);
                            auto tmp2 = static_cast<int64_t>(-1);
                            auto tmp3 = at::vec::VectorizedN<int64_t,2>(tmp2);
                            auto tmp4 = at::vec::VecMask<int64_t,2>(tmp1 == tmp3);
                            auto tmp5 = static_cast<int64_t>(0);
                            auto tmp6 = at::vec::VectorizedN<int64_t,2>(tmp5);
                            auto tmp7 = at::vec::VecMask<int64_t,2>(tmp1 >= tmp6);
                            auto tmp8 = static_cast<int64_t>(2368);
                            auto tmp9 = at::vec::VectorizedN<int64_t,2>(tmp8);
                            auto tmp10 = at::vec::VecMask<int64_t,2>(tmp1 < tmp9);
                            auto tmp11 = tmp7.template cast<int32_t,1>();
                            auto tmp12 = tmp10.template cast<int32_t,1>();
                            auto tmp13 = tmp11 & tmp12;
                            auto tmp14 = tmp4.template cast<int32_t,1>();
                            auto tmp15 = tmp13.template cast<int32_t,1>();
                            auto tmp16 = tmp14 | tmp15;
                            auto tmp17 = ~tmp16;
                            auto tmp18 = tmp17.template cast<float,1>();
                            tmp_acc0_vec_local = any_masked_reduce(tmp_acc0_vec_local, tmp18, static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                        }
                    }
                }
                tmp_acc0_vec_arr[tid] = tmp_acc0_vec_local;
                tmp_acc0_arr[tid] = tmp_acc0_local;
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc0_vec = tmp_acc0_vec | tmp_acc0_vec_arr[tid];
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc0 = tmp_acc0 || tmp_acc0_arr[tid];
            }
            tmp_acc0 = tmp_acc0 || !tmp_acc0_vec.all_zero();
            out_ptr0[static_cast<int64_t>(0L)] = static_cast<bool>(tmp_acc0);
        }
    }
    {
        {
            {
                auto tmp0 = out_ptr0[static_cast<int64_t>(0L)];
                auto tmp1 = !tmp0;
                in_out_ptr0[static_cast<int64_t>(0L)] = tmp1;
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}


extern "C"  void  cpp_fused_1(float* in_out_ptr0,
                       const at::BFloat16* in_ptr0,
                       const int32_t* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       const float* in_ptr4,
                       float* out_ptr1,
                       float* out_ptr2,
                       float* out_ptr4,
                       float* out_ptr6,
                       const int64_t ks0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
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
                    for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(2368L); x1+=static_cast<int64_t>(16L))
                    {
                        {
                            if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(2368L)))
                            {
                                auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 2368L*x0), static_cast<int64_t>(16));
                                auto tmp1 = in_ptr1[static_cast<int64_t>(x0)];
                                auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                                auto tmp3 = c10::convert<int64_t>(tmp1);
                                auto tmp4 = static_cast<int64_t>(-1);
                                auto tmp5 = tmp3 != tmp4;
                                auto tmp6 = static_cast<int64_t>(0);
                                auto tmp7 = tmp3 >= tmp6;
                                auto tmp8 = static_cast<int64_t>(2368);
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
                    in_out_ptr0[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc0);
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(1L))
            {
                {
                    float tmp_acc0 = 0;
                    at::vec::VectorizedN<float,2> tmp_acc0_vec = at::vec::VectorizedN<float,2>(0);
                    for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(2368L); x1+=static_cast<int64_t>(16L))
                    {
                        {
                            if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(2368L)))
                            {
                                auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 2368L*x0), static_cast<int64_t>(16));
                                auto tmp1 = in_ptr1[static_cast<int64_t>(x0)];
                                auto tmp23 = out_ptr0[static_cast<int64_t>(x0)];
                                auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                                auto tmp3 = c10::convert<int64_t>(tmp1);
                                auto tmp4 = static_cast<int64_t>(-1);
                                auto tmp5 = tmp3 != tmp4;
                                auto tmp6 = static_cast<int64_t>(0);
                                auto tmp7 = tmp3 >= tmp6;
                                auto tmp8 = static_cast<int64_t>(2368);
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
                                tmp_acc0_vec = tmp_acc0_vec + tmp32;
                            }
                        }
                    }
                    tmp_acc0 = tmp_acc0 + at::vec::vec_reduce_all<float, 2>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc0_vec);
                    out_ptr1[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc0);
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(8L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))))))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp4 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp1 = tmp2.log();
                        auto tmp3 = tmp0 + tmp1;
                        auto tmp5 = at::vec::VecMask<float,1>(tmp4 == tmp4);
                        auto tmp6 = tmp4.abs();
                        auto tmp7 = std::numeric_limits<float>::infinity();
                        auto tmp8 = at::vec::Vectorized<float>(tmp7);
                        auto tmp9 = at::vec::VecMask<float,1>(tmp6 != tmp8);
                        auto tmp10 = tmp5.template cast<int32_t,1>();
                        auto tmp11 = tmp9.template cast<int32_t,1>();
                        auto tmp12 = tmp10 & tmp11;
                        auto tmp13 = ~tmp12;
                        auto tmp14 = at::vec::VecMask<float,1>(tmp4 == tmp3);
                        auto tmp15 = tmp13.template cast<int32_t,1>();
                        auto tmp16 = tmp14.template cast<int32_t,1>();
                        auto tmp17 = tmp15 & tmp16;
                        auto tmp18 = at::vec::VecMask<float,1>(tmp4 >= tmp3);
                        auto tmp19 = decltype(tmp4)::blendv(tmp3, tmp4, tmp18.template cast<float,1>());
                        auto tmp20 = decltype(tmp3)::blendv(tmp4, tmp3, tmp18.template cast<float,1>());
                        auto tmp21 = tmp20 - tmp19;
                        auto tmp22 = tmp21.exp();
                        auto tmp23 = tmp22.log1p();
                        auto tmp24 = tmp19 + tmp23;
                        auto tmp25 = decltype(tmp4)::blendv(tmp24, tmp4, tmp17.template cast<float,1>());
                        tmp25.store(out_ptr2 + static_cast<int64_t>(x0));
                    }
                    if(C10_UNLIKELY(x0 >= static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))) && x0 < static_cast<int64_t>(ks0)))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                        auto tmp2 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                        auto tmp4 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                        auto tmp1 = tmp2.log();
                        auto tmp3 = tmp0 + tmp1;
                        auto tmp5 = at::vec::VecMask<float,1>(tmp4 == tmp4);
                        auto tmp6 = tmp4.abs();
                        auto tmp7 = std::numeric_limits<float>::infinity();
                        auto tmp8 = at::vec::Vectorized<float>(tmp7);
                        auto tmp9 = at::vec::VecMask<float,1>(tmp6 != tmp8);
                        auto tmp10 = tmp5.template cast<int32_t,1>();
                        auto tmp11 = tmp9.template cast<int32_t,1>();
                        auto tmp12 = tmp10 & tmp11;
                        auto tmp13 = ~tmp12;
                        auto tmp14 = at::vec::VecMask<float,1>(tmp4 == tmp3);
                        auto tmp15 = tmp13.template cast<int32_t,1>();
                        auto tmp16 = tmp14.template cast<int32_t,1>();
                        auto tmp17 = tmp15 & tmp16;
                        auto tmp18 = at::vec::VecMask<float,1>(tmp4 >= tmp3);
                        auto tmp19 = decltype(tmp4)::blendv(tmp3, tmp4, tmp18.template cast<float,1>());
                        auto tmp20 = decltype(tmp3)::blendv(tmp4, tmp3, tmp18.template cast<float,1>());
                        auto tmp21 = tmp20 - tmp19;
                        auto tmp22 = tmp21.exp();
                        auto tmp23 = tmp22.log1p();
                        auto tmp24 = tmp19 + tmp23;
                        auto tmp25 = decltype(tmp4)::blendv(tmp24, tmp4, tmp17.template cast<float,1>());
                        tmp25.store(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(8L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))))))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr4 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = at::vec::Vectorized<int32_t>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp1 = at::vec::convert<int64_t,2,int32_t,1>(tmp2);
                        auto tmp3 = static_cast<int64_t>(-1);
                        auto tmp4 = at::vec::VectorizedN<int64_t,2>(tmp3);
                        auto tmp5 = at::vec::VecMask<int64_t,2>(tmp1 != tmp4);
                        auto tmp6 = static_cast<int64_t>(0);
                        auto tmp7 = at::vec::VectorizedN<int64_t,2>(tmp6);
                        auto tmp8 = at::vec::VecMask<int64_t,2>(tmp1 >= tmp7);
                        auto tmp9 = static_cast<int64_t>(2368);
                        auto tmp10 = at::vec::VectorizedN<int64_t,2>(tmp9);
                        auto tmp11 = at::vec::VecMask<int64_t,2>(tmp1 < tmp10);
                        auto tmp12 = tmp8.template cast<int32_t,1>();
                        auto tmp13 = tmp11.template cast<int32_t,1>();
                        auto tmp14 = tmp12 & tmp13;
                        auto tmp15 = tmp5.template cast<int32_t,1>();
                        auto tmp16 = tmp14.template cast<int32_t,1>();
                        auto tmp17 = tmp15 & tmp16;
                        auto tmp18 = at::vec::convert<int32_t,1,int64_t,2>(tmp1);
                        auto tmp19 = static_cast<int32_t>(-1);
                        auto tmp20 = at::vec::Vectorized<int32_t>(tmp19);
                        auto tmp21 = decltype(tmp18)::blendv(tmp20, tmp18, tmp17.template cast<int32_t,1>());
                        auto tmp22 = static_cast<int32_t>(0);
                        auto tmp23 = at::vec::Vectorized<int32_t>(tmp22);
                        auto tmp24 = at::vec::VecMask<int32_t,1>(tmp21 >= tmp23);
                        auto tmp25 = decltype(tmp21)::blendv(tmp23, tmp21, tmp24.template cast<int32_t,1>());
                        auto tmp26 = 2368L;
                        auto tmp27 = c10::convert<int64_t>(tmp26);
                        auto tmp28 = at::vec::convert<int64_t,2,int32_t,1>(tmp25);
                        auto tmp29 = at::vec::VectorizedN<int64_t,2>(tmp27);
                        auto tmp30 = tmp28 + tmp29;
                        auto tmp31 = at::vec::VecMask<int64_t,2>(tmp28 < tmp7);
                        auto tmp32 = decltype(tmp30)::blendv(tmp28, tmp30, tmp31.template cast<int64_t,2>());
                        auto tmp33 =
                        [&]
                        {
                            __at_align__ std::array<int64_t, 8> tmpbuf;
                            tmp32.store(tmpbuf.data(), static_cast<int64_t>(8));
                            return tmpbuf;
                        }
                        ()
                        ;
                        auto tmp34 =
                        [&]
                        {
                            __at_align__ std::array<at::BFloat16, 16> tmpbuf;
                            #pragma GCC unroll 8
                            for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                            {
                                tmpbuf[x0_inner] = in_ptr0[static_cast<int64_t>(tmp33[x0_inner] + 2368L*x0 + 2368L*x0_inner)];
                            }
                            return at::vec::Vectorized<at::BFloat16>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                        }
                        ()
                        ;
                        auto tmp35 = at::vec::convert<float>(tmp34);
                        auto tmp36 = -std::numeric_limits<float>::infinity();
                        auto tmp37 = at::vec::Vectorized<float>(tmp36);
                        auto tmp38 = decltype(tmp35)::blendv(tmp37, tmp35, tmp24.template cast<float,1>());
                        auto tmp39 = at::vec::maximum(tmp0, tmp38);
                        tmp39.store(out_ptr4 + static_cast<int64_t>(x0));
                    }
                    if(C10_UNLIKELY(x0 >= static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))) && x0 < static_cast<int64_t>(ks0)))
                    {
                        for (int64_t x0_tail = static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))));x0_tail < static_cast<int64_t>(ks0); x0_tail++)
                        {
                            auto tmp0 = in_ptr3[static_cast<int64_t>(x0_tail)];
                            auto tmp2 = in_ptr1[static_cast<int64_t>(x0_tail)];
                            auto tmp1 = c10::convert<int64_t>(tmp2);
                            auto tmp3 = static_cast<int64_t>(-1);
                            auto tmp4 = tmp1 != tmp3;
                            auto tmp5 = static_cast<int64_t>(0);
                            auto tmp6 = tmp1 >= tmp5;
                            auto tmp7 = static_cast<int64_t>(2368);
                            auto tmp8 = tmp1 < tmp7;
                            auto tmp9 = tmp6 && tmp8;
                            auto tmp10 = tmp4 && tmp9;
                            auto tmp11 = c10::convert<int32_t>(tmp1);
                            auto tmp12 = static_cast<int32_t>(-1);
                            auto tmp13 = tmp10 ? tmp11 : tmp12;
                            auto tmp14 = static_cast<int32_t>(0);
                            auto tmp15 = tmp13 >= tmp14;
                            auto tmp16 = tmp15 ? tmp13 : tmp14;
                            auto tmp17 = 2368L;
                            auto tmp18 = c10::convert<int64_t>(tmp17);
                            auto tmp19 = int64_t(tmp16 + tmp18);
                            auto tmp20 = tmp16 < 0;
                            auto tmp21 = tmp20 ? tmp19 : tmp16;
                            auto tmp22 = in_ptr0[static_cast<int64_t>(tmp21 + 2368L*x0_tail)];
                            auto tmp23 = c10::convert<float>(tmp22);
                            auto tmp24 = -std::numeric_limits<float>::infinity();
                            auto tmp25 = tmp15 ? tmp23 : tmp24;
                            auto tmp26 = max_propagate_nan(tmp0, tmp25);
                            out_ptr4[static_cast<int64_t>(x0_tail)] = tmp26;
                        }
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(8L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))))))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr6 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = static_cast<float>(0.0);
                        auto tmp1 = at::vec::Vectorized<float>(tmp2);
                        auto tmp3 = tmp0 + tmp1;
                        tmp3.store(out_ptr6 + static_cast<int64_t>(x0));
                    }
                    if(C10_UNLIKELY(x0 >= static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))) && x0 < static_cast<int64_t>(ks0)))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr6 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                        auto tmp2 = static_cast<float>(0.0);
                        auto tmp1 = at::vec::Vectorized<float>(tmp2);
                        auto tmp3 = tmp0 + tmp1;
                        tmp3.store(out_ptr6 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}


# --- compiled graph 1
def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1, arg4_1 = args
    arg0_1_size = arg0_1.size()
    s26 = arg0_1_size[0]
    assert_size_stride(arg1_1, (s26, ), (1, ), 'input')
    buf0 = empty_strided_cpu((), (), torch.bool)
    buf1 = buf0; del buf0  # reuse
    cpp_fused_0(buf1, arg1_1, s26)
    torch.ops.aten._assert_async.msg(buf1, 'inductor_ce: target out of range: every target must be in [0, V) or equal to ignore_index')
    del buf1
    assert_size_stride(arg0_1, (s26, 384), (384, 1), 'input')
    assert_size_stride(arg2_1, (s26, ), (1, ), 'input')
    buf3 = empty_strided_cpu((s26, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((s26, ), (1, ), torch.float32)
    buf5 = buf3; del buf3  # reuse
    buf20 = buf5; del buf5  # reuse
    assert_size_stride(arg3_1, (s26, ), (1, ), 'input')
    assert_size_stride(arg4_1, (s26, ), (1, ), 'input')
    cpp_fused_1(buf20, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, buf4, arg2_1, arg3_1, arg4_1, s26)
    del arg0_1
    del arg2_1
    del arg3_1
    del arg4_1
    return (arg1_1, )


extern "C"  void  cpp_fused_0(bool* in_out_ptr0,
                       const int32_t* in_ptr0,
                       const int64_t ks0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
    {
        {
            bool tmp_acc0 = 0;
            at::vec::VecMask<float,1> tmp_acc0_vec = at::vec::VecMask<float,1>::from(0);
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
            #pragma omp parallel
            {
                int tid = omp_get_thread_num();
                at::vec::VecMask<float,1> tmp_acc0_vec_local = at::vec::VecMask<float,1>::from(0);
                bool tmp_acc0_local = 0;
                #pragma omp for
                for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(8L))
                {
                    {
                        if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))))))
                        {
                            auto tmp0 = at::vec::Vectorized<int32_t>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            auto tmp1 = at::vec::convert<int64_t,2,int32_t,1>(tmp0);
                            auto tmp2 = static_cast<int64_t>(-1);
                            auto tmp3 = at::vec::VectorizedN<int64_t,2>(tmp2);
                            auto tmp4 = at::vec::VecMask<int64_t,2>(tmp1 == tmp3);
                            auto tmp5 = static_cast<int64_t>(0);
                            auto tmp6 = at::vec::VectorizedN<int64_t,2>(tmp5);
                            auto tmp7 = at::vec::VecMask<int64_t,2>(tmp1 >= tmp6);
                            auto tmp8 = static_cast<int64_t>(384);
                            auto tmp9 = at::vec::VectorizedN<int64_t,2>(tmp8);
                            auto tmp10 = at::vec::VecMask<int64_t,2>(tmp1 < tmp9);
                            auto tmp11 = tmp7.template cast<int32_t,1>();
                            auto tmp12 = tmp10.template cast<int32_t,1>();
                            auto tmp13 = tmp11 & tmp12;
                            auto tmp14 = tmp4.template cast<int32_t,1>();
                            auto tmp15 = tmp13.template cast<int32_t,1>();
                            auto tmp16 = tmp14 | tmp15;
                            auto tmp17 = ~tmp16;
                            auto tmp18 = tmp17.template cast<float,1>();
                            tmp_acc0_vec_local = tmp_acc0_vec_local | tmp18;
                        }
                        if(C10_UNLIKELY(x0 >= static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))) && x0 < static_cast<int64_t>(ks0)))
                        {
                            auto tmp0 = at::vec::Vectorized<int32_t>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                            auto tmp1 = at::vec::convert<int64_t,2,int32_t,1>(tmp0);
                            auto tmp2 = static_cast<int64_t>(-1);
                            auto tmp3 = at::vec::VectorizedN<int64_t,2>(tmp2);
                            auto tmp4 = at::vec::VecMask<int64_t,2>(tmp1 == tmp3);
                            auto tmp5 = static_cast<int64_t>(0);
                            auto tmp6 = at::vec::VectorizedN<int64_t,2>(tmp5);
                            auto tmp7 = at::vec::VecMask<int64_t,2>(tmp1 >= tmp6);
                            auto tmp8 = static_cast<int64_t>(384);
                            auto tmp9 = at::vec::VectorizedN<int64_t,2>(tmp8);
                            auto tmp10 = at::vec::VecMask<int64_t,2>(tmp1 < tmp9);
                            auto tmp11 = tmp7.template cast<int32_t,1>();
                            auto tmp12 = tmp10.template cast<int32_t,1>();
                            auto tmp13 = tmp11 & tmp12;
                            auto tmp14 = tmp4.template cast<int32_t,1>();
                            auto tmp15 = tmp13.template cast<int32_t,1>();
                            auto tmp16 = tmp14 | tmp15;
                            auto tmp17 = ~tmp16;
                            auto tmp18 = tmp17.template cast<float,1>();
                            tmp_acc0_vec_local = any_masked_reduce(tmp_acc0_vec_local, tmp18, static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                        }
                    }
                }
                tmp_acc0_vec_arr[tid] = tmp_acc0_vec_local;
                tmp_acc0_arr[tid] = tmp_acc0_local;
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc0_vec = tmp_acc0_vec | tmp_acc0_vec_arr[tid];
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc0 = tmp_acc0 || tmp_acc0_arr[tid];
            }
            tmp_acc0 = tmp_acc0 || !tmp_acc0_vec.all_zero();
            out_ptr0[static_cast<int64_t>(0L)] = static_cast<bool>(tmp_acc0);
        }
    }
    {
        {
            {
                auto tmp0 = out_ptr0[static_cast<int64_t>(0L)];
                auto tmp1 = !tmp0;
                in_out_ptr0[static_cast<int64_t>(0L)] = tmp1;
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}


extern "C"  void  cpp_fused_1(float* in_out_ptr0,
                       const at::BFloat16* in_ptr0,
                       const int32_t* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       const float* in_ptr4,
                       float* out_ptr1,
                       float* out_ptr2,
                       float* out_ptr4,
                       float* out_ptr6,
                       const int64_t ks0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
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
                    for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(384L); x1+=static_cast<int64_t>(16L))
                    {
                        {
                            if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(384L)))
                            {
                                auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 384L*x0), static_cast<int64_t>(16));
                                auto tmp1 = in_ptr1[static_cast<int64_t>(x0)];
                                auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                                auto tmp3 = c10::convert<int64_t>(tmp1);
                                auto tmp4 = static_cast<int64_t>(-1);
                                auto tmp5 = tmp3 != tmp4;
                                auto tmp6 = static_cast<int64_t>(0);
                                auto tmp7 = tmp3 >= tmp6;
                                auto tmp8 = static_cast<int64_t>(384);
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
                    in_out_ptr0[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc0);
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(1L))
            {
                {
                    float tmp_acc0 = 0;
                    at::vec::VectorizedN<float,2> tmp_acc0_vec = at::vec::VectorizedN<float,2>(0);
                    for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(384L); x1+=static_cast<int64_t>(16L))
                    {
                        {
                            if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(384L)))
                            {
                                auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 384L*x0), static_cast<int64_t>(16));
                                auto tmp1 = in_ptr1[static_cast<int64_t>(x0)];
                                auto tmp23 = out_ptr0[static_cast<int64_t>(x0)];
                                auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                                auto tmp3 = c10::convert<int64_t>(tmp1);
                                auto tmp4 = static_cast<int64_t>(-1);
                                auto tmp5 = tmp3 != tmp4;
                                auto tmp6 = static_cast<int64_t>(0);
                                auto tmp7 = tmp3 >= tmp6;
                                auto tmp8 = static_cast<int64_t>(384);
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
                                tmp_acc0_vec = tmp_acc0_vec + tmp32;
                            }
                        }
                    }
                    tmp_acc0 = tmp_acc0 + at::vec::vec_reduce_all<float, 2>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc0_vec);
                    out_ptr1[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc0);
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(8L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))))))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp4 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp1 = tmp2.log();
                        auto tmp3 = tmp0 + tmp1;
                        auto tmp5 = at::vec::VecMask<float,1>(tmp4 == tmp4);
                        auto tmp6 = tmp4.abs();
                        auto tmp7 = std::numeric_limits<float>::infinity();
                        auto tmp8 = at::vec::Vectorized<float>(tmp7);
                        auto tmp9 = at::vec::VecMask<float,1>(tmp6 != tmp8);
                        auto tmp10 = tmp5.template cast<int32_t,1>();
                        auto tmp11 = tmp9.template cast<int32_t,1>();
                        auto tmp12 = tmp10 & tmp11;
                        auto tmp13 = ~tmp12;
                        auto tmp14 = at::vec::VecMask<float,1>(tmp4 == tmp3);
                        auto tmp15 = tmp13.template cast<int32_t,1>();
                        auto tmp16 = tmp14.template cast<int32_t,1>();
                        auto tmp17 = tmp15 & tmp16;
                        auto tmp18 = at::vec::VecMask<float,1>(tmp4 >= tmp3);
                        auto tmp19 = decltype(tmp4)::blendv(tmp3, tmp4, tmp18.template cast<float,1>());
                        auto tmp20 = decltype(tmp3)::blendv(tmp4, tmp3, tmp18.template cast<float,1>());
                        auto tmp21 = tmp20 - tmp19;
                        auto tmp22 = tmp21.exp();
                        auto tmp23 = tmp22.log1p();
                        auto tmp24 = tmp19 + tmp23;
                        auto tmp25 = decltype(tmp4)::blendv(tmp24, tmp4, tmp17.template cast<float,1>());
                        tmp25.store(out_ptr2 + static_cast<int64_t>(x0));
                    }
                    if(C10_UNLIKELY(x0 >= static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))) && x0 < static_cast<int64_t>(ks0)))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                        auto tmp2 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                        auto tmp4 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                        auto tmp1 = tmp2.log();
                        auto tmp3 = tmp0 + tmp1;
                        auto tmp5 = at::vec::VecMask<float,1>(tmp4 == tmp4);
                        auto tmp6 = tmp4.abs();
                        auto tmp7 = std::numeric_limits<float>::infinity();
                        auto tmp8 = at::vec::Vectorized<float>(tmp7);
                        auto tmp9 = at::vec::VecMask<float,1>(tmp6 != tmp8);
                        auto tmp10 = tmp5.template cast<int32_t,1>();
                        auto tmp11 = tmp9.template cast<int32_t,1>();
                        auto tmp12 = tmp10 & tmp11;
                        auto tmp13 = ~tmp12;
                        auto tmp14 = at::vec::VecMask<float,1>(tmp4 == tmp3);
                        auto tmp15 = tmp13.template cast<int32_t,1>();
                        auto tmp16 = tmp14.template cast<int32_t,1>();
                        auto tmp17 = tmp15 & tmp16;
                        auto tmp18 = at::vec::VecMask<float,1>(tmp4 >= tmp3);
                        auto tmp19 = decltype(tmp4)::blendv(tmp3, tmp4, tmp18.template cast<float,1>());
                        auto tmp20 = decltype(tmp3)::blendv(tmp4, tmp3, tmp18.template cast<float,1>());
                        auto tmp21 = tmp20 - tmp19;
                        auto tmp22 = tmp21.exp();
                        auto tmp23 = tmp22.log1p();
                        auto tmp24 = tmp19 + tmp23;
                        auto tmp25 = decltype(tmp4)::blendv(tmp24, tmp4, tmp17.template cast<float,1>());
                        tmp25.store(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(8L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))))))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr4 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = at::vec::Vectorized<int32_t>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp1 = at::vec::convert<int64_t,2,int32_t,1>(tmp2);
                        auto tmp3 = static_cast<int64_t>(-1);
                        auto tmp4 = at::vec::VectorizedN<int64_t,2>(tmp3);
                        auto tmp5 = at::vec::VecMask<int64_t,2>(tmp1 != tmp4);
                        auto tmp6 = static_cast<int64_t>(0);
                        auto tmp7 = at::vec::VectorizedN<int64_t,2>(tmp6);
                        auto tmp8 = at::vec::VecMask<int64_t,2>(tmp1 >= tmp7);
                        auto tmp9 = static_cast<int64_t>(384);
                        auto tmp10 = at::vec::VectorizedN<int64_t,2>(tmp9);
                        auto tmp11 = at::vec::VecMask<int64_t,2>(tmp1 < tmp10);
                        auto tmp12 = tmp8.template cast<int32_t,1>();
                        auto tmp13 = tmp11.template cast<int32_t,1>();
                        auto tmp14 = tmp12 & tmp13;
                        auto tmp15 = tmp5.template cast<int32_t,1>();
                        auto tmp16 = tmp14.template cast<int32_t,1>();
                        auto tmp17 = tmp15 & tmp16;
                        auto tmp18 = at::vec::convert<int32_t,1,int64_t,2>(tmp1);
                        auto tmp19 = static_cast<int32_t>(-1);
                        auto tmp20 = at::vec::Vectorized<int32_t>(tmp19);
                        auto tmp21 = decltype(tmp18)::blendv(tmp20, tmp18, tmp17.template cast<int32_t,1>());
                        auto tmp22 = static_cast<int32_t>(0);
                        auto tmp23 = at::vec::Vectorized<int32_t>(tmp22);
                        auto tmp24 = at::vec::VecMask<int32_t,1>(tmp21 >= tmp23);
                        auto tmp25 = decltype(tmp21)::blendv(tmp23, tmp21, tmp24.template cast<int32_t,1>());
                        auto tmp26 = 384L;
                        auto tmp27 = c10::convert<int64_t>(tmp26);
                        auto tmp28 = at::vec::convert<int64_t,2,int32_t,1>(tmp25);
                        auto tmp29 = at::vec::VectorizedN<int64_t,2>(tmp27);
                        auto tmp30 = tmp28 + tmp29;
                        auto tmp31 = at::vec::VecMask<int64_t,2>(tmp28 < tmp7);
                        auto tmp32 = decltype(tmp30)::blendv(tmp28, tmp30, tmp31.template cast<int64_t,2>());
                        auto tmp33 =
                        [&]
                        {
                            __at_align__ std::array<int64_t, 8> tmpbuf;
                            tmp32.store(tmpbuf.data(), static_cast<int64_t>(8));
                            return tmpbuf;
                        }
                        ()
                        ;
                        auto tmp34 =
                        [&]
                        {
                            __at_align__ std::array<at::BFloat16, 16> tmpbuf;
                            #pragma GCC unroll 8
                            for (long x0_inner = 0; x0_inner < static_cast<int64_t>(8); x0_inner++)
                            {
                                tmpbuf[x0_inner] = in_ptr0[static_cast<int64_t>(tmp33[x0_inner] + 384L*x0 + 384L*x0_inner)];
                            }
                            return at::vec::Vectorized<at::BFloat16>::loadu(tmpbuf.data(), static_cast<int64_t>(8));
                        }
                        ()
                        ;
                        auto tmp35 = at::vec::convert<float>(tmp34);
                        auto tmp36 = -std::numeric_limits<float>::infinity();
                        auto tmp37 = at::vec::Vectorized<float>(tmp36);
                        auto tmp38 = decltype(tmp35)::blendv(tmp37, tmp35, tmp24.template cast<float,1>());
                        auto tmp39 = at::vec::maximum(tmp0, tmp38);
                        tmp39.store(out_ptr4 + static_cast<int64_t>(x0));
                    }
                    if(C10_UNLIKELY(x0 >= static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))) && x0 < static_cast<int64_t>(ks0)))
                    {
                        for (int64_t x0_tail = static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))));x0_tail < static_cast<int64_t>(ks0); x0_tail++)
                        {
                            auto tmp0 = in_ptr3[static_cast<int64_t>(x0_tail)];
                            auto tmp2 = in_ptr1[static_cast<int64_t>(x0_tail)];
                            auto tmp1 = c10::convert<int64_t>(tmp2);
                            auto tmp3 = static_cast<int64_t>(-1);
                            auto tmp4 = tmp1 != tmp3;
                            auto tmp5 = static_cast<int64_t>(0);
                            auto tmp6 = tmp1 >= tmp5;
                            auto tmp7 = static_cast<int64_t>(384);
                            auto tmp8 = tmp1 < tmp7;
                            auto tmp9 = tmp6 && tmp8;
                            auto tmp10 = tmp4 && tmp9;
                            auto tmp11 = c10::convert<int32_t>(tmp1);
                            auto tmp12 = static_cast<int32_t>(-1);
                            auto tmp13 = tmp10 ? tmp11 : tmp12;
                            auto tmp14 = static_cast<int32_t>(0);
                            auto tmp15 = tmp13 >= tmp14;
                            auto tmp16 = tmp15 ? tmp13 : tmp14;
                            auto tmp17 = 384L;
                            auto tmp18 = c10::convert<int64_t>(tmp17);
                            auto tmp19 = int64_t(tmp16 + tmp18);
                            auto tmp20 = tmp16 < 0;
                            auto tmp21 = tmp20 ? tmp19 : tmp16;
                            auto tmp22 = in_ptr0[static_cast<int64_t>(tmp21 + 384L*x0_tail)];
                            auto tmp23 = c10::convert<float>(tmp22);
                            auto tmp24 = -std::numeric_limits<float>::infinity();
                            auto tmp25 = tmp15 ? tmp23 : tmp24;
                            auto tmp26 = max_propagate_nan(tmp0, tmp25);
                            out_ptr4[static_cast<int64_t>(x0_tail)] = tmp26;
                        }
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(8L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L))))))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr6 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = static_cast<float>(0.0);
                        auto tmp1 = at::vec::Vectorized<float>(tmp2);
                        auto tmp3 = tmp0 + tmp1;
                        tmp3.store(out_ptr6 + static_cast<int64_t>(x0));
                    }
                    if(C10_UNLIKELY(x0 >= static_cast<int64_t>(8L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))) && x0 < static_cast<int64_t>(ks0)))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr6 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                        auto tmp2 = static_cast<float>(0.0);
                        auto tmp1 = at::vec::Vectorized<float>(tmp2);
                        auto tmp3 = tmp0 + tmp1;
                        tmp3.store(out_ptr6 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-8L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(8L)))));
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}


# --- compiled graph 2
def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1, arg4_1 = args
    arg0_1_size = arg0_1.size()
    s26 = arg0_1_size[0]
    s49 = arg0_1_size[1]
    assert_size_stride(arg0_1, (s26, s49), (s49, 1), 'input')
    assert_size_stride(arg1_1, (s26, ), (1, ), 'input')
    assert_size_stride(arg2_1, (s26, ), (1, ), 'input')
    assert_size_stride(arg4_1, (s26, ), (1, ), 'input')
    assert_size_stride(arg3_1, (s26, ), (1, ), 'input')
    cpp_fused_0(arg0_1, arg1_1, arg2_1, arg4_1, arg3_1, arg0_1, s26, s49)
    del arg0_1
    del arg1_1
    del arg3_1
    del arg4_1
    return (arg2_1, )


extern "C"  void  cpp_fused_0(const at::BFloat16* in_ptr0,
                       const int32_t* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       const float* in_ptr4,
                       at::BFloat16* out_ptr1,
                       const int64_t ks0,
                       const int64_t ks1)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(1L))
            {
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(ks1); x1+=static_cast<int64_t>(16L))
                {
                    {
                        if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(16L*(c10::div_floor_integer(static_cast<int64_t>(ks1), static_cast<int64_t>(16L))))))
                        {
                            auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(out_ptr1 + static_cast<int64_t>(x1 + ks1*x0), static_cast<int64_t>(16));
                            auto tmp1 = in_ptr1[static_cast<int64_t>(x0)];
                            auto tmp2 = in_ptr2[static_cast<int64_t>(x0)];
                            auto tmp3 = in_ptr3[static_cast<int64_t>(x0)];
                            auto tmp4 = in_ptr4[static_cast<int64_t>(x0)];
                            auto tmp5 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                            auto tmp6 = c10::convert<int64_t>(tmp1);
                            auto tmp7 = static_cast<int64_t>(-1);
                            auto tmp8 = tmp6 != tmp7;
                            auto tmp9 = static_cast<int64_t>(0);
                            auto tmp10 = tmp6 >= tmp9;
                            auto tmp11 = ks1;
                            auto tmp12 = c10::convert<int64_t>(tmp11);
                            auto tmp13 = tmp6 < tmp12;
                            auto tmp14 = tmp10 && tmp13;
                            auto tmp15 = tmp8 && tmp14;
                            auto tmp16 = c10::convert<int32_t>(tmp6);
                            auto tmp17 = static_cast<int32_t>(-1);
                            auto tmp18 = tmp15 ? tmp16 : tmp17;
                            auto tmp19 = x1;
                            auto tmp20 = c10::convert<int32_t>(tmp19);
                            auto tmp21 = at::vec::VectorizedN<int32_t,2>::arange(tmp20, 1);
                            auto tmp22 = at::vec::VectorizedN<int32_t,2>(tmp18);
                            auto tmp23 = at::vec::VecMask<int32_t,2>(tmp21 == tmp22);
                            auto tmp24 = -std::numeric_limits<float>::infinity();
                            auto tmp25 = tmp2 == tmp24;
                            auto tmp26 = static_cast<float>(0.0);
                            auto tmp27 = tmp25 ? tmp26 : tmp2;
                            auto tmp28 = at::vec::VectorizedN<float,2>(tmp27);
                            auto tmp29 = tmp5 - tmp28;
                            auto tmp30 = static_cast<float>(1.4426950408889634);
                            auto tmp31 = at::vec::VectorizedN<float,2>(tmp30);
                            auto tmp32 = tmp29 * tmp31;
                            auto tmp33 = tmp32.exp2();
                            auto tmp34 = at::vec::VectorizedN<float,2>(tmp4);
                            auto tmp35 = tmp34 * tmp33;
                            auto tmp36 = at::vec::VectorizedN<float,2>(tmp3);
                            auto tmp37 = decltype(tmp36)::blendv(tmp35, tmp36, tmp23.template cast<float,2>());
                            auto tmp38 = at::vec::convert<at::BFloat16,1,float,2>(tmp37);
                            tmp38.store(out_ptr1 + static_cast<int64_t>(x1 + ks1*x0), static_cast<int64_t>(16));
                        }
                        if(C10_UNLIKELY(x1 >= static_cast<int64_t>(16L*(c10::div_floor_integer(static_cast<int64_t>(ks1), static_cast<int64_t>(16L)))) && x1 < static_cast<int64_t>(ks1)))
                        {
                            auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(out_ptr1 + static_cast<int64_t>(x1 + ks1*x0), static_cast<int64_t>(ks1 + (-16L)*(c10::div_floor_integer(static_cast<int64_t>(ks1), static_cast<int64_t>(16L)))));
                            auto tmp1 = in_ptr1[static_cast<int64_t>(x0)];
                            auto tmp2 = in_ptr2[static_cast<int64_t>(x0)];
                            auto tmp3 = in_ptr3[static_cast<int64_t>(x0)];
                            auto tmp4 = in_ptr4[static_cast<int64_t>(x0)];
                            auto tmp5 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                            auto tmp6 = c10::convert<int64_t>(tmp1);
                            auto tmp7 = static_cast<int64_t>(-1);
                            auto tmp8 = tmp6 != tmp7;
                            auto tmp9 = static_cast<int64_t>(0);
                            auto tmp10 = tmp6 >= tmp9;
                            auto tmp11 = ks1;
                            auto tmp12 = c10::convert<int64_t>(tmp11);
                            auto tmp13 = tmp6 < tmp12;
                            auto tmp14 = tmp10 && tmp13;
                            auto tmp15 = tmp8 && tmp14;
                            auto tmp16 = c10::convert<int32_t>(tmp6);
                            auto tmp17 = static_cast<int32_t>(-1);
                            auto tmp18 = tmp15 ? tmp16 : tmp17;
                            auto tmp19 = x1;
                            auto tmp20 = c10::convert<int32_t>(tmp19);
                            auto tmp21 = at::vec::VectorizedN<int32_t,2>::arange(tmp20, 1);
                            auto tmp22 = at::vec::VectorizedN<int32_t,2>(tmp18);
                            auto tmp23 = at::vec::VecMask<int32_t,2>(tmp21 == tmp22);
                            auto tmp24 = -std::numeric_limits<float>::infinity();
                            auto tmp25 = tmp2 == tmp24;
                            auto tmp26 = static_cast<float>(0.0);
                            auto tmp27 = tmp25 ? tmp26 : tmp2;
                            auto tmp28 = at::vec::VectorizedN<float,2>(tmp27);
                            auto tmp29 = tmp5 - tmp28;
                            auto tmp30 = static_cast<float>(1.4426950408889634);
                            auto tmp31 = at::vec::VectorizedN<float,2>(tmp30);
                            auto tmp32 = tmp29 * tmp31;
                            auto tmp33 = tmp32.exp2();
                            auto tmp34 = at::vec::VectorizedN<float,2>(tmp4);
                            auto tmp35 = tmp34 * tmp33;
                            auto tmp36 = at::vec::VectorizedN<float,2>(tmp3);
                            auto tmp37 = decltype(tmp36)::blendv(tmp35, tmp36, tmp23.template cast<float,2>());
                            auto tmp38 = at::vec::convert<at::BFloat16,1,float,2>(tmp37);
                            tmp38.store(out_ptr1 + static_cast<int64_t>(x1 + ks1*x0), static_cast<int64_t>(ks1 + (-16L)*(c10::div_floor_integer(static_cast<int64_t>(ks1), static_cast<int64_t>(16L)))));
                        }
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}


# --- compiled graph 3
def call(args):
    arg0_1, arg1_1 = args
    arg0_1_size = arg0_1.size()
    s26 = arg0_1_size[0]
    assert_size_stride(arg0_1, (s26, 16), (16, 1), 'input')
    assert_size_stride(arg1_1, (), (), 'input')
    cpp_fused_0(arg0_1, arg1_1, arg0_1, s26)
    del arg0_1
    return (arg1_1, )


extern "C"  void  cpp_fused_0(const at::BFloat16* in_ptr0,
                       const float* in_ptr1,
                       at::BFloat16* out_ptr1,
                       const int64_t ks0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(16L*ks0); x0+=static_cast<int64_t>(16L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(16L*ks0)))
                    {
                        auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                        auto tmp1 = in_ptr1[static_cast<int64_t>(0L)];
                        auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                        auto tmp3 = static_cast<float>(0.0);
                        auto tmp4 = at::vec::VectorizedN<float,2>(tmp3);
                        auto tmp5 = at::vec::VecMask<float,2>(tmp2 == tmp4);
                        auto tmp6 = c10::convert<float>(tmp1);
                        auto tmp7 = at::vec::VectorizedN<float,2>(tmp6);
                        auto tmp8 = tmp2 * tmp7;
                        auto tmp9 = decltype(tmp2)::blendv(tmp8, tmp2, tmp5.template cast<float,2>());
                        auto tmp10 = at::vec::convert<at::BFloat16,1,float,2>(tmp9);
                        tmp10.store(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
