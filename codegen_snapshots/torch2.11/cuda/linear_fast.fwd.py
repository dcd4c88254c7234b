# forward of linear_cross_entropy(h, w, t), h: bf16[4096, 4096], w: bf16[128256, 4096]
def call(args):
    primals_1, primals_2, primals_3 = args
    assert_size_stride(primals_1, (4096, 4096), (4096, 1))
    assert_size_stride(primals_2, (128256, 4096), (4096, 1))
    assert_size_stride(primals_3, (4096, ), (1, ))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = torch.ops.inductor_ce.linear_ce_fast.default(primals_1, primals_2, None, primals_3, None, -100, None, 0.0, 0.0, True, 0, temperature=1.0, full=False, input_grad=True, weight_grad=True, options=None)
        del primals_1
        del primals_2
        del primals_3
        buf1 = buf0[0]
        assert_size_stride(buf1, (), (), 'torch.ops.inductor_ce.linear_ce_fast.default')
        assert_alignment(buf1, 16, 'torch.ops.inductor_ce.linear_ce_fast.default')
        buf2 = buf0[1]
        assert_size_stride(buf2, (4096, 4096), (4096, 1), 'torch.ops.inductor_ce.linear_ce_fast.default')
        assert_alignment(buf2, 16, 'torch.ops.inductor_ce.linear_ce_fast.default')
        buf3 = buf0[2]
        assert_size_stride(buf3, (128256, 4096), (4096, 1), 'torch.ops.inductor_ce.linear_ce_fast.default')
        assert_alignment(buf3, 16, 'torch.ops.inductor_ce.linear_ce_fast.default')
        del buf0
    return (buf1, buf2, buf3, )
