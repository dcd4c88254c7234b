# forward of ce(x, t, ignore_index=0, label_smoothing=0.1)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1), 'input')
    assert_size_stride(primals_2, (4096, ), (1, ), 'input')
    buf1 = empty_strided_cpu((4096, 63), (63, 1), torch.float32)
    buf3 = empty_strided_cpu((4096, 63), (63, 1), torch.float32)
    buf4 = buf1; del buf1  # reuse
    triton_unk_fused_ce_fwd_0.run(buf4, primals_1, primals_2, buf3, 258048, 2048)
    buf7 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    triton_per_fused_ce_fwd_1.run(buf3, buf7, 4096, 63)
    del buf3
    buf5 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf8 = buf5; del buf5  # reuse
    triton_per_fused_ce_fwd_2.run(buf8, buf4, 4096, 63)
    del buf4
    buf9 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf10 = empty_strided_cpu((), (), torch.float32)
    buf11 = empty_strided_cpu((), (), torch.float32)
    buf12 = buf10; del buf10  # reuse
    triton_red_fused_ce_fwd_3.run(buf12, primals_2, primals_1, buf8, buf7, buf9, buf11, 1, 4096)
    return (buf12, primals_1, primals_2, buf8, buf9, buf11, )


@triton_heuristics.fixed_config(config={'XBLOCK': 1, 'num_warps': 1, 'num_stages': 1})  # in_out_ptr0: *fp32, in_ptr0: *bf16, in_ptr1: *i64, out_ptr1: *fp32
@triton.jit
def triton_unk_fused_ce_fwd_0(in_out_ptr0, in_ptr0, in_ptr1, out_ptr1, xnumel, r0_numel):
    xnumel = 258048
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
    tmp7 = tl.full([1], 0, tl.int64)
    tmp8 = tmp6 != tmp7
    tmp9 = tmp6 >= tmp7
    tmp10 = tl.full([1], 128256, tl.int64)
    tmp11 = tmp6 < tmp10
    tmp12 = tmp9 & tmp11
    tmp13 = tmp8 & tmp12
    tmp14 = tmp6.to(tl.int32)
    tmp15 = tl.full([1], -1, tl.int32)
    tmp16 = tl.where(tmp13, tmp14, tmp15)
    tmp17 = tmp1 == tmp16
    tmp18 = tl.full([1], float("-inf"), tl.float32)
    tmp19 = tl.where(tmp17, tmp18, tmp5)
    tmp20 = tl.broadcast_to(tmp19, [R0_BLOCK])
    tmp21 = triton_helpers.promote_to_tensor(tl.max(tmp20, 0)).to(tl.float32)
    tmp22 = tmp21 == tmp18
    tmp23 = tl.full([1], 0.0, tl.float32)
    tmp24 = tl.where(tmp22, tmp23, tmp21)
    tmp25 = tmp19 - tmp24
    tmp26 = tl.full([1], 1.4426950408889634, tl.float32)
    tmp27 = tmp25 * tmp26
    tmp28 = libdevice.exp2(tmp27)
    tmp29 = tl.broadcast_to(tmp28, [R0_BLOCK])
    tmp30 = triton_helpers.promote_to_tensor(tl.sum(tmp29, 0)).to(tl.float32)
    tmp31 = tl.full([1], 1.0, tl.float32)
    tmp32 = tmp31 * tmp5
    tmp33 = tl.where(tmp3, tmp32, tmp23)
    tmp34 = tl.broadcast_to(tmp33, [R0_BLOCK])
    tmp35 = triton_helpers.promote_to_tensor(tl.sum(tmp34, 0)).to(tl.float32)
    tmp36 = tl_math.log(tmp30)
    tmp37 = tmp21 + tmp36
    tl.store(in_out_ptr0 + (x3), tmp37, None)
    tl.store(out_ptr1 + (x3), tmp35, None)


@triton_heuristics.persistent_reduction(size_hints={'x': 4096, 'r0_': 64}, reduction_hint=ReductionHint.INNER)  # in_ptr0: *fp32, out_ptr0: *fp32
@triton.jit
def triton_per_fused_ce_fwd_1(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 63
    R0_BLOCK: tl.constexpr = 64
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
    tmp0 = tl.load(in_ptr0 + (r0_1 + 63*x0), r0_mask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp2 = tl.where(r0_mask, tmp1, 0)
    tmp3 = tl.sum(tmp2, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp3, None)


@triton_heuristics.persistent_reduction(size_hints={'x': 4096, 'r0_': 64}, reduction_hint=ReductionHint.INNER)  # in_out_ptr0: *fp32, in_ptr0: *fp32
@triton.jit
def triton_per_fused_ce_fwd_2(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 63
    R0_BLOCK: tl.constexpr = 64
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
    tmp0 = tl.load(in_ptr0 + (r0_1 + 63*x0), r0_mask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp2 = tl.where(r0_mask, tmp1, float("-inf"))
    tmp3 = triton_helpers.max2(tmp2, 1)[:, None].to(tl.float32)
    tmp4 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp5 = tmp3 == tmp4
    tmp6 = tl.full([1, 1], 0.0, tl.float32)
    tmp7 = tl.where(tmp5, tmp6, tmp3)
    tmp8 = tmp0 - tmp7
    tmp9 = tl.full([1, 1], 1.4426950408889634, tl.float32)
    tmp10 = tmp8 * tmp9
    tmp11 = libdevice.exp2(tmp10)
    tmp12 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
    tmp13 = tl.where(r0_mask, tmp12, 0)
    tmp14 = tl.sum(tmp13, 1)[:, None].to(tl.float32)
    tmp15 = tl_math.log(tmp14)
    tmp16 = tmp3 + tmp15
    tl.store(in_out_ptr0 + (x0), tmp16, None)


@triton_heuristics.reduction(size_hints={'x': 1, 'r0_': 4096}, reduction_hint=ReductionHint.DEFAULT)  # in_out_ptr0: *fp32, in_ptr0: *i64, in_ptr1: *bf16, in_ptr2: *fp32, in_ptr3: *fp32, out_ptr0: *fp32, out_ptr1: *fp32
@triton.jit
def triton_red_fused_ce_fwd_3(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1
    r0_numel = 4096
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
        tmp0 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr2 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp2 = tl.load(in_ptr3 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp3 = (r0_0).to(tl.int32)
        tmp4 = tl.full([1, 1], 4096, tl.int64)
        tmp5 = tmp3 >= tmp4
        tmp6 = tmp0.to(tl.int64)
        tmp7 = tl.full([1, 1], 0, tl.int64)
        tmp8 = tmp6 == tmp7
        tmp9 = tmp6 >= tmp7
        tmp10 = tl.full([1, 1], 128256, tl.int64)
        tmp11 = tmp6 < tmp10
        tmp12 = tmp9 & tmp11
        tmp13 = tmp8 | tmp12
        tmp14 = tmp5 | tmp13
        tl.device_assert(tmp14, 'inductor_ce.cross_entropy: target out of range: every target must be in [0, V) or equal to ignore_index')
        tmp15 = tmp0.to(tl.int32)
        tmp16 = tl.full([1, 1], 0, tl.int32)
        tmp17 = tmp15 != tmp16
        tmp18 = tmp6 != tmp7
        tmp19 = tmp18 & tmp12
        tmp20 = tmp6.to(tl.int32)
        tmp21 = tl.full([1, 1], -1, tl.int32)
        tmp22 = tl.where(tmp19, tmp20, tmp21)
        tmp23 = tmp22 >= tmp16
        tmp24 = tl.where(tmp23, tmp22, tmp16)
        tmp25 = (tl.full([1, 1], 128256, tl.int32)).to(tl.int32)
        tmp26 = tmp24 + tmp25
        tmp27 = tmp24 < 0
        tmp28 = tl.where(tmp27, tmp26, tmp24)
        tmp29 = tl.load(in_ptr1 + (tmp28 + 128256*r0_0), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp30 = tmp29.to(tl.float32)
        tmp31 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp32 = tl.where(tmp23, tmp30, tmp31)
        tmp33 = tl.full([1, 1], 0.0, tl.float32)
        tmp34 = tl.where(tmp17, tmp32, tmp33)
        tmp35 = tmp17.to(tl.float32)
        tmp36 = tl.full([1, 1], 0.9, tl.float32)
        tmp37 = tmp35 * tmp36
        tmp38 = tl.where(tmp17, tmp1, tmp33)
        tmp39 = tmp38 - tmp34
        tmp40 = tl.full([1, 1], 20.0, tl.float32)
        tmp41 = tmp39 > tmp40
        tmp42 = libdevice.exp(tmp39)
        tmp43 = libdevice.log1p(tmp42)
        tmp44 = tl.where(tmp41, tmp39, tmp43)
        tmp45 = tmp37 * tmp44
        tmp46 = tmp38 == tmp38
        tmp47 = tl_math.abs(tmp38)
        tmp48 = tl.full([1, 1], float("inf"), tl.float32)
        tmp49 = tmp47 != tmp48
        tmp50 = tmp46 & tmp49
        tmp51 = tmp50 == 0
        tmp52 = tmp38 == tmp34
        tmp53 = tmp51 & tmp52
        tmp54 = tmp38 >= tmp34
        tmp55 = tl.where(tmp54, tmp38, tmp34)
        tmp56 = tl.where(tmp54, tmp34, tmp38)
        tmp57 = tmp56 - tmp55
        tmp58 = libdevice.exp(tmp57)
        tmp59 = libdevice.log1p(tmp58)
        tmp60 = tmp55 + tmp59
        tmp61 = tl.where(tmp53, tmp38, tmp60)
        tmp62 = tl.full([1, 1], 128256.0, tl.float32)
        tmp63 = tmp61 * tmp62
        tmp64 = tl.where(tmp17, tmp2, tmp33)
        tmp65 = tmp63 - tmp64
        tmp66 = tl.full([1, 1], 7.796906187624751e-07, tl.float32)
        tmp67 = tmp65 * tmp66
        tmp68 = tmp45 + tmp67
        tmp69 = tl.where(tmp17, tmp68, tmp33)
        tmp70 = tl.broadcast_to(tmp69, [XBLOCK, R0_BLOCK])
        tmp71 = _tmp0 + tmp70
        _tmp0 = tl.where(r0_mask, tmp71, _tmp0)
        tmp72 = tl.broadcast_to(tmp35, [XBLOCK, R0_BLOCK])
        tmp73 = _tmp1 + tmp72
        _tmp1 = tl.where(r0_mask, tmp73, _tmp1)
        tl.store(out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp34, r0_mask)
    tmp74 = tl.sum(_tmp0, 1)[:, None]
    tmp75 = tl.sum(_tmp1, 1)[:, None]
    tl.store(out_ptr1 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp75, None)
    tmp76 = (tmp74 / tmp75)
    tl.store(in_out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp76, None)
