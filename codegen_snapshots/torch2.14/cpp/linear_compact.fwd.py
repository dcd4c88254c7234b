# forward of linear_cross_entropy(h, w, t, policy='compact')
def call(args):
    primals_1, primals_2, primals_3 = args
    assert_size_stride_grouped((primals_2, primals_1, primals_3), ((4096, 4096), (128256, 4096), (4096, )), ((4096, 1), (4096, 1), (1, )), 'input')
    buf0 = torch.ops.inductor_ce.linear_ce_fwd.default(primals_2, primals_1, None, primals_3, None, -100, None, False, 0, 128256, 0, True)
    buf1 = buf0[0]
    assert_tensor_metadata(buf1, (4096, ), (1, ), torch.float32, 'torch.ops.inductor_ce.linear_ce_fwd.default')
    buf2 = buf0[1]
    assert_tensor_metadata(buf2, (4096, ), (1, ), torch.float32, 'torch.ops.inductor_ce.linear_ce_fwd.default')
    buf4 = buf0[3]
    assert_tensor_metadata(buf4, (4096, 4096), (4096, 1), torch.bfloat16, 'torch.ops.inductor_ce.linear_ce_fwd.default')
    del buf0
    buf6 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf7 = buf2; del buf2  # reuse
    buf8 = empty_strided_cpu((), (), torch.float32)
    buf9 = empty_strided_cpu((), (), torch.float32)
    buf10 = buf8; del buf8  # reuse
    cpp_fused_0(buf7, buf10, primals_3, buf1, buf6, buf9)
    return (buf10, primals_1, primals_2, primals_3, buf1, buf4, buf6, buf7, buf9, )


extern "C"  void  cpp_fused_0(float* in_out_ptr0,
                       float* in_out_ptr1,
                       const int64_t* in_ptr0,
                       const float* in_ptr1,
                       bool* out_ptr0,
                       float* out_ptr2)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr1 = in_out_ptr1;
    {
        {
            float tmp_acc0 = 0;
            at::vec::Vectorized<float> tmp_acc0_vec = at::vec::Vectorized<float>(0);
            float tmp_acc1 = 0;
            at::vec::Vectorized<float> tmp_acc1_vec = at::vec::Vectorized<float>(0);
            int max_threads = omp_get_max_threads();
            at::vec::Vectorized<float> tmp_acc0_vec_arr[max_threads];
            for (int i = 0; i < max_threads; i++)
            {
                tmp_acc0_vec_arr[i] = at::vec::Vectorized<float>(0);
            }
            float tmp_acc0_arr[max_threads];
            for (int i = 0; i < max_threads; i++)
            {
                tmp_acc0_arr[i] = 0;
            }
            at::vec::Vectorized<float> tmp_acc1_vec_arr[max_threads];
            for (int i = 0; i < max_threads; i++)
            {
                tmp_acc1_vec_arr[i] = at::vec::Vectorized<float>(0);
            }
            float tmp_acc1_arr[max_threads];
            for (int i = 0; i < max_threads; i++)
            {
                tmp_acc1_arr[i] = 0;
            }
            #pragma omp parallel
            {
                int tid = omp_get_thread_num();
                at::vec::Vectorized<float> tmp_acc0_vec_local = at::vec::Vectorized<float>(0);
                float tmp_acc0_local = 0;
                at::vec::Vectorized<float> tmp_acc1_vec_local = at::vec::Vectorized<float>(0);
                float tmp_acc1_local = 0;
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
                            auto tmp8 = decltype(tmp1)::blendv(tmp7, tmp1, tmp5.template cast<float,1>());
                            auto tmp9 = decltype(tmp2)::blendv(tmp7, tmp2, tmp5.template cast<float,1>());
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
                            auto tmp20 = decltype(tmp13)::blendv(tmp19, tmp13, tmp17.template cast<float,1>());
                            auto tmp21 = tmp14 * tmp20;
                            auto tmp22 = decltype(tmp21)::blendv(tmp7, tmp21, tmp5.template cast<float,1>());
                            tmp5.store(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));
                            tmp13.store(in_out_ptr0 + static_cast<int64_t>(x0));
                            tmp_acc0_vec_local = tmp_acc0_vec_local + tmp22;
                            tmp_acc1_vec_local = tmp_acc1_vec_local + tmp14;
                        }
                    }
                }
                tmp_acc0_vec_arr[tid] = tmp_acc0_vec_local;
                tmp_acc0_arr[tid] = tmp_acc0_local;
                tmp_acc1_vec_arr[tid] = tmp_acc1_vec_local;
                tmp_acc1_arr[tid] = tmp_acc1_local;
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc0_vec = tmp_acc0_vec + tmp_acc0_vec_arr[tid];
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc0 = tmp_acc0 + tmp_acc0_arr[tid];
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc1_vec = tmp_acc1_vec + tmp_acc1_vec_arr[tid];
            }
            for (int tid = 0; tid < max_threads; tid++)
            {
                tmp_acc1 = tmp_acc1 + tmp_acc1_arr[tid];
            }
            tmp_acc0 = tmp_acc0 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc0_vec);
            out_ptr1[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc0);
            tmp_acc1 = tmp_acc1 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc1_vec);
            out_ptr2[static_cast<int64_t>(0L)] = static_cast<float>(tmp_acc1);
        }
    }
    {
        {
            {
                auto tmp0 = out_ptr1[static_cast<int64_t>(0L)];
                auto tmp3 = out_ptr2[static_cast<int64_t>(0L)];
                auto tmp4 = tmp0 / tmp3;
                in_out_ptr1[static_cast<int64_t>(0L)] = tmp4;
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
