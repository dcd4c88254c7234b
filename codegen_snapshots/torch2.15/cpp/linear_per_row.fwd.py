# forward of linear_cross_entropy(h, w, t, reduction='none')
def call(args):
    primals_1, primals_2, primals_3 = args
    assert_size_stride_grouped((primals_2, primals_1, primals_3), ((4096, 4096), (128256, 4096), (4096, )), ((4096, 1), (4096, 1), (1, )), 'input')
    buf0 = torch.ops.inductor_ce.linear_ce_fwd.default(primals_2, primals_1, None, primals_3, None, -100, None, False, 0, 128256, 0, keep=False)
    buf1 = buf0[0]
    assert_tensor_metadata(buf1, (4096, ), (1, ), torch.float32, 'torch.ops.inductor_ce.linear_ce_fwd.default')
    buf2 = buf0[1]
    assert_tensor_metadata(buf2, (4096, ), (1, ), torch.float32, 'torch.ops.inductor_ce.linear_ce_fwd.default')
    del buf0
    buf5 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf6 = buf2; del buf2  # reuse
    buf7 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    cpp_fused_0(buf6, primals_3, buf1, buf5, buf7)
    return (buf7, primals_1, primals_2, primals_3, buf1, buf5, buf6, )


extern "C"  void  cpp_fused_0(float* in_out_ptr0,
                       const int64_t* in_ptr0,
                       const float* in_ptr1,
                       bool* out_ptr0,
                       float* out_ptr1)
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
                        auto tmp2 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        auto tmp3 = static_cast<int64_t>(-100);
                        auto tmp4 = at::vec::VectorizedN<int64_t,2>(tmp3);
                        auto tmp5 = at::vec::VecMask<int64_t,2>(tmp0 != tmp4);
                        auto tmp6 = static_cast<float>(0.0);
                        auto tmp7 = at::vec::Vectorized<float>(tmp6);
                        auto tmp8 = decltype(tmp1)::blendv(tmp7, tmp1, inductor_vec_mask_cast<float,1>(tmp5));
                        auto tmp9 = decltype(tmp2)::blendv(tmp7, tmp2, inductor_vec_mask_cast<float,1>(tmp5));
                        auto tmp10 = at::vec::maximum(tmp9, tmp7);
                        auto tmp11 = tmp10 * tmp7;
                        auto tmp12 = tmp8 + tmp11;
                        auto tmp13 = tmp12 - tmp9;
                        auto tmp14 = tmp5.to<float,1>();
                        auto tmp15 = static_cast<float>(20.0);
                        auto tmp16 = at::vec::Vectorized<float>(tmp15);
                        auto tmp17 = at::vec::VecMask<float,1>(tmp13 > tmp16);
                        auto tmp18 = tmp13.exp();
                        auto tmp19 = tmp18.log1p();
                        auto tmp20 = decltype(tmp13)::blendv(tmp19, tmp13, inductor_vec_mask_cast<float,1>(tmp17));
                        auto tmp21 = tmp14 * tmp20;
                        auto tmp22 = decltype(tmp21)::blendv(tmp7, tmp21, inductor_vec_mask_cast<float,1>(tmp5));
                        tmp5.store(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                        tmp13.store(in_out_ptr0 + static_cast<int64_t>(x0));
                        tmp22.store(out_ptr1 + static_cast<int64_t>(x0));
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
