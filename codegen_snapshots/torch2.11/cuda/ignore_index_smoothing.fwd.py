# forward of ce(x, t, ignore_index=0, label_smoothing=0.1)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1))
    assert_size_stride(primals_2, (4096, ), (1, ))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((4096, 63), (63, 1), torch.float32)
        buf1 = empty_strided_cuda((4096, 63), (63, 1), torch.float32)
        buf2 = empty_strided_cuda((4096, 63), (63, 1), torch.float32)
        triton_unk_fused_ce_fwd_0.run(primals_1, primals_2, buf0, buf1, buf2, 258048, 2048)
        buf5 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf3 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf6 = buf3; del buf3  # reuse
        buf10 = empty_strided_cuda((4096, ), (1, ), torch.bool)
        buf11 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf12 = buf5; del buf5  # reuse
        triton_per_fused_ce_fwd_1.run(buf6, buf12, buf2, buf0, buf1, primals_2, primals_1, buf10, buf11, 4096, 63)
        del buf0
        del buf1
        del buf2
        triton_red_fused_2.run(primals_2, 1, 4096)
        buf13 = empty_strided_cuda((), (), torch.float32)
        buf14 = empty_strided_cuda((), (), torch.float32)
        buf15 = buf13; del buf13  # reuse
        triton_red_fused_3.run(buf15, buf10, buf12, buf14, 1, 4096)
        del buf12
    return (buf15, primals_1, primals_2, buf6, buf10, buf11, buf14, )


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
    tmp1 = r0_2 + 2048*x0
    tmp2 = tl.full([1], 128256, tl.int32)
    tmp3 = tmp1 < tmp2
    tmp4 = tl.load(in_ptr0 + (r0_2 + 2048*x0 + 128256*x1), tmp3, other=float("-inf")).to(tl.float32)
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


@triton_heuristics.persistent_reduction(size_hints={'x': 4096, 'r0_': 64}, reduction_hint=ReductionHint.INNER)  # in_out_ptr0: *fp32, in_out_ptr1: *fp32, in_ptr0: *fp32, in_ptr1: *fp32, in_ptr2: *fp32, in_ptr3: *i64, in_ptr4: *bf16, out_ptr1: *i1, out_ptr2: *fp32
@triton.jit
def triton_per_fused_ce_fwd_1(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp0 = tl.load(in_ptr0 + (r0_1 + 63*x0), r0_mask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 63*x0), r0_mask, other=0.0)
    tmp2 = tl.load(in_ptr2 + (r0_1 + 63*x0), r0_mask, other=0.0)
    tmp3 = tl.load(in_ptr3 + (x0), None, eviction_policy='evict_last')
    tmp4 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp5 = tl.where(r0_mask, tmp4, 0)
    tmp6 = tl.sum(tmp5, 1)[:, None].to(tl.float32)
    tmp7 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp8 = tl.where(r0_mask, tmp7, float("-inf"))
    tmp9 = triton_helpers.max2(tmp8, 1)[:, None].to(tl.float32)
    tmp10 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp11 = tmp9 == tmp10
    tmp12 = tl.full([1, 1], 0.0, tl.float32)
    tmp13 = tl.where(tmp11, tmp12, tmp9)
    tmp14 = tmp1 - tmp13
    tmp15 = tl.full([1, 1], 1.4426950408889634, tl.float32)
    tmp16 = tmp14 * tmp15
    tmp17 = libdevice.exp2(tmp16)
    tmp18 = tmp2 * tmp17
    tmp19 = tl.broadcast_to(tmp18, [XBLOCK, R0_BLOCK])
    tmp20 = tl.where(r0_mask, tmp19, 0)
    tmp21 = tl.sum(tmp20, 1)[:, None].to(tl.float32)
    tmp22 = tl_math.log(tmp21)
    tmp23 = tmp9 + tmp22
    tmp24 = tl.full([1, 1], 0, tl.int64)
    tmp25 = tmp3 != tmp24
    tmp26 = tmp3.to(tl.int64)
    tmp27 = tmp26 != tmp24
    tmp28 = tmp26 >= tmp24
    tmp29 = tl.full([1, 1], 128256, tl.int64)
    tmp30 = tmp26 < tmp29
    tmp31 = tmp28 & tmp30
    tmp32 = tmp27 & tmp31
    tmp33 = tmp26.to(tl.int32)
    tmp34 = tl.full([1, 1], -1, tl.int32)
    tmp35 = tl.where(tmp32, tmp33, tmp34)
    tmp36 = tl.full([1, 1], 0, tl.int32)
    tmp37 = tmp35 >= tmp36
    tmp38 = tl.where(tmp37, tmp35, tmp36)
    tmp39 = tl.full([1, 1], 128256, tl.int32)
    tmp40 = tmp38 + tmp39
    tmp41 = tmp38 < 0
    tmp42 = tl.where(tmp41, tmp40, tmp38)
    tmp43 = tl.load(in_ptr4 + (tmp42 + 128256*x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp44 = tmp43.to(tl.float32)
    tmp45 = tl.where(tmp37, tmp44, tmp10)
    tmp46 = tl.where(tmp25, tmp45, tmp12)
    tmp47 = tmp25.to(tl.float32)
    tmp48 = tl.full([1, 1], 0.9, tl.float32)
    tmp49 = tmp47 * tmp48
    tmp50 = tl.where(tmp25, tmp23, tmp12)
    tmp51 = tmp50 - tmp46
    tmp52 = tl.full([1, 1], 20.0, tl.float32)
    tmp53 = tmp51 > tmp52
    tmp54 = libdevice.exp(tmp51)
    tmp55 = libdevice.log1p(tmp54)
    tmp56 = tl.where(tmp53, tmp51, tmp55)
    tmp57 = tmp49 * tmp56
    tmp58 = tmp50 == tmp50
    tmp59 = tl_math.abs(tmp50)
    tmp60 = tl.full([1, 1], float("inf"), tl.float32)
    tmp61 = tmp59 != tmp60
    tmp62 = tmp58 & tmp61
    tmp63 = tmp62 == 0
    tmp64 = tmp50 == tmp46
    tmp65 = tmp63 & tmp64
    tmp66 = tmp50 >= tmp46
    tmp67 = tl.where(tmp66, tmp50, tmp46)
    tmp68 = tl.where(tmp66, tmp46, tmp50)
    tmp69 = tmp68 - tmp67
    tmp70 = libdevice.exp(tmp69)
    tmp71 = libdevice.log1p(tmp70)
    tmp72 = tmp67 + tmp71
    tmp73 = tl.where(tmp65, tmp50, tmp72)
    tmp74 = tl.full([1, 1], 128256.0, tl.float32)
    tmp75 = tmp73 * tmp74
    tmp76 = tl.where(tmp25, tmp6, tmp12)
    tmp77 = tmp75 - tmp76
    tmp78 = tl.full([1, 1], 7.796906187624751e-07, tl.float32)
    tmp79 = tmp77 * tmp78
    tmp80 = tmp57 + tmp79
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp23, None)
    tl.store(out_ptr1 + (x0), tmp25, None)
    tl.store(out_ptr2 + (x0), tmp46, None)
    tl.debug_barrier()
    tl.store(in_out_ptr1 + (x0), tmp80, None)


@triton_heuristics.reduction(size_hints={'x': 1, 'r0_': 4096}, reduction_hint=ReductionHint.INNER)  # in_ptr0: *i64
@triton.jit
def triton_red_fused_2(in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_0 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.full([1, 1], 0, tl.int64)
        tmp2 = tmp0 == tmp1
        tmp3 = tmp0 >= tmp1
        tmp4 = tl.full([1, 1], 128256, tl.int64)
        tmp5 = tmp0 < tmp4
        tmp6 = tmp3 & tmp5
        tmp7 = tmp2 | tmp6
        tmp8 = tmp7 == 0
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp10 = _tmp0 | tmp9
        _tmp0 = tl.where(r0_mask, tmp10, _tmp0)
    tmp11 = _tmp0.to(tl.int8)
    tmp12 = triton_helpers.any(tmp11, 1)[:, None]
    tmp13 = tmp12 == 0
    tl.device_assert(tmp13, 'inductor_ce.cross_entropy: target out of range: every target must be in [0, V) or equal to ignore_index')


@triton_heuristics.reduction(size_hints={'x': 1, 'r0_': 4096}, reduction_hint=ReductionHint.INNER)  # in_out_ptr0: *fp32, in_ptr0: *i1, in_ptr1: *fp32, out_ptr0: *fp32
@triton.jit
def triton_red_fused_3(in_out_ptr0, in_ptr0, in_ptr1, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
        tmp2 = tl.full([1, 1], 0.0, tl.float32)
        tmp3 = tl.where(tmp0, tmp1, tmp2)
        tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
        tmp5 = _tmp0 + tmp4
        _tmp0 = tl.where(r0_mask, tmp5, _tmp0)
        tmp6 = tmp0.to(tl.float32)
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp8 = _tmp1 + tmp7
        _tmp1 = tl.where(r0_mask, tmp8, _tmp1)
    tmp9 = tl.sum(_tmp0, 1)[:, None]
    tmp10 = tl.sum(_tmp1, 1)[:, None]
    tl.store(out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp10, None)
    tmp11 = (tmp9 / tmp10)
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp11, None)
