"""``cross_entropy`` with probability targets: checks, then ``op/soft.py``'s functions, which
eager calls run compiled.

Eagerly (outside torch.compile, where ``kernels.compiled_path_applies``: CPU calls of at
least ``kernels.MIN_ELEMENTS`` logits, any CUDA call) the forward and the backward are each
one graph of ``op/soft.py``'s ``forward`` / ``backward``, compiled by Inductor with the rows
symbolic (``compile_rows_dynamic``: no Dynamo, one compile for every row count) and kept in
``kernels._CACHE`` (bounded, salted) under ``SoftKey``: the same code torch.compile makes of
them (``lowering_soft.py``'s kernels), instead of ~30 ATen kernels and float32 temporaries of
the logits' size per call.
``label_smoothing``, ``z_loss`` and ``softcap`` are values of an options tensor, not
constants: a new value compiles nothing. Elsewhere the ATen functions run as they are
(chunked over rows).
Not done for these calls: the index targets' few-rows variant, CUDA graphs and kept calls
(``loss.py``).
"""
from __future__ import annotations

from typing import NamedTuple, Optional

import torch
from torch.compiler import is_compiling as _is_compiling

from .._inductor import runtime
from ..op import soft
from ..op.ce import no_double_backward
from ..op.checks import check_options
from .kernels import Layout, compiled_function, compiled_rows, dtype_of, run_compiled, salt
from .loss import device_options


def cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing, z_loss,
                  softcap, return_lse):
    """``functional.cross_entropy`` for a floating ``target`` (class probabilities)."""
    ignore_index, reduction, label_smoothing, z_loss, softcap = check_options(
        ignore_index, reduction, label_smoothing, z_loss, softcap, return_lse)
    soft.check_probabilities(input, target, weight, ignore_index)
    # A tensor option is computed whatever its value (no guard, no recompile per value).
    smooth = not isinstance(label_smoothing, (int, float)) or label_smoothing > 0.0
    zloss = not isinstance(z_loss, (int, float)) or z_loss != 0.0
    spec = soft.SoftSpec(reduction, smooth, zloss, softcap is not None)
    out = None if _is_compiling() else _compiled(input, target, weight, label_smoothing,
                                                  z_loss, softcap, spec)
    if out is None:
        out = soft.cross_entropy(input, target, weight, label_smoothing, z_loss, softcap, spec)
    loss, lse = out
    rows = input.shape[:-1]
    if reduction == "none":
        loss = loss.view(rows)
    return (loss, lse.view(rows)) if return_lse else loss


class SoftKey(NamedTuple):
    """What decides the code of a compiled forward (a key of ``kernels._CACHE``)."""
    device: torch.device
    dtype: torch.dtype
    vocab: int                # V: static in the compiled code
    layout: Layout
    target_dtype: torch.dtype
    weight_dtype: Optional[torch.dtype]
    spec: soft.SoftSpec
    training: bool            # also the backward's per-row statistics


class SoftBackwardKey(NamedTuple):
    forward: SoftKey
    grad_dtype: torch.dtype
    with_lse: bool            # an upstream gradient of lse too
    want_x: bool
    want_p: bool


def _compiled(input, target, weight, label_smoothing, z_loss, softcap, spec):
    """(loss, lse) through the compiled forward (and backward), or None where it does not
    apply."""
    merged = compiled_rows(input, target, weight)
    if merged is None:
        return None
    xm, layout = merged
    p = target.reshape(xm.shape).contiguous()
    training = torch.is_grad_enabled() and (input.requires_grad or target.requires_grad)
    key = SoftKey(input.device, input.dtype, input.shape[-1], layout, target.dtype,
                  dtype_of(weight), spec, training)
    opts = None
    if spec.smooth or spec.zloss or spec.capped:
        opts = device_options(input.device, float(label_smoothing), float(z_loss),
                              None if softcap is None else float(softcap))
    forward = _forward_fn(spec, training)
    entry = compiled_function(key, lambda: _compile(forward, xm, [p], [weight, opts]), xm)
    if entry is None:
        return None
    if not training:
        return run_compiled(entry, xm, p, weight, opts)
    return _Compiled.apply(xm, p, weight, opts, entry, key)


def _compile(fn, x, rowwise, static):
    from .._inductor.standalone import compile_rows_dynamic
    return compile_rows_dynamic(fn, x, rowwise, static, salt("eager-soft"))


def _values(spec, opts):
    """(eps, zl, cap) from the options tensor."""
    return ((opts[0] if spec.smooth else 0.0), (opts[1] if spec.zloss else 0.0),
            (opts[2] if spec.capped else None))


def _forward_fn(spec, training):
    def fn(x, p, w, opts):
        out = soft.forward(x, p, w, *_values(spec, opts), spec)
        return out if training else out[:2]
    return fn


def _backward_fn(spec, with_lse, want_x, want_p):
    """fn(x, p, lse, M, S', P, R, a[, g per row][, g_lse], w, opts[, g scalar])."""
    per_row = spec.reduction == "none"

    def fn(x, p, lse, m, s, total, rest, a, *more):
        more = list(more)
        g = more.pop(0) if per_row else None
        g_lse = more.pop(0) if with_lse else None
        w, opts = more[0], more[1]
        if not per_row:
            g = more[2]
        out = soft.backward(x, p, w, *_values(spec, opts), m, s, total, rest, a, lse, g, g_lse,
                            spec, want_x, want_p)
        return tuple(o for o in out if o is not None)
    return fn


class _Compiled(torch.autograd.Function):
    """The compiled forward and backward as one autograd node (x: the merged logits)."""

    @staticmethod
    def forward(ctx, x, p, w, opts, entry, key):
        loss, lse, *stats = run_compiled(entry, x, p, w, opts)
        ctx.save_for_backward(x, p, w, opts, lse, *stats)
        ctx.key = key
        ctx.mark_non_differentiable(*stats)
        ctx.set_materialize_grads(False)
        return loss, lse

    @staticmethod
    def backward(ctx, g, g_lse):
        x, p, w, opts, lse, *stats = ctx.saved_tensors
        want_x, want_p = ctx.needs_input_grad[:2]
        spec = ctx.key.spec
        if g is None:
            g = torch.zeros(() if spec.reduction != "none" else lse.shape, device=x.device)
        rowwise = [p, lse, *stats]
        if spec.reduction == "none":
            rowwise.append(g.reshape(lse.shape).contiguous())
        if g_lse is not None:
            rowwise.append(g_lse.reshape(lse.shape).contiguous())
        static = [w, opts] + ([] if spec.reduction == "none" else [g])
        key = SoftBackwardKey(ctx.key, g.dtype, g_lse is not None, want_x, want_p)
        fn = _backward_fn(spec, g_lse is not None, want_x, want_p)
        # (Traced, or batched upstream gradients, see loss._Plan.backward: fn through the
        # ops, which returns its gradients.)
        traced = torch.compiler.is_compiling() or runtime.under_vmap(g, g_lse)
        entry = None if traced else compiled_function(
            key, lambda: _compile(fn, x, rowwise, static), x)
        with torch.no_grad():
            grads = iter(fn(x, *rowwise, *static) if entry is None else
                         run_compiled(entry, x, *rowwise, *static))
            dx = next(grads) if want_x else None
            dp = next(grads) if want_p else None
        return (*no_double_backward("inductor_ce.cross_entropy", (x, p), dx, dp), None, None,
                None, None)
