# backward of ce(x, t), x: bf16[8, 128256]
def call(args):
    primals_1, primals_2, getitem, ne, sum_2, mul_4, tangents_1 = args
    assert_size_stride(primals_1, (8, 128256), (128256, 1))
    assert_size_stride(primals_2, (8, ), (1, ))
    assert_size_stride(getitem, (8, ), (1, ))
    assert_size_stride(ne, (8, ), (1, ))
    assert_size_stride(sum_2, (), ())
    assert_size_stride(mul_4, (8, ), (1, ))
    assert_size_stride(tangents_1, (), ())
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((8, 128256), (128256, 1), torch.bfloat16)
        triton_poi_fused_ce_bwd_0.run(primals_1, primals_2, getitem, ne, mul_4, tangents_1, sum_2, buf0, 8, 128256)
        del getitem
        del mul_4
        del ne
        del primals_1
        del primals_2
        del sum_2
        del tangents_1
    return (buf0, None, )


@triton_heuristics.pointwise(size_hints={'y': 8, 'x': 131072}, tile_hint=TileHint.DEFAULT)  # in_ptr0: *bf16, in_ptr1: *i64, in_ptr2: *fp32, in_ptr3: *i1, in_ptr4: *fp32, in_ptr5: *fp32, in_ptr6: *fp32, out_ptr0: *bf16
@triton.jit
def triton_poi_fused_ce_bwd_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
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
    tmp3 = tl.load(in_ptr3 + (y0), ymask, eviction_policy='evict_last').to(tl.int1)
    tmp4 = tl.load(in_ptr4 + (y0), ymask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr5 + (0))
    tmp6 = tl.broadcast_to(tmp5, [1, 1])
    tmp7 = tl.load(in_ptr6 + (0))
    tmp8 = tl.broadcast_to(tmp7, [1, 1])
    tmp9 = tmp0.to(tl.float32)
    tmp10 = tmp1.to(tl.int64)
    tmp11 = tl.full([1, 1], -100, tl.int64)
    tmp12 = tmp10 != tmp11
    tmp13 = tl.full([1, 1], 0, tl.int64)
    tmp14 = tmp10 >= tmp13
    tmp15 = tl.full([1, 1], 128256, tl.int64)
    tmp16 = tmp10 < tmp15
    tmp17 = tmp14 & tmp16
    tmp18 = tmp12 & tmp17
    tmp19 = tmp10.to(tl.int32)
    tmp20 = tl.full([1, 1], -1, tl.int32)
    tmp21 = tl.where(tmp18, tmp19, tmp20)
    tmp22 = x1
    tmp23 = tmp22 == tmp21
    tmp24 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp25 = tmp2 == tmp24
    tmp26 = tl.full([1, 1], 0.0, tl.float32)
    tmp27 = tl.where(tmp25, tmp26, tmp2)
    tmp28 = tl.full([1, 1], 20.0, tl.float32)
    tmp29 = tmp4 > tmp28
    tmp30 = (tmp6 / tmp8)
    tmp31 = tl.where(tmp3, tmp30, tmp26)
    tmp32 = tmp3.to(tl.float32)
    tmp33 = tl.full([1, 1], 1.0, tl.float32)
    tmp34 = tmp32 * tmp33
    tmp35 = tmp31 * tmp34
    tmp36 = libdevice.exp(tmp4)
    tmp37 = tmp35 * tmp36
    tmp38 = tmp36 + tmp33
    tmp39 = (tmp37 / tmp38)
    tmp40 = tl.where(tmp29, tmp35, tmp39)
    tmp41 = -tmp40
    tmp42 = tl.where(tmp3, tmp41, tmp26)
    tmp43 = tl.where(tmp3, tmp40, tmp26)
    tmp44 = tmp9 - tmp27
    tmp45 = tl.full([1, 1], 1.4426950408889634, tl.float32)
    tmp46 = tmp44 * tmp45
    tmp47 = libdevice.exp2(tmp46)
    tmp48 = tmp43 * tmp47
    tmp49 = tl.where(tmp23, tmp42, tmp48)
    tmp50 = tmp49.to(tl.float32)
    tl.store(out_ptr0 + (x1 + 128256*y0), tmp50, xmask & ymask)
