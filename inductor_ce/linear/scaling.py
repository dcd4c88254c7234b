"""``x *= g`` in place, for gradients the fused linear + cross-entropy computes in its forward.

A scalar loss's fused head (``head.linear_ce_fast``) knows dL/dh and dL/dW before the backward, up
to the upstream gradient g of the loss; its backward multiplies them by g. For W that is a read and
a write of a V x D tensor (about 1% of the head's three GEMMs' time at LM-head shapes: the
GPU's bandwidth against its FLOP rate), spent on g == 1 in the common step
``loss.backward()``. The kernel below reads g on the device and skips the tensor when it is 1
(docs/linear.md#which-call-runs-what): no host sync, and ``x * 1`` is ``x`` exactly, so the result
is the same either way.

One op, ``inductor_ce::scale_`` (mutates ``x``), for the eager backward, which owns the
saved buffers. A traced backward multiplies out of place instead: there the saved tensors
are graph inputs, and functionalization would turn the in-place op into a copy first (read
and write of x, whatever g) that Inductor does not re-inplace. Off CUDA, or for strided
tensors, Inductor's ``x * g`` (``eager/kernels.py``'s ``scale_``).
"""
from __future__ import annotations

import contextlib
import functools

import torch
from torch import Tensor

from ..eager import kernels as eager
from ..op.ce import LIB

BLOCK = 4096


@functools.lru_cache(maxsize=None)
def _kernel():
    import triton
    import triton.language as tl

    @triton.jit
    def scale_unless_one(x_ptr, g_ptr, n, BLOCK: tl.constexpr):
        g = tl.load(g_ptr)
        # Every program reads g (one cached 4-byte load) and returns at once when it is 1:
        # the launch costs microseconds, the tensor is not touched.
        if g != 1.0:
            offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
            mask = offsets < n
            x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
            # (A zero stays zero whatever g: op/ce.py's times.)
            x = tl.where(x == 0.0, x, x * g)
            tl.store(x_ptr + offsets, x.to(x_ptr.dtype.element_ty), mask=mask)

    return triton, scale_unless_one


def launch(x: Tensor, g: Tensor) -> None:
    """The Triton kernel on a contiguous ``x`` and a 0-dim float32 ``g`` (any device Triton
    runs on: CUDA, or its interpreter on the CPU)."""
    triton, kernel = _kernel()
    n = x.numel()
    # (Triton launches on the current device's stream: make it x's.)
    on = torch.cuda.device(x.device) if x.device.type == "cuda" else contextlib.nullcontext()
    if n:
        with on:
            kernel[(triton.cdiv(n, BLOCK),)](x, g, n, BLOCK=BLOCK, num_warps=4)


@torch.library.custom_op(f"{LIB}::scale_", mutates_args=("x",))
def scale_(x: Tensor, g: Tensor) -> None:
    """``x *= g`` (``g`` 0-dim float32) as ``op/ce.py``'s ``times``, in float32 and rounded
    once to x's dtype; on CUDA, left as it is where g == 1."""
    if (x.device.type == "cuda" and g.device == x.device and g.dim() == 0
            and g.dtype == torch.float32 and x.is_contiguous()):
        launch(x, g)
    else:
        eager.scale_(x, g)


@scale_.register_fake
def _(x, g):
    return None
