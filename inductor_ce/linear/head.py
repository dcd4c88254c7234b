"""Fused linear + cross-entropy: ``cross_entropy(h @ W.T + b, target)`` without (rows, V) logits.

Notation: N rows (the input's leading dims, flattened), hidden size D, V classes; h (N, D), W
(V, D), b (V,); z = h W^T + b the logits. GEMMs are counted in units of one N x D x V product.
The chunks of z are computed with cuBLAS, and every chunk goes through ``ce_fwd`` / ``ce_bwd``
(their lowered kernels, see ``eager/kernels.py``): the loss math is the op's, and the per-row
finish is ``op/finish.py``'s, as for ``cross_entropy``. Measurements: docs/linear.md.

Two ops, by what the caller's gradient looks like, and two ways to chunk z, by the memory
budget (bytes of chunk scratch beyond the inputs, outputs and gradients; ``chunking``):

``linear_ce_fast``, a scalar loss ("mean", "sum"): its gradient is known up to the upstream
    scalar g before the backward, so the forward computes it, and the backward multiplies the
    saved dh, dW, db by g on the device (no host sync; eagerly in place, skipped on CUDA where
    g == 1: ``scaling.py``; out of place where the graph is kept for another backward).
``linear_ce_fwd`` / ``linear_ce_bwd``, per-row upstream gradients (``reduction="none"``,
    ``return_lse``) and calls without gradient: the forward returns ``ce_fwd``'s per-row
    statistics (lse_nt, z_t, sum_wz), autograd of the finish hands the backward ce_bwd's
    per-row coefficients (a, b, c), and the backward recomputes the logits.
``losses_without_grad``, an eager call that wants no gradient (no op: nothing to trace or
    differentiate): each row chunk's logits through ``cross_entropy``'s compiled forward,
    statistics and per-row finish in one graph call.

Row chunks (the default, and any budget of at least ``plan.rows_least`` rows of logits: 64
where D < 2048, else 256 to 768 by the budget and the call). For each chunk r of R rows (a
multiple of 4 where that takes no more chunks: aligned slices of the per-row inputs):

    z_r = h_r W^T + b                        one GEMM
    forward:  stats_r = ce_fwd(z_r)          (fast: with the finish, its coefficients and
    gradient: dz_r = ce_bwd(z_r, a, b, c)     ce_bwd, one compiled graph: eager/loss.py's
                                              loss_chunk) in place of z_r
              dh_r = dz_r W;  dW += dz_r^T h_r;  db += sum_rows dz_r      two GEMMs

The fast op does all of it in its forward: 3 GEMMs. The per-row ops compute the statistics in
the forward and the gradient in the backward, recomputing z_r: 4 GEMMs (3 without a gradient
for W, 1 without any: nothing is saved). An eager forward that a gradient will follow keeps
its last chunk of logits for the backward, which starts with it and frees it before
recomputing the others: one chunk fewer to recompute (3 GEMMs where there is one chunk), and
still one chunk alive at a time (between forward and backward, the kept one). dW accumulates
in W's dtype (cuBLAS accumulates each product in float32 and rounds once per chunk); every
chunk after the first reads and writes dW once more, which is why a chunk has at least
``plan.rows_least`` rows where class chunks are faster.

Class chunks (a smaller budget), by blocks of rows: ``class_chunks.py``. The rows' and the
classes' loops share ``chunks.py``'s GEMMs and buffers.

All are custom ops of our namespace (functional, with fake kernels and registered autograd):
under torch.compile they are opaque calls whose implementations loop over chunks at run time,
so a symbolic row count needs no unrolled loop and no recompilation; the chunking is chosen
from V, D, the dtype and the budget, never from the row count (no guard on it).
"""
from __future__ import annotations

from typing import Optional

import torch
from torch import Tensor

from .._inductor import runtime
from .._inductor.dispatch import autograd_inside_op
from ..eager import kernels as eager
from ..eager import loss as eager_loss
from ..op import ce as ops
from ..op.decomposition import check_target_range
from ..op.finish import finish, kept_weight
from . import chunks, class_chunks
from . import scaling  # noqa: F401  (the scale_ op)
from .plan import (by_classes, chunk_rows, class_blocks, classes_words, grad_classes, log_plan,
                   rows_words)

LIB = ops.LIB
_CE_FWD = torch.ops.inductor_ce.ce_fwd.default
_CE_FWD_FULL = torch.ops.inductor_ce.ce_fwd_full.default
_SCALE = torch.ops.inductor_ce.scale_.default


# --- pieces the ops share -------------------------------------------------------------------------

def _by_classes(input: Tensor, weight: Tensor, budget: int, per_row: bool = False) -> bool:
    return by_classes(weight.shape[0], weight.shape[1], input.element_size(), budget, per_row)


def _traced(t: Tensor) -> bool:
    """Whether a backward runs traced (Dynamo's trace of it under compiled autograd,
    AOTAutograd's fake/functional tensors, or under a dispatch mode) rather than eagerly on
    the real saved buffers. (Dynamo first: it cannot trace the others' C calls.)"""
    return torch.compiler.is_compiling() or type(t) is not Tensor or \
        bool(runtime.dispatch_modes())


def _keeps_graph() -> bool:
    """Whether the running backward keeps the graph (retain_graph=True): then saved tensors
    are read again and must stay unchanged. Unknown (an older torch): assume so."""
    return runtime.graph_keeps_graph()


def _column(keep_t: Tensor, v0: int, v1: int) -> Tensor:
    """The target's column in classes [v0, v1), -1 where it is not among them."""
    return torch.where((keep_t >= v0) & (keep_t < v1), keep_t - v0, -1)


def _row_chunk_grads(z: Tensor, h_r: Tensor, weight: Tensor, dh_r: Optional[Tensor],
                     dw: Optional[Tensor], db: Optional[Tensor], first: bool) -> None:
    """A row chunk's share of the gradients from its dz (in z): dh_r = dz W (written; W as
    the GEMMs take it, ``chunks.operand``), dW += dz^T h_r (written by the first chunk; in
    dW's dtype), db += sum_rows dz; None: not wanted."""
    if dh_r is not None:
        torch.mm(z, weight, out=dh_r)
    if dw is not None:
        chunks.add_product(dw, z.t(), h_r, first)
    if db is not None:
        db += z.sum(0, dtype=torch.float32)


# --- the per-row statistics and their backward ---------------------------------------------------

@torch.library.custom_op(f"{LIB}::linear_ce_fwd", mutates_args=())
def linear_ce_fwd(input: Tensor, weight: Tensor, bias: Optional[Tensor], target: Tensor,
                  class_weight: Optional[Tensor], ignore_index: int, softcap: Optional[Tensor],
                  smooth: bool, vocab_start: int, num_classes: int, budget: int,
                  keep: bool = False) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """``ce_fwd``'s statistics of ``input @ weight.T + bias`` (classes ``[vocab_start,
    vocab_start + V)`` of a global vocabulary of ``num_classes``; ``target`` holds global
    ids, each in [0, num_classes) or ignore_index: asserted here, on the device), chunked
    within ``budget`` bytes (0: the default): one GEMM and one pass over each chunk's
    logits, and no gradient (the backward recomputes the logits). By row chunks, with
    ``keep``, the last chunk's logits are the fourth output (else empty), which an eager
    backward takes (``_take_kept``)."""
    h, t = chunks.flat(input), target.reshape(-1)
    rows, vocab, hidden, size = h.shape[0], weight.shape[0], h.shape[1], h.element_size()
    whole = _whole(vocab_start, num_classes, vocab)
    classes = by_classes(vocab, hidden, size, budget, per_row=True)
    if classes or not whole:    # (else the row chunks' kernels assert the range)
        check_target_range(t, ignore_index, num_classes)
    if not classes:
        return tuple(_row_statistics("linear_ce_fwd", h, input.shape[:-1], weight, bias,
                                     *_row_targets(t, ignore_index, vocab_start, vocab,
                                                   whole),
                                     class_weight, softcap, smooth, budget, keep=keep))
    keep_t = chunks.target_in_weight(t, ignore_index, vocab_start)
    blocks = class_blocks(hidden, vocab, size, budget)
    weight = chunks.operand(weight, h)
    log_plan("linear_ce_fwd", h, weight, lambda: classes_words(
        rows, blocks, vocab, "the backward recomputes them"))
    stats = [h.new_empty(rows, dtype=torch.float32) for _ in range(3)]
    scratch = class_chunks.Scratch.for_block(h, min(blocks.rows, rows), vocab,
                                             stats=blocks.classes)
    for r0 in range(0, rows, blocks.rows):
        r = slice(r0, min(rows, r0 + blocks.rows))
        class_chunks.block_statistics(h[r], weight, bias, keep_t[r], class_weight, softcap,
                                      smooth, blocks.classes, scratch,
                                      out=[v[r] for v in stats])
    return (*(v.view(input.shape[:-1]) for v in stats), h.new_empty(0))


def _whole(vocab_start: int, num_classes: int, vocab: int) -> bool:
    """Whether this weight holds every class (not a shard of the vocabulary-parallel loss)."""
    return vocab_start == 0 and num_classes == vocab


def _row_targets(t: Tensor, ignore_index: int, vocab_start: int, vocab: int, whole: bool):
    """(target, ignore_index) as a row chunk's ce ops take them: where this weight holds every
    class, the target itself (the ops assert its range on the device, in their kernels: no
    launch of ours); else each row's column among this weight's classes, -1 for ignored rows
    and other shards' classes (the caller asserts the global range: ``check_target_range``,
    in the op, eagerly; Inductor's lowering of an assert can end the process on the C++
    backend, see lowering._check_targets). Where the call is short (D small, few rows) the
    five launches that mapping costs are a share of the step."""
    if whole:
        return t, ignore_index
    return _column(chunks.target_in_weight(t, ignore_index, vocab_start), 0, vocab), -1


def _row_statistics(op, h, shape, weight, bias, tgt, ignore, class_weight, softcap, smooth,
                    budget, temperature=None, keep=False):
    """ce_fwd's statistics of all rows by chunks of rows within ``budget``: one GEMM and one
    pass over each chunk's logits (with a ``temperature``, ce_fwd_full's five), each of
    ``shape`` (the input's rows'; tensors of their own, no views: the op's outputs);
    ``tgt``, ``ignore``: ``_row_targets``'; ``op``: the caller's name, for the log. With
    ``keep``, the last chunk's logits follow the statistics (else an empty tensor): the
    backward takes them instead of recomputing them."""
    rows, vocab = h.shape[0], weight.shape[0]
    step = chunk_rows(rows, vocab, h.shape[1], h.element_size(), budget)
    weight = chunks.operand(weight, h)
    log_plan(op, h, weight, lambda: rows_words(rows, step, vocab,
                                               "the backward recomputes them"))
    cw = class_weight if smooth else None
    full = temperature is not None
    parts: list = [[] for _ in range(5 if full else 3)]   # (per-row vectors: joined once)
    kept = h.new_empty(0)
    for r0 in range(0, rows, step):
        r1 = min(rows, r0 + step)
        z = chunks.logits(h[r0:r1], weight, bias)
        # ce_fwd's compiled kernels called directly (the custom op's dispatch costs host
        # time per chunk, which sets the pace where D is small); the op where they do not
        # apply
        part = eager.ce_fwd(z, tgt[r0:r1], cw, ignore, softcap, smooth, temperature)
        if part is None:
            part = (_CE_FWD_FULL(z, tgt[r0:r1], cw, ignore, softcap, smooth, temperature)
                    if full else _CE_FWD(z, tgt[r0:r1], cw, ignore, softcap, smooth))
        for acc, p in zip(parts, part):
            acc.append(p)
        if keep and r1 == rows:
            kept = z
        # Freed before the next chunk's GEMM allocates its logits: else two chunks are alive
        # at once, twice the budget (tests/test_gpu.py's peak test).
        del z, part
    if len(parts[0]) == 1:     # (one chunk: its own tensors, in the input's rows)
        return [*(p[0].view(shape) for p in parts), kept]
    stats = [h.new_empty(shape, dtype=torch.float32) for _ in parts]
    if rows:
        for out, acc in zip(stats, parts):
            torch.cat(acc, out=out.view(-1))
    return [*stats, kept]


def losses_without_grad(input, weight, bias, target, class_weight, ignore_index,
                        label_smoothing, z_loss, softcap, budget, temperature=None):
    """Per-row (loss, lse) of ``cross_entropy(input @ weight.T + bias, target,
    reduction="none", temperature=temperature)`` (``weight`` holding every class) for an
    eager call that no gradient follows, by row chunks within ``budget``: each chunk's GEMM,
    then the eager ``cross_entropy``'s compiled forward on its logits, the statistics and the
    per-row finish in one graph call (``eager/loss.py``), where ``linear_ce_fwd``'s
    statistics and an eager finish cost a dozen more launches per call, which set the pace of
    a short call on a GPU. A chunk where that path does not apply (off CUDA below its size)
    runs the op's statistics and the finish. The same math either way: ``op/finish.py``'s,
    and the same rounding as with a gradient: the logits rounded to the input's dtype, then
    divided by the temperature in float32. (Folded into the GEMM, z / T rounded once to
    bfloat16, a policy's log-probabilities without and with a gradient would differ by the
    logits' rounding: an RL importance ratio off 1 where it should be exactly 1.)"""
    h, t = chunks.flat(input), target.reshape(-1)
    rows, vocab = h.shape[0], weight.shape[0]
    step = chunk_rows(rows, vocab, h.shape[1], h.element_size(), budget)
    weight = chunks.operand(weight, h)
    log_plan("linear_cross_entropy without gradient", h, weight,
             lambda: rows_words(rows, step, vocab, "each through cross_entropy's graph"))
    smooth = label_smoothing > 0.0
    losses, lses = [], []
    for r0 in range(0, rows, step):
        r1 = min(rows, r0 + step)
        z, t_r = chunks.logits(h[r0:r1], weight, bias), t[r0:r1]
        out = eager_loss.cross_entropy(z, t_r, class_weight, ignore_index, "none",
                                       label_smoothing, z_loss, softcap, True, graphs=False,
                                       temperature=temperature)
        if out is None:
            w, cap = class_weight if smooth else None, ops.softcap_tensor(softcap)
            stats = _CE_FWD(z, t_r, w, ignore_index, cap, smooth) if temperature is None \
                else _CE_FWD_FULL(z, t_r, w, ignore_index, cap, smooth, temperature)[:3]
            out = finish(*stats, t_r, class_weight, ignore_index, label_smoothing, z_loss,
                         vocab)
        losses.append(out[0])
        lses.append(out[1])
        del z, out      # (one chunk of logits alive at a time)
    # (one chunk: its own tensors; no rows: empty ones)
    loss, lse = (v[0] if len(v) == 1 else torch.cat(v) if v else
                 h.new_empty(0, dtype=torch.float32) for v in (losses, lses))
    return loss.view(target.shape), lse.view(target.shape)


def _kept_fake(input, weight, keep):
    """The kept logits' fake: their rows (the last chunk's) depend on the chunking, which
    looks at the row count only at run time, so they are a size of their own."""
    if not keep:
        return input.new_empty(0)
    return input.new_empty(torch.library.get_ctx().new_dynamic_size(), weight.shape[0])


@linear_ce_fwd.register_fake
def _(input, weight, bias, target, class_weight, ignore_index, softcap, smooth, vocab_start,
      num_classes, budget, keep=False):
    stats = tuple(input.new_empty(input.shape[:-1], dtype=torch.float32) for _ in range(3))
    return (*stats, _kept_fake(input, weight, keep))


@torch.library.custom_op(f"{LIB}::linear_ce_bwd", mutates_args=())
def linear_ce_bwd(input: Tensor, weight: Tensor, bias: Optional[Tensor], target: Tensor,
                  class_weight: Optional[Tensor], lse_nt: Tensor, a: Tensor, b: Tensor,
                  c: Optional[Tensor], ignore_index: int, softcap: Optional[Tensor],
                  vocab_start: int, budget: int, input_grad: bool, weight_grad: bool,
                  e: Optional[Tensor] = None,
                  temperature: float = 1.0) -> tuple[Tensor, Tensor, Tensor]:
    """(d input, d weight, d bias) from ``ce_bwd``'s per-row coefficients, recomputing the
    logits by the budget's chunking; d input only with ``input_grad``, d weight and d bias
    (float32) only with ``weight_grad``, else empty. ``e`` and ``temperature``:
    ``ce_bwd_full``'s (by row chunks whatever the budget)."""
    return _backward(input, weight, bias, target, class_weight, lse_nt, a, b, c, ignore_index,
                     softcap, vocab_start, budget, input_grad, weight_grad, e, temperature)


def _backward(input, weight, bias, target, class_weight, lse_nt, a, b, c, ignore_index,
              softcap, vocab_start, budget, input_grad, weight_grad, e=None, temperature=1.0,
              kept=None, whole=False):
    """``linear_ce_bwd``'s implementation; an eager backward calls it directly, with the
    forward's ``kept`` logits (``_take_kept``: row chunks only, as the budget says) and
    ``whole`` (``_whole``: the weight holds every class; the op does not know it, and maps
    the target to this weight's columns whatever it holds)."""
    full = e is not None or temperature != 1.0
    h, t = chunks.flat(input), target.reshape(-1)
    vocab, hidden, size = weight.shape[0], h.shape[1], h.element_size()
    per_row = [v.reshape(-1) for v in (lse_nt, a, b)]
    c = None if c is None else c.reshape(-1)
    if not full and by_classes(vocab, hidden, size, budget, per_row=True):
        keep_t = chunks.target_in_weight(t, ignore_index, vocab_start)
        return class_chunks.grads_by_classes(input, weight, bias, keep_t, class_weight,
                                             per_row, c, softcap, budget, input_grad,
                                             weight_grad)
    return _grads_by_rows(input, weight, bias,
                          _row_targets(t, ignore_index, vocab_start, vocab, whole),
                          class_weight, per_row, c, softcap, budget, input_grad, weight_grad,
                          e, temperature if full else None, kept)


def _grads_by_rows(input, weight, bias, targets, class_weight, per_row, c, softcap, budget,
                   input_grad, weight_grad, e, temperature, kept=None):
    """``linear_ce_bwd`` by row chunks; ``targets``: ``_row_targets``'. ``kept``: None, or a
    list holding the forward's last chunk of logits (``_take_kept``), which this takes (its
    only reference: it is freed once done, before any other chunk is recomputed) and
    overwrites with its dz; that chunk goes first, and the others are recomputed."""
    h = chunks.flat(input)
    rows, vocab, hidden, size = h.shape[0], weight.shape[0], h.shape[1], h.element_size()
    step = chunk_rows(rows, vocab, hidden, size, budget)
    log_plan("linear_ce_bwd", h, weight, lambda: rows_words(
        rows, step, vocab, "recomputed" if kept is None else "recomputed but the last"))
    col, ignore = targets
    cw = class_weight if c is not None else None
    dh, dw, db = chunks.grad_outputs(input, weight, bias, input_grad, weight_grad)
    weight = chunks.operand(weight, h)
    starts = list(range(0, rows, step))
    if kept is not None:   # the kept chunk is the last: it goes first
        starts = starts[-1:] + starts[:-1]
    for i, r0 in enumerate(starts):
        r1 = min(rows, r0 + step)
        z = kept.pop() if kept is not None and i == 0 else \
            chunks.logits(h[r0:r1], weight, bias)
        eager.ce_bwd_(z, col[r0:r1], cw, per_row[0][r0:r1], per_row[1][r0:r1],
                      per_row[2][r0:r1], None if c is None else c[r0:r1], ignore, softcap,
                      e=None if e is None else e.reshape(-1)[r0:r1], temperature=temperature)
        _row_chunk_grads(z, h[r0:r1], weight, dh.view(h.shape)[r0:r1] if input_grad else None,
                         dw if weight_grad else None, db if db.numel() else None, i == 0)
        del z
    if weight_grad and rows == 0:
        dw.zero_()
    return dh, dw, db


@linear_ce_bwd.register_fake
def _(input, weight, bias, target, class_weight, lse_nt, a, b, c, ignore_index, softcap,
      vocab_start, budget, input_grad, weight_grad, e=None, temperature=1.0):
    dh = torch.empty(input.shape if input_grad else (0,), dtype=input.dtype,
                     device=input.device)
    dw = torch.empty(weight.shape if weight_grad else (0,), dtype=weight.dtype,
                     device=weight.device)
    db = input.new_empty(weight.shape[0] if bias is not None and weight_grad else 0,
                         dtype=torch.float32)
    return dh, dw, db


def _keep_logits(input, weight, bias, budget) -> bool:
    """Whether a forward by row chunks hands its last chunk of logits to the backward: where
    a gradient will be wanted and the backward runs eagerly (it takes them in place of
    recomputing them, then frees them: ``_take_kept``). Under torch.compile or another
    tracer the backward is a graph whose saved tensors it may not overwrite: no (nor under
    torch.jit.trace, whose graph would hold the flag as a constant). Nor on meta tensors
    (shape inference), whose kept rows the fake kernel could not size."""
    grad = torch.is_grad_enabled() and (input.requires_grad or weight.requires_grad or (
        bias is not None and bias.requires_grad))
    return grad and not _by_classes(input, weight, budget, per_row=True) and \
        not torch.compiler.is_compiling() and not _traced(input) and not input.is_meta \
        and not torch.jit.is_tracing()


def _hold_kept(ctx, kept: Tensor) -> None:
    """The kept logits ride on ctx, not among the saved tensors, so that the backward can
    drop them before it recomputes the other chunks (a saved tensor lives until the whole
    backward returns: two chunks at once). Not differentiable: no reference cycle."""
    ctx.kept = kept if kept.numel() else None


def _take_kept(ctx) -> Optional[list]:
    """The forward's last chunk of logits as the only reference to them (a list for
    ``_grads_by_rows`` to empty), or None: none kept, or a backward that keeps its graph
    (retain_graph, create_graph: ctx's tensors are read again)."""
    kept = getattr(ctx, "kept", None)
    if kept is None or _traced(kept) or _keeps_graph():
        return None
    ctx.kept = None
    return [kept]


def _fwd_setup(ctx, inputs, output):
    (input, weight, bias, target, class_weight, ignore_index, softcap, smooth, start,
     num_classes, budget, *_) = inputs
    ctx.save_for_backward(input, weight, bias, target, class_weight, output[0])
    ctx.options = (ignore_index, softcap, smooth, start, budget)
    ctx.whole = _whole(start, num_classes, weight.shape[0])
    # The kept logits are the backward's: no gradient flows through them. (Not materialized,
    # their missing upstream gradient would be zeros of a chunk's size in an eager backward.)
    ctx.mark_non_differentiable(output[3])
    ctx.set_materialize_grads(False)
    _hold_kept(ctx, output[3])


def _fwd_backward(ctx, g_lse_nt, g_z_t, g_sum_wz, g_kept):
    input, weight, bias, target, class_weight, lse_nt = ctx.saved_tensors
    ignore_index, softcap, smooth, start, budget = ctx.options
    a, b, c = ops.coefficients(lse_nt, g_lse_nt, g_z_t, g_sum_wz, smooth)
    need_h = ctx.needs_input_grad[0]
    need_w = ctx.needs_input_grad[1] or (bias is not None and ctx.needs_input_grad[2])
    dh = dw = db = None
    if need_h or need_w:
        args = (input, weight, bias, target, class_weight, lse_nt, a, b, c, ignore_index,
                softcap, start, budget, need_h, need_w)
        kept = _take_kept(ctx)
        dh, dw, db = linear_ce_bwd(*args) if kept is None else \
            _backward(*args, kept=kept, whole=ctx.whole)
        dh = dh if need_h else None
        dw = dw if need_w else None
        db = db.to(bias.dtype) if need_w and bias is not None else None
    dh, dw, db = ops.no_double_backward("inductor_ce.linear_cross_entropy",
                                        (input, weight, bias), dh, dw, db)
    return dh, dw, db, *([None] * 9)


linear_ce_fwd.register_autograd(_fwd_backward, setup_context=_fwd_setup)


def statistics(input, weight, bias, target, class_weight, ignore_index, softcap, smooth,
               vocab_start, num_classes, budget):
    """``ce_fwd``'s per-row (lse_nt, z_t, sum_wz) of the linear's logits, differentiable
    (``linear_ce_fwd``)."""
    return linear_ce_fwd(input, weight, bias, target, class_weight, ignore_index, softcap,
                         smooth, vocab_start, num_classes, budget,
                         _keep_logits(input, weight, bias, budget))[:3]


# --- the full form: a temperature, the entropy and the accuracy (by row chunks) ---------------

def statistics_full(input, weight, bias, target, class_weight, ignore_index, softcap, smooth,
                    vocab_start, num_classes, budget, temperature):
    """``ce_fwd_full``'s per-row (lse_nt, z_t, sum_wz, ent_nt, max_nt) of the linear's
    logits, differentiable (``linear_ce_fwd_full``)."""
    return linear_ce_fwd_full(input, weight, bias, target, class_weight, ignore_index, softcap,
                              smooth, vocab_start, num_classes, budget, float(temperature),
                              _keep_logits(input, weight, bias, budget))[:5]


@torch.library.custom_op(f"{LIB}::linear_ce_fwd_full", mutates_args=())
def linear_ce_fwd_full(input: Tensor, weight: Tensor, bias: Optional[Tensor], target: Tensor,
                       class_weight: Optional[Tensor], ignore_index: int,
                       softcap: Optional[Tensor], smooth: bool, vocab_start: int,
                       num_classes: int, budget: int, temperature: float, keep: bool = False
                       ) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
    """``ce_fwd_full``'s statistics (lse_nt, z_t, sum_wz, ent_nt, max_nt) of ``input @
    weight.T + bias`` by row chunks within ``budget`` whatever its size (a budget below
    plan.rows_least rows of logits means many small chunks), as ``linear_ce_fwd`` without gradient;
    the backward recomputes the logits (``linear_ce_bwd`` with ``ce_bwd_full``'s e and
    temperature), but the last chunk's with ``keep`` (the sixth output, as
    ``linear_ce_fwd``'s)."""
    h, t = chunks.flat(input), target.reshape(-1)
    whole = _whole(vocab_start, num_classes, weight.shape[0])
    if not whole:
        check_target_range(t, ignore_index, num_classes)
    return tuple(_row_statistics("linear_ce_fwd_full", h, input.shape[:-1], weight, bias,
                                 *_row_targets(t, ignore_index, vocab_start, weight.shape[0],
                                               whole),
                                 class_weight, softcap, smooth, budget, temperature, keep))


@linear_ce_fwd_full.register_fake
def _(input, weight, bias, target, class_weight, ignore_index, softcap, smooth, vocab_start,
      num_classes, budget, temperature, keep=False):
    return (*(input.new_empty(input.shape[:-1], dtype=torch.float32) for _ in range(5)),
            _kept_fake(input, weight, keep))


def _full_setup(ctx, inputs, output):
    (input, weight, bias, target, class_weight, ignore_index, softcap, smooth, start,
     num_classes, budget, temperature, *_) = inputs
    ctx.save_for_backward(input, weight, bias, target, class_weight, output[0], output[3])
    ctx.options = (ignore_index, softcap, smooth, start, budget, temperature)
    ctx.whole = _whole(start, num_classes, weight.shape[0])
    ctx.mark_non_differentiable(output[4], output[5])
    ctx.set_materialize_grads(False)
    _hold_kept(ctx, output[5])


def _full_backward(ctx, g_lse_nt, g_z_t, g_sum_wz, g_ent_nt, g_max_nt, g_kept):
    return *_full_grads(ctx, g_lse_nt, g_z_t, g_sum_wz, g_ent_nt), *([None] * 10)


def _full_grads(ctx, g_lse_nt, g_z_t, g_sum_wz, g_ent_nt):
    """(dh, dW, db) of the full statistics' upstream gradients: ``linear_ce_bwd``, which
    recomputes the logits by row chunks."""
    input, weight, bias, target, class_weight, lse_nt, ent_nt = ctx.saved_tensors
    ignore_index, softcap, smooth, start, budget, temperature = ctx.options
    a, b, c = ops.coefficients(lse_nt, g_lse_nt, g_z_t, g_sum_wz, smooth, g_ent_nt, ent_nt)
    need_h = ctx.needs_input_grad[0]
    need_w = ctx.needs_input_grad[1] or (bias is not None and ctx.needs_input_grad[2])
    args = (input, weight, bias, target, class_weight, lse_nt, a, b, c, ignore_index, softcap,
            start, budget, need_h, need_w)
    kept = _take_kept(ctx)
    dh, dw, db = linear_ce_bwd(*args, g_ent_nt, temperature) if kept is None else \
        _backward(*args, g_ent_nt, temperature, kept, ctx.whole)
    dh, dw, db = (dh if need_h else None, dw if need_w else None,
                  db.to(bias.dtype) if need_w and bias is not None else None)
    return ops.no_double_backward("inductor_ce.linear_cross_entropy", (input, weight, bias),
                                  dh, dw, db)


linear_ce_fwd_full.register_autograd(_full_backward, setup_context=_full_setup)


@torch.library.custom_op(f"{LIB}::linear_ce_full_statistics", mutates_args=())
def full_statistics(input: Tensor, weight: Tensor, bias: Optional[Tensor], target: Tensor,
                    class_weight: Optional[Tensor], lse_nt: Tensor, z_t: Tensor,
                    ent_nt: Tensor, max_nt: Tensor, ignore_index: int,
                    softcap: Optional[Tensor], budget: int, temperature: float
                    ) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """(lse_nt, z_t, ent_nt, max_nt) as ``linear_ce_fast`` computed them with the loss, made
    differentiable in input, weight and bias: the values pass through, and a gradient
    reaching them (an entropy in the loss) costs the backward ``linear_ce_bwd``'s pass, as
    ``linear_ce_fwd_full``'s; a logged entropy and the accuracy cost nothing more."""
    return lse_nt.clone(), z_t.clone(), ent_nt.clone(), max_nt.clone()


@full_statistics.register_fake
def _(input, weight, bias, target, class_weight, lse_nt, z_t, ent_nt, max_nt, ignore_index,
      softcap, budget, temperature):
    return tuple(torch.empty_like(v) for v in (lse_nt, z_t, ent_nt, max_nt))


def _statistics_setup(ctx, inputs, output):
    (input, weight, bias, target, class_weight, lse_nt, _, ent_nt, _, ignore_index, softcap,
     budget, temperature) = inputs
    ctx.save_for_backward(input, weight, bias, target, class_weight, lse_nt, ent_nt)
    ctx.options = (ignore_index, softcap, False, 0, budget, temperature)
    ctx.whole = True
    ctx.mark_non_differentiable(output[3])
    ctx.set_materialize_grads(False)


def _statistics_backward(ctx, g_lse_nt, g_z_t, g_ent_nt, g_max_nt):
    if g_lse_nt is None and g_z_t is None and g_ent_nt is None:
        return (None,) * 13
    return *_full_grads(ctx, g_lse_nt, g_z_t, None, g_ent_nt), *([None] * 10)


full_statistics.register_autograd(_statistics_backward, setup_context=_statistics_setup)


# --- a scalar loss: the gradient in the forward ------------------------------------------------

@torch.library.custom_op(f"{LIB}::linear_ce_fast", mutates_args=())
def linear_ce_fast(input: Tensor, weight: Tensor, bias: Optional[Tensor], target: Tensor,
                   class_weight: Optional[Tensor], ignore_index: int, softcap: Optional[Tensor],
                   label_smoothing: float, z_loss: float, mean: bool, budget: int,
                   temperature: float = 1.0, full: bool = False, input_grad: bool = True,
                   weight_grad: bool = True, options: Optional[Tensor] = None
                   ) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
    """(loss, d loss / d input, d loss / d weight, d loss / d bias) of the whole linear +
    cross-entropy with reduction "mean" (``mean``) or "sum", chunked within ``budget``
    bytes (0: the default); with ``full`` (by row chunks only), at ``temperature``, and
    ``ce_fwd_full``'s per-row (lse_nt, z_t, ent_nt, max_nt) too, for the entropy and the
    accuracy (``full_statistics`` makes them differentiable), else four empty tensors.
    ``input_grad`` / ``weight_grad`` (the weight's and the bias's): whether that gradient is
    wanted; one not wanted is empty, and its GEMM is not run (a frozen head: LoRA).
    ``options``: a CPU float64 tensor [label_smoothing, z_loss] that replaces those two
    (under torch.compile: a float read into the schema's float would be a guard, and a
    compile, per value; a tensor is a graph input)."""
    if options is not None:
        label_smoothing, z_loss = options.tolist()
    h, t = chunks.flat(input), target.reshape(-1)
    vocab, size = weight.shape[0], h.element_size()
    by_rows = full or not by_classes(vocab, h.shape[1], size, budget)
    if class_weight is not None or not by_rows:
        # (By rows without class weights, loss_chunk's kernels assert the range themselves.)
        check_target_range(t, ignore_index, vocab)
    keep = t != ignore_index
    w_t = kept_weight(keep, t, class_weight)
    # "mean" with no kept weight (every target ignored, or 0 rows) is nan, as F.cross_entropy's
    # (below); its gradient is 0 there, as stock's, where 1 / 0 would make it nan.
    total = w_t.sum()
    any_weight = total != 0     # (class weights may be negative, as stock's)
    scale = torch.where(any_weight, 1.0 / total, 0.0) if mean else \
        torch.ones((), device=h.device)
    # Kept rows whose class weights sum to 0: stock's 0 / 0, a nan gradient on those rows
    # (ignored rows keep 0: their coefficients are masked, in loss_chunk's graph by rows and
    # in _fast_by_classes). Only class weights get there.
    zero_weight = mean and class_weight is not None
    if zero_weight:
        scale = torch.where(keep.any() & (total == 0), float("nan"), scale)
    options = (class_weight, ignore_index, label_smoothing, z_loss, softcap, scale)
    wanted = (input_grad, weight_grad)
    if not by_rows:
        loss, dh, dw, db = _fast_by_classes(input, h, weight, bias, t, keep, zero_weight,
                                            budget, wanted, *options)
        stats = [h.new_empty(0, dtype=torch.float32) for _ in range(4)]
    else:
        loss, dh, dw, db, *stats = _fast_by_rows(input, h, weight, bias, t, budget, wanted,
                                                 *options, temperature if full else None)
    if mean:
        loss = torch.where(any_weight, loss, float("nan"))
    stats = [v.view(input.shape[:-1]) if full else v for v in stats]
    return loss, dh, dw, (db if bias is None else db.to(bias.dtype)), *stats


def _total(losses: list, device) -> Tensor:
    """The sum of the chunks' float32 losses: one sum at the end, not an add per chunk; 0
    without chunks (no rows)."""
    if len(losses) > 1:
        return torch.stack(losses).sum()
    return losses[0] if losses else torch.zeros((), dtype=torch.float32, device=device)


def _fast_grads(input, h, weight, bias, wanted):
    """The fast op's (dh, dW, db) outputs, and what its chunks write: (dh by rows, dW, db),
    None where not ``wanted`` (input_grad, weight_grad) or absent."""
    dh, dw, db = chunks.grad_outputs(input, weight, bias, *wanted)
    return dh, dw, db, (dh.view(h.shape) if wanted[0] else None,
                        dw if wanted[1] else None,
                        db if wanted[1] and bias is not None else None)


def _fast_by_rows(input, h, weight, bias, t, budget, wanted, class_weight, ignore_index,
                  label_smoothing, z_loss, softcap, scale, temperature=None):
    rows, vocab = h.shape[0], weight.shape[0]
    step = chunk_rows(rows, vocab, h.shape[1], h.element_size(), budget)
    log_plan("linear_ce_fast", h, weight, lambda: rows_words(
        rows, step, vocab, "the gradient in the forward"))
    # Outputs are allocated in their final shapes (not views: the backward scales them in
    # place).
    dh, dw, db, (dh_rows, dw_, db_) = _fast_grads(input, h, weight, bias, wanted)
    weight = chunks.operand(weight, h)
    full = temperature is not None
    # (loss_chunk's options take values; a CPU tensor's, read without a dispatched op)
    cap = None if softcap is None else softcap.tolist()
    # (full) lse_nt, z_t, ent_nt, max_nt of every row
    stats = [h.new_empty((rows,) if full else 0, dtype=torch.float32) for _ in range(4)]
    parts: list = [[] for _ in stats]   # (full: per-row vectors, joined once at the end)
    losses = []
    for r0 in range(0, rows, step):
        r1 = min(rows, r0 + step)
        h_r, t_r = h[r0:r1], t[r0:r1]
        z = chunks.logits(h_r, weight, bias)
        # The chunk's loss (times `scale`: 1 / the kept weight for "mean") and its gradient
        # dz over z: one compiled graph, see eager.loss_chunk.
        loss_r, lse_nt, *extra = eager_loss.loss_chunk(z, t_r, class_weight, ignore_index,
                                                       label_smoothing, z_loss, cap, scale,
                                                       temperature)
        if full:
            for acc, part in zip(parts, (lse_nt, *extra)):
                acc.append(part)
        _row_chunk_grads(z, h_r, weight, None if dh_rows is None else dh_rows[r0:r1], dw_,
                         db_, r0 == 0)
        losses.append(loss_r)
        del z
    loss = _total(losses, h.device)
    if rows == 0:
        dw.zero_()
    elif full:
        for whole, acc in zip(stats, parts):
            torch.cat(acc, out=whole)
    return loss, dh, dw, db, *stats


def _fast_by_classes(input, h, weight, bias, t, keep, zero_weight, budget, wanted,
                     class_weight, ignore_index, label_smoothing, z_loss, softcap, scale):
    """The class chunking's 4 GEMMs in the forward, per block of rows: the statistics by
    chunks of classes, the finish's coefficients from autograd (as loss_chunk's), then the
    gradient by chunks of classes (``class_chunks.block_grads``)."""
    rows, vocab, hidden, size = h.shape[0], weight.shape[0], h.shape[1], h.element_size()
    smooth = label_smoothing > 0.0
    blocks = class_blocks(hidden, vocab, size, budget)
    classes = grad_classes(min(blocks.rows, rows), hidden, vocab, size, budget, True)
    log_plan("linear_ce_fast", h, weight, lambda: classes_words(
        rows, blocks, vocab, f"the gradient in the forward by chunks of {classes}"))
    keep_t = chunks.target_in_weight(t, ignore_index, 0)
    cw = class_weight if smooth else None
    dh, dw, db, (dh_rows, dw_, db_) = _fast_grads(input, h, weight, bias, wanted)
    weight = chunks.operand(weight, h)
    # (one buffer of the budget's size for both sweeps: ``class_chunks.Scratch``)
    block = min(blocks.rows, rows)
    losses = []
    scratch = class_chunks.Scratch.for_block(h, block, vocab, stats=blocks.classes,
                                             grad=classes, input_grad=wanted[0])
    for r0 in range(0, rows, blocks.rows):
        r = slice(r0, min(rows, r0 + blocks.rows))
        stats = class_chunks.block_statistics(h[r], weight, bias, keep_t[r], cw, softcap,
                                              smooth, blocks.classes, scratch)
        with autograd_inside_op():
            leaves = [v.detach().requires_grad_() for v in stats[:2 + smooth]]
            loss, _, _ = finish(*leaves, *stats[2 + smooth:], t[r], class_weight,
                                ignore_index, label_smoothing, z_loss, vocab)
            loss = loss.sum() * scale
            a, b, *c = torch.autograd.grad(loss, leaves)
        a, b, c = a.detach(), b.detach(), (c[0].detach() if c else None)
        if zero_weight:
            a, b = a.where(keep[r], 0.0), b.where(keep[r], 0.0)
            c = None if c is None else c.where(keep[r], 0.0)
        class_chunks.block_grads(h[r], weight, bias, keep_t[r], cw, stats[0], a, b, c, softcap,
                                 classes, scratch, None if dh_rows is None else dh_rows[r],
                                 dw_, db_, r0 == 0)
        losses.append(loss.detach())
    if rows == 0:
        dw.zero_()
    return _total(losses, h.device), dh, dw, db


@linear_ce_fast.register_fake
def _(input, weight, bias, target, class_weight, ignore_index, softcap, label_smoothing, z_loss,
      mean, budget, temperature=1.0, full=False, input_grad=True, weight_grad=True,
      options=None):
    db = torch.empty_like(bias) if bias is not None and weight_grad else \
        input.new_empty(0, dtype=torch.float32 if bias is None else bias.dtype)
    stats = [input.new_empty(input.shape[:-1] if full else 0, dtype=torch.float32)
             for _ in range(4)]
    return (input.new_empty((), dtype=torch.float32),
            torch.empty(input.shape if input_grad else 0, dtype=input.dtype,
                        device=input.device),
            torch.empty(weight.shape if weight_grad else 0, dtype=weight.dtype,
                        device=weight.device), db, *stats)


def _fast_setup(ctx, inputs, output):
    ctx.has_bias = inputs[2] is not None
    ctx.wanted = (_arg(inputs, 13, True), _arg(inputs, 14, True))   # input_grad, weight_grad
    ctx.save_for_backward(*output[1:4])
    ctx.inputs = _double_backward_inputs(inputs[:3])
    ctx.mark_non_differentiable(*output[4:])   # (full_statistics differentiates them)
    # The gradient outputs get no upstream gradient; materialized, those would be zeros of
    # their size: a second h and W in memory at the start of the backward (which set the
    # eager step's peak).
    ctx.set_materialize_grads(False)


def _arg(inputs, i: int, default):
    """The op's ``i``-th argument, or its default where the call left it out."""
    return inputs[i] if len(inputs) > i else default


def _double_backward_inputs(inputs):
    """The fast op's inputs for ``no_double_backward``, which it does not save (their memory
    is the caller's to free): a leaf as it is (alive anyway: a parameter); another that needs
    a gradient, eagerly, ``ops.UNTIED`` (its gradient's node cannot be reached from the
    backward, so a backward(create_graph=True) raises at once); traced, None (AOTAutograd's
    own rules apply there)."""
    return tuple(None if x is None or not x.requires_grad else x if x.is_leaf
                 else ops.UNTIED if type(x) is Tensor else None for x in inputs)


def _fast_backward(ctx, g_loss, *unused):
    if g_loss is None:
        return (None,) * 16
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
        grads = (ops.times(dh, g_loss), ops.times(dw, g_loss), ops.times(db, g_loss))
    input_grad, weight_grad = ctx.wanted
    grads = ops.no_double_backward("inductor_ce.linear_cross_entropy", ctx.inputs,
                                   grads[0] if input_grad else None,
                                   grads[1] if weight_grad else None,
                                   grads[2] if ctx.has_bias and weight_grad else None)
    return *grads, *([None] * 13)


linear_ce_fast.register_autograd(_fast_backward, setup_context=_fast_setup)


# --- FLOPs, for torch.utils.flop_counter.FlopCounterMode (MFU tools count with it) ------------
# A GEMM of the head is 2 T D V multiply-adds' FLOPs (T rows of D, V classes): the statistics
# take one; the fast op one for the logits, the backward one to recompute them; each, one more
# per gradient it returns (dh, dW). The CE passes are not counted (as for F.cross_entropy).

def _gemm_flops(input_shape, weight_shape) -> int:
    rows = 1
    for n in input_shape[:-1]:
        rows *= n
    return 2 * rows * weight_shape[1] * weight_shape[0]


def _register_flops() -> None:
    from torch.utils.flop_counter import register_flop_formula

    @register_flop_formula([torch.ops.inductor_ce.linear_ce_fwd,
                            torch.ops.inductor_ce.linear_ce_fwd_full])
    def _one(input, weight, *args, out_shape=None, **kwargs):
        return _gemm_flops(input, weight)

    @register_flop_formula(torch.ops.inductor_ce.linear_ce_fast)
    def _three(input, weight, bias, target, class_weight, ignore_index, softcap,
               label_smoothing, z_loss, mean, budget, temperature=1.0, full=False,
               input_grad=True, weight_grad=True, *args, out_shape=None, **kwargs):
        return (1 + bool(input_grad) + bool(weight_grad)) * _gemm_flops(input, weight)

    @register_flop_formula(torch.ops.inductor_ce.linear_ce_bwd)
    def _backward_flops(input, weight, bias, target, class_weight, lse_nt, a, b, c,
                        ignore_index, softcap, vocab_start, budget, input_grad, weight_grad,
                        *args, out_shape=None, **kwargs):
        return (1 + bool(input_grad) + bool(weight_grad)) * _gemm_flops(input, weight)


_register_flops()
