# backward of ce(x, t, return_lse=True)
def call(args):
    primals_1, primals_2, getitem, ne, where_1, sum_2, tangents_1, tangents_2 = args
    assert_size_stride(ne, (4096, ), (1, ), 'input')
    assert_size_stride(getitem, (4096, ), (1, ), 'input')
    assert_size_stride(where_1, (4096, ), (1, ), 'input')
    assert_size_stride(tangents_1, (), (), 'input')
    assert_size_stride(sum_2, (), (), 'input')
    assert_size_stride(tangents_2, (4096, ), (1, ), 'input')
    assert_size_stride(primals_1, (4096, 128256), (128256, 1), 'input')
    assert_size_stride(primals_2, (4096, ), (1, ), 'input')
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((4096, 128256), (128256, 1), torch.bfloat16)
    cpp_fused_ce_bwd_0(ne, getitem, where_1, tangents_1, sum_2, tangents_2, primals_1, primals_2, buf2, buf3, buf4)
    del buf2
    del buf3
    del getitem
    del ne
    del primals_1
    del primals_2
    del sum_2
    del tangents_1
    del tangents_2
    del where_1
    return (buf4, None, )


extern "C"  void  cpp_fused_ce_bwd_0(const bool* in_ptr0,
                       const float* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       const float* in_ptr4,
                       const float* in_ptr5,
                       const at::BFloat16* in_ptr6,
                       const int64_t* in_ptr7,
                       float* out_ptr1,
                       float* out_ptr2,
                       at::BFloat16* out_ptr3)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4096L); x0+=static_cast<int64_t>(8L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(4096L)))
                    {
                        auto tmp0 = at::vec::VecMask<float,1>::from(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp1 = at::vec::Vectorized<float>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = at::vec::Vectorized<float>::loadu(in_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp3 = in_ptr3[static_cast<int64_t>(0L)];
                        auto tmp4 = in_ptr4[static_cast<int64_t>(0L)];
                        auto tmp5 = at::vec::Vectorized<float>::loadu(in_ptr5 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp6 = static_cast<float>(0.0);
                        auto tmp7 = at::vec::Vectorized<float>(tmp6);
                        auto tmp8 = decltype(tmp1)::blendv(tmp7, tmp1, tmp0.template cast<float,1>());
                        auto tmp9 = at::vec::maximum(tmp2, tmp7);
                        auto tmp10 = tmp9 * tmp7;
                        auto tmp11 = tmp8 + tmp10;
                        auto tmp12 = tmp11 - tmp2;
                        auto tmp13 = static_cast<float>(1.0);
                        auto tmp14 = at::vec::Vectorized<float>(tmp13);
                        auto tmp15 = tmp12 * tmp14;
                        auto tmp16 = tmp15.exp();
                        auto tmp17 = static_cast<float>(20.0);
                        auto tmp18 = at::vec::Vectorized<float>(tmp17);
                        auto tmp19 = at::vec::VecMask<float,1>(tmp15 > tmp18);
                        auto tmp20 = tmp3 / tmp4;
                        auto tmp21 = at::vec::Vectorized<float>(tmp20);
                        auto tmp22 = decltype(tmp21)::blendv(tmp7, tmp21, tmp0.template cast<float,1>());
                        auto tmp23 = tmp0.to<float,1>();
                        auto tmp24 = tmp23 * tmp14;
                        auto tmp25 = tmp22 * tmp24;
                        auto tmp26 = tmp25 * tmp16;
                        auto tmp27 = tmp16 + tmp14;
                        auto tmp28 = tmp26 / tmp27;
                        auto tmp29 = decltype(tmp25)::blendv(tmp28, tmp25, tmp19.template cast<float,1>());
                        auto tmp30 = decltype(tmp7)::blendv(tmp5, tmp7, tmp0.template cast<float,1>());
                        auto tmp31 = decltype(tmp5)::blendv(tmp7, tmp5, tmp0.template cast<float,1>());
                        auto tmp32 = tmp2 - tmp11;
                        auto tmp33 = tmp32.exp();
                        auto tmp34 = tmp33 + tmp14;
                        auto tmp35 = tmp31 / tmp34;
                        auto tmp36 = tmp29 + tmp35;
                        auto tmp37 = decltype(tmp36)::blendv(tmp7, tmp36, tmp0.template cast<float,1>());
                        auto tmp38 = tmp30 + tmp37;
                        auto tmp39 = tmp29.neg();
                        auto tmp40 = tmp12.exp();
                        auto tmp41 = tmp40 + tmp14;
                        auto tmp42 = tmp31 / tmp41;
                        auto tmp43 = tmp39 + tmp42;
                        auto tmp44 = decltype(tmp43)::blendv(tmp7, tmp43, tmp0.template cast<float,1>());
                        tmp38.store(out_ptr1 + static_cast<int64_t>(x0));
                        tmp44.store(out_ptr2 + static_cast<int64_t>(x0));
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4096L); x0+=static_cast<int64_t>(1L))
            {
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(128256L); x1+=static_cast<int64_t>(16L))
                {
                    {
                        if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(128256L)))
                        {
                            auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr6 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                            auto tmp6 = in_ptr7[static_cast<int64_t>(x0)];
                            auto tmp21 = in_ptr1[static_cast<int64_t>(x0)];
                            auto tmp26 = out_ptr2[static_cast<int64_t>(x0)];
                            auto tmp27 = out_ptr1[static_cast<int64_t>(x0)];
                            auto tmp1 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                            auto tmp7 = c10::convert<int64_t>(tmp6);
                            auto tmp8 = static_cast<int64_t>(-100);
                            auto tmp2 = tmp7 != tmp8;
                            auto tmp9 = static_cast<int64_t>(0);
                            auto tmp10 = tmp7 >= tmp9;
                            auto tmp11 = static_cast<int64_t>(128256);
                            auto tmp12 = tmp7 < tmp11;
                            auto tmp13 = tmp10 && tmp12;
                            auto tmp14 = tmp2 && tmp13;
                            auto tmp15 = c10::convert<int32_t>(tmp7);
                            auto tmp16 = static_cast<int32_t>(-1);
                            auto tmp17 = tmp14 ? tmp15 : tmp16;
                            auto tmp18 = x1;
                            auto tmp19 = c10::convert<int32_t>(tmp18);
                            auto tmp3 = at::vec::VectorizedN<int32_t,2>::arange(tmp19, 1);
                            auto tmp4 = at::vec::VectorizedN<int32_t,2>(tmp17);
                            auto tmp20 = at::vec::VecMask<int32_t,2>(tmp3 == tmp4);
                            auto tmp22 = -std::numeric_limits<float>::infinity();
                            auto tmp23 = tmp21 == tmp22;
                            auto tmp24 = static_cast<float>(0.0);
                            auto tmp25 = tmp23 ? tmp24 : tmp21;
                            auto tmp28 = at::vec::VectorizedN<float,2>(tmp25);
                            auto tmp29 = tmp1 - tmp28;
                            auto tmp5 = static_cast<float>(1.4426950408889634);
                            auto tmp30 = at::vec::VectorizedN<float,2>(tmp5);
                            auto tmp31 = tmp29 * tmp30;
                            auto tmp32 = tmp31.exp2();
                            auto tmp33 = at::vec::VectorizedN<float,2>(tmp27);
                            auto tmp34 = tmp33 * tmp32;
                            auto tmp35 = at::vec::VectorizedN<float,2>(tmp26);
                            auto tmp36 = decltype(tmp35)::blendv(tmp34, tmp35, tmp20.template cast<float,2>());
                            auto tmp37 = at::vec::convert<at::BFloat16,1,float,2>(tmp36);
                            tmp37.store(out_ptr3 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                        }
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
