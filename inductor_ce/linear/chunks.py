"""What both chunkings of the fused head use (``head.py``'s row chunks, ``class_chunks.py``):
the chunks' GEMMs (cuBLAS, the bias and a scale in the epilogue), the gradient buffers and
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


def logits(h: Tensor, w: Tensor, b: Optional[Tensor], out: Optional[Tensor] = None) -> Tensor:
    """h @ w.T (+ b): one cuBLAS GEMM (the bias added in its epilogue), into ``out``."""
    return torch.mm(h, w.t(), out=out) if b is None else torch.addmm(b, h, w.t(), out=out)


def target_in_weight(target: Tensor, ignore_index: int, vocab_start: int) -> Tensor:
    """The target's index among this weight's classes (global id - vocab_start), -1 for
    ignored rows; other shards' targets fall outside [0, V)."""
    return torch.where(target == ignore_index, -1, target - vocab_start)
