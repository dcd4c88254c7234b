# backward of ce(x, t, return_lse=True)
def call(args):
    primals_1, primals_2, getitem, ne, where_1, sum_2, tangents_1, tangents_2 = args
    assert_size_stride_grouped((ne, getitem, where_1, tangents_1, sum_2, tangents_2, primals_1, primals_2), ((4096, ), (4096, ), (4096, ), (), (), (4096, ), (4096, 128256), (4096, )), ((1, ), (1, ), (1, ), (), (), (1, ), (128256, 1), (1, )), 'input')
    buf0 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf2 = where_1; del where_1  # reuse
    buf3 = buf0; del buf0  # reuse
    buf4 = empty_strided_cpu((4096, 128256), (128256, 1), torch.bfloat16)
    cpp_fused_ce_bwd_0(buf2, buf3, ne, getitem, tangents_1, sum_2, tangents_2, primals_1, primals_2, buf4)
    del buf2
    del buf3
    del getitem
    del ne
    del primals_1
    del primals_2
    del sum_2
    del tangents_1
    del tangents_2
    return (buf4, None, )


extern "C"  void  cpp_fused_ce_bwd_0(float* in_out_ptr0,
                       float* in_out_ptr1,
                       const bool* in_ptr0,
                       const float* in_ptr1,
                       const float* in_ptr3,
                       const float* in_ptr4,
                       const float* in_ptr5,
                       const at::BFloat16* in_ptr6,
                       const int64_t* in_ptr7,
                       at::BFloat16* out_ptr2)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto in_ptr2 = in_out_ptr0;
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
                        auto tmp2 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp3 = in_ptr3[static_cast<int64_t>(0L)];
                        auto tmp4 = in_ptr4[static_cast<int64_t>(0L)];
                        auto tmp5 = at::vec::Vectorized<float>::loadu(in_ptr5 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp6 = static_cast<float>(0.0);
                        auto tmp7 = at::vec::Vectorized<float>(tmp6);
                        auto tmp8 = decltype(tmp1)::blendv(tmp7, tmp1, inductor_vec_mask_cast<float,1>(tmp0));
                        auto tmp9 = at::vec::maximum(tmp2, tmp7);
                        auto tmp10 = tmp9 * tmp7;
                        auto tmp11 = tmp8 + tmp10;
                        auto tmp12 = tmp11 - tmp2;
                        auto tmp13 = tmp12.exp();
                        auto tmp14 = static_cast<float>(20.0);
                        auto tmp15 = at::vec::Vectorized<float>(tmp14);
                        auto tmp16 = at::vec::VecMask<float,1>(tmp12 > tmp15);
                        auto tmp17 = tmp3 / tmp4;
                        auto tmp18 = at::vec::Vectorized<float>(tmp17);
                        auto tmp19 = decltype(tmp18)::blendv(tmp7, tmp18, inductor_vec_mask_cast<float,1>(tmp0));
                        auto tmp20 = tmp0.to<float,1>();
                        auto tmp21 = tmp19 * tmp20;
                        auto tmp22 = tmp21 * tmp13;
                        auto tmp23 = static_cast<float>(1.0);
                        auto tmp24 = at::vec::Vectorized<float>(tmp23);
                        auto tmp25 = tmp13 + tmp24;
                        auto tmp26 = tmp22 / tmp25;
                        auto tmp27 = decltype(tmp21)::blendv(tmp26, tmp21, inductor_vec_mask_cast<float,1>(tmp16));
                        auto tmp28 = decltype(tmp7)::blendv(tmp5, tmp7, inductor_vec_mask_cast<float,1>(tmp0));
                        auto tmp29 = decltype(tmp5)::blendv(tmp7, tmp5, inductor_vec_mask_cast<float,1>(tmp0));
                        auto tmp30 = tmp2 - tmp11;
                        auto tmp31 = tmp30.exp();
                        auto tmp32 = tmp31 + tmp24;
                        auto tmp33 = tmp29 / tmp32;
                        auto tmp34 = tmp27 + tmp33;
                        auto tmp35 = decltype(tmp34)::blendv(tmp7, tmp34, inductor_vec_mask_cast<float,1>(tmp0));
                        auto tmp36 = tmp28 + tmp35;
                        auto tmp37 = tmp27.neg();
                        auto tmp38 = tmp29 / tmp25;
                        auto tmp39 = tmp37 + tmp38;
                        auto tmp40 = decltype(tmp39)::blendv(tmp7, tmp39, inductor_vec_mask_cast<float,1>(tmp0));
                        tmp36.store(in_out_ptr0 + static_cast<int64_t>(x0));
                        tmp40.store(in_out_ptr1 + static_cast<int64_t>(x0));
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
                            auto tmp26 = in_out_ptr1[static_cast<int64_t>(x0)];
                            auto tmp27 = in_out_ptr0[static_cast<int64_t>(x0)];
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
                            auto tmp3 = tmp14 ? tmp15 : tmp16;
                            auto tmp4 = x1;
                            auto tmp17 = c10::convert<int32_t>(tmp4);
                            auto tmp18 = at::vec::VectorizedN<int32_t,2>::arange(tmp17, 1);
                            auto tmp19 = at::vec::VectorizedN<int32_t,2>(tmp3);
                            auto tmp20 = at::vec::VecMask<int32_t,2>(tmp18 == tmp19);
                            auto tmp22 = -std::numeric_limits<float>::infinity();
                            auto tmp23 = tmp21 == tmp22;
                            auto tmp24 = static_cast<float>(0.0);
                            auto tmp25 = tmp23 ? tmp24 : tmp21;
                            auto tmp5 = at::vec::VectorizedN<float,2>(tmp25);
                            auto tmp28 = tmp1 - tmp5;
                            auto tmp29 = static_cast<float>(1.4426950408889634);
                            auto tmp30 = at::vec::VectorizedN<float,2>(tmp29);
                            auto tmp31 = tmp28 * tmp30;
                            auto tmp32 = tmp31.exp2();
                            auto tmp33 = at::vec::VectorizedN<float,2>(tmp27);
                            auto tmp34 = tmp33 * tmp32;
                            auto tmp35 = at::vec::VectorizedN<float,2>(tmp26);
                            auto tmp36 = decltype(tmp35)::blendv(tmp34, tmp35, inductor_vec_mask_cast<float,2>(tmp20));
                            auto tmp37 = at::vec::convert<at::BFloat16,1,float,2>(tmp36);
                            tmp37.store(out_ptr2 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                        }
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
