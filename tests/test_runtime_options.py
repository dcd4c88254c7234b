"""label_smoothing, z_loss and softcap taking a new value every call (an annealed smoothing,
a z-loss warm-up, a softcap sweep). Their values are inputs of the compiled code, not
constants of it: eagerly (inductor_ce/eager/loss.py's LossSpec keeps only whether each is
non-zero or given) a new value compiles nothing, and under torch.compile a 0-d tensor option
is a graph input, never a guard, and a float recompiles once.
Each value's loss and gradient against float64, over the collapse margins; the eager path's
caches bounded, with one warning (docs/eager.md).
"""
from __future__ import annotations

import time
import warnings

import pytest
import torch
import torch.nn.functional as F

import inductor_ce
from inductor_ce.eager import kernels as eager
from inductor_ce.eager import loss as eager_loss
from _reference import (assert_grad_close, assert_loss_close, check_a_new_softcap_every_call,
                        collapse_safe_reference, gemm_rounding, reference)
from test_core import MARGINS, collapse_logits, run_reference


@pytest.fixture(autouse=True)
def compiled_at_any_size(monkeypatch):
    """The tests' shapes are small: force the compiled path (auto mode needs MIN_ELEMENTS).
    And a cache of their own: each test's first calls compile here, whatever other tests
    did, and other tests' counts of compiles are not changed by these."""
    monkeypatch.setattr(eager, "MODE", "compiled")
    monkeypatch.setattr(eager, "_CACHE", {})


# Eight calls, the last six each of a new value: a smoothing annealed down, a z-loss warmed
# up from 0 (its first call compiles the variant without the term, its second the one with).
SCHEDULES = {
    "label_smoothing": [0.1, 0.09, 0.08, 0.06, 0.05, 0.03, 0.02, 0.01],
    "z_loss": [0.0, 1e-4, 2e-4, 4e-4, 8e-4, 1.6e-3, 3.2e-3, 6.4e-3],
    "softcap": [30.0, 25.0, 20.0, 15.0, 12.5, 10.0, 8.0, 6.0],
}


def _margins_reference(z, target, label_smoothing=0.0, z_loss=0.0, softcap=None):
    """Per-row loss and d(sum of the rows' losses)/dz in float64, collapse-safe at any margin:
    (1 - eps) * softplus(lse_nt - z_t) + eps * (lse - mean_j z_j) + zl * lse^2 (F.cross_entropy's
    smoothing without class weights, plus the z-loss), gradient (1 - eps) * that of the
    collapse-safe NLL + eps * (p - 1/V) + 2 zl lse p; with a softcap, that of cap tanh(z / cap)
    times the chain rule's 1 - tanh^2."""
    if softcap is not None:
        t = torch.tanh(z.double() / softcap)
        loss, grad = _margins_reference(softcap * t, target, label_smoothing, z_loss)
        return loss, grad * (1.0 - t * t)
    nll, nll_grad = collapse_safe_reference(z, target)
    z64 = z.double()
    lse = torch.logsumexp(z64, -1)
    p = torch.softmax(z64, -1)
    eps, zl = label_smoothing, z_loss
    loss = (1 - eps) * nll + eps * (lse - z64.mean(-1)) + zl * lse ** 2
    grad = (1 - eps) * nll_grad + eps * (p - 1 / z.shape[-1]) + 2 * zl * lse[:, None] * p
    return loss, grad


@pytest.mark.parametrize("variant", ["few_rows", "many_rows"])
@pytest.mark.parametrize("option", list(SCHEDULES))
def test_a_new_value_every_call_compiles_nothing(option, variant, monkeypatch):
    """A value new at every call: after the first two calls nothing compiles and a call
    takes well under a second (it was a compile, seconds, per call); every call's loss and
    gradient equal float64's at every margin of the collapse grid; the calls after the first
    of each variant take the kept path (no checks), which reads the values per call."""
    from inductor_ce import functional
    if variant == "many_rows":
        monkeypatch.setattr(eager_loss, "FEW_ROWS", 0)
    checked = []
    real = functional.check_tensors
    monkeypatch.setattr(functional, "check_tensors", lambda *a: (checked.append(1), real(*a)))
    z, target = collapse_logits(MARGINS)
    compiled, seconds = [], []
    for value in SCHEDULES[option]:
        x = z.clone().requires_grad_()
        before, start = eager.compiles, time.perf_counter()
        loss = inductor_ce.cross_entropy(x, target, reduction="none", **{option: value})
        loss.sum().backward()
        seconds.append(time.perf_counter() - start)
        compiled.append(eager.compiles - before)
        ref_loss, ref_grad = _margins_reference(z, target, **{option: value})
        assert_loss_close(loss, ref_loss, msg=f"{option}={value}")
        assert_grad_close(x.grad, ref_grad, msg=f"{option}={value}")
    print(f"{option} ({variant}): compiles per call {compiled}, seconds per call "
          f"{[round(s, 4) for s in seconds]}")
    assert compiled[0] == 2 and sum(compiled[1:]) == (2 if option == "z_loss" else 0), \
        compiled
    assert max(seconds[2:]) < 2.0, seconds      # (loose: a loaded machine; ~1e-3 s here)
    assert len(checked) == (2 if option == "z_loss" else 1), len(checked)


def test_the_fused_heads_chunks_compile_once():
    """linear_cross_entropy ("fast": eager/loss.py's loss_chunk per chunk of rows) with
    label_smoothing, z_loss and softcap new every call: no compile after the first call, each
    call's loss and gradients against float64."""
    gen = torch.Generator().manual_seed(3)
    h = torch.randn(40, 16, generator=gen)
    w = torch.randn(300, 16, generator=gen) * 0.5
    t = torch.randint(0, 300, (40,), generator=gen)
    t[::9] = -100
    compiled = []
    for i in range(6):
        opts = dict(label_smoothing=0.1 - 0.015 * i, z_loss=1e-4 * (i + 1),
                    softcap=20.0 - 2.5 * i)
        hh, ww = h.clone().requires_grad_(), w.clone().requires_grad_()
        before = eager.compiles
        loss = inductor_ce.linear_cross_entropy(hh, ww, t, **opts)
        loss.backward()
        compiled.append(eager.compiles - before)
        h64, w64 = h.double().requires_grad_(), w.double().requires_grad_()
        z64 = h64 @ w64.t()
        z64.retain_grad()
        ref = reference(z64, t, **opts)
        ref.backward()
        assert_loss_close(loss, ref, msg=str(opts))
        assert_grad_close(hh.grad, h64.grad, extra_tol=gemm_rounding(z64.grad, w), msg=str(opts))
        assert_grad_close(ww.grad, w64.grad, extra_tol=gemm_rounding(z64.grad.t(), h),
                          msg=str(opts))
    assert sum(compiled[1:]) == 0, compiled


def test_tensor_options_eagerly():
    """A one-element tensor label_smoothing or z_loss (z_loss's floating-point) is read on
    the host and gives the float's loss; a bad one raises, naming the argument."""
    x = torch.randn(24, 13, requires_grad=True)
    t = torch.randint(0, 13, (24,))
    loss = inductor_ce.cross_entropy(x, t, label_smoothing=torch.tensor(0.2),
                                     z_loss=torch.tensor([1e-2], dtype=torch.float64))
    ref, _ = run_reference(x, lambda v: v, t, label_smoothing=0.2, z_loss=1e-2)
    assert_loss_close(loss, ref)
    cases = [(dict(label_smoothing=torch.tensor(1.5)), "label_smoothing must be in \\[0, 1\\]"),
             (dict(label_smoothing=torch.tensor([0.1, 0.2])),
              "label_smoothing must be a float or a one-element tensor"),
             (dict(z_loss=torch.tensor(-1.0)), "z_loss must be a finite number >= 0"),
             (dict(z_loss=torch.tensor(float("nan"))), "z_loss must be a finite number >= 0"),
             (dict(z_loss=torch.tensor(1)),
              "z_loss must be a float or a one-element floating-point tensor")]
    for kw, match in cases:
        with pytest.raises(ValueError, match=match):
            inductor_ce.cross_entropy(x, t, **kw)
    with pytest.raises(TypeError, match="z_loss must be a float or a one-element"):
        inductor_ce.cross_entropy(x, t, z_loss="0.1")


def test_numpy_scalar_options():
    """numpy scalars as options, which F.cross_entropy's argument parser takes (np.float64 is
    a float subclass; np.int64 and np.float32 are not): each call gives the loss of the
    Python number, through the functions and the modules, against float64; a numpy bool or
    float ignore_index is refused by name, as a Python one."""
    np = pytest.importorskip("numpy")
    x = torch.randn(8, 13, requires_grad=True)
    t = torch.randint(0, 13, (8,))
    t[2] = 5
    h = torch.randn(8, 6, requires_grad=True)
    w = torch.randn(13, 6, requires_grad=True)
    cases = [dict(ignore_index=np.int64(5)), dict(ignore_index=np.int32(5)),
             dict(label_smoothing=np.float32(0.25)), dict(z_loss=np.float32(1e-2)),
             dict(softcap=np.float32(2.5)),
             dict(ignore_index=np.uint8(5), label_smoothing=np.int64(0), softcap=np.int16(3))]
    for kw in cases:
        number = {k: v.item() for k, v in kw.items()}
        ref, ref_grad = run_reference(x, lambda v: v, t, **number)
        for loss_of in (lambda: inductor_ce.cross_entropy(x, t, **kw),
                        lambda: inductor_ce.CrossEntropyLoss(**kw)(x, t)):
            x.grad = None
            loss = loss_of()
            loss.backward()
            assert_loss_close(loss, ref)
            assert_grad_close(x.grad, ref_grad)
        fused = inductor_ce.linear_cross_entropy(h, w, t, **kw)
        ref = reference(h.double() @ w.double().t(), t, **number)
        assert_loss_close(fused, ref)
    # The full form's temperature: divides the logits (and the softcap's) as the float would.
    got = inductor_ce.cross_entropy(x, t, temperature=np.float32(2.0), softcap=np.float64(3))
    assert_loss_close(got, reference(x.double() / 2.0, t, softcap=3.0))
    for bad in (np.True_, np.float64(5.0), np.array([5])):
        with pytest.raises(TypeError, match="ignore_index must be an int"):
            inductor_ce.cross_entropy(x, t, ignore_index=bad)
    with pytest.raises(TypeError, match="temperature must be a float"):
        inductor_ce.cross_entropy(x, t, temperature=np.array([2.0]))


@pytest.mark.parametrize("name", ["label_smoothing", "z_loss"])
def test_a_tensor_option_that_requires_grad_raises(name):
    """A tensor option that requires grad would get no gradient (stock F.cross_entropy
    converts it to a float, with a warning): a ValueError naming it, eagerly, compiled and on
    the fused head; under no_grad it is a value like any other."""
    x = torch.randn(6, 13, requires_grad=True)
    t = torch.randint(0, 13, (6,))
    opt = {name: torch.tensor(0.1, requires_grad=True)}
    h, w = torch.randn(6, 4, requires_grad=True), torch.randn(13, 4)
    for fn in (inductor_ce.cross_entropy, torch.compile(inductor_ce.cross_entropy,
                                                        backend="eager"),
               lambda x, t, **kw: inductor_ce.linear_cross_entropy(h, w, t, **kw)):
        with pytest.raises(ValueError, match=f"{name} is a tensor that requires grad"):
            fn(x, t, **opt)
    with torch.no_grad():
        assert_loss_close(inductor_ce.cross_entropy(x, t, **opt),
                          reference(x.double(), t, **{name: 0.1}))


def test_compiled_tensor_options_never_recompile():
    """Under torch.compile (fullgraph, error_on_recompile) 0-d tensor options are graph
    inputs: new values, 0 included, neither recompile nor break the graph; each value's loss
    and gradient against float64; a smoothing tensor of 0 leaves a row with a masked (-inf)
    logit finite; a bad value raises from the compiled code, naming the argument."""
    torch._dynamo.reset()
    gen = torch.Generator().manual_seed(4)
    z = torch.randn(24, 13, generator=gen) * 2
    t = torch.randint(0, 13, (24,), generator=gen)
    t[::5] = -100
    fn = torch.compile(lambda x, t, s, zl: inductor_ce.cross_entropy(
        x, t, label_smoothing=s, z_loss=zl), fullgraph=True)
    with torch._dynamo.config.patch(error_on_recompile=True):
        for s, zl in [(0.1, 1e-3), (0.05, 0.0), (0.0, 2e-2), (0.0, 0.0), (0.3, 1e-2)]:
            x = z.clone().requires_grad_()
            loss = fn(x, t, torch.tensor(s), torch.tensor(zl))
            loss.backward()
            ref, ref_grad = run_reference(x, lambda v: v, t, label_smoothing=s, z_loss=zl)
            assert_loss_close(loss, ref, msg=f"{s}, {zl}")
            assert_grad_close(x.grad, ref_grad, msg=f"{s}, {zl}")
        masked = z.clone()
        masked[t != -100, (t[t != -100] + 1) % 13] = float("-inf")
        x = masked.clone().requires_grad_()
        loss = fn(x, t, torch.tensor(0.0), torch.tensor(0.0))
        loss.backward()
        ref, ref_grad = run_reference(x, lambda v: v, t)
        assert torch.isfinite(loss) and bool(torch.isfinite(x.grad).all())
        assert_loss_close(loss, ref)
        assert_grad_close(x.grad, ref_grad)
        for s, zl, match in [(1.5, 0.0, "label_smoothing must be in"),
                             (0.1, float("inf"), "z_loss must be a finite number")]:
            with pytest.raises(RuntimeError, match=match):
                fn(z.clone().requires_grad_(), t, torch.tensor(s), torch.tensor(zl))


def test_compiled_linear_tensor_options_never_recompile():
    """linear_cross_entropy under torch.compile (fullgraph, error_on_recompile) with 0-d tensor
    options: graph inputs (they failed to trace: the fast op's schema takes floats), so new
    values neither recompile nor break the graph; a scalar loss and per-token losses, each
    value's loss and gradients against float64."""
    gen = torch.Generator().manual_seed(6)
    h0, w0 = torch.randn(24, 8, generator=gen), torch.randn(13, 8, generator=gen)
    t = torch.randint(0, 13, (24,), generator=gen)
    t[::5] = -100
    for reduction in ("mean", "none"):
        torch._dynamo.reset()    # (one lambda's code for both: a reduction of its own)
        fn = torch.compile(lambda h, w, t, s, zl: inductor_ce.linear_cross_entropy(
            h, w, t, reduction=reduction, label_smoothing=s, z_loss=zl), fullgraph=True)
        with torch._dynamo.config.patch(error_on_recompile=True):
            for s, zl in [(0.1, 1e-3), (0.05, 0.0), (0.0, 2e-2), (0.3, 1e-2)]:
                h, w = h0.clone().requires_grad_(), w0.clone().requires_grad_()
                loss = fn(h, w, t, torch.tensor(s), torch.tensor(zl))
                loss.sum().backward()
                h64, w64 = h0.double().requires_grad_(), w0.double().requires_grad_()
                ref = reference(h64 @ w64.T, t, reduction=reduction, label_smoothing=s,
                                z_loss=zl)
                ref.sum().backward()
                assert_loss_close(loss, ref, msg=f"{reduction}, {s}, {zl}")
                assert_grad_close(h.grad, h64.grad, msg=f"{reduction}, {s}, {zl}")
                assert_grad_close(w.grad, w64.grad, msg=f"{reduction}, {s}, {zl}")


@pytest.mark.parametrize("dynamic", [None, True])
def test_compiled_float_options_recompile_once(dynamic):
    """A Python float option under torch.compile: Dynamo specializes the first value and, at
    the second, recompiles with the float symbolic (its automatic dynamic; with
    ``dynamic=True`` it is symbolic from the first call); later values compile nothing
    (nothing of ours specializes it, as float() could)."""
    from torch._dynamo.testing import CompileCounter
    torch._dynamo.reset()
    counter = CompileCounter()
    fn = torch.compile(lambda x, t, s, zl: inductor_ce.cross_entropy(
        x, t, label_smoothing=s, z_loss=zl), backend=counter, fullgraph=True, dynamic=dynamic)
    x = torch.randn(24, 13)
    t = torch.randint(0, 13, (24,))
    for s in (0.1, 0.2, 0.3, 0.4, 0.5):
        ref = reference(x.double(), t, label_smoothing=s, z_loss=s / 10)
        assert_loss_close(fn(x, t, s, s / 10), ref)
    assert counter.frame_count == (1 if dynamic else 2), counter.frame_count


def test_compiled_linear_float_options_recompile_once():
    """linear_cross_entropy's scalar loss under torch.compile (Inductor, fullgraph) with float
    options new at every call: one recompile in all, as cross_entropy's (the fast op took
    them as floats of its schema: a guard and a compile per value, and past Dynamo's
    recompile limit a hard error under fullgraph); each value's loss and gradients against
    float64, the full form's too."""
    from torch._dynamo.testing import CompileCounterWithBackend
    gen = torch.Generator().manual_seed(7)
    h0, w0 = torch.randn(24, 8, generator=gen), torch.randn(13, 8, generator=gen)
    t = torch.randint(0, 13, (24,), generator=gen)
    t[::5] = -100
    for entropy in (False, True):
        torch._dynamo.reset()
        counter = CompileCounterWithBackend("inductor")
        fn = torch.compile(lambda h, w, t, s, zl: inductor_ce.linear_cross_entropy(
            h, w, t, label_smoothing=s, z_loss=zl, return_entropy=entropy),
            backend=counter, fullgraph=True)
        for s, zl in [(0.1, 1e-3), (0.2, 2e-3), (0.05, 1e-2), (0.3, 3e-2)]:
            h, w = h0.clone().requires_grad_(), w0.clone().requires_grad_()
            out = fn(h, w, t, s, zl)
            loss = out.loss if entropy else out
            loss.backward()
            h64, w64 = h0.double().requires_grad_(), w0.double().requires_grad_()
            ref = reference(h64 @ w64.T, t, label_smoothing=s, z_loss=zl)
            ref.backward()
            assert_loss_close(loss, ref, msg=f"{entropy}, {s}, {zl}")
            assert_grad_close(h.grad, h64.grad, msg=f"{entropy}, {s}, {zl}")
            assert_grad_close(w.grad, w64.grad, msg=f"{entropy}, {s}, {zl}")
        assert counter.frame_count == 2, (entropy, counter.frame_count)


def test_class_weights_never_recompile():
    """Class weights are a tensor input: a new weight tensor, or new values in the same one,
    compiles nothing."""
    x = torch.randn(24, 13, requires_grad=True)
    t = torch.randint(0, 13, (24,))
    w = torch.rand(13) + 0.5
    compiled = []
    for i in range(4):
        weight = w if i % 2 else torch.rand(13) + 0.5
        w.mul_(1.5)
        x.grad = None
        before = eager.compiles
        loss = inductor_ce.cross_entropy(x, t, weight=weight, label_smoothing=0.1)
        loss.backward()
        compiled.append(eager.compiles - before)
        ref, ref_grad = run_reference(x, lambda v: v, t, weight=weight, label_smoothing=0.1)
        assert_loss_close(loss, ref)
        assert_grad_close(x.grad, ref_grad)
    assert sum(compiled[1:]) == 0, compiled


@pytest.mark.parametrize("constant", ["temperature", "ignore_index"])
def test_compiled_functions_are_bounded(monkeypatch, constant):
    """kernels._CACHE keeps at most MAX_COMPILED keys: a temperature or an ignore_index new at
    every call (a constant of the op's code) compiles each time, drops the oldest and warns
    once, naming the cause; the values stay right. Before that bound, the MANY_VALUES-th
    distinct value compiled warns once that the constant compiles per value."""
    monkeypatch.setattr(eager, "MODE", "compiled")
    monkeypatch.setattr(eager, "_WARNED", set())
    monkeypatch.setattr(eager, "MAX_COMPILED", 2)
    monkeypatch.setattr(eager, "MANY_VALUES", 3)
    monkeypatch.setattr(eager, "_TEMPERATURES", set())
    monkeypatch.setattr(eager, "_IGNORE_INDICES", set())
    x = torch.randn(24, 13) * 3
    t = torch.randint(0, 13, (24,))
    values = (0.5, 0.7, 0.9, 1.3) if constant == "temperature" else (3, 4, 5, 6)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for value in values:
            loss = inductor_ce.cross_entropy(x, t, **{constant: value})   # (no grad)
            ref = reference(x.double() / value, t) if constant == "temperature" else \
                reference(x.double(), t, ignore_index=value)
            assert_loss_close(loss, ref)
            assert len(eager._CACHE) <= 2
    bound = [str(w.message) for w in caught if "kernels._CACHE" in str(w.message)]
    assert len(bound) == 1 and constant in bound[0], bound
    many = [str(w.message) for w in caught if "different values" in str(w.message)]
    assert len(many) == 1 and many[0].startswith(f"inductor_ce: {constant} has taken 3 "), many


def test_many_temperatures_or_ignore_indices_warn_once(monkeypatch):
    """note_constants, which every forward compile calls: the MANY_VALUES-th distinct
    temperature warns once, and so does the MANY_VALUES-th distinct ignore_index; absent ones
    (None, 1; -100) and repeated values count nothing."""
    monkeypatch.setattr(eager, "MANY_VALUES", 3)
    monkeypatch.setattr(eager, "_TEMPERATURES", set())
    monkeypatch.setattr(eager, "_IGNORE_INDICES", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for temperature in [1.0, None, 0.5, None, 1.0, 0.7, 0.5]:
            eager.note_constants(temperature, -100)
        for ignore_index in [-100, 0, -100, 5, 0]:
            eager.note_constants(None, ignore_index)
        assert caught == []
        eager.note_constants(0.9, -100)      # the third temperature
        eager.note_constants(0.8, -100)      # past the count: no second warning
        eager.note_constants(None, 7)        # the third ignore_index
        eager.note_constants(1.0, 8)
    assert [str(w.message).split(" has")[0] for w in caught] == [
        "inductor_ce: temperature", "inductor_ce: ignore_index"]
    assert all(w.category is RuntimeWarning for w in caught)


@pytest.mark.parametrize("op", ["cross_entropy", "linear_cross_entropy", "probabilities"])
def test_compiled_softcap_recompiles_once(op):
    """A Python float softcap new at every call under torch.compile (Inductor, fullgraph): the
    second value recompiles once (Dynamo's automatic dynamic), later ones compile nothing
    (error_on_recompile from the third call; the ops' schemas took the softcap as a float, a
    guard and a compile per value); each value's loss and gradient against float64. Eagerly
    the same calls compile nothing after the first."""
    gen = torch.Generator().manual_seed(11)
    x0 = torch.randn(12, 40, generator=gen) * 8
    w0 = torch.randn(40, 8, generator=gen)
    t = torch.randint(0, 40, (12,), generator=gen)
    t[::5] = -100
    p = torch.softmax(torch.randn(12, 40, generator=gen), -1)

    def call(x, cap):
        if op == "linear_cross_entropy":
            return inductor_ce.linear_cross_entropy(x, w0, t, softcap=cap)
        return inductor_ce.cross_entropy(x, p if op == "probabilities" else t, softcap=cap)

    def ref(x64, cap):
        """(loss, the logits, with their gradient retained)"""
        z = x64 @ w0.double().T if op == "linear_cross_entropy" else x64
        z.retain_grad()
        if op == "probabilities":
            return F.cross_entropy(cap * torch.tanh(z / cap), p.double()), z
        return reference(z, t, softcap=cap), z

    def check(cap, loss, x):
        x64 = x_in.double().requires_grad_()
        want, z64 = ref(x64, cap)
        want.backward()
        extra = gemm_rounding(z64.grad, w0) if op == "linear_cross_entropy" else None
        assert_loss_close(loss, want, msg=f"{op}, {cap}")
        assert_grad_close(x.grad, x64.grad, extra_tol=extra, msg=f"{op}, {cap}")

    x_in = x0[:, :8].contiguous() if op == "linear_cross_entropy" else x0
    check_a_new_softcap_every_call(call, x_in, (30.0, 20.0, 15.0, 12.5, 7.0), check)


def test_compiled_probability_targets_smoothing_recompiles_once():
    """Probability targets under torch.compile (Inductor) with a float label_smoothing new at
    every call: one recompile in all, at the second value (their ops' smoothing tensor was
    made with torch.full((), float(eps)), which made the symbolic float a constant again: a
    compile per value); each value's loss against float64."""
    from torch._dynamo.testing import CompileCounterWithBackend
    gen = torch.Generator().manual_seed(13)
    x = torch.randn(8, 64, generator=gen)
    p = torch.softmax(torch.randn(8, 64, generator=gen), -1)
    torch._dynamo.reset()
    counter = CompileCounterWithBackend("inductor")
    fn = torch.compile(lambda x, s: inductor_ce.cross_entropy(x, p, label_smoothing=s),
                       backend=counter, fullgraph=True)
    for i, s in enumerate((0.1, 0.2, 0.3, 0.4, 0.5)):
        with torch._dynamo.config.patch(error_on_recompile=i >= 2):
            loss = fn(x, s)
        assert_loss_close(loss, F.cross_entropy(x.double(), p.double(), label_smoothing=s))
    assert counter.frame_count == 2, counter.frame_count
