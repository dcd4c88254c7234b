# forward of ce(x, t), rows marked dynamic
def call(args):
    primals_1, primals_2, primals_3, primals_4 = args
    s77 = primals_1
    s13 = primals_3
    assert_size_stride(primals_2, (s13, 128256), (128256, 1), 'input')
    assert_size_stride(primals_4, (s13, ), (1, ), 'input')
    buf1 = empty_strided_cpu((s13, 63), (63, 1), torch.float32)
    buf2 = empty_strided_cpu((s13, 63), (63, 1), torch.float32)
    triton_unk_fused_ce_fwd_0_xnumel = 63*s13
    triton_unk_fused_ce_fwd_0.run(primals_2, primals_4, buf1, buf2, triton_unk_fused_ce_fwd_0_xnumel, 2048)
    buf3 = empty_strided_cpu((s13, ), (1, ), torch.float32)
    buf4 = empty_strided_cpu((s13, ), (1, ), torch.float32)
    triton_per_fused_ce_fwd_1.run(buf1, buf2, buf3, buf4, s13, 63)
    del buf1
    del buf2
    buf5 = buf3; del buf3  # reuse
    buf6 = empty_strided_cpu((s13, ), (1, ), torch.bool)
    buf7 = empty_strided_cpu((), (), torch.float32)
    buf9 = empty_strided_cpu((s13, ), (1, ), torch.float32)
    buf8 = empty_strided_cpu((), (), torch.float32)
    buf10 = buf7; del buf7  # reuse
    triton_red_fused_ce_fwd_2.run(buf5, buf10, buf4, primals_4, primals_2, buf6, buf9, buf8, s13, 1, s13)
    return (buf10, primals_2, primals_4, buf5, buf6, buf8, buf9, s13, )


@triton_heuristics.fixed_config(config={'XBLOCK': 1, 'num_warps': 1, 'num_stages': 1})  # in_ptr0: *bf16, in_ptr1: *i64, out_ptr0: *fp32, out_ptr1: *fp32
@triton.jit
def triton_unk_fused_ce_fwd_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel):
    XBLOCK: tl.constexpr = 1
    r0_numel = 2048
    R0_BLOCK: tl.constexpr = 2048
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = tl.full([1], xoffset, tl.int32)
    xmask = tl.full([R0_BLOCK], True, tl.int1)
    r0_index = tl.arange(0, R0_BLOCK)[:]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[:]
    roffset = r0_offset
    rindex = r0_index
    r0_2 = r0_index
    x0 = (xindex % 63)
    x1 = xindex // 63
    x3 = xindex
    tmp0 = tl.load(in_ptr1 + (x1), None, eviction_policy='evict_last')
    tmp1 = (r0_2 + 2048*x0).to(tl.int32)
    tmp2 = tl.full([1], 128256, tl.int32)
    tmp3 = tmp1 < tmp2
    tmp4 = tl.load(in_ptr0 + (r0_2 + 2048*x0 + 128256*x1), tmp3, eviction_policy='evict_first', other=float("-inf")).to(tl.float32)
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tmp0.to(tl.int64)
    tmp7 = tl.full([1], -100, tl.int64)
    tmp8 = tmp6 != tmp7
    tmp9 = tl.full([1], 0, tl.int64)
    tmp10 = tmp6 >= tmp9
    tmp11 = tl.full([1], 128256, tl.int64)
    tmp12 = tmp6 < tmp11
    tmp13 = tmp10 & tmp12
    tmp14 = tmp8 & tmp13
    tmp15 = tmp6.to(tl.int32)
    tmp16 = tl.full([1], -1, tl.int32)
    tmp17 = tl.where(tmp14, tmp15, tmp16)
    tmp18 = tmp1 == tmp17
    tmp19 = tl.full([1], float("-inf"), tl.float32)
    tmp20 = tl.where(tmp18, tmp19, tmp5)
    tmp21 = tl.broadcast_to(tmp20, [R0_BLOCK])
    tmp22 = triton_helpers.promote_to_tensor(tl.max(tmp21, 0)).to(tl.float32)
    tmp23 = tmp22 == tmp19
    tmp24 = tl.full([1], 0.0, tl.float32)
    tmp25 = tl.where(tmp23, tmp24, tmp22)
    tmp26 = tmp20 - tmp25
    tmp27 = tl.full([1], 1.4426950408889634, tl.float32)
    tmp28 = tmp26 * tmp27
    tmp29 = libdevice.exp2(tmp28)
    tmp30 = tl.broadcast_to(tmp29, [R0_BLOCK])
    tmp31 = triton_helpers.promote_to_tensor(tl.sum(tmp30, 0)).to(tl.float32)
    tl.store(out_ptr0 + (x3), tmp22, None)
    tl.store(out_ptr1 + (x3), tmp31, None)


@triton_heuristics.persistent_reduction(size_hints={'x': 4096, 'r0_': 64}, reduction_hint=ReductionHint.INNER)  # in_ptr0: *fp32, in_ptr1: *fp32, out_ptr0: *fp32, out_ptr1: *fp32
@triton.jit
def triton_per_fused_ce_fwd_1(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 63
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 63*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 63*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp2 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp2, float("-inf"))
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
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(r0_mask & xmask, tmp14, 0)
    tmp16 = tl.sum(tmp15, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
    tl.store(out_ptr1 + (x0), tmp16, xmask)


@triton_heuristics.reduction(size_hints={'x': 1, 'r0_': 4096}, reduction_hint=ReductionHint.DEFAULT)  # in_out_ptr0: *fp32, in_out_ptr1: *fp32, in_ptr0: *fp32, in_ptr1: *i64, in_ptr2: *bf16, out_ptr0: *i1, out_ptr1: *fp32, out_ptr2: *fp32
@triton.jit
def triton_red_fused_ce_fwd_2(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    _tmp0 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    _tmp1 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_0 = r0_index
        tmp0 = tl.load(in_out_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp2 = tl.load(in_ptr1 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp3 = tl_math.log(tmp1)
        tmp4 = tmp0 + tmp3
        tmp5 = (r0_0).to(tl.int32)
        tmp6 = (ks0).to(tl.int32)
        tmp7 = tmp5 >= tmp6
        tmp8 = tmp2.to(tl.int64)
        tmp9 = tl.full([1, 1], -100, tl.int64)
        tmp10 = tmp8 == tmp9
        tmp11 = tl.full([1, 1], 0, tl.int64)
        tmp12 = tmp8 >= tmp11
        tmp13 = tl.full([1, 1], 128256, tl.int64)
        tmp14 = tmp8 < tmp13
        tmp15 = tmp12 & tmp14
        tmp16 = tmp10 | tmp15
        tmp17 = tmp7 | tmp16
        tl.device_assert(tmp17, 'inductor_ce: target out of range: every target must be in [0, V) or equal to ignore_index')
        tmp18 = tmp2 != tmp9
        tmp19 = tmp18.to(tl.float32)
        tmp20 = tl.full([1, 1], 1.0, tl.float32)
        tmp21 = tmp19 * tmp20
        tmp22 = tl.full([1, 1], 0.0, tl.float32)
        tmp23 = tl.where(tmp18, tmp4, tmp22)
        tmp24 = tmp8 != tmp9
        tmp25 = tmp24 & tmp15
        tmp26 = tmp8.to(tl.int32)
        tmp27 = tl.full([1, 1], -1, tl.int32)
        tmp28 = tl.where(tmp25, tmp26, tmp27)
        tmp29 = tl.full([1, 1], 0, tl.int32)
        tmp30 = tmp28 >= tmp29
        tmp31 = tl.where(tmp30, tmp28, tmp29)
        tmp32 = (tl.full([1, 1], 128256, tl.int32)).to(tl.int32)
        tmp33 = tmp31 + tmp32
        tmp34 = tmp31 < 0
        tmp35 = tl.where(tmp34, tmp33, tmp31)
        tmp36 = tl.load(in_ptr2 + (tmp35 + 128256*r0_0), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp37 = tmp36.to(tl.float32)
        tmp38 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp39 = tl.where(tmp30, tmp37, tmp38)
        tmp40 = tl.where(tmp18, tmp39, tmp22)
        tmp41 = triton_helpers.maximum(tmp40, tmp22)
        tmp42 = tmp41 * tmp22
        tmp43 = tmp23 + tmp42
        tmp44 = tmp43 - tmp40
        tmp45 = tl.full([1, 1], 20.0, tl.float32)
        tmp46 = tmp44 > tmp45
        tmp47 = libdevice.exp(tmp44)
        tmp48 = libdevice.log1p(tmp47)
        tmp49 = tl.where(tmp46, tmp44, tmp48)
        tmp50 = tmp21 * tmp49
        tmp51 = tl.where(tmp18, tmp50, tmp22)
        tmp52 = tl.broadcast_to(tmp51, [XBLOCK, R0_BLOCK])
        tmp53 = _tmp0 + tmp52
        _tmp0 = tl.where(r0_mask, tmp53, _tmp0)
        tmp54 = tmp44 * tmp20
        tmp55 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
        tmp56 = _tmp1 + tmp55
        _tmp1 = tl.where(r0_mask, tmp56, _tmp1)
        tl.store(in_out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp4, r0_mask)
        tl.store(out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp18, r0_mask)
        tl.store(out_ptr1 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp54, r0_mask)
    tmp57 = tl.sum(_tmp0, 1)[:, None]
    tmp58 = tl.sum(_tmp1, 1)[:, None]
    tl.store(out_ptr2 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp58, None)
    tmp59 = (tmp57 / tmp58)
    tl.store(in_out_ptr1 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp59, None)
