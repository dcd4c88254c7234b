"""The fused linear + cross-entropy (inductor_ce/linear/head.py) on the CPU: every chunking
against float64 for every option and reduction, the collapse margins, torch.compile with dynamic
rows, export, opcheck, torch 2.13's own F.linear_cross_entropy, and bad input.

Shapes are small (N = 37 rows, D = 16, V = 301) with memory budgets that make several chunks and
a ragged last one (``BUDGET_ROWS`` rows of logits; class chunks of 64, the smallest, once the
budget holds fewer than ``plan.ROWS_MIN`` rows, lowered to 2 here), so the loops and their edges
run; float32 inputs, whose float64 reference is computed from the same values (logits of float64
GEMMs).
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

import inductor_ce
from inductor_ce.op import decomposition
from inductor_ce.eager import kernels as eager
from inductor_ce.linear import chunks, class_chunks, plan
from inductor_ce.linear import head as linear
from _reference import (assert_grad_close, assert_loss_close, collapse_safe_reference,
                        gemm_rounding, reference)
from test_lowering import TRITON_MISSING


N, D, V = 37, 16, 301
# The chunkings: None, the default (one chunk at these sizes); "rows", chunks of 10 rows;
# "classes", a budget of one row of logits (below ROWS_MIN): chunks of 64 classes.
BUDGET_ROWS = {"default": None, "rows": 10, "classes": 1}
DESIGNS = list(BUDGET_ROWS)
OPTIONS_NONE = ("weight+zloss+none", "softcap+lse", "weight+smooth+lse")   # per-row ops


def _budget(design, itemsize=4, vocab=V):
    rows = BUDGET_ROWS[design]
    return None if rows is None else rows * vocab * itemsize


@pytest.fixture(autouse=True)
def _rows_min(monkeypatch):
    """Row chunks from 2 rows on, per-row calls too (the shapes here are tiny; the defaults
    are 256, 300 and 768)."""
    monkeypatch.setattr(plan, "ROWS_MIN", 2)
    monkeypatch.setattr(plan, "ROWS_MIN_SCALAR", 2)
    monkeypatch.setattr(plan, "ROWS_MIN_PER_ROW", 2)
OPTIONS = {
    "plain": dict(),
    "smooth+ignore+sum": dict(label_smoothing=0.1, ignore_index=3, reduction="sum"),
    "weight+zloss+none": dict(weighted=True, z_loss=1e-2, reduction="none"),
    "softcap+lse": dict(softcap=5.0, return_lse=True),
    "weight+smooth+lse": dict(weighted=True, label_smoothing=0.2, return_lse=True),
    "all+bias": dict(weighted=True, label_smoothing=0.1, z_loss=1e-2, softcap=5.0,
                     ignore_index=3, bias=True),
}


def _data(key, shape=(N,), bias=False, dtype=torch.float32, ignore_index=-100):
    g = torch.Generator().manual_seed(hash(key) % 2**31)
    h = torch.randn(*shape, D, generator=g).to(dtype)
    w = (torch.randn(V, D, generator=g) * 0.5).to(dtype)
    b = (torch.randn(V, generator=g) * 0.3).to(dtype) if bias else None
    t = torch.randint(0, V, shape, generator=g)
    t = torch.where(torch.rand(shape, generator=g) < 0.2, ignore_index, t)
    return h, w, b, t


def _run(fn, h, w, b, t, upstream_key=0, **kw):
    leaves = [p.detach().clone().requires_grad_() for p in (h, w) + ((b,) if b is not None
                                                                    else ())]
    out = fn(*leaves, t, **kw)
    loss = out[0] + out[1].sum() if isinstance(out, tuple) else out
    g = torch.randn(loss.shape, generator=torch.Generator().manual_seed(upstream_key)) \
        if loss.dim() else None
    loss.backward(None if g is None else g.to(loss.dtype))
    return out, [p.grad for p in leaves]


def _ours(design):
    def fn(h, w, *rest, **kw):
        b = rest[0] if len(rest) == 2 else None
        return inductor_ce.linear_cross_entropy(
            h, w, rest[-1], linear_bias=b, memory_budget=_budget(design, h.element_size()),
            **kw)
    return fn


def _ref64(h, w, *rest, return_lse=False, **kw):
    b = rest[0] if len(rest) == 2 else None
    z = F.linear(h.double(), w.double(), None if b is None else b.double())
    return reference(z, rest[-1], return_lse=return_lse, **kw)


def _options(name):
    kw = dict(OPTIONS[name])
    bias = kw.pop("bias", False)
    if kw.pop("weighted", False):
        kw["weight"] = torch.rand(V, generator=torch.Generator().manual_seed(7)) + 0.5
    return kw, bias


@pytest.mark.parametrize("shape", [(N,), (3, 11)], ids=["2d", "3d"])
@pytest.mark.parametrize("options", list(OPTIONS))
@pytest.mark.parametrize("design", DESIGNS)
def test_matches_float64(design, options, shape):
    _check_float64(_ours(design), options, shape, (options, shape))


@pytest.mark.parametrize("frozen", ["input", "weight"])
@pytest.mark.parametrize("reduction", ["mean", "none"])
@pytest.mark.parametrize("design", DESIGNS)
def test_frozen_input_or_weight(design, reduction, frozen):
    """The other leaf's gradient against float64 (the backward skips what is frozen)."""
    h, w, b, t = _data(("frozen", design, reduction, frozen), bias=True)
    h_, w_, b_ = (x.clone().requires_grad_(name != frozen)
                  for name, x in zip(("input", "weight", "bias"), (h, w, b)))
    loss = _ours(design)(h_, w_, b_, t, reduction=reduction, label_smoothing=0.1)
    loss.sum().backward()
    ref, ref_grads = _run(lambda *a, **kw: _ref64(*a, **kw).sum(), h.double(), w.double(),
                          b.double(), t, reduction=reduction, label_smoothing=0.1)
    assert_loss_close(loss.sum(), ref)
    for leaf, want in zip((h_, w_, b_), ref_grads):
        if leaf.requires_grad:
            assert_grad_close(leaf.grad, want)
        else:
            assert leaf.grad is None


def _check_float64(fn, options, shape, key):
    """fn's loss (and lse) and gradients against float64, with OPTIONS[options]."""
    kw, bias = _options(options)
    h, w, b, t = _data(key, shape, bias, ignore_index=kw.get("ignore_index", -100))
    out, grads = _run(fn, h, w, b, t, **kw)
    ref, ref_grads = _run(_ref64, h.double(), w.double(), None if b is None else b.double(), t,
                          **kw)
    if kw.get("return_lse"):
        assert_loss_close(out[1], ref[1], rtol=1e-6, atol=1e-6)
        out, ref = out[0], ref[0]
    assert out.dtype == torch.float32 and out.shape == ref.shape
    assert_loss_close(out, ref)
    for got, want in zip(grads, ref_grads):
        assert got.dtype == torch.float32 and got.shape == want.shape
        assert_grad_close(got, want)


@pytest.mark.parametrize("reduction", ["mean", "none"])
@pytest.mark.parametrize("design", DESIGNS)
def test_chunkings_and_unfused_agree_in_bf16(design, reduction):
    """bf16 h, W: our errors against float64 are at most twice our unfused path's (whose
    logits are rounded to bf16 once, as every chunk's are), loss and both gradients."""
    h, w, b, t = _data("bf16", (64,), dtype=torch.bfloat16)
    kw = dict(label_smoothing=0.1, reduction=reduction)
    got, got_g = _run(_ours(design), h, w, None, t, **kw)
    unf, unf_g = _run(lambda h, w, t, **kw: inductor_ce.cross_entropy(h @ w.t(), t, **kw),
                      h, w, None, t, **kw)
    ref, ref_g = _run(_ref64, h.double(), w.double(), None, t, **kw)
    for a, u, r in zip([got] + got_g, [unf] + unf_g, [ref] + ref_g):
        err = ((a.double() - r).norm() / r.norm()).item()
        err_unfused = ((u.double() - r).norm() / r.norm()).item()
        assert err <= 2 * err_unfused + 1e-6, (err, err_unfused)


@pytest.mark.parametrize("design", DESIGNS)
def test_collapse_margins(design):
    """Target logit = max of the others + margin (0-80), built into the weights: row i's
    hidden state is e_i, its target class's weight row c_i e_i. Loss and the whole gradient of
    the logits' inputs within 1e-5 of the collapse-safe float64 reference (the input's
    gradient, a float32 GEMM over the vocabulary, within that GEMM's own rounding too)."""
    margins = [0.0, 10.0, 20.0, 30.0, 50.0, 80.0]
    k, v = len(margins), 32000
    g = torch.Generator().manual_seed(5)
    w = torch.randn(v, k, generator=g) * 0.5
    t = torch.randperm(v, generator=g)[:k]
    h = torch.eye(k)
    z = h @ w.t()
    for i, m in enumerate(margins):
        w[t[i]] = 0.0
        w[t[i], i] = z[i].scatter(0, t[i:i + 1], float("-inf")).max() + m
    z64 = h.double() @ w.double().t()
    ref_loss, ref_dz = collapse_safe_reference(z64, t)
    hh, ww = h.clone().requires_grad_(), w.clone().requires_grad_()
    budget = {"default": None, "rows": 2 * v * 4, "classes": v * 4}[design]  # 3 / 7 chunks
    for reduction in ("sum", "none"):   # the scalar op, and the per-row ops
        hh, ww = h.clone().requires_grad_(), w.clone().requires_grad_()
        loss = inductor_ce.linear_cross_entropy(hh, ww, t, reduction=reduction,
                                                memory_budget=budget)
        loss.sum().backward()
        assert bool((loss > 0).all())           # nothing collapsed to 0
        assert_loss_close(loss, ref_loss.sum() if reduction == "sum" else ref_loss, rtol=1e-5,
                          atol=0.0)
        # dh = dz @ W sums 32000 float32 products: their rounding comes on top.
        assert_grad_close(hh.grad, ref_dz @ w.double(), extra_tol=gemm_rounding(ref_dz, w))
        assert_grad_close(ww.grad, ref_dz.t() @ h.double())
    per_row = inductor_ce.linear_cross_entropy(h, w, t, reduction="none",
                                               memory_budget=budget)   # (no gradient)
    assert_loss_close(per_row, ref_loss, rtol=1e-5, atol=0.0)


@pytest.mark.parametrize("reduction", ["mean", "none"])
@pytest.mark.parametrize("design", ["rows", "classes"])
def test_compiled_rows_dynamic_no_recompile(design, reduction):
    from torch._dynamo.testing import CompileCounterWithBackend
    counter = CompileCounterWithBackend("inductor")
    torch._dynamo.reset()
    fn = torch.compile(lambda h, w, t: inductor_ce.linear_cross_entropy(
        h, w, t, memory_budget=_budget(design), z_loss=1e-3, reduction=reduction),
        backend=counter, fullgraph=True, dynamic=True)
    frames = []
    for rows in (37, 20, 64):
        h, w, b, t = _data(("compiled", rows), (rows,))
        out, grads = _run(fn, h, w, None, t)
        frames.append(counter.frame_count)
        ref, ref_grads = _run(_ref64, h.double(), w.double(), None, t, z_loss=1e-3,
                              reduction=reduction)
        assert_loss_close(out, ref)
        for got, want in zip(grads, ref_grads):
            assert_grad_close(got, want)
    # (The first compile may count twice: Dynamo restarts once to specialize the float
    # options a custom op takes. What matters: nothing after it.)
    assert frames[1:] == [frames[0]] * 2, frames


@pytest.mark.parametrize("options", OPTIONS_NONE)
def test_compiled_classes_matches_float64(options):
    """Class chunks under torch.compile: the per-row ops' backward traces the input
    gradient (one pointwise expression over u, the target's rows of W and s), against
    float64. (A scalar loss's op is opaque with its gradient computed in the forward:
    compiled in test_compiled_rows_dynamic_no_recompile.)"""
    torch._dynamo.reset()   # (one code object, compiled once per test: within Dynamo's limit)
    _check_float64(torch.compile(_ours("classes"), fullgraph=True), options, (N,),
                   ("compiled-classes", options))


@pytest.mark.parametrize("options", OPTIONS_NONE)
def test_compiled_rows_matches_float64(options):
    """Row chunks under torch.compile, the per-row ops (their backward recomputes the
    logits), against float64."""
    torch._dynamo.reset()
    _check_float64(torch.compile(_ours("rows"), fullgraph=True), options, (N,),
                   ("compiled-rows", options))


@pytest.mark.parametrize("design", DESIGNS)
def test_inputs_unchanged(design):
    h, w, b, t = _data("functional", bias=True)
    before = [x.clone() for x in (h, w, b, t)]
    for reduction in ("mean", "none"):
        _run(_ours(design), h, w, b, t, label_smoothing=0.1, reduction=reduction)
    assert all(torch.equal(x, y) for x, y in zip((h, w, b, t), before))


@pytest.mark.parametrize("design", ["rows", "classes"])
def test_opcheck(design):
    h, w, b, t = _data("opcheck", (3, 5), bias=True)
    cw = torch.rand(V, generator=torch.Generator().manual_seed(9)) + 0.5
    leaves = [x.clone().requires_grad_() for x in (h, w, b)]
    budget, cap = _budget(design), torch.tensor(5.0)
    torch.library.opcheck(torch.ops.inductor_ce.linear_ce_fwd.default,
                          (*leaves, t, cw, -100, cap, True, 0, V, budget, False))
    torch.library.opcheck(torch.ops.inductor_ce.linear_ce_fast.default,
                          (*leaves, t, cw, -100, cap, 0.1, 1e-2, True, budget))
    stats = decomposition.linear_ce_fwd(h, w, b, t, cw, -100, 5.0, True, 0, V, 0)
    for input_grad, weight_grad in ((True, True), (False, True), (True, False)):
        torch.library.opcheck(torch.ops.inductor_ce.linear_ce_bwd.default,
                              (h, w, b, t, cw, stats[0], *stats[:3], -100, cap, 0, budget,
                               input_grad, weight_grad))


def test_shard_by_classes_checks_the_global_range():
    """A direct call of linear_ce_fwd on a vocabulary shard (classes [V/2, V) of V) by class
    chunks: targets are checked against the whole vocabulary (another shard's target is no
    error, one past it is), and the statistics and gradients equal those of row chunks."""
    h, w, _, t = _data("shard-u")
    half = V // 2
    up = torch.rand(N, generator=torch.Generator().manual_seed(5))
    results = []
    for design in ("classes", "rows"):
        hh, ww = h.clone().requires_grad_(), w[half:].clone().requires_grad_()
        stats = linear.linear_ce_fwd(hh, ww, None, t, None, -100, None, False, half, V,
                                     _budget(design))
        (stats[0] * up).sum().backward()
        results.append((stats[0].detach(), stats[1].detach(), hh.grad, ww.grad))
    assert (t < half).any() and (t >= half).any()
    for got, want in zip(*results):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)
    with pytest.raises(Exception, match="target"):
        linear.linear_ce_fwd(h, w[half:], None, t.where(t < 0, V), None, -100, None, False,
                             half, V, _budget("classes"))


@pytest.mark.parametrize("block", [37, 8], ids=["one-block", "blocks"])
@pytest.mark.parametrize("softcap", [None, torch.tensor(5.0)], ids=["none", "softcap"])
def test_ops_match_their_decomposition(monkeypatch, block, softcap):
    """The forward's statistics (class chunks: blocks of ``block`` rows x 64 classes, ragged
    chunks and blocks; row chunks), and the backward's dh, dW, db (chunks of rows, and of
    classes over blocks of rows, or all rows where dh is not wanted).
    (sum_wz adds V terms of both signs: chunks sum them in another order, so it is compared
    at the scale of the terms, 1e-6 of the largest row's sum of |w_j z_j|.)"""
    monkeypatch.setattr(plan, "BLOCK_ROWS_MIN", block)
    h, w, b, t = _data("decomp", bias=True, ignore_index=3)
    cw = torch.rand(V, generator=torch.Generator().manual_seed(9)) + 0.5
    terms = (F.linear(h, w, b).abs() * cw).sum(-1).max().item()
    for design in ("classes", "rows"):
        got = linear.linear_ce_fwd(h, w, b, t, cw, 3, softcap, True, 0, V, _budget(design))
        want = decomposition.linear_ce_fwd(h, w, b, t, cw, 3, softcap, True, 0, V, 0)
        assert len(got) == 4 and got[3].numel() == 0
        for i, (g_, w_) in enumerate(zip(got, want)):
            torch.testing.assert_close(g_, w_, rtol=1e-6,
                                       atol=1e-6 * terms if i == 2 else 1e-5)
    gen = torch.Generator().manual_seed(3)
    g = [torch.randn(N, generator=gen) for _ in range(3)]
    # (chunks add the products of their classes in another order: compared, like the
    # statistics, at the scale of the gradient, since a cancelling element has no bound on
    # its relative error in any summation order)
    for design, input_grad in (("rows", True), ("rows", False), ("classes", True),
                               ("classes", False)):
        got = linear.linear_ce_bwd(h, w, b, t, cw, g[0], *g, 3, softcap, 0, _budget(design),
                                   input_grad, True)
        want = decomposition.linear_ce_bwd(h, w, b, t, cw, g[0], *g, 3, softcap, 0, 0,
                                           input_grad, True)
        for x, y in zip(got, want):
            assert x.shape == y.shape and x.dtype == y.dtype
            torch.testing.assert_close(x, y, rtol=1e-5,
                                       atol=1e-5 * (y.abs().max().item() if y.numel() else 1))


def test_export_keeps_one_node_and_decomposes():
    """Every loss exports as one node of the statistics op, which has an ATen decomposition:
    also a scalar loss with a weight that wants a gradient (not the op that computes the
    gradient in the forward: an exported graph run without a gradient would pay two GEMMs
    more per call), whose exported module trains with the eager call's gradient."""
    class Head(torch.nn.Module):
        def __init__(self, reduction):
            super().__init__()
            self.reduction = reduction

        def forward(self, h, w, t):
            return inductor_ce.linear_cross_entropy(h, w, t, label_smoothing=0.1,
                                                    reduction=self.reduction)

    h, w, b, t = _data("export")
    from inductor_ce.op import checks
    mean = torch.export.export(Head("mean"), (h, w.clone().requires_grad_(), t))
    targets = [n.target for n in mean.graph.nodes if n.op == "call_function"]
    if checks._VERSION >= (2, 12):   # (torch 2.11: see checks.exporting)
        assert targets.count(torch.ops.inductor_ce.linear_ce_fwd.default) == 1
        assert torch.ops.inductor_ce.linear_ce_fast.default not in targets
    # torch.compile keeps the gradient in the forward (the fast op), torch 2.11 included.
    seen = []

    def backend(gm, example_inputs):
        seen.extend(n.target for n in gm.graph.nodes if n.op == "call_function")
        return gm

    torch.compile(Head("mean"), backend=backend)(h, w.clone().requires_grad_(), t)
    assert torch.ops.inductor_ce.linear_ce_fast.default in seen, seen
    got_w, want_w = w.clone().requires_grad_(), w.clone().requires_grad_()
    got = mean.module()(h, got_w, t)
    want = inductor_ce.linear_cross_entropy(h, want_w, t, label_smoothing=0.1)
    torch.testing.assert_close(got, want)
    got.backward()
    want.backward()
    torch.testing.assert_close(got_w.grad, want_w.grad, rtol=1e-5, atol=1e-7)
    ep = torch.export.export(Head("none"), (h, w, t))
    targets = [n.target for n in ep.graph.nodes if n.op == "call_function"]
    assert targets.count(torch.ops.inductor_ce.linear_ce_fwd.default) == 1
    lowered = ep.run_decompositions({torch.ops.inductor_ce.linear_ce_fwd.default:
                                     decomposition.linear_ce_fwd})
    assert not any("linear_ce" in str(n.target) for n in lowered.graph.nodes)
    want = inductor_ce.linear_cross_entropy(h, w, t, label_smoothing=0.1, reduction="none")
    torch.testing.assert_close(ep.module()(h, w, t), want)
    torch.testing.assert_close(lowered.module()(h, w, t), want)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_matches_torch_linear_cross_entropy(reduction):
    """torch 2.13's F.linear_cross_entropy, its chunked path included, gives our values, and
    takes the arguments torch takes (ignore_index None, options); so does the module."""
    if not hasattr(F, "linear_cross_entropy"):
        pytest.skip("torch < 2.13")
    h, w, b, t = _data("torch-lce")
    t = t.clone()
    t[::5] = -100
    ours = inductor_ce.linear_cross_entropy(h, w, t, reduction=reduction)
    for options in (None, torch.nn.LinearCrossEntropyOptions(batch_chunk_size=8)):
        theirs = F.linear_cross_entropy(h, w, t, reduction=reduction, options=options)
        torch.testing.assert_close(ours, theirs, rtol=2e-6, atol=2e-6)
        # torch's arguments as torch takes them: ignore_index None (-100), its options
        same = inductor_ce.linear_cross_entropy(h, w, t, reduction=reduction,
                                                ignore_index=None, options=options)
        assert torch.equal(same, ours)
    module = inductor_ce.LinearCrossEntropyLoss(D, V, reduction=reduction, ignore_index=None,
                                                options=None)
    theirs = torch.nn.LinearCrossEntropyLoss(D, V, reduction=reduction, ignore_index=None)
    theirs.load_state_dict(module.state_dict())
    torch.testing.assert_close(module(h, t), theirs(h, t), rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize("mode", ["compiled", "auto"], ids=["graph", "op"])
@pytest.mark.parametrize("options", list(OPTIONS))
def test_without_gradient_matches_float64(monkeypatch, options, mode):
    """No gradient, eagerly: each row chunk's loss and lse through cross_entropy's compiled
    forward graph ("graph": the eager path forced at these sizes; a last chunk of one row
    too, by its own compile), or, where it does not apply (off CUDA below its size: "op"),
    the op's statistics and the finish; every reduction, one chunk and budgets of 10 and 12
    rows (37 = 3 x 12 + 1: a last chunk of one row), 2-D (37 rows) and 3-D (3 x 11), against
    float64."""
    monkeypatch.setattr(eager, "MODE", mode)
    kw, bias = _options(options)
    kw.pop("reduction", None)
    calls, seen = [], set()
    real = linear.eager_loss.cross_entropy

    def spy(z, *args, graphs, **kw):
        calls.append((real(z, *args, graphs=graphs, **kw), graphs))
        return calls[-1][0]
    monkeypatch.setattr(linear.eager_loss, "cross_entropy", spy)
    for shape in ((N,), (3, 11)):
        h, w, b, t = _data(("no-grad", options, shape), shape, bias=bias,
                           ignore_index=kw.get("ignore_index", -100))
        for budget in (None, 10 * V * 4, 12 * V * 4):
            for reduction in ("mean", "sum", "none"):
                calls.clear()
                with torch.no_grad():
                    out = inductor_ce.linear_cross_entropy(
                        h, w, t, linear_bias=b, memory_budget=budget,
                        **dict(kw, reduction=reduction))
                ref = _ref64(h, w, *((b,) if bias else ()), t, **dict(kw, reduction=reduction))
                for got, want in zip(*((out, ref) if kw.get("return_lse") else
                                       ((out,), (ref,)))):
                    assert got.shape == want.shape
                    assert_loss_close(got, want)
                rows = h.numel() // D
                step = plan.chunk_rows(rows, V, D, 4, budget or 0)
                chunks, last_row = -(-rows // step), rows % step == 1
                assert len(calls) == chunks, (len(calls), chunks)
                graphs = sum(out is not None for out, _ in calls)
                assert graphs == (chunks if mode == "compiled" else 0)
                assert not any(replays for _, replays in calls)   # (no CUDA graphs: see head)
                seen.add((chunks, last_row))
    assert seen == {(1, False), (4, False), (4, True), (3, False)}, seen   # (the budgets')


def test_all_rows_ignored():
    """As cross_entropy: "mean" over zero kept rows is nan, "sum" 0, gradients 0 for "sum"."""
    h, w, b, t = _data("ignored")
    t = torch.full_like(t, -100)
    for design in DESIGNS:
        assert torch.isnan(_ours(design)(h, w, t))
        for reduction in ("sum", "none"):
            out, grads = _run(_ours(design), h, w, None, t, reduction=reduction)
            assert bool((out == 0).all()) and all(bool((g == 0).all()) for g in grads)


@pytest.mark.parametrize("reduction", ["sum", "none"])
@pytest.mark.parametrize("design", DESIGNS)
def test_non_finite_logits_as_unfused(design, reduction):
    """Masked classes (-inf bias: a whole chunk, and a target among them), a +inf logit, a nan
    row: loss and gradients as the unfused loss's, nan and inf where it has them (the
    compact forward's running sums start from, and pass through, chunks with no mass)."""
    g = torch.Generator().manual_seed(8)
    h, w = torch.randn(N, D, generator=g), torch.randn(V, D, generator=g) * 0.5
    b = torch.zeros(V)
    b[:64], b[100:110] = float("-inf"), float("-inf")
    t = torch.randint(64, V, (N,), generator=g)
    t[3], t[4] = 5, -100
    for bad in (None, "inf", "nan"):
        if bad == "inf":
            b[200] = float("inf")
        if bad == "nan":
            h[7] = float("nan")
        results = []
        for fused in (True, False):
            hh, ww = h.clone().requires_grad_(), w.clone().requires_grad_()
            out = (_ours(design)(hh, ww, b, t, reduction=reduction) if fused else
                   inductor_ce.cross_entropy(F.linear(hh, ww, b), t, reduction=reduction))
            out.sum().backward()
            results.append((out.detach(), hh.grad, ww.grad))
        for x, y in zip(*results):
            torch.testing.assert_close(x, y, rtol=1e-5, atol=1e-5, equal_nan=True)


def test_classes_backward_runs_what_is_needed(monkeypatch):
    """Class chunks: one backward sweep for both gradients, by blocks of rows; a frozen W
    computes no dW, a frozen input no dh and then takes as many rows in one block as the
    budget holds CLASSES_MIN classes of (all rows where it can: dW written once, nothing
    accumulated; this budget, one row of logits, holds 4)."""
    calls = []
    grads_of = class_chunks.block_grads

    def spy(h_b, *args):
        dh_b, dw = args[-4], args[-3]   # (..., scratch, dh_b, dw, db, first)
        calls.append((h_b.shape[0], dh_b is not None, dw is not None))
        return grads_of(h_b, *args)

    monkeypatch.setattr(class_chunks, "block_grads", spy)
    h, w, b, t = _data("needed")
    blocks = [(16, True, True), (16, True, True), (5, True, True)]
    for frozen, retain, want in [(None, False, blocks), (None, True, blocks),
                                 ("w", False, [(r, True, False) for r, _, _ in blocks]),
                                 ("h", False, [(4, False, True)] * (N // 4)
                                  + [(N % 4, False, True)])]:
        calls.clear()
        hh, ww = h.clone().requires_grad_(frozen != "h"), w.clone().requires_grad_(frozen != "w")
        loss = _ours("classes")(hh, ww, t, reduction="none")
        loss.sum().backward(retain_graph=retain)
        assert calls == want, (frozen, retain, calls)
        ref, ref_grads = _run(lambda *a, **kw: _ref64(*a, **kw).sum(), h.double(), w.double(),
                              None, t, reduction="none")
        for leaf, want_grad in zip((hh, ww), ref_grads):
            if leaf.requires_grad:
                assert_grad_close(leaf.grad, want_grad)


def test_rows_backward_recomputes_what_is_needed(monkeypatch):
    """Row chunks: one backward recomputes the logits for both gradients, or for the one
    wanted (a frozen W: no dW GEMM; a frozen input: no dh GEMM), but the last chunk's, which
    the eager forward kept (a backward that keeps its graph recomputes them all); no sums in
    the forward, and without any gradient (no_grad, inference_mode) one GEMM per chunk and
    nothing saved."""
    calls, gemms = [], []
    bwd_of, logits_of = linear._grads_by_rows, chunks.logits

    def bwd_spy(*args):
        calls.append((*args[9:11], args[-1] is not None))
        return bwd_of(*args)

    def logits_spy(h, *args, **kwargs):
        gemms.append(h.shape[0])
        return logits_of(h, *args, **kwargs)
    monkeypatch.setattr(linear, "_grads_by_rows", bwd_spy)
    monkeypatch.setattr(chunks, "logits", logits_spy)
    h, w, b, t = _data("recomputed")
    for frozen, want in [(None, (True, True)), ("w", (True, False)), ("h", (False, True))]:
        calls.clear()
        hh, ww = h.clone().requires_grad_(frozen != "h"), w.clone().requires_grad_(frozen != "w")
        loss, lse = _ours("rows")(hh, ww, t, reduction="none", return_lse=True)
        gemms.clear()
        (loss.sum() + lse.sum()).backward()
        assert calls == [(*want, True)], (frozen, calls)
        assert gemms == [10, 10, 10]   # the last 7 rows' logits were kept
    hh, ww = h.clone().requires_grad_(), w.clone().requires_grad_()
    loss = _ours("rows")(hh, ww, t, reduction="none")
    for _ in range(2):   # retain_graph: the kept logits stay the forward's, unused
        calls.clear(), gemms.clear()
        loss.sum().backward(retain_graph=True)
        assert calls == [(True, True, False)] and gemms == [10, 10, 10, 7]
    for context in (torch.no_grad, torch.inference_mode):
        gemms.clear()
        with context():
            out = _ours("rows")(h.clone().requires_grad_(), w.clone().requires_grad_(), t)
        assert not out.requires_grad and gemms == [10, 10, 10, 7]


def _top_level_aten_calls(fn) -> list:
    """The ATen calls ``fn`` makes outside other ATen calls (on a GPU: launches), by name."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        fn()
    names = []
    for e in prof.events():
        if not e.name.startswith("aten::"):
            continue
        parent = e.cpu_parent
        while parent is not None and not parent.name.startswith("aten::"):
            parent = parent.cpu_parent
        if parent is None:
            names.append(e.name.removeprefix("aten::"))
    return names


def test_row_chunks_leave_the_target_range_to_the_ce_ops(monkeypatch):
    """Where the weight holds every class, the row chunks hand the ce ops the target as it
    is: no range check (eq/ge/lt/all) and no column mapping of ours, no clone of the
    statistics (each a launch per call on a GPU, where short calls are bound by them). A
    vocabulary shard still checks the global range and maps targets to its columns (its ce
    ops see only its columns); both equal float64's."""
    monkeypatch.setattr(eager, "MODE", "compiled")
    h, w, _, t = _data("launches")
    ref = _ref64(h.double(), w.double(), t, reduction="none")

    def whole():
        with torch.no_grad():
            return inductor_ce.linear_cross_entropy(h, w, t, reduction="none")
    whole()
    calls = _top_level_aten_calls(whole)
    for op in ("all", "ge", "lt", "clone", "__and__", "__or__"):
        assert op not in calls, (op, calls)
    assert_loss_close(whole(), ref)

    half = V // 2

    def shard():   # the second half of the classes, as a vocabulary-parallel rank holds them
        with torch.no_grad():
            return linear.statistics(h, w[half:], None, t, None, -100, None, False, half, V, 0)
    shard()
    calls = _top_level_aten_calls(shard)
    assert "all" in calls and "where" in calls, calls
    lse_nt, z_t, _ = shard()
    z = h.double() @ w.double()[half:].t()
    mine = (t >= half) & (t != -100)
    col = torch.where(mine, t - half, 0)
    want_z_t = torch.where(mine, z.gather(1, col[:, None]).squeeze(1), float("-inf"))
    want_lse = torch.where(mine[:, None] & (torch.arange(V - half) == col[:, None]),
                           float("-inf"), z).logsumexp(1)
    torch.testing.assert_close(lse_nt.double(), want_lse, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(z_t.double(), want_z_t, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("rows_per_chunk", [10, N], ids=["chunks", "one-chunk"])
def test_kept_logits_freed_before_recomputing(monkeypatch, rows_per_chunk):
    """The eager forward's last chunk of logits lives until the backward has used it, and no
    longer: gone before the backward's first recomputed chunk (one chunk alive at a time).
    With one chunk nothing is recomputed; the gradients are those of a backward that keeps
    its graph (and so recomputes every chunk: dW's chunks summed in another order), and of
    float64."""
    import weakref
    made, seen = [], []
    logits_of = chunks.logits

    def logits_spy(h, *args, **kwargs):
        seen.append([r() is not None for r in made])
        z = logits_of(h, *args, **kwargs)
        made.append(weakref.ref(z))
        return z
    monkeypatch.setattr(chunks, "logits", logits_spy)
    h, w, b, t = _data("kept", bias=True)
    budget = rows_per_chunk * V * 4
    leaves = [x.clone().requires_grad_() for x in (h, w, b)]
    kw = dict(linear_bias=leaves[2], memory_budget=budget, label_smoothing=0.1,
              reduction="none", return_lse=True)
    loss, lse = inductor_ce.linear_cross_entropy(leaves[0], leaves[1], t, **kw)
    forward = len(made)
    assert [r() is not None for r in made] == [False] * (forward - 1) + [True]
    (loss.sum() + lse.sum()).backward()
    assert len(made) == forward + forward - 1   # every chunk but the kept one recomputed
    assert all(not any(alive) for alive in seen[forward:]), seen
    kept_grads = [x.grad for x in leaves]
    leaves = [x.clone().requires_grad_() for x in (h, w, b)]
    kw["linear_bias"] = leaves[2]
    loss2, lse2 = inductor_ce.linear_cross_entropy(leaves[0], leaves[1], t, **kw)
    (loss2.sum() + lse2.sum()).backward(retain_graph=True)
    # dh row by row exactly; dW and db summed over the chunks in another order
    torch.testing.assert_close(kept_grads[0], leaves[0].grad, rtol=0, atol=0)
    for g, x in zip(kept_grads[1:], leaves[1:]):
        torch.testing.assert_close(g, x.grad)
    ref = [x.double().requires_grad_() for x in (h, w, b)]
    want, want_lse = _ref64(*ref, t, label_smoothing=0.1, reduction="none", return_lse=True)
    (want.sum() + want_lse.sum()).backward()
    assert_loss_close(loss, want)
    for g, x in zip(kept_grads, ref):
        assert_grad_close(g, x.grad)


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_fast_upstream_gradient(compiled):
    """The "fast" backward multiplies the forward's gradients by the upstream g (eagerly in
    place, skipped on CUDA where g == 1): c * loss gets c times loss's gradients, exactly
    for a power of two."""
    h, w, b, t = _data("upstream", bias=True)
    fn = _ours("default")
    grads = {}
    for c in (1.0, 0.5, -3.0):
        step = (lambda h, w, b, t, c=c: c * fn(h, w, b, t, label_smoothing=0.1))
        _, grads[c] = _run(torch.compile(step, fullgraph=True) if compiled else step,
                           h, w, b, t)
    for got, want in zip(grads[0.5], grads[1.0]):
        assert torch.equal(got, 0.5 * want)
    for got, want in zip(grads[-3.0], grads[1.0]):
        torch.testing.assert_close(got, -3.0 * want, rtol=1e-6, atol=0.0)


def test_scale_kernel_in_triton_interpreter():
    """scaling.py's kernel, run by Triton's interpreter on the CPU: x * g in float32 (exact
    against ATen's), zeros kept whatever g (inf, nan), x unchanged where g == 1, ragged sizes
    and empty tensors. (The
    interpreter rounds float32 to bf16 toward zero, a GPU to nearest: bf16 products are
    checked exactly on the GPU, tests/test_gpu.py; here bf16 only where g == 1.)"""
    if TRITON_MISSING:
        pytest.skip(TRITON_MISSING)
    script = """
import torch
from inductor_ce.linear import scaling
gen = torch.Generator().manual_seed(0)
for n in (0, 1, scaling.BLOCK - 1, 3 * scaling.BLOCK + 17):
    x = torch.randn(n, generator=gen) * 3
    x[::3] = 0.0
    for gv in (1.0, 0.37, -2.5, 0.0, float("inf"), float("nan")):
        y = x.clone()
        scaling.launch(y, torch.tensor(gv))
        want = torch.where(x == 0, x, x * gv)     # (a zero stays zero: op.ce.times)
        torch.testing.assert_close(y, want, rtol=0, atol=0, equal_nan=True)
        assert not y[::3].isnan().any()
    xb = x.to(torch.bfloat16)
    yb = xb.clone()
    scaling.launch(yb, torch.tensor(1.0))
    assert torch.equal(yb, xb)
print("ok")
"""
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
         os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]


def test_fast_backward_allocates_no_zero_gradients():
    """The "fast" op's gradient outputs get no upstream gradient: autograd must not
    materialize zeros of h's and W's size for them (it did: the eager step's peak held a
    second h and W, 1.04 GiB on the H200 at 8192 x 4096 x 128256)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Zeros(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.shapes = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            if func.overloadpacket in (torch.ops.aten.zeros_like, torch.ops.aten.zeros,
                                       torch.ops.aten.new_zeros, torch.ops.aten.full_like):
                self.shapes.append(tuple(out.shape))
            return out

    h, w, _, t = _data("zeros")
    h.requires_grad_(), w.requires_grad_()
    loss = inductor_ce.linear_cross_entropy(h, w, t)
    with Zeros() as mode:
        loss.backward()
    assert tuple(h.shape) not in mode.shapes and tuple(w.shape) not in mode.shapes, mode.shapes
    assert h.grad is not None and w.grad is not None


def test_eager_chunks_run_compiled_kernels(monkeypatch):
    """At any size (forced here), each chunk's ce_fwd and its in-place ce_bwd run the
    lowering's kernels, and other row counts compile nothing more; no chunk falls back to the
    decomposition. A scalar loss by row chunks compiles its chunk's graph (ce_fwd, the
    finish and ce_bwd in place) and the kernel scaling the gradients by the upstream scalar
    (dh and dW share it: rows symbolic, D fixed); by class chunks, ce_fwd for the full and
    the ragged last tile (a V each), ce_bwd once for chunks of every width (V symbolic) and
    the scaling. The per-row ops by row chunks then add ce_fwd alone and the in-place
    ce_bwd; by class chunks, nothing (the backward's chunks of another width are V
    symbolic)."""
    monkeypatch.setattr(eager, "MODE", "compiled")

    def no_decomposition(*args, **kwargs):
        raise AssertionError("a chunk ran ce_bwd's decomposition")
    monkeypatch.setattr(decomposition, "ce_bwd", no_decomposition)
    expected = {"rows": (2, 2), "classes": (4, 0)}
    for design in ("rows", "classes"):
        monkeypatch.setattr(eager, "_CACHE", {})   # (each design's compiles from none)
        before = eager.compiles
        for reduction in ("mean", "none"):
            for rows in (N, 20, 64):
                h, w, b, t = _data(("compiled-eager", design, rows), (rows,))
                out, grads = _run(_ours(design), h, w, None, t, softcap=3.0,
                                  reduction=reduction)
                ref, ref_grads = _run(_ref64, h.double(), w.double(), None, t, softcap=3.0,
                                      reduction=reduction)
                assert_loss_close(out, ref)
                for got, want in zip(grads, ref_grads):
                    assert_grad_close(got, want)
                scalar, per_row = expected[design]
                assert eager.compiles - before == scalar + (reduction == "none") * per_row, \
                    (design, reduction, rows)


@pytest.mark.parametrize("reduction", ["none", "mean"])
def test_class_chunks_share_one_buffer_within_the_budget(monkeypatch, reduction):
    """Class chunks (blocks of 16 rows, the smallest, here: 16, 16 and 5 rows; chunks of 64
    classes, the smallest) are views of one scratch buffer per sweep, never of dW's: the
    statistics' chunks (the per-row op's forward), then the gradient's chunks beside the
    block's float32 input gradient (its backward); the scalar op's forward holds both sweeps
    in one buffer, so its peak is the budget's, not twice it."""
    h, w, b, t = _data("scratch", bias=True)
    leaves = [p.clone().requires_grad_() for p in (h, w, b)]
    seen, real = [], chunks.logits

    def spy(h_, w_, b_, out=None, **kwargs):
        if out is not None:
            seen.append((out.untyped_storage().data_ptr(), out.untyped_storage().nbytes(),
                         tuple(out.shape)))
        return real(h_, w_, b_, out=out, **kwargs)
    monkeypatch.setattr(chunks, "logits", spy)
    loss = _ours("classes")(leaves[0], leaves[1], leaves[2], t, reduction=reduction)
    forward = list(seen)
    loss.sum().backward()
    backward = seen[len(forward):]
    shapes = [(r, c) for r in (16, 16, N - 32) for c in (64, 64, 64, 64, V - 256)]
    grad_bytes = 16 * (64 * 4 + 4 * D)    # a block's chunk and its float32 input gradient
    if reduction == "none":
        sweeps = [(forward, shapes, 16 * 64 * 4), (backward, shapes, grad_bytes)]
    else:   # (per block: the statistics' chunks, then the gradient's)
        per_block = [[(r, c) for c in (64, 64, 64, 64, V - 256)] * 2 for r in (16, 16, N - 32)]
        sweeps = [(forward, [s for block in per_block for s in block], grad_bytes)]
        assert not backward
    for views, shapes, nbytes in sweeps:
        assert [s for *_, s in views] == shapes
        assert len({(p, n) for p, n, _ in views}) == 1
        assert nbytes <= views[0][1] <= nbytes + 32
    ref, ref_grads = _run(lambda *a, **kw: _ref64(*a, **kw).sum(), h.double(), w.double(),
                          b.double(), t, reduction=reduction)
    for got, want in zip([p.grad for p in leaves], ref_grads):
        assert_grad_close(got, want)


@pytest.mark.parametrize("rows,hidden,vocab,itemsize,budget", [
    (8192, 4096, 128256, 2, 64 << 20), (65536, 2048, 32000, 2, 32 << 20),
    (16384, 5120, 152064, 2, 64 << 20), (8192, 768, 50304, 2, 64 << 20),
    (8192, 8192, 128256, 4, 256 << 20), (100, 16, 300, 4, 100 * 64 * 4),
    (4096, 2048, 151936, 2, 64 << 20),
])
def test_class_blocks_stay_within_the_budget(rows, hidden, vocab, itemsize, budget):
    """The statistics' chunk, and the gradient's chunk beside the block's float32 input
    gradient (or all rows' chunk without it), fit in the budget (large enough for the
    smallest ones here); widths are multiples of 64 (or V); the blocks do not depend on the
    row count (each statistics width a compile of ce_fwd)."""
    blocks = plan.class_blocks(hidden, vocab, itemsize, budget)
    assert blocks.rows % plan.BLOCK_ROWS_MIN == 0
    assert blocks.rows * blocks.classes * itemsize <= budget, blocks
    b = min(rows, blocks.rows)
    classes = plan.grad_classes(b, hidden, vocab, itemsize, budget, True)
    assert b * (4 * hidden + classes * itemsize) <= budget, classes
    assert rows * plan.grad_classes(rows, hidden, vocab, itemsize, budget, False) * \
        itemsize <= budget
    for c in (blocks.classes, classes):
        assert c % 64 == 0 or c == vocab


@pytest.mark.parametrize("vocab,hidden,itemsize,budget,classes,per_row", [
    # (a scalar loss's class chunks, then a per-row call's)
    (32000, 2048, 2, 64 << 20, False, False),   # 1048 rows of bf16 logits: row chunks
    (128256, 4096, 2, 64 << 20, True, True),    # 261 rows: below 300 and 768
    (128256, 2048, 2, 64 << 20, True, True),    # 261 rows, D x budget = 2^37
    (128256, 8192, 2, 76 << 20, False, True),   # 310 rows: below 768, not 300
    (128256, 4096, 2, 128 << 20, False, True),  # 523 rows
    (151936, 4096, 2, 256 << 20, False, False),  # 883 rows
    (32000, 2048, 2, 32 << 20, False, False),   # 524 rows, but D x budget < 2^37
    (32000, 2048, 2, 16 << 20, False, False),   # 262 rows, as well (256 applies)
    (151936, 4096, 2, 64 << 20, True, True),    # 220 rows, D >= 2048: class chunks
    (151936, 2048, 2, 64 << 20, True, True),    # 220 rows, D >= 2048: class chunks
    (151936, 1536, 2, 64 << 20, False, False),  # 220 rows, a smaller D: rows from 64 rows
    (151936, 1536, 2, 16 << 20, True, True),    # 55 rows
    (128256, 8192, 4, 64 << 20, True, True), (128256, 8192, 4, 512 << 20, False, False),
    (128256, 4096, 2, 0, False, False),         # the default: row chunks
])
def test_by_classes(monkeypatch, vocab, hidden, itemsize, budget, classes, per_row):
    monkeypatch.setattr(plan, "ROWS_MIN", 256)     # (the shipped values; the fixture's: 2)
    monkeypatch.setattr(plan, "ROWS_MIN_SCALAR", 300)
    monkeypatch.setattr(plan, "ROWS_MIN_PER_ROW", 768)
    assert plan.by_classes(vocab, hidden, itemsize, budget) == classes
    assert plan.by_classes(vocab, hidden, itemsize, budget, per_row=True) == per_row


def test_per_row_calls_take_their_own_threshold(monkeypatch):
    """A budget between the two thresholds: the scalar loss chunks by rows, a per-row call
    (forward statistics, kept logits and backward alike) by classes; both as float64's."""
    monkeypatch.setattr(plan, "ROWS_MIN_PER_ROW", 20)
    monkeypatch.setattr(plan, "CLASSES_MIN_HIDDEN", 0)
    monkeypatch.setattr(plan, "CLASSES_MIN_WORK", 0)
    ran = []
    for module, name in [(class_chunks, "block_statistics"), (class_chunks, "grads_by_classes"),
                         (linear, "_grads_by_rows"), (linear, "_fast_by_rows"),
                         (linear, "_fast_by_classes")]:
        def spy(*args, _name=name, _of=getattr(module, name), **kwargs):
            ran.append(_name)
            return _of(*args, **kwargs)
        monkeypatch.setattr(module, name, spy)
    h, w, b, t = _data("thresholds")    # ("rows": a budget of 10 rows of logits, >= 2, < 20)
    for reduction, want in [("mean", {"_fast_by_rows"}),
                            ("none", {"block_statistics", "grads_by_classes"})]:
        ran.clear()
        out, grads = _run(_ours("rows"), h, w, None, t, reduction=reduction)
        assert set(ran) == want, (reduction, ran)
        ref, ref_grads = _run(_ref64, h.double(), w.double(), None, t, reduction=reduction)
        assert_loss_close(out, ref)
        for got, expect in zip(grads, ref_grads):
            assert_grad_close(got, expect)


@pytest.mark.parametrize("rows,r,expected", [
    (8192, 667, 632),      # 13 chunks either way: 632 rows (a multiple of 4) instead of 631
    (37, 10, 10),          # 4 chunks: aligned would be 12 rows, over r: 10 as they are
    (100, 7, 7),
    (300, 300, 300), (300, 1000, 300),   # one chunk: all rows, aligned or not
    (301, 1, 1),
])
def test_evened_rows(rows, r, expected):
    step = plan.evened(rows, r)
    assert step == expected
    assert -(-rows // step) == -(-rows // min(r, rows))     # no more chunks than r allows


@pytest.mark.parametrize("rows,hidden,vocab,expected", [
    (8192, 4096, 128256, 4096),    # D rows: the chunk's logits as large as W; 2 chunks
    (8192, 2048, 128256, 2048),    # Llama-3.2-1B's head: 4 chunks of 512 MiB
    (8192, 768, 32768, 8192),      # at least 2^28 logits: one chunk for a small head
    (16384, 4096, 151936, 3280),   # at most 2^29 logits (3533 rows), evened over 5 chunks
    (100, 64, 1000, 100),          # fewer rows than a chunk: one chunk
])
def test_fast_chunk_rows(rows, hidden, vocab, expected):
    r = plan.fast_chunk_rows(rows, vocab, hidden)
    assert r == expected
    n = -(-rows // r)
    assert r * vocab <= max(plan.FAST_CHUNK_ELEMENTS, plan.MIN_CHUNK * vocab)
    assert rows - (n - 1) * r > 0 and (n == 1 or rows - (n - 1) * r > r // 2)  # no sliver


def test_module():
    torch.manual_seed(0)
    m = inductor_ce.LinearCrossEntropyLoss(D, V, bias=True, label_smoothing=0.1)
    h, _, _, t = _data("module")
    loss = m(h, t)
    want = inductor_ce.cross_entropy(m.linear(h), t, label_smoothing=0.1)
    torch.testing.assert_close(loss, want)
    loss.backward()
    assert m.linear.weight.grad is not None and m.linear.bias.grad is not None


@pytest.mark.parametrize("bad,error,match", [
    (dict(policy="auto"), ValueError, "policy"),
    (dict(memory_budget=0), ValueError, "memory_budget"),
    (dict(memory_budget=True), TypeError, "memory_budget"),
    (dict(memory_budget=1e9), TypeError, "memory_budget"),
    (dict(memory_budget=1 << 20, chunk_size=8), ValueError, "memory_budget alone"),
    (dict(chunk_size=0), ValueError, "chunk_size"),
    (dict(linear_weight=torch.randn(V, D + 1)), ValueError, "linear_weight"),
    (dict(linear_weight=torch.randn(V, D).double()), TypeError, "linear_weight"),
    (dict(linear_bias=torch.randn(V + 1)), ValueError, "linear_bias"),
    (dict(target=torch.zeros(N + 1, dtype=torch.long)), ValueError, "target"),
    (dict(target=torch.zeros(N)), TypeError, "target"),
    (dict(target=torch.rand(N, V).softmax(-1)), TypeError, "no probability targets"),
    (dict(input=torch.randn(N, D).double()), TypeError, "input"),
    (dict(reduction="avg"), ValueError, "reduction"),
    (dict(weight=torch.rand(V - 1)), ValueError, "weight"),
])
def test_bad_input_names_the_argument(bad, error, match):
    h, w, b, t = _data("bad")
    args = dict(input=h, linear_weight=w, target=t)
    args.update({k: v for k, v in bad.items() if k in args})
    kw = {k: v for k, v in bad.items() if k not in args}
    with pytest.raises(error, match=match):
        inductor_ce.linear_cross_entropy(args["input"], args["linear_weight"], args["target"],
                                         **kw)


# The message of every path, the kernels' asserts included, names no function (not
# cross_entropy where linear_cross_entropy was called).
RANGE_ERROR = r"^inductor_ce: target out of range"


def test_target_out_of_range_raises():
    """Every entry, whichever op and chunking it runs, refuses a target outside [0, V) that
    is not ignore_index (the row chunks' ce ops assert it in their kernels; the class chunks
    and the vocabulary-parallel shards check it before mapping targets to columns), with the
    same message; a target equal to a custom ignore_index is no error."""
    h, w, b, t = _data("range")
    for bad in (V, -1, V + 7):
        t_bad = t.clone()
        t_bad[3] = bad
        for design in DESIGNS:
            calls = [dict(reduction="mean"), dict(reduction="none"), dict(return_lse=True),
                     dict(reduction="none", temperature=0.7)]
            for kw in calls:
                for grad in (True, False):
                    with torch.set_grad_enabled(grad), \
                            pytest.raises(RuntimeError, match=RANGE_ERROR):
                        _ours(design)(h.requires_grad_(grad), w, t_bad, **kw)
    with pytest.raises(RuntimeError, match=RANGE_ERROR):
        t_bad = t.clone()
        t_bad[5] = V
        inductor_ce.linear_log_probs(h, w, t_bad)
    t_ok = torch.where(t == -100, -1, t)
    want = inductor_ce.linear_cross_entropy(h, w, t, reduction="none")
    torch.testing.assert_close(
        inductor_ce.linear_cross_entropy(h, w, t_ok, reduction="none", ignore_index=-1), want)


def test_deprecated_policy_and_chunk_size():
    """policy and chunk_size still work, with a FutureWarning naming memory_budget:
    "compact" is LEAN_BUDGET, chunk_size=R is R rows of logits."""
    h, w, b, t = _data("deprecated")
    want = inductor_ce.linear_cross_entropy(h, w, t)
    for kw in (dict(policy="compact"), dict(policy="fast"), dict(chunk_size=10)):
        with pytest.warns(FutureWarning, match="memory_budget"):
            torch.testing.assert_close(inductor_ce.linear_cross_entropy(h, w, t, **kw), want)
    from inductor_ce.op.checks import check_deprecated
    assert plan.deprecated_budget(None, "compact", None, w) == plan.LEAN_BUDGET
    assert plan.deprecated_budget(None, None, 10, w) == 10 * V * 4
    with pytest.raises(ValueError, match="policy"):
        check_deprecated(None, "lean", None)
    # R rows of the logits the ops make: under bf16 autocast of float32 operands, bf16 ones
    # (it counted the float32 weight's 4 bytes: 2R rows); a product past int64 is the
    # largest budget (it was an error of the op's schema that named no argument).
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert plan.deprecated_budget(None, None, 10, w, h) == 10 * V * 2
    assert plan.deprecated_budget(None, None, 2**60, w, h) == 2**63 - 1
    with pytest.warns(FutureWarning):
        torch.testing.assert_close(inductor_ce.linear_cross_entropy(h, w, t, chunk_size=2**60),
                                   want)


def test_budget_and_options_errors_name_the_argument():
    """memory_budget past int64 (the ops' schemas) and an options= that is not torch's
    LinearCrossEntropyOptions (it was ignored, whatever it was) are refused by name, by the
    function and the module."""
    h, w, b, t = _data("deprecated")
    h.requires_grad_()
    with pytest.raises(ValueError, match=r"memory_budget must be None or an int in \[1, 2\*\*63\)"):
        inductor_ce.linear_cross_entropy(h, w, t, memory_budget=2**63)
    inductor_ce.linear_cross_entropy(h, w, t, memory_budget=2**63 - 1).backward()
    for bad in ("garbage", 123, {"batch_chunk_size": 2}):
        with pytest.raises(TypeError, match="options must be None or torch's "
                                            "LinearCrossEntropyOptions"):
            inductor_ce.linear_cross_entropy(h, w, t, options=bad)
        with pytest.raises(TypeError, match="options must be None or torch's "
                                            "LinearCrossEntropyOptions"):
            inductor_ce.LinearCrossEntropyLoss(h.shape[-1], w.shape[0], options=bad)


def test_torch_func_and_forward_ad():
    """torch.func.grad and a jvp differentiate the decomposition (the ops have a backward
    formula only): values of the float64 reference, never a silent zero tangent."""
    h, w, b, t = _data("func")
    f = lambda h, w: inductor_ce.linear_cross_entropy(h, w, t, label_smoothing=0.1)  # noqa
    ref = lambda h, w: _ref64(h, w, t, label_smoothing=0.1)  # noqa: E731
    gh, gw = torch.func.grad(f, argnums=(0, 1))(h, w)
    rh, rw = torch.func.grad(ref, argnums=(0, 1))(h.double(), w.double())
    assert_grad_close(gh, rh)
    assert_grad_close(gw, rw)
    v = torch.randn(h.shape, generator=torch.Generator().manual_seed(9))
    _, tangent = torch.func.jvp(lambda h: f(h, w), (h,), (v,))
    _, ref_tangent = torch.func.jvp(lambda h: ref(h, w.double()), (h.double(),), (v.double(),))
    assert tangent != 0
    assert_loss_close(tangent, ref_tangent, rtol=1e-5, atol=1e-7)


def test_flop_counter_counts_the_head_s_gemms():
    """FlopCounterMode (what MFU tools count with) sees the fused head's GEMMs: three for a
    scalar loss's step (logits, dh, dW, as the unfused step), four for per-row losses (the
    backward recomputes the logits), one without a gradient."""
    from torch.utils.flop_counter import FlopCounterMode
    T, D, V = 24, 8, 300
    h, w = torch.randn(T, D, requires_grad=True), torch.randn(V, D, requires_grad=True)
    t = torch.randint(0, V, (T,))
    gemm = 2 * T * D * V

    def counted(fn):
        with FlopCounterMode(display=False) as counter:
            fn()
        return counter.get_total_flops()

    assert counted(lambda: F.cross_entropy(h @ w.t(), t).backward()) == 3 * gemm
    assert counted(lambda: inductor_ce.linear_cross_entropy(h, w, t).backward()) == 3 * gemm
    assert counted(lambda: inductor_ce.linear_cross_entropy(
        h, w, t, reduction="none").sum().backward()) == 4 * gemm
    with torch.no_grad():
        assert counted(lambda: inductor_ce.linear_cross_entropy(h, w, t)) == gemm
        assert counted(lambda: inductor_ce.linear_cross_entropy(h, w, t, reduction="none",
                                                                memory_budget=1 << 20)) == gemm
