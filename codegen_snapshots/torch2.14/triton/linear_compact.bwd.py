# backward of linear_cross_entropy(h, w, t, policy='compact')
def call(args):
    primals_1, primals_2, primals_3, getitem, getitem_3, ne, sub_1, sum_2, tangents_1 = args
    assert_size_stride_grouped((sub_1, ne, tangents_1, sum_2), ((4096, ), (4096, ), (), ()), ((1, ), (1, ), (), ()), 'input')
    buf1 = sub_1; del sub_1  # reuse
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    triton_poi_fused_ce_bwd_0.run(buf1, ne, tangents_1.item(), sum_2.item(), buf3, buf4, 4096)
    del sum_2
    del tangents_1
    assert_size_stride_grouped((getitem_3, primals_3, primals_1), ((4096, 4096), (4096, ), (128256, 4096)), ((4096, 1), (1, ), (4096, 1)), 'input')
    buf2 = getitem_3; del getitem_3  # reuse
    triton_poi_fused_1.run(buf2, ne, buf1, primals_3, primals_1, 16777216)
    del buf1
    del ne
    assert_size_stride_grouped((primals_2, getitem), ((4096, 4096), (4096, )), ((4096, 1), (1, )), 'input')
    buf5 = torch.ops.inductor_ce.linear_ce_bwd.default(primals_2, primals_1, None, primals_3, None, getitem, buf3, buf4, None, -100, None, 0, 0)
    del buf3
    del buf4
    del getitem
    del primals_1
    del primals_2
    del primals_3
    buf6 = buf5[0]
    assert_tensor_metadata(buf6, (128256, 4096), (4096, 1), torch.bfloat16, 'torch.ops.inductor_ce.linear_ce_bwd.default')
    return (buf6, buf2, None, )


@triton_heuristics.pointwise(size_hints={'x': 4096})  # in_out_ptr0: *fp32, in_ptr0: *i1, out_ptr1: *fp32, out_ptr2: *fp32
@triton.jit
def triton_poi_fused_ce_bwd_0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr1, out_ptr2, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4096
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), None)
    tmp1 = tl.load(in_ptr0 + (x0), None).to(tl.int1)
    tmp2 = in_ptr1
    tmp3 = in_ptr2
    tmp4 = libdevice.exp(tmp0)
    tmp5 = tl.full([1], 20.0, tl.float32)
    tmp6 = tmp0 > tmp5
    tmp7 = (tmp2 / tmp3)
    tmp8 = tl.full([1], 0.0, tl.float32)
    tmp9 = tl.where(tmp1, tmp7, tmp8)
    tmp10 = tmp1.to(tl.float32)
    tmp11 = tmp9 * tmp10
    tmp12 = tmp11 * tmp4
    tmp13 = tl.full([1], 1.0, tl.float32)
    tmp14 = tmp4 + tmp13
    tmp15 = (tmp12 / tmp14)
    tmp16 = tl.where(tmp6, tmp11, tmp15)
    tmp17 = tl.where(tmp1, tmp16, tmp8)
    tmp18 = -tmp16
    tmp19 = tl.where(tmp1, tmp18, tmp8)
    tl.store(in_out_ptr0 + (x0), tmp16, None)
    tl.store(out_ptr1 + (x0), tmp17, None)
    tl.store(out_ptr2 + (x0), tmp19, None)


@triton_heuristics.pointwise(size_hints={'x': 16777216})  # in_out_ptr0: *bf16, in_ptr0: *i1, in_ptr1: *fp32, in_ptr2: *i64, in_ptr3: *bf16
@triton.jit
def triton_poi_fused_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, xnumel, XBLOCK : tl.constexpr):
    xnumel = 16777216
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x1 = xindex // 4096
    x2 = xindex
    x0 = (xindex % 4096)
    tmp0 = tl.load(in_ptr0 + (x1), None, eviction_policy='evict_last').to(tl.int1)
    tmp1 = tl.load(in_ptr1 + (x1), None, eviction_policy='evict_last')
    tmp2 = tl.load(in_out_ptr0 + (x2), None).to(tl.float32)
    tmp3 = tl.load(in_ptr2 + (x1), None, eviction_policy='evict_last')
    tmp4 = tl.full([1], 0.0, tl.float32)
    tmp5 = tl.where(tmp0, tmp1, tmp4)
    tmp6 = tmp2.to(tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tl.full([1], -100, tl.int64)
    tmp9 = tmp3 == tmp8
    tmp10 = tl.full([1], -1, tl.int64)
    tmp11 = tl.where(tmp9, tmp10, tmp3)
    tmp12 = tl.full([1], 0, tl.int64)
    tmp13 = tmp11 >= tmp12
    tmp14 = tl.full([1], 128256, tl.int64)
    tmp15 = tmp11 < tmp14
    tmp16 = tmp13 & tmp15
    tmp17 = -tmp1
    tmp18 = tl.where(tmp0, tmp17, tmp4)
    tmp19 = tl.where(tmp16, tmp18, tmp4)
    tmp20 = tl.where(tmp16, tmp11, tmp12)
    tmp21 = (tl.full([XBLOCK], 128256, tl.int32)).to(tl.int32)
    tmp22 = tmp20 + tmp21
    tmp23 = tmp20 < 0
    tmp24 = tl.where(tmp23, tmp22, tmp20)
    tl.device_assert((0 <= tmp24) & (tmp24 < 128256), "index out of bounds: 0 <= tmp24 < 128256")
    tmp25 = tl.load(in_ptr3 + (x0 + 4096*tmp24), None).to(tl.float32)
    tmp26 = tmp25.to(tl.float32)
    tmp27 = tmp19 * tmp26
    tmp28 = tmp7 + tmp27
    tmp29 = tmp28.to(tl.float32)
    tl.store(in_out_ptr0 + (x2), tmp29, None)
