# backward of ce(x, t, z_loss=1e-4)
def call(args):
    primals_1, primals_2, getitem, ne, where_1, ge, logical_and, sum_2, tangents_1 = args
    assert_size_stride_grouped((ne, tangents_1, sum_2, logical_and, getitem, where_1, ge, primals_1, primals_2), ((4096, ), (), (), (4096, ), (4096, ), (4096, ), (4096, ), (4096, 128256), (4096, )), ((1, ), (), (), (1, ), (1, ), (1, ), (1, ), (128256, 1), (1, )), 'input')
    buf1 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf3 = where_1; del where_1  # reuse
    buf4 = buf1; del buf1  # reuse
    buf5 = empty_strided_cpu((4096, 128256), (128256, 1), torch.bfloat16)
    cpp_fused_ce_bwd_0(buf3, buf4, ne, tangents_1, sum_2, logical_and, getitem, ge, primals_1, primals_2, buf5)
    del buf3
    del buf4
    del ge
    del getitem
    del logical_and
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
                       const float* in_ptr2,
                       const bool* in_ptr3,
                       const float* in_ptr4,
                       const bool* in_ptr6,
                       const at::BFloat16* in_ptr7,
                       const int64_t* in_ptr8,
                       at::BFloat16* out_ptr3)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto in_ptr5 = in_out_ptr0;
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
                        auto tmp1 = in_ptr1[static_cast<int64_t>(0L)];
                        auto tmp2 = in_ptr2[static_cast<int64_t>(0L)];
                        auto tmp3 = at::vec::VecMask<float,1>::from(in_ptr3 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp4 = at::vec::Vectorized<float>::loadu(in_ptr4 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp5 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp6 = at::vec::VecMask<float,1>::from(in_ptr6 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp7 = tmp1 / tmp2;
                        auto tmp8 = static_cast<float>(0.0);
                        auto tmp9 = at::vec::Vectorized<float>(tmp7);
                        auto tmp10 = at::vec::Vectorized<float>(tmp8);
                        auto tmp11 = decltype(tmp9)::blendv(tmp10, tmp9, inductor_vec_mask_cast<float,1>(tmp0));
                        auto tmp12 = tmp0.to<float,1>();
                        auto tmp13 = static_cast<float>(0.0001);
                        auto tmp14 = at::vec::Vectorized<float>(tmp13);
                        auto tmp15 = tmp12 * tmp14;
                        auto tmp16 = tmp11 * tmp15;
                        auto tmp17 = decltype(tmp4)::blendv(tmp10, tmp4, inductor_vec_mask_cast<float,1>(tmp0));
                        auto tmp18 = at::vec::maximum(tmp5, tmp10);
                        auto tmp19 = tmp18 * tmp10;
                        auto tmp20 = tmp17 + tmp19;
                        auto tmp21 = decltype(tmp20)::blendv(tmp5, tmp20, inductor_vec_mask_cast<float,1>(tmp6));
                        auto tmp22 = decltype(tmp5)::blendv(tmp20, tmp5, inductor_vec_mask_cast<float,1>(tmp6));
                        auto tmp23 = tmp22 - tmp21;
                        auto tmp24 = tmp23.exp();
                        auto tmp25 = tmp24.log1p();
                        auto tmp26 = tmp21 + tmp25;
                        auto tmp27 = decltype(tmp20)::blendv(tmp26, tmp20, inductor_vec_mask_cast<float,1>(tmp3));
                        auto tmp28 = static_cast<float>(2.0);
                        auto tmp29 = at::vec::Vectorized<float>(tmp28);
                        auto tmp30 = tmp27 * tmp29;
                        auto tmp31 = tmp16 * tmp30;
                        auto tmp32 = tmp20 - tmp5;
                        auto tmp33 = tmp32.exp();
                        auto tmp34 = static_cast<float>(20.0);
                        auto tmp35 = at::vec::Vectorized<float>(tmp34);
                        auto tmp36 = at::vec::VecMask<float,1>(tmp32 > tmp35);
                        auto tmp37 = tmp11 * tmp12;
                        auto tmp38 = tmp37 * tmp33;
                        auto tmp39 = static_cast<float>(1.0);
                        auto tmp40 = at::vec::Vectorized<float>(tmp39);
                        auto tmp41 = tmp33 + tmp40;
                        auto tmp42 = tmp38 / tmp41;
                        auto tmp43 = decltype(tmp37)::blendv(tmp42, tmp37, inductor_vec_mask_cast<float,1>(tmp36));
                        auto tmp44 = tmp5 - tmp20;
                        auto tmp45 = tmp44.exp();
                        auto tmp46 = tmp45 + tmp40;
                        auto tmp47 = tmp31 / tmp46;
                        auto tmp48 = tmp43 + tmp47;
                        auto tmp49 = decltype(tmp48)::blendv(tmp10, tmp48, inductor_vec_mask_cast<float,1>(tmp0));
                        auto tmp50 = tmp43.neg();
                        auto tmp51 = tmp31 / tmp41;
                        auto tmp52 = tmp50 + tmp51;
                        auto tmp53 = decltype(tmp52)::blendv(tmp10, tmp52, inductor_vec_mask_cast<float,1>(tmp0));
                        tmp49.store(in_out_ptr0 + static_cast<int64_t>(x0));
                        tmp53.store(in_out_ptr1 + static_cast<int64_t>(x0));
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
                            auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr7 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                            auto tmp2 = in_ptr8[static_cast<int64_t>(x0)];
                            auto tmp6 = in_ptr4[static_cast<int64_t>(x0)];
                            auto tmp25 = in_out_ptr1[static_cast<int64_t>(x0)];
                            auto tmp26 = in_out_ptr0[static_cast<int64_t>(x0)];
                            auto tmp1 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                            auto tmp7 = c10::convert<int64_t>(tmp2);
                            auto tmp8 = static_cast<int64_t>(-100);
                            auto tmp9 = tmp7 != tmp8;
                            auto tmp10 = static_cast<int64_t>(0);
                            auto tmp11 = tmp7 >= tmp10;
                            auto tmp12 = static_cast<int64_t>(128256);
                            auto tmp13 = tmp7 < tmp12;
                            auto tmp14 = tmp11 && tmp13;
                            auto tmp15 = tmp9 && tmp14;
                            auto tmp16 = c10::convert<int32_t>(tmp7);
                            auto tmp3 = static_cast<int32_t>(-1);
                            auto tmp4 = tmp15 ? tmp16 : tmp3;
                            auto tmp17 = x1;
                            auto tmp5 = c10::convert<int32_t>(tmp17);
                            auto tmp18 = at::vec::VectorizedN<int32_t,2>::arange(tmp5, 1);
                            auto tmp19 = at::vec::VectorizedN<int32_t,2>(tmp4);
                            auto tmp20 = at::vec::VecMask<int32_t,2>(tmp18 == tmp19);
                            auto tmp21 = -std::numeric_limits<float>::infinity();
                            auto tmp22 = tmp6 == tmp21;
                            auto tmp23 = static_cast<float>(0.0);
                            auto tmp24 = tmp22 ? tmp23 : tmp6;
                            auto tmp27 = at::vec::VectorizedN<float,2>(tmp24);
                            auto tmp28 = tmp1 - tmp27;
                            auto tmp29 = static_cast<float>(1.4426950408889634);
                            auto tmp30 = at::vec::VectorizedN<float,2>(tmp29);
                            auto tmp31 = tmp28 * tmp30;
                            auto tmp32 = tmp31.exp2();
                            auto tmp33 = at::vec::VectorizedN<float,2>(tmp26);
                            auto tmp34 = tmp33 * tmp32;
                            auto tmp35 = at::vec::VectorizedN<float,2>(tmp25);
                            auto tmp36 = decltype(tmp35)::blendv(tmp34, tmp35, inductor_vec_mask_cast<float,2>(tmp20));
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
