"""Public API: ``cross_entropy`` and ``CrossEntropyLoss``, mirroring torch.nn.functional.

Deviations from F.cross_entropy, on purpose: the loss (and ``lse``) is float32 whatever the
logits' dtype, because all of its arithmetic is float32 (the gradient has the logits'
dtype); and the op saves the logits for its backward, so editing them in place between the
loss and ``backward()`` raises autograd's "modified by an inplace operation" error.

Non-finite logits give F.cross_entropy's nan/inf pattern: a row with a +inf or nan logit has
a nan loss and a nan gradient (also an ignored row's gradient, as stock); -inf logits
(masked classes) are exact zeros of probability. One exception, kept on purpose: an ignored
row of -inf logits (padding) gets gradient 0 where stock's is nan.
"""
from __future__ import annotations

from typing import Optional

import torch
import torch.autograd.forward_ad as _forward_ad
from torch import Tensor, nn
from torch._C import _are_functorch_transforms_active as _functorch_transform

from . import decomposition, ops  # noqa: F401  registers the ops used below
from ._checks import check_options, check_tensors
from ._math import finish, reduce

# The op's overload itself: called through ops.ce_fwd (a CustomOpDef) Dynamo would guard
# three more objects on every call.
_CE_FWD = torch.ops.inductor_ce.ce_fwd.default

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
    check_options(ignore_index, reduction, label_smoothing, z_loss, softcap, return_lse)
    check_tensors(input, target, weight)
    if not -2**31 <= ignore_index < 2**31:
        # F.cross_entropy compares the target in int64, where no int32 target equals this
        # ignore_index; an int32 compare would wrap it onto a class id and drop its rows.
        target = target.long()
    num_classes = input.shape[-1]
    softcap = None if softcap is None else float(softcap)
    smooth = float(label_smoothing) > 0.0
    if _functorch_transform() or _forward_ad._current_level >= 0:
        # torch.func (grad, vjp, jacrev, jvp, jacfwd, vmap, hessian) or forward-mode AD: the
        # custom op has a backward formula only (forward mode would see a zero tangent, and
        # torch.func refuses it), so the ATen decomposition runs instead, which autograd
        # differentiates in every mode; its values are the op's. (Under torch.compile these
        # two reads are three guards.)
        stats = decomposition.ce_fwd(input, target, weight, ignore_index, softcap, smooth)
    else:
        # The op asserts that every target is in [0, V) or ignore_index (compiled: in a
        # kernel over the rows, no launch of its own).
        stats = _CE_FWD(input, target, weight, ignore_index, softcap, smooth)
    lse_nt, z_t, sum_wz = stats
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
        check_options(ignore_index, reduction, label_smoothing, z_loss, softcap)
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
