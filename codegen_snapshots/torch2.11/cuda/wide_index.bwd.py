# backward of ce(x, t), x: bf16[16800, 128256], over 2^31 logits
def call(args):
    primals_1, primals_2, getitem, ne, sum_2, mul_5, tangents_1 = args
    assert_size_stride(primals_1, (16800, 128256), (128256, 1))
    assert_size_stride(primals_2, (16800, ), (1, ))
    assert_size_stride(getitem, (16800, ), (1, ))
    assert_size_stride(ne, (16800, ), (1, ))
    assert_size_stride(sum_2, (), ())
    assert_size_stride(mul_5, (16800, ), (1, ))
    assert_size_stride(tangents_1, (), ())
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((16800, ), (1, ), torch.float32)
        buf1 = empty_strided_cuda((16800, ), (1, ), torch.float32)
        triton_poi_fused_0.run(ne, mul_5, tangents_1, sum_2, buf0, buf1, 16800)
        del mul_5
        del ne
        del sum_2
        del tangents_1
        buf2 = empty_strided_cuda((16800, 128256), (128256, 1), torch.bfloat16)
        triton_poi_fused_ce_bwd_1.run(primals_1, primals_2, getitem, buf1, buf0, buf2, 16800, 128256)
        del buf0
        del buf1
        del getitem
        del primals_1
        del primals_2
    return (buf2, None, )


@triton_heuristics.pointwise(size_hints={'x': 32768})  # in_ptr0: *i1, in_ptr1: *fp32, in_ptr2: *fp32, in_ptr3: *fp32, out_ptr0: *fp32, out_ptr1: *fp32
@triton.jit
def triton_poi_fused_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 16800
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask).to(tl.int1)
    tmp1 = tl.load(in_ptr1 + (x0), xmask)
    tmp2 = tl.load(in_ptr2 + (0))
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK])
    tmp4 = tl.load(in_ptr3 + (0))
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK])
    tmp6 = tl.full([1], 20.0, tl.float32)
    tmp7 = tmp1 > tmp6
    tmp8 = (tmp3 / tmp5)
    tmp9 = tl.full([1], 0.0, tl.float32)
    tmp10 = tl.where(tmp0, tmp8, tmp9)
    tmp11 = tmp0.to(tl.float32)
    tmp12 = tl.full([1], 1.0, tl.float32)
    tmp13 = tmp11 * tmp12
    tmp14 = tmp10 * tmp13
    tmp15 = libdevice.exp(tmp1)
    tmp16 = tmp14 * tmp15
    tmp17 = tmp15 + tmp12
    tmp18 = (tmp16 / tmp17)
    tmp19 = tl.where(tmp7, tmp14, tmp18)
    tmp20 = tl.where(tmp0, tmp19, tmp9)
    tmp21 = -tmp19
    tmp22 = tl.where(tmp0, tmp21, tmp9)
    tl.store(out_ptr0 + (x0), tmp20, xmask)
    tl.store(out_ptr1 + (x0), tmp22, xmask)


@triton_heuristics.pointwise(size_hints={'y': 32768, 'x': 131072}, tile_hint=TileHint.DEFAULT)  # in_ptr0: *bf16, in_ptr1: *i64, in_ptr2: *fp32, in_ptr3: *fp32, in_ptr4: *fp32, out_ptr0: *bf16
@triton.jit
def triton_poi_fused_ce_bwd_1(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 16800
    xnumel = 128256
    yoffset = tl.program_id(1).to(tl.int64) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None].to(tl.int64)
    ymask = yindex < ynumel
    xoffset = tl.program_id(0).to(tl.int64) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :].to(tl.int64)
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (x1 + 128256*y0), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (y0), ymask, eviction_policy='evict_last')
    tmp2 = tl.load(in_ptr2 + (y0), ymask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr3 + (y0), ymask, eviction_policy='evict_last')
    tmp4 = tl.load(in_ptr4 + (y0), ymask, eviction_policy='evict_last')
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
    tl.store(out_ptr0 + (x1 + 128256*y0), tmp30, xmask & ymask)
