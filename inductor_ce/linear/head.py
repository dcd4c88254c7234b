"""Fused linear + cross-entropy: ``cross_entropy(h @ W.T + b, target)`` without (rows, V) logits.

Notation: N rows (the input's leading dims, flattened), hidden size D, V classes; h (N, D), W
(V, D), b (V,); z = h W^T + b the logits. The chunks of z are computed with cuBLAS, and every
chunk goes through ``ce_fwd`` / ``ce_bwd`` (their lowered kernels, see ``eager/kernels.py``):
the loss math is the op's, and the per-row finish is ``op/finish.py``'s, as for
``cross_entropy``. The design and its measurements: docs/linear.md.

Two policies, named after what they trade (GEMMs counted in units of one N x D x V product):

``"compact"``: vocabulary chunks, the backward recomputes the logits for dW (4 GEMMs; memory:
    the gradients themselves, 256 KiB and vectors of the rows' size).
    The statistics of chunk c of C classes combine like the shards of the vocabulary-parallel
    loss:

        z_c = h W_c^T + b_c;   (lse_nt_c, z_t_c, sum_wz_c) = ce_fwd(z_c, target's column in c)
        lse_nt = logaddexp_c lse_nt_c,   z_t = max_c z_t_c,   sum_wz = sum_c sum_wz_c

    so the op returns exactly ``ce_fwd``'s statistics of the whole row, and autograd of the
    finish hands the backward the same per-row coefficients (a, b, c) as ``ce_fwd``'s. With
    ce_bwd's dz_j = (a exp(z_j - lse_nt) [j != t] + b [j = t] + c w_j) f'(z_j), the input's
    gradient sum_j dz_j W_j splits into per-row coefficients times sums the forward computes:

        dh = a u + b f'(z_t) W_t + c s,   u = sum_{j != t} exp(z_j - lse_nt) f'(z_j) W_j,
                                          s = sum_j w_j f'(z_j) W_j   (= w^T W without softcap)

    u is a softmax-weighted sum of W's rows, like attention's output with K = V = W: the
    forward computes it by tiles of R rows x C classes with the online softmax (the float32
    sum of a block of rows is rescaled when its running lse_nt grows; the tile's weights are
    ce_bwd's with (a, b, c) = (1, 0, 0)), one more GEMM per tile, and stores it in the input's
    dtype. The backward turns it into dh before dW exists: eagerly in place, compiled in one
    fused kernel. The target's term stays apart, so dh keeps the collapse-safe form
    a (u - f'(z_t) W_t) of the plain loss. Then it recomputes each chunk's logits over all
    rows for dW:

        dz_c = ce_bwd(z_c, ...)              in place of z_c
        dW_c = dz_c^T h                      one GEMM over all rows: exact, no accumulation
        db_c = sum_rows dz_c

    z_c lives in dW's rows after chunk c, which no chunk has written yet (the last chunks,
    too narrow to fit there, share a buffer of 256 KiB: ``compact_backward_chunks``). So the
    backward holds nothing of its own beyond the gradients, and the forward's tiles stay
    below dW's size. A forward without gradient (no_grad, a frozen input) computes the
    statistics alone, and a frozen W skips the backward's chunks: 2 GEMMs in all.

``"fast"``: row chunks, the gradient in the forward (3 GEMMs; memory: one chunk of R x V
    logits). Only for a scalar loss (reduction "mean" or "sum"), whose gradient is known up to
    the upstream scalar g before the backward. For each chunk r of R rows:

        z_r = h_r W^T + b;  stats = ce_fwd(z_r);  loss_r, (a, b, c) = vjp of the finish
        dz_r = ce_bwd(z_r, ...) in place;  dh_r = dz_r W;  dW += dz_r^T h_r;  db += sum dz_r

    The first line is one compiled graph (``eager/loss.py``'s ``loss_chunk``: the eager
    loss's forward). dW accumulates in W's dtype (cuBLAS accumulates each product in float32
    and rounds once per chunk); the backward multiplies the saved gradients by g on the
    device (no host sync; eagerly in place, skipped on CUDA where g == 1: ``scaling.py``; out
    of place where the graph is kept for another backward).
    "mean" divides by the kept rows' total class weight, computed before the loop.

Both are custom ops of our namespace (functional, with fake kernels and registered autograd):
under torch.compile they are opaque calls whose implementations loop over chunks at run time,
so a symbolic row count needs no unrolled loop and no recompilation.
"""
from __future__ import annotations

import functools
import logging
from typing import Optional

import torch
from torch import Tensor

from .._inductor import runtime
from .._log import log
from ..eager import kernels as eager
from ..eager import loss as eager_loss
from ..op import ce as ops
from ..op.decomposition import check_target_range
from . import scaling  # noqa: F401  (the scale_ op)

LIB = ops.LIB
_CE_FWD = torch.ops.inductor_ce.ce_fwd.default
_SCALE = torch.ops.inductor_ce.scale_.default

# Chunk sizes (elements of logits per chunk) when the caller gives none, and the smallest
# chunk side worth a GEMM of its own.
FAST_CHUNK_ELEMENTS = 1 << 29          # R x V: at most 1 GiB of bf16 logits
FAST_MIN_CHUNK_ELEMENTS = 1 << 28      # and at least 512 MiB, unless all rows are fewer
COMPACT_CHUNK_ELEMENTS = 1 << 26       # N x C, the backward's chunks (in dW's unwritten rows)
COMPACT_SPARE_ELEMENTS = 1 << 17       # the last chunks' buffer of their own: 256 KiB of bf16
COMPACT_MAX_NARROW = 96                # chunks narrower than the first (each reads h twice)
COMPACT_OWN_MAX_ELEMENTS = 1 << 24     # and that buffer's size where more would be narrow
COMPACT_TILE_ELEMENTS = 1 << 26        # R x C, the forward's tiles (before dW exists)
COMPACT_BLOCK_ROWS = 2048              # R: rows of the forward's tiles (a float32 R x D sum)
MIN_CHUNK = 256


def fast_chunk_rows(rows: int, vocab: int, hidden: int) -> int:
    """Rows per "fast" chunk: D (a chunk of logits as large as W, so the step's peak stays
    within twice the unavoidable gradients dh + dW), kept within [2^28, 2^29] logits, then
    evened out over the chunks (no small ragged last one). Why not larger: each chunk adds
    its size to the peak. Why not smaller: each chunk also costs a read and write of dW and
    the host time of its kernels (docs/linear.md#the-trade-measured)."""
    if rows == 0:
        return MIN_CHUNK
    vocab = max(vocab, 1)
    r = min(max(hidden, FAST_MIN_CHUNK_ELEMENTS // vocab), FAST_CHUNK_ELEMENTS // vocab)
    r = max(MIN_CHUNK, min(rows, r))
    n = -(-rows // r)
    return max(MIN_CHUNK, min(rows, -(-rows // n)))


def lean_chunk_rows(vocab: int, hidden: int) -> int:
    """Rows per "fast" chunk where the loss's peak adds to an eager model's (the transformers
    integration's eager default): D / 2 rows (a chunk of logits half as large as W), kept
    within [2^27, 2^28] logits, rounded down to a multiple of 256. From V and D only (no
    guard on the row count). In transformers models it brings the eager step's peak near
    Liger's eager patch's for a few percent of step time (docs/transformers.md)."""
    vocab = max(vocab, 1)
    r = min(max(hidden // 2, (1 << 27) // vocab), (1 << 28) // vocab)
    return max(MIN_CHUNK, r // MIN_CHUNK * MIN_CHUNK)


def compact_chunk_classes(rows: int, vocab: int, elements: int = 0) -> int:
    """Classes per "compact" chunk of ``rows`` rows: ``elements`` logits (default
    COMPACT_CHUNK_ELEMENTS), a multiple of 256 classes. Why 2^26 for the forward's tiles: they
    come before dW exists, and smaller GEMMs are host-bound where D is small
    (docs/linear.md#the-trade-measured). The backward's chunks cost no memory of their own
    (``compact_backward_chunks``), so they are as large."""
    c = (elements or COMPACT_CHUNK_ELEMENTS) // max(rows, 1)
    return max(MIN_CHUNK, min(vocab, c // MIN_CHUNK * MIN_CHUNK))


@functools.lru_cache(maxsize=64)
def compact_backward_chunks(rows: int, vocab: int, hidden: int, chunk: int = 0):
    """The "compact" backward's chunks of classes, ([(v0, v1, hosted)] in order, the width of
    the last chunks' buffer of their own). A chunk's logits (rows x C) are written where
    nothing lives yet: in dW's rows after the chunk, which later chunks overwrite with their
    gradient (``hosted``), as long as they fit: rows C <= (V - v0 - C) D. So the widths
    shrink geometrically near the end (to D / (rows + D) of what is left), and the last
    classes, once a fitting chunk would be narrower than ``own``, go through a buffer of
    their own: the backward's peak is the gradients and that buffer. ``own`` is 4 classes or
    COMPACT_SPARE_ELEMENTS logits (256 KiB at most), doubled while more than
    COMPACT_MAX_NARROW chunks are narrower than the first: each reads h twice, so where
    rows >> D the buffer grows instead, up to COMPACT_OWN_MAX_ELEMENTS logits (32 MiB of
    bf16). Widths are multiples of 64 (of 4 below 64) except the last ones; all of them share
    one compile (V symbolic)."""
    base = chunk or compact_chunk_classes(rows, vocab)
    own = max(4, min(base // 16, COMPACT_SPARE_ELEMENTS // max(rows, 1)))
    while True:
        chunks, v0 = [], 0
        while v0 < vocab:
            fit = min(base, (vocab - v0) * hidden // (rows + hidden) if hidden else 0)
            fit = fit // 64 * 64 if fit >= 64 else fit // 4 * 4
            if fit < own:
                break
            chunks.append((v0, v0 + fit, True))
            v0 += fit
        left = vocab - v0
        n = -(-left // own)
        for i in range(n):    # the rest in n near-equal pieces of at most `own` classes
            w = left // n + (i < left % n)
            chunks.append((v0, v0 + w, False))
            v0 += w
        narrow = sum(v1 - v0 < base for v0, v1, _ in chunks)
        grown = min(own * 2, base, max(4, COMPACT_OWN_MAX_ELEMENTS // max(rows, 1)))
        if narrow <= COMPACT_MAX_NARROW or grown <= own:
            return chunks, min(own, left)
        own = grown


def compact_block_rows(rows: int) -> int:
    """Rows per block of the "compact" forward's tiles (the float32 sum of u is R x D)."""
    return max(1, min(rows, COMPACT_BLOCK_ROWS))


_LOGGED: set = set()      # the (policy, shapes, dtype, chunking) already logged


def _log_head(policy: str, h: Tensor, weight: Tensor, plan) -> None:
    """One DEBUG line the first time a fused head runs with this policy, shape signature
    and chunking (``TORCH_LOGS=+inductor_ce``): which one runs, by which chunks. ``plan``:
    a function giving the chunking's words, called only when the line is written."""
    if not log.isEnabledFor(logging.DEBUG):
        return
    words = plan()
    key = (policy, tuple(h.shape), tuple(weight.shape), h.dtype, h.device.type, words)
    if key in _LOGGED:
        return
    _LOGGED.add(key)
    log.debug("linear_cross_entropy: policy %r, %d rows, D %d, V %d, %s on %s; %s", policy,
              h.shape[0], h.shape[1], weight.shape[0], str(h.dtype).removeprefix("torch."),
              h.device, words)


def _flat(x: Tensor) -> Tensor:
    return x.reshape(-1, x.shape[-1])


def _logits(h: Tensor, w: Tensor, b: Optional[Tensor], out: Optional[Tensor] = None) -> Tensor:
    """h @ w.T (+ b): one cuBLAS GEMM (the bias added in its epilogue), into ``out``."""
    return torch.mm(h, w.t(), out=out) if b is None else torch.addmm(b, h, w.t(), out=out)


class _ChunkTargets:
    """Each row's target located once for chunks of ``step`` classes: ``of(v0)``, its column
    in the chunk starting at class v0, or -1, is then two small kernels per chunk instead of
    five (the forward's loops are host-bound where D is small)."""

    def __init__(self, chunk: Tensor, col: Tensor, step: int):
        self.chunk, self.col, self.step = chunk, col, step

    @classmethod
    def locate(cls, keep_t: Tensor, step: int, vocab: int) -> "_ChunkTargets":
        """``keep_t``: the target's index in this weight, -1 for ignored rows."""
        here = (keep_t >= 0) & (keep_t < vocab)
        chunk = torch.where(here, torch.div(keep_t, step, rounding_mode="floor"), -1)
        return cls(chunk.int(), (keep_t - chunk * step).int(), step)

    def rows(self, r0: int, r1: int) -> "_ChunkTargets":
        return _ChunkTargets(self.chunk[r0:r1], self.col[r0:r1], self.step)

    def of(self, v0: int) -> Tensor:
        return torch.where(self.chunk == v0 // self.step, self.col, -1)


def _column(keep_t: Tensor, v0: int, v1: int) -> Tensor:
    """The target's column in classes [v0, v1), -1 where it is not among them."""
    return torch.where((keep_t >= v0) & (keep_t < v1), keep_t - v0, -1)


def _target_in_weight(target: Tensor, ignore_index: int, vocab_start: int) -> Tensor:
    """The target's index among this weight's classes (global id - vocab_start), -1 for
    ignored rows; other shards' targets fall outside [0, V)."""
    return torch.where(target == ignore_index, -1, target - vocab_start)


def _traced(t: Tensor) -> bool:
    """Whether a backward runs traced (AOTAutograd's fake/functional tensors, or under a
    dispatch mode) rather than eagerly on the real saved buffers."""
    return type(t) is not Tensor or bool(runtime.dispatch_modes())


def _acc_mm(out32: Tensor, a: Tensor, b: Tensor) -> None:
    """out32 += a @ b, with a float32 result for low-precision a, b (CUDA: cuBLAS with a
    float32 output, no rounding of the product; elsewhere in float32)."""
    if out32.device.type == "cuda" and a.dtype != torch.float32:
        torch.addmm(out32, a, b, out_dtype=torch.float32, out=out32)
    else:
        out32.addmm_(a.float(), b.float())


# --- "compact": vocabulary chunks --------------------------------------------------------------

def _exp_shift(old: Tensor, new: Tensor) -> Tensor:
    """exp(old - new) per row, the factor that moves a sum of exp(z - old) onto exp(z - new);
    1 where both are -inf (no mass yet: nothing to move), nan where either is nan."""
    return torch.where(old == new, 1.0, torch.exp(old - new))


def _sweep(h, weight, bias, keep_t, class_weight, softcap, smooth, step, block, u, s):
    """ce_fwd's statistics of all rows, by tiles of ``block`` rows x ``step`` classes (one
    GEMM each), combined over the chunks of classes as shards combine (module doc). With ``u``
    (and ``s``), also the input gradient's parts that need the sweep over the classes,
    written into them (rows, D): u = sum_{j != t} exp(z_j - lse_nt) f'(z_j) W_j and, with
    softcap and label smoothing, s = sum_j w_j f'(z_j) W_j, one more GEMM per tile each. u
    accumulates in float32 for one block of rows over its running lse_nt: flash attention's
    online softmax, the sum so far rescaled when lse_nt grows."""
    rows, vocab = h.shape[0], weight.shape[0]
    lse_nt = h.new_full((rows,), float("-inf"), dtype=torch.float32)
    z_t, sum_wz = lse_nt.clone(), h.new_zeros((rows,), dtype=torch.float32)
    targets = _ChunkTargets.locate(keep_t, step, vocab)
    for r0 in range(0, rows, block):
        r1 = min(rows, r0 + block)
        h_r, t_r = h[r0:r1], targets.rows(r0, r1)
        lse_r, z_t_r, sum_wz_r = lse_nt[r0:r1], z_t[r0:r1], sum_wz[r0:r1]
        if u is not None:   # ce_bwd's coefficients for the sums' weights
            one, zero = torch.ones_like(lse_r), torch.zeros_like(lse_r)
        u_r = None if u is None else h.new_zeros((r1 - r0, h.shape[1]), dtype=torch.float32)
        s_r = None if s is None else torch.zeros_like(u_r)
        for v0 in range(0, vocab, step):
            v1 = min(vocab, v0 + step)
            w_c, local = weight[v0:v1], t_r.of(v0)
            z = _logits(h_r, w_c, None if bias is None else bias[v0:v1])
            cw = None if class_weight is None or not smooth else class_weight[v0:v1]
            part = _CE_FWD(z, local, cw, -1, softcap, smooth)
            new = torch.logaddexp(lse_r, part[0])
            if s_r is not None:  # w_j f'(z_j): ce_bwd with (a, b, c) = (0, 0, 1)
                zs = z.clone()
                eager.ce_bwd_(zs, local, cw, new, zero, zero, one, -1, softcap,
                              columns=True)
                _acc_mm(s_r, zs, w_c)
                del zs
            if u_r is not None:  # exp(z_j - lse_nt) f'(z_j) off the target: (1, 0, 0)
                eager.ce_bwd_(z, local, None, new, one, zero, None, -1, softcap,
                              columns=True)
                u_r.mul_(_exp_shift(lse_r, new).unsqueeze(1))
                _acc_mm(u_r, z, w_c)
            del z
            lse_r.copy_(new)
            torch.maximum(z_t_r, part[1], out=z_t_r)
            sum_wz_r.add_(part[2])
        if u is not None:
            u[r0:r1] = u_r
        if s is not None:
            s[r0:r1] = s_r
    return lse_nt, z_t, sum_wz


@torch.library.custom_op(f"{LIB}::linear_ce_fwd", mutates_args=())
def linear_ce_fwd(input: Tensor, weight: Tensor, bias: Optional[Tensor], target: Tensor,
                  class_weight: Optional[Tensor], ignore_index: int, softcap: Optional[float],
                  smooth: bool, vocab_start: int, num_classes: int, chunk: int,
                  with_grad: bool) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    """``ce_fwd``'s statistics of ``input @ weight.T + bias`` (classes ``[vocab_start,
    vocab_start + V)`` of a global vocabulary of ``num_classes``; ``target`` holds global
    ids, each in [0, num_classes) or ignore_index: asserted here, on the device), by chunks
    of ``chunk`` classes (0: automatic), and, with ``with_grad``, the parts u and s of the
    input's gradient (module doc; s only with softcap and label smoothing, else empty):
    outputs for the op's backward, not differentiable, which an eager backward overwrites.
    ``class_weight`` is this weight's slice."""
    h, t = _flat(input), target.reshape(-1)
    # (In the op, eagerly, also under torch.compile: Inductor's lowering of an assert can
    # end the process on the C++ backend; see lowering._check_targets.)
    check_target_range(t, ignore_index, num_classes)
    rows, vocab = h.shape[0], weight.shape[0]
    keep_t = _target_in_weight(t, ignore_index, vocab_start)
    u, s = _mass_buffers(input, with_grad, smooth, softcap)
    # Tiles of at most half of W's size (the forward's working set, a tile and a float32 sum
    # of a block of rows, stays below dW), of widths that do not depend on the row count: no
    # compile at a new one. Without a gradient, the statistics alone, by the same tiles.
    block = compact_block_rows(rows)
    step = chunk or compact_chunk_classes(block, vocab,
                                          min(COMPACT_TILE_ELEMENTS, vocab * h.shape[1] // 2))
    _log_head("compact", h, weight, lambda: _compact_words(rows, vocab, h.shape[1], chunk,
                                                           block, step, with_grad))
    stats = _sweep(h, weight, bias, keep_t, class_weight, softcap, smooth, step, block,
                   u.view(h.shape) if with_grad else None,
                   s.view(h.shape) if s.numel() else None)
    shape = input.shape[:-1]  # (copies of a few bytes per row: the op's outputs are no views)
    return (*(v.reshape(shape).clone() for v in stats), u, s)


def _compact_words(rows, vocab, hidden, chunk, block, step, with_grad) -> str:
    words = f"forward tiles of {block} rows x {min(step, vocab)} classes"
    if not with_grad:
        return words + " (statistics only: no gradient wanted)"
    chunks, own = compact_backward_chunks(rows, vocab, hidden, chunk)
    return (f"{words}; backward: {len(chunks)} chunk(s) of classes, the first "
            f"{chunks[0][1]} wide" + (f", the last in a buffer of {own} classes"
                                      if not chunks[-1][2] else "")) if chunks else words


def _mass_buffers(input, with_grad, smooth, softcap):
    """(u, s) of ``linear_ce_fwd``: input's shape and dtype, or empty where not computed."""
    def buf(wanted):
        return input.new_empty(input.shape if wanted else (0,))
    return buf(with_grad), buf(with_grad and smooth and softcap is not None)


@linear_ce_fwd.register_fake
def _(input, weight, bias, target, class_weight, ignore_index, softcap, smooth, vocab_start,
      num_classes, chunk, with_grad):
    stats = tuple(input.new_empty(input.shape[:-1], dtype=torch.float32) for _ in range(3))
    return (*stats, *_mass_buffers(input, with_grad, smooth, softcap))


@torch.library.custom_op(f"{LIB}::linear_ce_bwd", mutates_args=())
def linear_ce_bwd(input: Tensor, weight: Tensor, bias: Optional[Tensor], target: Tensor,
                  class_weight: Optional[Tensor], lse_nt: Tensor, a: Tensor, b: Tensor,
                  c: Optional[Tensor], ignore_index: int, softcap: Optional[float],
                  vocab_start: int, chunk: int) -> tuple[Tensor, Tensor]:
    """(d weight, d bias) from ``ce_bwd``'s per-row coefficients; d bias is empty without a
    bias. One GEMM per chunk of classes over all rows: exact, nothing accumulates."""
    h, t = _flat(input), target.reshape(-1)
    rows, vocab = h.shape[0], weight.shape[0]
    per_row = [v.reshape(-1) for v in (lse_nt, a, b)]
    c = None if c is None else c.reshape(-1)
    chunks, own = compact_backward_chunks(rows, vocab, h.shape[1], chunk)
    # (Each chunk's target column from the target's index alone: 4 bytes per row at the
    # peak, for three small kernels more per chunk than _ChunkTargets' two.)
    keep_t = _target_in_weight(t, ignore_index, vocab_start).int()
    dw = torch.empty_like(weight, memory_format=torch.contiguous_format)
    db = torch.empty(0 if bias is None else vocab, dtype=torch.float32, device=h.device)
    spare = None if all(hosted for *_, hosted in chunks) else h.new_empty(rows * own)
    for v0, v1, hosted in chunks:
        # The chunk's logits: in dW's rows from v1 on (unwritten yet), or the spare buffer.
        z = _scratch(dw, v1 * h.shape[1], rows, v1 - v0) if hosted else \
            spare[:rows * (v1 - v0)].view(rows, v1 - v0)
        _logits(h, weight[v0:v1], None if bias is None else bias[v0:v1], out=z)
        cw = None if class_weight is None or c is None else class_weight[v0:v1]
        eager.ce_bwd_(z, _column(keep_t, v0, v1), cw, *per_row, c, -1, softcap,
                      columns=True)
        torch.mm(z.t(), h, out=dw[v0:v1])
        if bias is not None:
            db[v0:v1] = z.sum(0, dtype=torch.float32)
        del z
    return dw, (db if bias is None else db.to(bias.dtype))


def _scratch(buf: Tensor, start: int, rows: int, cols: int) -> Tensor:
    """A (rows, cols) tensor over the contiguous ``buf``'s elements from ``start`` on, with
    a storage of its own that begins there (a slice of buf's, which it keeps alive): offset
    0, like a fresh buffer, so the compiled kernels' layout (and their aligned vector loads:
    Inductor cannot assume alignment of a symbolic storage offset) and one compile serve
    it."""
    size = buf.element_size()
    first = (buf.storage_offset() + start) * size
    storage = buf.untyped_storage()[first:first + rows * cols * size]
    return buf.new_empty(0).set_(storage, 0, (rows, cols), (cols, 1))


@linear_ce_bwd.register_fake
def _(input, weight, bias, target, class_weight, lse_nt, a, b, c, ignore_index, softcap,
      vocab_start, chunk):
    db = input.new_empty(0, dtype=torch.float32) if bias is None else torch.empty_like(bias)
    return torch.empty(weight.shape, dtype=weight.dtype, device=weight.device), db


def input_grad(u: Tensor, s: Optional[Tensor], a: Tensor, b_t: Tensor, w_t: Tensor,
               c: Optional[Tensor], s_all: Optional[Tensor]) -> Tensor:
    """d input of rows (module doc): a u + b f'(z_t) W_t + c s, in float32, rounded once.
    ``b_t`` is b f'(z_t) (0 where the target is not in this weight), ``w_t`` the target's
    rows of W, ``s_all`` the s shared by every row (no softcap: sum_j w_j W_j) when ``s`` is
    None. One pointwise expression: Inductor fuses it, the gather of W_t included; eagerly it
    runs by blocks of rows, in place in u (``_dh``)."""
    g = a.unsqueeze(1) * u.float() + b_t.unsqueeze(1) * w_t.float()
    if c is not None:
        g = g + c.unsqueeze(1) * (s.float() if s is not None else s_all.unsqueeze(0))
    return g.to(u.dtype)


def _fwd_setup(ctx, inputs, output):
    (input, weight, bias, target, class_weight, ignore_index, softcap, smooth, start, _,
     chunk, with_grad) = inputs
    ctx.save_for_backward(input, weight, bias, target, class_weight, *output)
    ctx.options = (ignore_index, softcap, smooth, start, chunk, with_grad)
    # u and s are the backward's: no gradient flows through them, and an eager backward
    # turns u into the input's gradient in place. (Not materialized, their missing upstream
    # gradients would be zeros of dh's size in an eager backward.)
    ctx.mark_non_differentiable(*output[3:])
    ctx.set_materialize_grads(False)


def _fwd_backward(ctx, g_lse_nt, g_z_t, g_sum_wz, g_u, g_s):
    input, weight, bias, target, class_weight, lse_nt, z_t, _, u, s = ctx.saved_tensors
    ignore_index, softcap, smooth, start, chunk, with_grad = ctx.options
    a = torch.zeros_like(lse_nt) if g_lse_nt is None else g_lse_nt
    b = torch.zeros_like(lse_nt) if g_z_t is None else g_z_t
    c = (torch.zeros_like(lse_nt) if g_sum_wz is None else g_sum_wz) if smooth else None
    dw = db = dh = None
    # dh first: its temporaries come and go before dW exists.
    if ctx.needs_input_grad[0]:
        if not with_grad:   # (the forward ran where no gradient was wanted)
            u, s = linear_ce_fwd(input, weight, bias, target, class_weight, ignore_index,
                                 softcap, smooth, start, weight.shape[0], chunk, True)[3:]
        dh = _dh(u, s, weight, target, class_weight, z_t, a, b, c, ignore_index, softcap,
                 start)
    if ctx.needs_input_grad[1] or (bias is not None and ctx.needs_input_grad[2]):
        dw, db = linear_ce_bwd(input, weight, bias, target, class_weight, lse_nt, a, b, c,
                               ignore_index, softcap, start, chunk)
    dh, dw, db = ops.no_double_backward("inductor_ce.linear_cross_entropy", dh, dw,
                                        db if bias is not None else None)
    return dh, dw, db, *([None] * 9)


def _dh(u, s, weight, target, class_weight, z_t, a, b, c, ignore_index, softcap, start):
    t = target.reshape(-1)
    h_shape, rows = u.shape, t.numel()
    hidden = h_shape[-1]   # (not -1: a reshape cannot infer it at 0 rows)
    u, a, b, z_t = u.reshape(rows, hidden), a.reshape(-1), b.reshape(-1), z_t.reshape(-1)
    c = None if c is None else c.reshape(-1)
    s = s.reshape(rows, hidden) if s.numel() else None
    local = _target_in_weight(t, ignore_index, start)
    here = (local >= 0) & (local < weight.shape[0])
    idx = torch.where(here, local, 0)
    f_t = 1.0 if softcap is None else 1.0 - (z_t.where(here, 0.0) / softcap) ** 2
    b_t = (b * f_t).where(here, 0.0)
    traced = _traced(u)
    s_all = None
    if c is not None and s is None:
        s_all = _weighted_rows_sum(weight, class_weight, traced)
    if traced or _keeps_graph():
        # Traced (AOTAutograd), or a backward that may run again: out of place.
        return input_grad(u, s, a, b_t, weight[idx], c, s_all).view(h_shape)
    # Eager: in place in the saved u (this backward runs once), by blocks of rows.
    step = max(1, (1 << 20) // max(1, u.shape[1]))   # float32 temporaries of 4 MiB
    for r0 in range(0, rows, step):
        r = slice(r0, min(rows, r0 + step))
        u[r] = input_grad(u[r], None if s is None else s[r], a[r], b_t[r], weight[idx[r]],
                          None if c is None else c[r], s_all)
    return u.view(h_shape)


def _weighted_rows_sum(weight: Tensor, class_weight: Optional[Tensor], traced) -> Tensor:
    """sum_j w_j W_j in float32 (w = 1 without class weights), never a float32 copy of W:
    traced, one reduction Inductor fuses with the cast; eagerly, by chunks of rows."""
    def part(w_rows, cw):
        rows = w_rows.float()
        return (rows if cw is None else rows * cw.float().unsqueeze(1)).sum(0)
    if traced:
        return part(weight, class_weight)
    step = max(1, (1 << 22) // max(1, weight.shape[1]))   # float32 chunks of 16 MiB
    total = weight.new_zeros(weight.shape[1], dtype=torch.float32)
    for v0 in range(0, weight.shape[0], step):
        v1 = min(weight.shape[0], v0 + step)
        total += part(weight[v0:v1], None if class_weight is None else class_weight[v0:v1])
    return total


def _keeps_graph() -> bool:
    """Whether the running backward keeps the graph (retain_graph=True): then saved tensors
    are read again and must stay unchanged. Unknown (an older torch): assume so."""
    return runtime.graph_keeps_graph()


linear_ce_fwd.register_autograd(_fwd_backward, setup_context=_fwd_setup)


# --- "fast": row chunks, the gradient in the forward -----------------------------------------

@torch.library.custom_op(f"{LIB}::linear_ce_fast", mutates_args=())
def linear_ce_fast(input: Tensor, weight: Tensor, bias: Optional[Tensor], target: Tensor,
                   class_weight: Optional[Tensor], ignore_index: int, softcap: Optional[float],
                   label_smoothing: float, z_loss: float, mean: bool,
                   chunk: int) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """(loss, d loss / d input, d loss / d weight, d loss / d bias) of the whole linear +
    cross-entropy with reduction "mean" (``mean``) or "sum", by chunks of ``chunk`` rows."""
    h, t = _flat(input), target.reshape(-1)
    rows, vocab = h.shape[0], weight.shape[0]
    check_target_range(t, ignore_index, vocab)
    step = chunk or fast_chunk_rows(rows, vocab, h.shape[1])
    _log_head("fast", h, weight, lambda: f"{-(-rows // step)} chunk(s) of at most "
              f"{min(step, rows)} rows x {vocab} logits, the gradient in the forward")
    smooth = label_smoothing > 0.0
    w_smooth = class_weight if smooth else None
    keep = t != ignore_index
    w_t = keep.float() if class_weight is None else \
        class_weight.float()[t.where(keep, 0)].where(keep, 0.0)
    # "mean" with no kept weight (every target ignored, or 0 rows) is nan, as F.cross_entropy's
    # (below); its gradient is 0 there, as stock's, where 1 / 0 would make it nan.
    total = w_t.sum()
    scale = torch.where(total > 0, 1.0 / total, 0.0) if mean else \
        torch.ones((), device=h.device)
    # Kept rows whose class weights sum to 0: stock's 0 / 0, a nan gradient on those rows
    # (ignored rows keep 0, their coefficients masked below). Only class weights get there.
    zero_weight = mean and class_weight is not None
    if zero_weight:
        scale = torch.where(keep.any() & (total == 0), float("nan"), scale)
    loss = torch.zeros((), dtype=torch.float32, device=h.device)
    # Outputs are allocated in their final shapes (not views: the backward scales them in
    # place).
    dh = torch.empty(input.shape, dtype=input.dtype, device=h.device)
    dh_rows = dh.view(h.shape)
    dw = torch.empty_like(weight, memory_format=torch.contiguous_format)
    db = torch.zeros(0 if bias is None else vocab, dtype=torch.float32, device=h.device)
    for r0 in range(0, rows, step):
        r1 = min(rows, r0 + step)
        h_r, t_r = h[r0:r1], t[r0:r1]
        z = _logits(h_r, weight, bias)
        # The chunk's loss and the per-row coefficients (a, b, c) of its gradient (autograd's
        # of the finish, as for cross_entropy), both times `scale` (1 / the kept weight for
        # "mean"): one compiled graph, see eager.loss_chunk.
        loss_r, lse_nt, a, b, *c = eager_loss.loss_chunk(z, t_r, class_weight, ignore_index,
                                                         label_smoothing, z_loss, softcap,
                                                         scale)
        if zero_weight:
            a, b, *c = (k.where(keep[r0:r1], 0.0) for k in (a, b, *c))
        eager.ce_bwd_(z, t_r, w_smooth, lse_nt, a, b, c[0] if c else None, ignore_index,
                      softcap)
        torch.mm(z, weight, out=dh_rows[r0:r1])
        if r0 == 0:
            torch.mm(z.t(), h_r, out=dw)
        else:
            dw.addmm_(z.t(), h_r)
        if bias is not None:
            db += z.sum(0, dtype=torch.float32)
        loss = loss + loss_r
        del z
    if rows == 0:
        dw.zero_()
    if mean:
        loss = torch.where(total > 0, loss, float("nan"))
    db = db if bias is None else db.to(bias.dtype)
    return loss, dh, dw, db


@linear_ce_fast.register_fake
def _(input, weight, bias, target, class_weight, ignore_index, softcap, label_smoothing, z_loss,
      mean, chunk):
    db = input.new_empty(0, dtype=torch.float32) if bias is None else torch.empty_like(bias)
    return (input.new_empty((), dtype=torch.float32),
            torch.empty(input.shape, dtype=input.dtype, device=input.device),
            torch.empty(weight.shape, dtype=weight.dtype, device=weight.device), db)


def _fast_setup(ctx, inputs, output):
    ctx.has_bias = inputs[2] is not None
    ctx.save_for_backward(*output[1:])
    # The gradient outputs get no upstream gradient; materialized, those would be zeros of
    # their size: a second h and W in memory at the start of the backward (1.04 GiB at
    # 8192 x 4096 x 128256, which set the eager step's peak).
    ctx.set_materialize_grads(False)


def _fast_backward(ctx, g_loss, *unused):
    if g_loss is None:
        return (None,) * 11
    dh, dw, db = ctx.saved_tensors
    if not _traced(dw) and not _keeps_graph():
        # Eager, a backward that runs once: scale the saved buffers in place (no second V x D
        # buffer); on CUDA skipped where g == 1 (linear/scaling.py).
        for grad in (dh, dw, db):
            _SCALE(grad, g_loss)
        grads = (dh, dw, db)
    else:
        # Traced (AOTAutograd): out of place. Inductor writes the product into the dead
        # saved buffer; the in-place op would be functionalized into a copy of it first
        # (the saved tensor is a graph input, never mutated in the functional graph). Eager
        # with retain_graph=True: the saved gradients must stay for the next backward.
        grads = (dh * g_loss, dw * g_loss, db * g_loss)
    grads = ops.no_double_backward("inductor_ce.linear_cross_entropy", grads[0], grads[1],
                                   grads[2] if ctx.has_bias else None)
    return *grads, *([None] * 8)


linear_ce_fast.register_autograd(_fast_backward, setup_context=_fast_setup)


POLICIES = ("fast", "compact")
