# forward of ce(x, t, ignore_index=0, label_smoothing=0.1)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride_grouped((primals_1, primals_2), ((4096, 128256), (4096, )), ((128256, 1), (1, )), 'input')
    buf1 = empty_strided_cpu((4096, 63), (63, 1), torch.float32)
    buf2 = empty_strided_cpu((4096, 63), (63, 1), torch.float32)
    buf3 = empty_strided_cpu((4096, 63), (63, 1), torch.float32)
    triton_unk_fused_ce_fwd_0.run(primals_1, primals_2, buf1, buf2, buf3, 258048, 2048)
    buf6 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    triton_per_fused_ce_fwd_1.run(buf3, buf6, 4096, 63)
    del buf3
    buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf7 = buf4; del buf4  # reuse
    triton_per_fused_ce_fwd_2.run(buf7, buf1, buf2, 4096, 63)
    del buf1
    del buf2
    buf8 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf9 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf10 = empty_strided_cpu((), (), torch.float32)
    buf11 = empty_strided_cpu((), (), torch.float32)
    buf12 = buf10; del buf10  # reuse
    triton_red_fused_ce_fwd_3.run(buf12, primals_2, primals_1, buf7, buf6, buf8, buf9, buf11, 1, 4096)
    return (buf12, primals_1, primals_2, buf7, buf8, buf9, buf11, )


@triton_heuristics.fixed_config(config={'XBLOCK': 1, 'num_warps': 1, 'num_stages': 1})  # in_ptr0: *bf16, in_ptr1: *i64, out_ptr0: *fp32, out_ptr1: *fp32, out_ptr2: *fp32
@triton.jit
def triton_unk_fused_ce_fwd_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel):
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
    tl.store(out_ptr0 + (x3), tmp21, None)
    tl.store(out_ptr1 + (x3), tmp30, None)
    tl.store(out_ptr2 + (x3), tmp35, None)


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


@triton_heuristics.persistent_reduction(size_hints={'x': 4096, 'r0_': 64}, reduction_hint=ReductionHint.INNER)  # in_out_ptr0: *fp32, in_ptr0: *fp32, in_ptr1: *fp32
@triton.jit
def triton_per_fused_ce_fwd_2(in_out_ptr0, in_ptr0, in_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp1 = tl.load(in_ptr1 + (r0_1 + 63*x0), r0_mask, eviction_policy='evict_first', other=0.0)
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
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(r0_mask, tmp14, 0)
    tmp16 = tl.sum(tmp15, 1)[:, None].to(tl.float32)
    tmp17 = tl_math.log(tmp16)
    tmp18 = tmp4 + tmp17
    tl.store(in_out_ptr0 + (x0), tmp18, None)


@triton_heuristics.reduction(size_hints={'x': 1, 'r0_': 4096}, reduction_hint=ReductionHint.DEFAULT)  # in_out_ptr0: *fp32, in_ptr0: *i64, in_ptr1: *bf16, in_ptr2: *fp32, in_ptr3: *fp32, out_ptr0: *i1, out_ptr1: *fp32, out_ptr2: *fp32
@triton.jit
def triton_red_fused_ce_fwd_3(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
        tl.device_assert(tmp14, 'inductor_ce: target out of range: every target must be in [0, V) or equal to ignore_index')
        tmp15 = tmp0 != tmp7
        tmp16 = tmp6 != tmp7
        tmp17 = tmp16 & tmp12
        tmp18 = tmp6.to(tl.int32)
        tmp19 = tl.full([1, 1], -1, tl.int32)
        tmp20 = tl.where(tmp17, tmp18, tmp19)
        tmp21 = tl.full([1, 1], 0, tl.int32)
        tmp22 = tmp20 >= tmp21
        tmp23 = tl.where(tmp22, tmp20, tmp21)
        tmp24 = (tl.full([1, 1], 128256, tl.int32)).to(tl.int32)
        tmp25 = tmp23 + tmp24
        tmp26 = tmp23 < 0
        tmp27 = tl.where(tmp26, tmp25, tmp23)
        tmp28 = tl.load(in_ptr1 + (tmp27 + 128256*r0_0), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp29 = tmp28.to(tl.float32)
        tmp30 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp31 = tl.where(tmp22, tmp29, tmp30)
        tmp32 = tl.full([1, 1], 0.0, tl.float32)
        tmp33 = tl.where(tmp15, tmp31, tmp32)
        tmp34 = tmp15.to(tl.float32)
        tmp35 = tl.full([1, 1], 0.9, tl.float32)
        tmp36 = tmp34 * tmp35
        tmp37 = tl.where(tmp15, tmp1, tmp32)
        tmp38 = tl.maximum(tmp33, tmp32, tl.PropagateNan.ALL)
        tmp39 = tmp38 * tmp32
        tmp40 = tmp37 + tmp39
        tmp41 = tmp40 - tmp33
        tmp42 = tl.full([1, 1], 20.0, tl.float32)
        tmp43 = tmp41 > tmp42
        tmp44 = libdevice.exp(tmp41)
        tmp45 = libdevice.log1p(tmp44)
        tmp46 = tl.where(tmp43, tmp41, tmp45)
        tmp47 = tmp36 * tmp46
        tmp48 = tmp40 == tmp40
        tmp49 = tl_math.abs(tmp40)
        tmp50 = tl.full([1, 1], float("inf"), tl.float32)
        tmp51 = tmp49 != tmp50
        tmp52 = tmp48 & tmp51
        tmp53 = tmp52 == 0
        tmp54 = tmp40 == tmp33
        tmp55 = tmp53 & tmp54
        tmp56 = tmp40 >= tmp33
        tmp57 = tl.where(tmp56, tmp40, tmp33)
        tmp58 = tl.where(tmp56, tmp33, tmp40)
        tmp59 = tmp58 - tmp57
        tmp60 = libdevice.exp(tmp59)
        tmp61 = libdevice.log1p(tmp60)
        tmp62 = tmp57 + tmp61
        tmp63 = tl.where(tmp55, tmp40, tmp62)
        tmp64 = tl.full([1, 1], 128256.0, tl.float32)
        tmp65 = tmp63 * tmp64
        tmp66 = tl.where(tmp15, tmp2, tmp32)
        tmp67 = tmp65 - tmp66
        tmp68 = tl.full([1, 1], 7.796906187624751e-07, tl.float32)
        tmp69 = tmp67 * tmp68
        tmp70 = tmp47 + tmp69
        tmp71 = tl.where(tmp15, tmp70, tmp32)
        tmp72 = tl.broadcast_to(tmp71, [XBLOCK, R0_BLOCK])
        tmp73 = _tmp0 + tmp72
        _tmp0 = tl.where(r0_mask, tmp73, _tmp0)
        tmp74 = tl.broadcast_to(tmp34, [XBLOCK, R0_BLOCK])
        tmp75 = _tmp1 + tmp74
        _tmp1 = tl.where(r0_mask, tmp75, _tmp1)
        tl.store(out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp15, r0_mask)
        tl.store(out_ptr1 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp33, r0_mask)
    tmp76 = tl.sum(_tmp0, 1)[:, None]
    tmp77 = tl.sum(_tmp1, 1)[:, None]
    tl.store(out_ptr2 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp77, None)
    tmp78 = (tmp76 / tmp77)
    tl.store(in_out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp78, None)
