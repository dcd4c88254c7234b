# backward of linear_cross_entropy(h, w, t, reduction='none', memory_budget=64 MiB)
def call(args):
    primals_1, primals_2, primals_3, getitem, getitem_3, ne, mul_5, tangents_1 = args
    assert_size_stride(mul_5, (4096, ), (1, ), 'input')
    assert_size_stride(ne, (4096, ), (1, ), 'input')
    assert_size_stride(tangents_1, (4096, ), (1, ), 'input')
    assert_size_stride(getitem_3, (4096, 4096), (4096, 1), 'input')
    assert_size_stride(primals_3, (4096, ), (1, ), 'input')
    assert_size_stride(primals_1, (128256, 4096), (4096, 1), 'input')
    buf1 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf3 = getitem_3; del getitem_3  # reuse
    assert_size_stride(primals_2, (4096, 4096), (4096, 1), 'input')
    assert_size_stride(getitem, (4096, ), (1, ), 'input')
    cpp_fused_0(buf3, mul_5, ne, tangents_1, primals_3, primals_1, buf1, buf2)
    del mul_5
    del ne
    del tangents_1
    buf4 = torch.ops.inductor_ce.linear_ce_bwd.default(primals_2, primals_1, None, primals_3, None, getitem, buf2, buf1, None, -100, None, 0, 67108864, False, True)
    del buf1
    del buf2
    del getitem
    del primals_1
    del primals_2
    del primals_3
    buf6 = buf4[1]
    assert_size_stride(buf6, (128256, 4096), (4096, 1), 'torch.ops.inductor_ce.linear_ce_bwd.default')
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
                        auto tmp11 = static_cast<float>(1.0);
                        auto tmp12 = at::vec::Vectorized<float>(tmp11);
                        auto tmp13 = tmp10 * tmp12;
                        auto tmp14 = tmp9 * tmp13;
                        auto tmp15 = tmp14 * tmp3;
                        auto tmp16 = tmp3 + tmp12;
                        auto tmp17 = tmp15 / tmp16;
                        auto tmp18 = decltype(tmp14)::blendv(tmp17, tmp14, tmp6.template cast<float,1>());
                        auto tmp19 = tmp18.neg();
                        auto tmp20 = decltype(tmp19)::blendv(tmp8, tmp19, tmp1.template cast<float,1>());
                        auto tmp21 = decltype(tmp18)::blendv(tmp8, tmp18, tmp1.template cast<float,1>());
                        tmp20.store(out_ptr1 + static_cast<int64_t>(x0));
                        tmp21.store(out_ptr2 + static_cast<int64_t>(x0));
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
                            auto tmp16 = out_ptr1[static_cast<int64_t>(x0)];
                            auto tmp1 = at::vec::convert<float,2,at::BFloat16,1>(tmp3);
                            auto tmp4 = at::vec::VectorizedN<float,2>(tmp0);
                            auto tmp5 = tmp4 * tmp1;
                            auto tmp2 = static_cast<int64_t>(-100);
                            auto tmp7 = tmp6 == tmp2;
                            auto tmp8 = static_cast<int64_t>(0);
                            auto tmp9 = int64_t(tmp6 - tmp8);
                            auto tmp10 = static_cast<int64_t>(-1);
                            auto tmp11 = tmp7 ? tmp10 : tmp9;
                            auto tmp12 = tmp11 >= tmp8;
                            auto tmp13 = static_cast<int64_t>(128256);
                            auto tmp14 = tmp11 < tmp13;
                            auto tmp15 = decltype(tmp12)(tmp12 & tmp14);
                            auto tmp17 = static_cast<float>(1.0);
                            auto tmp18 = float(tmp16 * tmp17);
                            auto tmp19 = static_cast<float>(0.0);
                            auto tmp20 = tmp15 ? tmp18 : tmp19;
                            auto tmp21 = tmp15 ? tmp11 : tmp8;
                            auto tmp22 = 128256L;
                            auto tmp23 = c10::convert<int64_t>(tmp22);
                            auto tmp24 = int64_t(tmp21 + tmp23);
                            auto tmp25 = tmp21 < 0;
                            auto tmp26 = tmp25 ? tmp24 : tmp21;
                            auto tmp27 = tmp26;
                            auto tmp28 = c10::convert<int64_t>(tmp27);
                            TORCH_CHECK((0 <= tmp28) & (tmp28 < 128256L), "index out of bounds: 0 <= tmp28 < 128256L");
                            auto tmp29 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr4 + static_cast<int64_t>(x1 + 4096L*tmp26), static_cast<int64_t>(16));
                            auto tmp30 = at::vec::convert<float,2,at::BFloat16,1>(tmp29);
                            auto tmp31 = at::vec::VectorizedN<float,2>(tmp20);
                            auto tmp32 = tmp31 * tmp30;
                            auto tmp33 = tmp5 + tmp32;
                            auto tmp34 = at::vec::convert<at::BFloat16,1,float,2>(tmp33);
                            tmp34.store(in_out_ptr0 + static_cast<int64_t>(x1 + 4096L*x0), static_cast<int64_t>(16));
                        }
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
