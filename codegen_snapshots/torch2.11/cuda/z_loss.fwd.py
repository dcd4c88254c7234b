# forward of ce(x, t, z_loss=1e-4)
def call(args):
    primals_1, primals_2 = args
    assert_size_stride(primals_1, (4096, 128256), (128256, 1))
    assert_size_stride(primals_2, (4096, ), (1, ))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf1 = empty_strided_cuda((4096, 63), (63, 1), torch.float32)
        buf2 = empty_strided_cuda((4096, 63), (63, 1), torch.float32)
        triton_unk_fused_ce_fwd_0.run(primals_1, primals_2, buf1, buf2, 258048, 2048)
        buf3 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf5 = buf3; del buf3  # reuse
        buf6 = empty_strided_cuda((4096, ), (1, ), torch.bool)
        buf7 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        buf8 = empty_strided_cuda((4096, ), (1, ), torch.bool)
        buf9 = empty_strided_cuda((4096, ), (1, ), torch.bool)
        buf10 = empty_strided_cuda((4096, ), (1, ), torch.float32)
        triton_per_fused_ce_fwd_1.run(buf5, buf1, buf2, primals_2, primals_1, buf6, buf7, buf8, buf9, buf10, 4096, 63)
        del buf1
        del buf2
        buf11 = empty_strided_cuda((), (), torch.float32)
        buf12 = empty_strided_cuda((), (), torch.float32)
        buf13 = buf11; del buf11  # reuse
        triton_red_fused_2.run(buf13, buf6, buf10, buf12, 1, 4096)
        del buf10
    return (buf13, primals_1, primals_2, buf5, buf6, buf7, buf8, buf9, buf12, )


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
    tmp1 = r0_2 + 2048*x0
    tmp2 = tl.full([1], 128256, tl.int32)
    tmp3 = tmp1 < tmp2
    tmp4 = tl.load(in_ptr0 + (r0_2 + 2048*x0 + 128256*x1), tmp3, other=float("-inf")).to(tl.float32)
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


@triton_heuristics.persistent_reduction(size_hints={'x': 4096, 'r0_': 64}, reduction_hint=ReductionHint.INNER)  # in_out_ptr0: *fp32, in_ptr0: *fp32, in_ptr1: *fp32, in_ptr2: *i64, in_ptr3: *bf16, out_ptr1: *i1, out_ptr2: *fp32, out_ptr3: *i1, out_ptr4: *i1, out_ptr5: *fp32
@triton.jit
def triton_per_fused_ce_fwd_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, out_ptr2, out_ptr3, out_ptr4, out_ptr5, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp2 = tl.load(in_ptr2 + (x0), None, eviction_policy='evict_last')
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
    tmp20 = x0
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
    tmp34 = tmp23 != tmp24
    tmp35 = tmp34 & tmp30
    tmp36 = tmp23.to(tl.int32)
    tmp37 = tl.full([1, 1], -1, tl.int32)
    tmp38 = tl.where(tmp35, tmp36, tmp37)
    tmp39 = tl.full([1, 1], 0, tl.int32)
    tmp40 = tmp38 >= tmp39
    tmp41 = tl.where(tmp40, tmp38, tmp39)
    tmp42 = tl.full([1, 1], 128256, tl.int32)
    tmp43 = tmp41 + tmp42
    tmp44 = tmp41 < 0
    tmp45 = tl.where(tmp44, tmp43, tmp41)
    tmp46 = tl.load(in_ptr3 + (tmp45 + 128256*x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp47 = tmp46.to(tl.float32)
    tmp48 = tl.where(tmp40, tmp47, tmp6)
    tmp49 = tl.where(tmp33, tmp48, tmp8)
    tmp50 = tl.where(tmp33, tmp19, tmp8)
    tmp51 = triton_helpers.maximum(tmp49, tmp8)
    tmp52 = tmp51 * tmp8
    tmp53 = tmp50 + tmp52
    tmp54 = tmp53 >= tmp49
    tmp55 = tmp53 == tmp53
    tmp56 = tl_math.abs(tmp53)
    tmp57 = tl.full([1, 1], float("inf"), tl.float32)
    tmp58 = tmp56 != tmp57
    tmp59 = tmp55 & tmp58
    tmp60 = tmp59 == 0
    tmp61 = tmp53 == tmp49
    tmp62 = tmp60 & tmp61
    tmp63 = tmp33.to(tl.float32)
    tmp64 = tl.full([1, 1], 1.0, tl.float32)
    tmp65 = tmp63 * tmp64
    tmp66 = tmp53 - tmp49
    tmp67 = tl.full([1, 1], 20.0, tl.float32)
    tmp68 = tmp66 > tmp67
    tmp69 = libdevice.exp(tmp66)
    tmp70 = libdevice.log1p(tmp69)
    tmp71 = tl.where(tmp68, tmp66, tmp70)
    tmp72 = tmp65 * tmp71
    tmp73 = tl.full([1, 1], 0.0001, tl.float32)
    tmp74 = tmp63 * tmp73
    tmp75 = tl.where(tmp54, tmp53, tmp49)
    tmp76 = tl.where(tmp54, tmp49, tmp53)
    tmp77 = tmp76 - tmp75
    tmp78 = libdevice.exp(tmp77)
    tmp79 = libdevice.log1p(tmp78)
    tmp80 = tmp75 + tmp79
    tmp81 = tl.where(tmp62, tmp53, tmp80)
    tmp82 = tmp81 * tmp81
    tmp83 = tmp74 * tmp82
    tmp84 = tmp72 + tmp83
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp19, None)
    tl.store(out_ptr1 + (x0), tmp33, None)
    tl.store(out_ptr2 + (x0), tmp49, None)
    tl.store(out_ptr3 + (x0), tmp54, None)
    tl.store(out_ptr4 + (x0), tmp62, None)
    tl.store(out_ptr5 + (x0), tmp84, None)


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
