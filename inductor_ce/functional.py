"""Public API: ``cross_entropy``, ``linear_cross_entropy`` and their modules, mirroring
torch.nn.functional and torch.nn (torch 2.13's ``F.linear_cross_entropy``).

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
from torch import Tensor, nn

from ._inductor.runtime import forward_ad_active as _forward_ad_active
from ._inductor.runtime import functorch_transforms_active as _functorch_transform
from .eager.kernels import compiled_path_applies
from .eager.loss import call_signature, loss_of_seen_call
from .eager.loss import cross_entropy as _eager_loss
from .eager.soft import cross_entropy as _soft_cross_entropy
from .linear import chunks
from .op import ce as ops  # noqa: F401  (registers the ops used below)
from .op import decomposition
from .op.checks import (byte_target, check_budget, check_compiled_transform, check_linear,
                        check_options, check_tensors, exporting, probability_target)
from .op.finish import LossOutput, finish, full_outputs, kept_weight
from .op.finish import reduce as _reduce
from .op.options import asks_full_form, check_full_options, legacy_reduction as _legacy_reduction

# The op's overload itself: called through ops.ce_fwd (a CustomOpDef) Dynamo would guard
# three more objects on every call.
_CE_FWD = torch.ops.inductor_ce.ce_fwd.default
_CE_FWD_FULL = torch.ops.inductor_ce.ce_fwd_full.default


def cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
                  ignore_index: int = -100, reduction: str = "mean",
                  label_smoothing: float = 0.0, *, z_loss: float = 0.0,
                  softcap: Optional[float] = None, temperature: float = 1.0,
                  return_lse: bool = False, return_entropy: bool = False,
                  return_accuracy: bool = False, size_average: Optional[bool] = None,
                  reduce: Optional[bool] = None):
    """Fused, collapse-safe cross-entropy over the last dimension of ``input``.

    Equals ``F.cross_entropy(s(input).double().reshape(-1, V), target.reshape(-1), weight,
    ignore_index=..., reduction=..., label_smoothing=...)`` + ``z_loss * R(lse**2)`` to
    float32 accuracy, where ``s`` is the softcap and ``R`` the same (weighted) reduction.

    Args:
        input: logits ``(..., V)``, float32/bfloat16/float16; rows may be strided views.
        target: class indices ``input.shape[:-1]``, int64, int32 or uint8; or class probabilities
            of input's shape, float32 or input's dtype (``op/soft.py``; "none": rows' shape).
        weight, ignore_index, reduction, label_smoothing: as in F.cross_entropy.
        z_loss: coefficient of the z-loss ``lse**2`` (keyword-only).
            ``label_smoothing`` and ``z_loss`` may change every call: eagerly their values are
            inputs of the compiled code (a new value compiles nothing); under torch.compile
            pass a 0-d tensor, a graph input (a float recompiles once, at its second value).
        softcap: if set, logits become ``softcap * tanh(input / softcap)`` (keyword-only).
        temperature: the logits are divided by it before everything else (before the
            softcap; keyword-only): a sampling temperature for RL's log-probabilities.
        return_lse: also return the per-row float32 logsumexp (keyword-only).
        return_entropy, return_accuracy: also return each row's entropy and whether its
            target is a largest logit, from the same pass over the logits (keyword-only).
        size_average, reduce: torch's deprecated forms of ``reduction``, which they override
            with torch's warning, as in F.cross_entropy (keyword-only here).

    Returns:
        The float32 loss (a scalar, or ``target.shape`` for ``reduction="none"``); with
        ``return_lse``, ``(loss, lse)``; with ``return_entropy`` or ``return_accuracy``, a
        :class:`LossOutput` (fields not asked for are None).
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce, not torch.compiler.is_compiling())
    full = asks_full_form(temperature, return_entropy, return_accuracy)
    sig = None
    if full:
        temperature = check_full_options(temperature, return_entropy, return_accuracy)
    else:
        # An eager call like one seen before: its checks passed, its path is known
        # (eager/loss.py). (Under torch.compile the signature is None.)
        sig = call_signature(input, target, weight, ignore_index, reduction, label_smoothing,
                             z_loss, softcap, return_lse)
        if sig is not None:
            out = loss_of_seen_call(sig, input, target, weight, label_smoothing, z_loss,
                                    softcap)
            if out is not None:
                return out
    # The class name first: `type(input) is not Tensor` costs a Python guard (Dynamo checks
    # that two routes to torch.Tensor agree), and the DTensor import guards of its own.
    if input.__class__.__name__ == "DTensor" and _is_dtensor(input):
        from .parallel import _dtensor_cross_entropy
        return _dtensor_cross_entropy(input, target, weight, ignore_index, reduction,
                                      label_smoothing, z_loss=z_loss, softcap=softcap,
                                      return_lse=return_lse, temperature=temperature,
                                      return_entropy=return_entropy,
                                      return_accuracy=return_accuracy)
    if byte_target(target):
        # F.cross_entropy takes Byte class indices too; our kernels take int32 or int64.
        # (Such a call is not kept: a kept call would hand the kernels the Byte target.)
        # (After input's first use: Dynamo orders a graph's inputs by first use.)
        target, sig = target.int(), None
    if probability_target(target):
        if full and input.dim() == target.dim():
            raise NotImplementedError(
                "inductor_ce.cross_entropy: temperature, return_entropy and return_accuracy "
                "are not supported with probability targets (a floating target) yet")
        if not full:
            # Class probabilities: a floating target of input's shape (eager/soft.py).
            return _soft_cross_entropy(input, target, weight, ignore_index, reduction,
                                       label_smoothing, z_loss, softcap, return_lse)
    # (A tensor label_smoothing or z_loss comes back as its value, a number; under
    # torch.compile as a float32 0-d tensor.)
    ignore_index, reduction, label_smoothing, z_loss, softcap = check_options(
        ignore_index, reduction, label_smoothing, z_loss, softcap, return_lse)
    check_tensors(input, target, weight)
    if not -2**31 <= ignore_index < 2**31:
        # F.cross_entropy compares the target in int64, where no int32 target equals this
        # ignore_index; an int32 compare would wrap it onto a class id and drop its rows.
        target, sig = target.long(), None    # (a call kept would not convert it)
    num_classes = input.shape[-1]
    softcap = None if softcap is None else float(softcap)
    # The full form's temperature (None: the plain ops).
    temperature = float(temperature) if full else None
    # A tensor option is a graph input: its term is computed whatever its value, so that
    # nothing depends on the value at trace time (no guard, no recompile per value).
    smoothing_tensor = not isinstance(label_smoothing, (int, float))
    z_loss_tensor = not isinstance(z_loss, (int, float))
    smooth = smoothing_tensor or float(label_smoothing) > 0.0
    if _functorch_transform() or _forward_ad_active():
        check_compiled_transform("inductor_ce.cross_entropy")
        # torch.func (grad, vjp, jacrev, jvp, jacfwd, vmap, hessian) or forward-mode AD: the
        # custom op has a backward formula only (forward mode would see a zero tangent, and
        # torch.func refuses it), so the ATen decomposition runs instead, which autograd
        # differentiates in every mode; its values are the op's. (Under torch.compile these
        # two reads are three guards.)
        if full:
            stats = decomposition.ce_fwd(input, target, weight, ignore_index, softcap, smooth,
                                         temperature, full=True)
        else:
            stats = decomposition.ce_fwd(input, target, weight, ignore_index, softcap, smooth)
    else:
        # Eager: the whole loss as compiled forward and backward graphs (None under
        # torch.compile or where it does not apply: see eager/loss.py).
        # (Every argument given: a default read under torch.compile is a guard per call.)
        out = _eager_loss(input, target, weight, ignore_index, reduction, label_smoothing,
                          z_loss, softcap, return_lse, sig, temperature, return_entropy,
                          return_accuracy, True)
        if out is not None:
            return _named(out, return_lse, return_entropy, return_accuracy) if full else out
        # The op asserts that every target is in [0, V) or ignore_index (compiled: in a
        # kernel over the rows, no launch of its own).
        cap = ops.softcap_tensor(softcap)
        if full:
            stats = _CE_FWD_FULL(input, target, weight, ignore_index, cap, smooth, temperature)
        else:
            stats = _CE_FWD(input, target, weight, ignore_index, cap, smooth)
    lse_nt, z_t, sum_wz, *extra = stats
    loss, lse, w_t = finish(lse_nt, z_t, sum_wz, target, weight, ignore_index,
                            label_smoothing if smoothing_tensor else float(label_smoothing),
                            z_loss if z_loss_tensor else float(z_loss), num_classes,
                            True if smoothing_tensor else None, True if z_loss_tensor else None)
    loss = _reduce(loss, w_t, reduction, weight is not None and smooth)
    if full:
        return full_outputs(loss, lse, lse_nt, z_t, *extra, target, ignore_index, return_lse,
                            return_entropy, return_accuracy)
    return (loss, lse) if return_lse else loss


def _named(out, return_lse, return_entropy, return_accuracy):
    """The eager full form's outputs, (loss[, lse][, entropy][, accuracy]), in the form the
    call returns."""
    if not return_entropy and not return_accuracy:
        return (out[0], out[1]) if return_lse else out[0]
    rest = iter(out[1:])
    return LossOutput(out[0], *(next(rest) if asked else None
                                for asked in (return_lse, return_entropy, return_accuracy)))


def _is_dtensor(x) -> bool:
    if not torch.distributed.is_available():
        return False
    from torch.distributed.tensor import DTensor
    return isinstance(x, DTensor)


class CrossEntropyLoss(nn.Module):
    """``nn.CrossEntropyLoss`` counterpart of :func:`cross_entropy` (float32 loss).
    ``size_average`` and ``reduce``: torch's deprecated forms of ``reduction`` (keyword-only
    here: the positional order is :func:`cross_entropy`'s), which they override as in torch."""

    def __init__(self, weight: Optional[Tensor] = None, ignore_index: int = -100,
                 reduction: str = "mean", label_smoothing: float = 0.0, *, z_loss: float = 0.0,
                 softcap: Optional[float] = None, size_average: Optional[bool] = None,
                 reduce: Optional[bool] = None):
        super().__init__()
        if size_average is not None or reduce is not None:   # (warns as torch's modules do)
            reduction = _legacy_reduction(size_average, reduce)
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


def linear_cross_entropy(input: Tensor, linear_weight: Tensor, target: Tensor, *,
                         linear_bias: Optional[Tensor] = None, weight: Optional[Tensor] = None,
                         reduction: str = "mean", ignore_index: Optional[int] = -100,
                         label_smoothing: float = 0.0, z_loss: float = 0.0,
                         softcap: Optional[float] = None, temperature: float = 1.0,
                         return_lse: bool = False, return_entropy: bool = False,
                         return_accuracy: bool = False, memory_budget: Optional[int] = None,
                         options=None, policy: Optional[str] = None,
                         chunk_size: Optional[int] = None):
    """``cross_entropy(F.linear(input, linear_weight, linear_bias), target, ...)`` without
    the (rows, V) logits tensor (``inductor_ce/linear/head.py``): equal to it to float32
    accuracy, collapse-safe, float32 loss.

    Args:
        input: ``(..., D)`` hidden states (float32, bfloat16 or float16).
        linear_weight: ``(V, D)``, the LM head's weight, in ``input``'s dtype (or float32
            under autocast: its gradient then sums the chunks in float32); a DTensor
            sharded over the vocabulary (``[Shard(0)]``, 1-D mesh) runs vocabulary-parallel
            (``input`` then a DTensor replicated on its mesh: docs/parallel.md).
        target: class indices ``input.shape[:-1]``, int64, int32 or uint8.
        linear_bias: optional ``(V,)``.
        weight, reduction, ignore_index, label_smoothing, z_loss, softcap, temperature,
            return_lse, return_entropy, return_accuracy: as in :func:`cross_entropy`. A
            temperature or the entropy / accuracy chunk by rows whatever the budget; a
            scalar loss's entropy that gets a gradient costs its backward one pass over
            recomputed logits (docs/linear.md).
        ignore_index: also None, which is -100 (as in ``F.linear_cross_entropy``).
        options: ``F.linear_cross_entropy``'s chunking options (None or a
            ``LinearCrossEntropyOptions``, else a TypeError), accepted for its signature and
            not used: the chunking here is ``memory_budget``'s (the values are the same).
        memory_budget: bytes of scratch for chunks of logits, beyond the inputs, outputs and
            gradients. None (default): chunks of D rows within 512 MiB - 1 GiB of bf16
            logits, at GEMM speed. At least 64-768 rows of logits (by D, the budget and
            the call): chunks of that many rows; fewer (``LEAN_BUDGET``, 64 MiB, in bf16
            where D >= 2048: a scalar loss at V > 111848, per-token losses and lse at V >
            43690) chunk by classes: one GEMM more, little memory
            (docs/linear.md#the-memory-budget).
        policy, chunk_size: deprecated (FutureWarning): ``policy="compact"`` is
            ``memory_budget=inductor_ce.linear.LEAN_BUDGET``, ``chunk_size=R`` is
            ``memory_budget=R * V * input.element_size()``.

    Returns:
        The float32 loss: a scalar for ``reduction="mean"`` (the kept rows' weighted mean;
        nan where no row is kept, with zero gradients, as F.cross_entropy) or ``"sum"`` (0
        where none is kept), a tensor of ``target``'s shape for ``"none"`` (ignored rows 0).
        With ``return_lse``, ``(loss, lse)``: lse the per-row float32 logsumexp of the
        logits, of ``target``'s shape. With ``return_entropy`` or ``return_accuracy``, a
        :class:`LossOutput`.
    """
    from .linear import head as linear
    if ignore_index is None:
        ignore_index = -100
    _check_torch_options(options)
    if policy is not None or chunk_size is not None:
        from .linear.plan import deprecated_budget
        memory_budget = deprecated_budget(memory_budget, policy, chunk_size, linear_weight,
                                          input)
    full = asks_full_form(temperature, return_entropy, return_accuracy)
    if full:
        temperature = check_full_options(temperature, return_entropy, return_accuracy)
    if linear_weight.__class__.__name__ == "DTensor" and _is_dtensor(linear_weight):
        from .parallel import _dtensor_linear_cross_entropy
        return _dtensor_linear_cross_entropy(
            input, linear_weight, target, linear_bias=linear_bias, weight=weight,
            reduction=reduction, ignore_index=ignore_index, label_smoothing=label_smoothing,
            z_loss=z_loss, softcap=softcap, return_lse=return_lse,
            memory_budget=memory_budget, temperature=temperature,
            return_entropy=return_entropy, return_accuracy=return_accuracy)
    ignore_index, reduction, label_smoothing, z_loss, softcap = check_options(
        ignore_index, reduction, label_smoothing, z_loss, softcap, return_lse)
    input, linear_weight, linear_bias, wide = chunks.autocast_operands(input, linear_weight,
                                                                       linear_bias)
    if byte_target(target):
        target = target.int()    # Byte class indices, as F.cross_entropy takes them
    check_linear(input, linear_weight, linear_bias, target, weight, memory_budget, wide)
    if not -2**31 <= ignore_index < 2**31:
        target = target.long()   # (compared in int64, as cross_entropy does: see there)
    num_classes = linear_weight.shape[0]
    softcap = None if softcap is None else float(softcap)
    # A tensor option comes back from the checks as its value, but under torch.compile as a
    # float32 0-d graph input: its term computed whatever its value (as cross_entropy's), by
    # the per-row statistics and the finish, which take it (the fast op's schema takes
    # floats: a value read into it would be a guard per value, or no graph at all).
    smoothing_tensor = not isinstance(label_smoothing, (int, float))
    z_loss_tensor = not isinstance(z_loss, (int, float))
    if not smoothing_tensor:
        label_smoothing = float(label_smoothing)
    if not z_loss_tensor:
        z_loss = float(z_loss)
    temperature = float(temperature)
    smooth = smoothing_tensor or label_smoothing > 0.0
    budget = memory_budget or 0
    # (The ops assert that every target is in [0, V) or ignore_index.)
    transformed = _functorch_transform() or _forward_ad_active()
    if transformed:
        check_compiled_transform("inductor_ce.linear_cross_entropy")
        if wide:     # (the decomposition's GEMM takes one dtype)
            linear_weight = linear_weight.to(input.dtype)
    grad = not transformed and torch.is_grad_enabled() and (
        input.requires_grad or linear_weight.requires_grad
        or (linear_bias is not None and linear_bias.requires_grad))
    # (Under torch.export the graph may run without a gradient, as it mostly does: the
    # gradient in the forward would cost it two GEMMs per call. The path below takes one,
    # and its backward recomputes the logits.)
    # float16 takes the per-row path below, whose backward has the upstream gradient (a
    # GradScaler's scale) before it rounds dz to float16: computed in the forward, at a unit
    # scale, dz = (p - y) / N underflows float16 where loss scaling exists to keep it.
    if grad and reduction != "none" and not return_lse and not exporting() and \
            input.dtype != torch.float16 and not smoothing_tensor and not z_loss_tensor:
        # A scalar loss: its gradient computed in the forward (head.py), the gradients that
        # nothing needs left out (a frozen head: one GEMM less).
        wanted = (input.requires_grad, linear_weight.requires_grad
                  or (linear_bias is not None and linear_bias.requires_grad))
        cap = ops.softcap_tensor(softcap)
        # Under torch.compile the two float options reach the op as a tensor: a float that
        # changes between calls then recompiles once (Dynamo makes it symbolic at its second
        # value, as for cross_entropy), not once per value (the schema's float is a guard).
        float_options = ()
        if torch.compiler.is_compiling() and (label_smoothing != 0.0 or z_loss != 0.0):
            # (tensor * float: Inductor keeps a symbolic float a graph input there; read
            # into a torch.tensor([...]) it would specialize it again)
            unit = torch.eye(2, dtype=torch.float64)
            float_options = (unit[0] * label_smoothing + unit[1] * z_loss,)
            label_smoothing = z_loss = 0.0
        if not full:
            return linear.linear_ce_fast(input, linear_weight, linear_bias, target, weight,
                                         ignore_index, cap, label_smoothing, z_loss,
                                         reduction == "mean", budget, 1.0, False, *wanted,
                                         *float_options)[0]
        # With the statistics of the entropy and the accuracy from the same chunks: an
        # entropy that gets a gradient costs the backward one pass over recomputed logits.
        out = linear.linear_ce_fast(input, linear_weight, linear_bias, target, weight,
                                    ignore_index, cap, label_smoothing, z_loss,
                                    reduction == "mean", budget, temperature, True, *wanted,
                                    *float_options)
        lse_nt, z_t, ent_nt, max_nt = linear.full_statistics(
            input, linear_weight, linear_bias, target, weight, *out[4:], ignore_index, cap,
            budget, temperature)
        return full_outputs(out[0], None, lse_nt, z_t, ent_nt, max_nt, target, ignore_index,
                            False, return_entropy, return_accuracy)
    # A temperature alone (no entropy, no accuracy): each chunk's compiled forward as below.
    tempered = full and not (return_entropy or return_accuracy)
    if not grad and (tempered or not full) and not transformed and not exporting() and \
            not torch.compiler.is_compiling() and compiled_path_applies(input, any_size=True):
        # Eagerly without gradient: each row chunk's loss and lse in one graph call. (Not
        # when a graph is recorded: torch.jit.trace's check re-runs the call without
        # gradient, and must record the ops the trace did.)
        loss, lse = linear.losses_without_grad(input, linear_weight, linear_bias, target,
                                               weight, ignore_index, label_smoothing, z_loss,
                                               softcap, budget,
                                               temperature if tempered else None)
        w_t = kept_weight(target != ignore_index, target, weight) if reduction == "mean" \
            else None
        lse_nt = z_t = None
        extra = (None, None)    # (full_outputs reads them for the entropy and accuracy only)
    else:
        # The per-row statistics: by the ATen decomposition (unchunked) under torch.func /
        # forward-mode AD, as cross_entropy; else the fused head's ops.
        args = (input, linear_weight, linear_bias, target, weight, ignore_index,
                softcap if transformed else ops.softcap_tensor(softcap), smooth, 0, num_classes)
        if full:
            fwd = decomposition.linear_ce_fwd_full if transformed else linear.statistics_full
            stats = fwd(*args, budget, temperature)[:5]
        elif transformed:
            stats = decomposition.linear_ce_fwd(*args, 0)[:3]
        else:
            stats = linear.statistics(*args, budget)
        lse_nt, z_t, sum_wz, *extra = stats
        loss, lse, w_t = finish(lse_nt, z_t, sum_wz, target, weight, ignore_index,
                                label_smoothing, z_loss, num_classes,
                                True if smoothing_tensor else None,
                                True if z_loss_tensor else None)
    loss = _reduce(loss, w_t, reduction, weight is not None and smooth)
    if full:
        return full_outputs(loss, lse, lse_nt, z_t, *extra, target, ignore_index, return_lse,
                            return_entropy, return_accuracy)
    return (loss, lse) if return_lse else loss


def linear_log_probs(input: Tensor, linear_weight: Tensor, target: Tensor, *,
                     linear_bias: Optional[Tensor] = None, temperature: float = 1.0,
                     ignore_index: int = -100, return_entropy: bool = False,
                     memory_budget: Optional[int] = None):
    """Per-token log-probabilities of the targets under ``softmax((input @ linear_weight.T +
    linear_bias) / temperature)``, without the logits: RL's log p(token) of a policy at its
    sampling temperature (and of a frozen reference model, under ``torch.no_grad()``: one GEMM
    and one pass per chunk, nothing saved).

    Returns float32 of ``target``'s shape, 0 at ``ignore_index``; with ``return_entropy``,
    ``(log_probs, entropy)``, the entropy of each row's tempered distribution (every row).
    Both differentiable. Equal to ``-linear_cross_entropy(..., reduction="none",
    temperature=temperature)``, and computed so."""
    out = linear_cross_entropy(input, linear_weight, target, linear_bias=linear_bias,
                               reduction="none", ignore_index=ignore_index,
                               temperature=temperature, return_entropy=return_entropy,
                               memory_budget=memory_budget)
    if return_entropy:
        return -out.loss, out.entropy
    return -out


def _check_torch_options(options) -> None:
    """``F.linear_cross_entropy``'s chunking options: accepted for its signature, not used
    (``memory_budget`` sets the chunking)."""
    if options is not None and type(options).__name__ != "LinearCrossEntropyOptions":
        raise TypeError(f"options must be None or torch's LinearCrossEntropyOptions (not used "
                        f"here: memory_budget sets the chunking), got {type(options).__name__}")


class LinearCrossEntropyLoss(nn.Module):
    """``nn.LinearCrossEntropyLoss`` counterpart (torch 2.13): owns the ``nn.Linear`` head
    (``self.linear``) and computes :func:`linear_cross_entropy` of it (float32 loss).

    Args: as torch's (``in_features``, ``num_classes``; ``bias``, ``device`` and ``dtype``
    of the ``nn.Linear``; ``out_features`` only ``()``, the class loss: else a
    NotImplementedError; ``options`` accepted and not used, as in
    :func:`linear_cross_entropy`), and that function's ``weight``, ``ignore_index``,
    ``reduction``, ``label_smoothing``, ``z_loss``, ``softcap`` and ``memory_budget``."""

    def __init__(self, in_features: int, num_classes: int, *, out_features: tuple = (),
                 bias: bool = False, device=None, dtype=None, reduction: str = "mean",
                 weight: Optional[Tensor] = None, ignore_index: Optional[int] = -100,
                 label_smoothing: float = 0.0, z_loss: float = 0.0,
                 softcap: Optional[float] = None, memory_budget: Optional[int] = None,
                 options=None):
        if tuple(out_features) != ():
            raise NotImplementedError(f"out_features={out_features!r}: inductor_ce's "
                                      "LinearCrossEntropyLoss computes the 1-D (class) loss "
                                      "only, out_features=() (torch.nn's default)")
        super().__init__()
        ignore_index = -100 if ignore_index is None else ignore_index   # (as torch's)
        check_options(ignore_index, reduction, label_smoothing, z_loss, softcap)
        check_budget(memory_budget)
        _check_torch_options(options)
        self.linear = nn.Linear(in_features, num_classes, bias=bias, device=device,
                                dtype=dtype)
        self.register_buffer("weight", weight)
        self.ignore_index, self.reduction = ignore_index, reduction
        self.label_smoothing, self.z_loss, self.softcap = label_smoothing, z_loss, softcap
        self.memory_budget = memory_budget

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return linear_cross_entropy(
            input, self.linear.weight, target, linear_bias=self.linear.bias,
            weight=self.weight, reduction=self.reduction, ignore_index=self.ignore_index,
            label_smoothing=self.label_smoothing, z_loss=self.z_loss, softcap=self.softcap,
            memory_budget=self.memory_budget)

    def extra_repr(self) -> str:
        return (f"ignore_index={self.ignore_index}, reduction={self.reduction!r}, "
                f"label_smoothing={self.label_smoothing}, z_loss={self.z_loss}, "
                f"softcap={self.softcap}, memory_budget={self.memory_budget}")
