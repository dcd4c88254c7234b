# backward of linear_cross_entropy(h, w, t), h: bf16[4096, 4096], w: bf16[128256, 4096]
def call(args):
    getitem_1, getitem_2, tangents_1 = args
    assert_size_stride_grouped((getitem_1, tangents_1), ((4096, 4096), ()), ((4096, 1), ()), 'input')
    buf0 = getitem_1; del getitem_1  # reuse
    assert_size_stride(getitem_2, (128256, 4096), (4096, 1), 'input')
    buf1 = getitem_2; del getitem_2  # reuse
    cpp_fused_0(buf0, buf1, tangents_1)
    del tangents_1
    return (buf1, buf0, None, )


extern "C"  void  cpp_fused_0(at::BFloat16* in_out_ptr0,
                       at::BFloat16* in_out_ptr1,
                       const float* in_ptr0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(16777216L); x0+=static_cast<int64_t>(16L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(16777216L)))
                    {
                        auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                        auto tmp1 = in_ptr0[static_cast<int64_t>(0L)];
                        auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                        auto tmp3 = static_cast<float>(0.0);
                        auto tmp4 = at::vec::VectorizedN<float,2>(tmp3);
                        auto tmp5 = at::vec::VecMask<float,2>(tmp2 == tmp4);
                        auto tmp6 = c10::convert<float>(tmp1);
                        auto tmp7 = at::vec::VectorizedN<float,2>(tmp6);
                        auto tmp8 = tmp2 * tmp7;
                        auto tmp9 = decltype(tmp2)::blendv(tmp8, tmp2, inductor_vec_mask_cast<float,2>(tmp5));
                        auto tmp10 = at::vec::convert<at::BFloat16,1,float,2>(tmp9);
                        tmp10.store(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(525336576L); x0+=static_cast<int64_t>(16L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(525336576L)))
                    {
                        auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                        auto tmp1 = in_ptr0[static_cast<int64_t>(0L)];
                        auto tmp2 = at::vec::convert<float,2,at::BFloat16,1>(tmp0);
                        auto tmp3 = static_cast<float>(0.0);
                        auto tmp4 = at::vec::VectorizedN<float,2>(tmp3);
                        auto tmp5 = at::vec::VecMask<float,2>(tmp2 == tmp4);
                        auto tmp6 = c10::convert<float>(tmp1);
                        auto tmp7 = at::vec::VectorizedN<float,2>(tmp6);
                        auto tmp8 = tmp2 * tmp7;
                        auto tmp9 = decltype(tmp2)::blendv(tmp8, tmp2, inductor_vec_mask_cast<float,2>(tmp5));
                        auto tmp10 = at::vec::convert<at::BFloat16,1,float,2>(tmp9);
                        tmp10.store(in_out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
