# backward of linear_cross_entropy(h, w, t, reduction='none')
def call(args):
    primals_1, primals_2, primals_3, getitem, ne, sub_1, tangents_1 = args
    assert_size_stride_grouped((sub_1, ne, tangents_1), ((4096, ), (4096, ), (4096, )), ((1, ), (1, ), (1, )), 'input')
    buf1 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    triton_poi_fused_ce_bwd_0.run(sub_1, ne, tangents_1, buf1, buf2, 4096)
    del ne
    del sub_1
    del tangents_1
    assert_size_stride_grouped((primals_2, primals_1, primals_3, getitem), ((4096, 4096), (128256, 4096), (4096, ), (4096, )), ((4096, 1), (4096, 1), (1, ), (1, )), 'input')
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


@triton_heuristics.pointwise(size_hints={'x': 4096})  # in_ptr0: *fp32, in_ptr1: *i1, in_ptr2: *fp32, out_ptr1: *fp32, out_ptr2: *fp32
@triton.jit
def triton_poi_fused_ce_bwd_0(in_ptr0, in_ptr1, in_ptr2, out_ptr1, out_ptr2, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4096
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None)
    tmp1 = tl.load(in_ptr1 + (x0), None).to(tl.int1)
    tmp2 = tl.load(in_ptr2 + (x0), None)
    tmp3 = libdevice.exp(tmp0)
    tmp4 = tl.full([1], 20.0, tl.float32)
    tmp5 = tmp0 > tmp4
    tmp6 = tl.full([1], 0.0, tl.float32)
    tmp7 = tl.where(tmp1, tmp2, tmp6)
    tmp8 = tmp1.to(tl.float32)
    tmp9 = tmp7 * tmp8
    tmp10 = tmp9 * tmp3
    tmp11 = tl.full([1], 1.0, tl.float32)
    tmp12 = tmp3 + tmp11
    tmp13 = (tmp10 / tmp12)
    tmp14 = tl.where(tmp5, tmp9, tmp13)
    tmp15 = tl.where(tmp1, tmp14, tmp6)
    tmp16 = -tmp14
    tmp17 = tl.where(tmp1, tmp16, tmp6)
    tl.store(out_ptr1 + (x0), tmp15, None)
    tl.store(out_ptr2 + (x0), tmp17, None)
