# backward of ce(x, t), x: bf16[8, 128256]
def call(args):
    primals_1, primals_2, getitem, sub_1, sum_2, tangents_1 = args
    assert_size_stride_grouped((sub_1, primals_2, tangents_1, sum_2, primals_1, getitem), ((8, ), (8, ), (), (), (8, 128256), (8, )), ((1, ), (1, ), (), (), (128256, 1), (1, )), 'input')
    buf1 = sub_1; del sub_1  # reuse
    buf2 = empty_strided_cpu((8, 128256), (128256, 1), torch.bfloat16)
    cpp_fused_ce_bwd_0(buf1, primals_2, tangents_1, sum_2, primals_1, getitem, buf2)
    del buf1
    del getitem
    del primals_1
    del primals_2
    del sum_2
    del tangents_1
    return (buf2, None, )


extern "C"  void  cpp_fused_ce_bwd_0(float* in_out_ptr0,
                       const int64_t* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       const at::BFloat16* in_ptr4,
                       const float* in_ptr5,
                       at::BFloat16* out_ptr1)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto in_ptr0 = in_out_ptr0;
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(8L); x0+=static_cast<int64_t>(8L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8L)))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp1 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = in_ptr2[static_cast<int64_t>(0L)];
                        auto tmp3 = in_ptr3[static_cast<int64_t>(0L)];
                        auto tmp4 = tmp0.exp();
                        auto tmp5 = static_cast<float>(20.0);
                        auto tmp6 = at::vec::Vectorized<float>(tmp5);
                        auto tmp7 = at::vec::VecMask<float,1>(tmp0 > tmp6);
                        auto tmp8 = at::vec::convert<int32_t,1,int64_t,2>(tmp1);
                        auto tmp9 = static_cast<int32_t>(-100);
                        auto tmp10 = at::vec::Vectorized<int32_t>(tmp9);
                        auto tmp11 = at::vec::VecMask<int32_t,1>(tmp8 != tmp10);
                        auto tmp12 = tmp2 / tmp3;
                        auto tmp13 = static_cast<float>(0.0);
                        auto tmp14 = at::vec::Vectorized<float>(tmp12);
                        auto tmp15 = at::vec::Vectorized<float>(tmp13);
                        auto tmp16 = decltype(tmp14)::blendv(tmp15, tmp14, inductor_vec_mask_cast<float,1>(tmp11));
                        auto tmp17 = tmp11.to<float,1>();
                        auto tmp18 = tmp16 * tmp17;
                        auto tmp19 = tmp18 * tmp4;
                        auto tmp20 = static_cast<float>(1.0);
                        auto tmp21 = at::vec::Vectorized<float>(tmp20);
                        auto tmp22 = tmp4 + tmp21;
                        auto tmp23 = tmp19 / tmp22;
                        auto tmp24 = decltype(tmp18)::blendv(tmp23, tmp18, inductor_vec_mask_cast<float,1>(tmp7));
                        tmp24.store(in_out_ptr0 + static_cast<int64_t>(x0));
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(8L); x0+=static_cast<int64_t>(1L))
            {
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(128256L); x1+=static_cast<int64_t>(16L))
                {
                    {
                        if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(128256L)))
                        {
                            auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr4 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                            auto tmp5 = in_ptr1[static_cast<int64_t>(x0)];
                            auto tmp20 = in_ptr5[static_cast<int64_t>(x0)];
                            auto tmp25 = in_out_ptr0[static_cast<int64_t>(x0)];
                            auto tmp4 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                            auto tmp6 = c10::convert<int64_t>(tmp5);
                            auto tmp7 = static_cast<int64_t>(-100);
                            auto tmp1 = tmp6 != tmp7;
                            auto tmp8 = static_cast<int64_t>(0);
                            auto tmp9 = tmp6 >= tmp8;
                            auto tmp10 = static_cast<int64_t>(128256);
                            auto tmp11 = tmp6 < tmp10;
                            auto tmp2 = tmp9 && tmp11;
                            auto tmp3 = tmp1 && tmp2;
                            auto tmp12 = c10::convert<int32_t>(tmp6);
                            auto tmp13 = static_cast<int32_t>(-1);
                            auto tmp14 = tmp3 ? tmp12 : tmp13;
                            auto tmp15 = x1;
                            auto tmp16 = c10::convert<int32_t>(tmp15);
                            auto tmp17 = at::vec::VectorizedN<int32_t,2>::arange(tmp16, 1);
                            auto tmp18 = at::vec::VectorizedN<int32_t,2>(tmp14);
                            auto tmp19 = at::vec::VecMask<int32_t,2>(tmp17 == tmp18);
                            auto tmp21 = -std::numeric_limits<float>::infinity();
                            auto tmp22 = tmp20 == tmp21;
                            auto tmp23 = static_cast<float>(0.0);
                            auto tmp24 = tmp22 ? tmp23 : tmp20;
                            auto tmp26 = c10::convert<int32_t>(tmp5);
                            auto tmp27 = static_cast<int32_t>(-100);
                            auto tmp28 = tmp26 != tmp27;
                            auto tmp29 = decltype(tmp25)(-tmp25);
                            auto tmp30 = tmp28 ? tmp29 : tmp23;
                            auto tmp31 = tmp28 ? tmp25 : tmp23;
                            auto tmp32 = at::vec::VectorizedN<float,2>(tmp24);
                            auto tmp33 = tmp4 - tmp32;
                            auto tmp34 = static_cast<float>(1.4426950408889634);
                            auto tmp35 = at::vec::VectorizedN<float,2>(tmp34);
                            auto tmp36 = tmp33 * tmp35;
                            auto tmp37 = tmp36.exp2();
                            auto tmp38 = at::vec::VectorizedN<float,2>(tmp31);
                            auto tmp39 = tmp38 * tmp37;
                            auto tmp40 = at::vec::VectorizedN<float,2>(tmp30);
                            auto tmp41 = decltype(tmp40)::blendv(tmp39, tmp40, inductor_vec_mask_cast<float,2>(tmp19));
                            auto tmp42 = at::vec::convert<at::BFloat16,1,float,2>(tmp41);
                            tmp42.store(out_ptr1 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                        }
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
