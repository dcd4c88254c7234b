# backward of ce(x, t, weight=w), w: f32[128256]
def call(args):
    primals_1, primals_2, getitem, mul_1, sum_2, mul_4, tangents_1 = args
    assert_size_stride(mul_4, (4096, ), (1, ), 'input')
    assert_size_stride(primals_2, (4096, ), (1, ), 'input')
    assert_size_stride(tangents_1, (), (), 'input')
    assert_size_stride(sum_2, (), (), 'input')
    assert_size_stride(mul_1, (4096, ), (1, ), 'input')
    assert_size_stride(primals_1, (4096, 128256), (128256, 1), 'input')
    assert_size_stride(getitem, (4096, ), (1, ), 'input')
    buf1 = mul_4; del mul_4  # reuse
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((4096, 128256), (128256, 1), torch.bfloat16)
    cpp_fused_ce_bwd_0(buf1, primals_2, tangents_1, sum_2, mul_1, primals_1, getitem, buf2, buf3, buf4)
    del buf1
    del buf2
    del buf3
    del getitem
    del mul_1
    del primals_1
    del primals_2
    del sum_2
    del tangents_1
    return (buf4, None, None, )


extern "C"  void  cpp_fused_ce_bwd_0(float* in_out_ptr0,
                       const int64_t* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       const float* in_ptr4,
                       const at::BFloat16* in_ptr5,
                       const float* in_ptr6,
                       float* out_ptr1,
                       float* out_ptr2,
                       at::BFloat16* out_ptr3)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto in_ptr0 = in_out_ptr0;
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
                        auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp1 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = in_ptr2[static_cast<int64_t>(0L)];
                        auto tmp3 = in_ptr3[static_cast<int64_t>(0L)];
                        auto tmp4 = at::vec::Vectorized<float>::loadu(in_ptr4 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp5 = tmp0.exp();
                        auto tmp6 = static_cast<float>(20.0);
                        auto tmp7 = at::vec::Vectorized<float>(tmp6);
                        auto tmp8 = at::vec::VecMask<float,1>(tmp0 > tmp7);
                        auto tmp9 = at::vec::convert<int32_t,1,int64_t,2>(tmp1);
                        auto tmp10 = static_cast<int32_t>(-100);
                        auto tmp11 = at::vec::Vectorized<int32_t>(tmp10);
                        auto tmp12 = at::vec::VecMask<int32_t,1>(tmp9 != tmp11);
                        auto tmp13 = tmp2 / tmp3;
                        auto tmp14 = static_cast<float>(0.0);
                        auto tmp15 = at::vec::Vectorized<float>(tmp13);
                        auto tmp16 = at::vec::Vectorized<float>(tmp14);
                        auto tmp17 = decltype(tmp15)::blendv(tmp16, tmp15, tmp12.template cast<float,1>());
                        auto tmp18 = tmp17 * tmp4;
                        auto tmp19 = tmp18 * tmp5;
                        auto tmp20 = static_cast<float>(1.0);
                        auto tmp21 = at::vec::Vectorized<float>(tmp20);
                        auto tmp22 = tmp5 + tmp21;
                        auto tmp23 = tmp19 / tmp22;
                        auto tmp24 = decltype(tmp18)::blendv(tmp23, tmp18, tmp8.template cast<float,1>());
                        auto tmp25 = decltype(tmp24)::blendv(tmp16, tmp24, tmp12.template cast<float,1>());
                        auto tmp26 = tmp24.neg();
                        auto tmp27 = decltype(tmp26)::blendv(tmp16, tmp26, tmp12.template cast<float,1>());
                        tmp25.store(out_ptr1 + static_cast<int64_t>(x0));
                        tmp27.store(out_ptr2 + static_cast<int64_t>(x0));
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
                            auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr5 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                            auto tmp6 = in_ptr1[static_cast<int64_t>(x0)];
                            auto tmp20 = in_ptr6[static_cast<int64_t>(x0)];
                            auto tmp25 = out_ptr2[static_cast<int64_t>(x0)];
                            auto tmp26 = out_ptr1[static_cast<int64_t>(x0)];
                            auto tmp5 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                            auto tmp7 = c10::convert<int64_t>(tmp6);
                            auto tmp8 = static_cast<int64_t>(-100);
                            auto tmp1 = tmp7 != tmp8;
                            auto tmp9 = static_cast<int64_t>(0);
                            auto tmp10 = tmp7 >= tmp9;
                            auto tmp11 = static_cast<int64_t>(128256);
                            auto tmp12 = tmp7 < tmp11;
                            auto tmp2 = tmp10 && tmp12;
                            auto tmp3 = tmp1 && tmp2;
                            auto tmp13 = c10::convert<int32_t>(tmp7);
                            auto tmp14 = static_cast<int32_t>(-1);
                            auto tmp15 = tmp3 ? tmp13 : tmp14;
                            auto tmp16 = x1;
                            auto tmp17 = c10::convert<int32_t>(tmp16);
                            auto tmp4 = at::vec::VectorizedN<int32_t,2>::arange(tmp17, 1);
                            auto tmp18 = at::vec::VectorizedN<int32_t,2>(tmp15);
                            auto tmp19 = at::vec::VecMask<int32_t,2>(tmp4 == tmp18);
                            auto tmp21 = -std::numeric_limits<float>::infinity();
                            auto tmp22 = tmp20 == tmp21;
                            auto tmp23 = static_cast<float>(0.0);
                            auto tmp24 = tmp22 ? tmp23 : tmp20;
                            auto tmp27 = at::vec::VectorizedN<float,2>(tmp24);
                            auto tmp28 = tmp5 - tmp27;
                            auto tmp29 = static_cast<float>(1.4426950408889634);
                            auto tmp30 = at::vec::VectorizedN<float,2>(tmp29);
                            auto tmp31 = tmp28 * tmp30;
                            auto tmp32 = tmp31.exp2();
                            auto tmp33 = at::vec::VectorizedN<float,2>(tmp26);
                            auto tmp34 = tmp33 * tmp32;
                            auto tmp35 = at::vec::VectorizedN<float,2>(tmp25);
                            auto tmp36 = decltype(tmp35)::blendv(tmp34, tmp35, tmp19.template cast<float,2>());
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
