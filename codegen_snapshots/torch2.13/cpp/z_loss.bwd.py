# backward of ce(x, t, z_loss=1e-4)
def call(args):
    primals_1, primals_2, getitem, where_1, ge, logical_and, sum_2, tangents_1 = args
    assert_size_stride(primals_2, (4096, ), (1, ), 'input')
    assert_size_stride(tangents_1, (), (), 'input')
    assert_size_stride(sum_2, (), (), 'input')
    assert_size_stride(logical_and, (4096, ), (1, ), 'input')
    assert_size_stride(getitem, (4096, ), (1, ), 'input')
    assert_size_stride(ge, (4096, ), (1, ), 'input')
    assert_size_stride(where_1, (4096, ), (1, ), 'input')
    assert_size_stride(primals_1, (4096, 128256), (128256, 1), 'input')
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf5 = empty_strided_cpu((4096, 128256), (128256, 1), torch.bfloat16)
    cpp_fused_ce_bwd_0(primals_2, tangents_1, sum_2, logical_and, getitem, ge, where_1, primals_1, buf3, buf4, buf5)
    del buf3
    del buf4
    del ge
    del getitem
    del logical_and
    del primals_1
    del primals_2
    del sum_2
    del tangents_1
    del where_1
    return (buf5, None, )


extern "C"  void  cpp_fused_ce_bwd_0(const int64_t* in_ptr0,
                       const float* in_ptr1,
                       const float* in_ptr2,
                       const bool* in_ptr3,
                       const float* in_ptr4,
                       const bool* in_ptr5,
                       const float* in_ptr6,
                       const at::BFloat16* in_ptr7,
                       float* out_ptr2,
                       float* out_ptr3,
                       at::BFloat16* out_ptr4)
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
                        auto tmp0 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp1 = in_ptr1[static_cast<int64_t>(0L)];
                        auto tmp2 = in_ptr2[static_cast<int64_t>(0L)];
                        auto tmp3 = at::vec::VecMask<float,1>::from(in_ptr3 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp4 = at::vec::Vectorized<float>::loadu(in_ptr4 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp5 = at::vec::VecMask<float,1>::from(in_ptr5 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp6 = at::vec::Vectorized<float>::loadu(in_ptr6 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp7 = at::vec::convert<int32_t,1,int64_t,2>(tmp0);
                        auto tmp8 = static_cast<int32_t>(-100);
                        auto tmp9 = at::vec::Vectorized<int32_t>(tmp8);
                        auto tmp10 = at::vec::VecMask<int32_t,1>(tmp7 != tmp9);
                        auto tmp11 = tmp1 / tmp2;
                        auto tmp12 = static_cast<float>(0.0);
                        auto tmp13 = at::vec::Vectorized<float>(tmp11);
                        auto tmp14 = at::vec::Vectorized<float>(tmp12);
                        auto tmp15 = decltype(tmp13)::blendv(tmp14, tmp13, tmp10.template cast<float,1>());
                        auto tmp16 = tmp10.to<float,1>();
                        auto tmp17 = static_cast<float>(0.0001);
                        auto tmp18 = at::vec::Vectorized<float>(tmp17);
                        auto tmp19 = tmp16 * tmp18;
                        auto tmp20 = tmp15 * tmp19;
                        auto tmp21 = decltype(tmp4)::blendv(tmp14, tmp4, tmp10.template cast<float,1>());
                        auto tmp22 = decltype(tmp21)::blendv(tmp6, tmp21, tmp5.template cast<float,1>());
                        auto tmp23 = decltype(tmp6)::blendv(tmp21, tmp6, tmp5.template cast<float,1>());
                        auto tmp24 = tmp23 - tmp22;
                        auto tmp25 = tmp24.exp();
                        auto tmp26 = tmp25.log1p();
                        auto tmp27 = tmp22 + tmp26;
                        auto tmp28 = decltype(tmp21)::blendv(tmp27, tmp21, tmp3.template cast<float,1>());
                        auto tmp29 = static_cast<float>(2.0);
                        auto tmp30 = at::vec::Vectorized<float>(tmp29);
                        auto tmp31 = tmp28 * tmp30;
                        auto tmp32 = tmp20 * tmp31;
                        auto tmp33 = tmp21 - tmp6;
                        auto tmp34 = static_cast<float>(1.0);
                        auto tmp35 = at::vec::Vectorized<float>(tmp34);
                        auto tmp36 = tmp33 * tmp35;
                        auto tmp37 = tmp36.exp();
                        auto tmp38 = static_cast<float>(20.0);
                        auto tmp39 = at::vec::Vectorized<float>(tmp38);
                        auto tmp40 = at::vec::VecMask<float,1>(tmp36 > tmp39);
                        auto tmp41 = tmp16 * tmp35;
                        auto tmp42 = tmp15 * tmp41;
                        auto tmp43 = tmp42 * tmp37;
                        auto tmp44 = tmp37 + tmp35;
                        auto tmp45 = tmp43 / tmp44;
                        auto tmp46 = decltype(tmp42)::blendv(tmp45, tmp42, tmp40.template cast<float,1>());
                        auto tmp47 = tmp6 - tmp21;
                        auto tmp48 = tmp47.exp();
                        auto tmp49 = tmp48 + tmp35;
                        auto tmp50 = tmp32 / tmp49;
                        auto tmp51 = tmp46 + tmp50;
                        auto tmp52 = decltype(tmp51)::blendv(tmp14, tmp51, tmp10.template cast<float,1>());
                        auto tmp53 = tmp46.neg();
                        auto tmp54 = tmp33.exp();
                        auto tmp55 = tmp54 + tmp35;
                        auto tmp56 = tmp32 / tmp55;
                        auto tmp57 = tmp53 + tmp56;
                        auto tmp58 = decltype(tmp57)::blendv(tmp14, tmp57, tmp10.template cast<float,1>());
                        tmp52.store(out_ptr2 + static_cast<int64_t>(x0));
                        tmp58.store(out_ptr3 + static_cast<int64_t>(x0));
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
                            auto tmp8 = in_ptr0[static_cast<int64_t>(x0)];
                            auto tmp5 = in_ptr4[static_cast<int64_t>(x0)];
                            auto tmp25 = out_ptr3[static_cast<int64_t>(x0)];
                            auto tmp26 = out_ptr2[static_cast<int64_t>(x0)];
                            auto tmp7 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                            auto tmp9 = c10::convert<int64_t>(tmp8);
                            auto tmp10 = static_cast<int64_t>(-100);
                            auto tmp1 = tmp9 != tmp10;
                            auto tmp2 = static_cast<int64_t>(0);
                            auto tmp11 = tmp9 >= tmp2;
                            auto tmp12 = static_cast<int64_t>(128256);
                            auto tmp13 = tmp9 < tmp12;
                            auto tmp14 = tmp11 && tmp13;
                            auto tmp15 = tmp1 && tmp14;
                            auto tmp16 = c10::convert<int32_t>(tmp9);
                            auto tmp17 = static_cast<int32_t>(-1);
                            auto tmp18 = tmp15 ? tmp16 : tmp17;
                            auto tmp19 = x1;
                            auto tmp20 = c10::convert<int32_t>(tmp19);
                            auto tmp3 = at::vec::VectorizedN<int32_t,2>::arange(tmp20, 1);
                            auto tmp4 = at::vec::VectorizedN<int32_t,2>(tmp18);
                            auto tmp21 = at::vec::VecMask<int32_t,2>(tmp3 == tmp4);
                            auto tmp6 = -std::numeric_limits<float>::infinity();
                            auto tmp22 = tmp5 == tmp6;
                            auto tmp23 = static_cast<float>(0.0);
                            auto tmp24 = tmp22 ? tmp23 : tmp5;
                            auto tmp27 = at::vec::VectorizedN<float,2>(tmp24);
                            auto tmp28 = tmp7 - tmp27;
                            auto tmp29 = static_cast<float>(1.4426950408889634);
                            auto tmp30 = at::vec::VectorizedN<float,2>(tmp29);
                            auto tmp31 = tmp28 * tmp30;
                            auto tmp32 = tmp31.exp2();
                            auto tmp33 = at::vec::VectorizedN<float,2>(tmp26);
                            auto tmp34 = tmp33 * tmp32;
                            auto tmp35 = at::vec::VectorizedN<float,2>(tmp25);
                            auto tmp36 = decltype(tmp35)::blendv(tmp34, tmp35, tmp21.template cast<float,2>());
                            auto tmp37 = at::vec::convert<at::BFloat16,1,float,2>(tmp36);
                            tmp37.store(out_ptr4 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                        }
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
