"""What both chunkings of the fused head use (``head.py``'s row chunks, ``class_chunks.py``):
the chunks' GEMMs (cuBLAS, the bias in the epilogue), the gradient buffers and
the targets' columns in a weight."""
from __future__ import annotations

from typing import Optional

import torch
from torch import Tensor


def flat(x: Tensor) -> Tensor:
    return x.reshape(-1, x.shape[-1])


def grad_outputs(input: Tensor, weight: Tensor, bias: Optional[Tensor],
                 input_grad: bool = True, weight_grad: bool = True):
    """(dh, dW, db) to be written: the input's and the weight's shapes and dtypes, db float32
    and zeros (chunks add into it; empty without a bias); empty where not wanted."""
    empty = input.new_empty(0)
    dh = torch.empty(input.shape, dtype=input.dtype, device=input.device) if input_grad \
        else empty
    dw = torch.empty_like(weight, memory_format=torch.contiguous_format) if weight_grad \
        else empty
    db = torch.zeros(weight.shape[0] if bias is not None and weight_grad else 0,
                     dtype=torch.float32, device=input.device)
    return dh, dw, db


def autocast_operands(input: Tensor, weight: Tensor, bias: Optional[Tensor]):
    """The linear's operands as F.linear would take them under autocast: cast to the autocast
    dtype (a custom op is not autocast by itself: its operands arrive as they are), but
    a float32 weight, which the ops cast for their GEMMs themselves (``operand``) so that
    its gradient sums the chunks in float32: cast here, it would be summed in the autocast
    dtype, rounded once per chunk. Returns (input, weight, bias, whether the weight is left
    wider than the input)."""
    dtype = _autocast_dtype(input)
    if dtype is None:
        return input, weight, bias, False
    # (float64 stays float64, as autocast leaves it: the ops' dtype check then names it.)
    input, bias = (t.to(dtype) if isinstance(t, Tensor) and t.is_floating_point()
                   and t.dtype != torch.float64 else t for t in (input, bias))
    wide = isinstance(weight, Tensor) and weight.dtype == torch.float32 and \
        input.dtype in (torch.bfloat16, torch.float16)
    if not wide and isinstance(weight, Tensor) and weight.is_floating_point() and \
            weight.dtype != torch.float64:
        weight = weight.to(dtype)
    return input, weight, bias, wide


def _autocast_dtype(input) -> Optional[torch.dtype]:
    """The autocast dtype active on ``input``'s device, or None. (meta tensors have no
    autocast state: shape inference, a model built on "meta".)"""
    if not isinstance(input, Tensor) or input.device.type == "meta" or \
            not torch.is_autocast_enabled(input.device.type):
        return None
    return torch.get_autocast_dtype(input.device.type)


def logits_element_size(input: Tensor) -> int:
    """Bytes per logit of the chunks the ops make from ``input``: its dtype's, or under
    autocast the autocast dtype's (``autocast_operands`` casts the input to it)."""
    dtype = _autocast_dtype(input)
    return input.element_size() if dtype is None or input.dtype == torch.float64 \
        else dtype.itemsize


def operand(weight: Tensor, h: Tensor) -> Tensor:
    """The weight as the GEMMs take it: in the input's dtype. Under autocast a float32 weight
    comes in as it is (``autocast_operands``) and is cast here, once per call, so that
    its gradient (allocated in the weight's dtype by ``grad_outputs``) sums the chunks'
    products in float32 (``add_product``), rounded never to the autocast dtype."""
    return weight if weight.dtype == h.dtype else weight.to(h.dtype)


def add_product(out: Tensor, a: Tensor, b: Tensor, first: bool = False) -> None:
    """out = a @ b where ``first``, else out += a @ b. For low-precision a, b and a float32
    ``out``, the product is never rounded to their dtype: on CUDA cuBLAS's float32 output
    (it accumulates in float32 in any case), elsewhere float32 operands (a copy of each:
    ATen's CPU GEMMs take one dtype)."""
    if out.device.type != "cuda":
        a, b = a.to(out.dtype), b.to(out.dtype)    # (no copy where already out's dtype)
    if out.dtype == a.dtype:
        if first:
            torch.mm(a, b, out=out)
        else:
            out.addmm_(a, b)
    else:   # (beta 0: out's old values, nan included, are not read)
        torch.addmm(out, a, b, beta=0 if first else 1, out_dtype=out.dtype, out=out)


def logits(h: Tensor, w: Tensor, b: Optional[Tensor], out: Optional[Tensor] = None) -> Tensor:
    """h @ w.T (+ b): one cuBLAS GEMM (the bias added in its epilogue), into ``out``."""
    return torch.mm(h, w.t(), out=out) if b is None else torch.addmm(b, h, w.t(), out=out)


def target_in_weight(target: Tensor, ignore_index: int, vocab_start: int) -> Tensor:
    """The target's index among this weight's classes (global id - vocab_start), -1 for
    ignored rows; other shards' targets fall outside [0, V)."""
    return torch.where(target == ignore_index, -1, target - vocab_start)
