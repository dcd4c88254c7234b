# backward of linear_cross_entropy(h, w, t, reduction='none')
def call(args):
    primals_1, primals_2, primals_3, getitem, ne, mul_5, tangents_1 = args
    assert_size_stride(primals_1, (4096, 4096), (4096, 1))
    assert_size_stride(primals_2, (128256, 4096), (4096, 1))
    assert_size_stride(primals_3, (4096, ), (1, ))
    assert_size_stride(getitem, (4096, ), (1, ))
    assert_size_stride(ne, (4096, ), (1, ))
    assert_size_stride(mul_5, (4096, ), (1, ))
    assert_size_stride(tangents_1, (4096, ), (1, ))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf1 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        triton_poi_fused_ce_bwd_0.run(ne, mul_5, tangents_1, buf0, buf1, 4096)
        del mul_5
        del ne
        del tangents_1
        buf2 = torch.ops.inductor_ce.linear_ce_bwd.default(primals_1, primals_2, None, primals_3, None, getitem, buf0, buf1, None, -100, None, 0, 0, True, True, e=None, temperature=1.0)
        del buf0
        del buf1
        del getitem
        del primals_1
        del primals_2
        del primals_3
        buf3 = buf2[0]
        assert_size_stride(buf3, (4096, 4096), (4096, 1), 'torch.ops.inductor_ce.linear_ce_bwd.default')
        assert_alignment(buf3, 16, 'torch.ops.inductor_ce.linear_ce_bwd.default')
        buf4 = buf2[1]
        assert_size_stride(buf4, (128256, 4096), (4096, 1), 'torch.ops.inductor_ce.linear_ce_bwd.default')
        assert_alignment(buf4, 16, 'torch.ops.inductor_ce.linear_ce_bwd.default')
        del buf2
    return (buf3, buf4, None, )


@triton_heuristics.pointwise(size_hints={'x': 4096})  # in_ptr0: *i1, in_ptr1: *fp32, in_ptr2: *fp32, out_ptr0: *fp32, out_ptr1: *fp32
@triton.jit
def triton_poi_fused_ce_bwd_0(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4096
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None).to(tl.int1)
    tmp1 = tl.load(in_ptr1 + (x0), None)
    tmp2 = tl.load(in_ptr2 + (x0), None)
    tmp3 = tl.full([1], 20.0, tl.float32)
    tmp4 = tmp1 > tmp3
    tmp5 = tl.full([1], 0.0, tl.float32)
    tmp6 = tl.where(tmp0, tmp2, tmp5)
    tmp7 = tmp0.to(tl.float32)
    tmp8 = tl.full([1], 1.0, tl.float32)
    tmp9 = tmp7 * tmp8
    tmp10 = tmp6 * tmp9
    tmp11 = libdevice.exp(tmp1)
    tmp12 = tmp10 * tmp11
    tmp13 = tmp11 + tmp8
    tmp14 = (tmp12 / tmp13)
    tmp15 = tl.where(tmp4, tmp10, tmp14)
    tmp16 = tl.where(tmp0, tmp15, tmp5)
    tmp17 = -tmp15
    tmp18 = tl.where(tmp0, tmp17, tmp5)
    tl.store(out_ptr0 + (x0), tmp16, None)
    tl.store(out_ptr1 + (x0), tmp18, None)
