# backward of ce(x, t, z_loss=1e-4)
def call(args):
    primals_1, primals_2, getitem, ne, where_1, ge, logical_and, sum_2, tangents_1 = args
    assert_size_stride_grouped((ne, tangents_1, sum_2, logical_and, getitem, where_1, ge), ((4096, ), (), (), (4096, ), (4096, ), (4096, ), (4096, )), ((1, ), (), (), (1, ), (1, ), (1, ), (1, )), 'input')
    buf1 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf3 = where_1; del where_1  # reuse
    buf4 = buf1; del buf1  # reuse
    triton_poi_fused_0.run(buf3, buf4, ne, tangents_1.item(), sum_2.item(), logical_and, getitem, ge, 4096)
    del ge
    del logical_and
    del ne
    del sum_2
    del tangents_1
    assert_size_stride_grouped((primals_1, primals_2), ((4096, 128256), (4096, )), ((128256, 1), (1, )), 'input')
    buf5 = empty_strided_cpu((4096, 128256), (128256, 1), torch.bfloat16)
    triton_poi_fused_ce_bwd_1.run(primals_1, primals_2, getitem, buf4, buf3, buf5, 4096, 128256)
    del buf3
    del buf4
    del getitem
    del primals_1
    del primals_2
    return (buf5, None, )


@triton_heuristics.pointwise(size_hints={'x': 4096})  # in_out_ptr0: *fp32, in_out_ptr1: *fp32, in_ptr0: *i1, in_ptr3: *i1, in_ptr4: *fp32, in_ptr5: *i1
@triton.jit
def triton_poi_fused_0(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4096
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None).to(tl.int1)
    tmp1 = in_ptr1
    tmp2 = in_ptr2
    tmp3 = tl.load(in_ptr3 + (x0), None).to(tl.int1)
    tmp4 = tl.load(in_ptr4 + (x0), None)
    tmp5 = tl.load(in_out_ptr0 + (x0), None)
    tmp6 = tl.load(in_ptr5 + (x0), None).to(tl.int1)
    tmp7 = (tmp1 / tmp2)
    tmp8 = tl.full([1], 0.0, tl.float32)
    tmp9 = tl.where(tmp0, tmp7, tmp8)
    tmp10 = tmp0.to(tl.float32)
    tmp11 = tl.full([1], 0.0001, tl.float32)
    tmp12 = tmp10 * tmp11
    tmp13 = tmp9 * tmp12
    tmp14 = tl.where(tmp0, tmp4, tmp8)
    tmp15 = tl.maximum(tmp5, tmp8, tl.PropagateNan.ALL)
    tmp16 = tmp15 * tmp8
    tmp17 = tmp14 + tmp16
    tmp18 = tl.where(tmp6, tmp17, tmp5)
    tmp19 = tl.where(tmp6, tmp5, tmp17)
    tmp20 = tmp19 - tmp18
    tmp21 = libdevice.exp(tmp20)
    tmp22 = libdevice.log1p(tmp21)
    tmp23 = tmp18 + tmp22
    tmp24 = tl.where(tmp3, tmp17, tmp23)
    tmp25 = tl.full([1], 2.0, tl.float32)
    tmp26 = tmp24 * tmp25
    tmp27 = tmp13 * tmp26
    tmp28 = tmp17 - tmp5
    tmp29 = libdevice.exp(tmp28)
    tmp30 = tl.full([1], 20.0, tl.float32)
    tmp31 = tmp28 > tmp30
    tmp32 = tmp9 * tmp10
    tmp33 = tmp32 * tmp29
    tmp34 = tl.full([1], 1.0, tl.float32)
    tmp35 = tmp29 + tmp34
    tmp36 = (tmp33 / tmp35)
    tmp37 = tl.where(tmp31, tmp32, tmp36)
    tmp38 = tmp5 - tmp17
    tmp39 = libdevice.exp(tmp38)
    tmp40 = tmp39 + tmp34
    tmp41 = (tmp27 / tmp40)
    tmp42 = tmp37 + tmp41
    tmp43 = tl.where(tmp0, tmp42, tmp8)
    tmp44 = -tmp37
    tmp45 = (tmp27 / tmp35)
    tmp46 = tmp44 + tmp45
    tmp47 = tl.where(tmp0, tmp46, tmp8)
    tl.store(in_out_ptr0 + (x0), tmp43, None)
    tl.store(in_out_ptr1 + (x0), tmp47, None)


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
    tmp0 = tl.load(in_ptr0 + (x1 + 128256*y0), xmask).to(tl.float32)
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
    tmp18 = (x1).to(tl.int32)
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
