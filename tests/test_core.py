"""Core tests of inductor_ce: values against float64, collapse, -inf and ignored rows, property
tests, opcheck, torch.compile, torch.export and bad input. All on the CPU.

Shapes are tiny on purpose (V = 13, 24 rows): every numeric claim is checked against a float64
reference computed from the same (already rounded) input values, so small shapes lose nothing,
and they keep the ~1000-case grid fast. The one large vocabulary (V = 32000) is the collapse
grid's, where the size of the non-target mass matters. Tolerances live in ``_reference.py``.
"""
from __future__ import annotations

import functools
import re
import zlib
from unittest import mock

import pytest
import torch
import torch.nn.functional as F
from hypothesis import assume, given, strategies as st
from torch import nn
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

import inductor_ce
from inductor_ce.op import decomposition
from inductor_ce._inductor import capture
from _reference import (MARGINS, assert_grad_close, assert_loss_close, assert_within_one_rounding,
                        collapse_logits, collapse_safe_reference, reference, softcap64)

aten = torch.ops.aten
CE_FWD = torch.ops.inductor_ce.ce_fwd.default
CE_BWD = torch.ops.inductor_ce.ce_bwd.default

V = 13
DTYPES = [torch.float32, torch.bfloat16, torch.float16]
REDUCTIONS = ["mean", "sum", "none"]
# 2-D (N, V); 3-D (B, T, V); rows strided like logits[:, :-1] of a (B, T+1, V) tensor; and a
# non-contiguous class dimension (every other column of a wider tensor).
LAYOUTS = ["2d", "3d", "strided_rows", "strided_cols"]


def _gen(*key) -> torch.Generator:
    """A generator seeded from the test's parameters: every case has its own data, and the same
    data on every run."""
    return torch.Generator().manual_seed(zlib.crc32(repr(key).encode()))


def make_case(layout, dtype, ignore_index, key, scale=2.5, ignore_frac=0.25):
    """Returns (leaf, logits, target): ``logits`` is ``leaf`` itself or a view of it."""
    g = _gen(layout, dtype, ignore_index, *key)
    if layout == "2d":
        leaf = torch.randn(24, V, generator=g) * scale
        view = lambda t: t  # noqa: E731
    elif layout == "3d":
        leaf = torch.randn(4, 6, V, generator=g) * scale
        view = lambda t: t  # noqa: E731
    elif layout == "strided_rows":
        leaf = torch.randn(4, 7, V, generator=g) * scale
        view = lambda t: t[:, :-1]  # noqa: E731
    elif layout == "strided_cols":
        leaf = torch.randn(4, 6, 2 * V, generator=g) * scale
        view = lambda t: t[..., ::2]  # noqa: E731
    else:
        raise AssertionError(layout)
    leaf = leaf.to(dtype).requires_grad_()
    logits = view(leaf)
    rows = logits.shape[:-1]
    target = torch.randint(0, V, rows, generator=g)
    ignored = torch.rand(rows, generator=g) < ignore_frac
    target = torch.where(ignored, ignore_index, target)
    return leaf, logits, target


def make_weight(key, n=V):
    return torch.rand(n, generator=_gen("weight", *key)) * 1.5 + 0.25


def run_ours(logits, target, upstream=None, **kw):
    loss = inductor_ce.cross_entropy(logits, target, **kw)
    loss.backward(upstream)
    return loss


def run_reference(leaf, view, target, upstream=None, **kw):
    """float64 reference loss and d loss / d leaf, from the leaf's (rounded) values."""
    leaf64 = leaf.detach().double().requires_grad_()
    ref = reference(view(leaf64), target, **kw)
    ref.backward(None if upstream is None else upstream.double())
    return ref, leaf64.grad


def _view_of(layout):
    return {"2d": lambda t: t, "3d": lambda t: t, "strided_rows": lambda t: t[:, :-1],
            "strided_cols": lambda t: t[..., ::2]}[layout]


# --------------------------------------------------------------------------------------------
# float64 reference grid
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("softcap", [None, 5.0])
@pytest.mark.parametrize("z_loss", [0.0, 1e-2])
@pytest.mark.parametrize("weighted", [False, True], ids=["w=None", "w=rand"])
@pytest.mark.parametrize("label_smoothing", [0.0, 0.1])
@pytest.mark.parametrize("ignore_index", [-100, 3])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_matches_float64_reference(dtype, reduction, ignore_index, label_smoothing, weighted,
                                   z_loss, softcap, layout):
    key = (reduction, label_smoothing, weighted, z_loss, softcap)
    leaf, logits, target = make_case(layout, dtype, ignore_index, key)
    weight = make_weight(key) if weighted else None
    kw = dict(weight=weight, ignore_index=ignore_index, reduction=reduction,
              label_smoothing=label_smoothing, z_loss=z_loss, softcap=softcap)
    upstream = None
    if reduction == "none":
        upstream = torch.randn(target.shape, generator=_gen("up", *key))
    loss = run_ours(logits, target, upstream, **kw)
    ref, ref_grad = run_reference(leaf, _view_of(layout), target, upstream, **kw)
    assert loss.dtype == torch.float32 and loss.shape == ref.shape
    assert_loss_close(loss, ref)
    assert leaf.grad.dtype == dtype
    assert_grad_close(leaf.grad, ref_grad)


def _stock_fp32(x, target, weight, ignore_index, reduction, label_smoothing, z_loss, softcap):
    """What a user writes with stock PyTorch in float32 (the baseline error to beat)."""
    z = x.float()
    if softcap is not None:
        z = softcap * torch.tanh(z / softcap)
    z2, t2 = z.reshape(-1, z.shape[-1]), target.reshape(-1)
    loss = F.cross_entropy(z2, t2, weight, ignore_index=ignore_index, reduction=reduction,
                           label_smoothing=label_smoothing)
    if z_loss:
        keep = t2 != ignore_index
        w_t = keep.float() if weight is None else torch.where(keep, weight[t2.clamp_min(0)], 0.0)
        zl = w_t * torch.logsumexp(z2, -1).square()
        zl = {"none": zl, "sum": zl.sum(), "mean": zl.sum() / w_t.sum()}[reduction]
        loss = loss + z_loss * zl
    return loss.reshape(target.shape) if reduction == "none" else loss


@pytest.mark.parametrize("options", [
    dict(),
    dict(label_smoothing=0.1, ignore_index=3),
    dict(weighted=True, z_loss=1e-2),
    dict(weighted=True, label_smoothing=0.1, z_loss=1e-2, softcap=5.0, ignore_index=3),
], ids=["plain", "smooth", "weight+zloss", "all"])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fp32_error_at_most_pytorchs(reduction, options):
    """In float32 our error against float64 is no worse than stock PyTorch's (2x + 4 ulp)."""
    options = dict(options)
    key = ("vs-stock", reduction, tuple(sorted(options.items())))
    weight = make_weight(key) if options.pop("weighted", False) else None
    kw = dict(weight=weight, reduction=reduction, ignore_index=options.pop("ignore_index", -100),
              label_smoothing=options.pop("label_smoothing", 0.0),
              z_loss=options.pop("z_loss", 0.0), softcap=options.pop("softcap", None))
    leaf, logits, target = make_case("3d", torch.float32, kw["ignore_index"], key, scale=4.0)
    upstream = torch.randn(target.shape, generator=_gen(key)) if reduction == "none" else None
    loss = run_ours(logits, target, upstream, **kw)
    ref, ref_grad = run_reference(leaf, lambda t: t, target, upstream, **kw)
    stock_leaf = leaf.detach().clone().requires_grad_()
    stock = _stock_fp32(stock_leaf, target, **kw)
    stock.backward(upstream)

    eps = torch.finfo(torch.float32).eps
    loss_err, stock_loss_err = (loss.double() - ref).abs(), (stock.double() - ref).abs()
    assert bool((loss_err <= 2 * stock_loss_err + 4 * eps * ref.abs()).all()), (loss_err.max(),
                                                                              stock_loss_err.max())
    grad_err = (leaf.grad.double() - ref_grad).abs().max()
    stock_grad_err = (stock_leaf.grad.double() - ref_grad).abs().max()
    assert grad_err <= 2 * stock_grad_err + 4 * eps * ref_grad.abs().max(), (grad_err,
                                                                            stock_grad_err)


@pytest.mark.parametrize("path", ["decomposition", "kernels", "compiled", "soft targets"])
def test_softcap_gradient_of_saturated_logits(path, monkeypatch):
    """Logits 2-8 times a softcap of 30 (Gemma 2's): tanh nears 1 there, and 1 - tanh^2 loses
    digits in float32, on the columns that carry the most probability. Every column's
    gradient against float64, by band of x / cap, no worse than twice stock float32's error
    (1 - tanh^2 of the product z / cap, two roundings more than tanh's own, was 3-4x)."""
    from inductor_ce.eager import kernels as eager_kernels
    g = torch.Generator().manual_seed(3)
    cap = 30.0
    x = torch.rand(32, 64, generator=g) * 180.0 + 60.0
    x[:, 0] = 0.0
    target = torch.zeros(32, dtype=torch.long)
    if path != "decomposition":    # (the eager graphs, also the soft targets' kernels)
        monkeypatch.setattr(eager_kernels, "MODE", "compiled")
    if path == "soft targets":
        target = F.one_hot(target, 64).float()

    def fn(x, target):
        return inductor_ce.cross_entropy(x, target, softcap=cap, reduction="sum")
    ours = x.clone().requires_grad_()
    (torch.compile(fn, fullgraph=True) if path == "compiled" else fn)(ours, target).backward()
    stock = x.clone().requires_grad_()
    F.cross_entropy(cap * torch.tanh(stock / cap), target, reduction="sum").backward()
    ref = x.double().requires_grad_()
    F.cross_entropy(cap * torch.tanh(ref / cap), target, reduction="sum").backward()

    def band_errors(grad):
        err = (grad.double() - ref.grad).abs() / ref.grad.abs()
        return [err[(x >= lo * cap) & (x < (lo + 2) * cap)].max().item() for lo in (2, 4, 6)]
    for lo, mine, theirs in zip((2, 4, 6), band_errors(ours.grad), band_errors(stock.grad)):
        assert mine <= 2.0 * theirs, (lo, mine, theirs)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("softcap", [None, 5.0])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_return_lse(dtype, softcap, layout):
    leaf, logits, target = make_case(layout, dtype, -100, ("lse", softcap))
    loss, lse = inductor_ce.cross_entropy(logits, target, softcap=softcap, return_lse=True)
    assert lse.dtype == torch.float32 and lse.shape == target.shape
    # lse is the row's logsumexp of s(x) for every row, ignored ones included.
    expected = torch.logsumexp(softcap64(logits.detach(), softcap), dim=-1)
    assert_loss_close(lse, expected, rtol=1e-6, atol=1e-6)
    assert_loss_close(loss, reference(logits.detach(), target, softcap=softcap))
    # Like the loss, lse is differentiable: d lse / d z = softmax(z).
    lse.sum().backward()
    leaf64 = leaf.detach().double().requires_grad_()
    torch.logsumexp(softcap64(_view_of(layout)(leaf64), softcap), dim=-1).sum().backward()
    assert_grad_close(leaf.grad, leaf64.grad)


# --------------------------------------------------------------------------------------------
# Strided logits: no copy
# --------------------------------------------------------------------------------------------

_COPY_OPS = {aten.clone, aten.copy_, aten.contiguous, aten._to_copy, aten.as_strided_copy,
             aten.view_copy, aten._reshape_copy, aten.slice_copy, aten.select_copy,
             aten.index_select, aten.gather, aten.take}


class _Watch(TorchDispatchMode):
    """Records every dispatched op, and the copy-like ops reading the watched storage."""

    def __init__(self, watched: torch.Tensor):
        super().__init__()
        self.ptr = watched.untyped_storage().data_ptr()
        self.ops, self.copies = [], []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self.ops.append(func)
        if func.overloadpacket in _COPY_OPS:
            for a in tree_leaves((args, kwargs)):
                if isinstance(a, torch.Tensor) and a.untyped_storage().data_ptr() == self.ptr:
                    same_dtype = kwargs.get("dtype", a.dtype) == a.dtype
                    # An upcast of low-precision logits to float32 is the math, not a copy.
                    if func.overloadpacket is not aten._to_copy or same_dtype:
                        self.copies.append(func)
        return func(*args, **kwargs)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_strided_rows_no_copy(dtype):
    """logits[:, :-1] of a (B, T+1, V) tensor works without copying the logits, and leaves
    them untouched; the dropped time step gets exactly zero gradient."""
    key = ("nocopy",)
    big, logits, target = make_case("strided_rows", dtype, -100, key)
    assert not logits.is_contiguous() and logits.stride(-1) == 1
    before = big.detach().clone()
    weight = make_weight(key)
    kw = dict(weight=weight, label_smoothing=0.1, z_loss=1e-2, softcap=5.0)

    with _Watch(big) as top:                                       # the public API's ops
        loss = inductor_ce.cross_entropy(logits, target, **kw)
        loss.backward()
    assert top.copies == [], top.copies
    assert CE_FWD in top.ops and CE_BWD in top.ops

    # Inside the ops: the eager implementation (the decomposition) reads the view in place.
    x = logits.detach()
    with _Watch(big) as inner:
        lse_nt, z_t, sum_wz = decomposition.ce_fwd(x, target, weight, -100, 5.0, True)
        ones = torch.ones_like(lse_nt)
        decomposition.ce_bwd(x, target, weight, lse_nt, ones, ones, ones, -100, 5.0)
    assert inner.copies == [], inner.copies

    assert torch.equal(big.detach(), before)
    assert torch.all(big.grad[:, -1] == 0)
    ref, ref_grad = run_reference(big, lambda t: t[:, :-1], target, **kw)
    assert_loss_close(loss, ref)
    assert_grad_close(big.grad, ref_grad)


_SYNC_OPS = {aten._local_scalar_dense, aten.item, aten.is_nonzero, aten.nonzero,
             aten.masked_select, aten.equal}


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_no_host_sync_in_eager_path(reduction):
    """No op that needs the host to read device data (.item(), nonzero, boolean masks), in the
    public API nor inside the ops: on CUDA the whole call is asynchronous."""
    _, logits, target = make_case("strided_rows", torch.bfloat16, 3, ("sync", reduction))
    weight = make_weight(("sync",))
    kw = dict(weight=weight, ignore_index=3, reduction=reduction, label_smoothing=0.1,
              z_loss=1e-2, softcap=5.0)
    with _Watch(logits) as top:
        loss = inductor_ce.cross_entropy(logits, target, **kw)
        loss.backward(torch.ones_like(loss))
    x = logits.detach()
    with _Watch(logits) as inner:
        lse_nt, *_ = decomposition.ce_fwd(x, target, weight, 3, 5.0, True)
        decomposition.ce_bwd(x, target, weight, lse_nt, lse_nt, lse_nt, lse_nt, 3, 5.0)
    syncs = [op for op in top.ops + inner.ops if op.overloadpacket in _SYNC_OPS]
    assert syncs == []


# --------------------------------------------------------------------------------------------
# Collapse: the target dominates
# --------------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _collapse_results(dtype):
    z, target = collapse_logits(MARGINS, dtype)
    x = z.clone().requires_grad_()
    loss = inductor_ce.cross_entropy(x, target, reduction="none")
    loss.sum().backward()
    ref_loss, ref_grad = collapse_safe_reference(z, target)
    return target, loss.detach(), x.grad, ref_loss, ref_grad


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("i", range(len(MARGINS)), ids=[f"margin={m:g}" for m in MARGINS])
def test_collapse_grid(i, dtype):
    """Acceptance: V = 32000, target = max of the others + margin: loss, target gradient and
    the whole row within 1e-5 relative of a collapse-safe float64 reference (float32 logits;
    for bf16/fp16 logits the gradient is additionally rounded once to the input dtype)."""
    target, loss, grad, ref_loss, ref_grad = _collapse_results(dtype)
    t = target[i]
    assert ref_loss[i] > 0 and ref_grad[i, t] < 0          # the exact values never vanish
    assert_loss_close(loss[i], ref_loss[i], rtol=1e-5, atol=0.0)
    tiny = torch.finfo(torch.float32).tiny                  # float32 subnormals: absolute
    if dtype == torch.float32:
        err = (grad[i].double() - ref_grad[i]).abs()
        assert err[t] <= 1e-5 * ref_grad[i, t].abs(), (grad[i, t], ref_grad[i, t])
        bad = ~(err <= 1e-5 * ref_grad[i].abs() + tiny)
        assert not bool(bad.any()), (bad.nonzero()[:4], grad[i][bad][:4], ref_grad[i][bad][:4])
    else:
        assert_grad_close(grad[i:i + 1], ref_grad[i:i + 1])
        if ref_grad[i, t].abs() > 100 * torch.finfo(dtype).tiny:
            assert grad[i, t] != 0


@pytest.mark.parametrize("margin", [25.0, 30.0, 50.0, 80.0])
def test_stock_pytorch_collapses(margin):
    """Documents the problem: stock float32 F.cross_entropy returns exactly 0 loss and 0 target
    gradient from margin 25 on (and float64 F.cross_entropy too, further out), which is why the
    collapse grid needs a collapse-safe float64 reference."""
    z, target = collapse_logits([margin])
    x = z.clone().requires_grad_()
    loss = F.cross_entropy(x, target)
    loss.backward()
    assert loss.item() == 0.0 and x.grad[0, target[0]].item() == 0.0
    ours = inductor_ce.cross_entropy(z, target)
    ref_loss, _ = collapse_safe_reference(z, target)
    assert ours.item() > 0 and abs(ours.item() - ref_loss.item()) <= 1e-5 * ref_loss.item()
    if margin >= 50:
        assert F.cross_entropy(z.double(), target).item() == 0.0


# --------------------------------------------------------------------------------------------
# -inf logits and ignored rows
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("softcap", [None, 5.0])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_masked_vocabulary(dtype, softcap, reduction):
    """-inf logits (masked classes) give a finite loss and gradient wherever the target's logit
    is finite; masked classes get exactly 0 gradient."""
    key = ("masked", softcap, reduction)
    leaf, logits, target = make_case("2d", dtype, -100, key)
    g = _gen(*key)
    mask = torch.rand(leaf.shape, generator=g) < 0.4
    mask[torch.arange(leaf.shape[0]), target.clamp_min(0)] = False   # target stays finite
    mask[0, :] = True                                        # ...and one row masked but its
    mask[0, target[0].clamp_min(0)] = False                  # target: loss exactly 0 there
    target[0] = target[0].clamp_min(0)
    leaf = leaf.detach().masked_fill(mask, float("-inf")).requires_grad_()
    weight = make_weight(key)
    kw = dict(weight=weight, reduction=reduction, z_loss=1e-2, softcap=softcap, ignore_index=-100)
    upstream = torch.randn(target.shape, generator=g) if reduction == "none" else None
    loss = run_ours(leaf, target, upstream, **kw)
    ref, ref_grad = run_reference(leaf, lambda t: t, target, upstream, **kw)
    assert torch.isfinite(loss).all() and torch.isfinite(leaf.grad).all()
    assert_loss_close(loss, ref)
    assert_grad_close(leaf.grad, ref_grad)
    assert torch.all(leaf.grad[mask] == 0)
    if reduction == "none" and softcap is None:
        # Row 0: only the target is finite: p_t = 1 exactly, loss = z-loss term only.
        expected0 = 1e-2 * weight[target[0]].double() * leaf[0, target[0]].double() ** 2
        assert_loss_close(loss[0], expected0)


def test_masked_vocabulary_with_label_smoothing_is_inf_like_pytorch():
    """Label smoothing puts weight on every class, so a masked (-inf) class makes the true loss
    +inf: we return +inf like F.cross_entropy, and the same (finite) gradient."""
    x = torch.randn(3, 5, generator=_gen("ls-inf"))
    x[:, 2] = float("-inf")
    target = torch.tensor([0, 1, 3])
    leaf = x.clone().requires_grad_()
    loss = run_ours(leaf, target, label_smoothing=0.1)
    ref, ref_grad = run_reference(x, lambda t: t, target, label_smoothing=0.1)
    assert loss.item() == float("inf") and ref.item() == float("inf")
    assert_grad_close(leaf.grad, ref_grad)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("ignore_index", [-100, 3])
def test_ignored_rows_exactly_zero(dtype, ignore_index):
    """Ignored rows contribute exactly 0 loss and get exactly 0 gradient, with every option on,
    also when all their logits are -inf (or huge)."""
    key = ("ignored", ignore_index)
    leaf, logits, target = make_case("2d", dtype, ignore_index, key, ignore_frac=0.5)
    target[0] = target[1] = target[2] = ignore_index
    leaf = leaf.detach()
    leaf[0] = float("-inf")
    leaf[1] = torch.finfo(dtype).max
    leaf[2, : V // 2] = float("-inf")
    leaf.requires_grad_()
    ignored = target == ignore_index
    weight = make_weight(key)
    kw = dict(weight=weight, ignore_index=ignore_index, label_smoothing=0.1, z_loss=1e-2,
              softcap=5.0)
    upstream = torch.randn(target.shape, generator=_gen(*key))
    loss = run_ours(leaf, target, upstream, reduction="none", **kw)
    assert torch.all(loss[ignored] == 0) and torch.isfinite(loss).all()
    assert torch.all(leaf.grad[ignored] == 0) and torch.isfinite(leaf.grad).all()
    # The kept rows are still right.
    ref, ref_grad = run_reference(leaf, lambda t: t, target, upstream, reduction="none", **kw)
    assert_loss_close(loss, ref)
    assert_grad_close(leaf.grad, ref_grad)
    # And "sum" / "mean" see only the kept rows.
    for reduction in ("sum", "mean"):
        leaf.grad = None
        loss = run_ours(leaf, target, reduction=reduction, **kw)
        ref, ref_grad = run_reference(leaf, lambda t: t, target, reduction=reduction, **kw)
        assert_loss_close(loss, ref)
        assert torch.all(leaf.grad[ignored] == 0)
        assert_grad_close(leaf.grad, ref_grad)


@pytest.mark.parametrize("options", [dict(), dict(weighted=True, label_smoothing=0.1,
                                                  z_loss=1e-2, softcap=5.0)],
                         ids=["plain", "all"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_all_rows_ignored(dtype, options):
    """"mean" over zero kept rows is nan (0/0, as PyTorch), "sum" is 0, "none" all zeros; the
    gradient is exactly 0 in every case (as PyTorch's)."""
    options = dict(options)
    weight = make_weight(("allign",)) if options.pop("weighted", False) else None
    x = torch.randn(5, V, generator=_gen("allign")).to(dtype)
    x[0] = float("-inf")
    target = torch.full((5,), -100)
    for reduction in REDUCTIONS:
        leaf = x.clone().requires_grad_()
        loss = inductor_ce.cross_entropy(leaf, target, weight, reduction=reduction, **options)
        if reduction == "none":
            assert torch.equal(loss, torch.zeros(5))
        else:
            assert loss.dtype == torch.float32 and loss.shape == ()
            if reduction == "mean":
                assert loss.isnan().item()
            else:
                assert loss.item() == 0.0
            stock = F.cross_entropy(x.double(), target, None if weight is None else
                                    weight.double(), reduction=reduction)
            assert stock.isnan().item() == loss.isnan().item()
        loss.backward(torch.ones_like(loss))
        assert torch.equal(leaf.grad, torch.zeros_like(leaf)), reduction


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_single_class(dtype):
    """V = 1: the only class has probability 1: loss 0 and gradient exactly 0, except for the
    z-loss term z_loss * x**2."""
    x = torch.randn(7, 1, generator=_gen("v1")).to(dtype)
    target = torch.zeros(7, dtype=torch.long)
    target[3] = -100
    for kw in (dict(), dict(label_smoothing=0.3, weight=torch.tensor([2.0]))):
        leaf = x.clone().requires_grad_()
        loss = run_ours(leaf, target, torch.ones(7), reduction="none", **kw)
        assert torch.equal(loss, torch.zeros(7)) and torch.equal(leaf.grad, torch.zeros_like(x))
    leaf = x.clone().requires_grad_()
    loss = run_ours(leaf, target, reduction="sum", z_loss=0.5, softcap=2.0)
    ref, ref_grad = run_reference(x, lambda t: t, target, reduction="sum", z_loss=0.5,
                                  softcap=2.0)
    assert_loss_close(loss, ref)
    assert_grad_close(leaf.grad, ref_grad)


# --------------------------------------------------------------------------------------------
# Property tests (hypothesis)
# --------------------------------------------------------------------------------------------

@st.composite
def cases(draw, dtypes=tuple(DTYPES)):
    lead = tuple(draw(st.lists(st.integers(0, 4), min_size=0, max_size=3)))
    v = draw(st.integers(1, 40))
    dtype = draw(st.sampled_from(dtypes))
    seed = draw(st.integers(0, 2**31 - 1))
    g = torch.Generator().manual_seed(seed)
    scale = draw(st.sampled_from([0.1, 1.0, 3.0, 10.0]))
    x = (torch.randn(*lead, v, generator=g) * scale).to(dtype)
    ignore_index = draw(st.sampled_from([-100, -1, 0, v - 1]))
    target = torch.randint(0, v, lead, generator=g)
    ignore_frac = draw(st.sampled_from([0.0, 0.3, 1.0]))
    target = torch.where(torch.rand(lead, generator=g) < ignore_frac, ignore_index, target)
    weight = None
    if draw(st.booleans()):
        weight = torch.rand(v, generator=g) * 2 + 0.1
    kw = dict(weight=weight, ignore_index=ignore_index,
              reduction=draw(st.sampled_from(REDUCTIONS)),
              label_smoothing=draw(st.sampled_from([0.0, 0.05, 0.5, 1.0])),
              z_loss=draw(st.sampled_from([0.0, 1e-4, 0.1])),
              softcap=draw(st.sampled_from([None, 1.0, 30.0])))
    return x, target, kw


def check_against_reference(x, target, kw, upstream_seed=0):
    leaf = x.clone().requires_grad_()
    upstream = None
    if kw["reduction"] == "none":
        upstream = torch.randn(target.shape, generator=torch.Generator().manual_seed(upstream_seed))
    loss = run_ours(leaf, target, upstream, **kw)
    ref, ref_grad = run_reference(x, lambda t: t, target, upstream, **kw)
    assert_loss_close(loss, ref)
    assert_grad_close(leaf.grad, ref_grad)
    return loss, leaf.grad


@given(cases())
def test_property_shapes_and_options(case):
    x, target, kw = case
    check_against_reference(x, target, kw)


@given(cases(dtypes=(torch.float32,)), st.sampled_from(["first", "last"]))
def test_property_first_or_last_class_target(case, which):
    x, target, kw = case
    v = x.shape[-1]
    cls = 0 if which == "first" else v - 1
    target = torch.where(target == kw["ignore_index"], target, cls)
    if cls == kw["ignore_index"]:
        kw["ignore_index"] = -100
    check_against_reference(x, target, kw)


@given(cases(dtypes=(torch.float32,)), st.integers(-32, 32))
def test_property_shift_invariance(case, shift):
    """loss(x + c) = loss(x) without softcap and z-loss (both depend on the logits' level).
    The logits are put on a 2**-10 grid so that x + c is exact in float32: what remains is our
    float32 rounding at magnitude |c|, a few ulp(|c|) absolute."""
    x, target, kw = case
    kw.update(softcap=None, z_loss=0.0)
    x = (x * 1024).round() / 1024
    assume(bool((x + shift - shift == x).all()))
    loss0, grad0 = check_against_reference(x, target, kw)
    loss1, grad1 = check_against_reference(x + shift, target, kw)
    x_max = x.abs().max().item() if x.numel() else 0.0
    ulp_c = torch.finfo(torch.float32).eps * (abs(shift) + x_max + 1.0)
    n_rows = max(1, target.numel())
    assert_loss_close(loss1, loss0.double(), rtol=1e-5, atol=4 * ulp_c * n_rows)
    assert_grad_close(grad1, grad0.double())


# --------------------------------------------------------------------------------------------
# torch.library.opcheck
# --------------------------------------------------------------------------------------------

OPCHECK_OPTIONS = [
    dict(weighted=False, softcap=None, smooth=False),
    dict(weighted=True, softcap=None, smooth=True),
    dict(weighted=False, softcap=torch.tensor(5.0), smooth=False),
    dict(weighted=True, softcap=torch.tensor(5.0), smooth=True),
]
OPCHECK_IDS = ["plain", "weight+smooth", "softcap", "all"]


def _opcheck_inputs(dtype, layout, options, key):
    _, logits, target = make_case(layout, dtype, 3, key)
    weight = make_weight(key) if options["weighted"] else None
    return logits.detach(), target, weight


@pytest.mark.parametrize("layout", ["2d", "strided_rows"])
@pytest.mark.parametrize("options", OPCHECK_OPTIONS, ids=OPCHECK_IDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_opcheck_ce_fwd(dtype, options, layout):
    x, target, weight = _opcheck_inputs(dtype, layout, options, ("opcheck-fwd",))
    x.requires_grad_()
    torch.library.opcheck(CE_FWD, (x, target, weight, 3, options["softcap"], options["smooth"]))


@pytest.mark.parametrize("layout", ["2d", "strided_rows"])
@pytest.mark.parametrize("options", OPCHECK_OPTIONS, ids=OPCHECK_IDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_opcheck_ce_bwd(dtype, options, layout):
    key = ("opcheck-bwd",)
    x, target, weight = _opcheck_inputs(dtype, layout, options, key)
    lse_nt, _, _ = CE_FWD(x, target, weight, 3, options["softcap"], options["smooth"])
    g = _gen(*key)
    a, b, c = (torch.randn(lse_nt.shape, generator=g) for _ in range(3))
    c = c if options["smooth"] else None
    torch.library.opcheck(CE_BWD, (x, target, weight, lse_nt, a, b, c, 3, options["softcap"]))


def test_ops_schema():
    for op in (CE_FWD, CE_BWD):
        assert not op._schema.is_mutable
        assert all(a.alias_info is None for a in op._schema.arguments)


# --------------------------------------------------------------------------------------------
# torch.compile
# --------------------------------------------------------------------------------------------

COMPILE_CONFIGS = {
    "plain": dict(),
    "all": dict(ignore_index=3, reduction="none", label_smoothing=0.1, z_loss=1e-2, softcap=5.0,
                return_lse=True),
}


@functools.lru_cache(maxsize=None)
def _compiled(backend, config, dynamic=None, tag=""):
    """One compiled function per (backend, config, dynamic, tag), shared by the tests using it
    (torch.compile is slow on this CPU). Dynamo keeps its cache and recompile count on the
    code object, so each gets its own copy of the code: they never see each other's graphs."""
    kw = COMPILE_CONFIGS[config]

    def fn(x, target, weight):
        return inductor_ce.cross_entropy(x, target, weight, **kw)

    name = f"ce_{backend}_{config}_{'dyn' if dynamic else 'static'}{tag}"
    fn.__code__ = fn.__code__.replace(co_name=name)
    return torch.compile(fn, backend=backend, fullgraph=True, dynamic=dynamic)


def _loss_of(out):
    return out[0] if isinstance(out, tuple) else out


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
@pytest.mark.parametrize("config", list(COMPILE_CONFIGS))
@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compile_matches_eager(backend, config, dtype):
    """fullgraph=True: no graph break, hence no .item()/host sync in the traced code. The
    compiled loss and gradient satisfy the same float64 tolerances as eager, and match eager."""
    kw = COMPILE_CONFIGS[config]
    layout = "strided_rows" if config == "all" else "2d"
    key = ("compile", config)
    leaf, logits, target = make_case(layout, dtype, kw.get("ignore_index", -100), key)
    weight = make_weight(key) if config == "all" else None
    upstream = torch.randn(target.shape, generator=_gen(*key)) if config == "all" else None

    out = _compiled(backend, config)(logits, target, weight)
    _loss_of(out).backward(upstream)
    grad, leaf.grad = leaf.grad, None
    eager = inductor_ce.cross_entropy(logits, target, weight, **kw)
    _loss_of(eager).backward(upstream)

    ref_kw = {k: v for k, v in kw.items() if k != "return_lse"}
    ref, ref_grad = run_reference(leaf, _view_of(layout), target, upstream, weight=weight,
                                  **ref_kw)
    assert_loss_close(_loss_of(out), ref)
    assert_grad_close(grad, ref_grad)
    # Both are float32 math, possibly in different orders: equal to float32 accuracy.
    torch.testing.assert_close(_loss_of(out), _loss_of(eager), rtol=1e-5, atol=1e-6)
    if isinstance(out, tuple):
        torch.testing.assert_close(out[1], eager[1], rtol=1e-5, atol=1e-6)
    assert_within_one_rounding(grad, leaf.grad)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compile_dynamic_one_graph_many_row_counts(backend):
    """dynamic=True: one compile serves many row counts (a recompile raises)."""
    fn = _compiled(backend, "all", dynamic=True)
    weight = make_weight(("dyn",))
    kw = {k: v for k, v in COMPILE_CONFIGS["all"].items() if k != "return_lse"}
    with mock.patch.object(torch._dynamo.config, "error_on_recompile", True):
        for rows in (3, 5, 8, 17):
            g = _gen("dyn", rows)
            x = torch.randn(rows, V, generator=g).requires_grad_()
            target = torch.randint(0, V, (rows,), generator=g)
            target[0] = 3
            upstream = torch.randn(rows, generator=g)
            loss, lse = fn(x, target, weight)
            loss.backward(upstream)
            ref, ref_grad = run_reference(x, lambda t: t, target, upstream, weight=weight, **kw)
            assert_loss_close(loss, ref)
            assert_grad_close(x.grad, ref_grad)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compile_target_out_of_range_raises(backend):
    """The op's own check; under Inductor's C++ backend an `any` over the rows, asserted on
    the host after the kernel (a throw inside its OpenMP region would end the process): 4096
    rows run in parallel. Small row counts: tests/test_reliability.py, in a subprocess."""
    fn = _compiled(backend, "plain", tag="_range")
    x = torch.randn(4096, V)
    target = torch.randint(0, V, (4096,))
    assert torch.isfinite(fn(x, target, None))
    target[3001] = V
    with pytest.raises(RuntimeError, match="target out of range"):
        fn(x, target, None)


def test_compile_guards_read_no_module_data():
    """Dynamo re-checks on every call each global that the traced path reads, about 0.1 us apiece
    (benchmarks/NOTES.md, run 29), and a step of few rows is bound by the host. So the path
    through cross_entropy reads code, ops and one constant from our modules: no torch.* (the
    math uses tensor methods), no module-level tuples (literals instead), and no Python alias
    guard (`type(input) is Tensor` would add one: Dynamo reaches torch.Tensor two ways)."""
    def fn(x, target):
        return inductor_ce.cross_entropy(x, target)

    torch.compile(fn, backend="eager", fullgraph=True)(torch.randn(4, V, requires_grad=True),
                                                       torch.randint(0, V, (4,)))
    ours = [line for line in capture.guards_of(fn).splitlines()
            if "_MATCH" in line or "LENGTH_CHECK" in line or "LAMBDA_GUARD" in line]
    ours = [line for line in ours if "inductor_ce_dot_" in line or "LAMBDA_GUARD" in line]
    assert ours, "no guard on our modules at all: the test no longer sees them"
    for line in ours:
        assert "LAMBDA_GUARD" not in line or "top_saved_tensors_hooks" in line, line
        assert not re.search(r"inductor_ce_dot_\w+'\]\.torch\b", line), line
        assert "TYPE_MATCH" not in line and "LENGTH_CHECK" not in line, line


# --------------------------------------------------------------------------------------------
# torch.export
# --------------------------------------------------------------------------------------------

class _LMLoss(nn.Module):
    """Next-token loss of an LM head: logits[:, :-1] against tokens[:, 1:], a strided view."""

    def __init__(self, weight):
        super().__init__()
        self.loss = inductor_ce.CrossEntropyLoss(weight, ignore_index=3, label_smoothing=0.1,
                                                 z_loss=1e-2, softcap=5.0)

    def forward(self, logits, tokens):
        return self.loss(logits[:, :-1], tokens[:, 1:])


def _count(gm, op):
    return sum(1 for n in gm.graph.nodes if n.op == "call_function" and n.target == op)


def test_export_keeps_one_op_node_and_decomposes_on_request():
    g = _gen("export")
    weight = make_weight(("export",))
    model = _LMLoss(weight)
    logits = torch.randn(3, 7, V, generator=g)
    tokens = torch.randint(0, V, (3, 7), generator=g)
    batch = torch.export.Dim("batch", min=2, max=64)
    ep = torch.export.export(model, (logits, tokens),
                             dynamic_shapes={"logits": {0: batch}, "tokens": {0: batch}})
    assert _count(ep.graph_module, CE_FWD) == 1
    assert _count(ep.run_decompositions().graph_module, CE_FWD) == 1

    table = torch.export.default_decompositions()
    table[CE_FWD] = decomposition.ce_fwd
    lowered = ep.run_decompositions(table)
    assert _count(lowered.graph_module, CE_FWD) == 0
    targets = {n.target for n in lowered.graph_module.graph.nodes if n.op == "call_function"}
    assert all(getattr(t, "namespace", "aten") != "inductor_ce" for t in targets), targets

    kw = dict(weight=weight, ignore_index=3, label_smoothing=0.1, z_loss=1e-2, softcap=5.0)
    for b in (3, 5):
        x = torch.randn(b, 7, V, generator=g)
        t = torch.randint(0, V, (b, 7), generator=g)
        ref = reference(x[:, :-1], t[:, 1:], **kw)
        for program in (ep, lowered):
            assert_loss_close(program.module()(x, t), ref)


# --------------------------------------------------------------------------------------------
# Module
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_module_matches_functional(reduction):
    key = ("module", reduction)
    _, logits, target = make_case("3d", torch.bfloat16, 3, key)
    weight = make_weight(key)
    kw = dict(ignore_index=3, reduction=reduction, label_smoothing=0.1)
    opts = dict(z_loss=1e-2, softcap=5.0)
    module = inductor_ce.CrossEntropyLoss(weight, **kw, **opts)
    assert isinstance(module, nn.Module)
    assert torch.equal(module.state_dict()["weight"], weight)
    assert "reduction='%s'" % reduction in repr(module)
    out = module(logits, target)
    assert torch.equal(out, inductor_ce.cross_entropy(logits, target, weight, **kw, **opts))
    assert_loss_close(out, reference(logits.detach(), target, weight, **kw, **opts))
    # Defaults are F.cross_entropy's.
    plain = inductor_ce.CrossEntropyLoss()(logits, target.clamp_min(0))
    assert_loss_close(plain, F.cross_entropy(logits.detach().double().reshape(-1, V),
                                             target.clamp_min(0).reshape(-1)))


def test_int32_target():
    _, logits, target = make_case("3d", torch.float32, -100, ("int32",))
    a = inductor_ce.cross_entropy(logits, target)
    b = inductor_ce.cross_entropy(logits, target.int())
    assert torch.equal(a, b)


def test_byte_target():
    """uint8 class indices, which F.cross_entropy takes as it takes int64 ones: the same loss
    and gradient as int64, eagerly (twice: a second call takes no kept path with the Byte
    target), under torch.compile and through the fused head; an out-of-range Byte target
    raises as any."""
    _, logits, target = make_case("2d", torch.float32, 3, ("byte",))
    ref_leaf = logits.detach().clone().requires_grad_()
    ref = inductor_ce.cross_entropy(ref_leaf, target, ignore_index=3, reduction="none")
    ref.sum().backward()
    byte = target.to(torch.uint8)
    compiled = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, ignore_index=3,
                                                                    reduction="none"),
                             backend="aot_eager", fullgraph=True)
    for fn in (lambda x, t: inductor_ce.cross_entropy(x, t, ignore_index=3, reduction="none"),
               ) * 2 + (compiled,):
        leaf = logits.detach().clone().requires_grad_()
        loss = fn(leaf, byte)
        loss.sum().backward()
        assert torch.equal(loss, ref) and torch.equal(leaf.grad, ref_leaf.grad)
    h, w = torch.randn(target.numel(), 8), torch.randn(V, 8)
    assert torch.equal(inductor_ce.linear_cross_entropy(h, w, byte, ignore_index=3),
                       inductor_ce.linear_cross_entropy(h, w, target, ignore_index=3))
    with pytest.raises(RuntimeError, match="target out of range"):
        inductor_ce.cross_entropy(logits, torch.full_like(byte, V))


# --------------------------------------------------------------------------------------------
# Bad input: a clear exception, never a silently wrong number
# --------------------------------------------------------------------------------------------

def _x(dtype=torch.float32, shape=(4, V)):
    return torch.randn(shape).to(dtype)


@pytest.mark.parametrize("bad_target,ignore_index", [(V, -100), (-1, -100), (-100, 3),
                                                      (V + 5, 3)])
def test_target_out_of_range(bad_target, ignore_index):
    target = torch.tensor([0, 1, bad_target, 2])
    with pytest.raises(RuntimeError, match="target out of range"):
        inductor_ce.cross_entropy(_x(), target, ignore_index=ignore_index)


@pytest.mark.parametrize("call,exc,match", [
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(5, dtype=torch.long)),
     ValueError, "target must have shape"),
    (lambda: inductor_ce.cross_entropy(_x(shape=(2, 3, V)), torch.zeros(6, dtype=torch.long)),
     ValueError, "target must have shape"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4)), TypeError, "target must be"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.int16)),
     TypeError, "target must be"),
    (lambda: inductor_ce.cross_entropy(torch.zeros(4, V, dtype=torch.long),
                                       torch.zeros(4, dtype=torch.long)),
     TypeError, "input must be"),
    (lambda: inductor_ce.cross_entropy(_x(torch.float64), torch.zeros(4, dtype=torch.long)),
     TypeError, "input must be"),
    (lambda: inductor_ce.cross_entropy(torch.tensor(1.0), torch.tensor(0)),
     ValueError, "input must have shape"),
    (lambda: inductor_ce.cross_entropy(torch.zeros(4, 0), torch.zeros(4, dtype=torch.long)),
     ValueError, "input must have shape"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long), torch.ones(V + 1)),
     ValueError, "weight must have shape"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long), torch.ones(1, V)),
     ValueError, "weight must have shape"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long),
                                       torch.ones(V, dtype=torch.long)),
     TypeError, "weight must be a floating-point"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long),
                                       torch.ones(V, requires_grad=True)),
     ValueError, "weight is not supported"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long),
                                       label_smoothing=-0.1),
     ValueError, "label_smoothing"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long),
                                       label_smoothing=1.5),
     ValueError, "label_smoothing"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long), reduction="avg"),
     ValueError, "reduction must be one of"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long), softcap=0.0),
     ValueError, "softcap"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long), softcap=-1.0),
     ValueError, "softcap"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long),
                                       softcap=float("nan")),
     ValueError, "softcap"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long), z_loss=-1e-3),
     ValueError, "z_loss"),
    (lambda: inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long), ignore_index=1.0),
     TypeError, "ignore_index"),
    (lambda: inductor_ce.CrossEntropyLoss(reduction="avg"), ValueError, "reduction"),
    (lambda: inductor_ce.CrossEntropyLoss(softcap=0), ValueError, "softcap"),
    (lambda: inductor_ce.CrossEntropyLoss(label_smoothing=2.0), ValueError, "label_smoothing"),
    (lambda: inductor_ce.CrossEntropyLoss(z_loss=-1.0), ValueError, "z_loss"),
], ids=["target-shape", "target-shape-3d", "target-float", "target-int16", "input-int",
        "input-float64", "input-0d", "input-V0", "weight-shape", "weight-2d", "weight-int",
        "weight-requires-grad", "smoothing-neg", "smoothing-gt1",
        "reduction", "softcap-0", "softcap-neg", "softcap-nan", "zloss-neg",
        "ignore-index-float", "module-reduction", "module-softcap", "module-smoothing",
        "module-zloss"])
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_weight_requiring_grad_allowed_under_no_grad():
    w = torch.ones(V, requires_grad=True)
    with torch.no_grad():
        out = inductor_ce.cross_entropy(_x(), torch.zeros(4, dtype=torch.long), w)
    assert torch.isfinite(out)


# --------------------------------------------------------------------------------------------
# CUDA (marked gpu: skipped without a GPU; CI is CPU-only)
# --------------------------------------------------------------------------------------------

def _cuda_case(layout, dtype, reduction, key):
    leaf, _, target = make_case(layout, dtype, 3, key)
    weight = make_weight(key)
    kw = dict(weight=weight, ignore_index=3, reduction=reduction, label_smoothing=0.1,
              z_loss=1e-2, softcap=5.0)
    upstream = torch.randn(target.shape, generator=_gen(*key)) if reduction == "none" else None
    return leaf.detach(), target, kw, upstream


def _to_cuda(kw):
    return {k: (v.cuda() if isinstance(v, torch.Tensor) else v) for k, v in kw.items()}


@pytest.mark.gpu
@pytest.mark.parametrize("layout", ["3d", "strided_rows"])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_cuda_matches_reference_without_host_sync(dtype, reduction, layout):
    """On CUDA: same float64 tolerances, and not a single synchronizing op in forward and
    backward (torch.cuda.set_sync_debug_mode("error") raises on any)."""
    leaf_cpu, target, kw, upstream = _cuda_case(layout, dtype, reduction, ("cuda", reduction))
    leaf = leaf_cpu.cuda().requires_grad_()
    args = (_view_of(layout)(leaf), target.cuda())
    up = None if upstream is None else upstream.cuda()
    kw_cuda = _to_cuda(kw)
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        loss = inductor_ce.cross_entropy(*args, **kw_cuda)
        loss.backward(up)
    finally:
        torch.cuda.set_sync_debug_mode("default")
    ref, ref_grad = run_reference(leaf_cpu, _view_of(layout), target, upstream, **kw)
    assert_loss_close(loss.cpu(), ref)
    assert_grad_close(leaf.grad.cpu(), ref_grad)


@pytest.mark.gpu
def test_cuda_collapse_grid():
    z, target = collapse_logits(MARGINS)
    x = z.cuda().requires_grad_()
    loss = inductor_ce.cross_entropy(x, target.cuda(), reduction="none")
    loss.sum().backward()
    ref_loss, ref_grad = collapse_safe_reference(z, target)
    assert_loss_close(loss.cpu(), ref_loss, rtol=1e-5, atol=0.0)
    err = (x.grad.cpu().double() - ref_grad).abs()
    assert bool((err <= 1e-5 * ref_grad.abs() + torch.finfo(torch.float32).tiny).all())


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_cuda_compile_inductor(dtype):
    leaf_cpu, target, kw, upstream = _cuda_case("strided_rows", dtype, "none", ("cuda-compile",))
    leaf = leaf_cpu.cuda().requires_grad_()
    fn = _compiled("inductor", "all", tag="_cuda")
    loss, lse = fn(leaf[:, :-1], target.cuda(), kw["weight"].cuda())
    loss.backward(upstream.cuda())
    ref, ref_grad = run_reference(leaf_cpu, _view_of("strided_rows"), target, upstream, **kw)
    assert_loss_close(loss.cpu(), ref)
    assert_grad_close(leaf.grad.cpu(), ref_grad)


@pytest.mark.gpu
@pytest.mark.parametrize("weighted", [False, True], ids=["", "weight"])
@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_cuda_target_out_of_range_is_a_device_side_assert(compiled, weighted):
    """A bad target fails a device-side assert, with no host sync of its own (under
    set_sync_debug_mode("error") the failure is the assert, not a sync error). It poisons the
    CUDA context, hence a subprocess. The assert fires asynchronously: it may surface at any
    later CUDA call, inside or after cross_entropy. Compiled, the check is an assert in one of
    the generated Triton kernels (compiled first with a valid target). With a class weight,
    the op's assert, not an index assert of the weight's lookup."""
    import subprocess
    import sys
    code = ("import torch, inductor_ce\n"
            "f = inductor_ce.cross_entropy\n"
            + ("f = torch.compile(f)\n" if compiled else "") +
            "x = torch.randn(4, 13, device='cuda')\n"
            f"w = {'torch.rand(13, device=x.device) + 0.5' if weighted else 'None'}\n"
            "f(x, torch.tensor([0, 1, 12, 2], device='cuda'), w)\n"
            "torch.cuda.synchronize()\n"
            "t = torch.tensor([0, 1, 13, 2], device='cuda')\n"
            "torch.cuda.set_sync_debug_mode('error')\n"
            "loss = f(x, t, w)\n"
            "torch.cuda.set_sync_debug_mode('default')\n"
            "torch.cuda.synchronize()\n")
    root = __file__.rsplit("/tests/", 1)[0]
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       cwd=root)
    assert r.returncode != 0, r.stdout
    assert "device-side assert" in r.stderr, r.stderr[-2000:]
    assert "target out of range" in r.stderr, r.stderr[-2000:]     # the kernel's message
    assert "index out of bounds" not in r.stderr, r.stderr[-2000:]
    assert "called a synchronizing CUDA operation" not in r.stderr, r.stderr[-2000:]


@pytest.mark.parametrize("size_average, reduce", [(False, None), (None, False), (True, True),
                                                  (False, True), (None, True)])
def test_module_takes_torchs_legacy_reduction_arguments(size_average, reduce):
    """nn.CrossEntropyLoss's deprecated size_average / reduce (keyword-only here) override
    reduction as in torch, with its deprecation warning; the loss equals stock's."""
    logits, target = torch.randn(6, 7), torch.tensor([0, 1, 6, 2, -100, 4])
    kw = dict(size_average=size_average, reduce=reduce)
    with pytest.warns(UserWarning, match="deprecated"):
        stock = nn.CrossEntropyLoss(reduction="sum", **kw)
    with pytest.warns(UserWarning, match="deprecated"):
        ours = inductor_ce.CrossEntropyLoss(reduction="sum", **kw)
    assert ours.reduction == stock.reduction
    assert_loss_close(ours(logits, target), F.cross_entropy(logits.double(), target,
                                                            reduction=stock.reduction))
