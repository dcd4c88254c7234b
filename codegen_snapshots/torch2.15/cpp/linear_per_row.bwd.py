# backward of linear_cross_entropy(h, w, t, reduction='none')
def call(args):
    primals_1, primals_2, primals_3, getitem, ne, sub_1, tangents_1 = args
    assert_size_stride_grouped((sub_1, ne, tangents_1), ((4096, ), (4096, ), (4096, )), ((1, ), (1, ), (1, )), 'input')
    buf1 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    assert_size_stride_grouped((primals_2, primals_1, primals_3, getitem), ((4096, 4096), (128256, 4096), (4096, ), (4096, )), ((4096, 1), (4096, 1), (1, ), (1, )), 'input')
    cpp_fused_ce_bwd_0(sub_1, ne, tangents_1, buf1, buf2)
    del ne
    del sub_1
    del tangents_1
    buf3 = torch.ops.inductor_ce.linear_ce_bwd.default(primals_2, primals_1, None, primals_3, None, getitem, buf1, buf2, None, -100, None, 0, 0, True, True, e=None, temperature=1.0)
    del buf1
    del buf2
    del getitem
    del primals_1
    del primals_2
    del primals_3
    buf4 = buf3[0]
    assert_tensor_metadata(buf4, (4096, 4096), (4096, 1), torch.bfloat16, 'torch.ops.inductor_ce.linear_ce_bwd.default')
    buf5 = buf3[1]
    assert_tensor_metadata(buf5, (128256, 4096), (4096, 1), torch.bfloat16, 'torch.ops.inductor_ce.linear_ce_bwd.default')
    return (buf5, buf4, None, )


extern "C"  void  cpp_fused_ce_bwd_0(const float* in_ptr0,
                       const bool* in_ptr1,
                       const float* in_ptr2,
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
                        auto tmp9 = decltype(tmp2)::blendv(tmp8, tmp2, inductor_vec_mask_cast<float,1>(tmp1));
                        auto tmp10 = tmp1.to<float,1>();
                        auto tmp11 = tmp9 * tmp10;
                        auto tmp12 = tmp11 * tmp3;
                        auto tmp13 = static_cast<float>(1.0);
                        auto tmp14 = at::vec::Vectorized<float>(tmp13);
                        auto tmp15 = tmp3 + tmp14;
                        auto tmp16 = tmp12 / tmp15;
                        auto tmp17 = decltype(tmp11)::blendv(tmp16, tmp11, inductor_vec_mask_cast<float,1>(tmp6));
                        auto tmp18 = decltype(tmp17)::blendv(tmp8, tmp17, inductor_vec_mask_cast<float,1>(tmp1));
                        auto tmp19 = tmp17.neg();
                        auto tmp20 = decltype(tmp19)::blendv(tmp8, tmp19, inductor_vec_mask_cast<float,1>(tmp1));
                        tmp18.store(out_ptr1 + static_cast<int64_t>(x0));
                        tmp20.store(out_ptr2 + static_cast<int64_t>(x0));
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
