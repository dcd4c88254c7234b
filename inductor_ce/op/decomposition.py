"""ATen decompositions of the two ops: the eager implementation (CPU and CUDA), the
implementation seen by ``torch.export(...).run_decompositions()`` and by non-Inductor
backends, and the reference the Inductor lowering is tested against.

Notation (one row i of the logits; the class dimension is the last one):

    x_j      input logits, any float dtype, loaded once and upcast to float32
    z_j      s(x_j): the softcapped logit, ``cap * tanh(x_j / cap)``, or x_j when no softcap
             (cap: the ops' 0-d tensor, or a number: the arithmetic is the same)
    t        the row's target column; a row whose target is ``ignore_index`` has none
    w_j      class weight (1 when no weight is given)

Forward statistics (shard-combinable: see ``inductor_ce.parallel``):

    lse_nt = log sum_{j != t} exp(z_j)      logsumexp over the NON-target logits; nan when
                                            one of them is +inf or nan (as the kernels)
    z_t    = z_t, or -inf when the row has no target column
    sum_wz = sum_j w_j z_j                  only when label smoothing needs it, else 0

Keeping the target out of ``lse_nt`` is what makes the loss collapse-safe: the loss is
softplus(lse_nt - z_t), which stays accurate when z_t dominates (``finish.py``).

The full form (``ce_fwd_full`` / ``ce_bwd_full``) also takes a temperature T, z_j =
s(x_j / T), and returns two more statistics of the non-target logits, from the same pass:

    ent_nt = sum_{j != t} q_j (lse_nt - z_j),  q_j = exp(z_j - lse_nt)
                                            the entropy of the non-target distribution, >= 0,
                                            computed as log S + U / S with M = max_{j != t} z_j,
                                            S = sum e_j, U = sum e_j (M - z_j), e_j = exp(z_j -
                                            M): two sums of non-negative terms, no cancellation
                                            (0 where there is no non-target mass)
    max_nt = M                              the largest non-target logit (-inf: none)

The row's entropy and whether its target is a largest logit follow in ``finish.py``. Their
gradient adds one term, e = dL/d ent_nt:

    dL/dz_j += e * q_j * (lse_nt - z_j) * [j != t]      (d ent_nt / d z_j = q_j (lse_nt - z_j
                                                        - ent_nt): the op's autograd folds
                                                        -e * ent_nt into a)

Backward: given per-row coefficients a = dL/d lse_nt, b = dL/d z_t, c = dL/d sum_wz,

    dL/dz_j = a * exp(z_j - lse_nt) * [j != t] + b * [j == t] + c * w_j
    dL/dx_j = dL/dz_j * (1 - tanh(x_j / cap)^2)     (softcap chain rule, from the tanh itself)

computed in float32 and rounded once to the input dtype.
"""
from __future__ import annotations

import math
from typing import Optional

import torch
from torch import Tensor

from .._inductor import runtime

# Eager memory bound: the decomposition materializes a few float32 temporaries of the
# chunk it works on; 2**24 elements keeps them at 64 MiB each whatever the batch.
_CHUNK_ELEMENTS = 1 << 24


def _capped_tanh(x: Tensor, softcap: Tensor, temperature: float) -> Tensor:
    """tanh(y), y = x / T / cap: the softcap's z = cap tanh(y), and its chain rule's
    1 - tanh(y)^2 from the same tanh (lowering.softcap_slope says why)."""
    y = x.float() if temperature == 1.0 else x.float() / temperature
    return torch.tanh(y / softcap)


def _tempered(x: Tensor, softcap: Optional[Tensor], temperature: float) -> Tensor:
    """z = s(x / T) in float32 (no default argument: Dynamo lifts a function's defaults as
    free variables, which it refuses inside the autograd.Function that probability targets
    trace)."""
    if softcap is not None:
        return softcap * _capped_tanh(x, softcap, temperature)
    z = x.float()
    return z if temperature == 1.0 else z / temperature


def _target_mask(z: Tensor, target: Tensor, ignore_index: int) -> Tensor:
    """[j == t] per element; all False for rows whose target is ignore_index."""
    cols = torch.arange(z.shape[-1], device=z.device)
    has_target = (target != ignore_index).unsqueeze(-1)
    return (cols == target.unsqueeze(-1)) & has_target


def _has_target(target: Tensor, ignore_index: int, num_classes: int) -> Tensor:
    """Per row: the target is a column, t in [0, V) and not ignore_index."""
    return (target != ignore_index) & (target >= 0) & (target < num_classes)


def _logsumexp(z: Tensor) -> Tensor:
    """log sum_j exp(z_j) over the last dim, written out so that its derivatives are right
    in every autograd mode (reverse, forward, vmap, higher order) and its non-finite cases
    are the lowering's:

        m = max_j z_j (a constant: the value does not depend on it), 0 when m = -inf
        s = sum_j exp(z_j - m);  lse = m + log s, or -inf when s = 0 (no mass: all -inf)

    torch.logsumexp differs twice: a +inf logit gives +inf (here inf - inf = nan, as in
    F.cross_entropy's log_softmax and in the lowering's kernels), and an all -inf row has
    derivative exp(-inf - (-inf)) = nan (here 0)."""
    m = z.detach().amax(-1, keepdim=True)
    m = torch.where(torch.isneginf(m), 0.0, m)
    s = torch.exp(z - m).sum(-1)
    empty = s == 0
    return torch.where(empty, float("-inf"), m.squeeze(-1) + torch.log(torch.where(empty, 1.0, s)))


def _chunks(n, v):
    # Symbolic sizes (export), or traced by Dynamo (which reads a symbolic size as an int: the
    # range would guard on it, compiling once per row count): one chunk.
    if torch.compiler.is_compiling() or not isinstance(n, int) or not isinstance(v, int):
        return [(0, n)]
    step = max(1, _CHUNK_ELEMENTS // max(v, 1))
    return [(s, min(s + step, n)) for s in range(0, n, step)] or [(0, 0)]


def _fwd_rows(x: Tensor, target: Tensor, weight: Optional[Tensor], ignore_index: int,
              softcap: Optional[Tensor], smooth: bool, temperature: float = 1.0,
              full: bool = False):
    z = _tempered(x, softcap, temperature)
    is_t = _target_mask(z, target, ignore_index)
    # z_t gathered: a max over the masked row would spread its derivative over ties (a -inf
    # target in a row of -inf). Python scalars, not torch.tensor(-inf): a tensor created while
    # tracing becomes a lifted constant, which export's run_decompositions rejects.
    has_t = _has_target(target, ignore_index, z.shape[-1])
    t_col = torch.where(has_t, target, 0).long().unsqueeze(-1)
    z_t = torch.where(has_t, z.gather(-1, t_col).squeeze(-1), float("-inf"))
    z_nt = torch.where(is_t, float("-inf"), z)
    lse_nt = _logsumexp(z_nt)
    if smooth:
        sum_wz = (z if weight is None else z * weight.float()).sum(-1)
    else:
        sum_wz = torch.zeros_like(z_t)
    if not full:
        return lse_nt, z_t, sum_wz
    return (lse_nt, z_t, sum_wz, *_entropy_nt(z_nt))


def _entropy_nt(z_nt: Tensor):
    """(ent_nt, max_nt) of the non-target logits (-inf at the target), see the module doc:
    ent_nt = log S + U / S, its value from the detached logits, and its derivative (under
    torch.func and forward-mode AD, which differentiate this decomposition) the module doc's

        d ent_nt / d z_j = q_j (lse_nt - z_j - ent_nt),  lse_nt - z_j = (M - z_j) + log S

    one product per column, given as a slope times z - z.detach() (which is 0): autograd of
    log S + U / S would form it as (1 / S - U / S**2 + (M - z_j) / S) e_j - e_j / S, whose
    two terms near 1 cancel where one non-target logit dominates (the dominant column's
    derivative, -U, lost under float32 rounding). A closed form has no second derivative:
    ``finish.check_entropy_order`` refuses those."""
    z = z_nt.detach()
    max_nt = z.amax(-1)
    m = torch.where(torch.isneginf(max_nt), 0.0, max_nt).unsqueeze(-1)
    e = torch.exp(z - m)
    gap = torch.where(e > 0, m - z, 0.0)          # (-inf logits: e = 0, no inf * 0)
    big_s = e.sum(-1, keepdim=True)
    empty = big_s == 0
    safe_s = torch.where(empty, 1.0, big_s)
    log_s = torch.log(safe_s)
    ent_nt = torch.where(empty, 0.0, log_s + (e * gap).sum(-1, keepdim=True) / safe_s)
    slope = torch.where(e > 0, e / safe_s * (gap + log_s - ent_nt), 0.0)
    moved = torch.where(e > 0, z_nt, 0.0)         # (-inf - -inf would be nan)
    return (ent_nt + (slope * (moved - moved.detach())).sum(-1, keepdim=True)).squeeze(-1), \
        max_nt


# (Shared by both ops and every path, the kernels' asserts included: it names no function.)
TARGET_RANGE_MSG = ("inductor_ce: target out of range: every target must be in [0, V) or "
                    "equal to ignore_index")


def check_target_range(target: Tensor, ignore_index: int, num_classes: int) -> None:
    """A device-side assert: no host synchronization on CUDA (it fails at the next sync).
    Under torch.func transforms it checks the tensor they wrap (under vmap: every sample's
    targets at once), since vmap has no batching rule for an assert."""
    if not torch.compiler.is_compiling():
        target = runtime.unwrap_functorch(target)
    ok = (target == ignore_index) | ((target >= 0) & (target < num_classes))
    runtime.assert_async(ok.all(), TARGET_RANGE_MSG)




def ce_fwd(x: Tensor, target: Tensor, weight: Optional[Tensor], ignore_index: int,
           softcap: Optional[Tensor], smooth: bool, temperature: float = 1.0,
           full: bool = False):
    """Per-row (lse_nt, z_t, sum_wz), with ``full`` also (ent_nt, max_nt), in float32, shape
    ``x.shape[:-1]``; every target must be in [0, V) or equal to ignore_index (asserted on
    the device)."""
    check_target_range(target, ignore_index, x.shape[-1])
    if x.dim() <= 1:
        return _fwd_rows(x, target, weight, ignore_index, softcap, smooth, temperature, full)
    # Chunk along dim 0 to bound the float32 temporaries (no copy of the logits: slicing
    # dim 0 of a strided view stays a view).
    rows = x.shape[0]
    per_row = math.prod(x.shape[1:])  # not x[0].numel(): there may be zero rows
    parts = [_fwd_rows(x[s:e], target[s:e], weight, ignore_index, softcap, smooth,
                       temperature, full)
             for s, e in _chunks(rows, per_row)]
    return tuple(torch.cat(p) for p in zip(*parts))


def _bwd_rows(x: Tensor, target: Tensor, weight: Optional[Tensor], lse_nt: Tensor, a: Tensor,
              b: Tensor, c: Optional[Tensor], ignore_index: int, softcap: Optional[Tensor],
              e: Optional[Tensor] = None, temperature: float = 1.0):
    t = None if softcap is None else _capped_tanh(x, softcap, temperature)
    z = _tempered(x, None, temperature) if t is None else softcap * t
    is_t = _target_mask(z, target, ignore_index)
    # A row with no non-target mass has lse_nt = -inf and all non-target z_j = -inf:
    # shifting by 0 instead keeps exp(z_j - shift) = 0 rather than exp(nan).
    shift = torch.where(torch.isneginf(lse_nt), 0.0, lse_nt).unsqueeze(-1)
    q = torch.exp(z - shift)
    g = torch.where(is_t, b.unsqueeze(-1), a.unsqueeze(-1) * q)
    if c is not None:
        g = g + c.unsqueeze(-1) * (1.0 if weight is None else weight.float())
    if e is not None:   # (q = 0 at -inf logits, where shift - z is inf: no inf * 0)
        g = g + torch.where(is_t | (q == 0), 0.0, e.unsqueeze(-1) * q * (shift - z))
    if t is not None:
        g = g * (1.0 - t * t)
    if temperature != 1.0:
        g = g / temperature
    return g.to(x.dtype)


def ce_bwd(x: Tensor, target: Tensor, weight: Optional[Tensor], lse_nt: Tensor, a: Tensor,
           b: Tensor, c: Optional[Tensor], ignore_index: int, softcap: Optional[Tensor],
           e: Optional[Tensor] = None, temperature: float = 1.0) -> Tensor:
    """dL/dx (dtype and shape of x) from the per-row coefficients a, b, c, e (module doc)."""
    if x.dim() <= 1:
        return _bwd_rows(x, target, weight, lse_nt, a, b, c, ignore_index, softcap, e,
                         temperature).contiguous()
    per_row = math.prod(x.shape[1:])
    rows = lambda v, s, t: None if v is None else v[s:t]  # noqa: E731
    parts = [_bwd_rows(x[s:t], target[s:t], weight, lse_nt[s:t], a[s:t], b[s:t],
                       rows(c, s, t), ignore_index, softcap, rows(e, s, t), temperature)
             for s, t in _chunks(x.shape[0], per_row)]
    # Dense row-major gradient whatever the logits' strides (the fake kernel promises it).
    return (torch.cat(parts) if len(parts) > 1 else parts[0]).contiguous()


# --- the fused linear + cross-entropy (inductor_ce/linear/head.py), unfused ----------------------

def _linear_logits(input, weight, bias, target, ignore_index, vocab_start):
    z = torch.nn.functional.linear(input, weight, bias)
    local = torch.where(target == ignore_index, -1, target - vocab_start)
    local = torch.where((local >= 0) & (local < weight.shape[0]), local, -1)
    return z, local


def linear_ce_fwd(input, weight, bias, target, class_weight, ignore_index, softcap, smooth,
                  vocab_start, num_classes, budget, keep=False):
    """``linear_ce_fwd`` as ATen: ``ce_fwd`` of the whole logits (export, reference). No
    logits are kept (``keep`` is an eager forward's saving of one recomputation), so the
    last output is empty."""
    check_target_range(target, ignore_index, num_classes)
    z, local = _linear_logits(input, weight, bias, target, ignore_index, vocab_start)
    stats = ce_fwd(z, local, class_weight if smooth else None, -1, softcap, smooth)
    return (*stats, input.new_empty(0))


def linear_ce_fwd_full(input, weight, bias, target, class_weight, ignore_index, softcap, smooth,
                       vocab_start, num_classes, budget, temperature, keep=False):
    """``linear_ce_fwd_full`` as ATen: ``ce_fwd_full``'s statistics of the whole logits, and
    no kept logits (as ``linear_ce_fwd``)."""
    check_target_range(target, ignore_index, num_classes)
    z, local = _linear_logits(input, weight, bias, target, ignore_index, vocab_start)
    return (*ce_fwd(z, local, class_weight if smooth else None, -1, softcap, smooth, temperature,
                    full=True), input.new_empty(0))


def linear_ce_bwd(input, weight, bias, target, class_weight, lse_nt, a, b, c, ignore_index,
                  softcap, vocab_start, budget, input_grad, weight_grad):
    """``linear_ce_bwd`` as ATen: ``ce_bwd`` of the whole logits, then the chain rule (d input
    = dz W, d weight = dz^T input, d bias = the float32 sum of dz over rows), each empty
    where not wanted."""
    z, local = _linear_logits(input, weight, bias, target, ignore_index, vocab_start)
    dz = ce_bwd(z, local, class_weight if c is not None else None, lse_nt, a, b, c, -1,
                softcap)
    dz2, h2 = dz.reshape(-1, dz.shape[-1]), input.reshape(-1, input.shape[-1])
    empty = input.new_empty(0)
    dh = (dz2 @ weight).view(input.shape) if input_grad else empty
    dw = dz2.t() @ h2 if weight_grad else empty
    db = dz2.float().sum(0) if bias is not None and weight_grad else empty.float()
    return dh, dw, db
