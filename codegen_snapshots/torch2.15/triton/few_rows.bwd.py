# backward of ce(x, t), x: bf16[8, 128256]
def call(args):
    primals_1, primals_2, getitem, sub_1, sum_2, tangents_1 = args
    assert_size_stride_grouped((sub_1, primals_2, tangents_1, sum_2), ((8, ), (8, ), (), ()), ((1, ), (1, ), (), ()), 'input')
    buf1 = sub_1; del sub_1  # reuse
    triton_poi_fused_0.run(buf1, primals_2, tangents_1.item(), sum_2.item(), 8)
    del sum_2
    del tangents_1
    assert_size_stride_grouped((primals_1, getitem), ((8, 128256), (8, )), ((128256, 1), (1, )), 'input')
    buf2 = empty_strided_cpu((8, 128256), (128256, 1), torch.bfloat16)
    triton_poi_fused_ce_bwd_1.run(primals_1, primals_2, getitem, buf1, buf2, 8, 128256)
    del buf1
    del getitem
    del primals_1
    del primals_2
    return (buf2, None, )


@triton_heuristics.pointwise(size_hints={'x': 8})  # in_out_ptr0: *fp32, in_ptr0: *i64
@triton.jit
def triton_poi_fused_0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr0 + (x0), xmask)
    tmp2 = in_ptr1
    tmp3 = in_ptr2
    tmp4 = libdevice.exp(tmp0)
    tmp5 = tl.full([1], 20.0, tl.float32)
    tmp6 = tmp0 > tmp5
    tmp7 = tmp1.to(tl.int32)
    tmp8 = tl.full([1], -100, tl.int32)
    tmp9 = tmp7 != tmp8
    tmp10 = (tmp2 / tmp3)
    tmp11 = tl.full([1], 0.0, tl.float32)
    tmp12 = tl.where(tmp9, tmp10, tmp11)
    tmp13 = tmp9.to(tl.float32)
    tmp14 = tmp12 * tmp13
    tmp15 = tmp14 * tmp4
    tmp16 = tl.full([1], 1.0, tl.float32)
    tmp17 = tmp4 + tmp16
    tmp18 = (tmp15 / tmp17)
    tmp19 = tl.where(tmp6, tmp14, tmp18)
    tl.store(in_out_ptr0 + (x0), tmp19, xmask)


@triton_heuristics.pointwise(size_hints={'y': 8, 'x': 131072}, tile_hint=TileHint.DEFAULT)  # in_ptr0: *bf16, in_ptr1: *i64, in_ptr2: *fp32, in_ptr3: *fp32, out_ptr0: *bf16
@triton.jit
def triton_poi_fused_ce_bwd_1(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 8
    xnumel = 128256
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (x1 + 128256*y0), xmask & ymask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (y0), ymask, eviction_policy='evict_last')
    tmp2 = tl.load(in_ptr2 + (y0), ymask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr3 + (y0), ymask, eviction_policy='evict_last')
    tmp4 = tmp0.to(tl.float32)
    tmp5 = tmp1.to(tl.int64)
    tmp6 = tl.full([1, 1], -100, tl.int64)
    tmp7 = tmp5 != tmp6
    tmp8 = tl.full([1, 1], 0, tl.int64)
    tmp9 = tmp5 >= tmp8
    tmp10 = tl.full([1, 1], 128256, tl.int64)
    tmp11 = tmp5 < tmp10
    tmp12 = tmp9 & tmp11
    tmp13 = tmp7 & tmp12
    tmp14 = tmp5.to(tl.int32)
    tmp15 = tl.full([1, 1], -1, tl.int32)
    tmp16 = tl.where(tmp13, tmp14, tmp15)
    tmp17 = (x1).to(tl.int32)
    tmp18 = tmp17 == tmp16
    tmp19 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp20 = tmp2 == tmp19
    tmp21 = tl.full([1, 1], 0.0, tl.float32)
    tmp22 = tl.where(tmp20, tmp21, tmp2)
    tmp23 = tmp1.to(tl.int32)
    tmp24 = tl.full([1, 1], -100, tl.int32)
    tmp25 = tmp23 != tmp24
    tmp26 = -tmp3
    tmp27 = tl.where(tmp25, tmp26, tmp21)
    tmp28 = tl.where(tmp25, tmp3, tmp21)
    tmp29 = tmp4 - tmp22
    tmp30 = tl.full([1, 1], 1.4426950408889634, tl.float32)
    tmp31 = tmp29 * tmp30
    tmp32 = libdevice.exp2(tmp31)
    tmp33 = tmp28 * tmp32
    tmp34 = tl.where(tmp18, tmp27, tmp33)
    tmp35 = tmp34.to(tl.float32)
    tl.store(out_ptr0 + (x1 + 128256*y0), tmp35, xmask & ymask)
