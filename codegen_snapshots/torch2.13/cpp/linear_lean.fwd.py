# forward of linear_cross_entropy(h, w, t, reduction='none', memory_budget=64 MiB)
def call(args):
    primals_1, primals_2, primals_3 = args
    assert_size_stride(primals_2, (4096, 4096), (4096, 1), 'input')
    assert_size_stride(primals_1, (128256, 4096), (4096, 1), 'input')
    assert_size_stride(primals_3, (4096, ), (1, ), 'input')
    buf0 = torch.ops.inductor_ce.linear_ce_fwd.default(primals_2, primals_1, None, primals_3, None, -100, None, False, 0, 128256, 67108864, keep=False)
    buf1 = buf0[0]
    assert_size_stride(buf1, (4096, ), (1, ), 'torch.ops.inductor_ce.linear_ce_fwd.default')
    buf2 = buf0[1]
    assert_size_stride(buf2, (4096, ), (1, ), 'torch.ops.inductor_ce.linear_ce_fwd.default')
    del buf0
    buf5 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf6 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf7 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    cpp_fused_0(primals_3, buf1, buf2, buf5, buf6, buf7)
    return (buf6, primals_1, primals_2, primals_3, buf1, buf5, buf7, )


extern "C"  void  cpp_fused_0(const int64_t* in_ptr0,
                       const float* in_ptr1,
                       const float* in_ptr2,
                       bool* out_ptr0,
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
                        auto tmp0 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp1 = at::vec::Vectorized<float>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp2 = at::vec::Vectorized<float>::loadu(in_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp3 = static_cast<int64_t>(-100);
                        auto tmp4 = at::vec::VectorizedN<int64_t,2>(tmp3);
                        auto tmp5 = at::vec::VecMask<int64_t,2>(tmp0 != tmp4);
                        auto tmp6 = tmp5.to<float,1>();
                        auto tmp7 = static_cast<float>(1.0);
                        auto tmp8 = at::vec::Vectorized<float>(tmp7);
                        auto tmp9 = tmp6 * tmp8;
                        auto tmp10 = static_cast<float>(0.0);
                        auto tmp11 = at::vec::Vectorized<float>(tmp10);
                        auto tmp12 = decltype(tmp1)::blendv(tmp11, tmp1, tmp5.template cast<float,1>());
                        auto tmp13 = decltype(tmp2)::blendv(tmp11, tmp2, tmp5.template cast<float,1>());
                        auto tmp14 = at::vec::maximum(tmp13, tmp11);
                        auto tmp15 = tmp14 * tmp11;
                        auto tmp16 = tmp12 + tmp15;
                        auto tmp17 = tmp16 - tmp13;
                        auto tmp18 = static_cast<float>(20.0);
                        auto tmp19 = at::vec::Vectorized<float>(tmp18);
                        auto tmp20 = at::vec::VecMask<float,1>(tmp17 > tmp19);
                        auto tmp21 = tmp17.exp();
                        auto tmp22 = tmp21.log1p();
                        auto tmp23 = decltype(tmp17)::blendv(tmp22, tmp17, tmp20.template cast<float,1>());
                        auto tmp24 = tmp9 * tmp23;
                        auto tmp25 = decltype(tmp24)::blendv(tmp11, tmp24, tmp5.template cast<float,1>());
                        auto tmp26 = tmp17 * tmp8;
                        tmp5.store(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        tmp25.store(out_ptr1 + static_cast<int64_t>(x0));
                        tmp26.store(out_ptr2 + static_cast<int64_t>(x0));
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
