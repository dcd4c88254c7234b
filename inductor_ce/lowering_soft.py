"""Inductor lowerings of ``inductor_ce::soft_stats`` (the per-row statistics of probability
targets, ``op/soft.py``, from one read of the logits and one of the targets) and
``soft_grad`` (their gradient).

Notation as in ``op/soft.py``: z_j = s(x_j) in float32, c_j = w_j ((1 - eps) p_j + eps / V)
the target's mass, a the row's first argmax, M = z_a.

How is it parallelized? (Triton backends) As ``ce_fwd`` (``lowering.py``): one program per
(row, chunk of C columns), a persistent reduction that loads its chunk of x and p once and
computes from those loads, with one gap g_j = m_c - z_j >= 0 per column

    m_c = max_{j in c} z_j,        a_c = min {j in c : g_j = 0}      the chunk's first argmax
    s_c = sum_{j in c, j != a_c} exp(-g_j)
    P_c = sum_{j in c} c_j,        R_c = sum_{j in c, j != a_c} c_j
    D_c = sum_{j in c, c_j != 0} c_j g_j                              (terms >= 0)

The kernel is bound by instructions per column, not by bytes (docs/lowering.md#probability-
targets). Past V the masked loads' fill values (-inf, 0) stand for the missing columns, with
no select; g_j serves the argmax, the exponential and D, whose product feeds its sum as one
FMA; a_c is an int32 min over a key packing g_j's bits with j (``first_max``; a tie is
g_j < 2^-138 for C = 2048: g_j = 0, or a gap so small that exp(-g_j) is 1 as well), where
z_j is the loaded logit (with a softcap, a compare of z_j with m_c); bf16
logits of a buffer widen by a shift (``_bf16_bits``). The instruction counts behind each
choice: benchmarks/NOTES.md, "Offline: the soft forward's chunk kernel, by instruction
counts".

A kernel over the (rows, nc) partials combines each row, c* the first chunk holding M:

    M  = max_c m_c,                a = c* C + a_{c*}
    S' = s_{c*} + sum_{c != c*} (s_c + 1) exp(m_c - M)    (another chunk's argmax is no
                                                           longer the row's: it counts)
    P  = sum_c P_c,                R = R_{c*} + sum_{c != c*} P_c
    D  = sum_c D_c + (M - m_c) P_c

Every sum adds terms of one sign: nothing cancels, so S', R and D keep their relative
precision when the argmax dominates (the collapse-safe form of ``op/soft.py``). With one
chunk (V <= C; the C++ backend, which runs whole rows) the chunk's statistics are the row's.
An infinite or nan M makes S' nan (``+ 0 * M``), as the ATen form does.
"""
from __future__ import annotations

import torch

from . import _log
from ._inductor import ir, launch, partitioner
from ._inductor.ir import F32, ops
from .lowering import (LOG2E, _NEG_INF, _exp, _f32, _index_bound, _int32, _logit, _plan,
                       _safe, softcap_of, softcap_slope)

# Warps of the chunk kernel. It holds x and p (two values per column where ce_fwd holds one):
# with one warp a thread keeps 128 of them in about 200 registers; two warps were the fastest
# of 1, 2 and 4 (docs/lowering.md#probability-targets).
SOFT_WARPS = 2


def _bf16_bits(x_load):
    """A bfloat16 value as float32: its 16 bits shifted up, read as float32 (exact for every
    value, inf and nan included). Triton's conversion unpacks the upper of two packed values
    with a byte permute and a shift; this is one AND for it (benchmarks/NOTES.md, "Offline: the
    soft forward's chunk kernel")."""
    bits = ops.to_dtype(ops.to_dtype_bitcast(x_load, torch.int16, torch.bfloat16), torch.int32)
    return ops.to_dtype_bitcast(ops.bitwise_left_shift(bits, ops.constant(16, torch.int32)),
                                F32, torch.int32)


def _mass(p_load, col, eps_at, w_at, vocab):
    """c_j = w_j ((1 - eps) p_j + eps / V) in float32 (V symbolic on the C++ backend)."""
    c = ops.to_dtype(p_load, F32)
    if eps_at is not None:
        eps = ops.to_dtype(eps_at([]), F32)
        n = ops.to_dtype(ops.index_expr(vocab, torch.int64), F32)
        c = ops.add(ops.mul(ops.sub(_f32(1.0), eps), c), ops.truediv(eps, n))
    if w_at is not None:
        c = ops.mul(c, ops.to_dtype(w_at([col]), F32))
    return c


def soft_stats(x, p, weight, smoothing, softcap):
    """(M, S', P, R, D, a) per row; see the module docstring."""
    device = ir.device_of(x)
    *rows, vocab = ir.size(x)
    x_at, p_at = ir.loader(x), ir.loader(p)
    w_at = None if weight is None else ir.loader(weight)
    eps_at = None if smoothing is None else ir.loader(smoothing)
    on_triton, vocab, single, chunk, n_chunks, has_tail, wide, ranges = _plan(x)
    _log.lowering("soft_stats", x, p, weight,
                  dict(softcap=softcap is not None, smooth=eps_at is not None),
                  "C++ whole rows" if not on_triton else "single pass" if single else
                  f"two-level split, {n_chunks} chunks of {chunk}")
    cap = softcap_of(softcap)

    # bf16 logits of a buffer (no producer inlined, whose float32 result this would round)
    # are widened by the shift on Triton. The targets keep Triton's conversion: LLVM then
    # compares c_j = 0 on pairs of packed bf16 (HSETP2), half an instruction per column.
    shifted = on_triton and x.get_dtype() == torch.bfloat16 and ir.is_buffer(x)

    # The argmax by the gap's bits needs g_j = 0 exactly where z_j = m_c: so where z_j is the
    # loaded value itself. Where z_j is a product (a softcap, a scaling prologue), the
    # compiler fuses the subtraction into it (an FMA: m_c - cap t_j unrounded), the max's g_j
    # is a rounding residual, not 0, and no column is the argmax: compare z_j with m_c.
    gap_key = on_triton and softcap is None and ir.is_buffer(x)

    def logit(x_load):
        return _logit(_bf16_bits(x_load) if shifted else x_load, cap)

    def element(index, rindex):
        """(z, c, r): the logit (-inf past V), the mass (0 past V), the column within the
        chunk as int32 (the argmax compares take it: int32 whatever the kernel's indexing)."""
        row = index if single else index[:-1]
        col = rindex[0] if single else index[-1] * chunk + rindex[0]
        r = _int32(rindex[0])
        if not has_tail:
            return (logit(x_at([*row, col])),
                    _mass(p_at([*row, col]), col, eps_at, w_at, vocab), r)
        # (the same mask in every reduction: one load of x and of p)
        in_range = (ops.lt(r, ops.sub(ops.constant(vocab, torch.int32),
                                      _int32(index[-1] * chunk)))
                    if wide else
                    ops.lt(ops.index_expr(col, torch.int32), ops.index_expr(vocab, torch.int32)))

        def masked_load(at, idx, fill):
            # Where the masked body is the load alone, the fill is the load's `other`: no
            # select per column (with a prologue in front, Inductor adds one).
            return ops.masked(in_range, lambda: at(idx), fill)

        if softcap is None:
            z = logit(masked_load(x_at, [*row, col], _NEG_INF))
        else:   # the softcap maps -inf to -cap: mask its result
            z = ops.masked(in_range, lambda: logit(x_at([*row, col])), _NEG_INF)
        if eps_at is not None and w_at is None:   # eps / V is not 0 past V: mask the mass
            c = ops.masked(in_range, lambda: _mass(p_at([*row, col]), col, eps_at, None,
                                                   vocab), 0.0)
        else:   # p (and w) load as 0 past V, and so does their product
            w_tail = None if w_at is None else (lambda i: masked_load(w_at, i, 0.0))
            c = _mass(masked_load(p_at, [*row, col], 0.0), col, eps_at, w_tail, vocab)
        return z, c, r

    def reduce(fn, kind, dtype=F32):
        return ir.reduction(device, fn, ranges, [chunk], kind, dtype=dtype)

    m = reduce(lambda i, ri: element(i, ri)[0], "max")
    if on_triton and chunk > 1:
        # Persistent, one (row, chunk) per program, the hardware's max: as ce_fwd's chunk
        # kernel (lowering._pin_chunk_kernel). A nan among the chunk's logits is never a_c
        # (its gap is nan, not 0): s_c is nan, and so is the row's loss.
        launch.pin_launch(m, {"XBLOCK": 1, "num_warps": SOFT_WARPS, "num_stages": 1},
                          persistent=True, plain_max=True,
                          index_bound=None if single else _index_bound(rows, vocab, chunk))
    m_at = ir.loader(m)

    def gap(i, ri):
        """(g, c, r): g = m_c - z_j >= 0, one subtraction shared by the argmax, the sum of
        exponentials and D (+inf at a -inf logit or past V; with m_c = -inf, shifted by 0)."""
        z, c, r = element(i, ri)
        return ops.sub(_safe(m_at(i)), z), c, r

    def first_max(i, ri):
        if not gap_key:   # (a compare and a select)
            z, _, r = element(i, ri)
            return ops.where(ops.eq(z, m_at(i)), r, ops.constant(chunk, torch.int32))
        g, _, r = gap(i, ri)
        # (bits(g_j) & KEEP) | r_j, whose int32 min is a_c. KEEP clears the sign and the low
        # k bits (2^k >= C): the key is r_j where g_j < 2^(k - 149), at a tie (g_j = 0) or a
        # gap so small that exp(-g_j) is 1 as at a tie, and above every r_j elsewhere (a nan
        # gap too). An AND, then a three-input OR with the column's offsets, where a float
        # compare and a select were two and the column index one more. Without a tie (a
        # chunk of -inf logits, whose gaps are +inf) a_c is a key >= C: such a chunk never
        # holds a finite row's max.
        keep = 0x7FFFFFFF & -(1 << (chunk - 1).bit_length())   # (C is an int on Triton)
        bits = ops.to_dtype_bitcast(g, torch.int32, F32)
        return ops.bitwise_or(ops.bitwise_and(bits, ops.constant(keep, torch.int32)), r)

    a_at = ir.loader(reduce(first_max, "min", torch.int32))

    def not_argmax(i, r):
        return ops.ne(r, a_at(i))

    def sum_exp(i, ri):   # exp(z_j - m_c) = exp2(g_j * -log2 e): negation is exact
        g, _, r = gap(i, ri)
        return ops.where(not_argmax(i, r), ops.exp2(ops.mul(g, _f32(-LOG2E))), _f32(0.0))

    def rest(i, ri):
        _, c, r = element(i, ri)
        return ops.where(not_argmax(i, r), c, _f32(0.0))

    def weighted_gap(i, ri):   # c_j g_j, 0 where c_j = 0 (no 0 * inf at a -inf logit):
        g, c, _ = gap(i, ri)   # the product feeds the sum directly (an FMA)
        return ops.mul(c, ops.where(ops.eq(c, _f32(0.0)), _f32(0.0), g))

    s_at = ir.loader(reduce(sum_exp, "sum"))
    total_at = ir.loader(reduce(lambda i, ri: element(i, ri)[1], "sum"))
    rest_at = ir.loader(reduce(rest, "sum"))
    d_at = ir.loader(reduce(weighted_gap, "sum"))

    def nan_unless_finite(s, big_m):   # S' + 0 * M
        return ops.add(s, ops.mul(_f32(0.0), big_m))

    if single:
        s_row = ir.pointwise(device, F32, lambda i: nan_unless_finite(s_at(i), m_at(i)), rows)
        a_row = ir.pointwise(device, torch.int64, lambda i: ops.to_dtype(a_at(i), torch.int64),
                             rows)
        return (m, s_row, ir.pointwise(device, F32, total_at, rows),
                ir.pointwise(device, F32, rest_at, rows), ir.pointwise(device, F32, d_at, rows),
                a_row)

    # Second level: combine the (rows, nc) partials of each row.
    def over_chunks(fn, kind, dtype=F32):
        return ir.reduction(device, fn, rows, [n_chunks], kind, dtype=dtype)

    big_m = over_chunks(lambda i, r: m_at([*i, r[0]]), "max")   # nan-propagating
    big_m_at = ir.loader(big_m)
    first = over_chunks(lambda i, r: ops.where(ops.eq(m_at([*i, r[0]]), big_m_at(i)),
                                               _int32(r[0]),
                                               ops.constant(n_chunks, torch.int32)),
                        "min", torch.int32)
    first_at = ir.loader(first)

    def is_first(i, r):
        return ops.eq(_int32(r[0]), first_at(i))

    def moved_sum(i, r):   # s_c* ; (s_c + 1) exp(m_c - M) for the other chunks
        s_c, m_c = s_at([*i, r[0]]), m_at([*i, r[0]])
        moved = ops.mul(ops.add(s_c, _f32(1.0)), _exp(ops.sub(m_c, _safe(big_m_at(i)))))
        return ops.where(is_first(i, r), s_c, moved)

    def moved_rest(i, r):
        return ops.where(is_first(i, r), rest_at([*i, r[0]]), total_at([*i, r[0]]))

    def moved_gap(i, r):   # D_c + (M - m_c) P_c, the second term 0 where P_c = 0
        total_c = total_at([*i, r[0]])
        shift = ops.mul(ops.sub(big_m_at(i), _safe(m_at([*i, r[0]]))), total_c)
        return ops.add(d_at([*i, r[0]]),
                       ops.where(ops.eq(total_c, _f32(0.0)), _f32(0.0), shift))

    big_s_at = ir.loader(over_chunks(moved_sum, "sum"))
    s_row = ir.pointwise(device, F32, lambda i: nan_unless_finite(big_s_at(i), big_m_at(i)),
                         rows)
    total = over_chunks(lambda i, r: total_at([*i, r[0]]), "sum")
    rest_row = over_chunks(moved_rest, "sum")
    d_row = over_chunks(moved_gap, "sum")

    def argmax(i):   # c* C + a_c*; (a nan row has no c*: its index is then of no use)
        c_star = ops.where(ops.lt(first_at(i), ops.constant(n_chunks, torch.int32)),
                           first_at(i), ops.constant(0, torch.int32))
        a_c = a_at([*i, ops.indirect_indexing(c_star, n_chunks, check=False)])
        return ops.add(ops.mul(ops.to_dtype(c_star, torch.int64),
                               ops.constant(chunk, torch.int64)),
                       ops.to_dtype(a_c, torch.int64))

    return big_m, s_row, total, rest_row, d_row, ir.pointwise(device, torch.int64, argmax, rows)


def soft_grad(x, p, weight, smoothing, m, s, total, rest, a, g, k, softcap):
    """dL/dx (``op/soft.py``'s gradient), one pointwise kernel tiled by rows and columns:

        dz_j = A q'_j - g c_j,  q'_j = exp(z_j - M),  A = (g P + k) / (1 + S')
        dz_a = g (R - P S' / (1 + S')) + k / (1 + S')     where S' <= 1 (q_a >= 1/2)

    (where S' > 1 the first form holds at a too: q'_a = 1). The per-row values are computed
    once, in a kernel over the rows; the argmax that takes the second form is -1 where
    S' > 1. float32 throughout, rounded once to the logits' dtype."""
    device = ir.device_of(x)
    vocab = ir.size(x)[-1]
    x_at, p_at = ir.loader(x), ir.loader(p)
    w_at = None if weight is None else ir.loader(weight)
    eps_at = None if smoothing is None else ir.loader(smoothing)
    m_at, s_at, total_at, rest_at, a_at, g_at, k_at = (
        ir.loader(v) for v in (m, s, total, rest, a, g, k))
    rows = ir.size(m)
    _log.lowering("soft_grad", x, p, weight,
                  dict(softcap=softcap is not None, smooth=eps_at is not None),
                  "one pointwise kernel")
    cap = softcap_of(softcap)

    def inv(i):
        return ops.truediv(_f32(1.0), ops.add(s_at(i), _f32(1.0)))

    def coef(i):   # A
        return ops.mul(ops.add(ops.mul(g_at(i), total_at(i)), k_at(i)), inv(i))

    def coef_argmax(i):   # g (R - P S' / (1 + S')) + k / (1 + S')
        moved = ops.mul(ops.mul(total_at(i), s_at(i)), inv(i))
        return ops.add(ops.mul(g_at(i), ops.sub(rest_at(i), moved)), ops.mul(k_at(i), inv(i)))

    def special(i):   # the argmax where S' <= 1, else -1 (int64, a's dtype)
        return ops.where(ops.le(s_at(i), _f32(1.0)), a_at(i), ops.constant(-1, torch.int64))

    coef_at, coef_a_at, special_at = (ir.realized_loader(ir.pointwise(device, dtype, fn, rows))
                                      for fn, dtype in ((coef, F32), (coef_argmax, F32),
                                                        (special, torch.int64)))

    def grad(index):
        row, col = index[:-1], index[-1]
        x_load = x_at(index)
        z = _logit(x_load, cap)
        c = _mass(p_at(index), col, eps_at, w_at, vocab)
        q = _exp(ops.sub(z, m_at(row)))
        dz = ops.sub(ops.mul(coef_at(row), q), ops.mul(g_at(row), c))
        dz = ops.where(ops.eq(ops.index_expr(col, torch.int64), special_at(row)),
                       coef_a_at(row), dz)
        if cap is not None:   # d/dx cap tanh(x / cap) = 1 - tanh^2(x / cap)
            dz = ops.mul(dz, softcap_slope(x_load, cap))
        return ops.to_dtype(dz, x.get_dtype())

    return ir.gradient(device, x.get_dtype(), grad, ir.size(x))


def register() -> None:
    """Register both lowerings (after ``lowering.register()`` found the API they need). Both
    ops are fusible for AOTAutograd's partitioner, as ``ce_fwd``: a cast or temperature in
    front is recomputed in the backward from the input, not saved as a float32 copy."""
    ir.register(torch.ops.inductor_ce.soft_stats.default, soft_stats)
    ir.register(torch.ops.inductor_ce.soft_grad.default, soft_grad)
    partitioner.declare_fusible(torch.ops.inductor_ce.soft_stats,
                                torch.ops.inductor_ce.soft_grad)
    launch.tile_rows_and_columns(torch.ops.inductor_ce.soft_grad.default)
