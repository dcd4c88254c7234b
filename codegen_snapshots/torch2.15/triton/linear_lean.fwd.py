# forward of linear_cross_entropy(h, w, t, reduction='none', memory_budget=64 MiB)
def call(args):
    primals_1, primals_2, primals_3 = args
    assert_size_stride_grouped((primals_2, primals_1, primals_3), ((4096, 4096), (128256, 4096), (4096, )), ((4096, 1), (4096, 1), (1, )), 'input')
    buf0 = torch.ops.inductor_ce.linear_ce_fwd.default(primals_2, primals_1, None, primals_3, None, -100, None, False, 0, 128256, 67108864, keep=False)
    buf1 = buf0[0]
    assert_tensor_metadata(buf1, (4096, ), (1, ), torch.float32, 'torch.ops.inductor_ce.linear_ce_fwd.default')
    buf2 = buf0[1]
    assert_tensor_metadata(buf2, (4096, ), (1, ), torch.float32, 'torch.ops.inductor_ce.linear_ce_fwd.default')
    del buf0
    buf5 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf6 = buf2; del buf2  # reuse
    buf7 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    triton_poi_fused_0.run(buf6, primals_3, buf1, buf5, buf7, 4096)
    return (buf7, primals_1, primals_2, primals_3, buf1, buf5, buf6, )


@triton_heuristics.pointwise(size_hints={'x': 4096})  # in_out_ptr0: *fp32, in_ptr0: *i64, in_ptr1: *fp32, out_ptr0: *i1, out_ptr1: *fp32
@triton.jit
def triton_poi_fused_0(in_out_ptr0, in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4096
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None)
    tmp1 = tl.load(in_ptr1 + (x0), None)
    tmp2 = tl.load(in_out_ptr0 + (x0), None)
    tmp3 = tl.full([1], -100, tl.int64)
    tmp4 = tmp0 != tmp3
    tmp5 = tl.full([1], 0.0, tl.float32)
    tmp6 = tl.where(tmp4, tmp1, tmp5)
    tmp7 = tl.where(tmp4, tmp2, tmp5)
    tmp8 = tl.maximum(tmp7, tmp5, tl.PropagateNan.ALL)
    tmp9 = tmp8 * tmp5
    tmp10 = tmp6 + tmp9
    tmp11 = tmp10 - tmp7
    tmp12 = tmp4.to(tl.float32)
    tmp13 = tl.full([1], 20.0, tl.float32)
    tmp14 = tmp11 > tmp13
    tmp15 = libdevice.exp(tmp11)
    tmp16 = libdevice.log1p(tmp15)
    tmp17 = tl.where(tmp14, tmp11, tmp16)
    tmp18 = tmp12 * tmp17
    tmp19 = tl.where(tmp4, tmp18, tmp5)
    tl.store(out_ptr0 + (x0), tmp4, None)
    tl.store(in_out_ptr0 + (x0), tmp11, None)
    tl.store(out_ptr1 + (x0), tmp19, None)
