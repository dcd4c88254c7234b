"""Public API: ``cross_entropy`` and ``CrossEntropyLoss``, mirroring torch.nn.functional.

Deviation from F.cross_entropy, on purpose: the loss (and ``lse``) is float32 whatever the
logits' dtype, because all of its arithmetic is float32; the gradient has the logits' dtype.
"""
from __future__ import annotations

import math
from typing import Optional

import torch
from torch import Tensor, nn

from . import ops
from ._math import finish, reduce

_FLOAT_DTYPES = (torch.float32, torch.bfloat16, torch.float16)
_INDEX_DTYPES = (torch.int64, torch.int32)
_REDUCTIONS = ("none", "mean", "sum")


def _finite(v) -> bool:
    # Comparisons only, no math.isfinite(float(v)): under torch.compile(dynamic=True) Python
    # float arguments become symbolic and math.isfinite on them is a graph break. False for nan.
    return -math.inf < v < math.inf


def _check_options(ignore_index, reduction, label_smoothing, z_loss, softcap):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"reduction must be one of {_REDUCTIONS}, got {reduction!r}")
    if not isinstance(ignore_index, int):
        raise TypeError(f"ignore_index must be an int, got {type(ignore_index).__name__}")
    if not (0.0 <= label_smoothing <= 1.0):
        raise ValueError(f"label_smoothing must be in [0, 1], got {label_smoothing}")
    if not (_finite(z_loss) and z_loss >= 0.0):
        raise ValueError(f"z_loss must be a finite number >= 0, got {z_loss}")
    if softcap is not None and not (_finite(softcap) and softcap > 0.0):
        raise ValueError(f"softcap must be None or a finite number > 0, got {softcap}")


def _check_tensors(input, target, weight):
    if not isinstance(input, Tensor) or input.dtype not in _FLOAT_DTYPES:
        raise TypeError(f"input must be a float32, bfloat16 or float16 tensor of logits, "
                        f"got {getattr(input, 'dtype', type(input).__name__)}")
    if input.dim() < 1 or input.shape[-1] < 1:
        raise ValueError(f"input must have shape (..., V) with V >= 1, got {tuple(input.shape)}")
    num_classes = input.shape[-1]
    if not isinstance(target, Tensor) or target.dtype not in _INDEX_DTYPES:
        raise TypeError(f"target must be an int64 or int32 tensor of class indices, got "
                        f"{getattr(target, 'dtype', type(target).__name__)} (probability "
                        "targets are not supported)")
    if tuple(target.shape) != tuple(input.shape[:-1]):
        raise ValueError(f"target must have shape input.shape[:-1] = {tuple(input.shape[:-1])}"
                         f" (the class dimension is the last one), got {tuple(target.shape)}")
    if target.device != input.device:
        raise ValueError(f"input and target are on different devices: {input.device} and "
                         f"{target.device}")
    if weight is not None:
        if not isinstance(weight, Tensor) or not weight.is_floating_point():
            raise TypeError("weight must be a floating-point tensor")
        if tuple(weight.shape) != (num_classes,):
            raise ValueError(f"weight must have shape ({num_classes},), got "
                             f"{tuple(weight.shape)}")
        if weight.device != input.device:
            raise ValueError(f"weight is on {weight.device}, input on {input.device}")
        if weight.requires_grad and torch.is_grad_enabled():
            raise ValueError("the gradient with respect to weight is not supported; pass "
                             "weight.detach()")


def cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
                  ignore_index: int = -100, reduction: str = "mean",
                  label_smoothing: float = 0.0, *, z_loss: float = 0.0,
                  softcap: Optional[float] = None, return_lse: bool = False):
    """Fused, collapse-safe cross-entropy over the last dimension of ``input``.

    Equals ``F.cross_entropy(s(input).double().reshape(-1, V), target.reshape(-1), weight,
    ignore_index=..., reduction=..., label_smoothing=...)`` + ``z_loss * R(lse**2)`` to
    float32 accuracy, where ``s`` is the softcap and ``R`` the same (weighted) reduction.

    Args:
        input: logits ``(..., V)``, float32/bfloat16/float16; rows may be strided views.
        target: class indices ``input.shape[:-1]``, int64 or int32.
        weight, ignore_index, reduction, label_smoothing: as in F.cross_entropy.
        z_loss: coefficient of the z-loss ``lse**2`` (keyword-only).
        softcap: if set, logits become ``softcap * tanh(input / softcap)`` (keyword-only).
        return_lse: also return the per-row float32 logsumexp (keyword-only).

    Returns:
        The float32 loss (a scalar, or ``target.shape`` for ``reduction="none"``); with
        ``return_lse``, ``(loss, lse)``.
    """
    # Under torch.compile every global read here becomes a guard checked on each call; a
    # plain tensor skips the DTensor import and isinstance (few rows are host-bound).
    if type(input) is not Tensor and _is_dtensor(input):
        from .parallel import _dtensor_cross_entropy
        return _dtensor_cross_entropy(input, target, weight, ignore_index, reduction,
                                      label_smoothing, z_loss=z_loss, softcap=softcap,
                                      return_lse=return_lse)
    _check_options(ignore_index, reduction, label_smoothing, z_loss, softcap)
    _check_tensors(input, target, weight)
    num_classes = input.shape[-1]
    softcap = None if softcap is None else float(softcap)
    smooth = float(label_smoothing) > 0.0
    # The op asserts that every target is in [0, V) or ignore_index (compiled: in the kernel
    # that combines each row's statistics, no launch of its own).
    lse_nt, z_t, sum_wz = ops.ce_fwd(input, target, weight, ignore_index, softcap, smooth)
    loss, lse, w_t = finish(lse_nt, z_t, sum_wz, target, weight, ignore_index,
                            float(label_smoothing), float(z_loss), num_classes)
    loss = reduce(loss, w_t, reduction)
    return (loss, lse) if return_lse else loss


def _is_dtensor(x) -> bool:
    if not torch.distributed.is_available():
        return False
    from torch.distributed.tensor import DTensor
    return isinstance(x, DTensor)


class CrossEntropyLoss(nn.Module):
    """``nn.CrossEntropyLoss`` counterpart of :func:`cross_entropy` (float32 loss)."""

    def __init__(self, weight: Optional[Tensor] = None, ignore_index: int = -100,
                 reduction: str = "mean", label_smoothing: float = 0.0, *, z_loss: float = 0.0,
                 softcap: Optional[float] = None):
        super().__init__()
        _check_options(ignore_index, reduction, label_smoothing, z_loss, softcap)
        self.register_buffer("weight", weight)
        self.ignore_index, self.reduction = ignore_index, reduction
        self.label_smoothing, self.z_loss, self.softcap = label_smoothing, z_loss, softcap

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return cross_entropy(input, target, self.weight, self.ignore_index, self.reduction,
                             self.label_smoothing, z_loss=self.z_loss, softcap=self.softcap)

    def extra_repr(self) -> str:
        return (f"ignore_index={self.ignore_index}, reduction={self.reduction!r}, "
                f"label_smoothing={self.label_smoothing}, z_loss={self.z_loss}, "
                f"softcap={self.softcap}")
