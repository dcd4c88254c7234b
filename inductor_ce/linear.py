"""Fused linear + cross-entropy: ``cross_entropy(input @ linear_weight.T + linear_bias, target)``
without a (rows, V) logits tensor.

(Interface first: this version computes the logits and calls ``cross_entropy``; the chunked
op replaces its body with the same signature and values.)
"""
from __future__ import annotations

from typing import Optional

import torch.nn.functional as F
from torch import Tensor, nn

from .functional import cross_entropy


def linear_cross_entropy(input: Tensor, linear_weight: Tensor, target: Tensor, *,
                         linear_bias: Optional[Tensor] = None, weight: Optional[Tensor] = None,
                         reduction: str = "mean", ignore_index: int = -100,
                         label_smoothing: float = 0.0, z_loss: float = 0.0,
                         softcap: Optional[float] = None, return_lse: bool = False):
    """``inductor_ce.cross_entropy(F.linear(input, linear_weight, linear_bias), target, ...)``.

    Args:
        input: ``(..., D)`` hidden states.
        linear_weight: ``(V, D)``, the LM head's weight.
        target: ``input.shape[:-1]`` class indices.
        linear_bias: optional ``(V,)``.
        weight, reduction, ignore_index, label_smoothing, z_loss, softcap, return_lse: as in
            :func:`inductor_ce.cross_entropy`.
    """
    logits = F.linear(input, linear_weight, linear_bias)
    return cross_entropy(logits, target, weight, ignore_index, reduction, label_smoothing,
                         z_loss=z_loss, softcap=softcap, return_lse=return_lse)


class LinearCrossEntropyLoss(nn.Module):
    """Module form of :func:`linear_cross_entropy`: ``loss(input, linear_weight, target)``."""

    def __init__(self, weight: Optional[Tensor] = None, ignore_index: int = -100,
                 reduction: str = "mean", label_smoothing: float = 0.0, *, z_loss: float = 0.0,
                 softcap: Optional[float] = None):
        super().__init__()
        self.register_buffer("weight", weight)
        self.ignore_index, self.reduction = ignore_index, reduction
        self.label_smoothing, self.z_loss, self.softcap = label_smoothing, z_loss, softcap

    def forward(self, input: Tensor, linear_weight: Tensor, target: Tensor,
                linear_bias: Optional[Tensor] = None) -> Tensor:
        return linear_cross_entropy(input, linear_weight, target, linear_bias=linear_bias,
                                    weight=self.weight, reduction=self.reduction,
                                    ignore_index=self.ignore_index,
                                    label_smoothing=self.label_smoothing, z_loss=self.z_loss,
                                    softcap=self.softcap)
