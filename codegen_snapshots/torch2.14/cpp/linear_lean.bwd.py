# backward of linear_cross_entropy(h, w, t, reduction='none', memory_budget=64 MiB)
def call(args):
    primals_1, primals_2, primals_3, getitem, getitem_3, ne, sub_1, tangents_1 = args
    assert_size_stride_grouped((sub_1, ne, tangents_1, getitem_3, primals_3, primals_1), ((4096, ), (4096, ), (4096, ), (4096, 4096), (4096, ), (128256, 4096)), ((1, ), (1, ), (1, ), (4096, 1), (1, ), (4096, 1)), 'input')
    buf1 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf3 = getitem_3; del getitem_3  # reuse
    assert_size_stride_grouped((primals_2, getitem), ((4096, 4096), (4096, )), ((4096, 1), (1, )), 'input')
    cpp_fused_0(buf3, sub_1, ne, tangents_1, primals_3, primals_1, buf1, buf2)
    del ne
    del sub_1
    del tangents_1
    buf4 = torch.ops.inductor_ce.linear_ce_bwd.default(primals_2, primals_1, None, primals_3, None, getitem, buf2, buf1, None, -100, None, 0, 67108864, False, True)
    del buf1
    del buf2
    del getitem
    del primals_1
    del primals_2
    del primals_3
    buf6 = buf4[1]
    assert_tensor_metadata(buf6, (128256, 4096), (4096, 1), torch.bfloat16, 'torch.ops.inductor_ce.linear_ce_bwd.default')
    return (buf6, buf3, None, )


extern "C"  void  cpp_fused_0(at::BFloat16* in_out_ptr0,
                       const float* in_ptr0,
                       const bool* in_ptr1,
                       const float* in_ptr2,
                       const int64_t* in_ptr3,
                       const at::BFloat16* in_ptr4,
                       float* out_ptr1,
                       float* out_ptr2)
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
                        auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp1 = at::vec::VecMask<float,1>::from(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = at::vec::Vectorized<float>::loadu(in_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp3 = tmp0.exp();
                        auto tmp4 = static_cast<float>(20.0);
                        auto tmp5 = at::vec::Vectorized<float>(tmp4);
                        auto tmp6 = at::vec::VecMask<float,1>(tmp0 > tmp5);
                        auto tmp7 = static_cast<float>(0.0);
                        auto tmp8 = at::vec::Vectorized<float>(tmp7);
                        auto tmp9 = decltype(tmp2)::blendv(tmp8, tmp2, tmp1.template cast<float,1>());
                        auto tmp10 = tmp1.to<float,1>();
                        auto tmp11 = tmp9 * tmp10;
                        auto tmp12 = tmp11 * tmp3;
                        auto tmp13 = static_cast<float>(1.0);
                        auto tmp14 = at::vec::Vectorized<float>(tmp13);
                        auto tmp15 = tmp3 + tmp14;
                        auto tmp16 = tmp12 / tmp15;
                        auto tmp17 = decltype(tmp11)::blendv(tmp16, tmp11, tmp6.template cast<float,1>());
                        auto tmp18 = tmp17.neg();
                        auto tmp19 = decltype(tmp18)::blendv(tmp8, tmp18, tmp1.template cast<float,1>());
                        auto tmp20 = decltype(tmp17)::blendv(tmp8, tmp17, tmp1.template cast<float,1>());
                        tmp19.store(out_ptr1 + static_cast<int64_t>(x0));
                        tmp20.store(out_ptr2 + static_cast<int64_t>(x0));
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
                            auto tmp3 = at::vec::Vectorized<at::BFloat16>::loadu(in_out_ptr0 + static_cast<int64_t>(x1 + 4096L*x0), static_cast<int64_t>(16));
                            auto tmp6 = in_ptr3[static_cast<int64_t>(x0)];
                            auto tmp15 = out_ptr1[static_cast<int64_t>(x0)];
                            auto tmp1 = at::vec::convert<float,2,at::BFloat16,1>(tmp3);
                            auto tmp4 = at::vec::VectorizedN<float,2>(tmp0);
                            auto tmp5 = tmp4 * tmp1;
                            auto tmp2 = static_cast<int64_t>(-100);
                            auto tmp7 = tmp6 == tmp2;
                            auto tmp8 = static_cast<int64_t>(-1);
                            auto tmp9 = tmp7 ? tmp8 : tmp6;
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
                            auto tmp26 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr4 + static_cast<int64_t>(x1 + 4096L*tmp23), static_cast<int64_t>(16));
                            auto tmp27 = at::vec::convert<float,2,at::BFloat16,1>(tmp26);
                            auto tmp28 = at::vec::VectorizedN<float,2>(tmp17);
                            auto tmp29 = tmp28 * tmp27;
                            auto tmp30 = tmp5 + tmp29;
                            auto tmp31 = at::vec::convert<at::BFloat16,1,float,2>(tmp30);
                            tmp31.store(in_out_ptr0 + static_cast<int64_t>(x1 + 4096L*x0), static_cast<int64_t>(16));
                        }
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
