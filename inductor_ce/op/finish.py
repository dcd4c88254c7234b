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

from typing import NamedTuple, Optional

import torch
import torch.nn.functional as F
from torch import Tensor
from torch.fx.experimental.symbolic_shapes import statically_known_true

from .._inductor import runtime


# Up to this many rows (a static count) a training step is bound by the host, not the GPU: its
# kernels take a fraction of its time (docs/lowering.md#few-static-rows). There every buffer
# and launch per step counts, here and in the lowerings.
FEW_ROWS = 1024


def _narrowed(target: Tensor, ignore_index: int) -> Tensor:
    """The target as int32 for few static rows, when ignore_index fits (so does every valid
    target; the op asserts the others). Why: AOTAutograd's partitioner never recomputes an op
    whose output is 4x smaller than its inputs, so `target != ignore_index` on int64 is saved
    for the backward (a buffer and a store per step); from int32 the backward recomputes it
    from the target it has anyway. More rows keep int64: then Inductor fuses the loss's per-row
    finish into the one program that sums over the rows, which costs more than it saves
    (docs/lowering.md#few-static-rows). A symbolic count keeps int64 with no guard (Dynamo
    reads a symbolic int as an int: a comparison would guard the rows, and export with rows
    above FEW_ROWS would fail)."""
    n = target.numel()   # (torch.jit.trace's is a traced 0-d tensor: not known. Its class by
    # name: the Tensor class itself, read from this module, would be one more guard.)
    few = type(n).__name__ != "Tensor" and statically_known_true(n <= FEW_ROWS) and \
        -2**31 <= ignore_index < 2**31
    return target.int() if few else target


def finish(lse_nt: Tensor, z_t: Tensor, sum_wz: Tensor, target: Tensor,
           weight: Optional[Tensor], ignore_index: int, label_smoothing, z_loss,
           num_classes: int, smooth: Optional[bool] = None, zloss: Optional[bool] = None):
    """Returns (per-row loss with ignored rows exactly 0, per-row lse, per-row w_t of kept rows).

    ``label_smoothing``, ``z_loss``: each a Python number (a constant of a traced graph), its
    ``smooth`` / ``zloss`` None (the term is computed where the number is non-zero); or a
    float32 0-d tensor, whose value a compiled graph reads when it runs (one graph serves
    every value: the eager path's graphs, a tensor option under torch.compile), its flag
    given: whether the term is computed (True: whatever the value, 0 included)."""
    smoothing_tensor = smooth is not None
    if smooth is None:
        smooth = label_smoothing > 0.0
    if zloss is None:
        zloss = z_loss != 0.0
    keep = _narrowed(target, ignore_index) != ignore_index
    # Ignored rows have no target (z_t = -inf) and may hold only -inf logits: feed the loss
    # math zeros there so that neither forward nor backward ever sees inf - inf. (Tensor
    # methods, not torch.*: see functional.py on what each global read costs per call.)
    lse_nt_k = lse_nt.where(keep, 0.0)
    z_t_k = z_t.where(keep, 0.0)
    # A +inf target logit: F.cross_entropy's log_softmax is inf - inf = nan over the row, and
    # training tools take that nan for an overflow (GradScaler skips the step). So here:
    # lse_nt becomes nan (inf * 0), and with it the row's loss, lse and every coefficient
    # of its gradient. (A +inf or nan non-target logit makes lse_nt nan by itself, and a nan
    # target logit the loss.) Ignored rows, and -inf logits (masking), are left alone.
    lse_nt_k = lse_nt_k + z_t_k.detach().clamp_min(0.0) * 0.0
    lse_k = lse_nt_k.logaddexp(z_t_k)
    w_t = kept_weight(keep, target, weight)
    loss = ((1.0 - label_smoothing) * w_t) * F.softplus(lse_nt_k - z_t_k)
    if smooth:
        total_w = float(num_classes) if weight is None else weight.float().sum()
        smoothed = (label_smoothing / num_classes) * (total_w * lse_k
                                                      - sum_wz.where(keep, 0.0))
        if smoothing_tensor:
            # A value of 0 adds exactly 0: a masked (-inf) logit makes sum_wz -inf, and
            # 0 * inf would make the row nan. (A z-loss of 0 needs no such care: lse is
            # infinite only in rows whose loss is nan already.)
            smoothed = smoothed.where(label_smoothing > 0.0, 0.0)
        loss = loss + smoothed
    if zloss:
        loss = loss + (z_loss * w_t) * lse_k.square()
    loss = loss.where(keep, 0.0)
    # The row's true lse also for ignored rows (there lse_nt is the full logsumexp).
    lse = lse_k.where(keep, lse_nt)
    return loss, lse, w_t


def kept_weight(keep: Tensor, target: Tensor, weight: Optional[Tensor]) -> Tensor:
    """Per row, the target's class weight (1 without weights) where ``keep``, else 0: what
    "mean" divides by."""
    if weight is None:
        return keep.float()
    # Clamped: an out-of-range target must reach the op's own range check, which raises.
    # Out of bounds here, Inductor's CPU kernel would throw inside its parallel region (which
    # ends the process) and its GPU kernel would assert on the device.
    # Flattened: Python indexing by a 0-d tensor (one row's target) reads it as an int, a
    # host read that a compiled graph cannot trace.
    index = target.where(keep, 0).long().clamp(0, weight.shape[0] - 1)
    return weight.float()[index.reshape(-1)].view(index.shape).where(keep, 0.0)


def entropy_and_accuracy(lse_nt: Tensor, z_t: Tensor, ent_nt: Tensor, max_nt: Tensor,
                         target: Tensor, ignore_index: int):
    """Per row, from ``ce_fwd_full``'s statistics: the entropy H = -sum_j p_j log p_j of the
    row's distribution (every row, ignored ones included: there, with no target column,
    H = ent_nt), and whether its target is a largest logit (ties count; False for ignored
    rows and a target logit of -inf). With d = lse_nt - z_t, the non-target mass
    P = sigmoid(d) and p_t = sigmoid(-d):

        H = P (ent_nt + lse - lse_nt) + p_t (lse - z_t)
          = sigmoid(d) (ent_nt + softplus(-d)) + sigmoid(-d) softplus(d)

    each product of non-negative terms, accurate when either side dominates (no lse - E[z]
    cancellation). |d| is clamped at 200, beyond which both small products are below
    float32's range anyway (and at d = +-inf would be 0 * inf).

    Its derivatives, dH/d ent_nt = P and dH/dd = P p_t (ent_nt - d), are given in that
    closed form (the value's d is detached, the slope times d - d.detach(), which is 0):
    autograd of the expression above sums four terms of size P p_t log V that cancel to
    P p_t (ent_nt - d), and sigmoid's backward y (1 - y) loses 1 - P where P is near 1 (a
    target of small probability): dH/dz_t was then wrong by ~2e-7 absolute, 1e-3 of the
    row's gradient for near-uniform rows of V = 3000."""
    d = lse_nt - z_t
    # A +inf target logit: nan, as the loss (see finish). A row without a target column (an
    # ignored row) has z_t = -inf: d = +inf, H = ent_nt; one of -inf logits only (padding)
    # would make d = -inf - -inf = nan, a nan entropy whose gradient is nan even where the
    # caller masks it, so there d is set to the clamp's bound. (Tensor methods: see finish.)
    d = d + z_t.detach().clamp_min(0.0) * 0.0
    d = d.masked_fill(z_t.isneginf(), 200.0).clamp(-200.0, 200.0)
    dd = d.detach()
    # exp(logsigmoid): float32 sigmoid(-v) is 1 / (1 + exp(v)), 0 once exp(v) overflows
    # (v > 88.7), where the value itself, e^-v, is still a float32 number (to v = 103).
    p_nt, p_t = F.logsigmoid(dd).exp(), F.logsigmoid(-dd).exp()
    slope = p_nt * p_t * (ent_nt.detach() - dd)
    entropy = p_nt * (ent_nt + F.softplus(-dd)) + p_t * F.softplus(dd) + slope * (d - dd)
    # (A target logit of -inf is never a largest one, also where every logit is -inf.)
    accuracy = (z_t >= max_nt) & (z_t > float("-inf")) & (target != ignore_index)
    return entropy, accuracy


class LossOutput(NamedTuple):
    """What :func:`cross_entropy` and :func:`linear_cross_entropy` return when
    ``return_entropy`` or ``return_accuracy`` is set; the fields not asked for are None.

    loss: float32, reduced as ``reduction`` says.
    lse: per-row float32 logsumexp of the (tempered, softcapped) logits (``return_lse``).
    entropy: per-row float32 entropy of their softmax, differentiable; every row, ignored
        ones included (``return_entropy``).
    accuracy: per-row bool, whether the target is a largest logit (ties count as correct);
        False for ignored rows and a target logit of -inf (``return_accuracy``).
    """
    loss: Tensor
    lse: Optional[Tensor] = None
    entropy: Optional[Tensor] = None
    accuracy: Optional[Tensor] = None


def full_outputs(loss, lse, lse_nt, z_t, ent_nt, max_nt, target, ignore_index, return_lse,
                 return_entropy, return_accuracy):
    """The full form's return value from its reduced loss, lse and statistics: as the plain
    form's without the two flags, else a LossOutput."""
    if not return_entropy and not return_accuracy:
        return (loss, lse) if return_lse else loss
    if return_entropy:
        check_entropy_order()
    entropy, accuracy = entropy_and_accuracy(lse_nt, z_t, ent_nt, max_nt, target, ignore_index)
    return LossOutput(loss, lse if return_lse else None, entropy if return_entropy else None,
                      accuracy if return_accuracy else None)


def check_entropy_order() -> None:
    """Refuses a second derivative of the entropy (torch.func.hessian, grad of grad, jvp of
    grad, ...): its first derivatives are closed forms (``entropy_and_accuracy``, the
    decomposition's ent_nt), whose own derivatives are not the entropy's second ones."""
    if (runtime.functorch_transforms_active() or runtime.forward_ad_active()) and \
            runtime.derivative_levels() >= 2:
        raise NotImplementedError(
            "inductor_ce: the entropy (return_entropy=True) has first derivatives only: its "
            "gradient is a closed form, so a second derivative (torch.func.hessian, nested "
            "grad or jvp) would be wrong; the loss's: without return_entropy")


def reduce(loss: Tensor, w_t: Optional[Tensor], reduction: str,
           weighted_smoothing: bool = False) -> Tensor:
    """F.cross_entropy's reduction: "mean" divides by the kept rows' total weight, on device
    (no host sync); zero kept rows give 0/0 = nan, as PyTorch does. With class weights and
    label smoothing (``weighted_smoothing``) kept rows of weight 0 still have a smoothing
    term: a total weight of 0 would give x/0 = inf, where stock's mean is nan (its two terms
    each over 0), so nan is added there (added: the gradient stays stock's)."""
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    mean = loss.sum() / w_t.sum()
    return mean + torch.where(w_t.sum() == 0, float("nan"), 0.0) if weighted_smoothing else mean
