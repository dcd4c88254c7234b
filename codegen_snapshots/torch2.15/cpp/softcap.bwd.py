# backward of ce(x, t, softcap=30.0)
def call(args):
    primals_1, primals_2, getitem, ne, sub_1, sum_2, tangents_1 = args
    assert_size_stride_grouped((sub_1, ne, tangents_1, sum_2, primals_1, primals_2, getitem), ((4096, ), (4096, ), (), (), (4096, 128256), (4096, ), (4096, )), ((1, ), (1, ), (), (), (128256, 1), (1, ), (1, )), 'input')
    buf1 = sub_1; del sub_1  # reuse
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((4096, 128256), (128256, 1), torch.bfloat16)
    cpp_fused_ce_bwd_0(buf1, ne, tangents_1, sum_2, primals_1, primals_2, getitem, buf2, buf3, buf4)
    del buf1
    del buf2
    del buf3
    del getitem
    del ne
    del primals_1
    del primals_2
    del sum_2
    del tangents_1
    return (buf4, None, )


extern "C"  void  cpp_fused_ce_bwd_0(float* in_out_ptr0,
                       const bool* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       const at::BFloat16* in_ptr4,
                       const int64_t* in_ptr5,
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
                        auto tmp1 = at::vec::VecMask<float,1>::from(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = in_ptr2[static_cast<int64_t>(0L)];
                        auto tmp3 = in_ptr3[static_cast<int64_t>(0L)];
                        auto tmp4 = tmp0.exp();
                        auto tmp5 = static_cast<float>(20.0);
                        auto tmp6 = at::vec::Vectorized<float>(tmp5);
                        auto tmp7 = at::vec::VecMask<float,1>(tmp0 > tmp6);
                        auto tmp8 = tmp2 / tmp3;
                        auto tmp9 = static_cast<float>(0.0);
                        auto tmp10 = at::vec::Vectorized<float>(tmp8);
                        auto tmp11 = at::vec::Vectorized<float>(tmp9);
                        auto tmp12 = decltype(tmp10)::blendv(tmp11, tmp10, inductor_vec_mask_cast<float,1>(tmp1));
                        auto tmp13 = tmp1.to<float,1>();
                        auto tmp14 = tmp12 * tmp13;
                        auto tmp15 = tmp14 * tmp4;
                        auto tmp16 = static_cast<float>(1.0);
                        auto tmp17 = at::vec::Vectorized<float>(tmp16);
                        auto tmp18 = tmp4 + tmp17;
                        auto tmp19 = tmp15 / tmp18;
                        auto tmp20 = decltype(tmp14)::blendv(tmp19, tmp14, inductor_vec_mask_cast<float,1>(tmp7));
                        auto tmp21 = decltype(tmp20)::blendv(tmp11, tmp20, inductor_vec_mask_cast<float,1>(tmp1));
                        auto tmp22 = tmp20.neg();
                        auto tmp23 = decltype(tmp22)::blendv(tmp11, tmp22, inductor_vec_mask_cast<float,1>(tmp1));
                        tmp21.store(out_ptr1 + static_cast<int64_t>(x0));
                        tmp23.store(out_ptr2 + static_cast<int64_t>(x0));
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
                            auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr4 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                            auto tmp10 = in_ptr5[static_cast<int64_t>(x0)];
                            auto tmp24 = in_ptr6[static_cast<int64_t>(x0)];
                            auto tmp25 = out_ptr2[static_cast<int64_t>(x0)];
                            auto tmp26 = out_ptr1[static_cast<int64_t>(x0)];
                            auto tmp4 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                            auto tmp5 = static_cast<float>(1.0);
                            auto tmp6 = static_cast<float>(30.0);
                            auto tmp7 = tmp5 / tmp6;
                            auto tmp1 = at::vec::VectorizedN<float,2>(tmp7);
                            auto tmp2 = tmp4 * tmp1;
                            auto tmp3 = tmp2.tanh();
                            auto tmp8 = at::vec::VectorizedN<float,2>(tmp6);
                            auto tmp9 = tmp8 * tmp3;
                            auto tmp11 = c10::convert<int64_t>(tmp10);
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
                            auto tmp27 = c10::convert<int32_t>(tmp23);
                            auto tmp28 = at::vec::VectorizedN<int32_t,2>::arange(tmp27, 1);
                            auto tmp29 = at::vec::VectorizedN<int32_t,2>(tmp22);
                            auto tmp30 = at::vec::VecMask<int32_t,2>(tmp28 == tmp29);
                            auto tmp31 = -std::numeric_limits<float>::infinity();
                            auto tmp32 = tmp24 == tmp31;
                            auto tmp33 = static_cast<float>(0.0);
                            auto tmp34 = tmp32 ? tmp33 : tmp24;
                            auto tmp35 = at::vec::VectorizedN<float,2>(tmp34);
                            auto tmp36 = tmp9 - tmp35;
                            auto tmp37 = static_cast<float>(1.4426950408889634);
                            auto tmp38 = at::vec::VectorizedN<float,2>(tmp37);
                            auto tmp39 = tmp36 * tmp38;
                            auto tmp40 = tmp39.exp2();
                            auto tmp41 = at::vec::VectorizedN<float,2>(tmp26);
                            auto tmp42 = tmp41 * tmp40;
                            auto tmp43 = at::vec::VectorizedN<float,2>(tmp25);
                            auto tmp44 = decltype(tmp43)::blendv(tmp42, tmp43, inductor_vec_mask_cast<float,2>(tmp30));
                            auto tmp45 = tmp3 * tmp3;
                            auto tmp46 = at::vec::VectorizedN<float,2>(tmp5);
                            auto tmp47 = tmp46 - tmp45;
                            auto tmp48 = tmp44 * tmp47;
                            auto tmp49 = at::vec::convert<at::BFloat16,1,float,2>(tmp48);
                            tmp49.store(out_ptr3 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                        }
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
