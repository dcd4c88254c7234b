# backward of ce(x, t, softcap=30.0)
def call(args):
    primals_1, primals_2, getitem, ne, sum_2, mul_6, tangents_1 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1))
    assert_size_stride(primals_2, (4096, ), (1, ))
    assert_size_stride(getitem, (4096, ), (1, ))
    assert_size_stride(ne, (4096, ), (1, ))
    assert_size_stride(sum_2, (), ())
    assert_size_stride(mul_6, (4096, ), (1, ))
    assert_size_stride(tangents_1, (), ())
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf1 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        triton_poi_fused_0.run(ne, mul_6, tangents_1, sum_2, buf0, buf1, 4096)
        del mul_6
        del ne
        del sum_2
        del tangents_1
        buf2 = empty_strided_cuda((4096, 128256), (128256, 1), torch.bfloat16)
        triton_poi_fused_ce_bwd_1.run(primals_1, primals_2, getitem, buf1, buf0, buf2, 4096, 128256)
        del buf0
        del buf1
        del getitem
        del primals_1
        del primals_2
    return (buf2, None, )


@triton_heuristics.pointwise(size_hints={'x': 4096})  # in_ptr0: *i1, in_ptr1: *fp32, in_ptr2: *fp32, in_ptr3: *fp32, out_ptr0: *fp32, out_ptr1: *fp32
@triton.jit
def triton_poi_fused_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4096
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None).to(tl.int1)
    tmp1 = tl.load(in_ptr1 + (x0), None)
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
    tl.store(out_ptr0 + (x0), tmp20, None)
    tl.store(out_ptr1 + (x0), tmp22, None)


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
    tmp6 = tl.full([1, 1], 1.0, tl.float32)
    tmp7 = tl.full([1, 1], 30.0, tl.float32)
    tmp8 = (tmp6 / tmp7)
    tmp9 = tmp5 * tmp8
    tmp10 = libdevice.tanh(tmp9)
    tmp11 = tmp7 * tmp10
    tmp12 = tmp1.to(tl.int64)
    tmp13 = tl.full([1, 1], -100, tl.int64)
    tmp14 = tmp12 != tmp13
    tmp15 = tl.full([1, 1], 0, tl.int64)
    tmp16 = tmp12 >= tmp15
    tmp17 = tl.full([1, 1], 128256, tl.int64)
    tmp18 = tmp12 < tmp17
    tmp19 = tmp16 & tmp18
    tmp20 = tmp14 & tmp19
    tmp21 = tmp12.to(tl.int32)
    tmp22 = tl.full([1, 1], -1, tl.int32)
    tmp23 = tl.where(tmp20, tmp21, tmp22)
    tmp24 = x1
    tmp25 = tmp24 == tmp23
    tmp26 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp27 = tmp2 == tmp26
    tmp28 = tl.full([1, 1], 0.0, tl.float32)
    tmp29 = tl.where(tmp27, tmp28, tmp2)
    tmp30 = tmp11 - tmp29
    tmp31 = tl.full([1, 1], 1.4426950408889634, tl.float32)
    tmp32 = tmp30 * tmp31
    tmp33 = libdevice.exp2(tmp32)
    tmp34 = tmp4 * tmp33
    tmp35 = tl.where(tmp25, tmp3, tmp34)
    tmp36 = tmp10 * tmp10
    tmp37 = tmp6 - tmp36
    tmp38 = tmp35 * tmp37
    tmp39 = tmp38.to(tl.float32)
    tl.store(out_ptr0 + (x1 + 128256*y0), tmp39, xmask)
