"""Probability ("soft") targets: ``cross_entropy(input, target)`` with a floating target of
input's shape, against float64 references computed from the definition (F.cross_entropy in
float64, or, where that collapses, -log q written out in float64), eagerly (ATen and the
compiled eager path) and under torch.compile; enable()'s routing; bad input.

Compiles are slow on a 2-core machine: every compiled case shares one torch.compile'd
function (dynamic rows) or one eager compile per key, through module-level caches.
"""
from __future__ import annotations

import functools
from unittest import mock

import pytest
import torch
import torch.nn.functional as F

import inductor_ce
from inductor_ce.eager import kernels as eager
from inductor_ce.integrations import routing
from _reference import (COLLAPSE_V, MARGINS, assert_grad_close, assert_loss_close,
                        collapse_logits, softcap64, ulp)

V = 50
REDUCTIONS = ["mean", "sum", "none"]
DTYPES = [torch.float32, torch.bfloat16]


def _gen(*key):
    import zlib
    return torch.Generator().manual_seed(zlib.crc32(repr(key).encode()))


def make_case(dtype, key, shape=(3, 7, V), scale=3.0):
    """Logits (rounded to dtype) and float32 probabilities (a softmax, some exact zeros)."""
    g = _gen(*key)
    x = (torch.randn(*shape, generator=g) * scale).to(dtype)
    p = (torch.randn(*shape, generator=g) * 2).softmax(-1)
    p = torch.where(torch.rand(*shape, generator=g) < 0.2, 0.0, p)
    return x, p / p.sum(-1, keepdim=True)


def reference(x, p, weight=None, reduction="mean", label_smoothing=0.0, z_loss=0.0,
              softcap=None):
    """float64 F.cross_entropy for probability targets (class dim moved to 1 as stock wants
    it) + z_loss * R(lse^2), R the same reduction (mean over rows): differentiable in x, p."""
    z = softcap64(x, softcap)
    w = None if weight is None else weight.double()
    loss = F.cross_entropy(z.movedim(-1, 1) if z.dim() > 2 else z,
                           (p.double().movedim(-1, 1) if p.dim() > 2 else p.double()), w,
                           reduction=reduction, label_smoothing=label_smoothing)
    if z_loss:
        sq = torch.logsumexp(z, -1).square()
        loss = loss + z_loss * (sq if reduction == "none" else
                                sq.sum() if reduction == "sum" else sq.mean())
    return loss


def reference_grads(x, p, upstream, **kw):
    x64 = x.detach().double().requires_grad_()
    p64 = p.detach().double().requires_grad_()
    loss = reference(x64, p64, **kw)
    loss.backward(upstream.double() if upstream is not None else None)
    return loss.detach(), x64.grad, p64.grad


def _upstream(reduction, shape, key):
    return torch.rand(shape[:-1], generator=_gen("up", *key)) + 0.5 if reduction == "none" \
        else None


def _check(loss, gx, gp, x, p, upstream, msg="", **kw):
    ref, rx, rp = reference_grads(x, p, upstream, **kw)
    assert_loss_close(loss.detach(), ref, msg=msg)
    assert gx.dtype == x.dtype and gp.dtype == p.dtype
    assert_grad_close(gx, rx, msg=f"{msg} dx")
    assert_grad_close(gp, rp, msg=f"{msg} dp")


# --------------------------------------------------------------------------------------------
# Every reduction x weight x label smoothing, eagerly
# --------------------------------------------------------------------------------------------

@pytest.mark.pinned
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("label_smoothing", [0.0, 0.1])
@pytest.mark.parametrize("weighted", [False, True], ids=["", "weight"])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_eager_matches_float64(reduction, weighted, label_smoothing, dtype):
    key = (reduction, weighted, label_smoothing, str(dtype))
    x, p = make_case(dtype, key)
    weight = torch.rand(V, generator=_gen("w")) + 0.5 if weighted else None
    z_loss, softcap = (1e-3, 8.0) if weighted else (0.0, None)
    xl, pl = x.clone().requires_grad_(), p.clone().requires_grad_()
    kw = dict(weight=weight, reduction=reduction, label_smoothing=label_smoothing,
              z_loss=z_loss, softcap=softcap)
    loss = inductor_ce.cross_entropy(xl, pl, **kw)
    assert loss.dtype == torch.float32 and loss.shape == x.shape[:-1 if reduction == "none"
                                                                   else 0][:x.dim() - 1]
    upstream = _upstream(reduction, x.shape, key)
    loss.backward(upstream)
    _check(loss, xl.grad, pl.grad, x, p, upstream, str(key), **kw)


# --------------------------------------------------------------------------------------------
# torch.compile: one function (every reduction, lse, tensor options), rows dynamic
# --------------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _compiled(backend):
    """"aot_eager": every reduction and lse in one function (Dynamo and AOTAutograd trace
    the autograd.Function); "inductor": reduction="none" and lse, Inductor's kernels."""
    def fn(x, p, w, eps, zl):
        outs = [inductor_ce.cross_entropy(x, p, w, reduction=r, label_smoothing=eps, z_loss=zl)
                for r in (("mean", "sum") if backend == "aot_eager" else ())]
        return (*outs, *inductor_ce.cross_entropy(x, p, w, reduction="none", label_smoothing=eps,
                                                  z_loss=zl, return_lse=True))
    fn.__code__ = fn.__code__.replace(co_name=f"soft_{backend}")
    return torch.compile(fn, backend=backend, fullgraph=True, dynamic=True)


def _run_and_reference(backend, x, p, w, eps, zl, key):
    """Outputs and gradients of the compiled function for a random mix of its outputs, and
    the float64 reference's."""
    ups = [torch.rand(x.shape[:-1], generator=_gen("up", *key)) + 0.5 for _ in range(4)]
    ups = ([1.0, 0.5] if backend == "aot_eager" else []) + ups[:2]
    xl, pl = x.clone().requires_grad_(), p.clone().requires_grad_()
    outs = _compiled(backend)(xl, pl, w, torch.tensor(eps), torch.tensor(zl))
    sum((o * u).sum() for o, u in zip(outs, ups)).backward()
    x64 = x.detach().double().requires_grad_()
    p64 = p.detach().double().requires_grad_()
    kw = dict(weight=w, label_smoothing=eps, z_loss=zl)
    refs = [reference(x64, p64, reduction=r, **kw) for r in REDUCTIONS[:len(outs) - 2]]
    refs += [reference(x64, p64, reduction="none", **kw), torch.logsumexp(x64, -1)]
    sum((r * u).sum() for r, u in zip(refs, ups)).backward()
    return (outs, xl.grad, pl.grad), (refs, x64.grad, p64.grad)


@pytest.mark.parametrize("backend,dtype,weighted", [
    ("aot_eager", torch.float32, False), ("aot_eager", torch.bfloat16, True),
    ("inductor", torch.float32, True)], ids=str)
def test_compiled_matches_float64(backend, dtype, weighted):
    """fullgraph=True, label_smoothing and z_loss as 0-d tensors (graph inputs): one graph
    for their values and for row counts 3 x 7 and 5 x 2 (error_on_recompile after the first)."""
    w = torch.rand(V, generator=_gen("w")) + 0.5 if weighted else None
    for i, (shape, eps, zl) in enumerate((((3, 7, V), 0.1, 1e-3), ((5, 2, V), 0.0, 0.0))):
        key = ("compiled", backend, weighted, str(dtype), shape)
        x, p = make_case(dtype, key, shape)
        with mock.patch.object(torch._dynamo.config, "error_on_recompile", i > 0):
            (outs, gx, gp), (refs, rx, rp) = _run_and_reference(backend, x, p, w, eps, zl, key)
        for o, r in zip(outs, refs):
            assert_loss_close(o.detach(), r.detach())
        # (bf16 under aot_eager: three calls' gradients, each rounded once, summed in bf16:
        # five roundings)
        extra = 2 * ulp(rx, dtype) if backend == "aot_eager" and dtype != torch.float32 \
            else None
        assert_grad_close(gx, rx, "dx", extra_tol=extra)
        assert_grad_close(gp, rp, "dp")


# --------------------------------------------------------------------------------------------
# Collapse: one class dominates by a margin of 0 to 80
# --------------------------------------------------------------------------------------------

def collapse_case(dtype, vocab=COLLAPSE_V):
    """Per margin two rows (the index targets' collapse logits): a one-hot target on the
    dominant class, and 1 - 1e-6 there with 1e-7 on each of 10 other classes."""
    z, top = collapse_logits(MARGINS, dtype, vocab=vocab)
    g = _gen("collapse")
    rows = torch.arange(len(MARGINS))
    z = z.repeat(2, 1)
    p = torch.zeros(z.shape)
    p[torch.arange(len(MARGINS)), top] = 1.0
    spread = torch.randint(0, vocab, (len(MARGINS), 10), generator=g)
    smear = torch.zeros(len(MARGINS), vocab).scatter_(1, spread, 1e-7)
    smear[rows, top] = 0.0
    smear[rows, top] = 1.0 - smear.sum(-1)
    p[len(MARGINS):] = smear
    return z, p, top.repeat(2)


def collapse_reference(z, p):
    """Per-row loss and gradient in float64 from -log q written out: -log q_a =
    log1p(sum_{j != a} exp(z_j - z_a)) at the max a (where float64 lse - z_a rounds to 0 from
    a margin of ~37), -log q_j = (z_a - z_j) - log q_a elsewhere; dL/dz = P q - c, at a
    sum_{j != a} c_j - P sum_{j != a} q_j."""
    z, c = z.double(), p.double()
    a = z.argmax(-1, keepdim=True)
    at_a = torch.zeros_like(z, dtype=torch.bool).scatter_(1, a, True)
    z_a = z.gather(1, a)
    nll_a = torch.log1p(torch.exp(z - z_a).masked_fill(at_a, 0.0).sum(-1, keepdim=True))
    nll = torch.where(at_a, nll_a, (z_a - z) + nll_a)
    loss = (c * nll).masked_fill(c == 0, 0.0).sum(-1)
    q = torch.exp(-nll).masked_fill(at_a, 0.0)
    total = c.sum(-1, keepdim=True)
    grad = total * q - c
    grad_a = c.masked_fill(at_a, 0.0).sum(-1, keepdim=True) - total * q.sum(-1, keepdim=True)
    return loss, grad.scatter(1, a, grad_a)


@functools.lru_cache(maxsize=None)
def _collapse_results(path, dtype):
    z, p, top = collapse_case(dtype)
    x = z.clone().requires_grad_()
    if path == "compiled":
        loss = _compiled("inductor")(x, p, None, torch.tensor(0.0), torch.tensor(0.0))[0]
    elif path == "eager-compiled":
        with mock.patch.object(eager, "MODE", "compiled"):
            loss = inductor_ce.cross_entropy(x, p, reduction="none")
    else:
        loss = inductor_ce.cross_entropy(x, p, reduction="none")
    loss.sum().backward()
    return top, loss.detach(), x.grad, *collapse_reference(z, p)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("path", [pytest.param("eager", marks=pytest.mark.pinned),
                                  "eager-compiled", "compiled"])
def test_collapse_grid(path, dtype):
    """Loss and gradient of every row within 1e-5 relative of float64 (float32 logits; bf16:
    the gradient within half a bf16 ulp plus the float32 slack), at every margin: the loss
    and the dominant class's gradient never round to 0."""
    top, loss, grad, ref_loss, ref_grad = _collapse_results(path, dtype)
    tiny = torch.finfo(torch.float32).tiny
    for i in range(loss.shape[0]):
        t = top[i]
        assert ref_loss[i] > 0 and ref_grad[i, t] != 0
        assert_loss_close(loss[i], ref_loss[i], rtol=1e-5, atol=0.0, msg=f"row {i}")
        if dtype == torch.float32:
            err = (grad[i].double() - ref_grad[i]).abs()
            assert err[t] <= 1e-5 * ref_grad[i, t].abs(), (i, grad[i, t], ref_grad[i, t])
            bad = ~(err <= 1e-5 * ref_grad[i].abs() + tiny)
            assert not bool(bad.any()), (i, bad.nonzero()[:4], grad[i][bad][:4])
        else:
            assert_grad_close(grad[i:i + 1], ref_grad[i:i + 1], msg=f"row {i}")
            assert grad[i, t] != 0


@pytest.mark.parametrize("margin", [30.0, 50.0])
def test_stock_pytorch_collapses(margin):
    """Why the grid needs its reference: stock float32 gives exactly 0 for a one-hot target
    on a class leading by 30 (from ~25; float64 F.cross_entropy from ~37); ours does not."""
    z, p, _ = collapse_case(torch.float32)
    i = MARGINS.index(margin)
    stock = F.cross_entropy(z[i:i + 1], p[i:i + 1])
    assert stock.item() == 0.0 and inductor_ce.cross_entropy(z[i:i + 1], p[i:i + 1]).item() > 0


# --------------------------------------------------------------------------------------------
# Equal to F.cross_entropy, edge cases
# --------------------------------------------------------------------------------------------

@pytest.mark.pinned
def test_equals_stock_on_random_inputs():
    """float32: ours and F.cross_entropy agree to float32 accuracy, loss and both gradients."""
    x, p = make_case(torch.float32, ("stock",), (40, V), scale=4.0)
    w = torch.rand(V, generator=_gen("sw")) + 0.5
    for kw in (dict(), dict(weight=w, label_smoothing=0.2), dict(reduction="sum"),
               dict(weight=w, reduction="none", label_smoothing=0.05)):
        out = []
        for ce in (inductor_ce.cross_entropy, F.cross_entropy):
            xl, pl = x.clone().requires_grad_(), p.clone().requires_grad_()
            loss = ce(xl, pl, **kw)
            loss.sum().backward()
            out.append((loss, xl.grad, pl.grad))
        for ours, stock in zip(*out):
            torch.testing.assert_close(ours, stock, rtol=2e-5, atol=2e-6)


def test_strided_views_zero_rows_and_one_dimension():
    x, p = make_case(torch.float32, ("strided",), (4, 9, V))
    xl = x.clone().requires_grad_()
    loss = inductor_ce.cross_entropy(xl[:, :-1], p[:, 1:], reduction="none")
    loss.sum().backward()
    ref, rx, _ = reference_grads(x[:, :-1], p[:, 1:], torch.ones(4, 8), reduction="none")
    assert_loss_close(loss, ref)
    assert_grad_close(xl.grad[:, :-1], rx)
    assert torch.equal(xl.grad[:, -1], torch.zeros(4, V))
    # zero rows: mean nan, sum 0, none empty, zero gradient (as F.cross_entropy)
    x0 = torch.randn(0, V, requires_grad=True)
    assert torch.isnan(inductor_ce.cross_entropy(x0, torch.rand(0, V)))
    inductor_ce.cross_entropy(x0, torch.rand(0, V), reduction="sum").backward()
    assert x0.grad.shape == (0, V)
    assert inductor_ce.cross_entropy(x0, torch.rand(0, V), reduction="none").shape == (0,)
    # a 1-D input is one row
    one = inductor_ce.cross_entropy(x[0, 0], p[0, 0])
    assert_loss_close(one, reference(x[0, 0], p[0, 0]))


def test_eager_compiled_strided_rows_lse_and_target_gradient():
    """The compiled eager path (eager/soft.py) on strided views of logits and targets, with
    return_lse and a target that requires a gradient: every gradient against float64."""
    x, p = make_case(torch.bfloat16, ("eager-strided",), (4, 9, V))
    xl, pl = x.clone().requires_grad_(), p.clone().requires_grad_()
    kw = dict(label_smoothing=0.1, z_loss=1e-3, reduction="none")
    with mock.patch.object(eager, "MODE", "compiled"):
        before = eager.compiles
        loss, lse = inductor_ce.cross_entropy(xl[:, :-1], pl[:, 1:], return_lse=True, **kw)
        up, up_lse = torch.rand(4, 8, generator=_gen("u")), torch.rand(4, 8, generator=_gen("l"))
        torch.autograd.backward([loss, lse], [up, up_lse])
        assert eager.compiles == before + 2        # the forward and the backward graph
    x64 = x[:, :-1].double().requires_grad_()
    p64 = p[:, 1:].double().requires_grad_()
    ref, ref_lse = reference(x64, p64, **kw), torch.logsumexp(x64, -1)
    torch.autograd.backward([ref, ref_lse], [up.double(), up_lse.double()])
    assert_loss_close(loss, ref)
    assert_loss_close(lse, ref_lse)
    assert_grad_close(xl.grad[:, :-1], x64.grad)
    assert_grad_close(pl.grad[:, 1:], p64.grad)
    assert not xl.grad[:, -1].any() and not pl.grad[:, 0].any()


def test_eager_compiled_one_graph_per_vocabulary_any_rows():
    """V is a constant of the compiled eager code, the rows are not: a new V compiles, a new
    row count does not."""
    with mock.patch.object(eager, "MODE", "compiled"), torch.no_grad():
        before = eager.compiles
        for rows, v in ((6, 40), (6, 60), (11, 40)):
            x, p = make_case(torch.float32, ("vocab", rows, v), (rows, v))
            loss = inductor_ce.cross_entropy(x, p, reduction="none")
            assert_loss_close(loss, reference(x, p, reduction="none"))
        assert eager.compiles == before + 2


def test_non_finite_logits():
    """+inf or nan logits make their row nan (as stock); a masked class (-inf logit) of
    probability 0 adds 0, where F.cross_entropy's 0 * inf is nan; with smoothing it is +inf,
    as stock."""
    x, p = make_case(torch.float32, ("inf",), (4, V))
    x[0, 3], x[1, 5], x[2, 7] = float("inf"), float("nan"), float("-inf")
    p[2, 7] = 0.0
    xl = x.clone().requires_grad_()
    loss = inductor_ce.cross_entropy(xl, p, reduction="none")
    loss.sum().backward()
    assert torch.isnan(loss[:2]).all() and torch.isnan(xl.grad[:2]).all()
    assert torch.isfinite(loss[2:]).all() and torch.isfinite(xl.grad[2:]).all()
    assert xl.grad[2, 7] == 0
    finite = x[2:3].clone()
    finite[0, 7] = -1e4
    assert_loss_close(loss[2:3], reference(finite, p[2:3], reduction="none"))
    smoothed = inductor_ce.cross_entropy(x[2:3], p[2:3], label_smoothing=0.1)
    assert smoothed.item() == float("inf") == F.cross_entropy(x[2:3], p[2:3],
                                                              label_smoothing=0.1).item()


def test_torch_func_and_double_backward():
    """torch.func differentiates the forward itself: its gradient is ours; a gradient of our
    gradient (create_graph=True) raises, naming torch.func."""
    x, p = make_case(torch.float32, ("func",), (6, V))
    w = torch.rand(V, generator=_gen("fw")) + 0.5
    kw = dict(weight=w, label_smoothing=0.1, z_loss=1e-3, softcap=8.0)
    gx, gp = torch.func.grad(lambda x, p: inductor_ce.cross_entropy(x, p, **kw), (0, 1))(x, p)
    _, rx, rp = reference_grads(x, p, None, **kw)
    assert_grad_close(gx, rx)
    assert_grad_close(gp, rp)
    per_row = torch.func.vmap(lambda x, p: inductor_ce.cross_entropy(x, p, **kw))(x, p)
    assert_loss_close(per_row, reference(x, p, reduction="none", **kw))
    # A sparse teacher (classes of probability 0, no smoothing): the derivative in p there is
    # lse - z_j too, not 0.
    sparse = p * (torch.rand(p.shape, generator=_gen("sparse")) < 0.5)
    gp = torch.func.grad(lambda p: inductor_ce.cross_entropy(x, p), 0)(sparse)
    _, _, rp = reference_grads(x, sparse, None)
    assert (sparse == 0).any() and (rp[sparse == 0].abs() > 0.1).all()
    assert_grad_close(gp, rp)
    tangent = torch.rand(p.shape, generator=_gen("sparse-tangent"))
    dot = torch.func.jvp(lambda p: inductor_ce.cross_entropy(x, p), (sparse,), (tangent,))[1]
    torch.testing.assert_close(dot.double(), (rp * tangent.double()).sum(), rtol=1e-5, atol=0)
    xl = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(inductor_ce.cross_entropy(xl, p), xl, create_graph=True)
    with pytest.raises(RuntimeError, match="torch.func"):
        g.sum().backward()


# --------------------------------------------------------------------------------------------
# enable(): a model's soft-target F.cross_entropy is routed
# --------------------------------------------------------------------------------------------

def test_enable_routes_a_models_soft_target_loss():
    """Distillation: F.cross_entropy(student logits, teacher probabilities) of an N-D model
    output, class dimension 1 (a transposed view), goes through our loss under enable()."""
    g = _gen("route")
    head = torch.nn.Linear(16, V)
    h = torch.randn(2, 5, 16, generator=g)
    teacher = torch.randn(2, V, 5, generator=g).softmax(1)

    def step(h):
        return F.cross_entropy(head(h).transpose(1, 2), teacher, label_smoothing=0.1)

    def backend(gm, example_inputs):
        routing.route(gm.graph)
        gm.recompile()
        graphs.append(gm.graph)
        return gm.forward

    graphs = []
    routing.counters.clear()
    inductor_ce.enable()
    try:
        torch.compiler.reset()
        loss = torch.compile(step, backend=backend, fullgraph=True)(h)
    finally:
        inductor_ce.disable()
    assert routing.counters["routed"] == 1 and routing.counters["kept"] == 0
    assert any(n.target is routing._fused_cross_entropy for gr in graphs for n in gr.nodes)
    loss.backward()
    ours = head.weight.grad.clone()
    head.weight.grad = None
    stock = step(h)
    stock.backward()
    torch.testing.assert_close(loss, stock, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(ours, head.weight.grad, rtol=1e-5, atol=1e-6)


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------

@pytest.mark.pinned
@pytest.mark.parametrize("case,error,match", [
    ("float64 target", TypeError, "target of class probabilities must be float32"),
    ("bf16 target, float32 logits", TypeError, "target of class probabilities"),
    ("wrong shape", ValueError, "target of class probabilities .* must have input's shape"),
    ("ignore_index >= 0", ValueError, "ignore_index is not supported for probability"),
    ("weight shape", ValueError, "weight must have shape"),
    ("int target of input's shape", ValueError, "target must have shape input.shape"),
])
def test_bad_input_names_the_argument(case, error, match):
    x, p = make_case(torch.float32, ("bad",), (4, V))
    args, kw = {
        "float64 target": ((x, p.double()), {}),
        "bf16 target, float32 logits": ((x, p.bfloat16()), {}),
        "wrong shape": ((x, p[:, :-1]), {}),
        "ignore_index >= 0": ((x, p), dict(ignore_index=0)),
        "weight shape": ((x, p), dict(weight=torch.ones(V - 1))),
        "int target of input's shape": ((x, p.long()), {}),
    }[case]
    with pytest.raises(error, match=match):
        inductor_ce.cross_entropy(*args, **kw)


def test_compiled_saves_the_bf16_input_not_an_upcast_copy():
    """A cast and a temperature in front of the loss fuse into soft_stats' loads: the backward
    graph receives the bf16 logits and per-row statistics, no float32 (rows, V) copy, and does
    not compute the statistics again."""
    pytest.importorskip("triton")
    from inductor_ce._inductor import capture
    from inductor_ce.codegen import reading
    x = torch.empty(64, 5000, dtype=torch.bfloat16, requires_grad=True)
    p = torch.empty(64, 5000)
    fn = torch.compile(lambda x, p: inductor_ce.cross_entropy(x.float() / 0.7, p),
                       fullgraph=True)
    _, bwd = capture.codegen_only(fn, x, p, pin_machine=False, triton_on_cpu_tensors=True)
    wide = {k: v for k, v in reading.graph_inputs(bwd).items() if v.endswith(", 5000]")}
    assert sorted(wide.values()) == ["bf16[64, 5000]", "f32[64, 5000]"], wide   # x, p
    assert "soft_stats" not in bwd


def test_ops_pass_opcheck():
    """soft_stats and soft_grad: schema, fake kernels and AOT dispatch as torch.library checks
    them (their outputs carry no gradient: SoftCrossEntropy is the autograd)."""
    from inductor_ce.op import soft
    x, p = make_case(torch.float32, ("opcheck",), shape=(6, V))
    w = torch.rand(V, generator=_gen("opcheck-w")) + 0.5
    eps = torch.tensor(0.1)
    for args in ((x, p, None, None, None), (x, p, w, eps, torch.tensor(20.0))):
        torch.library.opcheck(soft.soft_stats, args)
        m, s, total, rest, _, a = soft.soft_stats(*args)
        g, k = torch.rand(6, generator=_gen("opcheck-g")), torch.zeros(6)
        torch.library.opcheck(soft.soft_grad, (*args[:4], m, s, total, rest, a, g, k,
                                               args[4]))
