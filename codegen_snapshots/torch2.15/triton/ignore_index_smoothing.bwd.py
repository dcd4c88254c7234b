# backward of ce(x, t, ignore_index=0, label_smoothing=0.1)
def call(args):
    primals_1, primals_2, getitem, ne, where_1, sum_2, tangents_1 = args
    assert_size_stride_grouped((ne, getitem, where_1, tangents_1, sum_2), ((4096, ), (4096, ), (4096, ), (), ()), ((1, ), (1, ), (1, ), (), ()), 'input')
    buf0 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf2 = where_1; del where_1  # reuse
    buf3 = buf0; del buf0  # reuse
    buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    triton_poi_fused_0.run(buf2, buf3, ne, getitem, tangents_1.item(), sum_2.item(), buf4, 4096)
    del ne
    del sum_2
    del tangents_1
    assert_size_stride_grouped((primals_1, primals_2), ((4096, 128256), (4096, )), ((128256, 1), (1, )), 'input')
    buf5 = empty_strided_cpu((4096, 128256), (128256, 1), torch.bfloat16)
    triton_poi_fused_ce_bwd_1.run(primals_1, primals_2, getitem, buf3, buf2, buf4, buf5, 4096, 128256)
    del buf2
    del buf3
    del buf4
    del getitem
    del primals_1
    del primals_2
    return (buf5, None, )


@triton_heuristics.pointwise(size_hints={'x': 4096})  # in_out_ptr0: *fp32, in_out_ptr1: *fp32, in_ptr0: *i1, in_ptr1: *fp32, out_ptr1: *fp32
@triton.jit
def triton_poi_fused_0(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4096
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None).to(tl.int1)
    tmp1 = tl.load(in_ptr1 + (x0), None)
    tmp2 = tl.load(in_out_ptr0 + (x0), None)
    tmp3 = in_ptr2
    tmp4 = in_ptr3
    tmp5 = tl.full([1], 0.0, tl.float32)
    tmp6 = tl.where(tmp0, tmp1, tmp5)
    tmp7 = tl.maximum(tmp2, tmp5, tl.PropagateNan.ALL)
    tmp8 = tmp7 * tmp5
    tmp9 = tmp6 + tmp8
    tmp10 = tmp9 - tmp2
    tmp11 = libdevice.exp(tmp10)
    tmp12 = tl.full([1], 20.0, tl.float32)
    tmp13 = tmp10 > tmp12
    tmp14 = (tmp3 / tmp4)
    tmp15 = tl.where(tmp0, tmp14, tmp5)
    tmp16 = tmp0.to(tl.float32)
    tmp17 = tl.full([1], 0.9, tl.float32)
    tmp18 = tmp16 * tmp17
    tmp19 = tmp15 * tmp18
    tmp20 = tmp19 * tmp11
    tmp21 = tl.full([1], 1.0, tl.float32)
    tmp22 = tmp11 + tmp21
    tmp23 = (tmp20 / tmp22)
    tmp24 = tl.where(tmp13, tmp19, tmp23)
    tmp25 = tl.full([1], 7.796906187624751e-07, tl.float32)
    tmp26 = tmp15 * tmp25
    tmp27 = tl.full([1], 128256.0, tl.float32)
    tmp28 = tmp26 * tmp27
    tmp29 = tmp2 - tmp9
    tmp30 = libdevice.exp(tmp29)
    tmp31 = tmp30 + tmp21
    tmp32 = (tmp28 / tmp31)
    tmp33 = tmp24 + tmp32
    tmp34 = tl.where(tmp0, tmp33, tmp5)
    tmp35 = -tmp24
    tmp36 = (tmp28 / tmp22)
    tmp37 = tmp35 + tmp36
    tmp38 = tl.where(tmp0, tmp37, tmp5)
    tmp39 = -tmp26
    tmp40 = tl.where(tmp0, tmp39, tmp5)
    tl.store(in_out_ptr0 + (x0), tmp34, None)
    tl.store(in_out_ptr1 + (x0), tmp38, None)
    tl.store(out_ptr1 + (x0), tmp40, None)


@triton_heuristics.pointwise(size_hints={'y': 4096, 'x': 131072}, tile_hint=TileHint.DEFAULT)  # in_ptr0: *bf16, in_ptr1: *i64, in_ptr2: *fp32, in_ptr3: *fp32, in_ptr4: *fp32, in_ptr5: *fp32, out_ptr0: *bf16
@triton.jit
def triton_poi_fused_ce_bwd_1(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
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
    tmp0 = tl.load(in_ptr0 + (x1 + 128256*y0), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (y0), None, eviction_policy='evict_last')
    tmp2 = tl.load(in_ptr2 + (y0), None, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr3 + (y0), None, eviction_policy='evict_last')
    tmp4 = tl.load(in_ptr4 + (y0), None, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr5 + (y0), None, eviction_policy='evict_last')
    tmp6 = tmp0.to(tl.float32)
    tmp7 = tmp1.to(tl.int64)
    tmp8 = tl.full([1, 1], 0, tl.int64)
    tmp9 = tmp7 != tmp8
    tmp10 = tmp7 >= tmp8
    tmp11 = tl.full([1, 1], 128256, tl.int64)
    tmp12 = tmp7 < tmp11
    tmp13 = tmp10 & tmp12
    tmp14 = tmp9 & tmp13
    tmp15 = tmp7.to(tl.int32)
    tmp16 = tl.full([1, 1], -1, tl.int32)
    tmp17 = tl.where(tmp14, tmp15, tmp16)
    tmp18 = (x1).to(tl.int32)
    tmp19 = tmp18 == tmp17
    tmp20 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp21 = tmp2 == tmp20
    tmp22 = tl.full([1, 1], 0.0, tl.float32)
    tmp23 = tl.where(tmp21, tmp22, tmp2)
    tmp24 = tmp6 - tmp23
    tmp25 = tl.full([1, 1], 1.4426950408889634, tl.float32)
    tmp26 = tmp24 * tmp25
    tmp27 = libdevice.exp2(tmp26)
    tmp28 = tmp4 * tmp27
    tmp29 = tl.where(tmp19, tmp3, tmp28)
    tmp30 = tl.full([1, 1], 1.0, tl.float32)
    tmp31 = tmp5 * tmp30
    tmp32 = tmp29 + tmp31
    tmp33 = tmp32.to(tl.float32)
    tl.store(out_ptr0 + (x1 + 128256*y0), tmp33, xmask)
