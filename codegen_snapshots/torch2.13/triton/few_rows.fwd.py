# forward of ce(x, t), x: bf16[8, 128256]
def call(args):
    primals_1, primals_2 = args
    assert_size_stride(primals_1, (8, 128256), (128256, 1), 'input')
    assert_size_stride(primals_2, (8, ), (1, ), 'input')
    buf0 = empty_strided_cpu((8, 63), (63, 1), torch.float32)
    buf1 = empty_strided_cpu((8, 63), (63, 1), torch.float32)
    triton_unk_fused_ce_fwd_0.run(primals_1, primals_2, buf0, buf1, 504, 2048)
    buf2 = empty_strided_cpu((8, ), (1, ), torch.float32)
    buf3 = empty_strided_cpu((8, ), (1, ), torch.float32)
    triton_per_fused_ce_fwd_1.run(buf0, buf1, buf2, buf3, 8, 63)
    del buf0
    del buf1
    buf4 = buf2; del buf2  # reuse
    buf8 = empty_strided_cpu((8, ), (1, ), torch.bool)
    buf9 = empty_strided_cpu((), (), torch.float32)
    buf11 = empty_strided_cpu((8, ), (1, ), torch.float32)
    buf10 = empty_strided_cpu((), (), torch.float32)
    buf12 = buf9; del buf9  # reuse
    triton_per_fused_ce_fwd_2.run(buf4, buf12, buf3, primals_2, primals_1, buf8, buf11, buf10, 1, 8)
    return (buf12, primals_1, primals_2, buf4, buf8, buf10, buf11, )


@triton_heuristics.fixed_config(config={'XBLOCK': 1, 'num_warps': 1, 'num_stages': 1})  # in_ptr0: *bf16, in_ptr1: *i64, out_ptr0: *fp32, out_ptr1: *fp32
@triton.jit
def triton_unk_fused_ce_fwd_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel):
    xnumel = 504
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


@triton_heuristics.persistent_reduction(size_hints={'x': 8, 'r0_': 64}, reduction_hint=ReductionHint.INNER)  # in_ptr0: *fp32, in_ptr1: *fp32, out_ptr0: *fp32, out_ptr1: *fp32
@triton.jit
def triton_per_fused_ce_fwd_1(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 8
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


@triton_heuristics.persistent_reduction(size_hints={'x': 1, 'r0_': 8}, reduction_hint=ReductionHint.DEFAULT)  # in_out_ptr0: *fp32, in_out_ptr1: *fp32, in_ptr0: *fp32, in_ptr1: *i64, in_ptr2: *bf16, out_ptr0: *i1, out_ptr1: *fp32, out_ptr2: *fp32
@triton.jit
def triton_per_fused_ce_fwd_2(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 1
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
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
    r0_0 = r0_index
    tmp0 = tl.load(in_out_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
    tmp2 = tl.load(in_ptr1 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
    tmp3 = tl_math.log(tmp1)
    tmp4 = tmp0 + tmp3
    tmp5 = tl.full([1, 1], -100, tl.int64)
    tmp6 = tmp2 == tmp5
    tmp7 = tl.full([1, 1], 0, tl.int64)
    tmp8 = tmp2 >= tmp7
    tmp9 = tl.full([1, 1], 128256, tl.int64)
    tmp10 = tmp2 < tmp9
    tmp11 = tmp8 & tmp10
    tmp12 = tmp6 | tmp11
    tmp13 = tmp12 == 0
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(r0_mask, tmp14, False)
    tmp16 = triton_helpers.any(tmp15, 1)[:, None].to(tl.int1)
    tmp17 = tmp2 != tmp5
    tmp18 = tmp17.to(tl.float32)
    tmp19 = tl.full([1, 1], 1.0, tl.float32)
    tmp20 = tmp18 * tmp19
    tmp21 = tl.full([1, 1], 0.0, tl.float32)
    tmp22 = tl.where(tmp17, tmp4, tmp21)
    tmp23 = tmp2.to(tl.int64)
    tmp24 = tmp23 != tmp5
    tmp25 = tmp23 >= tmp7
    tmp26 = tmp23 < tmp9
    tmp27 = tmp25 & tmp26
    tmp28 = tmp24 & tmp27
    tmp29 = tmp23.to(tl.int32)
    tmp30 = tl.full([1, 1], -1, tl.int32)
    tmp31 = tl.where(tmp28, tmp29, tmp30)
    tmp32 = tl.full([1, 1], 0, tl.int32)
    tmp33 = tmp31 >= tmp32
    tmp34 = tl.where(tmp33, tmp31, tmp32)
    tmp35 = (tl.full([1, 1], 128256, tl.int32)).to(tl.int32)
    tmp36 = tmp34 + tmp35
    tmp37 = tmp34 < 0
    tmp38 = tl.where(tmp37, tmp36, tmp34)
    tmp39 = tl.load(in_ptr2 + (tmp38 + 128256*r0_0), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp40 = tmp39.to(tl.float32)
    tmp41 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp42 = tl.where(tmp33, tmp40, tmp41)
    tmp43 = tl.where(tmp17, tmp42, tmp21)
    tmp44 = tmp22 - tmp43
    tmp45 = tl.full([1, 1], 20.0, tl.float32)
    tmp46 = tmp44 > tmp45
    tmp47 = libdevice.exp(tmp44)
    tmp48 = libdevice.log1p(tmp47)
    tmp49 = tl.where(tmp46, tmp44, tmp48)
    tmp50 = tmp20 * tmp49
    tmp51 = tl.where(tmp17, tmp50, tmp21)
    tmp52 = tl.broadcast_to(tmp51, [XBLOCK, R0_BLOCK])
    tmp53 = tl.where(r0_mask, tmp52, 0)
    tmp54 = tl.sum(tmp53, 1)[:, None].to(tl.float32)
    tmp55 = tmp44 * tmp19
    tmp56 = tl.broadcast_to(tmp18, [XBLOCK, R0_BLOCK])
    tmp57 = tl.where(r0_mask, tmp56, 0)
    tmp58 = tl.sum(tmp57, 1)[:, None].to(tl.float32)
    tmp59 = (tmp54 / tmp58)
    tmp60 = tmp16 == 0
    tl.device_assert(tmp60, 'inductor_ce.cross_entropy: target out of range: every target must be in [0, V) or equal to ignore_index')
    tl.store(in_out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp4, r0_mask)
    tl.store(out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp17, r0_mask)
    tl.store(out_ptr1 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp55, r0_mask)
    tl.store(in_out_ptr1 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp59, None)
    tl.store(out_ptr2 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp58, None)
