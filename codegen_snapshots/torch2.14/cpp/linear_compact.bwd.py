# backward of linear_cross_entropy(h, w, t, policy='compact')
def call(args):
    primals_1, primals_2, primals_3, getitem, getitem_3, ne, sub_1, sum_2, tangents_1 = args
    assert_size_stride_grouped((sub_1, ne, tangents_1, sum_2, getitem_3, primals_3, primals_1), ((4096, ), (4096, ), (), (), (4096, 4096), (4096, ), (128256, 4096)), ((1, ), (1, ), (), (), (4096, 1), (1, ), (4096, 1)), 'input')
    buf1 = sub_1; del sub_1  # reuse
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = getitem_3; del getitem_3  # reuse
    assert_size_stride_grouped((primals_2, getitem), ((4096, 4096), (4096, )), ((4096, 1), (1, )), 'input')
    cpp_fused_0(buf1, buf4, ne, tangents_1, sum_2, primals_3, primals_1, buf2, buf3)
    del buf1
    del ne
    del sum_2
    del tangents_1
    buf5 = torch.ops.inductor_ce.linear_ce_bwd.default(primals_2, primals_1, None, primals_3, None, getitem, buf3, buf2, None, -100, None, 0, 0)
    del buf2
    del buf3
    del getitem
    del primals_1
    del primals_2
    del primals_3
    buf6 = buf5[0]
    assert_tensor_metadata(buf6, (128256, 4096), (4096, 1), torch.bfloat16, 'torch.ops.inductor_ce.linear_ce_bwd.default')
    return (buf6, buf4, None, )


extern "C"  void  cpp_fused_0(float* in_out_ptr0,
                       at::BFloat16* in_out_ptr1,
                       const bool* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       const int64_t* in_ptr4,
                       const at::BFloat16* in_ptr5,
                       float* out_ptr1,
                       float* out_ptr2)
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
                        auto tmp12 = decltype(tmp10)::blendv(tmp11, tmp10, tmp1.template cast<float,1>());
                        auto tmp13 = tmp1.to<float,1>();
                        auto tmp14 = tmp12 * tmp13;
                        auto tmp15 = tmp14 * tmp4;
                        auto tmp16 = static_cast<float>(1.0);
                        auto tmp17 = at::vec::Vectorized<float>(tmp16);
                        auto tmp18 = tmp4 + tmp17;
                        auto tmp19 = tmp15 / tmp18;
                        auto tmp20 = decltype(tmp14)::blendv(tmp19, tmp14, tmp7.template cast<float,1>());
                        auto tmp21 = tmp20.neg();
                        auto tmp22 = decltype(tmp21)::blendv(tmp11, tmp21, tmp1.template cast<float,1>());
                        auto tmp23 = decltype(tmp20)::blendv(tmp11, tmp20, tmp1.template cast<float,1>());
                        tmp22.store(out_ptr1 + static_cast<int64_t>(x0));
                        tmp23.store(out_ptr2 + static_cast<int64_t>(x0));
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4096L); x0+=static_cast<int64_t>(1L))
            {
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(4096L); x1+=static_cast<int64_t>(16L))
                {
                    {
                        if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(4096L)))
                        {
                            auto tmp0 = out_ptr2[static_cast<int64_t>(x0)];
                            auto tmp4 = at::vec::Vectorized<at::BFloat16>::loadu(in_out_ptr1 + static_cast<int64_t>(x1 + 4096L*x0), static_cast<int64_t>(16));
                            auto tmp1 = in_ptr4[static_cast<int64_t>(x0)];
                            auto tmp15 = out_ptr1[static_cast<int64_t>(x0)];
                            auto tmp5 = at::vec::convert<float,2,at::BFloat16,1>(tmp4);
                            auto tmp6 = at::vec::VectorizedN<float,2>(tmp0);
                            auto tmp7 = tmp6 * tmp5;
                            auto tmp2 = static_cast<int64_t>(-100);
                            auto tmp3 = tmp1 == tmp2;
                            auto tmp8 = static_cast<int64_t>(-1);
                            auto tmp9 = tmp3 ? tmp8 : tmp1;
                            auto tmp10 = static_cast<int64_t>(0);
                            auto tmp11 = tmp9 >= tmp10;
                            auto tmp12 = static_cast<int64_t>(128256);
                            auto tmp13 = tmp9 < tmp12;
                            auto tmp14 = decltype(tmp11)(tmp11 & tmp13);
                            auto tmp16 = static_cast<float>(0.0);
                            auto tmp17 = tmp14 ? tmp15 : tmp16;
                            auto tmp18 = tmp14 ? tmp9 : tmp10;
                            auto tmp19 = 128256L;
                            auto tmp20 = c10::convert<int64_t>(tmp19);
                            auto tmp21 = int64_t(static_cast<std::make_unsigned_t<int64_t>>(tmp18) + static_cast<std::make_unsigned_t<int64_t>>(tmp20));
                            auto tmp22 = tmp18 < 0;
                            auto tmp23 = tmp22 ? tmp21 : tmp18;
                            auto tmp24 = tmp23;
                            auto tmp25 = c10::convert<int64_t>(tmp24);
                            TORCH_CHECK((0 <= tmp25) & (tmp25 < 128256L), "index out of bounds: 0 <= tmp25 < 128256L");
                            auto tmp26 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr5 + static_cast<int64_t>(x1 + 4096L*tmp23), static_cast<int64_t>(16));
                            auto tmp27 = at::vec::convert<float,2,at::BFloat16,1>(tmp26);
                            auto tmp28 = at::vec::VectorizedN<float,2>(tmp17);
                            auto tmp29 = tmp28 * tmp27;
                            auto tmp30 = tmp7 + tmp29;
                            auto tmp31 = at::vec::convert<at::BFloat16,1,float,2>(tmp30);
                            tmp31.store(in_out_ptr1 + static_cast<int64_t>(x1 + 4096L*x0), static_cast<int64_t>(16));
                        }
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
