# forward of ce(x, t, return_lse=True)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1))
    assert_size_stride(primals_2, (4096, ), (1, ))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf3 = empty_strided_cuda((4096, 126), (126, 1), torch.float32)
        buf4 = empty_strided_cuda((4096, 126), (126, 1), torch.float32)
        buf5 = empty_strided_cuda((4096, 126), (126, 1), torch.float32)
        triton_per_fused_ce_fwd_0.run(primals_1, primals_2, buf3, buf4, buf5, 516096, 1024)
        buf8 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        triton_per_fused_ce_fwd_1.run(buf5, buf8, 4096, 126)
        del buf5
        buf6 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf7 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        triton_per_fused_ce_fwd_2.run(buf3, buf4, buf6, buf7, 4096, 126)
        del buf3
        del buf4
        buf9 = buf6; del buf6  # reuse
        buf10 = empty_strided_cuda((4096, ), (1, ), torch.bool)
        buf11 = buf8; del buf8  # reuse
        buf12 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf13 = empty_strided_cuda((), (), torch.float32)
        buf14 = empty_strided_cuda((), (), torch.float32)
        buf15 = buf13; del buf13  # reuse
        triton_red_fused_ce_fwd_3.run(buf9, buf11, buf15, primals_2, buf7, buf10, buf12, buf14, 1, 4096)
        del buf7
    return (buf15, buf12, primals_1, primals_2, buf9, buf10, buf11, buf14, )


@triton_heuristics.persistent_reduction(size_hints={'x': 524288, 'r0_': 1024}, reduction_hint=ReductionHint.INNER)  # in_ptr0: *bf16, in_ptr1: *i64, out_ptr0: *fp32, out_ptr1: *fp32, out_ptr2: *fp32
@triton.jit
def triton_per_fused_ce_fwd_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 516096
    r0_numel = 1024
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_2 = r0_index
    x0 = (xindex % 126)
    x1 = xindex // 126
    x3 = xindex
    tmp0 = tl.load(in_ptr1 + (x1), None, eviction_policy='evict_last')
    tmp1 = r0_2 + 1024*x0
    tmp2 = tl.full([1, 1], 128256, tl.int32)
    tmp3 = tmp1 < tmp2
    tmp4 = tl.load(in_ptr0 + (r0_2 + 1024*x0 + 128256*x1), tmp3, other=0.0).to(tl.float32)
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tl.full(tmp5.shape, float("-inf"), tmp5.dtype)
    tmp7 = tl.where(tmp3, tmp5, tmp6)
    tmp8 = tmp0.to(tl.int64)
    tmp9 = tl.full([1, 1], -100, tl.int64)
    tmp10 = tmp8 != tmp9
    tmp11 = tl.full([1, 1], 0, tl.int64)
    tmp12 = tmp8 >= tmp11
    tmp13 = tl.full([1, 1], 128256, tl.int64)
    tmp14 = tmp8 < tmp13
    tmp15 = tmp12 & tmp14
    tmp16 = tmp10 & tmp15
    tmp17 = tmp8.to(tl.int32)
    tmp18 = tl.full([1, 1], -1, tl.int32)
    tmp19 = tl.where(tmp16, tmp17, tmp18)
    tmp20 = tmp1 == tmp19
    tmp21 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp22 = tl.where(tmp20, tmp21, tmp7)
    tmp23 = tl.broadcast_to(tmp22, [XBLOCK, R0_BLOCK])
    tmp24 = triton_helpers.max2(tmp23, 1)[:, None].to(tl.float32)
    tmp25 = tmp24 == tmp21
    tmp26 = tl.full([1, 1], 0.0, tl.float32)
    tmp27 = tl.where(tmp25, tmp26, tmp24)
    tmp28 = tmp22 - tmp27
    tmp29 = tl.full([1, 1], 1.4426950408889634, tl.float32)
    tmp30 = tmp28 * tmp29
    tmp31 = libdevice.exp2(tmp30)
    tmp32 = tl.broadcast_to(tmp31, [XBLOCK, R0_BLOCK])
    tmp33 = tl.sum(tmp32, 1)[:, None].to(tl.float32)
    tmp34 = tl.where(tmp20, tmp7, tmp26)
    tmp35 = tl.broadcast_to(tmp34, [XBLOCK, R0_BLOCK])
    tmp36 = tl.sum(tmp35, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x3), tmp24, None)
    tl.store(out_ptr1 + (x3), tmp33, None)
    tl.store(out_ptr2 + (x3), tmp36, None)


@triton_heuristics.persistent_reduction(size_hints={'x': 4096, 'r0_': 128}, reduction_hint=ReductionHint.INNER)  # in_ptr0: *fp32, out_ptr0: *fp32
@triton.jit
def triton_per_fused_ce_fwd_1(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 126
    R0_BLOCK: tl.constexpr = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 126*x0), r0_mask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp2 = tl.where(r0_mask, tmp1, 0)
    tmp3 = tl.sum(tmp2, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp3, None)


@triton_heuristics.persistent_reduction(size_hints={'x': 4096, 'r0_': 128}, reduction_hint=ReductionHint.INNER)  # in_ptr0: *fp32, in_ptr1: *fp32, out_ptr0: *fp32, out_ptr1: *fp32
@triton.jit
def triton_per_fused_ce_fwd_2(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 126
    R0_BLOCK: tl.constexpr = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 126*x0), r0_mask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 126*x0), r0_mask, other=0.0)
    tmp2 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask, tmp2, float("-inf"))
    tmp4 = triton_helpers.max2(tmp3, 1)[:, None].to(tl.float32)
    tmp5 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp6 = tmp4 == tmp5
    tmp7 = tl.full([1, 1], 0.0, tl.float32)
    tmp8 = tl.where(tmp6, tmp7, tmp4)
    tmp9 = tmp0 - tmp8
    tmp10 = tl.full([1, 1], 1.4426950408889634, tl.float32)
    tmp11 = tmp9 * tmp10
    tmp12 = libdevice.exp2(tmp11)
    tmp13 = tmp1 * tmp12
    tmp14 = tmp0 == tmp5
    tmp15 = tl.where(tmp14, tmp7, tmp13)
    tmp16 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
    tmp17 = tl.where(r0_mask, tmp16, 0)
    tmp18 = tl.sum(tmp17, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, None)
    tl.store(out_ptr1 + (x0), tmp18, None)


@triton_heuristics.reduction(size_hints={'x': 1, 'r0_': 4096}, reduction_hint=ReductionHint.INNER)  # in_out_ptr0: *fp32, in_out_ptr1: *fp32, in_out_ptr2: *fp32, in_ptr0: *i64, in_ptr1: *fp32, out_ptr0: *i1, out_ptr1: *fp32, out_ptr2: *fp32
@triton.jit
def triton_red_fused_ce_fwd_3(in_out_ptr0, in_out_ptr1, in_out_ptr2, in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1
    r0_numel = 4096
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    _tmp0 = tl.full([XBLOCK, R0_BLOCK], False, tl.int1)
    _tmp1 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_0 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_out_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp2 = tl.load(in_ptr1 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp3 = tl.load(in_out_ptr1 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp4 = tl.full([1, 1], -100, tl.int64)
        tmp5 = tmp0 == tmp4
        tmp6 = tl.full([1, 1], 0, tl.int64)
        tmp7 = tmp0 >= tmp6
        tmp8 = tl.full([1, 1], 128256, tl.int64)
        tmp9 = tmp0 < tmp8
        tmp10 = tmp7 & tmp9
        tmp11 = tmp5 | tmp10
        tmp12 = tmp11 == 0
        tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
        tmp14 = _tmp0 | tmp13
        _tmp0 = tl.where(r0_mask, tmp14, _tmp0)
        tmp15 = tl_math.log(tmp2)
        tmp16 = tmp1 + tmp15
        tmp17 = tmp0 != tmp4
        tmp18 = tmp0.to(tl.int64)
        tmp19 = tmp18 != tmp4
        tmp20 = tmp18 >= tmp6
        tmp21 = tmp18 < tmp8
        tmp22 = tmp20 & tmp21
        tmp23 = tmp19 & tmp22
        tmp24 = tmp18.to(tl.int32)
        tmp25 = tl.full([1, 1], -1, tl.int32)
        tmp26 = tl.where(tmp23, tmp24, tmp25)
        tmp27 = tl.full([1, 1], 0, tl.int32)
        tmp28 = tmp26 >= tmp27
        tmp29 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp30 = tl.where(tmp28, tmp3, tmp29)
        tmp31 = tl.full([1, 1], 0.0, tl.float32)
        tmp32 = tl.where(tmp17, tmp30, tmp31)
        tmp33 = tl.where(tmp17, tmp16, tmp31)
        tmp34 = tmp33 == tmp33
        tmp35 = tl_math.abs(tmp33)
        tmp36 = tl.full([1, 1], float("inf"), tl.float32)
        tmp37 = tmp35 != tmp36
        tmp38 = tmp34 & tmp37
        tmp39 = tmp38 == 0
        tmp40 = tmp33 == tmp32
        tmp41 = tmp39 & tmp40
        tmp42 = tmp33 >= tmp32
        tmp43 = tl.where(tmp42, tmp33, tmp32)
        tmp44 = tl.where(tmp42, tmp32, tmp33)
        tmp45 = tmp44 - tmp43
        tmp46 = libdevice.exp(tmp45)
        tmp47 = libdevice.log1p(tmp46)
        tmp48 = tmp43 + tmp47
        tmp49 = tl.where(tmp41, tmp33, tmp48)
        tmp50 = tl.where(tmp17, tmp49, tmp16)
        tmp51 = tmp17.to(tl.float32)
        tmp52 = tl.full([1, 1], 1.0, tl.float32)
        tmp53 = tmp51 * tmp52
        tmp54 = tmp33 - tmp32
        tmp55 = tl.full([1, 1], 20.0, tl.float32)
        tmp56 = tmp54 > tmp55
        tmp57 = libdevice.exp(tmp54)
        tmp58 = libdevice.log1p(tmp57)
        tmp59 = tl.where(tmp56, tmp54, tmp58)
        tmp60 = tmp53 * tmp59
        tmp61 = tl.where(tmp17, tmp60, tmp31)
        tmp62 = tl.broadcast_to(tmp61, [XBLOCK, R0_BLOCK])
        tmp63 = _tmp1 + tmp62
        _tmp1 = tl.where(r0_mask, tmp63, _tmp1)
        tmp64 = tl.broadcast_to(tmp51, [XBLOCK, R0_BLOCK])
        tmp65 = _tmp2 + tmp64
        _tmp2 = tl.where(r0_mask, tmp65, _tmp2)
        tl.store(in_out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp16, r0_mask)
        tl.store(out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp17, r0_mask)
        tl.store(in_out_ptr1 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp32, r0_mask)
        tl.store(out_ptr1 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp50, r0_mask)
    tmp66 = _tmp0.to(tl.int8)
    tmp67 = triton_helpers.any(tmp66, 1)[:, None]
    tmp68 = tl.sum(_tmp1, 1)[:, None]
    tmp69 = tl.sum(_tmp2, 1)[:, None]
    tl.store(out_ptr2 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp69, None)
    tmp70 = (tmp68 / tmp69)
    tmp71 = tmp67 == 0
    tl.device_assert(tmp71, 'inductor_ce.cross_entropy: target out of range: every target must be in [0, V) or equal to ignore_index')
    tl.debug_barrier()
    tl.store(in_out_ptr2 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp70, None)
