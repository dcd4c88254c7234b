"""The eager path: without torch.compile, the ops and the loss run the kernels our Inductor
lowering generates (inductor_ce/eager/), compiled once per signature with the rows dynamic.

On the CPU these are Inductor's C++ kernels. Every compile costs seconds here, so the grid is a
deliberate one (each option on and off, each dtype, each layout class) rather than the full
product that tests/test_core.py runs through the decomposition; `compiles` counts what each test
compiled, so that sharing a compiled function is checked, not assumed.
"""
from __future__ import annotations

import threading
import warnings

import pytest
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

import inductor_ce
from inductor_ce.op import decomposition
from inductor_ce.eager import kernels as eager
from inductor_ce.eager import loss as eager_loss
from inductor_ce._inductor import capture, standalone
from _reference import (assert_grad_close, assert_loss_close, assert_within_one_rounding,
                        collapse_safe_reference)
from test_core import (DTYPES, MARGINS, _view_of, collapse_logits, make_case, make_weight,
                       run_reference)


@pytest.fixture(autouse=True)
def compiled_at_any_size(monkeypatch):
    """The tests' shapes are tiny: force the compiled path (auto mode needs MIN_ELEMENTS).
    (And the same random data on every run.)"""
    monkeypatch.setattr(eager, "MODE", "compiled")
    torch.manual_seed(0)


def _ours_and_reference(layout, dtype, **kw):
    leaf, logits, target = make_case(layout, dtype, kw.get("ignore_index", -100), ("eager", kw))
    upstream = None
    if kw.get("reduction") == "none":
        upstream = torch.randn(target.shape, generator=torch.Generator().manual_seed(1))
    before = eager.compiles
    out = inductor_ce.cross_entropy(logits, target, **kw)
    loss = out[0] if kw.get("return_lse") else out
    loss.backward(upstream)
    compiled = eager.compiles - before
    kw.pop("return_lse", None)
    ref, ref_grad = run_reference(leaf, _view_of(layout), target, upstream, **kw)
    return loss, leaf.grad, ref, ref_grad, compiled, out


OPTION_SETS = {
    "plain": dict(),
    "smooth+ignore": dict(label_smoothing=0.1, ignore_index=3, reduction="sum"),
    "weight+zloss": dict(weighted=True, z_loss=1e-2, reduction="none"),
    "softcap": dict(softcap=5.0),
    "all": dict(weighted=True, label_smoothing=0.1, z_loss=1e-2, softcap=5.0, ignore_index=3),
}


def _options(name):
    kw = dict(OPTION_SETS[name])
    if kw.pop("weighted", False):
        kw["weight"] = make_weight(("eager", name))
    return kw


@pytest.mark.parametrize("variant", ["few_rows", "many_rows"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("options", list(OPTION_SETS))
def test_loss_matches_float64(options, dtype, variant, monkeypatch):
    """Both compiled variants of the loss: for at most FEW_ROWS rows (lowered as few rows)
    and for more (here: FEW_ROWS set to 0, the tests' shapes being small)."""
    if dtype != torch.float32 and options not in ("plain", "all"):
        pytest.skip("other dtypes: two option sets (each is a compile)")
    if variant == "many_rows":
        monkeypatch.setattr(eager_loss, "FEW_ROWS", 0)
    loss, grad, ref, ref_grad, compiled, _ = _ours_and_reference("2d", dtype, **_options(options))
    assert compiled == 2        # the loss: its forward graph and its backward graph
    assert loss.dtype == torch.float32
    assert_loss_close(loss, ref)
    assert grad.dtype == dtype
    assert_grad_close(grad, ref_grad)


@pytest.mark.parametrize("layout,dtype", [("3d", torch.float32), ("strided_rows", torch.bfloat16),
                                          ("strided_cols", torch.float32)])
def test_layouts(layout, dtype):
    """(B, T, V) contiguous merges to the (N, V) function (no compile of its own, once the 2-D
    one exists); strided rows and strided columns are layout classes of their own; none is
    copied (the compiled code reads the view)."""
    if layout == "3d":
        _ours_and_reference("2d", dtype)
    loss, grad, ref, ref_grad, compiled, _ = _ours_and_reference(layout, dtype)
    assert compiled == (0 if layout == "3d" else 2)     # forward and backward graphs
    assert_loss_close(loss, ref)
    assert_grad_close(grad, ref_grad)


def test_strides_of_0_or_1_and_strided_weights_compile_apart(monkeypatch):
    """Expanded (a row or class stride of 0), transposed (a row stride of 1) and strided
    logits, one after the other, and class weights of strides 1, 2 and 0: each call gets
    its own layout's code whatever came first (a stride of 0 or 1 is a constant of the code
    that its first call compiled: a strided call after it failed Inductor's size assert, or
    read the wrong elements with the asserts off), with Inductor's size asserts off (the
    user's setting; our compiles keep them: torch 2.14's code without them fails)."""
    import torch._inductor.config as inductor_config
    monkeypatch.setattr(inductor_config, "size_asserts", False)
    V, N = 50, 6
    t = torch.randint(0, V, (N,))
    base, table = torch.randn(V + 3, V + 3), torch.rand(V, 2)
    logits = [lambda b: b[:1, :V].expand(N, V), lambda b: b[:2 * N:2, :V], lambda b: b[:N, :V],
              lambda b: b[:V, :N].t(), lambda b: b[:N, :1].expand(N, V), lambda b: b[:N, :V]]
    weights = [None, table[:, 0].contiguous(), table[:, 1], table[:1, 0].expand(V)]
    for i, view in enumerate(logits):
        for weight in weights if i in (0, 2) else weights[:1]:
            leaf = base.clone().requires_grad_()
            loss = inductor_ce.cross_entropy(view(leaf), t, weight)
            loss.backward()
            ref_leaf = base.double().requires_grad_()
            ref = F.cross_entropy(view(ref_leaf), t, None if weight is None else weight.double())
            ref.backward()
            assert_loss_close(loss, ref)
            # (A class dimension of stride 0 sums V float32 terms of |.| <= 2/N per element,
            # to 0 in exact arithmetic: their rounding, V * 2^-24 * 2 / N, is the tolerance.)
            spread = torch.full(leaf.shape, V * 2**-24 * 2 / N, dtype=torch.float64) \
                if i == 4 else None
            assert_grad_close(leaf.grad, ref_leaf.grad, extra_tol=spread)
    # The fused head's chunks take the class weight as the loss does.
    h, W = torch.randn(N, 8), torch.randn(V, 8)
    for weight in weights[1:]:
        got = inductor_ce.linear_cross_entropy(h, W, t, weight=weight, reduction="none")
        want = F.cross_entropy(h.double() @ W.double().t(), t, weight.double(),
                               reduction="none")
        assert_loss_close(got, want)


def test_return_lse():
    leaf, logits, target = make_case("strided_rows", torch.float32, -100, ("eager-lse",))
    loss, lse = inductor_ce.cross_entropy(logits, target, softcap=5.0, return_lse=True)
    (loss + lse.sum()).backward()
    leaf64 = leaf.detach().double().requires_grad_()
    z = 5.0 * torch.tanh(leaf64[:, :-1] / 5.0)
    ref_lse = torch.logsumexp(z, -1)
    ref = torch.nn.functional.cross_entropy(z.reshape(-1, z.shape[-1]), target.reshape(-1))
    (ref + ref_lse.sum()).backward()
    assert lse.shape == target.shape
    assert_loss_close(lse, ref_lse, rtol=1e-6, atol=1e-6)
    assert_loss_close(loss, ref)
    assert_grad_close(leaf.grad, leaf64.grad)


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_return_lse_with_every_option(reduction):
    """Both outputs in the gradient, with smoothing (the loss has a third coefficient, lse
    does not), class weights, z-loss and a softcap; per-row upstream gradients for "none"."""
    torch.manual_seed(5)
    x = (torch.randn(40, 13) * 2).requires_grad_()
    t = torch.randint(0, 13, (40,))
    t[::7] = 3
    w = torch.rand(13) + 0.5
    kw = dict(weight=w, ignore_index=3, label_smoothing=0.1, z_loss=1e-2, softcap=5.0,
              reduction=reduction)
    g, g_lse = torch.randn(40), torch.randn(40)
    loss, lse = inductor_ce.cross_entropy(x, t, return_lse=True, **kw)
    out = (loss * g).sum() if reduction == "none" else loss
    (out + (lse * g_lse).sum()).backward()
    x64 = x.detach().double().requires_grad_()
    z = 5.0 * torch.tanh(x64 / 5.0)
    ref_lse = torch.logsumexp(z, -1)
    keep = (t != 3).double()
    wt = w.double()[t] * keep
    nll = torch.nn.functional.cross_entropy(z, t, weight=w.double(), ignore_index=3,
                                            label_smoothing=0.1, reduction="none")
    per_row = nll + 1e-2 * wt * ref_lse ** 2
    ref = per_row if reduction == "none" else per_row.sum() / wt.sum()
    (((ref * g.double()).sum() if reduction == "none" else ref)
     + (ref_lse * g_lse.double()).sum()).backward()
    assert_loss_close(lse, ref_lse, rtol=1e-6, atol=1e-6)
    assert_loss_close(loss, ref)
    assert_grad_close(x.grad, x64.grad)


def test_collapse_grid():
    """The margin grid (V = 32000, margins 0-80) on the compiled path: loss and the whole
    gradient row within 1e-5 of the collapse-safe float64 reference."""
    z, target = collapse_logits(MARGINS)
    x = z.clone().requires_grad_()
    loss = inductor_ce.cross_entropy(x, target, reduction="none")
    loss.sum().backward()
    ref_loss, ref_grad = collapse_safe_reference(z, target)
    assert bool((ref_loss > 0).all())
    assert_loss_close(loss, ref_loss, rtol=1e-5, atol=0.0)
    err = (x.grad.double() - ref_grad).abs()
    assert bool((err <= 1e-5 * ref_grad.abs() + torch.finfo(torch.float32).tiny).all())


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_ops_run_the_lowered_kernels(dtype):
    """Eager ce_fwd / ce_bwd (the ops themselves, as the vocabulary-parallel path and the
    fused linear + cross-entropy call them) compile once and match the decomposition."""
    _, logits, target = make_case("strided_rows", dtype, 3, ("eager-ops", dtype))
    x, w = logits.detach(), make_weight(("eager-ops",))
    before = eager.compiles
    stats = torch.ops.inductor_ce.ce_fwd(x, target, w, 3, torch.tensor(5.0), True)
    ref = decomposition.ce_fwd(x, target, w, 3, 5.0, True)
    for a, b in zip(stats, ref):
        torch.testing.assert_close(a, b, rtol=2e-6, atol=2e-6)
    g = [torch.randn(target.shape, generator=torch.Generator().manual_seed(i)) for i in range(3)]
    grad = torch.ops.inductor_ce.ce_bwd(x, target, w, stats[0], *g, 3, torch.tensor(5.0))
    ref_grad = decomposition.ce_bwd(x, target, w, ref[0], *g, 3, 5.0)
    assert grad.shape == x.shape and grad.is_contiguous()
    assert_within_one_rounding(grad, ref_grad)
    assert eager.compiles - before == 2


def test_no_recompilation_across_row_counts(monkeypatch):
    """One compile (forward and backward graphs) for all row counts up to FEW_ROWS, one more
    for all counts above it."""
    monkeypatch.setattr(eager, "_CACHE", {})    # (compiled here, whatever other tests did)
    calls = []
    kw = dict(label_smoothing=0.05)
    for rows in (24, 7, 1000, 2, 1500, 1025, 3000):
        x = torch.randn(rows, 13, requires_grad=True)
        t = torch.randint(0, 13, (rows,))
        before = eager.compiles
        inductor_ce.cross_entropy(x, t, **kw).backward()
        calls.append(eager.compiles - before)
        ref, ref_grad = run_reference(x, lambda v: v, t, **kw)
        assert_grad_close(x.grad, ref_grad)
    assert calls == [2, 0, 0, 0, 2, 0, 0], calls


def test_each_variant_compiles_under_its_own_salt(monkeypatch):
    """Inductor's FX-graph cache key carries each eager compile's salt, the few-rows variant
    its own: the graphs of the two variants are the same, only the lowering's choices
    differ. (Our ops' fake kernels re-assert the lowering's salt while make_fx traces them;
    they used to replace the eager one, and a cache hit handed one variant the other's code.)"""
    import torch._inductor.compile_fx as compile_fx
    from torch._inductor import config as inductor_config
    salts, real = [], compile_fx.compile_fx_inner

    def spy(*args, **kwargs):
        slot = inductor_config.post_grad_custom_post_pass
        salts.append((slot.salt, slot.variant))
        return real(*args, **kwargs)

    monkeypatch.setattr(compile_fx, "compile_fx_inner", spy)
    monkeypatch.setattr(eager, "_CACHE", {})    # (compiled here, whatever other tests did)
    kw = dict(label_smoothing=0.07)
    for few_rows in (eager_loss.FEW_ROWS, 0):
        monkeypatch.setattr(eager_loss, "FEW_ROWS", few_rows)
        x = torch.randn(6, 13, requires_grad=True)
        inductor_ce.cross_entropy(x, torch.randint(0, 13, (6,)), **kw).backward()
    base = eager.salt()
    assert salts == [(base[0], "eager-few")] * 2 + [base] * 2, salts


def test_few_rows_variant_inlines_the_backward_coefficients(monkeypatch):
    """What the few-rows variant changes in the code (C++ here; on CUDA a launch and three
    buffers less per step): its backward graph computes g times the per-row coefficients
    inside the gradient kernel, the other variant in buffers of its own, one per
    coefficient (a, b, c with smoothing). Both write the gradient into the tensor the
    caller passes."""
    import re
    from torch._inductor.utils import run_and_get_code
    monkeypatch.setattr(eager, "_CACHE", {})
    per_row = r"empty_strided_cpu\(\(s\d+, \), \(1, \)"
    counts = {}
    for variant, few_rows in (("few", eager_loss.FEW_ROWS), ("many", 0)):
        monkeypatch.setattr(eager_loss, "FEW_ROWS", few_rows)
        x = torch.randn(40, 300, requires_grad=True)
        t = torch.randint(0, 300, (40,))
        _, codes = run_and_get_code(lambda: inductor_ce.cross_entropy(
            x, t, label_smoothing=0.03).backward())
        assert len(codes) == 2, len(codes)          # the forward graph, the backward graph
        counts[variant] = len(re.findall(per_row, codes[1]))
        # The gradient goes into the caller's tensor (what lets a CUDA graph replay the
        # backward, graphs.py): no buffer of the logits' size in the backward's code.
        assert not re.search(r"empty_strided_cpu\(\(s\d+, 300\)", codes[1]), codes[1]
        _, ref_grad = run_reference(x, lambda v: v, t, label_smoothing=0.03)
        assert_grad_close(x.grad, ref_grad)
    assert counts == {"few": 0, "many": 3}, counts


def test_independent_of_dynamo_state(monkeypatch):
    """Dynamo's reset, recompile limit and error_on_recompile do not touch the eager path."""
    monkeypatch.setattr(eager, "_CACHE", {})    # (compiled here, whatever other tests did)
    x = torch.randn(24, 13, requires_grad=True)
    t = torch.randint(0, 13, (24,))
    inductor_ce.cross_entropy(x, t, z_loss=1e-3).backward()
    before = eager.compiles
    torch.compiler.reset()
    with torch._dynamo.config.patch(error_on_recompile=True, recompile_limit=1):
        for rows in (5, 9, 24):
            inductor_ce.cross_entropy(torch.randn(rows, 13), torch.randint(0, 13, (rows,)),
                                      z_loss=1e-3)
            inductor_ce.cross_entropy(x[:rows], t[:rows], z_loss=1e-3).backward()
    assert eager.compiles == before + 1   # the first no-grad call: an inference function


def test_user_compile_lowers_the_op_itself():
    """Under a user's torch.compile the op is traced and lowered into their graph: the
    generated code has our kernels and nothing of the eager path is compiled or called."""
    x = torch.randn(24, 13, requires_grad=True)
    t = torch.randint(0, 13, (24,))
    before = eager.compiles
    loss, codes = capture.generated_code(
        lambda: torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, softcap=3.0))(x, t))
    assert eager.compiles == before
    assert "ce_fwd" in codes[0]
    torch.testing.assert_close(loss, inductor_ce.cross_entropy(x, t, softcap=3.0))


def test_threads_share_one_compile(monkeypatch):
    monkeypatch.setattr(eager, "_CACHE", {})    # (compiled here, whatever other tests did)
    x = torch.randn(24, 13)
    t = torch.randint(0, 13, (24,))
    before, results, errors = eager.compiles, [], []

    def work():
        try:
            results.append(inductor_ce.cross_entropy(x, t, label_smoothing=0.2, z_loss=0.5))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors and len(results) == 4
    assert eager.compiles == before + 1
    assert all(torch.equal(r, results[0]) for r in results)


def test_compile_failure_falls_back_with_one_warning(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("no compiler here")

    monkeypatch.setattr(standalone, "compile_rows_dynamic", broken)
    x = torch.randn(24, 17, requires_grad=True)
    t = torch.randint(0, 17, (24,))
    with pytest.warns(RuntimeWarning, match="keeps the ATen decomposition"):
        loss = inductor_ce.cross_entropy(x, t, z_loss=0.25)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loss2 = inductor_ce.cross_entropy(x, t, z_loss=0.25)
    loss.backward()
    ref, ref_grad = run_reference(x, lambda v: v, t, z_loss=0.25)
    assert_loss_close(loss, ref)
    assert torch.equal(loss, loss2)


def test_where_it_does_not_apply(monkeypatch):
    """Below MIN_ELEMENTS in auto mode, or no rows: the decomposition runs, nothing is
    compiled. Under a dispatch mode the loss takes the op path, so that the mode sees our ops
    (the op's own implementation may then run compiled kernels: the mode is off there)."""
    x = torch.randn(24, 19)
    t = torch.randint(0, 19, (24,))
    before = eager.compiles
    monkeypatch.setattr(eager, "MODE", "auto")
    inductor_ce.cross_entropy(x, t)
    monkeypatch.setattr(eager, "MODE", "compiled")
    assert inductor_ce.cross_entropy(x[:0], t[:0], reduction="sum").item() == 0.0
    assert eager.compiles == before

    class Seen(TorchDispatchMode):
        ops: list = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.ops.append(func)
            return func(*args, **(kwargs or {}))

    with Seen() as seen:
        loss = inductor_ce.cross_entropy(x, t)
    assert torch.ops.inductor_ce.ce_fwd.default in seen.ops
    torch.testing.assert_close(loss, inductor_ce.cross_entropy(x, t))


def test_one_row_compiles_its_own_entry():
    """A single row ((V,) with a 0-d target, (1, V), (1, 1, V)) runs the compiled kernels
    with the row count a constant 1 (on CUDA the decomposition's launches cost ~15x): one
    compile of each graph serves the three shapes, and the symbolic entry of more rows stays
    apart from it (taking turns, each call exact against float64)."""
    V = 37
    x = torch.randn(3, V) * 4
    x[0, 5] += 60.0                          # a dominant target: the collapse-safe path
    t = torch.tensor([5, 11, 2])
    opts = dict(label_smoothing=0.1, reduction="none")
    calls = [(x[0], t[0]), (x[:1], t[:1]), (x[:1].reshape(1, 1, V), t[:1].reshape(1, 1)), (x, t)]
    counts = []
    for _ in range(2):
        for logits, target in calls:
            before = eager.compiles
            leaf = logits.clone().requires_grad_()
            loss = inductor_ce.cross_entropy(leaf, target, **opts)
            assert loss.shape == target.shape
            loss.backward(torch.full_like(loss, 0.5))
            counts.append(eager.compiles - before)
            ref, ref_grad = run_reference(leaf, lambda v: v, target,
                                          torch.full(target.shape, 0.5), **opts)
            assert_loss_close(loss, ref)
            assert_grad_close(leaf.grad, ref_grad, leaf.dtype)
    assert counts[0] == 2 and counts[1:3] == [0, 0], counts    # one row: forward, backward
    assert counts[3] == 2 and counts[4:] == [0] * 4, counts    # more rows: an entry apart


@pytest.mark.parametrize("loss", ["plain", "entropy", "linear"])
def test_first_compile_inside_a_non_reentrant_checkpoint(loss):
    """A compile that happens inside torch.utils.checkpoint (use_reentrant=False): the trace
    differentiates fake tensors, which the checkpoint's saved-tensor hooks must not see (they
    had been counted, and the backward's recomputation failed). Loss and gradient as without
    the checkpoint; shapes no other test compiles."""
    from torch.utils.checkpoint import checkpoint
    g = torch.Generator().manual_seed(7)
    x0, w0 = torch.randn(16, 8, generator=g), torch.randn(53, 8, generator=g)
    t = torch.randint(0, 53, (16,), generator=g)
    fn = {"plain": lambda x, w: inductor_ce.cross_entropy(x @ w.T * 2, t),
          "entropy": lambda x, w: inductor_ce.cross_entropy(
              x @ w.T * 2, t, return_entropy=True).loss,
          "linear": lambda x, w: inductor_ce.linear_cross_entropy(x * 2, w, t)}[loss]
    results = []
    for wrapped in (True, False):
        x, w = x0.clone().requires_grad_(), w0.clone().requires_grad_()
        before = eager.compiles
        with warnings.catch_warnings():
            warnings.simplefilter("error")      # (a failed compile warns)
            out = checkpoint(fn, x, w, use_reentrant=False) if wrapped else fn(x, w)
            out.backward()
        if wrapped:
            assert eager.compiles > before, "nothing was compiled inside the checkpoint"
        results.append((out.detach(), x.grad, w.grad))
    for got, want in zip(*results):
        torch.testing.assert_close(got, want, rtol=1e-6, atol=1e-7)


def test_retain_graph_and_no_grad():
    x = torch.randn(24, 13, requires_grad=True)
    t = torch.randint(0, 13, (24,))
    loss = inductor_ce.cross_entropy(x, t, reduction="sum")
    loss.backward(retain_graph=True)
    first = x.grad.clone()
    loss.backward()
    torch.testing.assert_close(x.grad, 2 * first)
    # create_graph: the same gradient, which cannot be differentiated again
    x.grad = None
    loss = inductor_ce.cross_entropy(x, t, reduction="sum")
    grad, = torch.autograd.grad(loss, x, create_graph=True)
    torch.testing.assert_close(grad, first)
    with pytest.raises(RuntimeError, match="not differentiable"):
        (grad ** 2).sum().backward()
    with torch.no_grad():
        a = inductor_ce.cross_entropy(x, t, reduction="sum")
    with torch.inference_mode():
        b = inductor_ce.cross_entropy(x, t, reduction="sum")
    assert not a.requires_grad and not b.requires_grad
    torch.testing.assert_close(a, loss.detach())
    torch.testing.assert_close(b, loss.detach())


def test_calls_seen_before(monkeypatch):
    """A call whose signature was seen before skips the checks and lookups
    (eager_loss.loss_of_seen_call): its values are still the call's own (checked against float64
    over steps whose logits and targets change in place, and for a 3-D view), and whatever its
    signature does not hold is read per call: another signature, an invalid option, grad mode, a
    dispatch mode, a replaced cache."""
    from inductor_ce import functional
    checked = []
    real = functional.check_tensors
    monkeypatch.setattr(functional, "check_tensors", lambda *a: (checked.append(1), real(*a)))
    x = torch.randn(2, 12, 40, requires_grad=True)
    t = torch.randint(0, 40, (2, 12))
    for step in range(4):
        with torch.no_grad():
            x.copy_(torch.randn(x.shape) * (step + 1))
        t.copy_(torch.randint(0, 40, t.shape))
        t[0, step] = 3
        x.grad = None
        loss = inductor_ce.cross_entropy(x, t, ignore_index=3, label_smoothing=0.1)
        loss.backward()
        ref, ref_grad = run_reference(x, lambda v: v, t, ignore_index=3, label_smoothing=0.1)
        assert_loss_close(loss, ref)
        assert_grad_close(x.grad, ref_grad)
    assert len(checked) == 1
    # each of these is another signature: checked (and right) again
    inductor_ce.cross_entropy(x, t, ignore_index=1)
    with pytest.raises(TypeError, match="ignore_index must be an int"):
        inductor_ce.cross_entropy(x, t, ignore_index=True)     # True == 1, hash(True) == 1
    with pytest.raises(ValueError, match="reduction must be one of"):
        inductor_ce.cross_entropy(x, t, reduction=["mean"])
    with pytest.raises(ValueError, match="target must have shape"):
        inductor_ce.cross_entropy(x, t[:, :5])
    n = len(checked)
    base = torch.randn(40, 12, 2)    # the same shape as x, the classes strided
    for leaf, view, target in ((x, lambda v: v, t.int()), (base, lambda v: v.permute(2, 1, 0), t),
                               (x, lambda v: v, t.t().contiguous().t())):
        loss = inductor_ce.cross_entropy(view(leaf), target, ignore_index=3,
                                         label_smoothing=0.1)
        ref, _ = run_reference(leaf, view, target.long(), ignore_index=3, label_smoothing=0.1)
        assert_loss_close(loss, ref)
    assert len(checked) == n + 3
    with torch.no_grad():
        loss = inductor_ce.cross_entropy(x, t, ignore_index=3, label_smoothing=0.1)
        assert not loss.requires_grad

    class Seen(TorchDispatchMode):
        ops: list = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.ops.append(func)
            return func(*args, **(kwargs or {}))

    with Seen() as seen:
        inductor_ce.cross_entropy(x, t, ignore_index=3, label_smoothing=0.1)
    assert torch.ops.inductor_ce.ce_fwd.default in seen.ops
    before = eager.compiles
    monkeypatch.setattr(eager, "_CACHE", {})
    inductor_ce.cross_entropy(x, t, ignore_index=3, label_smoothing=0.1)
    assert eager.compiles == before + 1


def test_weighted_calls_seen_before(monkeypatch):
    """A call with class weights is kept too: its weight's layout is part of the signature,
    its values are read per call (changed in place between steps, against float64), and a
    weight of another shape, device or asking for a gradient meets the checks again."""
    from inductor_ce import functional
    checked = []
    real = functional.check_tensors
    monkeypatch.setattr(functional, "check_tensors", lambda *a: (checked.append(1), real(*a)))
    x = torch.randn(24, 40, requires_grad=True)
    t = torch.randint(0, 40, (24,))
    w = torch.rand(40) + 0.5
    for step in range(3):
        with torch.no_grad():
            x.copy_(torch.randn(x.shape) * (step + 1))
        w.copy_(torch.rand(40) * (step + 1) + 0.1)
        x.grad = None
        loss = inductor_ce.cross_entropy(x, t, w, label_smoothing=0.1)
        loss.backward()
        ref, ref_grad = run_reference(x, lambda v: v, t, weight=w, label_smoothing=0.1)
        assert_loss_close(loss, ref)
        assert_grad_close(x.grad, ref_grad)
    assert len(checked) == 1
    with pytest.raises(ValueError, match="weight must have shape"):
        inductor_ce.cross_entropy(x, t, w[:20])
    with pytest.raises(ValueError, match="gradient with respect to weight"):
        inductor_ce.cross_entropy(x, t, w.clone().requires_grad_())
    with pytest.raises(ValueError, match="weight is on meta"):
        inductor_ce.cross_entropy(x, t, w.to("meta"))
    with pytest.raises(TypeError, match="weight must be a floating-point"):
        inductor_ce.cross_entropy(x, t, w.long())
    assert len(checked) == 5


def test_kept_calls_are_bounded(monkeypatch):
    """At most MAX_SEEN_CALLS signatures are kept (then the oldest is dropped, without a
    warning: unpadded batches fill it in normal use); an ignore_index outside int32 (whose
    target the call converts) and a tensor label_smoothing (whose value may change in place)
    are never kept."""
    monkeypatch.setattr(eager_loss, "MAX_SEEN_CALLS", 3)
    monkeypatch.setattr(eager_loss, "_SEEN_CALLS", {})
    monkeypatch.setattr(eager, "_WARNED", set())
    x = torch.randn(8, 20)
    t = torch.randint(0, 20, (8,), dtype=torch.int32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for rows in range(2, 8):
            torch.testing.assert_close(
                inductor_ce.cross_entropy(x[:rows], t[:rows]),
                torch.nn.functional.cross_entropy(x[:rows], t[:rows].long()))
            assert 1 <= len(eager_loss._SEEN_CALLS) <= 3
    assert [str(w.message) for w in caught] == []
    assert sorted(s.shape[0] for s in eager_loss._SEEN_CALLS) == [5, 6, 7]   # the newest
    eager_loss._SEEN_CALLS.clear()
    t[0] = 5
    for _ in range(2):
        torch.testing.assert_close(
            inductor_ce.cross_entropy(x, t, ignore_index=2**40 + 5),
            torch.nn.functional.cross_entropy(x, t.long(), ignore_index=2**40 + 5))
    smoothing = torch.tensor(0.1)
    for value in (0.1, 0.3):
        smoothing.fill_(value)
        torch.testing.assert_close(
            inductor_ce.cross_entropy(x, t, label_smoothing=smoothing),
            torch.nn.functional.cross_entropy(x, t.long(), label_smoothing=value))
    assert not eager_loss._SEEN_CALLS


def test_autocast_bf16_step():
    """Under CPU autocast the loss of bf16 logits is the same compiled function's."""
    x = (torch.randn(24, 13) * 3).bfloat16().requires_grad_()
    t = torch.randint(0, 13, (24,))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss = inductor_ce.cross_entropy(x, t)
    loss.backward()
    ref, ref_grad = run_reference(x, lambda v: v, t)
    assert_loss_close(loss, ref)
    assert_grad_close(x.grad, ref_grad)


def test_cuda_graph_bookkeeping(monkeypatch):
    """graphs.Replays without a GPU (the recording replaced by a stand-in): the first call at
    given addresses runs the function, the second records a graph and replays it, later ones
    replay; other addresses and another row count are other keys; at most MAX_GRAPHS graphs
    (the oldest dropped), at most MAX_CAPTURES captures (then calls run the function), each
    bound with a warning once; a failed capture warns once and leaves the function
    uncaptured."""
    from inductor_ce.eager import graphs
    monkeypatch.setattr(graphs, "_capturing", lambda: False)
    monkeypatch.setattr(graphs, "_current_stream", lambda index: 7)   # (one stream)
    monkeypatch.setattr(graphs, "MAX_GRAPHS", 2)
    monkeypatch.setattr(graphs, "MAX_CAPTURES", 4)
    monkeypatch.setattr(eager, "_WARNED", set())
    recorded, dropped, log = [], [], []

    class Recording(graphs.Replays):
        fail = False

        def _record(self, args, flat, packing):
            if self.fail:
                raise RuntimeError("operation not permitted when stream is capturing")
            recorded.append((args[0].data_ptr(), args[0].shape[0]))
            number = len(recorded)
            return type("Graph", (), {"replay": lambda self: log.append(number)})()

        def _drop(self, at, device):
            dropped.append(at[0][-1])
            self._forget(at)

    def calls(fn, *args):      # what each call did: ("run", rows) or the graph it replayed
        before = len(log)
        out = fn(*args)
        return out if out is not None else log[before]

    replays = Recording(lambda *args: ("run", args[0].shape[0]), copies=False)
    x, y = torch.zeros(4, 3), torch.zeros(5, 3)
    with warnings.catch_warnings(record=True) as bounds:
        warnings.simplefilter("always")
        assert [calls(replays, x, None) for _ in range(3)] == [("run", 4), 1, 1]
        assert calls(replays, x[:2], None) == ("run", 2)    # same address, other row count
        assert calls(replays, y, None) == ("run", 5) and calls(replays, y, None) == 2
        assert calls(replays, x[:2], None) == 3             # a third graph: x's is dropped
        assert dropped == [4] and len(replays.graphs) == 2 and replays.replayed == 4
        assert calls(replays, x, None) == ("run", 4) and calls(replays, x, None) == 4
        for _ in range(2):
            assert calls(replays, x[:3], None) == ("run", 3) and calls(replays, x[:3], None) == (
                "run", 3)
    assert len(recorded) == 4                               # the budget is spent
    assert [str(w.message).split(" is full")[0] for w in bounds] == [
        "inductor_ce: the cache of CUDA graphs of an eager loss's function (graphs.MAX_GRAPHS,"
        " 2 keys)", "inductor_ce: the budget of CUDA-graph captures of an eager loss's function "
        "(graphs.MAX_CAPTURES, 4)"]
    failing = Recording(lambda *args: "ran", copies=False)
    failing.fail = True
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert [failing(x) for _ in range(4)] == ["ran"] * 4
    assert len(caught) == 1 and "capturing a CUDA graph" in str(caught[0].message)
    assert not failing.graphs


def test_cuda_graph_output_buffers(monkeypatch):
    """graphs.Replays of copied outputs without a GPU (a stand-in graph fills the buffer it
    was captured with with its number; a stand-in allocator hands out buffers in the order a
    training loop holding the last step's loss gets them from the caching allocator): the
    first call runs the function; a replay hands out views of the call's own buffer; each
    buffer address gets its graph, at most SLOTS per key; a call at a third address replays
    the key's own graph, whose buffer is never handed out, into a copy in its own buffer."""
    from inductor_ce.eager import graphs
    monkeypatch.setattr(graphs, "_capturing", lambda: False)
    monkeypatch.setattr(graphs, "_current_stream", lambda index: 7)   # (one stream)
    monkeypatch.setattr(graphs, "SLOTS", 2)
    pool = [torch.zeros(8) for _ in range(3)]
    order = iter([0, 1, 0, 1, 0, 2, None, 1, 0])     # None: the own graph's buffer (new)
    monkeypatch.setattr(graphs._Packing, "empty", lambda self, device: (
        torch.zeros(8) if (i := next(order)) is None else pool[i]))
    recorded, captured_into = [], []

    class Recording(graphs.Replays):
        def _record(self, args, flat, packing):
            recorded.append(flat.data_ptr())
            captured_into.append(flat)
            number = float(len(recorded))
            return type("Graph", (), {"replay": lambda self: flat.fill_(number)})()

    replays = Recording(lambda x: (x.sum(), x[:, 0]), copies=True)
    x = torch.ones(3, 2)
    first = replays(x)
    assert first[0].item() == 6.0 and not recorded           # the first call runs fn
    losses, homes = [], []
    for _ in range(8):
        loss, column = replays(x)
        losses.append(loss.item())
        homes.append(next((i for i, p in enumerate(pool) if p.data_ptr() == loss.data_ptr()),
                          None))
        if homes[-1] is not None:                             # both outputs in the buffer
            assert column.data_ptr() == loss.data_ptr() + 16
            assert column.tolist() == [losses[-1]] * 3
    assert losses == [1.0, 2.0, 1.0, 2.0, 1.0, 3.0, 2.0, 1.0], losses
    assert homes == [0, 1, 0, 1, 0, 2, 1, 0], homes
    own = captured_into[2]                                    # the key's own buffer
    assert recorded[:2] == [pool[0].data_ptr(), pool[1].data_ptr()] and len(recorded) == 3
    assert all(own.data_ptr() != p.data_ptr() for p in pool) and replays.replayed == 8


def test_cuda_graph_packing_holds_a_bool_output():
    """The accuracy (bool) shares the replay's float32 buffer with the float32 outputs: each
    output at a 16-byte aligned offset, the bool one in a byte view, copied and read back
    exactly (a call asking for the accuracy replays as any other few-row call)."""
    from inductor_ce.eager import graphs
    outs = (torch.tensor(2.5), torch.arange(5, dtype=torch.float32),
            torch.tensor([True, False, True, True, False, True, False]),
            torch.linspace(0, 1, 3))
    packing = graphs._Packing.of(outs)
    flat = packing.empty(torch.device("cpu"))
    packing.copy_into(flat, outs)
    views = packing.outputs(flat)
    assert [v.dtype for v in views] == [o.dtype for o in outs]
    for v, o in zip(views, outs):
        assert v.shape == o.shape and torch.equal(v, o) and not v._is_view()
        assert v.untyped_storage().data_ptr() == flat.data_ptr()
        assert (v.data_ptr() - flat.data_ptr()) % 16 == 0
    ends = sorted((v.data_ptr(), v.data_ptr() + v.numel() * v.element_size()) for v in views)
    assert all(a[1] <= b[0] for a, b in zip(ends, ends[1:]))          # no overlap
    with pytest.raises(TypeError, match="float32 or bool"):
        graphs._Packing.of((torch.zeros(2, dtype=torch.int64),))


def test_kept_calls_take_no_tensor_or_array_option(monkeypatch):
    """A call is kept (its checks skipped at the next call like it) only with options of
    Python's own classes: a 0-d tensor ignore_index changed in place gives the loss of its
    new value and still checks the targets' range against it; a 0-d numpy array option
    (F.cross_entropy takes them) is taken at every call, not a crash at the second."""
    monkeypatch.setattr(eager, "MODE", "compiled")
    x = (torch.randn(8, 13) * 3).requires_grad_()
    t = torch.randint(0, 13, (8,))
    t[2], t[3] = 5, 7
    index = torch.tensor(5)
    for value in (5, 7, 5):
        index.fill_(value)
        x.grad = None
        loss = inductor_ce.cross_entropy(x, t, ignore_index=index)
        loss.backward()
        ref, ref_grad = run_reference(x, lambda v: v, t, ignore_index=value)
        assert_loss_close(loss, ref)
        assert_grad_close(x.grad, ref_grad)
    index.fill_(-100)
    bad = t.clone()
    bad[0] = 100
    with pytest.raises(RuntimeError, match="target out of range"):
        inductor_ce.cross_entropy(x, bad, ignore_index=index)
    np = pytest.importorskip("numpy")
    for kw in (dict(ignore_index=np.array(5)), dict(softcap=np.array(2.5))):
        number = {k: v.item() for k, v in kw.items()}
        ref, ref_grad = run_reference(x, lambda v: v, t, **number)
        for _ in range(3):
            x.grad = None
            loss = inductor_ce.cross_entropy(x, t, **kw)
            loss.backward()
            assert_loss_close(loss, ref)
            assert_grad_close(x.grad, ref_grad)


def test_backward_of_logits_of_one_shape_and_two_strides(monkeypatch):
    """Two losses of (8, 64) logits that are transposed views of different strides (1, 9)
    and (1, 8), summed: one compiled forward serves both, and each backward runs the
    compiled backward whose guards its strides pass (it took the other's, which asserted
    its stride, and raised)."""
    monkeypatch.setattr(eager, "MODE", "compiled")
    t = torch.randint(0, 64, (8,))
    a = (torch.randn(64, 9) * 3).requires_grad_()
    b = (torch.randn(64, 8) * 3).requires_grad_()
    for _ in range(2):
        a.grad = b.grad = None
        loss = inductor_ce.cross_entropy(a.t()[:8], t) + inductor_ce.cross_entropy(b.t(), t)
        loss.backward()
        a64, b64 = (v.detach().double().requires_grad_() for v in (a, b))
        ref = F.cross_entropy(a64.t()[:8], t) + F.cross_entropy(b64.t(), t)
        ref.backward()
        assert_loss_close(loss, ref)
        assert_grad_close(a.grad, a64.grad)
        assert_grad_close(b.grad, b64.grad)


def test_meta_tensors_compile_nothing(monkeypatch):
    """Logits on the meta device (shape inference, deferred init) take the op path: no
    compile, no warning of a failed one; the loss and gradient come back as meta tensors."""
    monkeypatch.setattr(eager, "MODE", "compiled")
    x = torch.empty(64, 512, device="meta", requires_grad=True)
    t = torch.empty(64, dtype=torch.long, device="meta")
    before = eager.compiles
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loss = inductor_ce.cross_entropy(x, t)
        loss.backward()
    assert loss.is_meta and loss.shape == () and x.grad.is_meta and x.grad.shape == x.shape
    assert eager.compiles == before


@pytest.mark.parametrize("soft", [False, True])
def test_batched_upstream_gradients(monkeypatch, soft):
    """torch.autograd.grad(is_grads_batched=True) and jacobian(vectorize=True) run the
    backward under torch.autograd's own vmap, whose batched gradients the compiled functions
    cannot take: the backward runs the same function out of place through the ops, equal to
    float64 stock's, and compiles nothing (nor marks the key failed: a plain backward after
    runs compiled)."""
    monkeypatch.setattr(eager, "MODE", "compiled")
    x = (torch.randn(8, 64) * 3).requires_grad_()
    t = torch.softmax(torch.randn(8, 64), -1) if soft else torch.randint(0, 64, (8,))
    x64 = x.detach().double().requires_grad_()
    t64 = t.double() if soft else t
    for reduction in ("none", "sum"):
        loss = inductor_ce.cross_entropy(x, t, reduction=reduction)
        ref = F.cross_entropy(x64, t64, reduction=reduction)
        upstream = torch.randn(3, *loss.shape)
        got, = torch.autograd.grad(loss, x, upstream, is_grads_batched=True)
        want, = torch.autograd.grad(ref, x64, upstream.double(), is_grads_batched=True)
        assert_grad_close(got, want)
    jac = torch.autograd.functional.jacobian(
        lambda v: inductor_ce.cross_entropy(v, t, reduction="none"), x.detach(),
        vectorize=True)
    want = torch.autograd.functional.jacobian(
        lambda v: F.cross_entropy(v, t64, reduction="none"), x64.detach(), vectorize=True)
    assert_grad_close(jac, want)
    before = eager.compiles
    inductor_ce.cross_entropy(x, t, reduction="sum").backward()
    assert_grad_close(x.grad, torch.autograd.grad(F.cross_entropy(x64, t64, reduction="sum"),
                                                  x64)[0])
    assert eager.compiles - before <= 1      # (the plain backward's, if not compiled yet)
    assert None not in [v for k, v in eager._CACHE.items() if type(k).__name__.endswith(
        "BackwardKey")]


@pytest.mark.parametrize("kw", [{}, {"reduction": "none"}, {"return_lse": True}])
def test_replayed_outputs_take_in_place_changes(monkeypatch, kw):
    """The outputs a CUDA-graph replay hands out (emulated on the CPU: the compiled forward's
    outputs copied into a packing's buffer, handed out as a replay does) are the loss's
    ``autograd.Function`` outputs: a caller's ``loss /= k`` (gradient accumulation) works and
    the gradient is k times smaller, as with stock's loss."""
    from inductor_ce.eager import graphs
    runner = eager_loss._Plan.forward_runner

    def replay_like(self, graphed):
        run = runner(self, graphed)

        def replayed(*args):
            outs = run(*args)
            packing = graphs._Packing.of(outs)
            flat = packing.empty(args[0].device)
            packing.copy_into(flat, outs)
            return packing.outputs(flat)
        return replayed
    monkeypatch.setattr(eager_loss._Plan, "forward_runner", replay_like)
    x = (torch.randn(8, 64) * 3).requires_grad_()
    t = torch.randint(0, 64, (8,))
    out = inductor_ce.cross_entropy(x, t, **kw)
    loss = out[0] if isinstance(out, tuple) else out
    loss /= 4
    loss.sum().backward()
    xr = x.detach().double().requires_grad_()
    ref = F.cross_entropy(xr, t, reduction=kw.get("reduction", "mean")) / 4
    ref.sum().backward()
    assert_loss_close(loss, ref)
    assert_grad_close(x.grad, xr.grad)


def test_cuda_graph_options_buffer(monkeypatch):
    """graphs.Replays of a function whose last argument is an options tensor (the loss's
    forward: label_smoothing and z_loss), without a GPU (a stand-in graph reads what its
    recorded arguments hold when replayed): the options are not part of the key (a new
    options tensor replays the same graph); the graph was recorded with the function's own
    buffer, into which a call copies its options before the replay, unless they are the
    tensor copied last."""
    from inductor_ce.eager import graphs
    monkeypatch.setattr(graphs, "_capturing", lambda: False)
    monkeypatch.setattr(graphs, "_current_stream", lambda index: 7)
    read = []

    class Recording(graphs.Replays):
        def _record(self, args, flat, packing):
            buffer = args[-1]
            assert buffer is self.options_buffers[7][0]
            return type("Graph", (), {"replay": lambda self: read.append(buffer.tolist())})()

    replays = Recording(lambda x, opts: ("run", opts.tolist()), copies=False, options=True)
    x = torch.zeros(4, 3)
    opts = [torch.tensor([0.1 * i, 1e-3 * i]) for i in range(4)]
    assert replays(x, opts[0]) == ("run", opts[0].tolist())    # the first call runs fn
    for o in (opts[1], opts[2], opts[2], opts[3]):
        assert replays(x, o) is None
    assert read == [o.tolist() for o in (opts[1], opts[2], opts[2], opts[3])]
    assert len(replays.graphs) == 1 and replays.captures == 1
    replays.options_buffers[7][0].fill_(-1.0)   # the same tensor again: nothing copied
    replays(x, opts[3])
    assert read[-1] == [-1.0, -1.0]


def test_cuda_graph_options_are_per_stream(monkeypatch):
    """Two streams replaying graphs of one function with different options (no GPU: a
    stand-in graph reads its options buffer when "its stream" runs it). A replay queued on
    a busy stream s1 whose options tensor was the last copied (so it copies nothing) must
    not read what a later call on an idle stream s2 copies: each stream's graphs read a
    buffer of that stream's own."""
    from inductor_ce.eager import graphs
    monkeypatch.setattr(graphs, "_capturing", lambda: False)
    stream = {"now": 1}
    monkeypatch.setattr(graphs, "_current_stream", lambda index: stream["now"], raising=False)
    queued = {1: [], 2: []}      # stream -> replays not yet run (s1 busy: run at the end)
    read = []

    class Recording(graphs.Replays):
        def _record(self, args, flat, packing):
            buffer = args[-1]
            return type("Graph", (), {"replay": lambda self: queued[stream["now"]].append(
                lambda: read.append(buffer.tolist()))})()

    def run(s):
        while queued[s]:
            queued[s].pop(0)()

    replays = Recording(lambda x, opts: None, copies=False, options=True)
    x1, x2 = torch.zeros(4, 3), torch.zeros(5, 3)
    o1, o2 = torch.tensor([0.1, 0.0]), torch.tensor([0.2, 0.0])
    for _ in range(3):            # first calls, captures, replays: each stream idle
        for s, x, o in ((1, x1, o1), (2, x2, o2)):
            stream["now"] = s
            replays(x, o)
            run(s)
    stream["now"] = 1
    replays(x1, o1)
    run(1)
    read.clear()
    replays(x1, o1)               # s1 busy: queued, not run
    stream["now"] = 2
    replays(x2, o2)
    run(2)                        # s2 idle: its copy and replay run now
    run(1)
    assert read == [o2.tolist(), o1.tolist()], read


FULL_OPTIONS = dict(softcap=15.0, label_smoothing=0.1, z_loss=1e-3, ignore_index=2)


@pytest.mark.parametrize("reduction,asked", [
    ("mean", ()), ("none", ()), ("sum", ("lse",)), ("none", ("entropy", "accuracy")),
    ("mean", ("accuracy",)), ("mean", ("options", "entropy", "lse"))])
def test_full_form_with_gradient(reduction, asked):
    """The full form through the eager graphs (a temperature, with or without the lse, the
    entropy and the accuracy; once with every option and class weights) in training: each
    call's return form (a temperature alone: the loss as a plain call returns it, of the
    target's shape for "none"; with an entropy or an accuracy a LossOutput), values and
    gradients against float64, the entropy and the lse differentiated where asked."""
    from _reference import full_reference, reference, softcap64
    g = torch.Generator().manual_seed(7)
    leaf = (torch.randn(37, 300, generator=g) * 3).requires_grad_()
    target = torch.randint(0, 300, (37,), generator=g)
    options = FULL_OPTIONS if "options" in asked else {}
    weight = torch.rand(300, generator=g) + 0.5 if options else None
    target[::5] = options.get("ignore_index", -100)
    kw = dict(temperature=0.7, reduction=reduction, return_lse="lse" in asked,
              return_entropy="entropy" in asked, return_accuracy="accuracy" in asked)
    out = inductor_ce.cross_entropy(leaf, target, weight, **kw, **options)
    xr = leaf.detach().double().requires_grad_()
    _, entropy_r, accuracy_r = full_reference(xr, target, temperature=0.7, **options)
    want = reference(xr / 0.7, target, weight, reduction=reduction, **options)
    lse_r = softcap64(xr / 0.7, options.get("softcap")).logsumexp(-1)
    asked = tuple(a for a in asked if a != "options")
    if not asked:
        loss, lse, entropy, accuracy = out, None, None, None
    elif asked == ("lse",):
        loss, lse = out
        entropy = accuracy = None
    else:
        assert isinstance(out, inductor_ce.LossOutput), type(out)
        loss, lse, entropy, accuracy = out.loss, out.lse, out.entropy, out.accuracy
    assert loss.shape == want.shape, (loss.shape, want.shape)
    assert_loss_close(loss, want)
    objective, objective_r = loss.sum(), want.sum()
    if lse is not None:
        torch.testing.assert_close(lse.double(), lse_r.detach(), rtol=1e-6, atol=1e-6)
        objective, objective_r = objective + 0.1 * lse.sum(), objective_r + 0.1 * lse_r.sum()
    if entropy is not None:
        err = (entropy.double() - entropy_r.detach()).abs()
        assert bool((err <= 1e-5 * entropy_r.detach().abs() + 1e-6).all())
        objective = objective - 0.3 * entropy.sum()
        objective_r = objective_r - 0.3 * entropy_r.sum()
    if accuracy is not None:
        assert torch.equal(accuracy, accuracy_r)
    objective.backward()
    objective_r.backward()
    assert_grad_close(leaf.grad, xr.grad)
