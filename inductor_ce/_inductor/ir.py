"""Inductor's lowering API: IR nodes, loaders, sizes, asserts, registration.

Every private name is resolved here, once, at import; if one is missing, ``AVAILABLE`` is
False, ``MISSING`` says what, and the ops keep their ATen decomposition under torch.compile
(``lowering.register()`` warns once).
"""
from __future__ import annotations

import warnings

import sympy
import torch

MISSING: list[str] = []

try:
    from torch._inductor import ir
    from torch._inductor.virtualized import V, ops  # noqa: F401  (ops: used by lowering.py)
    from torch._inductor.lowering import register_lowering
    from torch._inductor.utils import expr_fits_within_32bit, sympy_dot, sympy_product

    for _name in ("Pointwise", "Reduction", "TensorBox", "ReductionHint", "is_triton"):
        if not hasattr(ir, _name):
            MISSING.append(f"torch._inductor.ir.{_name}")
except Exception as e:  # pragma: no cover - depends on the torch build
    MISSING.append(f"torch._inductor lowering API ({type(e).__name__}: {e})")

AVAILABLE = not MISSING


F32 = torch.float32


def size(box) -> list:
    """Sizes of a lowering argument (sympy expressions; Symbols under dynamic shapes)."""
    return list(box.get_size())


def numel(sizes):
    """Product of sizes (a sympy expression; an int once static_int resolves it)."""
    return sympy_product(sizes)


def indexed_in_int64(box) -> bool:
    """Whether Inductor's kernels over ``box`` will index in int64: more than 2^31 - 1
    elements (by the size hints; the int32 case guards on them as Inductor does)."""
    return not expr_fits_within_32bit(numel(size(box)))


def fits_in_int32(expr) -> bool:
    """Whether Inductor would index a kernel over ``expr`` elements in int32 (as
    indexed_in_int64, for an iteration range rather than a buffer)."""
    return bool(expr_fits_within_32bit(expr))


def realized_loader(box):
    """Loader of ``box`` computed once into its own buffer: per-row values that feed a
    per-element kernel are not recomputed for every element."""
    box.realize()
    return box.make_loader()


def loader(box):
    """index list -> value; unrealized pointwise producers (casts, scales, tanh) inline here,
    which is how prologue fusion happens."""
    return box.make_loader()


def is_buffer(box) -> bool:
    """Whether ``box``'s loader is a load of a buffer (a graph input or a realized result,
    through views), with no computed producer inlined: its values are the buffer's own, in
    its dtype. False for a shape of IR not foreseen."""
    try:
        data = box
        while isinstance(data, (ir.TensorBox, ir.StorageBox, ir.BaseView)):
            data = data.data
        return isinstance(data, ir.Buffer)
    except Exception:
        return False


def static_int(expr):
    """The int value of a size, or None when it is symbolic."""
    try:
        return int(expr)
    except TypeError:
        return None


def specialize_int(expr):
    """The int value of a size, guarding on it when it is symbolic: the compiled code is then
    reused only while the size keeps that value (a different one recompiles)."""
    value = static_int(expr)
    if value is None:
        sizevars = V.graph.sizevars
        guard = getattr(sizevars, "guard_int", None) or sizevars.evaluate_static_shape
        value = int(guard(expr))
    return value


def device_of(box) -> torch.device:
    return box.get_device()


def is_triton(device: torch.device) -> bool:
    return ir.is_triton(device)


def reduction(device, inner_fn, ranges, reduction_ranges, reduction_type: str, dtype=F32):
    """A realized reduction (float32 unless told) over ``reduction_ranges`` for every index
    of ``ranges``.

    Constructed directly rather than through ``Reduction.create``: create() may split a
    reduction into layers or unroll it, and a split would re-read the logits. Over one
    element or none (one row, V = 1, zero rows) it is a realized pointwise node instead, as
    create() makes it: the code generators fail on a Reduction node of that size (C++:
    IndexError in its loop nest, Triton: an assertion in the scheduler's fusion check)."""
    size = V.graph.sizevars.simplify(sympy_product(reduction_ranges))
    if size == 0 or size == 1:
        zeros = [sympy.S.Zero] * len(reduction_ranges)
        if size == 0:  # the reduction's identity (max: -inf, sum: 0, any: False)
            identity = {"max": float("-inf"), "min": float("inf"), "sum": 0,
                        "any": False}[reduction_type]
            fn = lambda index: ops.constant(identity, dtype)  # noqa: E731
        else:
            fn = lambda index: inner_fn(index, zeros)  # noqa: E731
        box = pointwise(device, dtype, fn, ranges)
        box.realize()
        return box
    node = ir.Reduction(device=device, dtype=dtype, inner_fn=inner_fn, ranges=list(ranges),
                        reduction_ranges=list(reduction_ranges),
                        reduction_type=reduction_type, src_dtype=dtype,
                        reduction_hint=ir.ReductionHint.INNER)
    box = ir.TensorBox.create(node)
    box.realize()
    return box


def pointwise(device, dtype, inner_fn, ranges):
    return ir.Pointwise.create(device=device, dtype=dtype, inner_fn=inner_fn,
                               ranges=list(ranges))


def _one_pass_class():
    class OnePass(ir.Pointwise):
        """A gradient over the logits: one pass, whatever its op count. Inductor realizes a
        pointwise node of more than ``realize_opcount_threshold`` ops (30 on the GPU; its
        CPU threshold, 50 from torch 2.13) before a consumer such as ``slice_backward``
        (the gradient of ``logits[:, :-1]``): a second pass over the logits
        (benchmarks/NOTES.md: the backward of shifted logits in one pass). Beyond 100 ops
        (Inductor's own recursion guard) it is realized as before."""

        def has_large_inner_fn(self, threshold=None) -> bool:
            return self.inner_fn_opcount().num_ops > max(threshold or 0, 100)

    return OnePass


_OnePass = _one_pass_class() if AVAILABLE else None


def gradient(device, dtype, inner_fn, ranges):
    """``pointwise`` for a gradient over the logits, fused into its consumer (_OnePass)."""
    return _OnePass.create(device=device, dtype=dtype, inner_fn=inner_fn, ranges=list(ranges))


def device_assert(device, cond_fn, ranges, msg: str) -> None:
    """Assert ``cond_fn(index)`` on the device for every index of ``ranges`` (Triton's
    ``tl.device_assert``, C++'s throw), as Inductor's own ``_assert_async`` lowering does: a
    node whose only effect is the assertion, which the scheduler keeps (it has a side effect)
    and fuses like any pointwise node over ``ranges``.

    Inductor emits the assert unmasked, and the lanes of a Triton program past the end of
    ``ranges`` load nothing (their values are undefined): the condition holds by definition
    there, as in Inductor's own bounds checks (``cond | ~mask``)."""
    strides = ir.FlexibleLayout.contiguous_strides(ranges)

    def inner_fn(index):
        flat = ops.index_expr(sympy_dot(index, strides), torch.int64)
        outside = ops.ge(flat, ops.index_expr(numel(ranges), torch.int64))
        return ops.device_assert_async(ops.logical_or(outside, cond_fn(index)), msg)

    pointwise(device, torch.bool, inner_fn, ranges).realize()


def host_assert(device, cond_fn, msg: str) -> None:
    """Assert the scalar ``cond_fn([])`` where the host runs the graph: a call of
    ``aten._assert_async`` on a one-element bool buffer, outside every generated kernel (a
    RuntimeError on the CPU). For the C++ backend: its ``device_assert_async`` is a C++
    ``throw``, and the scheduler fuses it into whatever kernel it likes, also into an OpenMP
    parallel region, where a throw ends the process (``terminate called after throwing``)."""
    from torch._inductor.lowering import fallback_handler
    cond = pointwise(device, torch.bool, cond_fn, [])
    cond.realize()
    fallback_handler(torch.ops.aten._assert_async.msg, add_to_fallback_set=False)(cond, msg)


def register(op, fn) -> None:
    register_lowering(op, type_promotion_kind=None)(fn)


def warn_fallback() -> None:
    warnings.warn(
        "inductor_ce: this torch version lacks the Inductor API our lowering needs "
        f"({', '.join(MISSING)}); under torch.compile the ops run their ATen decomposition "
        "(correct, but not fused into one read of the logits).", RuntimeWarning, stacklevel=3)



def fused_producers(box) -> list[str]:
    """Names of the FX nodes computing an unrealized lowering argument: the pointwise
    producers that our loads inline (e.g. ``convert_element_type``, ``div``); [] when the
    argument is a buffer (a graph input or a realized result)."""
    try:
        data = box
        while isinstance(data, (ir.TensorBox, ir.StorageBox, ir.BaseView)):
            data = data.data  # a realized StorageBox holds a Buffer: the walk stops there
        if not isinstance(data, ir.Pointwise):
            return []
        return sorted({str(n.name) for n in data.origins})
    except Exception:  # a shape of IR we did not foresee: report nothing rather than fail
        return []
