# forward of ce(x, t, ignore_index=0, label_smoothing=0.1)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1), 'input')
    assert_size_stride(primals_2, (4096, ), (1, ), 'input')
    buf3 = empty_strided_cpu((4096, 126), (126, 1), torch.float32)
    buf4 = empty_strided_cpu((4096, 126), (126, 1), torch.float32)
    buf5 = empty_strided_cpu((4096, 126), (126, 1), torch.float32)
    buf6 = empty_strided_cpu((4096, 126), (126, 1), torch.float32)
    triton_per_fused_ce_fwd_0.run(primals_1, primals_2, buf3, buf4, buf5, buf6, 516096, 1024)
    buf10 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    triton_per_fused_ce_fwd_1.run(buf6, buf10, 4096, 126)
    del buf6
    buf7 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf11 = buf7; del buf7  # reuse
    triton_per_fused_ce_fwd_2.run(buf11, buf3, buf4, 4096, 126)
    del buf3
    del buf4
    buf9 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    triton_per_fused_ce_fwd_1.run(buf5, buf9, 4096, 126)
    del buf5
    buf12 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf13 = buf9; del buf9  # reuse
    buf14 = empty_strided_cpu((), (), torch.float32)
    buf15 = empty_strided_cpu((), (), torch.float32)
    buf16 = buf14; del buf14  # reuse
    triton_red_fused_ce_fwd_3.run(buf13, buf16, primals_2, buf11, buf10, buf12, buf15, 1, 4096)
    return (buf16, primals_1, primals_2, buf11, buf12, buf13, buf15, )


@triton_heuristics.persistent_reduction(size_hints={'x': 524288, 'r0_': 1024}, reduction_hint=ReductionHint.INNER)  # in_ptr0: *bf16, in_ptr1: *i64, out_ptr0: *fp32, out_ptr1: *fp32, out_ptr2: *fp32, out_ptr3: *fp32
@triton.jit
def triton_per_fused_ce_fwd_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp1 = (r0_2 + 1024*x0).to(tl.int32)
    tmp2 = tl.full([1, 1], 128256, tl.int32)
    tmp3 = tmp1 < tmp2
    tmp4 = tl.load(in_ptr0 + (r0_2 + 1024*x0 + 128256*x1), tmp3, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tl.full(tmp5.shape, float("-inf"), tmp5.dtype)
    tmp7 = tl.where(tmp3, tmp5, tmp6)
    tmp8 = tmp0.to(tl.int64)
    tmp9 = tl.full([1, 1], 0, tl.int64)
    tmp10 = tmp8 != tmp9
    tmp11 = tmp8 >= tmp9
    tmp12 = tl.full([1, 1], 128256, tl.int64)
    tmp13 = tmp8 < tmp12
    tmp14 = tmp11 & tmp13
    tmp15 = tmp10 & tmp14
    tmp16 = tmp8.to(tl.int32)
    tmp17 = tl.full([1, 1], -1, tl.int32)
    tmp18 = tl.where(tmp15, tmp16, tmp17)
    tmp19 = tmp1 == tmp18
    tmp20 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp21 = tl.where(tmp19, tmp20, tmp7)
    tmp22 = tl.broadcast_to(tmp21, [XBLOCK, R0_BLOCK])
    tmp23 = triton_helpers.max2(tmp22, 1)[:, None].to(tl.float32)
    tmp24 = tmp23 == tmp20
    tmp25 = tl.full([1, 1], 0.0, tl.float32)
    tmp26 = tl.where(tmp24, tmp25, tmp23)
    tmp27 = tmp21 - tmp26
    tmp28 = tl.full([1, 1], 1.4426950408889634, tl.float32)
    tmp29 = tmp27 * tmp28
    tmp30 = libdevice.exp2(tmp29)
    tmp31 = tl.broadcast_to(tmp30, [XBLOCK, R0_BLOCK])
    tmp32 = tl.sum(tmp31, 1)[:, None].to(tl.float32)
    tmp33 = tl.where(tmp19, tmp7, tmp25)
    tmp34 = tl.broadcast_to(tmp33, [XBLOCK, R0_BLOCK])
    tmp35 = tl.sum(tmp34, 1)[:, None].to(tl.float32)
    tmp36 = tl.full([1, 1], 1.0, tl.float32)
    tmp37 = tmp36 * tmp7
    tmp38 = tl.where(tmp3, tmp37, tmp25)
    tmp39 = tl.broadcast_to(tmp38, [XBLOCK, R0_BLOCK])
    tmp40 = tl.sum(tmp39, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x3), tmp23, None)
    tl.store(out_ptr1 + (x3), tmp32, None)
    tl.store(out_ptr2 + (x3), tmp35, None)
    tl.store(out_ptr3 + (x3), tmp40, None)


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
    tmp0 = tl.load(in_ptr0 + (r0_1 + 126*x0), r0_mask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp2 = tl.where(r0_mask, tmp1, 0)
    tmp3 = tl.sum(tmp2, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp3, None)


@triton_heuristics.persistent_reduction(size_hints={'x': 4096, 'r0_': 128}, reduction_hint=ReductionHint.INNER)  # in_out_ptr0: *fp32, in_ptr0: *fp32, in_ptr1: *fp32
@triton.jit
def triton_per_fused_ce_fwd_2(in_out_ptr0, in_ptr0, in_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp0 = tl.load(in_ptr0 + (r0_1 + 126*x0), r0_mask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 126*x0), r0_mask, eviction_policy='evict_first', other=0.0)
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
    tmp19 = tl_math.log(tmp18)
    tmp20 = tmp4 + tmp19
    tl.store(in_out_ptr0 + (x0), tmp20, None)


@triton_heuristics.reduction(size_hints={'x': 1, 'r0_': 4096}, reduction_hint=ReductionHint.INNER)  # in_out_ptr0: *fp32, in_out_ptr1: *fp32, in_ptr0: *i64, in_ptr1: *fp32, in_ptr2: *fp32, out_ptr0: *i1, out_ptr1: *fp32
@triton.jit
def triton_red_fused_ce_fwd_3(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
        tmp3 = tl.load(in_ptr2 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp4 = tl.full([1, 1], 0, tl.int64)
        tmp5 = tmp0 == tmp4
        tmp6 = tmp0 >= tmp4
        tmp7 = tl.full([1, 1], 128256, tl.int64)
        tmp8 = tmp0 < tmp7
        tmp9 = tmp6 & tmp8
        tmp10 = tmp5 | tmp9
        tmp11 = tmp10 == 0
        tmp12 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
        tmp13 = _tmp0 | tmp12
        _tmp0 = tl.where(r0_mask, tmp13, _tmp0)
        tmp14 = tmp0 != tmp4
        tmp15 = tmp0.to(tl.int64)
        tmp16 = tmp15 != tmp4
        tmp17 = tmp15 >= tmp4
        tmp18 = tmp15 < tmp7
        tmp19 = tmp17 & tmp18
        tmp20 = tmp16 & tmp19
        tmp21 = tmp15.to(tl.int32)
        tmp22 = tl.full([1, 1], -1, tl.int32)
        tmp23 = tl.where(tmp20, tmp21, tmp22)
        tmp24 = tl.full([1, 1], 0, tl.int32)
        tmp25 = tmp23 >= tmp24
        tmp26 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp27 = tl.where(tmp25, tmp1, tmp26)
        tmp28 = tl.full([1, 1], 0.0, tl.float32)
        tmp29 = tl.where(tmp14, tmp27, tmp28)
        tmp30 = tmp14.to(tl.float32)
        tmp31 = tl.full([1, 1], 0.9, tl.float32)
        tmp32 = tmp30 * tmp31
        tmp33 = tl.where(tmp14, tmp2, tmp28)
        tmp34 = tmp33 - tmp29
        tmp35 = tl.full([1, 1], 20.0, tl.float32)
        tmp36 = tmp34 > tmp35
        tmp37 = libdevice.exp(tmp34)
        tmp38 = libdevice.log1p(tmp37)
        tmp39 = tl.where(tmp36, tmp34, tmp38)
        tmp40 = tmp32 * tmp39
        tmp41 = tmp33 == tmp33
        tmp42 = tl_math.abs(tmp33)
        tmp43 = tl.full([1, 1], float("inf"), tl.float32)
        tmp44 = tmp42 != tmp43
        tmp45 = tmp41 & tmp44
        tmp46 = tmp45 == 0
        tmp47 = tmp33 == tmp29
        tmp48 = tmp46 & tmp47
        tmp49 = tmp33 >= tmp29
        tmp50 = tl.where(tmp49, tmp33, tmp29)
        tmp51 = tl.where(tmp49, tmp29, tmp33)
        tmp52 = tmp51 - tmp50
        tmp53 = libdevice.exp(tmp52)
        tmp54 = libdevice.log1p(tmp53)
        tmp55 = tmp50 + tmp54
        tmp56 = tl.where(tmp48, tmp33, tmp55)
        tmp57 = tl.full([1, 1], 128256.0, tl.float32)
        tmp58 = tmp56 * tmp57
        tmp59 = tl.where(tmp14, tmp3, tmp28)
        tmp60 = tmp58 - tmp59
        tmp61 = tl.full([1, 1], 7.796906187624751e-07, tl.float32)
        tmp62 = tmp60 * tmp61
        tmp63 = tmp40 + tmp62
        tmp64 = tl.where(tmp14, tmp63, tmp28)
        tmp65 = tl.broadcast_to(tmp64, [XBLOCK, R0_BLOCK])
        tmp66 = _tmp1 + tmp65
        _tmp1 = tl.where(r0_mask, tmp66, _tmp1)
        tmp67 = tl.broadcast_to(tmp30, [XBLOCK, R0_BLOCK])
        tmp68 = _tmp2 + tmp67
        _tmp2 = tl.where(r0_mask, tmp68, _tmp2)
        tl.store(out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp14, r0_mask)
        tl.store(in_out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp29, r0_mask)
    tmp69 = _tmp0.to(tl.int8)
    tmp70 = triton_helpers.any(tmp69, 1)[:, None]
    tmp71 = tl.sum(_tmp1, 1)[:, None]
    tmp72 = tl.sum(_tmp2, 1)[:, None]
    tl.store(out_ptr1 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp72, None)
    tmp73 = (tmp71 / tmp72)
    tmp74 = tmp70 == 0
    tl.device_assert(tmp74, 'inductor_ce.cross_entropy: target out of range: every target must be in [0, V) or equal to ignore_index')
    tl.store(in_out_ptr1 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp73, None)
