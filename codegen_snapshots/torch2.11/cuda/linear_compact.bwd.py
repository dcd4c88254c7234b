# backward of linear_cross_entropy(h, w, t, policy='compact')
def call(args):
    primals_1, primals_2, primals_3, getitem, getitem_3, ne, sum_2, mul_5, tangents_1 = args
    assert_size_stride(primals_1, (4096, 4096), (4096, 1))
    assert_size_stride(primals_2, (128256, 4096), (4096, 1))
    assert_size_stride(primals_3, (4096, ), (1, ))
    assert_size_stride(getitem, (4096, ), (1, ))
    assert_size_stride(getitem_3, (4096, 4096), (4096, 1))
    assert_size_stride(ne, (4096, ), (1, ))
    assert_size_stride(sum_2, (), ())
    assert_size_stride(mul_5, (4096, ), (1, ))
    assert_size_stride(tangents_1, (), ())
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf3 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf4 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        triton_poi_fused_ce_bwd_0.run(primals_3, ne, mul_5, tangents_1, sum_2, buf0, buf3, buf4, 4096)
        buf2 = empty_strided_cuda((4096, 4096), (4096, 1), torch.bfloat16)
        triton_poi_fused_1.run(ne, mul_5, tangents_1, sum_2, getitem_3, buf0, primals_3, primals_2, buf2, 16777216)
        del buf0
        del getitem_3
        del mul_5
        del ne
        del sum_2
        del tangents_1
        buf5 = torch.ops.inductor_ce.linear_ce_bwd.default(primals_1, primals_2, None, primals_3, None, getitem, buf3, buf4, None, -100, None, 0, 0)
        del buf3
        del buf4
        del getitem
        del primals_1
        del primals_2
        del primals_3
        buf6 = buf5[0]
        assert_size_stride(buf6, (128256, 4096), (4096, 1), 'torch.ops.inductor_ce.linear_ce_bwd.default')
        assert_alignment(buf6, 16, 'torch.ops.inductor_ce.linear_ce_bwd.default')
        del buf5
    return (buf2, buf6, None, )


@triton_heuristics.pointwise(size_hints={'x': 4096})  # in_ptr0: *i64, in_ptr1: *i1, in_ptr2: *fp32, in_ptr3: *fp32, in_ptr4: *fp32, out_ptr0: *fp32, out_ptr1: *fp32, out_ptr2: *fp32
@triton.jit
def triton_poi_fused_ce_bwd_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0, out_ptr1, out_ptr2, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4096
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None)
    tmp1 = tl.load(in_ptr1 + (x0), None).to(tl.int1)
    tmp2 = tl.load(in_ptr2 + (x0), None)
    tmp3 = tl.load(in_ptr3 + (0))
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK])
    tmp5 = tl.load(in_ptr4 + (0))
    tmp6 = tl.broadcast_to(tmp5, [XBLOCK])
    tmp7 = tl.full([1], -100, tl.int64)
    tmp8 = tmp0 == tmp7
    tmp9 = tl.full([1], 0, tl.int64)
    tmp10 = tmp0 - tmp9
    tmp11 = tl.full([1], -1, tl.int64)
    tmp12 = tl.where(tmp8, tmp11, tmp10)
    tmp13 = tmp12 >= tmp9
    tmp14 = tl.full([1], 128256, tl.int64)
    tmp15 = tmp12 < tmp14
    tmp16 = tmp13 & tmp15
    tmp17 = tl.full([1], 20.0, tl.float32)
    tmp18 = tmp2 > tmp17
    tmp19 = (tmp4 / tmp6)
    tmp20 = tl.full([1], 0.0, tl.float32)
    tmp21 = tl.where(tmp1, tmp19, tmp20)
    tmp22 = tmp1.to(tl.float32)
    tmp23 = tl.full([1], 1.0, tl.float32)
    tmp24 = tmp22 * tmp23
    tmp25 = tmp21 * tmp24
    tmp26 = libdevice.exp(tmp2)
    tmp27 = tmp25 * tmp26
    tmp28 = tmp26 + tmp23
    tmp29 = (tmp27 / tmp28)
    tmp30 = tl.where(tmp18, tmp25, tmp29)
    tmp31 = -tmp30
    tmp32 = tl.where(tmp1, tmp31, tmp20)
    tmp33 = tmp32 * tmp23
    tmp34 = tl.where(tmp16, tmp33, tmp20)
    tmp35 = tl.where(tmp1, tmp30, tmp20)
    tl.store(out_ptr0 + (x0), tmp34, None)
    tl.store(out_ptr1 + (x0), tmp35, None)
    tl.store(out_ptr2 + (x0), tmp32, None)


@triton_heuristics.pointwise(size_hints={'x': 16777216})  # in_ptr0: *i1, in_ptr1: *fp32, in_ptr2: *fp32, in_ptr3: *fp32, in_ptr4: *bf16, in_ptr5: *fp32, in_ptr6: *i64, in_ptr7: *bf16, out_ptr1: *bf16
@triton.jit
def triton_poi_fused_1(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 16777216
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x1 = xindex // 4096
    x2 = xindex
    x0 = (xindex % 4096)
    tmp0 = tl.load(in_ptr0 + (x1), None, eviction_policy='evict_last').to(tl.int1)
    tmp1 = tl.load(in_ptr1 + (x1), None, eviction_policy='evict_last')
    tmp2 = tl.load(in_ptr2 + (0))
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK])
    tmp4 = tl.load(in_ptr3 + (0))
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK])
    tmp6 = tl.load(in_ptr4 + (x2), None).to(tl.float32)
    tmp7 = tl.load(in_ptr5 + (x1), None, eviction_policy='evict_last')
    tmp8 = tl.load(in_ptr6 + (x1), None, eviction_policy='evict_last')
    tmp9 = tl.full([1], 20.0, tl.float32)
    tmp10 = tmp1 > tmp9
    tmp11 = (tmp3 / tmp5)
    tmp12 = tl.full([1], 0.0, tl.float32)
    tmp13 = tl.where(tmp0, tmp11, tmp12)
    tmp14 = tmp0.to(tl.float32)
    tmp15 = tl.full([1], 1.0, tl.float32)
    tmp16 = tmp14 * tmp15
    tmp17 = tmp13 * tmp16
    tmp18 = libdevice.exp(tmp1)
    tmp19 = tmp17 * tmp18
    tmp20 = tmp18 + tmp15
    tmp21 = (tmp19 / tmp20)
    tmp22 = tl.where(tmp10, tmp17, tmp21)
    tmp23 = tl.where(tmp0, tmp22, tmp12)
    tmp24 = tmp6.to(tl.float32)
    tmp25 = tmp23 * tmp24
    tmp26 = tl.full([1], -100, tl.int64)
    tmp27 = tmp8 == tmp26
    tmp28 = tl.full([1], 0, tl.int64)
    tmp29 = tmp8 - tmp28
    tmp30 = tl.full([1], -1, tl.int64)
    tmp31 = tl.where(tmp27, tmp30, tmp29)
    tmp32 = tmp31 >= tmp28
    tmp33 = tl.full([1], 128256, tl.int64)
    tmp34 = tmp31 < tmp33
    tmp35 = tmp32 & tmp34
    tmp36 = tl.where(tmp35, tmp31, tmp28)
    tmp37 = tl.full([XBLOCK], 128256, tl.int32)
    tmp38 = tmp36 + tmp37
    tmp39 = tmp36 < 0
    tmp40 = tl.where(tmp39, tmp38, tmp36)
    tl.device_assert((0 <= tmp40) & (tmp40 < 128256), "index out of bounds: 0 <= tmp40 < 128256")
    tmp41 = tl.load(in_ptr7 + (x0 + 4096*tmp40), None).to(tl.float32)
    tmp42 = tmp41.to(tl.float32)
    tmp43 = tmp7 * tmp42
    tmp44 = tmp25 + tmp43
    tmp45 = tmp44.to(tl.float32)
    tl.store(out_ptr1 + (x2), tmp45, None)
