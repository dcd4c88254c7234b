# forward of ce(x, t)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride_grouped((primals_1, primals_2), ((4096, 128256), (4096, )), ((128256, 1), (1, )), 'input')
    buf1 = empty_strided_cpu((4096, 63), (63, 1), torch.float32)
    buf2 = empty_strided_cpu((4096, 63), (63, 1), torch.float32)
    triton_unk_fused_ce_fwd_0.run(primals_1, primals_2, buf1, buf2, 258048, 2048)
    buf3 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    buf5 = buf3; del buf3  # reuse
    buf6 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf7 = empty_strided_cpu((4096, ), (1, ), torch.float32)
    triton_per_fused_ce_fwd_1.run(buf5, buf1, buf2, primals_2, primals_1, buf6, buf7, 4096, 63)
    del buf1
    del buf2
    buf8 = empty_strided_cpu((), (), torch.float32)
    buf9 = empty_strided_cpu((), (), torch.float32)
    buf10 = buf8; del buf8  # reuse
    triton_red_fused_2.run(buf10, buf6, buf7, buf9, 1, 4096)
    return (buf10, primals_1, primals_2, buf5, buf6, buf7, buf9, )


@triton_heuristics.fixed_config(config={'XBLOCK': 1, 'num_warps': 1, 'num_stages': 1})  # in_ptr0: *bf16, in_ptr1: *i64, out_ptr0: *fp32, out_ptr1: *fp32
@triton.jit
def triton_unk_fused_ce_fwd_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel):
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


@triton_heuristics.persistent_reduction(size_hints={'x': 4096, 'r0_': 64}, reduction_hint=ReductionHint.INNER)  # in_out_ptr0: *fp32, in_ptr0: *fp32, in_ptr1: *fp32, in_ptr2: *i64, in_ptr3: *bf16, out_ptr1: *i1, out_ptr2: *fp32
@triton.jit
def triton_per_fused_ce_fwd_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp2 = tl.load(in_ptr2 + (x0), None)
    tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.where(r0_mask, tmp3, float("-inf"))
    tmp5 = triton_helpers.max2(tmp4, 1)[:, None].to(tl.float32)
    tmp6 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp7 = tmp5 == tmp6
    tmp8 = tl.full([1, 1], 0.0, tl.float32)
    tmp9 = tl.where(tmp7, tmp8, tmp5)
    tmp10 = tmp0 - tmp9
    tmp11 = tl.full([1, 1], 1.4426950408889634, tl.float32)
    tmp12 = tmp10 * tmp11
    tmp13 = libdevice.exp2(tmp12)
    tmp14 = tmp1 * tmp13
    tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
    tmp16 = tl.where(r0_mask, tmp15, 0)
    tmp17 = tl.sum(tmp16, 1)[:, None].to(tl.float32)
    tmp18 = tl_math.log(tmp17)
    tmp19 = tmp5 + tmp18
    tmp20 = (x0).to(tl.int32)
    tmp21 = tl.full([1, 1], 4096, tl.int64)
    tmp22 = tmp20 >= tmp21
    tmp23 = tmp2.to(tl.int64)
    tmp24 = tl.full([1, 1], -100, tl.int64)
    tmp25 = tmp23 == tmp24
    tmp26 = tl.full([1, 1], 0, tl.int64)
    tmp27 = tmp23 >= tmp26
    tmp28 = tl.full([1, 1], 128256, tl.int64)
    tmp29 = tmp23 < tmp28
    tmp30 = tmp27 & tmp29
    tmp31 = tmp25 | tmp30
    tmp32 = tmp22 | tmp31
    tl.device_assert(tmp32, 'inductor_ce: target out of range: every target must be in [0, V) or equal to ignore_index')
    tmp33 = tmp2 != tmp24
    tmp34 = tl.where(tmp33, tmp19, tmp8)
    tmp35 = tmp23 != tmp24
    tmp36 = tmp35 & tmp30
    tmp37 = tmp23.to(tl.int32)
    tmp38 = tl.full([1, 1], -1, tl.int32)
    tmp39 = tl.where(tmp36, tmp37, tmp38)
    tmp40 = tl.full([1, 1], 0, tl.int32)
    tmp41 = tmp39 >= tmp40
    tmp42 = tl.where(tmp41, tmp39, tmp40)
    tmp43 = (tl.full([1, 1], 128256, tl.int32)).to(tl.int32)
    tmp44 = tmp42 + tmp43
    tmp45 = tmp42 < 0
    tmp46 = tl.where(tmp45, tmp44, tmp42)
    tmp47 = tl.load(in_ptr3 + (tmp46 + 128256*x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp48 = tmp47.to(tl.float32)
    tmp49 = tl.where(tmp41, tmp48, tmp6)
    tmp50 = tl.where(tmp33, tmp49, tmp8)
    tmp51 = tl.maximum(tmp50, tmp8, tl.PropagateNan.ALL)
    tmp52 = tmp51 * tmp8
    tmp53 = tmp34 + tmp52
    tmp54 = tmp53 - tmp50
    tl.store(in_out_ptr0 + (x0), tmp19, None)
    tl.store(out_ptr1 + (x0), tmp33, None)
    tl.store(out_ptr2 + (x0), tmp54, None)


@triton_heuristics.reduction(size_hints={'x': 1, 'r0_': 4096}, reduction_hint=ReductionHint.INNER)  # in_out_ptr0: *fp32, in_ptr0: *i1, in_ptr1: *fp32, out_ptr0: *fp32
@triton.jit
def triton_red_fused_2(in_out_ptr0, in_ptr0, in_ptr1, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
        tmp0 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.int1)
        tmp1 = tl.load(in_ptr1 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp2 = tmp0.to(tl.float32)
        tmp3 = tl.full([1, 1], 20.0, tl.float32)
        tmp4 = tmp1 > tmp3
        tmp5 = libdevice.exp(tmp1)
        tmp6 = libdevice.log1p(tmp5)
        tmp7 = tl.where(tmp4, tmp1, tmp6)
        tmp8 = tmp2 * tmp7
        tmp9 = tl.full([1, 1], 0.0, tl.float32)
        tmp10 = tl.where(tmp0, tmp8, tmp9)
        tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
        tmp12 = _tmp0 + tmp11
        _tmp0 = tl.where(r0_mask, tmp12, _tmp0)
        tmp13 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp14 = _tmp1 + tmp13
        _tmp1 = tl.where(r0_mask, tmp14, _tmp1)
    tmp15 = tl.sum(_tmp0, 1)[:, None]
    tmp16 = tl.sum(_tmp1, 1)[:, None]
    tl.store(out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp16, None)
    tmp17 = (tmp15 / tmp16)
    tl.store(in_out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp17, None)
