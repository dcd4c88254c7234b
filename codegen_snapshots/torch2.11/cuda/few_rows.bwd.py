# backward of ce(x, t), x: bf16[8, 128256]
def call(args):
    primals_1, primals_2, getitem, sum_2, mul_5, tangents_1 = args
    assert_size_stride(primals_1, (8, 128256), (128256, 1))
    assert_size_stride(primals_2, (8, ), (1, ))
    assert_size_stride(getitem, (8, ), (1, ))
    assert_size_stride(sum_2, (), ())
    assert_size_stride(mul_5, (8, ), (1, ))
    assert_size_stride(tangents_1, (), ())
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((8, 128256), (128256, 1), torch.bfloat16)
        triton_poi_fused_ce_bwd_0.run(primals_1, primals_2, getitem, mul_5, tangents_1, sum_2, buf0, 8, 128256)
        del getitem
        del mul_5
        del primals_1
        del primals_2
        del sum_2
        del tangents_1
    return (buf0, None, )


@triton_heuristics.pointwise(size_hints={'y': 8, 'x': 131072}, tile_hint=TileHint.DEFAULT)  # in_ptr0: *bf16, in_ptr1: *i64, in_ptr2: *fp32, in_ptr3: *fp32, in_ptr4: *fp32, in_ptr5: *fp32, out_ptr0: *bf16
@triton.jit
def triton_poi_fused_ce_bwd_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
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
    tmp0 = tl.load(in_ptr0 + (x1 + 128256*y0), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (y0), ymask, eviction_policy='evict_last')
    tmp2 = tl.load(in_ptr2 + (y0), ymask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr3 + (y0), ymask, eviction_policy='evict_last')
    tmp4 = tl.load(in_ptr4 + (0))
    tmp5 = tl.broadcast_to(tmp4, [1, 1])
    tmp6 = tl.load(in_ptr5 + (0))
    tmp7 = tl.broadcast_to(tmp6, [1, 1])
    tmp8 = tmp0.to(tl.float32)
    tmp9 = tmp1.to(tl.int64)
    tmp10 = tl.full([1, 1], -100, tl.int64)
    tmp11 = tmp9 != tmp10
    tmp12 = tl.full([1, 1], 0, tl.int64)
    tmp13 = tmp9 >= tmp12
    tmp14 = tl.full([1, 1], 128256, tl.int64)
    tmp15 = tmp9 < tmp14
    tmp16 = tmp13 & tmp15
    tmp17 = tmp11 & tmp16
    tmp18 = tmp9.to(tl.int32)
    tmp19 = tl.full([1, 1], -1, tl.int32)
    tmp20 = tl.where(tmp17, tmp18, tmp19)
    tmp21 = x1
    tmp22 = tmp21 == tmp20
    tmp23 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp24 = tmp2 == tmp23
    tmp25 = tl.full([1, 1], 0.0, tl.float32)
    tmp26 = tl.where(tmp24, tmp25, tmp2)
    tmp27 = tmp1.to(tl.int32)
    tmp28 = tl.full([1, 1], -100, tl.int32)
    tmp29 = tmp27 != tmp28
    tmp30 = tl.full([1, 1], 20.0, tl.float32)
    tmp31 = tmp3 > tmp30
    tmp32 = (tmp5 / tmp7)
    tmp33 = tl.where(tmp29, tmp32, tmp25)
    tmp34 = tmp29.to(tl.float32)
    tmp35 = tl.full([1, 1], 1.0, tl.float32)
    tmp36 = tmp34 * tmp35
    tmp37 = tmp33 * tmp36
    tmp38 = libdevice.exp(tmp3)
    tmp39 = tmp37 * tmp38
    tmp40 = tmp38 + tmp35
    tmp41 = (tmp39 / tmp40)
    tmp42 = tl.where(tmp31, tmp37, tmp41)
    tmp43 = -tmp42
    tmp44 = tl.where(tmp29, tmp43, tmp25)
    tmp45 = tl.where(tmp29, tmp42, tmp25)
    tmp46 = tmp8 - tmp26
    tmp47 = tl.full([1, 1], 1.4426950408889634, tl.float32)
    tmp48 = tmp46 * tmp47
    tmp49 = libdevice.exp2(tmp48)
    tmp50 = tmp45 * tmp49
    tmp51 = tl.where(tmp22, tmp44, tmp50)
    tmp52 = tmp51.to(tl.float32)
    tl.store(out_ptr0 + (x1 + 128256*y0), tmp52, xmask & ymask)
