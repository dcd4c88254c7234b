# forward of linear_cross_entropy(h, w, t, policy='compact')
def call(args):
    primals_1, primals_2, primals_3 = args
    assert_size_stride_grouped((primals_2, primals_1, primals_3), ((4096, 4096), (128256, 4096), (4096, )), ((4096, 1), (4096, 1), (1, )), 'input')
    buf0 = torch.ops.inductor_ce.linear_ce_fwd.default(primals_2, primals_1, None, primals_3, None, -100, None, False, 0, 128256, 0, True)
    buf1 = buf0[0]
    assert_tensor_metadata(buf1, (4096, ), (1, ), torch.float32, 'torch.ops.inductor_ce.linear_ce_fwd.default')
    buf2 = buf0[1]
    assert_tensor_metadata(buf2, (4096, ), (1, ), torch.float32, 'torch.ops.inductor_ce.linear_ce_fwd.default')
    buf4 = buf0[3]
    assert_tensor_metadata(buf4, (4096, 4096), (4096, 1), torch.bfloat16, 'torch.ops.inductor_ce.linear_ce_fwd.default')
    del buf0
    buf6 = empty_strided_cpu((4096, ), (1, ), torch.bool)
    buf7 = buf2; del buf2  # reuse
    buf8 = empty_strided_cpu((), (), torch.float32)
    buf9 = empty_strided_cpu((), (), torch.float32)
    buf10 = buf8; del buf8  # reuse
    triton_red_fused_0.run(buf7, buf10, primals_3, buf1, buf6, buf9, 1, 4096)
    return (buf10, primals_1, primals_2, primals_3, buf1, buf4, buf6, buf7, buf9, )


@triton_heuristics.reduction(size_hints={'x': 1, 'r0_': 4096}, reduction_hint=ReductionHint.INNER)  # in_out_ptr0: *fp32, in_out_ptr1: *fp32, in_ptr0: *i64, in_ptr1: *fp32, out_ptr0: *i1, out_ptr1: *fp32
@triton.jit
def triton_red_fused_0(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
        tmp1 = tl.load(in_ptr1 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp2 = tl.load(in_out_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp3 = tl.full([1, 1], -100, tl.int64)
        tmp4 = tmp0 != tmp3
        tmp5 = tl.full([1, 1], 0.0, tl.float32)
        tmp6 = tl.where(tmp4, tmp1, tmp5)
        tmp7 = tl.where(tmp4, tmp2, tmp5)
        tmp8 = tl.maximum(tmp7, tmp5, tl.PropagateNan.ALL)
        tmp9 = tmp8 * tmp5
        tmp10 = tmp6 + tmp9
        tmp11 = tmp10 - tmp7
        tmp12 = tmp4.to(tl.float32)
        tmp13 = tl.full([1, 1], 20.0, tl.float32)
        tmp14 = tmp11 > tmp13
        tmp15 = libdevice.exp(tmp11)
        tmp16 = libdevice.log1p(tmp15)
        tmp17 = tl.where(tmp14, tmp11, tmp16)
        tmp18 = tmp12 * tmp17
        tmp19 = tl.where(tmp4, tmp18, tmp5)
        tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
        tmp21 = _tmp0 + tmp20
        _tmp0 = tl.where(r0_mask, tmp21, _tmp0)
        tmp22 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
        tmp23 = _tmp1 + tmp22
        _tmp1 = tl.where(r0_mask, tmp23, _tmp1)
        tl.store(out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp4, r0_mask)
        tl.store(in_out_ptr0 + (tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK])), tmp11, r0_mask)
    tmp24 = tl.sum(_tmp0, 1)[:, None]
    tmp25 = tl.sum(_tmp1, 1)[:, None]
    tl.store(out_ptr1 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp25, None)
    tmp26 = (tmp24 / tmp25)
    tl.store(in_out_ptr1 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp26, None)
