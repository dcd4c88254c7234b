# backward of ce(x, t, return_lse=True)
def call(args):
    primals_1, primals_2, getitem, ne, where_1, sum_2, tangents_1, tangents_2 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1))
    assert_size_stride(primals_2, (4096, ), (1, ))
    assert_size_stride(getitem, (4096, ), (1, ))
    assert_size_stride(ne, (4096, ), (1, ))
    assert_size_stride(where_1, (4096, ), (1, ))
    assert_size_stride(sum_2, (), ())
    assert_size_stride(tangents_1, (), ())
    assert_size_stride(tangents_2, (4096, ), (1, ))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf1 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf2 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        triton_poi_fused_0.run(ne, getitem, where_1, tangents_1, sum_2, tangents_2, buf1, buf2, 4096)
        del ne
        del sum_2
        del tangents_1
        del tangents_2
        del where_1
        buf3 = empty_strided_cuda((4096, 128256), (128256, 1), torch.bfloat16)
        triton_poi_fused_ce_bwd_1.run(primals_1, primals_2, getitem, buf2, buf1, buf3, 4096, 128256)
        del buf1
        del buf2
        del getitem
        del primals_1
        del primals_2
    return (buf3, None, )


@triton_heuristics.pointwise(size_hints={'x': 4096})  # in_ptr0: *i1, in_ptr1: *fp32, in_ptr2: *fp32, in_ptr3: *fp32, in_ptr4: *fp32, in_ptr5: *fp32, out_ptr1: *fp32, out_ptr2: *fp32
@triton.jit
def triton_poi_fused_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, out_ptr2, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4096
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None).to(tl.int1)
    tmp1 = tl.load(in_ptr1 + (x0), None)
    tmp2 = tl.load(in_ptr2 + (x0), None)
    tmp3 = tl.load(in_ptr3 + (0))
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK])
    tmp5 = tl.load(in_ptr4 + (0))
    tmp6 = tl.broadcast_to(tmp5, [XBLOCK])
    tmp7 = tl.load(in_ptr5 + (x0), None)
    tmp8 = tl.full([1], 0.0, tl.float32)
    tmp9 = tl.where(tmp0, tmp1, tmp8)
    tmp10 = triton_helpers.maximum(tmp2, tmp8)
    tmp11 = tmp10 * tmp8
    tmp12 = tmp9 + tmp11
    tmp13 = tmp12 - tmp2
    tmp14 = tl.full([1], 1.0, tl.float32)
    tmp15 = tmp13 * tmp14
    tmp16 = tl.full([1], 20.0, tl.float32)
    tmp17 = tmp15 > tmp16
    tmp18 = (tmp4 / tmp6)
    tmp19 = tl.where(tmp0, tmp18, tmp8)
    tmp20 = tmp0.to(tl.float32)
    tmp21 = tmp20 * tmp14
    tmp22 = tmp19 * tmp21
    tmp23 = libdevice.exp(tmp15)
    tmp24 = tmp22 * tmp23
    tmp25 = tmp23 + tmp14
    tmp26 = (tmp24 / tmp25)
    tmp27 = tl.where(tmp17, tmp22, tmp26)
    tmp28 = tl.where(tmp0, tmp8, tmp7)
    tmp29 = tl.where(tmp0, tmp7, tmp8)
    tmp30 = tmp2 - tmp12
    tmp31 = libdevice.exp(tmp30)
    tmp32 = tmp31 + tmp14
    tmp33 = (tmp29 / tmp32)
    tmp34 = tmp27 + tmp33
    tmp35 = tl.where(tmp0, tmp34, tmp8)
    tmp36 = tmp28 + tmp35
    tmp37 = -tmp27
    tmp38 = libdevice.exp(tmp13)
    tmp39 = tmp38 + tmp14
    tmp40 = (tmp29 / tmp39)
    tmp41 = tmp37 + tmp40
    tmp42 = tl.where(tmp0, tmp41, tmp8)
    tl.store(out_ptr1 + (x0), tmp36, None)
    tl.store(out_ptr2 + (x0), tmp42, None)


@triton_heuristics.pointwise(size_hints={'y': 4096, 'x': 131072}, tile_hint=TileHint.DEFAULT)  # in_ptr0: *bf16, in_ptr1: *i64, in_ptr2: *fp32, in_ptr3: *fp32, in_ptr4: *fp32, out_ptr0: *bf16
@triton.jit
def triton_poi_fused_ce_bwd_1(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 4096
    xnumel = 128256
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (x1 + 128256*y0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (y0), None, eviction_policy='evict_last')
    tmp2 = tl.load(in_ptr2 + (y0), None, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr3 + (y0), None, eviction_policy='evict_last')
    tmp4 = tl.load(in_ptr4 + (y0), None, eviction_policy='evict_last')
    tmp5 = tmp0.to(tl.float32)
    tmp6 = tmp1.to(tl.int64)
    tmp7 = tl.full([1, 1], -100, tl.int64)
    tmp8 = tmp6 != tmp7
    tmp9 = tl.full([1, 1], 0, tl.int64)
    tmp10 = tmp6 >= tmp9
    tmp11 = tl.full([1, 1], 128256, tl.int64)
    tmp12 = tmp6 < tmp11
    tmp13 = tmp10 & tmp12
    tmp14 = tmp8 & tmp13
    tmp15 = tmp6.to(tl.int32)
    tmp16 = tl.full([1, 1], -1, tl.int32)
    tmp17 = tl.where(tmp14, tmp15, tmp16)
    tmp18 = x1
    tmp19 = tmp18 == tmp17
    tmp20 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp21 = tmp2 == tmp20
    tmp22 = tl.full([1, 1], 0.0, tl.float32)
    tmp23 = tl.where(tmp21, tmp22, tmp2)
    tmp24 = tmp5 - tmp23
    tmp25 = tl.full([1, 1], 1.4426950408889634, tl.float32)
    tmp26 = tmp24 * tmp25
    tmp27 = libdevice.exp2(tmp26)
    tmp28 = tmp4 * tmp27
    tmp29 = tl.where(tmp19, tmp3, tmp28)
    tmp30 = tmp29.to(tl.float32)
    tl.store(out_ptr0 + (x1 + 128256*y0), tmp30, xmask)
