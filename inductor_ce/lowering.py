"""Inductor lowerings of ``inductor_ce::ce_fwd`` and ``inductor_ce::ce_bwd``.

Under torch.compile the ops do not run their decomposition: they become Inductor IR here,
so that the forward reads the logits once, the backward is one float32 pointwise kernel,
and neighbouring pointwise code (an upcast, a temperature, a softcap) fuses into our loads.
All private Inductor API comes through ``_inductor``; this module holds the math.

Notation: rows ``R = logits.shape[:-1]`` (any number of dims, strided views included),
``V`` classes, column ``j``, target ``t``, ``z = s(x)`` the softcapped float32 logit
(see ``op/decomposition.py`` for the statistics and the gradient formula).

How is the forward parallelized? (Triton backends)
    Each row is cut into ``nc = ceil(V / C)`` chunks of ``C = CHUNK`` columns, and one
    program handles one (row, chunk) pair: a persistent reduction that holds its chunk in
    registers, loads it ONCE, and computes from that one load

        m_c   = max_{j in c, j != t} z_j            chunk max of the non-target logits
        s_c   = sum_{j in c, j != t} exp(z_j - m_c) one exp per element (no online rescale)
        swz_c = sum_{j in c} w_j z_j                (label smoothing only)

    A small kernel over the (R, nc) partials combines them:
        M = max_c m_c,  lse_nt = M + log sum_c s_c exp(m_c - M)
    and gathers the target logit z_t = s(x[row, t]) (-inf for a row without target column):
    one element per row, where a masked sum in the chunk kernel cost 5 of its ~20
    instructions per element (docs/lowering.md#forward-one-read-of-the-logits).
    Few rows still spread over the GPU (R x nc programs), and a row never goes through
    Inductor's online-softmax loop, which costs two exponentials per element. For few static
    rows (``FEW_ROWS``), where the host sets the pace, each chunk leaves one partial instead,
    lse_c = m_c + log s_c: a buffer less per step (combined as m_c := lse_c, s_c := 1).
    When ``V <= C`` the partials are the result (one kernel).

On the C++ backend (CPU) the chunking buys nothing; the same reductions run over whole
rows and the C++ code generator makes two passes (max, then sum-exp), which is accepted.
The story, with the measurements behind each choice: docs/lowering.md.
"""
from __future__ import annotations

import contextlib
import struct
import threading

import torch

from . import _log, _salt
from ._inductor import cache, ir, launch, partitioner
from ._inductor.ir import F32, ops
from .op.finish import FEW_ROWS
from .op.ce import BACKENDS
from .op.decomposition import TARGET_RANGE_MSG

# Chunk length of the two-level forward and the warps of its kernel. The chunk must stay a
# persistent reduction (in registers, one load): a loop over the chunk would re-read it for
# the dependent sum-exp; _pin_chunk_kernel fixes that launch. The kernel is bound by
# instructions per element: more warps per program add cross-warp reductions, a longer chunk
# spreads the per-program work over more elements. 2048 columns and one warp: the fastest of
# the lengths and warps measured (docs/lowering.md#the-pinned-chunk-kernel-and-the-hardware-max).
CHUNK = 2048
CHUNK_WARPS = 1

_NEG_INF = float("-inf")
# exp(-g) is 0 in float32 above this (the smallest subnormal is 2^-149 = e^-103.3): the
# entropy's gap term clamps g = m_c - z_j there, which changes no product and avoids 0 * inf.
GAP_MAX = 104.0
# Its bits as an int32: for g >= 0 (and +inf) float order is int32 order of the bits.
_GAP_MAX_BITS = struct.unpack("<i", struct.pack("<f", GAP_MAX))[0]
LOG2E = 1.4426950408889634


def _f32(value: float):
    # Python floats would reach Triton as fp64 constants; keep every constant float32.
    return ops.constant(value, F32)


def softcap_of(softcap):
    """The softcap's value as a function of no index, float32, or None without one. The op
    takes it as a 0-d tensor, a graph input (a CPU one reaches a GPU kernel as a scalar
    argument): one compile serves every value, as for label_smoothing and z_loss."""
    if softcap is None:
        return None
    at = ir.loader(softcap)
    return lambda: ops.to_dtype(at([]), F32)


def _logit(x_load, cap, temperature=1.0):
    """z = s(x / T) in float32: the input's own rounding, then float32 arithmetic. ``cap``:
    ``softcap_of``'s function, or None."""
    if cap is not None:
        return ops.mul(cap(), _capped_tanh(x_load, cap, temperature))
    z = ops.to_dtype(x_load, F32)
    return z if temperature == 1.0 else ops.truediv(z, _f32(temperature))


def _capped_tanh(x_load, cap, temperature=1.0):
    """tanh(x / T / cap), shared by ``_logit`` and ``softcap_slope`` (the same expression:
    Inductor computes it once). 1 / cap is a value per kernel, x times it one multiply per
    element (a division would cost several)."""
    y = ops.to_dtype(x_load, F32)
    if temperature != 1.0:
        y = ops.truediv(y, _f32(temperature))
    return ops.tanh(ops.mul(y, ops.truediv(_f32(1.0), cap())))


def softcap_slope(x_load, cap, temperature=1.0):
    """d/dy tanh(y) = 1 - tanh(y)^2, the softcap's chain rule, from the tanh itself (the one
    ``_logit`` computes): from z / cap, the rounded product, it had two more roundings, which
    tripled the error where tanh nears 1 (the saturated logits, a row's most probable:
    docs/numerics.md). -inf: tanh = -1, a slope of 0."""
    t = _capped_tanh(x_load, cap, temperature)
    return ops.sub(_f32(1.0), ops.mul(t, t))


def _exp(v):
    """exp(v) = exp2(v * log2 e): a multiply and the hardware's ex2. Inductor's ops.exp is
    libdevice's expf, several times the instructions, and these kernels are bound by
    instructions per element as much as by bytes (docs/lowering.md). exp(-inf) stays 0."""
    return ops.exp2(ops.mul(v, _f32(LOG2E)))


def _target_column(t_load, ignore_index, vocab):
    """The row's target column as int32, -1 when it has none (ignore_index; also a value
    outside [0, V), which _check_targets asserts against). Computed once per row; an int32
    compare with the column costs one instruction per element, int64 more."""
    t64 = ops.to_dtype(t_load, torch.int64)
    valid = ops.logical_and(ops.ne(t64, ops.constant(ignore_index, torch.int64)),
                            _in_vocab(t64, vocab))
    return ops.where(valid, ops.to_dtype(t64, torch.int32), ops.constant(-1, torch.int32))


def _in_vocab(t64, vocab):
    return ops.logical_and(ops.ge(t64, ops.constant(0, torch.int64)),
                           ops.lt(t64, ops.index_expr(vocab, torch.int64)))


def _check_targets(device, t_at, rows, ignore_index, vocab, on_triton):
    """The op's contract: every target is in [0, V) or equal to ignore_index, asserted on the
    device (no host sync). On Triton a per-row assert, which fuses into a kernel over the rows
    (the one combining their statistics, or for few rows the one summing the loss), no launch
    of its own (docs/lowering.md#forward-one-read-of-the-logits). The C++ backend's assert is
    a throw, and a throw inside an OpenMP region ends the process; the scheduler fuses an
    assert node into any kernel, parallel ones too (8 or 64 rows of 5000 classes did: the
    process aborted). So there an `any` over the rows fills a bool, which the host asserts
    after the kernel (ir.host_assert)."""
    def ok(row):
        t64 = ops.to_dtype(t_at(row), torch.int64)
        return ops.logical_or(ops.eq(t64, ops.constant(ignore_index, torch.int64)),
                              _in_vocab(t64, vocab))

    if on_triton:
        ir.device_assert(device, ok, rows, TARGET_RANGE_MSG)
        return
    bad = ir.reduction(device, lambda i, r: ops.logical_not(ok(r)), [], rows, "any",
                       dtype=torch.bool)
    bad_at = ir.loader(bad)
    ir.host_assert(device, lambda i: ops.logical_not(bad_at(i)), TARGET_RANGE_MSG)


def _plan(logits):
    """How a forward over ``logits`` (rows..., V) is cut: (on_triton, V, single, chunk,
    n_chunks, has_tail, wide, ranges). On Triton V is specialized (ce_fwd says why) and rows
    are cut into chunks unless V <= CHUNK (``single``); the C++ backend runs whole rows.
    ``wide``: the kernel indexes in int64 (compares then take the column within the chunk);
    ``ranges``: the chunk kernel's iteration space (rows, or rows x n_chunks)."""
    *rows, vocab = ir.size(logits)
    on_triton = ir.is_triton(ir.device_of(logits))
    if on_triton:
        vocab = ir.specialize_int(vocab)
    single = not on_triton or vocab <= CHUNK
    chunk = vocab if single else _chunk_length(rows, vocab)
    n_chunks = 1 if single else -(-vocab // chunk)
    has_tail = not single and vocab % chunk != 0
    wide = not single and ir.indexed_in_int64(logits)
    ranges = rows if single else [*rows, n_chunks]
    return on_triton, vocab, single, chunk, n_chunks, has_tail, wide, ranges


def _chunk_length(rows, vocab: int) -> int:
    """CHUNK, but where the chunk kernel's padded range (rows x nc x CHUNK) would be indexed
    in int64 and the logits (rows x V) would not, and the pinned launch cannot index it in
    int32 anyway (_index_bound), nc chunks of ceil(V / nc) columns rounded up to a multiple
    of 8 (16 bytes of bf16: vector loads stay aligned): their range is about the logits', and
    the kernel indexes in int32 again. (65536 x 32000: 16 chunks of 2048 are 2^31 elements,
    16 of 2000 are the logits. Chunks narrower than their block cost a mask on every element,
    int64 indexing more: docs/lowering.md#int32-indexing-and-the-chunks-width.)"""
    n_chunks, n = -(-vocab // CHUNK), ir.numel(rows)
    if ir.fits_in_int32(n * n_chunks * CHUNK) or not ir.fits_in_int32(n * vocab):
        return CHUNK
    if launch.INDEX32_AVAILABLE and _index_bound(rows, vocab, CHUNK) is not None:
        return CHUNK
    even = _even_chunk(vocab)
    return even if ir.fits_in_int32(n * n_chunks * even) else CHUNK


def _index_bound(rows, vocab: int, chunk: int):
    """Where Inductor would index the chunk kernel in int64 only for its padded range
    (rows x nc x chunk > 2^31 - 1) while every index it computes fits in int32, that bound,
    for the pinned launch (launch.pin_launch's ``index_bound``); else None. The kernel's
    indexes are the program's (row, chunk) (rows x nc), the column within the row (< nc x
    chunk) and the logits' addresses, padded columns included: at most
    rows x V + nc x chunk - V (contiguous rows; a larger input buffer is Inductor's own
    int64 case)."""
    n_chunks, n = -(-vocab // chunk), ir.numel(rows)
    if ir.fits_in_int32(n * n_chunks * chunk):
        return None
    bound = n * vocab + n_chunks * chunk - vocab
    return bound if ir.fits_in_int32(bound) else None


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _even_chunk(vocab: int) -> int:
    """ceil(V / nc) columns rounded up to a multiple of 8, nc = ceil(V / CHUNK)."""
    return _ceil_div(_ceil_div(vocab, _ceil_div(vocab, CHUNK)), 8) * 8


def _few_static_rows(rows) -> bool:
    """A static row count of at most FEW_ROWS, or symbolic rows under ``few_rows_hint``: a
    step bound by the host, where a buffer or a launch less per step matters more than a few
    instructions per element. (Either way the code is correct at any row count.)"""
    if getattr(_HINT, "few", False):
        return True
    n = ir.static_int(ir.numel(rows))
    return n is not None and n <= FEW_ROWS


_HINT = threading.local()


@contextlib.contextmanager
def few_rows_hint():
    """Lower symbolic rows as few static ones: the eager path's compile for calls of at most
    FEW_ROWS rows, which it keys and salts apart from the one for more rows."""
    before, _HINT.few = getattr(_HINT, "few", False), True
    try:
        yield
    finally:
        _HINT.few = before


def _int32(expr):
    """An index expression as an int32 value. ops.index_expr(expr, torch.int32) does not give
    one on every torch: torch 2.11 prints it in the kernel's index type (int64 above 2^31
    elements), and Inductor's index propagation folds a cast back into the expression. A
    bitwise or with 0 is opaque to that propagation and free once compiled."""
    opaque = ops.bitwise_or(ops.index_expr(expr, torch.int32), ops.constant(0, torch.int32))
    return ops.to_dtype(opaque, torch.int32)


def _is_target(col, t_col):
    """[j == t] (int32 compare; never true for a row with no target column)."""
    return ops.eq(ops.index_expr(col, torch.int32), t_col)


def ce_fwd(logits, target, weight, ignore_index, softcap, smooth, temperature=1.0, full=False):
    """``ce_fwd``; with ``full`` (``ce_fwd_full``) also ent_nt and max_nt from the same loads
    (see ``op/decomposition.py``): per chunk g_c = sum_{j in c, j != t} e_j (m_c - z_j) >= 0,
    e_j = exp(z_j - m_c), and per row U = sum_c exp(m_c - M) ((M - m_c) s_c + g_c), so
    ent_nt = log S + U / S and max_nt = M."""
    device = ir.device_of(logits)
    *rows, vocab = ir.size(logits)
    x_at, t_at = ir.loader(logits), ir.loader(target)
    w_at = None if weight is None else ir.loader(weight)

    # The vocabulary is specialized (a guard: another V recompiles). It never changes while
    # a model trains, and a symbolic V costs every element: no 16-byte vector loads (the row
    # stride is unknown), a tail mask, and in the backward a division by a runtime value
    # (what a symbolic V cost under dynamic=True: docs/lowering.md#dynamic-shapes-and-caches).
    # (The C++ backend keeps V as it is: it runs whole rows, see the module docstring.)
    on_triton, vocab, single, chunk, n_chunks, has_tail, wide, ranges = _plan(logits)
    one_partial = not single and not full and _few_static_rows(rows)  # see below
    _log.lowering("ce_fwd", logits, target, weight,
                  dict(ignore_index=ignore_index, softcap=softcap is not None, smooth=smooth,
                       temperature=temperature, full=full),
                  "C++ two-pass (max, then sum-exp)" if not on_triton else
                  "single pass" if single else f"two-level split, {n_chunks} chunks of {chunk}"
                  + (", int32 column compares (int64 indexing)" if wide else "")
                  + (", one partial per chunk (few rows)" if one_partial else ""))

    _check_targets(device, t_at, rows, ignore_index, vocab, on_triton)
    cap = softcap_of(softcap)

    def element(index, rindex):
        """(z, [j == t], column, in_range or None); padded tail columns have z = -inf."""
        row = index if single else index[:-1]
        col = rindex[0] if single else index[-1] * chunk + rindex[0]
        if wide:
            # Above 2^31 logits Inductor indexes the kernel in int64, and torch 2.11 then
            # compares the column in int64: an issue-bound kernel pays for every integer
            # instruction (docs/lowering.md#the-pinned-chunk-kernel-and-the-hardware-max).
            # So the compares take r, the column within the chunk, as int32 against
            # per-program values (c = the chunk's start):
            #     j == t  <=>  r == t - c,        j < V  <=>  r < V - c
            r, start = _int32(rindex[0]), _int32(index[-1] * chunk)
        in_range = None
        if has_tail and wide:
            in_range = ops.lt(r, ops.sub(ops.constant(vocab, torch.int32), start))
        elif has_tail:
            # int32 on purpose: every reduction must build this mask identically, or Inductor's
            # CSE would not merge their loads of the logits into one (columns fit in int32).
            in_range = ops.lt(ops.index_expr(col, torch.int32), ops.index_expr(vocab, torch.int32))
        if in_range is None:
            z = _logit(x_at([*row, col]), cap, temperature)
        elif cap is None:
            # -inf enters as the masked load's `other` when the load is all the masked body
            # holds (no prologue): no select per element.
            z = _logit(ops.masked(in_range, lambda: x_at([*row, col]), _NEG_INF), None,
                       temperature)
        else:  # the softcap maps -inf to -cap: mask its result
            z = ops.masked(in_range, lambda: _logit(x_at([*row, col]), cap, temperature),
                           _NEG_INF)
        t_col = _target_column(t_at(row), ignore_index, vocab)
        is_t = ops.eq(r, ops.sub(t_col, start)) if wide else _is_target(col, t_col)
        return z, is_t, col, in_range

    def chunk_max(index, rindex):
        z, is_t, _, _ = element(index, rindex)
        return ops.where(is_t, _f32(_NEG_INF), z)

    m = ir.reduction(device, chunk_max, ranges, [chunk], "max")
    if on_triton and chunk > 1:  # (V = 1: no reduction, a pointwise node; see ir.reduction)
        _pin_chunk_kernel(m, None if single else _index_bound(rows, vocab, chunk))
    m_at = ir.loader(m)

    def shifted(index, rindex):
        """(shift, e_j = exp(z_j - m_c)). The target (and a padded tail) enter as -inf: exp
        gives 0, no select needed. The shift is d = z_j - m_c <= 0, or with ``full`` its
        negation g = m_c - z_j >= 0 and e_j = exp2(g * -log2 e), the same float32 value
        (negation is exact): the gap sum clamps g with an integer min (see chunk_gap)."""
        z, is_t, _, _ = element(index, rindex)
        z_nt = ops.where(is_t, _f32(_NEG_INF), z)
        if not full:
            d = ops.sub(z_nt, _safe(m_at(index)))
            return d, _exp(d)
        g = ops.sub(_safe(m_at(index)), z_nt)
        return g, ops.exp2(ops.mul(g, _f32(-LOG2E)))

    def chunk_sumexp(index, rindex):
        return shifted(index, rindex)[1]

    def target_logit(row):
        """z_t = s(x[row, t]), gathered (one element per row); -inf for a row with no target
        column. The gather goes through the same loader, so a fused prologue applies."""
        t_col = _target_column(t_at(row), ignore_index, vocab)
        has_t = ops.ge(t_col, ops.constant(0, torch.int32))
        col = ops.indirect_indexing(ops.where(has_t, t_col, ops.constant(0, torch.int32)),
                                    vocab, check=False)
        return ops.where(has_t, _logit(x_at([*row, col]), cap, temperature),
                         _f32(_NEG_INF))

    s = ir.reduction(device, chunk_sumexp, ranges, [chunk], "sum")
    if full:
        def chunk_gap(index, rindex):
            # e_j (m_c - z_j) >= 0, from chunk_sumexp's own g = m_c - z_j and e_j = exp(-g)
            # (the same expressions: one computation). g = +inf (the target, -inf logits, the
            # tail) would give 0 * inf: g is clamped at GAP_MAX, above which e_j is 0 in
            # float32 anyway. The clamp is an int32 min of g's bits (g >= 0: float order is
            # the bits' order; a nan g has a nan e_j, and the product stays nan): one
            # instruction. A float select (or Inductor's nan-propagating maximum) made LLVM
            # pack the 64 compares of a thread into integer bit masks and unpack them again
            # (docs/lowering.md#int32-indexing-and-the-chunks-width).
            g, e = shifted(index, rindex)
            return ops.mul(e, _clamp_gap(g))
        u_at = ir.loader(ir.reduction(device, chunk_gap, ranges, [chunk], "sum"))
    z_t = ir.pointwise(device, F32, target_logit, rows)
    if smooth:
        def chunk_wz(index, rindex):
            z, _, col, in_range = element(index, rindex)
            w = _f32(1.0) if w_at is None else (
                ops.to_dtype(w_at([col]), F32) if in_range is None else
                ops.masked(in_range, lambda: ops.to_dtype(w_at([col]), F32), 0.0))
            wz = ops.mul(w, z)
            return wz if in_range is None else ops.where(in_range, wz, _f32(0.0))
        swz = ir.reduction(device, chunk_wz, ranges, [chunk], "sum")
    s_at = ir.loader(s)

    def entropy_nt(big_s, big_u):   # log S + U / S, 0 without non-target mass
        return ops.where(ops.eq(big_s, _f32(0.0)), _f32(0.0),
                         ops.add(ops.log(big_s), ops.truediv(big_u, big_s)))

    if single:
        def lse_nt_fn(index):
            # m = -inf gives s = 0 and lse_nt = -inf + log 0 = -inf, as it should.
            return ops.add(m_at(index), ops.log(s_at(index)))
        lse_nt = ir.pointwise(device, F32, lse_nt_fn, rows)
        sum_wz = swz if smooth else ir.pointwise(device, F32, lambda i: _f32(0.0), rows)
        if not full:
            return lse_nt, z_t, sum_wz
        ent_nt = ir.pointwise(device, F32, lambda i: entropy_nt(s_at(i), u_at(i)), rows)
        return lse_nt, z_t, sum_wz, ent_nt, m

    part_m_at, part_s_at = m_at, s_at
    if one_partial:
        # Few rows: each chunk leaves one partial, its logsumexp lse_c = m_c + log s_c (m_c and s_c
        # stay in registers), so a step allocates a buffer less; the combine then reads m_c := lse_c
        # and s_c := 1. It costs the chunk kernel a log per chunk, which only a step bound by the
        # GPU would feel (docs/lowering.md#few-static-rows); and one more float32 rounding of lse_c,
        # about the one lse_nt carries anyway.
        part_m_at = ir.realized_loader(ir.pointwise(
            device, F32, lambda i: ops.add(m_at(i), ops.log(s_at(i))), ranges))
        part_s_at = None

    # Second level: combine the (rows, n_chunks) partials of each row.
    big_m = ir.reduction(device, lambda i, r: part_m_at([*i, r[0]]), rows, [n_chunks],
                              "max")
    big_m_at = ir.loader(big_m)

    def rescaled(i, r):
        # s_c * exp(m_c - M). A chunk with m_c = -inf has s_c = 0 and exp(-inf) = 0, or a nan
        # s_c (a nan logit: the chunk max ignores nans, see _pin_chunk_kernel), which must
        # reach the loss: no select here. (A nan lse_c makes M nan: this max propagates nans.)
        e = _exp(ops.sub(part_m_at([*i, r[0]]), _safe(big_m_at(i))))
        return e if part_s_at is None else ops.mul(part_s_at([*i, r[0]]), e)

    big_s_at = ir.loader(ir.reduction(device, rescaled, rows, [n_chunks], "sum"))
    lse_nt = ir.pointwise(
        device, F32, lambda i: ops.add(big_m_at(i), ops.log(big_s_at(i))), rows)
    if smooth:
        swz_at = ir.loader(swz)
        sum_wz = ir.reduction(device, lambda i, r: swz_at([*i, r[0]]), rows, [n_chunks],
                                   "sum")
    else:
        sum_wz = ir.pointwise(device, F32, lambda i: _f32(0.0), rows)
    if not full:
        return lse_nt, z_t, sum_wz

    def moved_gap(i, r):
        # sum_{j in c} e'_j (M - z_j) = (M - m_c) s_c + g_c, e'_j = exp(z_j - M), rescaled by
        # exp(m_c - M); 0 for a chunk with no mass (m_c = -inf, where M - m_c is inf).
        m_c, big_m_ = m_at([*i, r[0]]), _safe(big_m_at(i))
        moved = ops.add(ops.mul(ops.sub(big_m_, m_c), s_at([*i, r[0]])), u_at([*i, r[0]]))
        return ops.where(ops.eq(m_c, _f32(_NEG_INF)), _f32(0.0),
                         ops.mul(moved, _exp(ops.sub(m_c, big_m_))))

    big_u_at = ir.loader(ir.reduction(device, moved_gap, rows, [n_chunks], "sum"))
    ent_nt = ir.pointwise(device, F32, lambda i: entropy_nt(big_s_at(i), big_u_at(i)), rows)
    return lse_nt, z_t, sum_wz, ent_nt, big_m


def _pin_chunk_kernel(m, index_bound=None) -> None:
    """A fixed launch for the chunk kernel: persistent (the chunk in registers, one load),
    XBLOCK = 1 (one (row, chunk) per program), CHUNK_WARPS warps. Inductor's own heuristics
    keep an INNER reduction persistent only up to 1024 elements, and they keep a per-element
    mask on the programs' range unless they can prove the block divides it, which they cannot
    when the row count is symbolic; a fixed XBLOCK = 1 drops that mask.

    Its max is the hardware's (plain_max): Inductor's NaN-propagating max costs three
    instructions per element where one suffices; with the tail's -inf on the load (element)
    it brought the forward to its read floor
    (docs/lowering.md#the-pinned-chunk-kernel-and-the-hardware-max). Exact for every finite
    or infinite logit. With a nan among a chunk's logits m_c is unspecified, but
    s_c = sum exp(z - m_c) is nan whatever m_c is, and the combine passes that nan on to the
    loss (a nan target logit is excluded here and reaches the loss through the gathered z_t)."""
    launch.pin_launch(m, {"XBLOCK": 1, "num_warps": CHUNK_WARPS, "num_stages": 1},
                       persistent=True, plain_max=True, index_bound=index_bound)


def _safe(v):
    """A max of -inf (no non-target mass, or a chunk of -inf logits) shifts by 0:
    exp(-inf - 0) = 0, no nan."""
    return ops.where(ops.eq(v, _f32(_NEG_INF)), _f32(0.0), v)


def _clamp_gap(g):
    """min(g, GAP_MAX) as an int32 min of g's bits: float order for g >= 0 and +inf; a
    negative g (bits negative as int32) and a nan with the sign bit set pass unchanged, a nan
    without it becomes GAP_MAX (its exponential is nan either way). One instruction where a
    float select costs a compare, a select and LLVM's packing of the compares (chunk_gap)."""
    bits = ops.to_dtype_bitcast(g, torch.int32, F32)
    return ops.to_dtype_bitcast(
        ops.minimum(bits, ops.constant(_GAP_MAX_BITS, torch.int32)), F32, torch.int32)


def _full_non_target(z, shift, a_row, e_row):
    """a q + e q (lse_nt - z) = q (a + e g), g = shift - z, q = exp(-g) = exp2(g * -log2 e)
    (the same float32 q as exp2((z - shift) log2 e): negation is exact). g is clamped at
    GAP_MAX, above which q is 0 in float32: a -inf logit (g = +inf) gives q * finite = 0, not
    0 * inf; and a nan logit a nan q, which the product keeps. One rounding fewer than the
    sum of the two products (an FMA, then one multiply), and fewer instructions than a select
    on q > 0 (docs/lowering.md#int32-indexing-and-the-chunks-width)."""
    g = ops.sub(shift, z)
    q = ops.exp2(ops.mul(g, _f32(-LOG2E)))
    return ops.mul(q, ops.add(a_row, ops.mul(e_row, _clamp_gap(g))))


def ce_bwd(logits, target, weight, lse_nt, a, b, c, ignore_index, softcap, e=None,
           temperature=1.0):
    """One pointwise kernel over the logits (see ``op/decomposition.py`` for the formula):

        g = s'(x / T) / T * ((b if j == t else a q + e q (lse_nt - z)) + c * w_j),
        q = exp(z - lse_nt)

    float32 throughout, rounded once to the logits' dtype on store."""
    device = ir.device_of(logits)
    x_at, t_at = ir.loader(logits), ir.loader(target)
    # The per-row coefficients come from autograd of the finish (softplus, logaddexp, ...).
    # Realized, they cost a tiny kernel over the rows (a launch and two buffers per step);
    # inlined, this kernel recomputes them for each tile of columns, which costs a few percent
    # at large shapes (docs/lowering.md#few-static-rows). So they are inlined only for few
    # rows, whose step is bound by the host's launches and allocations, not by this kernel.
    inline = _few_static_rows(ir.size(logits)[:-1])
    coefficient = ir.loader if inline else ir.realized_loader
    lse_at = ir.realized_loader(lse_nt)
    a_at, b_at = coefficient(a), coefficient(b)
    c_at = None if c is None else coefficient(c)
    e_at = None if e is None else coefficient(e)
    w_at = None if weight is None else ir.loader(weight)
    out_dtype = logits.get_dtype()
    logits_vocab = ir.size(logits)[-1]
    _log.lowering("ce_bwd", logits, target, weight,
                  dict(ignore_index=ignore_index, softcap=softcap is not None,
                       smooth=c is not None,
                       entropy=e is not None, temperature=temperature),
                  "one pointwise kernel" + (", per-row coefficients inlined" if inline else ""))
    cap = softcap_of(softcap)

    def grad(index):
        row, col = index[:-1], index[-1]
        x = x_at(index)
        z = _logit(x, cap, temperature)
        is_t = _is_target(col, _target_column(t_at(row), ignore_index, logits_vocab))
        lse = lse_at(row)
        shift = ops.where(ops.eq(lse, _f32(_NEG_INF)), _f32(0.0), lse)
        b_row, a_row = b_at(row), a_at(row)   # (this order: the plain op's code unchanged)
        if e_at is None:
            non_target = ops.mul(a_row, _exp(ops.sub(z, shift)))
        else:
            non_target = _full_non_target(z, shift, a_row, e_at(row))
        g = ops.where(is_t, b_row, non_target)
        if c_at is not None:
            w = _f32(1.0) if w_at is None else ops.to_dtype(w_at([col]), F32)
            g = ops.add(g, ops.mul(c_at(row), w))
        if cap is not None:  # d/dx cap tanh(x / cap) = 1 - tanh^2(x / cap)
            g = ops.mul(g, softcap_slope(x, cap, temperature))
        if temperature != 1.0:
            g = ops.truediv(g, _f32(temperature))
        return ops.to_dtype(g, out_dtype)

    # Tiled by rows and columns (register), its launch left to Inductor's heuristics: a flat
    # kernel masks every element by rows x V whenever its block does not divide that (always
    # with symbolic rows) and reloads the per-row values per element; a fixed block dividing
    # V, which needs no mask, was slower still (docs/lowering.md#backward-one-pointwise-kernel).
    return ir.gradient(device, out_dtype, grad, ir.size(logits))


SALT = None
ACTIVE = False   # whether the package's register() at import installed the lowerings


def cache_salt() -> str:
    """What our lowering's code depends on besides the graph: sources and constants."""
    return f"{SALT}-chunk{CHUNK}x{CHUNK_WARPS}-few{FEW_ROWS}"


def ensure_cache_salt() -> None:
    """Called when our ops are traced (their fake kernels), so the salt is in place before
    Inductor computes a cache key, even if the user replaced the pass slot after import."""
    if SALT is not None:
        cache.ensure_salt(cache_salt())


def register() -> bool:
    """Register both lowerings; on a torch without the needed API warn once and keep the
    decomposition (returns whether the lowerings are active)."""
    global SALT
    if not ir.AVAILABLE:
        ir.warn_fallback()
        return False
    ir.register(torch.ops.inductor_ce.ce_fwd.default, ce_fwd)
    ir.register(torch.ops.inductor_ce.ce_bwd.default, ce_bwd)
    ir.register(torch.ops.inductor_ce.ce_fwd_full.default,
                lambda x, t, w, ii, cap, smooth, temp: ce_fwd(x, t, w, ii, cap, smooth, temp,
                                                              full=True))
    ir.register(torch.ops.inductor_ce.ce_bwd_full.default,
                lambda x, t, w, lse, a, b, c, e, ii, cap, temp: ce_bwd(x, t, w, lse, a, b, c,
                                                                       ii, cap, e, temp))
    partitioner.declare_fusible(torch.ops.inductor_ce.ce_fwd, torch.ops.inductor_ce.ce_bwd,
                                torch.ops.inductor_ce.ce_fwd_full,
                                torch.ops.inductor_ce.ce_bwd_full)
    launch.tile_rows_and_columns(torch.ops.inductor_ce.ce_bwd.default)
    launch.tile_rows_and_columns(torch.ops.inductor_ce.ce_bwd_full.default)
    SALT = _salt.source_salt()
    BACKENDS.on_trace = ensure_cache_salt
    ensure_cache_salt()
    return True

