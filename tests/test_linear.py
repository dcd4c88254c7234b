"""The fused linear + cross-entropy (inductor_ce/linear.py) on the CPU: both policies against
float64 for every option, the collapse margins, torch.compile with dynamic rows, export, opcheck,
torch 2.13's own F.linear_cross_entropy, and bad input.

Shapes are small (N = 37 rows, D = 16, V = 301) with chunk sizes that make several chunks and a
ragged last one (10 rows, 64 classes), so the loops and their edges run; float32 inputs, whose
float64 reference is computed from the same values (logits of float64 GEMMs).
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
from inductor_ce.linear import head as linear
from _reference import (assert_grad_close, assert_loss_close, collapse_safe_reference,
                        gemm_rounding, reference)
from test_lowering import TRITON_MISSING


N, D, V = 37, 16, 301
CHUNK = {"fast": 10, "compact": 64}
POLICIES = ["fast", "compact"]
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


def _ours(policy):
    def fn(h, w, *rest, **kw):
        b = rest[0] if len(rest) == 2 else None
        return inductor_ce.linear_cross_entropy(h, w, rest[-1], linear_bias=b, policy=policy,
                                                chunk_size=CHUNK[policy], **kw)
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
@pytest.mark.parametrize("policy", POLICIES)
def test_matches_float64(policy, options, shape):
    _check_float64(_ours(policy), options, shape, (options, shape))


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


@pytest.mark.parametrize("policy", POLICIES)
def test_policies_and_unfused_agree_in_bf16(policy):
    """bf16 h, W: our errors against float64 are at most twice our unfused path's (whose
    logits are rounded to bf16 once, as every chunk's are), loss and both gradients."""
    h, w, b, t = _data("bf16", (64,), dtype=torch.bfloat16)
    got, got_g = _run(_ours(policy), h, w, None, t, label_smoothing=0.1)
    unf, unf_g = _run(lambda h, w, t, **kw: inductor_ce.cross_entropy(h @ w.t(), t, **kw),
                      h, w, None, t, label_smoothing=0.1)
    ref, ref_g = _run(_ref64, h.double(), w.double(), None, t, label_smoothing=0.1)
    for a, u, r in zip([got] + got_g, [unf] + unf_g, [ref] + ref_g):
        err = ((a.double() - r).norm() / r.norm()).item()
        err_unfused = ((u.double() - r).norm() / r.norm()).item()
        assert err <= 2 * err_unfused + 1e-6, (err, err_unfused)


@pytest.mark.parametrize("policy", POLICIES)
def test_collapse_margins(policy):
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
    loss = inductor_ce.linear_cross_entropy(hh, ww, t, reduction="sum", policy=policy,
                                            chunk_size=2 if policy == "fast" else 4096)
    loss.backward()
    assert_loss_close(loss, ref_loss.sum(), rtol=1e-5, atol=0.0)
    per_row = inductor_ce.linear_cross_entropy(h, w, t, reduction="none", policy=policy)
    assert bool((per_row > 0).all())           # nothing collapsed to 0
    assert_loss_close(per_row, ref_loss, rtol=1e-5, atol=0.0)
    # dh = dz @ W sums 32000 float32 products: their rounding comes on top.
    assert_grad_close(hh.grad, ref_dz @ w.double(), extra_tol=gemm_rounding(ref_dz, w))
    assert_grad_close(ww.grad, ref_dz.t() @ h.double())


@pytest.mark.parametrize("policy", POLICIES)
def test_compiled_rows_dynamic_no_recompile(policy):
    from torch._dynamo.testing import CompileCounterWithBackend
    counter = CompileCounterWithBackend("inductor")
    torch._dynamo.reset()
    fn = torch.compile(lambda h, w, t: inductor_ce.linear_cross_entropy(
        h, w, t, policy=policy, chunk_size=CHUNK[policy], z_loss=1e-3), backend=counter,
        fullgraph=True, dynamic=True)
    frames = []
    for rows in (37, 20, 64):
        h, w, b, t = _data(("compiled", rows), (rows,))
        out, grads = _run(fn, h, w, None, t)
        frames.append(counter.frame_count)
        ref, ref_grads = _run(_ref64, h.double(), w.double(), None, t, z_loss=1e-3)
        assert_loss_close(out, ref)
        for got, want in zip(grads, ref_grads):
            assert_grad_close(got, want)
    # (The first compile may count twice: Dynamo restarts once to specialize the float
    # options a custom op takes. What matters: nothing after it.)
    assert frames[1:] == [frames[0]] * 2, frames


@pytest.mark.parametrize("options", list(OPTIONS))
def test_compiled_compact_matches_float64(options):
    """"compact" under torch.compile: the backward's input gradient is traced (one pointwise
    expression over u, the target's rows of W and s), every option against float64."""
    _check_float64(torch.compile(_ours("compact"), fullgraph=True), options, (N,),
                   ("compiled-compact", options))


@pytest.mark.parametrize("policy", POLICIES)
def test_inputs_unchanged(policy):
    h, w, b, t = _data("functional", bias=True)
    before = [x.clone() for x in (h, w, b, t)]
    _run(_ours(policy), h, w, b, t, label_smoothing=0.1)
    assert all(torch.equal(x, y) for x, y in zip((h, w, b, t), before))


def test_opcheck():
    h, w, b, t = _data("opcheck", (3, 5), bias=True)
    cw = torch.rand(V, generator=torch.Generator().manual_seed(9)) + 0.5
    leaves = [x.clone().requires_grad_() for x in (h, w, b)]
    torch.library.opcheck(torch.ops.inductor_ce.linear_ce_fwd.default,
                          (*leaves, t, cw, -100, 5.0, True, 0, V, 64, False))
    # With with_grad, the outputs u and s are the backward's, which eagerly overwrites u with
    # the input's gradient: opcheck's comparison of the outputs after a backward does not
    # apply (the losses and gradients of both modes are compared in the tests above).
    torch.library.opcheck(torch.ops.inductor_ce.linear_ce_fwd.default,
                          (*leaves, t, cw, -100, 5.0, True, 0, V, 64, True),
                          test_utils=("test_schema", "test_autograd_registration",
                                      "test_faketensor"))
    torch.library.opcheck(torch.ops.inductor_ce.linear_ce_fast.default,
                          (*leaves, t, cw, -100, 5.0, 0.1, 1e-2, True, 4))
    stats = decomposition.linear_ce_fwd(h, w, b, t, cw, -100, 5.0, True, 0, V, 0, False)
    torch.library.opcheck(torch.ops.inductor_ce.linear_ce_bwd.default,
                          (h, w, b, t, cw, stats[0], *stats[:3], -100, 5.0, 0, 64))


@pytest.mark.parametrize("block", [37, 8], ids=["one-block", "blocks"])
@pytest.mark.parametrize("softcap", [None, 5.0])
def test_ops_match_their_decomposition(monkeypatch, block, softcap):
    """The forward's statistics and its sums u, s (tiles of ``block`` rows x 64 classes: the
    online softmax over ragged chunks and blocks), and the backward's dW, db.
    (sum_wz adds V terms of both signs: chunks sum them in another order, so it is compared
    at the scale of the terms, 1e-6 of the largest row's sum of |w_j z_j|; u and s, sums of
    W's rows, at 1e-5.)"""
    monkeypatch.setattr(linear, "COMPACT_BLOCK_ROWS", block)
    h, w, b, t = _data("decomp", bias=True, ignore_index=3)
    cw = torch.rand(V, generator=torch.Generator().manual_seed(9)) + 0.5
    got = linear.linear_ce_fwd(h, w, b, t, cw, 3, softcap, True, 0, V, 64, True)
    want = decomposition.linear_ce_fwd(h, w, b, t, cw, 3, softcap, True, 0, V, 0, True)
    assert got[4].numel() == (0 if softcap is None else h.numel())
    terms = (F.linear(h, w, b).abs() * cw).sum(-1).max().item()
    for i, (g_, w_) in enumerate(zip(got, want)):
        torch.testing.assert_close(g_, w_, rtol=1e-6, atol=1e-6 * terms if i == 2 else 1e-5)
    gen = torch.Generator().manual_seed(3)
    g = [torch.randn(N, generator=gen) for _ in range(3)]
    # (chunks add the products of their classes in another order: compared, like the
    # statistics, at the scale of the gradient, since a cancelling element has no bound on
    # its relative error in any summation order)
    for got, want in zip(linear.linear_ce_bwd(h, w, b, t, cw, g[0], *g, 3, softcap, 0, 64),
                         decomposition.linear_ce_bwd(h, w, b, t, cw, g[0], *g, 3, softcap, 0,
                                                     0)):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5 * want.abs().max().item())


def test_export_keeps_one_node_and_decomposes():
    """Both policies export as one node of their op; the compact one's statistics op has an
    ATen decomposition (the fast op returns gradients its autograd computes: export it with
    policy="compact" to lower it to ATen)."""
    class Head(torch.nn.Module):
        def __init__(self, policy):
            super().__init__()
            self.policy = policy

        def forward(self, h, w, t):
            return inductor_ce.linear_cross_entropy(h, w, t, label_smoothing=0.1,
                                                    policy=self.policy)

    h, w, b, t = _data("export")
    fast = torch.export.export(Head("fast"), (h, w, t))
    targets = [n.target for n in fast.graph.nodes if n.op == "call_function"]
    assert targets.count(torch.ops.inductor_ce.linear_ce_fast.default) == 1
    torch.testing.assert_close(fast.module()(h, w, t),
                               inductor_ce.linear_cross_entropy(h, w, t, label_smoothing=0.1))
    ep = torch.export.export(Head("compact"), (h, w, t))
    targets = [n.target for n in ep.graph.nodes if n.op == "call_function"]
    assert targets.count(torch.ops.inductor_ce.linear_ce_fwd.default) == 1
    lowered = ep.run_decompositions({torch.ops.inductor_ce.linear_ce_fwd.default:
                                     decomposition.linear_ce_fwd})
    assert not any("linear_ce" in str(n.target) for n in lowered.graph.nodes)
    want = inductor_ce.linear_cross_entropy(h, w, t, label_smoothing=0.1)
    torch.testing.assert_close(ep.module()(h, w, t), want)
    torch.testing.assert_close(lowered.module()(h, w, t), want)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_matches_torch_linear_cross_entropy(reduction):
    """torch 2.13's F.linear_cross_entropy, its chunked path included, gives our values."""
    if not hasattr(F, "linear_cross_entropy"):
        pytest.skip("torch < 2.13")
    h, w, b, t = _data("torch-lce")
    ours = inductor_ce.linear_cross_entropy(h, w, t, reduction=reduction)
    for options in (None, torch.nn.LinearCrossEntropyOptions(batch_chunk_size=8)):
        theirs = F.linear_cross_entropy(h, w, t, reduction=reduction, options=options)
        torch.testing.assert_close(ours, theirs, rtol=2e-6, atol=2e-6)


def test_all_rows_ignored():
    """As cross_entropy: "mean" over zero kept rows is nan, "sum" 0, gradients 0 for "sum"."""
    h, w, b, t = _data("ignored")
    t = torch.full_like(t, -100)
    for policy in POLICIES:
        assert torch.isnan(inductor_ce.linear_cross_entropy(h, w, t, policy=policy))
        out, grads = _run(_ours(policy), h, w, None, t, reduction="sum")
        assert out == 0 and all(bool((g == 0).all()) for g in grads)


@pytest.mark.parametrize("policy", POLICIES)
def test_non_finite_logits_as_unfused(policy):
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
        reduction = "sum" if policy == "fast" else "none"
        results = []
        for fused in (True, False):
            hh, ww = h.clone().requires_grad_(), w.clone().requires_grad_()
            out = (inductor_ce.linear_cross_entropy(hh, ww, t, linear_bias=b, policy=policy,
                                                    chunk_size=CHUNK[policy],
                                                    reduction=reduction) if fused else
                   inductor_ce.cross_entropy(F.linear(hh, ww, b), t, reduction=reduction))
            out.sum().backward()
            results.append((out.detach(), hh.grad, ww.grad))
        for x, y in zip(*results):
            torch.testing.assert_close(x, y, rtol=1e-5, atol=1e-5, equal_nan=True)


def test_compact_backward_runs_what_is_needed(monkeypatch):
    """"compact": the eager backward writes the input's gradient into the forward's sum u
    (no second buffer of its size), out of place when the graph is kept; a frozen W runs no
    chunk of the backward, a frozen input computes no u."""
    calls = []
    dh_of = linear._dh
    bwd_of = linear.linear_ce_bwd

    def dh_spy(u, *args):
        out = dh_of(u, *args)
        calls.append(("dh", out.data_ptr() == u.data_ptr()))
        return out

    def bwd_spy(*args):
        calls.append(("dW",))
        return bwd_of(*args)

    monkeypatch.setattr(linear, "_dh", dh_spy)
    monkeypatch.setattr(linear, "linear_ce_bwd", bwd_spy)
    h, w, b, t = _data("needed")
    for frozen, retain, want in [(None, False, [("dh", True), ("dW",)]),
                                 (None, True, [("dh", False), ("dW",)]),
                                 ("w", False, [("dh", True)]),
                                 ("h", False, [("dW",)])]:
        calls.clear()
        hh, ww = h.clone().requires_grad_(frozen != "h"), w.clone().requires_grad_(frozen != "w")
        loss = inductor_ce.linear_cross_entropy(hh, ww, t, policy="compact", chunk_size=64)
        loss.backward(retain_graph=retain)
        assert calls == want, (frozen, retain, calls)
        ref, ref_grads = _run(_ref64, h.double(), w.double(), None, t)
        for leaf, want_grad in zip((hh, ww), ref_grads):
            if leaf.requires_grad:
                assert_grad_close(leaf.grad, want_grad)


def test_retain_graph():
    """A second backward through a kept graph adds the same gradients again: the eager
    backwards then leave their saved buffers untouched (out of place)."""
    h, w, b, t = _data("retain")
    for policy in POLICIES:
        _, once = _run(_ours(policy), h, w, None, t)
        hh, ww = h.clone().requires_grad_(), w.clone().requires_grad_()
        loss = inductor_ce.linear_cross_entropy(hh, ww, t, policy=policy,
                                                chunk_size=CHUNK[policy])
        (0.5 * loss).backward(retain_graph=True)   # (a scaling in place would show here)
        (2 * loss).backward()
        torch.testing.assert_close(hh.grad, 2.5 * once[0])
        torch.testing.assert_close(ww.grad, 2.5 * once[1])


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_fast_upstream_gradient(compiled):
    """The "fast" backward multiplies the forward's gradients by the upstream g (eagerly in
    place, skipped on CUDA where g == 1): c * loss gets c times loss's gradients, exactly
    for a power of two."""
    h, w, b, t = _data("upstream", bias=True)
    fn = _ours("fast")
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
    against ATen's), x unchanged where g == 1, ragged sizes and empty tensors. (The
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
    for gv in (1.0, 0.37, -2.5, 0.0, float("inf"), float("nan")):
        y = x.clone()
        scaling.launch(y, torch.tensor(gv))
        torch.testing.assert_close(y, x * gv, rtol=0, atol=0, equal_nan=True)
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
    loss = inductor_ce.linear_cross_entropy(h, w, t, policy="fast")
    with Zeros() as mode:
        loss.backward()
    assert tuple(h.shape) not in mode.shapes and tuple(w.shape) not in mode.shapes, mode.shapes
    assert h.grad is not None and w.grad is not None


def test_eager_chunks_run_compiled_kernels(monkeypatch):
    """At any size (forced here), each chunk's ce_fwd and its in-place ce_bwd run the
    lowering's kernels: "fast" compiles them once (its chunks' rows are symbolic) and one
    kernel scaling the gradients by the upstream scalar (dh and dW share it: rows symbolic,
    D fixed); "compact" compiles ce_fwd for the full and the ragged last tile (a V each) and
    ce_bwd once for chunks of every width (its backward's shrink near the end: V symbolic),
    inside dW or not. Other row counts compile nothing more, and no chunk falls back to the
    decomposition."""
    monkeypatch.setattr(eager, "MODE", "compiled")

    def no_decomposition(*args, **kwargs):
        raise AssertionError("a chunk ran ce_bwd's decomposition")
    monkeypatch.setattr(decomposition, "ce_bwd", no_decomposition)
    for policy in POLICIES:
        before = eager.compiles
        for rows in (N, 20, 64):
            h, w, b, t = _data(("compiled-eager", policy, rows), (rows,))
            out, grads = _run(_ours(policy), h, w, None, t, softcap=3.0)
            ref, ref_grads = _run(_ref64, h.double(), w.double(), None, t, softcap=3.0)
            assert_loss_close(out, ref)
            for got, want in zip(grads, ref_grads):
                assert_grad_close(got, want)
            assert eager.compiles - before == 3, (policy, rows)


@pytest.mark.parametrize("bias", [False, True])
def test_compact_backward_chunks_live_in_dw(monkeypatch, bias):
    """The backward's chunks of logits are dW's own memory where the plan hosts them (the
    rows just after each chunk), the others share one buffer: the step holds nothing of the
    chunks' size beyond the gradients. (Compared by address: dW is W.grad itself.)"""
    h, w, b, t = _data("in-dw", bias=bias)
    leaves = [p.clone().requires_grad_() for p in (h, w) + ((b,) if bias else ())]
    loss = inductor_ce.linear_cross_entropy(*leaves[:2], t, linear_bias=leaves[2] if bias
                                            else None, policy="compact",
                                            chunk_size=CHUNK["compact"])
    seen, real = [], eager.ce_bwd_

    def spy(x, *args, **kwargs):
        seen.append((x.data_ptr(), tuple(x.shape)))
        return real(x, *args, **kwargs)
    monkeypatch.setattr(eager, "ce_bwd_", spy)
    loss.backward()
    chunks, own = linear.compact_backward_chunks(N, V, D, CHUNK["compact"])
    assert any(hosted for *_, hosted in chunks) and not all(hosted for *_, hosted in chunks)
    assert len(seen) == len(chunks)
    dw, size = leaves[1].grad, leaves[1].grad.element_size()
    spare = {ptr for (ptr, _), c in zip(seen, chunks) if not c[2]}
    assert len(spare) == 1
    for (ptr, shape), (v0, v1, hosted) in zip(seen, chunks):
        assert shape == (N, v1 - v0)
        assert (ptr == dw.data_ptr() + v1 * D * size) if hosted else ptr in spare
    ref, ref_grads = _run(_ref64, h.double(), w.double(), b.double() if bias else None, t)
    assert_loss_close(loss, ref)
    for got, want in zip([p.grad for p in leaves], ref_grads):
        assert_grad_close(got, want)


@pytest.mark.parametrize("rows,hidden,vocab", [
    (8192, 4096, 128256), (32768, 4096, 128256), (8192, 2304, 256000), (16384, 4096, 151936),
    (N, D, V), (100000, 1024, 50000), (3, 16, 5), (0, 16, 300), (64, 0, 300),
])
def test_compact_backward_chunks_fit_in_dw(rows, hidden, vocab):
    """The backward's chunks cover the classes in order; each hosted chunk's logits fit in
    dW's rows after it (which no chunk has written yet), the others in the buffer of their
    own: at most COMPACT_SPARE_ELEMENTS logits (or 4 classes) where that leaves at most
    COMPACT_MAX_NARROW narrow chunks (the benchmark shapes), else at most
    COMPACT_OWN_MAX_ELEMENTS (rows >> D)."""
    chunks, own = linear.compact_backward_chunks(rows, vocab, hidden)
    assert [c[0] for c in chunks] == [0] + [c[1] for c in chunks[:-1]]
    assert chunks[-1][1] == vocab and all(v1 > v0 for v0, v1, _ in chunks)
    for v0, v1, hosted in chunks:
        if hosted:
            assert rows * (v1 - v0) <= (vocab - v1) * hidden
        else:
            assert v1 - v0 <= own
    narrow = sum(v1 - v0 < chunks[0][1] for v0, v1, _ in chunks)
    if narrow <= linear.COMPACT_MAX_NARROW and rows <= 32768:
        assert rows * own <= max(linear.COMPACT_SPARE_ELEMENTS, 4 * rows), own
    assert rows * own <= max(linear.COMPACT_OWN_MAX_ELEMENTS, 4 * rows), own
    if rows >= 8192:   # the first chunk in dW, as wide as a chunk or as fits
        assert chunks[0][2] and chunks[0][1] <= linear.compact_chunk_classes(rows, vocab)


@pytest.mark.parametrize("rows,hidden,vocab,expected", [
    (8192, 4096, 128256, 4096),    # D rows: the chunk's logits as large as W; 2 chunks
    (8192, 2048, 128256, 2048),    # Llama-3.2-1B's head: 4 chunks of 512 MiB
    (8192, 768, 32768, 8192),      # at least 2^28 logits: one chunk for a small head
    (16384, 4096, 151936, 3277),   # at most 2^29 logits (3533 rows), evened over 5 chunks
    (100, 64, 1000, 256),          # fewer rows than a chunk: one chunk
])
def test_fast_chunk_rows(rows, hidden, vocab, expected):
    r = linear.fast_chunk_rows(rows, vocab, hidden)
    assert r == expected
    n = -(-rows // r)
    assert r * vocab <= max(linear.FAST_CHUNK_ELEMENTS, linear.MIN_CHUNK * vocab)
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
    (dict(chunk_size=0), ValueError, "chunk_size"),
    (dict(linear_weight=torch.randn(V, D + 1)), ValueError, "linear_weight"),
    (dict(linear_weight=torch.randn(V, D).double()), TypeError, "linear_weight"),
    (dict(linear_bias=torch.randn(V + 1)), ValueError, "linear_bias"),
    (dict(target=torch.zeros(N + 1, dtype=torch.long)), ValueError, "target"),
    (dict(target=torch.zeros(N)), TypeError, "target"),
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


def test_target_out_of_range_raises():
    h, w, b, t = _data("range")
    t[3] = V
    for policy in POLICIES:
        with pytest.raises(RuntimeError):
            inductor_ce.linear_cross_entropy(h, w, t, policy=policy)


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
