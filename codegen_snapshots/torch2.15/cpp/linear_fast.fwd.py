# forward of linear_cross_entropy(h, w, t), h: bf16[4096, 4096], w: bf16[128256, 4096]
def call(args):
    primals_1, primals_2, primals_3 = args
    assert_size_stride_grouped((primals_2, primals_1, primals_3), ((4096, 4096), (128256, 4096), (4096, )), ((4096, 1), (4096, 1), (1, )), 'input')
    buf0 = torch.ops.inductor_ce.linear_ce_fast.default(primals_2, primals_1, None, primals_3, None, -100, None, 0.0, 0.0, True, 0, temperature=1.0, full=False, input_grad=True, weight_grad=True, options=None)
    del primals_1
    del primals_2
    del primals_3
    buf1 = buf0[0]
    assert_tensor_metadata(buf1, (), (), torch.float32, 'torch.ops.inductor_ce.linear_ce_fast.default')
    buf2 = buf0[1]
    assert_tensor_metadata(buf2, (4096, 4096), (4096, 1), torch.bfloat16, 'torch.ops.inductor_ce.linear_ce_fast.default')
    buf3 = buf0[2]
    assert_tensor_metadata(buf3, (128256, 4096), (4096, 1), torch.bfloat16, 'torch.ops.inductor_ce.linear_ce_fast.default')
    return (buf1, buf2, buf3, )
