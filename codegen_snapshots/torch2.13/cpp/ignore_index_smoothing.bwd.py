# backward of ce(x, t, ignore_index=0, label_smoothing=0.1)
def call(args):
    primals_1, primals_2, getitem, where_1, sum_2, tangents_1 = args
    assert_size_stride(primals_2, (4096, ), (1, ), 'input')
    assert_size_stride(getitem, (4096, ), (1, ), 'input')
    assert_size_stride(where_1, (4096, ), (1, ), 'input')
    assert_size_stride(tangents_1, (), (), 'input')
    assert_size_stride(sum_2, (), (), 'input')
    assert_size_stride(primals_1, (4096, 128256), (128256, 1), 'input')
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf5 = empty_strided_cpu((4096, 128256), (128256, 1), torch.bfloat16)
    cpp_fused_ce_bwd_0(primals_2, getitem, where_1, tangents_1, sum_2, primals_1, buf2, buf3, buf4, buf5)
    del buf2
    del buf3
    del buf4
    del getitem
    del primals_1
    del primals_2
    del sum_2
    del tangents_1
    del where_1
    return (buf5, None, )


extern "C"  void  cpp_fused_ce_bwd_0(const int64_t* in_ptr0,
                       const float* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       const float* in_ptr4,
                       const at::BFloat16* in_ptr5,
                       float* out_ptr1,
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
                        auto tmp1 = at::vec::Vectorized<float>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = at::vec::Vectorized<float>::loadu(in_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp3 = in_ptr3[static_cast<int64_t>(0L)];
                        auto tmp4 = in_ptr4[static_cast<int64_t>(0L)];
                        auto tmp5 = at::vec::convert<int32_t,1,int64_t,2>(tmp0);
                        auto tmp6 = static_cast<int32_t>(0);
                        auto tmp7 = at::vec::Vectorized<int32_t>(tmp6);
                        auto tmp8 = at::vec::VecMask<int32_t,1>(tmp5 != tmp7);
                        auto tmp9 = static_cast<float>(0.0);
                        auto tmp10 = at::vec::Vectorized<float>(tmp9);
                        auto tmp11 = decltype(tmp1)::blendv(tmp10, tmp1, tmp8.template cast<float,1>());
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
                        auto tmp22 = decltype(tmp21)::blendv(tmp10, tmp21, tmp8.template cast<float,1>());
                        auto tmp23 = tmp8.to<float,1>();
                        auto tmp24 = static_cast<float>(0.9);
                        auto tmp25 = at::vec::Vectorized<float>(tmp24);
                        auto tmp26 = tmp23 * tmp25;
                        auto tmp27 = tmp22 * tmp26;
                        auto tmp28 = tmp27 * tmp16;
                        auto tmp29 = tmp16 + tmp14;
                        auto tmp30 = tmp28 / tmp29;
                        auto tmp31 = decltype(tmp27)::blendv(tmp30, tmp27, tmp19.template cast<float,1>());
                        auto tmp32 = static_cast<float>(7.796906187624751e-07);
                        auto tmp33 = at::vec::Vectorized<float>(tmp32);
                        auto tmp34 = tmp22 * tmp33;
                        auto tmp35 = static_cast<float>(128256.0);
                        auto tmp36 = at::vec::Vectorized<float>(tmp35);
                        auto tmp37 = tmp34 * tmp36;
                        auto tmp38 = tmp2 - tmp11;
                        auto tmp39 = tmp38.exp();
                        auto tmp40 = tmp39 + tmp14;
                        auto tmp41 = tmp37 / tmp40;
                        auto tmp42 = tmp31 + tmp41;
                        auto tmp43 = decltype(tmp42)::blendv(tmp10, tmp42, tmp8.template cast<float,1>());
                        auto tmp44 = tmp31.neg();
                        auto tmp45 = tmp12.exp();
                        auto tmp46 = tmp45 + tmp14;
                        auto tmp47 = tmp37 / tmp46;
                        auto tmp48 = tmp44 + tmp47;
                        auto tmp49 = decltype(tmp48)::blendv(tmp10, tmp48, tmp8.template cast<float,1>());
                        auto tmp50 = tmp34.neg();
                        auto tmp51 = decltype(tmp50)::blendv(tmp10, tmp50, tmp8.template cast<float,1>());
                        tmp43.store(out_ptr1 + static_cast<int64_t>(x0));
                        tmp49.store(out_ptr2 + static_cast<int64_t>(x0));
                        tmp51.store(out_ptr3 + static_cast<int64_t>(x0));
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
                            auto tmp6 = in_ptr0[static_cast<int64_t>(x0)];
                            auto tmp4 = in_ptr1[static_cast<int64_t>(x0)];
                            auto tmp24 = out_ptr2[static_cast<int64_t>(x0)];
                            auto tmp25 = out_ptr1[static_cast<int64_t>(x0)];
                            auto tmp36 = out_ptr3[static_cast<int64_t>(x0)];
                            auto tmp5 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                            auto tmp7 = c10::convert<int64_t>(tmp6);
                            auto tmp8 = static_cast<int64_t>(0);
                            auto tmp1 = tmp7 != tmp8;
                            auto tmp9 = tmp7 >= tmp8;
                            auto tmp10 = static_cast<int64_t>(128256);
                            auto tmp11 = tmp7 < tmp10;
                            auto tmp2 = tmp9 && tmp11;
                            auto tmp12 = tmp1 && tmp2;
                            auto tmp13 = c10::convert<int32_t>(tmp7);
                            auto tmp14 = static_cast<int32_t>(-1);
                            auto tmp15 = tmp12 ? tmp13 : tmp14;
                            auto tmp16 = x1;
                            auto tmp17 = c10::convert<int32_t>(tmp16);
                            auto tmp18 = at::vec::VectorizedN<int32_t,2>::arange(tmp17, 1);
                            auto tmp19 = at::vec::VectorizedN<int32_t,2>(tmp15);
                            auto tmp3 = at::vec::VecMask<int32_t,2>(tmp18 == tmp19);
                            auto tmp20 = -std::numeric_limits<float>::infinity();
                            auto tmp21 = tmp4 == tmp20;
                            auto tmp22 = static_cast<float>(0.0);
                            auto tmp23 = tmp21 ? tmp22 : tmp4;
                            auto tmp26 = at::vec::VectorizedN<float,2>(tmp23);
                            auto tmp27 = tmp5 - tmp26;
                            auto tmp28 = static_cast<float>(1.4426950408889634);
                            auto tmp29 = at::vec::VectorizedN<float,2>(tmp28);
                            auto tmp30 = tmp27 * tmp29;
                            auto tmp31 = tmp30.exp2();
                            auto tmp32 = at::vec::VectorizedN<float,2>(tmp25);
                            auto tmp33 = tmp32 * tmp31;
                            auto tmp34 = at::vec::VectorizedN<float,2>(tmp24);
                            auto tmp35 = decltype(tmp34)::blendv(tmp33, tmp34, tmp3.template cast<float,2>());
                            auto tmp37 = static_cast<float>(1.0);
                            auto tmp38 = float(tmp36 * tmp37);
                            auto tmp39 = at::vec::VectorizedN<float,2>(tmp38);
                            auto tmp40 = tmp35 + tmp39;
                            auto tmp41 = at::vec::convert<at::BFloat16,1,float,2>(tmp40);
                            tmp41.store(out_ptr4 + static_cast<int64_t>(x1 + 128256L*x0), static_cast<int64_t>(16));
                        }
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
