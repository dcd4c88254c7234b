"""Per-row finish of the cross-entropy from the forward op's statistics, and the reduction.

Everything here works on per-row float32 tensors (a few bytes per row), is written in ATen
ops and is differentiated by autograd: its backward produces the per-row coefficients
(a, b, c) that the backward op turns into the gradient of the logits. Under torch.compile
Inductor fuses it into one small kernel after the forward reduction.

Row i, with the statistics of ``decomposition.py`` (lse_nt, z_t, sum_wz), target weight w_t,
label smoothing eps, V classes, W = sum_j w_j, z-loss coefficient zl:

    lse  = logaddexp(lse_nt, z_t)                       = log sum_j exp(z_j)
    nll  = softplus(lse_nt - z_t)                       = lse - z_t, collapse-safe
    loss = (1 - eps) * w_t * nll                        F.cross_entropy's weighted NLL
         + eps / V * (W * lse - sum_wz)                 = eps / V * sum_j w_j * (-log p_j)
         + zl * w_t * lse^2                             z-loss

Why softplus: with lse - z_t computed directly, p_t rounds to 1 in float32 once the target
leads by ~16.6, and the loss and the target gradient become exactly 0. softplus keeps the
tiny non-target mass: d nll / d z_t = -sigmoid(lse_nt - z_t) = -(1 - p_t), never rounded.
"""
from __future__ import annotations

from typing import Optional

import torch.nn.functional as F
from torch import Tensor


def finish(lse_nt: Tensor, z_t: Tensor, sum_wz: Tensor, target: Tensor,
           weight: Optional[Tensor], ignore_index: int, label_smoothing: float, z_loss: float,
           num_classes: int):
    """Returns (per-row loss with ignored rows exactly 0, per-row lse, per-row w_t of kept rows)."""
    # int32 when ignore_index fits (every valid target does; others fail the op's range
    # assert): AOTAutograd's partitioner never recomputes an op whose output is 4x smaller than
    # its inputs, so a bool from int64 would be saved for the backward, a buffer and a store
    # more in the forward; from int32 the backward recomputes it from the target it has anyway.
    keep = (target.int() if -2**31 <= ignore_index < 2**31 else target) != ignore_index
    # Ignored rows have no target (z_t = -inf) and may hold only -inf logits: feed the loss
    # math zeros there so that neither forward nor backward ever sees inf - inf. (Tensor
    # methods, not torch.*: see functional.py on what each global read costs per call.)
    lse_nt_k = lse_nt.where(keep, 0.0)
    z_t_k = z_t.where(keep, 0.0)
    lse_k = lse_nt_k.logaddexp(z_t_k)
    if weight is None:
        w_t = keep.float()
    else:
        w_t = weight.float()[target.where(keep, 0).long()].where(keep, 0.0)
    loss = ((1.0 - label_smoothing) * w_t) * F.softplus(lse_nt_k - z_t_k)
    if label_smoothing > 0.0:
        total_w = float(num_classes) if weight is None else weight.float().sum()
        smooth = total_w * lse_k - sum_wz.where(keep, 0.0)
        loss = loss + (label_smoothing / num_classes) * smooth
    if z_loss != 0.0:
        loss = loss + (z_loss * w_t) * lse_k.square()
    loss = loss.where(keep, 0.0)
    # The row's true lse also for ignored rows (there lse_nt is the full logsumexp).
    lse = lse_k.where(keep, lse_nt)
    return loss, lse, w_t


def reduce(loss: Tensor, w_t: Tensor, reduction: str) -> Tensor:
    """F.cross_entropy's reduction: "mean" divides by the kept rows' total weight, on device
    (no host sync); zero kept rows give 0/0 = nan, as PyTorch does."""
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    return loss.sum() / w_t.sum()
