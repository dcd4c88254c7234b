"""Float64 references and tolerance checks shared by the tests.

Two references:

* ``reference``: the spec's definition, literally. ``F.cross_entropy`` in float64 on the same
  (already rounded) input values, softcapped in float64, plus ``z_loss * R(lse**2)`` with
  F.cross_entropy's (weighted) reduction ``R``. Accurate for ordinary logits, but float64
  F.cross_entropy collapses too once the target dominates (margin ~37 and up).
* ``collapse_safe_reference``: loss = softplus(logsumexp_{j != t} z_j - z_t) and the gradient
  written out (p_j for j != t, -sum_{j != t} p_j at t), all in float64. Exact to float64
  rounding at any margin; used by the collapse grid.

Tolerances (``assert_loss_close``, ``assert_grad_close``):

* loss: float32 arithmetic on the given input values, so ~1e-5 relative for every input dtype.
* gradient: computed in float32 and rounded ONCE to the input dtype. For float32 that is
  1e-5 relative (plus 1e-6 of the largest entry, for the entries where two fp32 terms of the
  chain rule cancel). For bfloat16/float16 it is at most half an ulp of the output dtype
  (correct rounding) plus the same float32 slack: "within one rounding".
"""
from __future__ import annotations

from typing import Optional

import torch
import torch.nn.functional as F
from torch import Tensor

LOSS_RTOL = 1e-5
GRAD_RTOL = 1e-5
GRAD_ATOL_OF_MAX = 1e-6


def softcap64(x: Tensor, softcap: Optional[float]) -> Tensor:
    z = x.double()
    return z if softcap is None else softcap * torch.tanh(z / softcap)


def reduce_like_ce(per_row: Tensor, target: Tensor, weight: Optional[Tensor], ignore_index: int,
                   reduction: str) -> Tensor:
    """F.cross_entropy's reduction of per-row values: ignored rows 0 and excluded, rows
    weighted by weight[target] and "mean" divided by the kept rows' total weight."""
    keep = target != ignore_index
    if weight is None:
        w_t = keep.double()
    else:
        w_t = torch.where(keep, weight.double()[torch.where(keep, target, 0).long()], 0.0)
    per_row = torch.where(keep, w_t * per_row, 0.0)
    if reduction == "none":
        return per_row
    if reduction == "sum":
        return per_row.sum()
    return per_row.sum() / w_t.sum()


def reference(x: Tensor, target: Tensor, weight: Optional[Tensor] = None,
              ignore_index: int = -100, reduction: str = "mean", label_smoothing: float = 0.0,
              z_loss: float = 0.0, softcap: Optional[float] = None, return_lse: bool = False):
    """The spec's value in float64, differentiable w.r.t. ``x`` (pass a float64 leaf, or any
    tensor: it is converted with ``.double()`` which keeps the graph)."""
    V = x.shape[-1]
    z = softcap64(x, softcap)
    z2, t2 = z.reshape(-1, V), target.reshape(-1).long()
    w64 = None if weight is None else weight.double()
    loss = F.cross_entropy(z2, t2, w64, ignore_index=ignore_index, reduction=reduction,
                           label_smoothing=label_smoothing)
    lse = torch.logsumexp(z2, dim=-1)
    if z_loss != 0.0:
        loss = loss + z_loss * reduce_like_ce(lse.square(), t2, weight, ignore_index, reduction)
    if reduction == "none":
        loss = loss.reshape(target.shape)
    return (loss, lse.reshape(target.shape)) if return_lse else loss


def full_reference(x: Tensor, target: Tensor, temperature: float = 1.0,
                   softcap: Optional[float] = None, ignore_index: int = -100, **options):
    """(per-row loss, entropy, accuracy) in float64 of the logits s(x / T): the loss as
    ``reference`` (reduction "none"), the entropy -sum_j p_j log p_j (entr: 0 log 0 = 0), and
    whether the target is a largest logit (False for ignored rows)."""
    z = softcap64(x.double() / temperature, softcap)
    keep = target != ignore_index
    if options:
        loss = reference(z, target, ignore_index=ignore_index, reduction="none", **options)
    else:   # collapse-safe (F.cross_entropy's float64 loss rounds to 0 from a margin of ~37)
        t = target.where(keep, 0).long()
        loss = collapse_safe_reference(z.reshape(-1, z.shape[-1]), t.reshape(-1))[0]
        loss = loss.reshape(target.shape).where(keep, 0.0)
    entropy = entropy_reference(z, target.where(keep, -1))
    z_t = z.gather(-1, target.where(keep, 0).long().unsqueeze(-1)).squeeze(-1)
    accuracy = (z_t >= z.max(-1).values) & keep
    return loss, entropy, accuracy


def entropy_reference(z: Tensor, target: Tensor) -> Tensor:
    """-sum_j p_j log p_j in float64, collapse-safe: as sum_j p_j (lse - z_j) with the target's
    lse - z_t = softplus(lse_nt - z_t) (p_t rounds to 1 in float64 from a margin of ~37, and
    entr(p_t) to 0, where its true value is about the non-target mass). target -1: none."""
    z = z.double()
    has_t = (target >= 0).unsqueeze(-1)
    cols = torch.arange(z.shape[-1], device=z.device)
    is_t = (cols == target.clamp_min(0).unsqueeze(-1)) & has_t
    lse_nt = torch.logsumexp(z.masked_fill(is_t, float("-inf")), -1, keepdim=True)
    z_t = torch.where(has_t, z.gather(-1, target.clamp_min(0).unsqueeze(-1)), float("-inf"))
    lse = torch.logaddexp(lse_nt, z_t)
    gap = torch.where(is_t, torch.nn.functional.softplus(lse_nt - z_t), lse - z)
    p = torch.exp(z - lse)
    return torch.where(p > 0, p * gap, 0.0).sum(-1)


MARGINS = [0.0, 10.0, 20.0, 30.0, 50.0, 80.0]
COLLAPSE_V = 32000


def collapse_logits(margins, dtype=torch.float32, seed=0, vocab=COLLAPSE_V):
    """One row per margin: random logits, target logit = max of the others + margin."""
    g = torch.Generator().manual_seed(seed)
    # On a 2**-10 grid, so that max + margin is exact in float32.
    z = (torch.randn(len(margins), vocab, generator=g) * 1024).round() / 1024
    z = z.to(dtype).float()
    target = torch.randint(0, vocab, (len(margins),), generator=g)
    rows = torch.arange(len(margins))
    others_max = z.scatter(1, target[:, None], float("-inf")).amax(-1)
    z[rows, target] = others_max + torch.tensor(margins)
    if dtype == torch.float32:
        assert torch.equal(z[rows, target] - others_max, torch.tensor(margins))
    return z.to(dtype), target      # bf16/fp16 round the target logit: margins approximate


def collapse_safe_reference(z: Tensor, target: Tensor):
    """Per-row loss and d(sum of per-row losses)/dz for 2-D ``z``, float64, collapse-safe."""
    z = z.double()
    rows = torch.arange(z.shape[0], device=z.device)
    is_t = torch.zeros_like(z, dtype=torch.bool)
    is_t[rows, target] = True
    z_t = z[rows, target]
    lse_nt = torch.logsumexp(z.masked_fill(is_t, float("-inf")), dim=-1)
    loss = F.softplus(lse_nt - z_t)
    lse = torch.logaddexp(lse_nt, z_t)
    p = torch.exp(z - lse[:, None]).masked_fill(is_t, 0.0)        # non-target probabilities
    grad = p.clone()
    grad[rows, target] = -p.sum(-1)                                 # -(1 - p_t), never rounded
    return loss, grad


def _err(actual: Tensor, expected: Tensor) -> Tensor:
    both_inf_same = (actual.double() == expected) & torch.isinf(expected)
    return torch.where(both_inf_same, 0.0, (actual.double() - expected).abs())


def assert_loss_close(actual: Tensor, expected: Tensor, rtol: float = LOSS_RTOL,
                      atol: float = 1e-7, msg: str = "") -> None:
    """Elementwise |actual - expected| <= rtol * |expected| + atol (float64 expected)."""
    assert actual.dtype == torch.float32, f"loss must be float32, got {actual.dtype}"
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    expected = expected.detach().double()
    assert torch.equal(torch.isnan(actual), torch.isnan(expected)), (msg, actual, expected)
    ok = torch.isnan(expected) | (_err(actual, expected) <= rtol * expected.abs() + atol)
    if not bool(ok.all()):
        rel = (_err(actual, expected) / expected.abs().clamp_min(1e-30))[~ok]
        raise AssertionError(f"{msg} loss mismatch: max rel err {rel.max().item():.3e} "
                             f"(rtol {rtol}); actual {actual[~ok][:4].tolist()} expected "
                             f"{expected[~ok][:4].tolist()}")


def ulp(x: Tensor, dtype: torch.dtype) -> Tensor:
    """Spacing of ``dtype`` numbers at |x| (the gap above |x| rounded to ``dtype``), float64."""
    r = x.abs().to(dtype)
    return (torch.nextafter(r, torch.full_like(r, float("inf"))).double() - r.double())


def ulps_error(a: Tensor, ref: Tensor) -> float:
    """Largest error of ``a`` in units of the last place of ``a.dtype`` at ``ref`` (0.5 is a
    correctly rounded result), not counting 1e-6 of max|ref| (float32 math where terms of the
    chain rule cancel)."""
    ref = ref.double()
    spacing = torch.finfo(a.dtype).eps * torch.exp2(torch.floor(torch.log2(ref.abs().clamp_min(
        torch.finfo(a.dtype).tiny))))
    err = ((a.double() - ref).abs() - 1e-6 * ref.abs().max()).clamp_min(0)
    return (err / spacing).max().item()


def grad_tolerance(expected: Tensor, dtype: torch.dtype) -> Tensor:
    expected = expected.double()
    scale = expected.abs().max() if expected.numel() else expected.new_zeros(())
    tol = GRAD_RTOL * expected.abs() + GRAD_ATOL_OF_MAX * scale
    if dtype != torch.float32:
        tol = tol + 0.5 * ulp(expected, dtype)     # one correct rounding to the output dtype
    return tol


def gemm_rounding(a: Tensor, b: Tensor) -> Tensor:
    """What a float32 GEMM's own rounding may add to ``a @ b`` (float64 operands): sqrt(K)
    unit roundoffs of |a| @ |b|, the probabilistic bound of a K-term float32 sum. (At K =
    32000, torch's own float32 product of the exact operands exceeds grad_tolerance on some
    CPUs: a float32 GEMM is no more exact than this, whoever calls it.)"""
    a, b = a.detach().double(), b.detach().double()
    return a.shape[-1] ** 0.5 * 2.0 ** -24 * (a.abs() @ b.abs())


def assert_grad_close(actual: Tensor, expected: Tensor, msg: str = "",
                      extra_tol: Tensor | None = None) -> None:
    """``actual`` within grad_tolerance of the float64 ``expected`` (plus ``extra_tol``,
    e.g. gemm_rounding where a float32 GEMM produced it)."""
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    expected = expected.detach().double()
    err = (actual.double() - expected).abs()
    tol = grad_tolerance(expected, actual.dtype)
    if extra_tol is not None:
        tol = tol + extra_tol
    bad = ~(err <= tol)
    if bool(bad.any()):
        idx = bad.nonzero()[:4].tolist()
        ratio = (err / tol.clamp_min(1e-300))[bad].max().item()
        raise AssertionError(
            f"{msg} gradient ({actual.dtype}) mismatch at {idx}: actual "
            f"{actual.double()[bad][:4].tolist()} expected {expected[bad][:4].tolist()}; "
            f"worst err/tol = {ratio:.3g}")


def assert_within_one_rounding(actual: Tensor, other: Tensor, msg: str = "") -> None:
    """Two gradients of the same dtype, both computed in float32 and rounded once (e.g. eager
    and compiled): they may sit on either side of a rounding boundary, so one ulp apart, plus
    the float32 slack."""
    assert actual.shape == other.shape and actual.dtype == other.dtype
    b = other.double()
    scale = b.abs().max() if b.numel() else b.new_zeros(())
    tol = GRAD_RTOL * b.abs() + GRAD_ATOL_OF_MAX * scale
    if actual.dtype != torch.float32:
        tol = tol + ulp(b, actual.dtype)
    err = (actual.double() - b).abs()
    assert bool((err <= tol).all()), f"{msg} max err/tol {(err / tol.clamp_min(1e-300)).max():.3g}"


def check_a_new_softcap_every_call(call, x0: Tensor, caps, check) -> None:
    """``call(x, cap)`` for each of ``caps``, eagerly, then under torch.compile (Inductor,
    fullgraph): forward and backward of a fresh leaf copy of ``x0``, then ``check(cap, loss,
    x)`` (the leaf holds its gradient). Asserts that eagerly nothing compiles after the first
    call, and that torch.compile recompiles once, at the second value (error_on_recompile from
    the third)."""
    from torch._dynamo.testing import CompileCounterWithBackend
    from inductor_ce.eager import kernels
    torch._dynamo.reset()
    counter = CompileCounterWithBackend("inductor")
    compiled = torch.compile(call, backend=counter, fullgraph=True)
    for fn in (call, compiled):
        for i, cap in enumerate(caps):
            x = x0.clone().requires_grad_()
            before = kernels.compiles
            with torch._dynamo.config.patch(error_on_recompile=fn is compiled and i >= 2):
                loss = fn(x, cap)
            loss.backward()
            if fn is call and i > 0:
                assert kernels.compiles == before, cap
            check(cap, loss, x)
    assert counter.frame_count == 2, counter.frame_count
