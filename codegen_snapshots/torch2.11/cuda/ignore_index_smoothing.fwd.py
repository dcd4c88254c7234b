# forward of ce(x, t, ignore_index=0, label_smoothing=0.1)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1))
    assert_size_stride(primals_2, (4096, ), (1, ))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf1 = empty_strided_cuda((4096, 63), (63, 1), torch.float32)
        buf2 = empty_strided_cuda((4096, 63), (63, 1), torch.float32)
        buf3 = empty_strided_cuda((4096, 63), (63, 1), torch.float32)
        triton_unk_fused_ce_fwd_0.run(primals_1, primals_2, buf1, buf2, buf3, 258048, 2048)
        buf6 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf4 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf7 = buf4; del buf4  # reuse
        buf8 = empty_strided_cuda((4096, ), (1, ), torch.bool)
        buf9 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf10 = buf6; del buf6  # reuse
        triton_per_fused_ce_fwd_1.run(buf7, buf10, buf3, buf1, buf2, primals_2, primals_1, buf8, buf9, 4096, 63)
        del buf1
        del buf2
        del buf3
        buf11 = empty_strided_cuda((), (), torch.float32)
        buf12 = empty_strided_cuda((), (), torch.float32)
        buf13 = buf11; del buf11  # reuse
        triton_red_fused_2.run(buf13, buf8, buf10, buf12, 1, 4096)
        del buf10
    return (buf13, primals_1, primals_2, buf7, buf8, buf9, buf12, )


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
    tmp24 = x0
    tmp25 = tl.full([1, 1], 4096, tl.int64)
    tmp26 = tmp24 >= tmp25
    tmp27 = tmp3.to(tl.int64)
    tmp28 = tl.full([1, 1], 0, tl.int64)
    tmp29 = tmp27 == tmp28
    tmp30 = tmp27 >= tmp28
    tmp31 = tl.full([1, 1], 128256, tl.int64)
    tmp32 = tmp27 < tmp31
    tmp33 = tmp30 & tmp32
    tmp34 = tmp29 | tmp33
    tmp35 = tmp26 | tmp34
    tl.device_assert(tmp35, 'inductor_ce.cross_entropy: target out of range: every target must be in [0, V) or equal to ignore_index')
    tmp36 = tmp3 != tmp28
    tmp37 = tmp27 != tmp28
    tmp38 = tmp37 & tmp33
    tmp39 = tmp27.to(tl.int32)
    tmp40 = tl.full([1, 1], -1, tl.int32)
    tmp41 = tl.where(tmp38, tmp39, tmp40)
    tmp42 = tl.full([1, 1], 0, tl.int32)
    tmp43 = tmp41 >= tmp42
    tmp44 = tl.where(tmp43, tmp41, tmp42)
    tmp45 = tl.full([1, 1], 128256, tl.int32)
    tmp46 = tmp44 + tmp45
    tmp47 = tmp44 < 0
    tmp48 = tl.where(tmp47, tmp46, tmp44)
    tmp49 = tl.load(in_ptr4 + (tmp48 + 128256*x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp50 = tmp49.to(tl.float32)
    tmp51 = tl.where(tmp43, tmp50, tmp10)
    tmp52 = tl.where(tmp36, tmp51, tmp12)
    tmp53 = tmp36.to(tl.float32)
    tmp54 = tl.full([1, 1], 0.9, tl.float32)
    tmp55 = tmp53 * tmp54
    tmp56 = tl.where(tmp36, tmp23, tmp12)
    tmp57 = tmp56 - tmp52
    tmp58 = tl.full([1, 1], 20.0, tl.float32)
    tmp59 = tmp57 > tmp58
    tmp60 = libdevice.exp(tmp57)
    tmp61 = libdevice.log1p(tmp60)
    tmp62 = tl.where(tmp59, tmp57, tmp61)
    tmp63 = tmp55 * tmp62
    tmp64 = tmp56 == tmp56
    tmp65 = tl_math.abs(tmp56)
    tmp66 = tl.full([1, 1], float("inf"), tl.float32)
    tmp67 = tmp65 != tmp66
    tmp68 = tmp64 & tmp67
    tmp69 = tmp68 == 0
    tmp70 = tmp56 == tmp52
    tmp71 = tmp69 & tmp70
    tmp72 = tmp56 >= tmp52
    tmp73 = tl.where(tmp72, tmp56, tmp52)
    tmp74 = tl.where(tmp72, tmp52, tmp56)
    tmp75 = tmp74 - tmp73
    tmp76 = libdevice.exp(tmp75)
    tmp77 = libdevice.log1p(tmp76)
    tmp78 = tmp73 + tmp77
    tmp79 = tl.where(tmp71, tmp56, tmp78)
    tmp80 = tl.full([1, 1], 128256.0, tl.float32)
    tmp81 = tmp79 * tmp80
    tmp82 = tl.where(tmp36, tmp6, tmp12)
    tmp83 = tmp81 - tmp82
    tmp84 = tl.full([1, 1], 7.796906187624751e-07, tl.float32)
    tmp85 = tmp83 * tmp84
    tmp86 = tmp63 + tmp85
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp23, None)
    tl.store(out_ptr1 + (x0), tmp36, None)
    tl.store(out_ptr2 + (x0), tmp52, None)
    tl.debug_barrier()
    tl.store(in_out_ptr1 + (x0), tmp86, None)


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
