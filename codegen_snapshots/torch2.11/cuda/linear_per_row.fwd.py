# forward of linear_cross_entropy(h, w, t, reduction='none')
def call(args):
    primals_1, primals_2, primals_3 = args
    assert_size_stride(primals_1, (4096, 4096), (4096, 1))
    assert_size_stride(primals_2, (128256, 4096), (4096, 1))
    assert_size_stride(primals_3, (4096, ), (1, ))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = torch.ops.inductor_ce.linear_ce_fwd.default(primals_1, primals_2, None, primals_3, None, -100, None, False, 0, 128256, 0, keep=False)
        buf1 = buf0[0]
        assert_size_stride(buf1, (4096, ), (1, ), 'torch.ops.inductor_ce.linear_ce_fwd.default')
        assert_alignment(buf1, 16, 'torch.ops.inductor_ce.linear_ce_fwd.default')
        buf2 = buf0[1]
        assert_size_stride(buf2, (4096, ), (1, ), 'torch.ops.inductor_ce.linear_ce_fwd.default')
        assert_alignment(buf2, 16, 'torch.ops.inductor_ce.linear_ce_fwd.default')
        del buf0
        buf5 = empty_strided_cuda((4096, ), (1, ), torch.bool)
        buf6 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf7 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        triton_poi_fused_0.run(primals_3, buf1, buf2, buf5, buf6, buf7, 4096)
        del buf2
    return (buf6, primals_1, primals_2, primals_3, buf1, buf5, buf7, )


@triton_heuristics.pointwise(size_hints={'x': 4096})  # in_ptr0: *i64, in_ptr1: *fp32, in_ptr2: *fp32, out_ptr0: *i1, out_ptr1: *fp32, out_ptr2: *fp32
@triton.jit
def triton_poi_fused_0(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4096
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None)
    tmp1 = tl.load(in_ptr1 + (x0), None)
    tmp2 = tl.load(in_ptr2 + (x0), None)
    tmp3 = tl.full([1], -100, tl.int64)
    tmp4 = tmp0 != tmp3
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tl.full([1], 1.0, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tl.full([1], 0.0, tl.float32)
    tmp9 = tl.where(tmp4, tmp1, tmp8)
    tmp10 = tl.where(tmp4, tmp2, tmp8)
    tmp11 = triton_helpers.maximum(tmp10, tmp8)
    tmp12 = tmp11 * tmp8
    tmp13 = tmp9 + tmp12
    tmp14 = tmp13 - tmp10
    tmp15 = tl.full([1], 20.0, tl.float32)
    tmp16 = tmp14 > tmp15
    tmp17 = libdevice.exp(tmp14)
    tmp18 = libdevice.log1p(tmp17)
    tmp19 = tl.where(tmp16, tmp14, tmp18)
    tmp20 = tmp7 * tmp19
    tmp21 = tl.where(tmp4, tmp20, tmp8)
    tmp22 = tmp14 * tmp6
    tl.store(out_ptr0 + (x0), tmp4, None)
    tl.store(out_ptr1 + (x0), tmp21, None)
    tl.store(out_ptr2 + (x0), tmp22, None)
