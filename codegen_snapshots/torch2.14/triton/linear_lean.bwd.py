# backward of linear_cross_entropy(h, w, t, reduction='none', memory_budget=64 MiB)
def call(args):
    primals_1, primals_2, primals_3, getitem, getitem_3, ne, sub_1, tangents_1 = args
    assert_size_stride_grouped((sub_1, ne, tangents_1), ((4096, ), (4096, ), (4096, )), ((1, ), (1, ), (1, )), 'input')
    buf1 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf2 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    triton_poi_fused_0.run(sub_1, ne, tangents_1, buf1, buf2, 4096)
    del ne
    del sub_1
    del tangents_1
    assert_size_stride_grouped((getitem_3, primals_3, primals_1), ((4096, 4096), (4096, ), (128256, 4096)), ((4096, 1), (1, ), (4096, 1)), 'input')
    buf3 = getitem_3; del getitem_3  # reuse
    triton_poi_fused_1.run(buf3, buf2, primals_3, buf1, primals_1, 16777216)
    assert_size_stride_grouped((primals_2, getitem), ((4096, 4096), (4096, )), ((4096, 1), (1, )), 'input')
    buf4 = torch.ops.inductor_ce.linear_ce_bwd.default(primals_2, primals_1, None, primals_3, None, getitem, buf2, buf1, None, -100, None, 0, 67108864, False, True)
    del buf1
    del buf2
    del getitem
    del primals_1
    del primals_2
    del primals_3
    buf6 = buf4[1]
    assert_tensor_metadata(buf6, (128256, 4096), (4096, 1), torch.bfloat16, 'torch.ops.inductor_ce.linear_ce_bwd.default')
    return (buf6, buf3, None, )


@triton_heuristics.pointwise(size_hints={'x': 4096})  # in_ptr0: *fp32, in_ptr1: *i1, in_ptr2: *fp32, out_ptr1: *fp32, out_ptr2: *fp32
@triton.jit
def triton_poi_fused_0(in_ptr0, in_ptr1, in_ptr2, out_ptr1, out_ptr2, xnumel, XBLOCK : tl.constexpr):
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
    tmp15 = -tmp14
    tmp16 = tl.where(tmp1, tmp15, tmp6)
    tmp17 = tl.where(tmp1, tmp14, tmp6)
    tl.store(out_ptr1 + (x0), tmp16, None)
    tl.store(out_ptr2 + (x0), tmp17, None)


@triton_heuristics.pointwise(size_hints={'x': 16777216})  # in_out_ptr0: *bf16, in_ptr0: *fp32, in_ptr1: *i64, in_ptr2: *fp32, in_ptr3: *bf16
@triton.jit
def triton_poi_fused_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, xnumel, XBLOCK : tl.constexpr):
    xnumel = 16777216
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x1 = xindex // 4096
    x2 = xindex
    x0 = (xindex % 4096)
    tmp0 = tl.load(in_ptr0 + (x1), None, eviction_policy='evict_last')
    tmp1 = tl.load(in_out_ptr0 + (x2), None).to(tl.float32)
    tmp2 = tl.load(in_ptr1 + (x1), None, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr2 + (x1), None, eviction_policy='evict_last')
    tmp4 = tmp1.to(tl.float32)
    tmp5 = tmp0 * tmp4
    tmp6 = tl.full([1], -100, tl.int64)
    tmp7 = tmp2 == tmp6
    tmp8 = tl.full([1], -1, tl.int64)
    tmp9 = tl.where(tmp7, tmp8, tmp2)
    tmp10 = tl.full([1], 0, tl.int64)
    tmp11 = tmp9 >= tmp10
    tmp12 = tl.full([1], 128256, tl.int64)
    tmp13 = tmp9 < tmp12
    tmp14 = tmp11 & tmp13
    tmp15 = tl.full([1], 0.0, tl.float32)
    tmp16 = tl.where(tmp14, tmp3, tmp15)
    tmp17 = tl.where(tmp14, tmp9, tmp10)
    tmp18 = (tl.full([XBLOCK], 128256, tl.int32)).to(tl.int32)
    tmp19 = tmp17 + tmp18
    tmp20 = tmp17 < 0
    tmp21 = tl.where(tmp20, tmp19, tmp17)
    tl.device_assert((0 <= tmp21) & (tmp21 < 128256), "index out of bounds: 0 <= tmp21 < 128256")
    tmp22 = tl.load(in_ptr3 + (x0 + 4096*tmp21), None).to(tl.float32)
    tmp23 = tmp22.to(tl.float32)
    tmp24 = tmp16 * tmp23
    tmp25 = tmp5 + tmp24
    tmp26 = tmp25.to(tl.float32)
    tl.store(in_out_ptr0 + (x2), tmp26, None)
