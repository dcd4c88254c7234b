# forward of ce(x, t), x: bf16[8, 128256]
def call(args):
    primals_1, primals_2 = args
    assert_size_stride_grouped((primals_1, primals_2), ((8, 128256), (8, )), ((128256, 1), (1, )), 'input')
    buf1 = empty_strided_cpu((8, 63), (63, 1), torch.float32)
    buf3 = buf1; del buf1  # reuse
    triton_unk_fused_ce_fwd_0.run(buf3, primals_1, primals_2, 504, 2048)
    buf4 = empty_strided_cpu((8, ), (1, ), torch.float32)
    buf5 = empty_strided_cpu((8, ), (1, ), torch.float32)
    triton_per_fused_ce_fwd_1.run(buf3, buf4, buf5, 8, 63)
    del buf3
    buf6 = buf4; del buf4  # reuse
    buf7 = empty_strided_cpu((8, ), (1, ), torch.float32)
    buf8 = empty_strided_cpu((), (), torch.float32)
    buf9 = empty_strided_cpu((), (), torch.float32)
    buf10 = buf8; del buf8  # reuse
    triton_per_fused_ce_fwd_2.run(buf6, buf10, buf5, primals_2, primals_1, buf7, buf9, 1, 8)
    return (buf10, primals_1, primals_2, buf6, buf7, buf9, )


@triton_heuristics.fixed_config(config={'XBLOCK': 1, 'num_warps': 1, 'num_stages': 1})  # in_out_ptr0: *fp32, in_ptr0: *bf16, in_ptr1: *i64
@triton.jit
def triton_unk_fused_ce_fwd_0(in_out_ptr0, in_ptr0, in_ptr1, xnumel, r0_numel):
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
    tmp32 = tl_math.log(tmp31)
    tmp33 = tmp22 + tmp32
    tl.store(in_out_ptr0 + (x3), tmp33, None)


@triton_heuristics.persistent_reduction(size_hints={'x': 8, 'r0_': 64}, reduction_hint=ReductionHint.INNER)  # in_ptr0: *fp32, out_ptr0: *fp32, out_ptr1: *fp32
@triton.jit
def triton_per_fused_ce_fwd_1(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp2 = tl.where(r0_mask & xmask, tmp1, float("-inf"))
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
    tmp13 = tl.where(r0_mask & xmask, tmp12, 0)
    tmp14 = tl.sum(tmp13, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp3, xmask)
    tl.store(out_ptr1 + (x0), tmp14, xmask)


@triton_heuristics.persistent_reduction(size_hints={'x': 1, 'r0_': 8}, reduction_hint=ReductionHint.DEFAULT)  # in_out_ptr0: *fp32, in_out_ptr1: *fp32, in_ptr0: *fp32, in_ptr1: *i64, in_ptr2: *bf16, out_ptr0: *fp32, out_ptr1: *fp32
@triton.jit
def triton_per_fused_ce_fwd_2(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp5 = (r0_0).to(tl.int32)
    tmp6 = tl.full([1, 1], 8, tl.int64)
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
    tmp18 = tmp2.to(tl.int32)
    tmp19 = tl.full([1, 1], -100, tl.int32)
    tmp20 = tmp18 != tmp19
    tmp21 = tl.full([1, 1], 0.0, tl.float32)
    tmp22 = tl.where(tmp20, tmp4, tmp21)
    tmp23 = tmp8 != tmp9
    tmp24 = tmp23 & tmp15
    tmp25 = tmp8.to(tl.int32)
    tmp26 = tl.full([1, 1], -1, tl.int32)
    tmp27 = tl.where(tmp24, tmp25, tmp26)
    tmp28 = tl.full([1, 1], 0, tl.int32)
    tmp29 = tmp27 >= tmp28
    tmp30 = tl.where(tmp29, tmp27, tmp28)
    tmp31 = (tl.full([1, 1], 128256, tl.int32)).to(tl.int32)
    tmp32 = tmp30 + tmp31
    tmp33 = tmp30 < 0
    tmp34 = tl.where(tmp33, tmp32, tmp30)
    tmp35 = tl.load(in_ptr2 + (tmp34 + 128256*r0_0), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp36 = tmp35.to(tl.float32)
    tmp37 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp38 = tl.where(tmp29, tmp36, tmp37)
    tmp39 = tl.where(tmp20, tmp38, tmp21)
    tmp40 = tl.maximum(tmp39, tmp21, tl.PropagateNan.ALL)
    tmp41 = tmp40 * tmp21
    tmp42 = tmp22 + tmp41
    tmp43 = tmp42 - tmp39
    tmp44 = tmp20.to(tl.float32)
    tmp45 = tl.full([1, 1], 20.0, tl.float32)
    tmp46 = tmp43 > tmp45
    tmp47 = libdevice.exp(tmp43)
    tmp48 = libdevice.log1p(tmp47)
    tmp49 = tl.where(tmp46, tmp43, tmp48)
    tmp50 = tmp44 * tmp49
    tmp51 = tl.where(tmp20, tmp50, tmp21)
    tmp52 = tl.broadcast_to(tmp51, [XBLOCK, R0_BLOCK])
    tmp53 = tl.where(r0_mask, tmp52, 0)
    tmp54 = tl.sum(tmp53, 1)[:, None].to(tl.float32)
    tmp55 = tl.broadcast_to(tmp44, [XBLOCK, R0_BLOCK])
    tmp56 = tl.where(r0_mask, tmp55, 0)
    tmp57 = tl.sum(tmp56, 1)[:, None].to(tl.float32)
    tmp58 = (tmp54 / tmp57)
    tl.store(in_out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp4, r0_mask)
    tl.store(out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp43, r0_mask)
    tl.store(in_out_ptr1 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp58, None)
    tl.store(out_ptr1 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp57, None)
