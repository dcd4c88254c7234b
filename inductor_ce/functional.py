"""Public API: ``cross_entropy`` and ``CrossEntropyLoss``, mirroring torch.nn.functional.

Deviation from F.cross_entropy, on purpose: the loss (and ``lse``) is float32 whatever the
logits' dtype, because all of its arithmetic is float32; the gradient has the logits' dtype.
"""
from __future__ import annotations

from typing import Optional

import torch
from torch import Tensor, nn

from . import ops  # noqa: F401  registers the ops used below
from ._math import finish, reduce

# The op's overload itself: called through ops.ce_fwd (a CustomOpDef) Dynamo would guard
# three more objects on every call.
_CE_FWD = torch.ops.inductor_ce.ce_fwd.default

# Under torch.compile Dynamo re-checks, on every call, each module global and builtin that the
# traced path reads: about 0.1 us apiece on a 2-core CPU (benchmarks/NOTES.md, run 29), and a
# step of few rows is bound by the host. So the checks below compare literals with the
# tensors' own properties (str(dtype) reads only `str`), not module-level tuples or torch.*.


def _check_options(ignore_index, reduction, label_smoothing, z_loss, softcap):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"reduction must be one of ('none', 'mean', 'sum'), got {reduction!r}")
    if not isinstance(ignore_index, int):
        raise TypeError(f"ignore_index must be an int, got {type(ignore_index).__name__}")
    if not (0.0 <= label_smoothing <= 1.0):
        raise ValueError(f"label_smoothing must be in [0, 1], got {label_smoothing}")
    # Comparisons, not math.isfinite(float(v)): under torch.compile(dynamic=True) Python floats
    # become symbolic and math.isfinite on them is a graph break. False for nan.
    inf = float("inf")
    if not (-inf < z_loss < inf and z_loss >= 0.0):
        raise ValueError(f"z_loss must be a finite number >= 0, got {z_loss}")
    if softcap is not None and not (-inf < softcap < inf and softcap > 0.0):
        raise ValueError(f"softcap must be None or a finite number > 0, got {softcap}")


def _check_tensors(input, target, weight):
    if not isinstance(input, Tensor) or str(input.dtype) not in (
            "torch.float32", "torch.bfloat16", "torch.float16"):
        raise TypeError(f"input must be a float32, bfloat16 or float16 tensor of logits, "
                        f"got {getattr(input, 'dtype', type(input).__name__)}")
    if input.dim() < 1 or input.shape[-1] < 1:
        raise ValueError(f"input must have shape (..., V) with V >= 1, got {tuple(input.shape)}")
    num_classes = input.shape[-1]
    if not isinstance(target, Tensor) or str(target.dtype) not in ("torch.int64", "torch.int32"):
        raise TypeError(f"target must be an int64 or int32 tensor of class indices, got "
                        f"{getattr(target, 'dtype', type(target).__name__)} (probability "
                        "targets are not supported)")
    if target.shape != input.shape[:-1]:
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
    # The class name first: `type(input) is not Tensor` costs a Python guard (Dynamo checks
    # that two routes to torch.Tensor agree), and the DTensor import guards of its own.
    if input.__class__.__name__ == "DTensor" and _is_dtensor(input):
        from .parallel import _dtensor_cross_entropy
        return _dtensor_cross_entropy(input, target, weight, ignore_index, reduction,
                                      label_smoothing, z_loss=z_loss, softcap=softcap,
                                      return_lse=return_lse)
    _check_options(ignore_index, reduction, label_smoothing, z_loss, softcap)
    _check_tensors(input, target, weight)
    num_classes = input.shape[-1]
    softcap = None if softcap is None else float(softcap)
    smooth = float(label_smoothing) > 0.0
    # The op asserts that every target is in [0, V) or ignore_index (compiled: in a kernel
    # over the rows, no launch of its own).
    lse_nt, z_t, sum_wz = _CE_FWD(input, target, weight, ignore_index, softcap, smooth)
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
