# backward of ce(x, t, ignore_index=0, label_smoothing=0.1)
def call(args):
    primals_1, primals_2, getitem, ne, where_1, sum_2, tangents_1 = args
    assert_size_stride_grouped((ne, getitem, where_1, tangents_1, sum_2, primals_1, primals_2), ((4096, ), (4096, ), (4096, ), (), (), (4096, 128256), (4096, )), ((1, ), (1, ), (1, ), (), (), (128256, 1), (1, )), 'input')
    buf0 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf2 = where_1; del where_1  # reuse
    buf3 = buf0; del buf0  # reuse
    buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf5 = empty_strided_cpu((4096, 128256), (128256, 1), torch.bfloat16)
    cpp_fused_ce_bwd_0(buf2, buf3, ne, getitem, tangents_1, sum_2, primals_1, primals_2, buf4, buf5)
    del buf2
    del buf3
    del buf4
    del getitem
    del ne
    del primals_1
    del primals_2
    del sum_2
    del tangents_1
    return (buf5, None, )


extern "C"  void  cpp_fused_ce_bwd_0(float* in_out_ptr0,
                       float* in_out_ptr1,
                       const bool* in_ptr0,
                       const float* in_ptr1,
                       const float* in_ptr3,
                       const float* in_ptr4,
                       const at::BFloat16* in_ptr5,
                       const int64_t* in_ptr6,
                       float* out_ptr2,
                       at::BFloat16* out_ptr3)
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
                        auto tmp5 = static_cast<float>(0.0);
                        auto tmp6 = at::vec::Vectorized<float>(tmp5);
                        auto tmp7 = decltype(tmp1)::blendv(tmp6, tmp1, inductor_vec_mask_cast<float,1>(tmp0));
                        auto tmp8 = at::vec::maximum(tmp2, tmp6);
                        auto tmp9 = tmp8 * tmp6;
                        auto tmp10 = tmp7 + tmp9;
                        auto tmp11 = tmp10 - tmp2;
                        auto tmp12 = tmp11.exp();
                        auto tmp13 = static_cast<float>(20.0);
                        auto tmp14 = at::vec::Vectorized<float>(tmp13);
                        auto tmp15 = at::vec::VecMask<float,1>(tmp11 > tmp14);
                        auto tmp16 = tmp3 / tmp4;
                        auto tmp17 = at::vec::Vectorized<float>(tmp16);
                        auto tmp18 = decltype(tmp17)::blendv(tmp6, tmp17, inductor_vec_mask_cast<float,1>(tmp0));
                        auto tmp19 = tmp0.to<float,1>();
                        auto tmp20 = static_cast<float>(0.9);
                        auto tmp21 = at::vec::Vectorized<float>(tmp20);
                        auto tmp22 = tmp19 * tmp21;
                        auto tmp23 = tmp18 * tmp22;
                        auto tmp24 = tmp23 * tmp12;
                        auto tmp25 = static_cast<float>(1.0);
                        auto tmp26 = at::vec::Vectorized<float>(tmp25);
                        auto tmp27 = tmp12 + tmp26;
                        auto tmp28 = tmp24 / tmp27;
                        auto tmp29 = decltype(tmp23)::blendv(tmp28, tmp23, inductor_vec_mask_cast<float,1>(tmp15));
                        auto tmp30 = static_cast<float>(7.796906187624751e-07);
                        auto tmp31 = at::vec::Vectorized<float>(tmp30);
                        auto tmp32 = tmp18 * tmp31;
                        auto tmp33 = static_cast<float>(128256.0);
                        auto tmp34 = at::vec::Vectorized<float>(tmp33);
                        auto tmp35 = tmp32 * tmp34;
                        auto tmp36 = tmp2 - tmp10;
                        auto tmp37 = tmp36.exp();
                        auto tmp38 = tmp37 + tmp26;
                        auto tmp39 = tmp35 / tmp38;
                        auto tmp40 = tmp29 + tmp39;
                        auto tmp41 = decltype(tmp40)::blendv(tmp6, tmp40, inductor_vec_mask_cast<float,1>(tmp0));
                        auto tmp42 = tmp29.neg();
                        auto tmp43 = tmp35 / tmp27;
                        auto tmp44 = tmp42 + tmp43;
                        auto tmp45 = decltype(tmp44)::blendv(tmp6, tmp44, inductor_vec_mask_cast<float,1>(tmp0));
                        auto tmp46 = tmp32.neg();
                        auto tmp47 = decltype(tmp46)::blendv(tmp6, tmp46, inductor_vec_mask_cast<float,1>(tmp0));
                        tmp41.store(in_out_ptr0 + static_cast<int64_t>(x0));
                        tmp45.store(in_out_ptr1 + static_cast<int64_t>(x0));
                        tmp47.store(out_ptr2 + static_cast<int64_t>(x0));
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
                            auto tmp5 = in_ptr6[static_cast<int64_t>(x0)];
                            auto tmp19 = in_ptr1[static_cast<int64_t>(x0)];
                            auto tmp24 = in_out_ptr1[static_cast<int64_t>(x0)];
                            auto tmp25 = in_out_ptr0[static_cast<int64_t>(x0)];
                            auto tmp36 = out_ptr2[static_cast<int64_t>(x0)];
                            auto tmp1 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                            auto tmp6 = c10::convert<int64_t>(tmp5);
                            auto tmp7 = static_cast<int64_t>(0);
                            auto tmp2 = tmp6 != tmp7;
                            auto tmp8 = tmp6 >= tmp7;
                            auto tmp9 = static_cast<int64_t>(128256);
                            auto tmp10 = tmp6 < tmp9;
                            auto tmp11 = tmp8 && tmp10;
                            auto tmp12 = tmp2 && tmp11;
                            auto tmp13 = c10::convert<int32_t>(tmp6);
                            auto tmp14 = static_cast<int32_t>(-1);
                            auto tmp15 = tmp12 ? tmp13 : tmp14;
                            auto tmp3 = x1;
                            auto tmp4 = c10::convert<int32_t>(tmp3);
                            auto tmp16 = at::vec::VectorizedN<int32_t,2>::arange(tmp4, 1);
                            auto tmp17 = at::vec::VectorizedN<int32_t,2>(tmp15);
                            auto tmp18 = at::vec::VecMask<int32_t,2>(tmp16 == tmp17);
                            auto tmp20 = -std::numeric_limits<float>::infinity();
                            auto tmp21 = tmp19 == tmp20;
                            auto tmp22 = static_cast<float>(0.0);
                            auto tmp23 = tmp21 ? tmp22 : tmp19;
                            auto tmp26 = at::vec::VectorizedN<float,2>(tmp23);
                            auto tmp27 = tmp1 - tmp26;
                            auto tmp28 = static_cast<float>(1.4426950408889634);
                            auto tmp29 = at::vec::VectorizedN<float,2>(tmp28);
                            auto tmp30 = tmp27 * tmp29;
                            auto tmp31 = tmp30.exp2();
                            auto tmp32 = at::vec::VectorizedN<float,2>(tmp25);
                            auto tmp33 = tmp32 * tmp31;
                            auto tmp34 = at::vec::VectorizedN<float,2>(tmp24);
                            auto tmp35 = decltype(tmp34)::blendv(tmp33, tmp34, inductor_vec_mask_cast<float,2>(tmp18));
                            auto tmp37 = static_cast<float>(1.0);
                            auto tmp38 = float(tmp36 * tmp37);
                            auto tmp39 = at::vec::VectorizedN<float,2>(tmp38);
                            auto tmp40 = tmp35 + tmp39;
                            auto tmp41 = at::vec::convert<at::BFloat16,1,float,2>(tmp40);
                            tmp41.store(out_ptr3 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                        }
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
