"""Probability ("soft") targets: ``cross_entropy(input, target)`` with a floating ``target`` of
``input``'s shape holding class probabilities, as ``F.cross_entropy`` takes them.

Float32 math in two custom ops and an ``autograd.Function`` around them:
``soft_stats`` (the forward's per-row statistics) and ``soft_grad`` (the logits' gradient).
Under torch.compile Dynamo traces ``SoftCrossEntropy`` and Inductor lowers the two ops
(``lowering_soft.py``: the forward one persistent kernel reading the logits and the targets
once, chunked like ``ce_fwd``; the backward one pointwise kernel tiled by rows and columns);
eagerly ``eager/soft.py`` compiles ``forward`` / ``backward`` (the same lowerings, rows
symbolic), or, below its size threshold, the ops run their ATen below, chunked over rows.
Under torch.func or forward-mode AD autograd differentiates the ATen forward itself (it is
written so that its derivative is the backward below). The target's gradient, which
distillation may want, is an ATen pass of its own (Inductor fuses it with ``soft_grad``'s).

Why an ``autograd.Function`` and not autograd of the forward: autograd would differentiate
the argmax's broadcast with a reduction over the row in the backward (a second read of the
targets); the backward below reads each input once, the row sums it needs come from the
forward. Why ops with lowerings and not these functions as Inductor compiles them: Inductor
made the forward an argmax loop and a loop of sums, each reading the logits and the targets
(several times the floor of the step, where the lowerings run near it;
docs/performance.md).

Notation (one row; the class dimension is the last one):

    x_j      logits, any float dtype, upcast to float32 as loaded
    z_j      s(x_j) = cap * tanh(x_j / cap), or x_j without a softcap
    p_j      target probabilities (float32 or the logits' dtype), smoothed with eps:
             p_j <- (1 - eps) p_j + eps / V       (F.cross_entropy's label smoothing)
    w_j      class weight (1 without one);  c_j = w_j p_j
    a        the argmax of z (its first index);  M = z_a = max_j z_j
    S'       sum_{j != a} exp(z_j - M)            (ties with the max count exp(0) = 1, once
                                                   each, a itself excluded)

Value, per row:

    lse        = M + log1p(S');          lse - z_j = (M - z_j) + log1p(S')
    loss       = -sum_j c_j log q_j      = sum_j c_j (M - z_j) + P log1p(S'),  P = sum_j c_j
    loss      += zl * lse^2              z-loss (zl = z_loss), unweighted
    reduction  "none": per row; "sum"; "mean": divided by the number of ROWS, as
               F.cross_entropy for probability targets (not by the weights)

Nothing here subtracts two numbers near lse: a one-hot target on a dominant class gives
log1p(S'), exact where ``lse - z_a`` in float32 is 0 (from a margin of ~16.6). Terms with
c_j = 0 are 0 (a masked class, z_j = -inf, of probability 0: F.cross_entropy's 0 * inf is
nan there).

Gradient (q = softmax(z), upstream g of the row's loss, g_lse of its lse):

    dL/dz_j = (g P + k) q_j - g c_j,   k = 2 zl lse g + g_lse,   q_j = exp(z_j - M) / (1 + S')
    j = a:    g (R - P S' / (1 + S')) + k / (1 + S'),            R = sum_{j != a} c_j
              (where S' <= 1; where S' > 1, q_a < 1/2, the first form, P q_a - c_a)

R is a forward statistic of its own, so the dominant class's gradient (P q_a - c_a, which is
R - P S'/(1+S') exactly) never rounds to 0 either. (Where a does not dominate, S' > 1,
R - P S'/(1+S') would cancel instead: P S'/(1+S') is then near P.) Under a softcap
dL/dx = dL/dz (1 - tanh(x / cap)^2), from the tanh z took. The target gets a
gradient too, as in F.cross_entropy (distillation may want it):

    dL/dp_j = g (1 - eps) w_j ((M - z_j) + log1p(S'))

All of it in float32; gradients rounded once, to the logits' and the target's dtypes.
"""
from __future__ import annotations

import math
from typing import NamedTuple, Optional

import torch
from torch import Tensor

from .._inductor import runtime
from .ce import LIB, _on_trace, no_double_backward, traced_scalar
from .checks import check_logits, check_weight
from .decomposition import _capped_tanh, _chunks, _tempered


class SoftSpec(NamedTuple):
    """The options that are constants of the code (``label_smoothing``'s, ``z_loss``'s and
    ``softcap``'s values are inputs: only whether each term is computed is here)."""
    reduction: str
    smooth: bool                 # the label-smoothing term is computed
    zloss: bool                  # the z-loss term is computed
    capped: bool                 # the logits are softcapped


def check_probabilities(input, target, weight, ignore_index) -> None:
    """A target of class probabilities (a floating ``target``): errors name the argument,
    where F.cross_entropy raises too (an ignore_index >= 0, a shape other than input's)."""
    check_logits(input)
    if str(target.dtype) not in ("torch.float32", str(input.dtype)):
        raise TypeError(f"target of class probabilities must be float32 or input's dtype "
                        f"({input.dtype}), got {target.dtype}")
    if target.shape == input.shape[:-1] and target.shape != input.shape:
        raise TypeError(f"target must be int64 or int32 class indices, got {target.dtype} "
                        f"(or class probabilities of input's shape {tuple(input.shape)})")
    if target.shape != input.shape:
        raise ValueError(f"target of class probabilities (a floating-point target) must have "
                         f"input's shape {tuple(input.shape)}, got {tuple(target.shape)}; "
                         f"class indices must be int64 or int32")
    if target.device != input.device:
        raise ValueError(f"input and target are on different devices: {input.device} and "
                         f"{target.device}")
    if ignore_index >= 0:
        raise ValueError(f"ignore_index is not supported for probability targets (as in "
                         f"F.cross_entropy): it must be negative, got {ignore_index}")
    check_weight(weight, input.shape[-1], input.device)


# --- the math ------------------------------------------------------------------------------------

def _mass(p: Tensor, w: Optional[Tensor], eps, smooth: bool) -> Tensor:
    """c_j = w_j p_j of the smoothed target, float32. ``eps`` a number or a 0-d tensor."""
    c = p.float()
    if smooth:
        c = c * (1.0 - eps) + eps / p.shape[-1]
    return c if w is None else c * w.float()


def _is_argmax(z: Tensor, a: Tensor) -> Tensor:
    return torch.arange(z.shape[-1], device=z.device) == a.unsqueeze(-1)


def _stats_rows(x, p, w, eps, smooth: bool, softcap):
    """Per row (M, S', P, R, D, a): D = sum_j c_j (M - z_j). Differentiable (torch.func): M
    is z gathered at a, so that its derivative reaches z_a, and it yields the backward's."""
    z = _tempered(x, softcap, 1.0)
    c = _mass(p, w, eps, smooth)
    a = z.detach().argmax(-1)
    at_a = _is_argmax(z, a)
    m = z.gather(-1, a.unsqueeze(-1))
    # An infinite or nan max makes S' nan (0 * inf), and with it the row's loss and gradient,
    # as F.cross_entropy's (inf - inf) does.
    s = torch.where(at_a, 0.0, torch.exp(z - m)).sum(-1) + 0.0 * m.detach().squeeze(-1)
    rest = torch.where(at_a, 0.0, c).sum(-1)
    # P from R: under torch.compile R is then a statistic of the forward, which AOTAutograd
    # saves; computed for the backward only, it would be recomputed there (a second read of p).
    total = rest + c.gather(-1, a.unsqueeze(-1)).squeeze(-1)
    # (0 * inf where a class of no mass has a -inf logit: 0, as the value; elsewhere a class
    # of no mass keeps its derivative in c, m - z, for torch.func's derivatives in p.)
    d = torch.where(at_a | ((c == 0.0) & torch.isneginf(z)), 0.0, c * (m - z)).sum(-1)
    return m.squeeze(-1), s, total, rest, d, a


def _finish(m, s, total, d, zl, spec: SoftSpec):
    """Per-row (loss, lse) from the statistics."""
    tail = torch.log1p(s)
    lse = m + tail
    loss = d + total * tail
    if spec.zloss:
        loss = loss + zl * lse.square()
    return loss, lse


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    """F.cross_entropy's for probability targets: "mean" over rows (0 rows: nan)."""
    if reduction == "none":
        return loss
    return loss.sum() if reduction == "sum" else loss.mean()


def _grad_rows(x, p, w, eps, cap, m, s, total, rest, a, g, k, spec: SoftSpec, want_x: bool,
               want_p: bool):
    """(dL/dx, dL/dp) of rows: one pointwise pass; g, k per row (see the module doc)."""
    t = _capped_tanh(x, cap, 1.0) if spec.capped else None
    z = x.float() if t is None else cap * t
    c = _mass(p, w, eps, spec.smooth)
    m, s, total, rest, g, k = (v.unsqueeze(-1) for v in (m, s, total, rest, g, k))
    inv = 1.0 / (1.0 + s)
    dx = dp = None
    if want_x:
        # At a: P q_a - c_a, as R - P S'/(1+S') where q_a >= 1/2 (S' <= 1: there P q_a and
        # c_a may both be near P, and their difference rounds away), else as written (there
        # P S'/(1+S') is near P, and R - it would round away).
        at_a = torch.where(s <= 1.0, rest - total * s * inv, total * inv - c)
        dz = torch.where(_is_argmax(z, a), g * at_a + k * inv,
                         (g * total + k) * inv * torch.exp(z - m) - g * c)
        if t is not None:
            dz = dz * (1.0 - t * t)
        dx = dz.to(x.dtype)
    if want_p:
        dq = g * ((m - z) + torch.log1p(s))
        if spec.smooth:
            dq = dq * (1.0 - eps)
        dp = (dq if w is None else dq * w.float()).to(p.dtype)
    return dx, dp


# --- chunked over rows (eagerly: bounded float32 temporaries) -------------------------------

def _rows(x: Tensor):
    """The row chunks of x: one under torch.compile or with symbolic sizes (Inductor keeps no
    temporaries of the row's size), else as the index targets' decomposition chunks them."""
    if x.dim() <= 1 or torch.compiler.is_compiling():
        return None
    return _chunks(x.shape[0], math.prod(x.shape[1:]))


def _aten_statistics(x, p, w, eps, smooth: bool, softcap):
    """``_stats_rows`` over chunks of rows (eagerly: bounded float32 temporaries)."""
    chunks = _rows(x)
    if chunks is None or len(chunks) == 1:
        return _stats_rows(x, p, w, eps, smooth, softcap)
    parts = [_stats_rows(x[i:j], p[i:j], w, eps, smooth, softcap) for i, j in chunks]
    return tuple(torch.cat(v) for v in zip(*parts))


@torch.library.custom_op(f"{LIB}::soft_stats", mutates_args=())
def soft_stats(x: Tensor, p: Tensor, weight: Optional[Tensor], smoothing: Optional[Tensor],
               softcap: Optional[Tensor]
               ) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
    """Per-row (M, S', P, R, D, a) of logits ``x`` (..., V) and probabilities ``p``;
    ``smoothing`` and ``softcap`` 0-d float32 tensors, or None for none. An op so that
    Inductor lowers it (``lowering_soft.py``: one read of x and p); called eagerly, its ATen
    above."""
    return _aten_statistics(x, p, weight, smoothing, smoothing is not None, softcap)


@soft_stats.register_fake
def _(x, p, weight, smoothing, softcap):
    _on_trace()
    rows = x.shape[:-1]
    return (*(x.new_empty(rows, dtype=torch.float32) for _ in range(5)),
            x.new_empty(rows, dtype=torch.int64))


def statistics(x, p, w, eps, cap, spec: SoftSpec, fused: bool = True):
    """Per-row (M, S', P, R, D, a) of the logits ``x`` (..., V) and probabilities ``p``:
    through ``soft_stats`` (``fused``), or as differentiable ATen (torch.func)."""
    if not fused:
        return _aten_statistics(x, p, w, eps, spec.smooth, cap if spec.capped else None)
    return soft_stats(x, p, w, _smoothing(eps, spec, x), _softcap(cap, spec, x))


def forward(x, p, w, eps, zl, cap, spec: SoftSpec, fused: bool = True):
    """(reduced loss, lse, M, S', P, R, a): the loss and the backward's statistics."""
    m, s, total, rest, d, a = statistics(x, p, w, eps, cap, spec, fused)
    loss, lse = _finish(m, s, total, d, zl, spec)
    return _reduce(loss, spec.reduction), lse, m, s, total, rest, a


def _aten_grads(x, p, w, eps, cap, m, s, total, rest, a, g, k, spec: SoftSpec, want_x: bool,
                want_p: bool):
    """``_grad_rows`` over chunks of rows (eagerly: bounded float32 temporaries)."""
    chunks = _rows(x)
    if chunks is None or len(chunks) == 1:
        return _grad_rows(x, p, w, eps, cap, m, s, total, rest, a, g, k, spec, want_x, want_p)
    parts = [_grad_rows(x[i:j], p[i:j], w, eps, cap, m[i:j], s[i:j], total[i:j], rest[i:j],
                        a[i:j], g[i:j], k[i:j], spec, want_x, want_p) for i, j in chunks]
    return tuple(None if v[0] is None else torch.cat(v) for v in zip(*parts))


@torch.library.custom_op(f"{LIB}::soft_grad", mutates_args=())
def soft_grad(x: Tensor, p: Tensor, weight: Optional[Tensor], smoothing: Optional[Tensor],
              m: Tensor, s: Tensor, total: Tensor, rest: Tensor, a: Tensor, g: Tensor,
              k: Tensor, softcap: Optional[Tensor]) -> Tensor:
    """dL/dx of probability targets (``_grad_rows``), g and k per row. An op so that Inductor
    lowers it (``lowering_soft.py``: tiled by rows and columns); called eagerly, its ATen."""
    spec = SoftSpec("none", smoothing is not None, False, softcap is not None)
    return _aten_grads(x, p, weight, smoothing, softcap, m, s, total, rest, a, g, k, spec,
                       True, False)[0]


@soft_grad.register_fake
def _(x, p, weight, smoothing, m, s, total, rest, a, g, k, softcap):
    _on_trace()
    return torch.empty(x.shape, dtype=x.dtype, device=x.device)


def _smoothing(eps, spec: SoftSpec, x: Tensor) -> Optional[Tensor]:
    """The ops' ``smoothing``: eps as a 0-d float32 tensor, None without smoothing."""
    return _as_tensor(eps, x) if spec.smooth else None


def _softcap(cap, spec: SoftSpec, x: Tensor) -> Optional[Tensor]:
    """The ops' ``softcap``: cap as a 0-d float32 tensor, None without a softcap."""
    return _as_tensor(cap, x) if spec.capped else None


def _as_tensor(value, x: Tensor) -> Tensor:
    return value if isinstance(value, Tensor) else traced_scalar(value, x.device)


def backward(x, p, w, eps, zl, cap, m, s, total, rest, a, lse, g, g_lse, spec: SoftSpec,
             want_x: bool = True, want_p: bool = False):
    """(dL/dx, dL/dp) for the upstream gradients ``g`` of the reduced loss (a scalar, or per
    row for "none") and ``g_lse`` (per row, or None); each None where not wanted."""
    rows = m.shape
    if spec.reduction == "mean":
        g = g / m.numel()
    g = g.float().expand(rows)
    k = 2.0 * zl * lse * g if spec.zloss else torch.zeros_like(g)
    if g_lse is not None:
        k = k + g_lse.float()
    dx = dp = None
    if want_x:
        dx = soft_grad(x, p, w, _smoothing(eps, spec, x), m, s, total, rest, a, g, k,
                       _softcap(cap, spec, x))
    if want_p:   # (rare: a teacher's gradient) one ATen pointwise pass of its own
        dp = _aten_grads(x, p, w, eps, cap, m, s, total, rest, a, g, k, spec, False, True)[1]
    return dx, dp


# --- autograd ------------------------------------------------------------------------------------

class SoftCrossEntropy(torch.autograd.Function):
    """(reduced loss, lse) of probability targets with the backward above. ``eps``, ``zl``,
    ``cap``: the label smoothing, z-loss and softcap, numbers or 0-d float32 tensors (graph
    inputs under torch.compile). Traced by Dynamo as it is; eagerly its ATen runs (``eager/soft.py``
    has the compiled counterpart)."""

    @staticmethod
    def forward(x, p, w, eps, zl, cap, spec):
        return forward(x, p, w, eps, zl, cap, spec)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, p, w, eps, zl, cap, spec = inputs
        _, lse, m, s, total, rest, a = output
        ctx.save_for_backward(x, p, w, m, s, total, rest, a, lse,
                              *(v for v in (eps, zl, cap) if isinstance(v, Tensor)))
        ctx.spec, ctx.eps, ctx.zl, ctx.cap = spec, eps, zl, cap
        ctx.mark_non_differentiable(m, s, total, rest, a)
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, g, g_lse, *_):
        x, p, w, m, s, total, rest, a, lse, *opts = ctx.saved_tensors
        eps, zl, cap = ctx.eps, ctx.zl, ctx.cap
        if opts:   # the tensor options, in order
            opts = iter(opts)
            eps = next(opts) if isinstance(eps, Tensor) else eps
            zl = next(opts) if isinstance(zl, Tensor) else zl
            cap = next(opts) if isinstance(cap, Tensor) else cap
        if g is None:
            g = torch.zeros((), device=x.device) if ctx.spec.reduction != "none" else \
                torch.zeros_like(m)
        with torch.no_grad():
            grads = backward(x, p, w, eps, zl, cap, m, s, total, rest, a, lse, g, g_lse,
                             ctx.spec, ctx.needs_input_grad[0], ctx.needs_input_grad[1])
        return (*no_double_backward("inductor_ce.cross_entropy", (x, p), *grads), None, None,
                None, None, None)


def cross_entropy(x, p, w, eps, zl, cap, spec: SoftSpec):
    """(reduced loss, lse) through ``SoftCrossEntropy``; under torch.func transforms or
    forward-mode AD (which an autograd.Function without vmap and jvp rules refuses) the
    forward itself, which autograd differentiates in every mode."""
    if runtime.functorch_transforms_active() or runtime.forward_ad_active():
        return forward(x, p, w, eps, zl, cap, spec, fused=False)[:2]
    return SoftCrossEntropy.apply(x, p, w, eps, zl, cap, spec)[:2]
