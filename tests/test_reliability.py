"""Reliability: what a demanding user meets at the edges, on the CPU (eager and Inductor's C++
backend in this process; Triton code in the interpreter runs in tests/test_lowering.py).

* non-finite logits: the same nan/inf pattern as F.cross_entropy, loss and gradient, and an
  fp16 GradScaler step that overflows is skipped as with stock;
* degenerate shapes (one row, 1-D, V = 1, no rows) compile and give the eager values;
* a bad target raises a RuntimeError on the compiled CPU path at every row count (checked in
  a subprocess: a throw inside an OpenMP region would end the process);
* torch.func transforms and forward-mode AD give the float64 derivatives, never a silent 0;
* ignore_index outside the target dtype's range means what F.cross_entropy means;
* every option is checked and named in its error.
"""
from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import warnings
import zlib

import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

import inductor_ce
from _reference import assert_grad_close, assert_loss_close, assert_within_one_rounding, \
    reference

V = 7
INF, NAN = float("inf"), float("nan")


def _gen(*key) -> torch.Generator:
    return torch.Generator().manual_seed(zlib.crc32(repr(key).encode()))


# --------------------------------------------------------------------------------------------
# 1. Non-finite logits
# --------------------------------------------------------------------------------------------

# (target, {column: value}); target None is ignore_index. Row 10 is the documented exception:
# an ignored row of -inf logits (a padded position) gets loss 0 and gradient exactly 0, where
# F.cross_entropy's gradient is nan (exp(-inf - (-inf))).
NON_FINITE_ROWS = [
    (0, {0: INF}),                       # +inf target: nan (inf - inf in the log-softmax)
    (0, {3: INF}),                       # +inf non-target: nan
    (2, {2: NAN}),                       # nan target
    (2, {5: NAN}),                       # nan non-target
    (1, {1: -INF}),                      # -inf target: loss inf, finite gradient
    (1, {0: -INF, 4: -INF}),             # masked classes: finite
    (3, {j: (INF if j == 3 else -INF) for j in range(V)}),   # +inf target, rest -inf: nan
    (3, {j: -INF for j in range(V)}),    # all -inf, kept: nan
    (None, {4: INF}),                    # ignored: loss 0, gradient nan (as stock)
    (None, {1: NAN}),
    (None, {j: -INF for j in range(V)}),  # ignored padding: 0 and 0 (documented)
    (None, {2: -INF}),                   # ignored, masked: finite
    (5, {}),                             # ordinary
    (6, {6: INF, 0: INF}),               # two +inf
    (4, {4: -INF, 2: INF}),              # -inf target, +inf non-target: nan
]
PADDING_ROW = 10


def non_finite_case(dtype, ignore_index=-100, seed=0):
    x = torch.randn(len(NON_FINITE_ROWS), V, generator=_gen("nonfinite", seed)) * 2
    target = torch.empty(len(NON_FINITE_ROWS), dtype=torch.long)
    for i, (t, cols) in enumerate(NON_FINITE_ROWS):
        target[i] = ignore_index if t is None else t
        for j, v in cols.items():
            x[i, j] = v
    return x.to(dtype), target


def non_finite_wide_case(vocab, chunk, dtype=torch.float32):
    """The same rows over ``vocab`` > ``chunk`` classes: columns 0-6 as above, and each
    non-finite value once more in the second chunk (columns chunk + 5 + j), so that every
    chunk of the lowering holds one; the other columns random."""
    x, target = non_finite_case(torch.float32)
    wide = torch.randn(x.shape[0], vocab, generator=_gen("nonfinite-wide")) * 2
    wide[:, :V] = x
    for i in range(x.shape[0]):
        cols = (~x[i].isfinite()).nonzero().flatten()
        if len(cols) == V:       # a row of -inf (but one column): all of it
            wide[i, V:] = x[i, 0]
        else:
            wide[i, chunk + 5 + cols] = x[i, cols]
    return wide.to(dtype), target


NON_FINITE_OPTIONS = {
    "plain": dict(),
    "smoothing_weight_zloss": dict(label_smoothing=0.1, z_loss=1e-2, weighted=True),
    "softcap": dict(softcap=3.0),   # s(+inf) = cap: finite, as F.cross_entropy of s(x)
}


def _options(name, vocab=V):
    kw = dict(NON_FINITE_OPTIONS[name])
    if kw.pop("weighted", False):
        kw["weight"] = torch.rand(vocab, generator=_gen("w")) + 0.5
    return kw


def _pattern(t):
    return torch.stack([t.isnan(), t.isposinf(), t.isneginf()])


def _ours_and_reference(fn, x, target, reduction, kw, upstream):
    """(loss, grad, reference loss, reference grad, lse) of fn (ours, return_lse=True)."""
    leaf = x.clone().requires_grad_()
    loss, lse = fn(leaf, target, reduction=reduction, return_lse=True, **kw)
    loss.backward(upstream)
    x64 = x.double().requires_grad_()
    ref = reference(x64, target, reduction=reduction, **kw)
    ref.backward(None if upstream is None else upstream.double())
    return loss.detach(), leaf.grad, ref.detach(), x64.grad, lse.detach()


def _check_like_stock(loss, grad, ref, ref_grad, lse):
    """The nan/inf pattern of F.cross_entropy (float64, same rounded inputs), the documented
    padding row excepted; the finite values within the usual tolerances."""
    rows = torch.ones(grad.shape[0], dtype=torch.bool)
    rows[PADDING_ROW] = False
    assert torch.equal(_pattern(loss), _pattern(ref)), (loss, ref)
    assert torch.equal(_pattern(grad[rows]), _pattern(ref_grad[rows])), (grad, ref_grad)
    assert loss.dim() == 0 or loss[PADDING_ROW] == 0
    assert torch.equal(grad[PADDING_ROW], torch.zeros_like(grad[PADDING_ROW]))
    finite = rows & ref_grad.isfinite().all(-1)
    assert finite.sum() >= 4  # the finite rows are checked too
    if loss.dim():
        ok = ref.isfinite()
        assert_loss_close(loss[ok], ref[ok])
    assert_grad_close(grad[finite], ref_grad[finite])
    # lse: nan for a row with a +inf (unless softcapped) or nan logit, as every path computes
    # it (torch.logsumexp says +inf); -inf for a row of -inf logits
    assert lse.isnan().any() or lse.isfinite().all()


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("options", list(NON_FINITE_OPTIONS))
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16], ids=str)
def test_non_finite_logits_like_f_cross_entropy(dtype, options, reduction):
    x, target = non_finite_case(dtype)
    upstream = torch.rand(target.shape, generator=_gen("up")) + 0.5 if reduction == "none" \
        else None
    _check_like_stock(*_ours_and_reference(inductor_ce.cross_entropy, x, target, reduction,
                                           _options(options), upstream))


@functools.lru_cache(maxsize=None)
def _compiled_ce(tag, dynamic=False):
    """A compiled inductor_ce.cross_entropy with its own code object (its own Dynamo cache)."""
    def fn(x, target, **kw):
        return inductor_ce.cross_entropy(x, target, **kw)
    fn.__code__ = fn.__code__.replace(co_name=f"ce_{tag}")
    return torch.compile(fn, fullgraph=True, dynamic=dynamic)


@pytest.mark.parametrize("options,dtype,reduction,few", [
    ("plain", torch.float32, "none", True),
    ("smoothing_weight_zloss", torch.bfloat16, "none", True),
    ("softcap", torch.float16, "sum", True),
    ("plain", torch.float32, "mean", False),
], ids=["plain", "smoothing", "softcap", "many-rows"])
def test_non_finite_logits_compiled_like_eager(options, dtype, reduction, few):
    """Inductor's C++ kernels give eager's pattern (hence stock's), loss, lse and gradient.
    few=False: the lowering told that these rows are many (the int64 keep, the backward's
    coefficients in a kernel of their own)."""
    from unittest import mock
    from inductor_ce.op import finish as _math
    from inductor_ce import lowering
    x, target = non_finite_case(dtype)
    kw = _options(options)
    upstream = torch.rand(target.shape, generator=_gen("up")) + 0.5 if reduction == "none" \
        else None
    compiled = _compiled_ce(f"nonfinite_{options}_{reduction}_{few}")
    with mock.patch.object(lowering, "FEW_ROWS", 1024 if few else 0), \
            mock.patch.object(_math, "FEW_ROWS", 1024 if few else 0):
        got = _ours_and_reference(compiled, x, target, reduction, kw, upstream)
    eager = _ours_and_reference(inductor_ce.cross_entropy, x, target, reduction, kw, upstream)
    _check_like_stock(*got)
    for i in (0, 1, 4):     # loss, gradient, lse: eager's pattern
        assert torch.equal(_pattern(got[i]), _pattern(eager[i])), (i, got[i], eager[i])
    finite = got[1].isfinite().all(-1)
    assert_within_one_rounding(got[1][finite], eager[1][finite])


_HEAD = torch.nn.Linear(4, 3, bias=False)   # one module: the compiled step compiles once


def _autocast_step(ce, h, target):
    with torch.autocast("cpu", dtype=torch.float16):
        return ce(_HEAD(h), target)


_COMPILED_STEP = torch.compile(_autocast_step)


def _scaler_step(ce, h, compiled=False):
    """One fp16-autocast step of a bias-free linear head with torch.amp.GradScaler on the
    CPU: (loss, whether the optimizer changed the weight, the scale after update())."""
    with torch.no_grad():   # logits 300 * h[:, :2]: overflow without an overflowing input
        _HEAD.weight.copy_(torch.eye(3, 4) * torch.tensor([[300.0], [300.0], [1.0]]))
    _HEAD.weight.grad = None
    opt = torch.optim.SGD(_HEAD.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=1024.0)
    target = torch.tensor([0, 1, 2])
    before = _HEAD.weight.detach().clone()
    loss = (_COMPILED_STEP if compiled else _autocast_step)(ce, h, target)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    return loss.detach(), not torch.equal(before, _HEAD.weight), scaler.get_scale()


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_grad_scaler_skips_the_overflowing_step_like_stock(compiled):
    """fp16 autocast: a logit above 65504 becomes +inf (the hidden states and weights stay
    finite). Stock's loss is then nan, GradScaler finds the non-finite gradients, skips the
    step and halves the scale; ours must do the same, with the overflow at the target (where
    ours returned loss 0 and gradient 0, and the step was taken) or elsewhere."""
    h = torch.tensor([[0.01, 0.0, 0.0, 0.0], [0.0, 0.01, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0]])
    assert _scaler_step(F.cross_entropy, h)[1:] == (True, 1024.0)   # a normal step is taken
    assert _scaler_step(inductor_ce.cross_entropy, h, compiled)[1:] == (True, 1024.0)
    for column in (0, 1):           # row 0's target is 0: the overflow at the target, then not
        hot = h.clone()
        hot[0, column] = 300.0
        stock_loss, stock_stepped, stock_scale = _scaler_step(F.cross_entropy, hot)
        loss, stepped, scale = _scaler_step(inductor_ce.cross_entropy, hot, compiled)
        assert stock_loss.isnan() and (stock_stepped, stock_scale) == (False, 512.0)
        assert loss.isnan() and (stepped, scale) == (False, 512.0), (column, loss)


# --------------------------------------------------------------------------------------------
# 2. Degenerate shapes
# --------------------------------------------------------------------------------------------

DEGENERATE = [(1, V), (1, 1, V), (V,), (4, 1), (1, 1), (0, V), (2, 0, V)]
WITH_GRAD = [(1, V), (1, 1, V), (V,), (4, 1), (0, V)]   # one compile each (the rest: below)


def _degenerate_inputs(shape, key=()):
    g = _gen("degenerate", shape, *key)
    x = torch.randn(shape, generator=g) * 2
    target = torch.randint(0, shape[-1], shape[:-1], generator=g)
    return x, target


def _loss_grad(fn, x, target, **kw):
    leaf = x.clone().requires_grad_()
    loss = fn(leaf, target, **kw)
    loss.sum().backward()
    return loss.detach(), leaf.grad


@pytest.mark.parametrize("shape", WITH_GRAD, ids=str)
def test_degenerate_shapes_compile_with_grad(shape):
    """One row (2-D, 3-D, 1-D), V = 1, no rows: forward and backward compile on the C++
    backend and give eager's values, and eager gives float64's."""
    x, target = _degenerate_inputs(shape)
    kw = dict(reduction="sum" if shape[-1] == 1 else "mean", label_smoothing=0.1, z_loss=1e-2)
    loss, grad = _loss_grad(_compiled_ce(f"degenerate_{'x'.join(map(str, shape))}"), x,
                            target, **kw)
    ref, ref_grad = _loss_grad(lambda x, t, **kw: reference(x.double(), t, **kw), x, target,
                               **kw)
    eager, eager_grad = _loss_grad(inductor_ce.cross_entropy, x, target, **kw)
    assert loss.shape == ref.shape and grad.shape == x.shape
    if target.numel() == 0:    # "mean" over no rows is nan (0/0), as F.cross_entropy's
        assert loss.isnan() and ref.isnan() and eager.isnan()
    else:
        assert_loss_close(loss, ref)
        assert_loss_close(eager, ref)
    assert_grad_close(grad, ref_grad)
    assert_within_one_rounding(grad, eager_grad)


def test_degenerate_shapes_compile_without_grad():
    """Every degenerate shape without requires_grad (the forward graph alone), two
    reductions, in one compiled graph; and (1, 1) and (2, 0, V) with their backward."""
    cases = [(*_degenerate_inputs(shape, ("nograd",)), r) for shape in DEGENERATE
             for r in ("none", "sum")]

    def losses(*args):
        return [inductor_ce.cross_entropy(x, t, reduction=r)
                for (x, t), r in zip(zip(args[0::2], args[1::2]), [c[2] for c in cases])]

    flat = [a for x, t, _ in cases for a in (x, t)]
    got = torch.compile(losses, fullgraph=True)(*flat)
    for (x, t, r), loss in zip(cases, got):
        assert_loss_close(loss, reference(x.double(), t, reduction=r))

    def both(x1, t1, x2, t2):
        return inductor_ce.cross_entropy(x1, t1, z_loss=0.5) + inductor_ce.cross_entropy(
            x2, t2, reduction="sum")
    (x1, t1), (x2, t2) = _degenerate_inputs((1, 1)), _degenerate_inputs((2, 0, V))
    leaves = [x1.clone().requires_grad_(), x2.clone().requires_grad_()]
    torch.compile(both, fullgraph=True)(leaves[0], t1, leaves[1], t2).backward()
    x64 = x1.double().requires_grad_()
    reference(x64, t1, z_loss=0.5).backward()
    assert_grad_close(leaves[0].grad, x64.grad)
    assert leaves[1].grad.shape == x2.shape


@pytest.mark.parametrize("ignored", [False, True], ids=["kept", "ignored"])
def test_one_row_with_class_weights_is_one_graph(ignored):
    """(V,) logits, a 0-d target and class weights: Dynamo traces the op in one graph (the
    target's weight was picked by Python indexing, a host read of the 0-d target that
    Dynamo cannot trace: fullgraph failed, and ``enable()`` left such calls stock), and the
    loss and gradient are float64's."""
    g = torch.Generator().manual_seed(5)
    x, w = torch.randn(V, generator=g) * 3, torch.rand(V, generator=g) + 0.5
    target = torch.tensor(-100 if ignored else 4)
    kw = dict(label_smoothing=0.1, reduction="sum")
    step = torch.compile(inductor_ce.cross_entropy, backend="eager", fullgraph=True)
    loss, grad = _loss_grad(step, x, target, weight=w, **kw)
    ref, ref_grad = _loss_grad(lambda x, t, **kw: reference(x.double(), t, **kw), x, target,
                               weight=w.double(), **kw)
    assert_loss_close(loss, ref)
    assert_grad_close(grad, ref_grad)


def test_dynamic_rows_down_to_one_and_zero():
    """dynamic=True: the last batch of an epoch has one row, or none (Dynamo specializes 0 and
    1, so each is a compile of static rows)."""
    fn = _compiled_ce("dynamic_rows", dynamic=True)
    for rows in (5, 3, 1, 0):
        x, target = _degenerate_inputs((rows, V), ("dyn",))
        loss, grad = _loss_grad(fn, x, target, reduction="sum", label_smoothing=0.1)
        ref, ref_grad = _loss_grad(lambda x, t, **kw: reference(x.double(), t, **kw), x, target,
                                   reduction="sum", label_smoothing=0.1)
        assert_loss_close(loss, ref)
        assert_grad_close(grad, ref_grad)


# --------------------------------------------------------------------------------------------
# 3. A bad target raises, on the compiled CPU path, at every row count
# --------------------------------------------------------------------------------------------

_BAD_TARGET_SCRIPT = r"""
import json, sys, torch, inductor_ce
torch.set_num_threads(2)   # the C++ kernels then have OpenMP regions, even on one core
out = {}
for rows, reduction, grad, weighted, compiled in json.loads(sys.argv[1]):
    torch.compiler.reset()
    weight = torch.rand(2048) + 0.5 if weighted else None
    fn = lambda x, t: inductor_ce.cross_entropy(x, t, weight, reduction=reduction)
    if compiled:
        fn = torch.compile(fn, fullgraph=True)
    x = torch.randn(rows, 2048, requires_grad=grad)
    target = torch.randint(0, 2048, (rows,))
    fn(x, target)              # compiles; valid targets pass
    target[rows // 2] = 2048
    key = f"{rows} {reduction} {grad} {weighted} {compiled}"
    try:
        fn(x, target)
        out[key] = "no error"
    except RuntimeError as e:
        out[key] = str(e)
print(json.dumps(out))
"""


def test_compiled_bad_target_raises_at_every_row_count():
    """Inductor's C++ backend fused the op's assert (a C++ throw) into a kernel with an
    OpenMP region at 2-64 rows: the process ended ("terminate called after throwing"). So
    did the class weight's lookup at an out-of-range target, compiled and on the eager
    path's compiled kernels (512 x 2048 logits: 2^20). Checked in a subprocess, so that an
    abort fails this test instead of ending pytest."""
    cases = [(rows, r, False, False, True) for rows in (1, 8, 64) for r in ("mean", "sum")]
    cases += [(2, "none", False, False, True), (8, "mean", True, False, True),
              (8, "mean", True, True, True), (512, "mean", True, True, False)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
         os.environ.get("PYTHONPATH", "")]))
    env.pop("OMP_NUM_THREADS", None)
    out = subprocess.run([sys.executable, "-c", _BAD_TARGET_SCRIPT, json.dumps(cases)],
                         env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, f"the process died ({out.returncode}):\n{out.stderr[-3000:]}"
    results = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(results) == len(cases)
    for case, message in results.items():
        assert "target out of range" in message, (case, message)


# --------------------------------------------------------------------------------------------
# 4. torch.func transforms and forward-mode AD
# --------------------------------------------------------------------------------------------

TRANSFORM_OPTIONS = [
    dict(),
    dict(weight=True, ignore_index=2, label_smoothing=0.1, z_loss=1e-2, softcap=4.0),
]


def _transform_case(options):
    kw = dict(options)
    g = _gen("transform", sorted(kw))
    if kw.pop("weight", False):
        kw["weight"] = torch.rand(V, generator=g) + 0.5
    x = torch.randn(4, V, generator=g) * 2
    target = torch.tensor([0, 2, 6, 2])       # row 1 and 3 ignored with ignore_index=2
    x[0, 3] = -INF                            # a masked class: finite derivatives
    x[2, :] = -INF                            # a row of -inf but its target
    x[2, 6] = 1.0
    tangent = torch.randn(4, V, generator=g)
    return x, target, tangent, kw


def _ours(kw, target):
    return lambda x: inductor_ce.cross_entropy(x, target, **kw)


def _ref(kw, target):
    kw64 = {k: (v.double() if isinstance(v, torch.Tensor) else v) for k, v in kw.items()}
    return lambda x: reference(x, target, **kw64)


def _close(got, want):
    got, want = got.double(), want.double()
    assert got.shape == want.shape and torch.isfinite(got).all(), got
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)


def _forward_ad(fn, x, tangent):
    with fwAD.dual_level():
        return fwAD.unpack_dual(fn(fwAD.make_dual(x, tangent))).tangent


TRANSFORMS = {
    "jvp": lambda fn, x, v: torch.func.jvp(fn, (x,), (v,))[1],
    "jacfwd": lambda fn, x, v: torch.func.jacfwd(fn)(x),
    "forward_ad": _forward_ad,
    "grad": lambda fn, x, v: torch.func.grad(fn)(x),
    "vjp": lambda fn, x, v: torch.func.vjp(fn, x)[1](torch.tensor(1.0, dtype=x.dtype))[0],
    "jacrev": lambda fn, x, v: torch.func.jacrev(fn)(x),
    "vmap": lambda fn, x, v: torch.func.vmap(fn)(torch.stack([x, v])),
    "vmap_grad": lambda fn, x, v: torch.func.vmap(torch.func.grad(fn))(torch.stack([x, v])),
    "hessian": lambda fn, x, v: torch.func.hessian(fn)(x[:2]),
}


@pytest.mark.parametrize("options", TRANSFORM_OPTIONS, ids=["plain", "all"])
@pytest.mark.parametrize("transform", list(TRANSFORMS))
def test_transforms_match_float64(transform, options):
    """torch.func and forward-mode AD run the ATen decomposition, which autograd
    differentiates in every mode: the float64 reference's derivatives, never a zero tangent
    (the custom op has a backward formula only)."""
    x, target, tangent, kw = _transform_case(options)
    run = TRANSFORMS[transform]
    if transform == "hessian":
        target = target[:2]
    got = run(_ours(kw, target), x, tangent)
    want = run(_ref(kw, target), x.double(), tangent.double())
    _close(got, want)
    if transform in ("jvp", "forward_ad"):
        assert got.abs() > 1e-3  # not the silent zero of a tangent lost on the way


def test_transforms_keep_the_documented_finite_cases():
    """Through torch.func.grad too: an ignored row of -inf logits gets gradient exactly 0, a
    +inf logit makes its row nan (as the op)."""
    x = torch.randn(3, V, generator=_gen("transform-edges"))
    x[0] = -INF
    x[2, 1] = INF
    target = torch.tensor([-100, 3, 3])
    grad = torch.func.grad(lambda x: inductor_ce.cross_entropy(x, target, reduction="sum"))(x)
    leaf = x.clone().requires_grad_()
    inductor_ce.cross_entropy(leaf, target, reduction="sum").backward()
    assert torch.equal(grad[0], torch.zeros(V)) and grad[2].isnan().all()
    assert torch.equal(grad.isnan(), leaf.grad.isnan())
    torch.testing.assert_close(grad[1], leaf.grad[1], rtol=1e-6, atol=0)


@pytest.mark.parametrize("transforms_compile", [True, False])
def test_transforms_under_compile(transforms_compile, monkeypatch):
    """torch.compile of a function that applies torch.func.grad / jvp to the loss; also as
    torch 2.11 and 2.12 run it (TRANSFORMS_COMPILE False: their Inductor compiled this
    gradient 0.22 off; the transform then runs eagerly, and fullgraph=True raises)."""
    from inductor_ce.op import checks
    if transforms_compile and not checks.TRANSFORMS_COMPILE:
        pytest.skip("this torch's Inductor miscompiles the gradient: the package keeps "
                    "transforms out of its compiled graphs")
    monkeypatch.setattr(checks, "TRANSFORMS_COMPILE", transforms_compile)
    torch._dynamo.reset()
    x, target, tangent, kw = _transform_case(TRANSFORM_OPTIONS[1])
    if not transforms_compile:
        with pytest.raises(Exception, match="needs torch >= 2.13"):
            torch.compile(lambda x: torch.func.grad(_ours(kw, target))(x), fullgraph=True)(x)
    grad = torch.compile(lambda x: torch.func.grad(_ours(kw, target))(x))(x)
    jvp = torch.compile(lambda x, v: torch.func.jvp(_ours(kw, target), (x,), (v,))[1])(
        x, tangent)
    _close(grad, torch.func.grad(_ref(kw, target))(x.double()))
    _close(jvp, torch.func.jvp(_ref(kw, target), (x.double(),), (tangent.double(),))[1])


def test_vocab_parallel_refuses_transforms():
    from inductor_ce.parallel import vocab_parallel_cross_entropy
    x, target = torch.randn(3, V), torch.tensor([0, 1, 2])
    with pytest.raises(NotImplementedError, match="does not support torch.func"):
        torch.func.grad(lambda x: vocab_parallel_cross_entropy(x, target))(x)
    with pytest.raises(NotImplementedError, match="forward-mode AD"):
        _forward_ad(lambda x: vocab_parallel_cross_entropy(x, target), x, x)


# --------------------------------------------------------------------------------------------
# 5. ignore_index at the edges of the target dtype
# --------------------------------------------------------------------------------------------

# (target dtype, ignore_index): F.cross_entropy compares the target in int64, so an
# ignore_index no int32 value can hold ignores nothing; one an int32 wraps onto (2**32 + 3 ->
# 3) must not drop the rows of that class.
IGNORE_EDGES = [(torch.int32, 2**31 - 1), (torch.int32, -2**31), (torch.int32, 2**31),
                (torch.int32, -2**31 - 1), (torch.int32, 2**32 + 3), (torch.int32, -2**32 + 3),
                (torch.int64, 2**63 - 1), (torch.int64, -2**63), (torch.int64, 2**32 + 3)]


def ignore_edge_case(dtype, ignore_index):
    """Logits and targets of classes 0-6, every class present, and the rows that hold
    ignore_index when the target dtype can (where F.cross_entropy ignores them)."""
    x = torch.randn(9, V, generator=_gen("ignore-edges"))
    target = torch.tensor([0, 1, 2, 3, 4, 5, 6, 3, 3])
    info = torch.iinfo(dtype)
    if info.min <= ignore_index <= info.max:
        target[[1, 7]] = ignore_index
    return x, target.to(dtype)


@pytest.mark.parametrize("dtype,ignore_index", IGNORE_EDGES, ids=str)
def test_ignore_index_at_the_dtype_edges(dtype, ignore_index):
    x, target = ignore_edge_case(dtype, ignore_index)
    for reduction in ("none", "mean"):
        loss, grad = _loss_grad(inductor_ce.cross_entropy, x, target,
                                ignore_index=ignore_index, reduction=reduction)
        ref, ref_grad = _loss_grad(lambda x, t, **kw: F.cross_entropy(x.double(), t.long(),
                                                                      **kw),
                                   x, target, ignore_index=ignore_index, reduction=reduction)
        assert_loss_close(loss, ref)
        assert_grad_close(grad, ref_grad)


@pytest.mark.parametrize("dtype,ignore_index", [(torch.int32, 2**32 + 3),
                                                 (torch.int32, 2**31 - 1),
                                                 (torch.int64, -2**63)], ids=str)
def test_ignore_index_at_the_dtype_edges_compiled(dtype, ignore_index):
    x, target = ignore_edge_case(dtype, ignore_index)
    fn = _compiled_ce(f"ignore_{dtype}_{ignore_index}".replace("-", "m").replace(".", "_"))
    loss, grad = _loss_grad(fn, x, target, ignore_index=ignore_index, reduction="none")
    ref, ref_grad = _loss_grad(lambda x, t, **kw: F.cross_entropy(x.double(), t.long(), **kw),
                               x, target, ignore_index=ignore_index, reduction="none")
    assert_loss_close(loss, ref)
    assert_grad_close(grad, ref_grad)


def test_int32_target_equal_to_a_wrapped_ignore_index_is_out_of_range():
    """ignore_index = 2**31 does not ignore an int32 target of -2**31 (the value an int32
    compare would wrap it to): that target is out of range, and raises."""
    target = torch.tensor([0, -2**31, 1], dtype=torch.int32)
    with pytest.raises(RuntimeError, match="target out of range"):
        inductor_ce.cross_entropy(torch.randn(3, V), target, ignore_index=2**31)


# --------------------------------------------------------------------------------------------
# 7. Every option is checked and named (TypeError / ValueError as F.cross_entropy's)
# --------------------------------------------------------------------------------------------

BAD_OPTIONS = [
    # (keyword arguments, exception, F.cross_entropy raises the same type too)
    (dict(label_smoothing=None), TypeError, True),
    (dict(label_smoothing="0.1"), TypeError, True),
    (dict(label_smoothing=float("inf")), ValueError, False),   # stock: RuntimeError
    (dict(label_smoothing=float("nan")), ValueError, False),   # stock: ignored silently
    (dict(ignore_index=True), TypeError, True),
    (dict(ignore_index=False), TypeError, True),
    (dict(ignore_index=None), TypeError, True),
    (dict(ignore_index=1.0), TypeError, True),
    (dict(ignore_index=2**63), ValueError, True),
    (dict(ignore_index=-2**63 - 1), ValueError, True),
    (dict(reduction=None), ValueError, True),
    (dict(reduction=1), ValueError, True),
    (dict(reduction="MEAN"), ValueError, True),
    (dict(z_loss=None), TypeError, None),
    (dict(z_loss="1e-4"), TypeError, None),
    (dict(z_loss=True), TypeError, None),
    (dict(z_loss=float("nan")), ValueError, None),
    (dict(softcap="5"), TypeError, None),
    (dict(softcap=True), TypeError, None),
    (dict(softcap=float("inf")), ValueError, None),
    (dict(softcap=1e39), ValueError, None),        # (inf in float32: every loss would be nan)
    (dict(softcap=1e-39), ValueError, None),       # (its reciprocal inf in float32)
    (dict(return_lse=1), TypeError, None),
    (dict(return_lse=None), TypeError, None),
]


def _option_name(kw):
    return next(iter(kw))


@pytest.mark.parametrize("kw,exc,stock_same", BAD_OPTIONS,
                         ids=[f"{_option_name(k)}={k[_option_name(k)]!r}"
                              for k, _, _ in BAD_OPTIONS])
def test_bad_option_raises_naming_it(kw, exc, stock_same):
    x, target = torch.randn(4, V), torch.tensor([0, 1, 2, 3])
    name = _option_name(kw)
    with pytest.raises(exc, match=name):
        inductor_ce.cross_entropy(x, target, **kw)
    if name != "return_lse":
        with pytest.raises(exc, match=name):
            inductor_ce.CrossEntropyLoss(**kw)
    if stock_same:
        with pytest.raises(exc):
            F.cross_entropy(x, target, **kw)
    from inductor_ce.parallel import vocab_parallel_cross_entropy
    with pytest.raises(exc, match=name):   # (checked before any collective)
        vocab_parallel_cross_entropy(x, target, **kw)


def test_a_numpy_array_for_a_tensor_argument_is_named_as_one():
    """An array where a tensor belongs: the error names its class, not its dtype (an int64
    array's 'got int64' read as if int64 targets were refused)."""
    x, t = torch.randn(3, 5), torch.tensor([1, 2, 3])
    with pytest.raises(TypeError, match="target must be .* got numpy.ndarray"):
        inductor_ce.cross_entropy(x, t.numpy())
    with pytest.raises(TypeError, match="input must be .* got numpy.ndarray"):
        inductor_ce.cross_entropy(x.numpy(), t)
    with pytest.raises(TypeError, match="linear_weight must be .* got numpy.ndarray"):
        inductor_ce.linear_cross_entropy(torch.randn(3, 4), torch.randn(5, 4).numpy(), t)
    with pytest.raises(TypeError, match="input must be .* got numpy.ndarray"):
        inductor_ce.linear_cross_entropy(torch.randn(3, 4).numpy(), torch.randn(5, 4), t)


@pytest.mark.parametrize("kw", [dict(label_smoothing=True), dict(label_smoothing=1),
                                dict(label_smoothing=torch.tensor(0.1)), dict(softcap=5),
                                dict(z_loss=0), dict(ignore_index=2**63 - 1)], ids=str)
def test_options_f_cross_entropy_accepts_are_accepted(kw):
    x, target = torch.randn(4, V), torch.tensor([0, 1, 2, 3])
    loss = inductor_ce.cross_entropy(x, target, **kw)
    stock_kw = {k: v for k, v in kw.items() if k in ("label_smoothing", "ignore_index")}
    ref_kw = {k: (float(v) if k != "ignore_index" else v) for k, v in kw.items()}
    assert_loss_close(loss, reference(x.double(), target, **ref_kw))
    if stock_kw:
        assert_loss_close(loss, F.cross_entropy(x.double(), target, **stock_kw))


def test_f_cross_entropys_legacy_arguments():
    """F.cross_entropy's deprecated size_average / reduce (keyword-only here) and reduction
    "elementwise_mean" give stock's reduction, with its warning; a one-element integer
    tensor ignore_index is taken as stock takes it; F.cross_entropy's positional order
    (size_average 4th) raises, naming the order. The legacy arguments compile fullgraph, as
    stock's do."""
    x, t = torch.randn(6, V), torch.tensor([0, 1, 2, 3, 4, 5])
    cases = [(dict(size_average=False), "sum"), (dict(reduce=False), "none"),
             (dict(size_average=True, reduce=True), "mean"),
             (dict(reduction="elementwise_mean"), "mean")]
    for kw, reduction in cases:
        with pytest.warns(UserWarning, match="deprecated"):
            stock = F.cross_entropy(x, t, **kw)
        with pytest.warns(UserWarning, match="deprecated") as caught:
            ours = inductor_ce.cross_entropy(x, t, **kw)
        assert caught[0].filename == __file__      # (the caller's line)
        assert ours.shape == stock.shape
        assert_loss_close(ours, reference(x.double(), t, reduction=reduction))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, size_average=False),
                             fullgraph=True)(x, t)
    assert_loss_close(ours, reference(x.double(), t, reduction="sum"))
    loss = inductor_ce.cross_entropy(x, t, ignore_index=torch.tensor(2))
    assert_loss_close(loss, reference(x.double(), t, ignore_index=2))
    assert_loss_close(loss, F.cross_entropy(x.double(), t, ignore_index=torch.tensor(2)))
    with pytest.raises(TypeError, match="ignore_index must be an int, got NoneType .*"
                                        "positional order"):
        inductor_ce.cross_entropy(x, t, None, None, -100)    # F.cross_entropy's order
    with pytest.raises(TypeError, match="ignore_index must be an int, got Tensor"):
        inductor_ce.cross_entropy(x, t, ignore_index=torch.tensor(2.0))


# --------------------------------------------------------------------------------------------
# CUDA (marked gpu: skipped without a GPU)
# --------------------------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("options", list(NON_FINITE_OPTIONS))
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_cuda_non_finite_logits_like_stock(dtype, options):
    """The compiled CUDA kernels (two chunks per row, the hardware max in the chunk kernel)
    give F.cross_entropy's nan/inf pattern, as eager on the CPU does."""
    from inductor_ce import lowering
    x, target = non_finite_wide_case(lowering.CHUNK + 76, lowering.CHUNK, dtype)
    kw = _options(options, x.shape[-1])
    upstream = torch.rand(target.shape, generator=_gen("up")) + 0.5
    fn = _compiled_ce(f"cuda_nonfinite_{options}")

    kw_cuda = {k: (v.cuda() if isinstance(v, torch.Tensor) else v) for k, v in kw.items()}
    leaf = x.cuda().requires_grad_()
    loss, lse = fn(leaf, target.cuda(), reduction="none", return_lse=True, **kw_cuda)
    loss.backward(upstream.cuda())
    got = (loss.detach().cpu(), leaf.grad.cpu(), None, None, lse.detach().cpu())
    eager = _ours_and_reference(inductor_ce.cross_entropy, x, target, "none", kw, upstream)
    _check_like_stock(got[0], got[1], eager[2], eager[3], got[4])
    for i in (0, 1, 4):
        assert torch.equal(_pattern(got[i]), _pattern(eager[i])), (i, got[i], eager[i])


@pytest.mark.gpu
@pytest.mark.parametrize("shape", DEGENERATE, ids=str)
def test_cuda_degenerate_shapes_compile(shape):
    """Every degenerate shape with options, compiled for CUDA (Triton), forward and backward
    (the 1-D input's options could not run in Triton's CPU interpreter)."""
    x, target = _degenerate_inputs(shape, ("cuda",))
    kw = dict(reduction="sum", label_smoothing=0.1, z_loss=1e-2)
    leaf = x.cuda().requires_grad_()
    loss = _compiled_ce(f"cuda_degenerate_{'x'.join(map(str, shape))}")(leaf, target.cuda(),
                                                                        **kw)
    loss.backward()
    ref, ref_grad = _loss_grad(lambda x, t, **kw: reference(x.double(), t, **kw), x, target,
                               **kw)
    assert_loss_close(loss.detach().cpu(), ref)
    assert_grad_close(leaf.grad.cpu(), ref_grad)


# --------------------------------------------------------------------------------------------
# 7. Per-sample losses and gradients under torch.func.vmap
# --------------------------------------------------------------------------------------------

def _per_sample_case():
    g = _gen("per-sample")
    x = torch.randn(6, V, generator=g)
    target = torch.tensor([0, 3, 6, -100, 2, 1])
    weight = torch.rand(V, generator=g) + 0.5
    return x, target, weight


@pytest.mark.parametrize("smooth", [False, True], ids=["plain", "weight_smoothing"])
def test_vmap_per_sample_losses_and_grads_match_float64(smooth):
    """vmap over the samples, target batched too: the range check sees every sample's
    targets (no batching rule needed for its assert); values and torch.func.grad's per-sample
    gradients are float64's."""
    x, target, weight = _per_sample_case()
    kw = dict(weight=weight, label_smoothing=0.1) if smooth else {}
    kw64 = {k: (v.double() if isinstance(v, torch.Tensor) else v) for k, v in kw.items()}

    def ours(x, t):
        return inductor_ce.cross_entropy(x[None], t[None], reduction="sum", **kw)

    def ref(x, t):
        return F.cross_entropy(x[None], t[None], reduction="sum", **kw64)

    losses = torch.func.vmap(ours)(x, target)
    _close(losses, F.cross_entropy(x.double(), target, reduction="none", **kw64))
    grads = torch.func.vmap(torch.func.grad(ours))(x, target)
    _close(grads, torch.func.vmap(torch.func.grad(ref))(x.double(), target))


def test_vmap_still_checks_the_target_range():
    x, target, _ = _per_sample_case()
    target[2] = V
    with pytest.raises(RuntimeError, match="target out of range"):
        torch.func.vmap(lambda x, t: inductor_ce.cross_entropy(x, t))(x, target)


# --------------------------------------------------------------------------------------------
# 8. The fused LM head in evaluation (inference_mode) and its module's construction checks
# --------------------------------------------------------------------------------------------

def _head_case(rows, hidden, vocab):
    g = _gen("head", rows, hidden, vocab)
    return (torch.randn(rows, hidden, generator=g), torch.randn(vocab, hidden, generator=g) * 0.3,
            torch.randint(0, vocab, (rows,), generator=g))


def _head_reference(h, w, t):
    return F.cross_entropy(F.linear(h.double(), w.double()), t)


def test_linear_ce_under_inference_mode_then_training_keeps_the_compiled_kernels(monkeypatch):
    """Evaluation under inference_mode gives the loss at every size (below and at 2^20
    logits, row and class chunks), and marks no compiled kernel failed: the training call after it
    runs the compiled chunk graph, whose ``ce_bwd`` writes the gradient (eager._CACHE holds
    None for a failed compile)."""
    from inductor_ce.eager import kernels as eager
    from inductor_ce.eager import loss as eager_loss
    monkeypatch.setattr(eager, "_CACHE", {})
    small, large = _head_case(8, 8, 10), _head_case(1024, 8, 1024)
    for h, w, t in (small, large):
        for budget in (None, 64):    # row chunks, class chunks
            with torch.inference_mode():
                loss = inductor_ce.linear_cross_entropy(h, w, t, memory_budget=budget)
            assert_loss_close(loss, _head_reference(h, w, t))
    h, w, t = large
    leaf = h.clone().requires_grad_()
    inductor_ce.linear_cross_entropy(leaf, w, t).backward()
    ref = h.double().requires_grad_()
    _head_reference(ref, w, t).backward()
    assert_grad_close(leaf.grad, ref.grad)
    assert all(v is not None for v in eager._CACHE.values()), "a compile marked failed"
    assert any(isinstance(k, eager_loss.LossKey) and k.chunk and v
               for k, v in eager._CACHE.items())


def test_detect_anomaly_compiles_and_keeps_the_compiled_kernels(monkeypatch):
    """A first call inside torch.autograd.detect_anomaly(): the eager path compiles as
    anywhere (anomaly mode checked our trace's own autograd, whose compile then failed: a
    warning, anomaly mode's traceback of our code, and the signature kept on the ATen
    decomposition for the rest of the process), the loss and gradient against float64, and
    the compiled function serves the calls after it."""
    import warnings
    from inductor_ce.eager import kernels as eager
    monkeypatch.setattr(eager, "MODE", "compiled")
    monkeypatch.setattr(eager, "_CACHE", {})
    x = torch.randn(6, 16)
    t = torch.randint(0, 16, (6,))
    ref = x.double().requires_grad_()
    reference(ref, t).backward()
    compiled = eager.compiles
    for anomaly in (True, False):
        leaf = x.clone().requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with torch.autograd.set_detect_anomaly(anomaly):
                loss = inductor_ce.cross_entropy(leaf, t)
                loss.backward()
        assert_loss_close(loss, reference(x.double(), t))
        assert_grad_close(leaf.grad, ref.grad)
    assert eager._CACHE and all(v is not None for v in eager._CACHE.values())
    assert eager.compiles - compiled == 2     # the forward and the backward, once each


def test_mixed_half_dtypes_leak_no_inductor_warning(monkeypatch):
    """bf16 logits with fp16 class weights (which stock refuses, and ours takes): the loss
    against float64, and no warning of Inductor's about our generated code reaches the
    caller ("bf16 and fp16 are mixed in the scheduler node", four times)."""
    import warnings
    from inductor_ce.eager import kernels as eager
    monkeypatch.setattr(eager, "MODE", "compiled")
    monkeypatch.setattr(eager, "_CACHE", {})
    x = torch.randn(6, 16).bfloat16().requires_grad_()
    t = torch.randint(0, 16, (6,))
    w = torch.rand(16).half()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loss = inductor_ce.cross_entropy(x, t, w, label_smoothing=0.2)
        loss.backward()
    ref = x.detach().double().requires_grad_()
    reference(ref, t, w.double(), label_smoothing=0.2).backward()
    assert_loss_close(loss, reference(x.double(), t, w.double(), label_smoothing=0.2))
    assert_grad_close(x.grad, ref.grad)


def test_linear_ce_compiled_under_inference_mode():
    h, w, t = _head_case(8, 8, 10)
    compiled = torch.compile(inductor_ce.linear_cross_entropy, fullgraph=True)
    with torch.inference_mode():
        loss = compiled(h, w, t)
    assert_loss_close(loss, _head_reference(h, w, t))


@pytest.mark.parametrize("mode", ["default", "compiled"])
@pytest.mark.parametrize("case", ["softcap", "soft_label_smoothing", "soft_z_loss"])
def test_an_option_value_first_seen_under_inference_mode_trains_after(case, mode, monkeypatch):
    """An evaluation (or RL rollout) under inference_mode, then a training call with the same
    option value: the value's kept tensor (the softcap's 0-d tensor, the options tensor of
    the compiled functions) is no inference tensor, which the training call's autograd could
    not save. float64's gradient."""
    from inductor_ce.eager import kernels
    from inductor_ce.eager import loss as eager_loss
    from inductor_ce.op import ce
    monkeypatch.setattr(ce, "_SOFTCAPS", {})
    monkeypatch.setattr(eager_loss, "_DEVICE_OPTIONS", {})
    if mode == "compiled":
        monkeypatch.setattr(kernels, "MODE", "compiled")
    g = _gen("inference then training", case)
    x = torch.randn(16, 50, generator=g) * 3
    if case == "softcap":
        t, kw = torch.randint(0, 50, (16,), generator=g), dict(softcap=5.0)
    else:
        t = torch.softmax(torch.randn(16, 50, generator=g), -1)
        kw = dict(label_smoothing=0.1) if case == "soft_label_smoothing" else dict(z_loss=1e-3)
    with torch.inference_mode():
        inductor_ce.cross_entropy(x, t, **kw)
    leaf = x.clone().requires_grad_()
    inductor_ce.cross_entropy(leaf, t, **kw).backward()
    ref = x.double().requires_grad_()
    if case == "softcap":
        want = reference(ref, t, **kw)
    else:   # (probability targets: stock's float64 loss, plus the z-loss's mean of lse^2)
        want = F.cross_entropy(ref, t.double(), label_smoothing=kw.get("label_smoothing", 0.0)) \
            + kw.get("z_loss", 0.0) * torch.logsumexp(ref, -1).square().mean()
    want.backward()
    assert_grad_close(leaf.grad, ref.grad)


@pytest.mark.parametrize("kw, exc, name", [
    (dict(memory_budget=0), ValueError, "memory_budget"),
    (dict(memory_budget=-4), ValueError, "memory_budget"),
    (dict(memory_budget=True), TypeError, "memory_budget"),
    (dict(memory_budget="64M"), TypeError, "memory_budget"),
    (dict(reduction="avg"), ValueError, "reduction"),
    (dict(label_smoothing=2.0), ValueError, "label_smoothing")])
def test_linear_ce_module_checks_its_options_at_construction(kw, exc, name):
    with pytest.raises(exc, match=name):
        inductor_ce.LinearCrossEntropyLoss(4, 5, **kw)


# --------------------------------------------------------------------------------------------
# 9. Double backward (a gradient penalty) raises, never a silent number
# --------------------------------------------------------------------------------------------

def _penalty_step(loss_of, h, w):
    """loss + |d loss / d h|^2, backward: the gradient penalty of a training step."""
    h, w = h.clone().requires_grad_(), w.clone().requires_grad_()
    loss = loss_of(h, w).sum()
    g, = torch.autograd.grad(loss, h, create_graph=True)
    (loss + g.square().sum()).backward()
    return h.grad, w.grad


@pytest.mark.parametrize("budget", [None, 64], ids=["rows", "classes"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_linear_ce_double_backward_raises(budget, reduction):
    h, w, t = _head_case(8, 8, 10)
    with pytest.raises(RuntimeError, match="not differentiable .no double backward"):
        _penalty_step(lambda h, w: inductor_ce.linear_cross_entropy(
            h, w, t, memory_budget=budget, reduction=reduction), h, w)


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_cross_entropy_double_backward_raises(reduction):
    """The op's path (autograd of ce_fwd: small calls, or INDUCTOR_CE_EAGER=decomposition);
    the compiled loss's path raises the same (eager._backward_once)."""
    from inductor_ce.eager import kernels as eager
    x = torch.randn(8, V, generator=_gen("double-backward"))
    t = torch.randint(0, V, (8,), generator=_gen("double-backward-t"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(eager, "MODE", "decomposition")
        with pytest.raises(RuntimeError, match="not differentiable .no double backward"):
            _penalty_step(lambda x, _: inductor_ce.cross_entropy(x, t, reduction=reduction),
                          x, x)


def _penalty_wrt(loss_of, h, w, wrt, hidden_leaf):
    """autograd.grad of |d loss / d h|^2 with respect to one input (``wrt``: "h" or "w", a
    Parameter), allow_unused=True (where None would be a silent wrong answer), h a leaf or
    computed."""
    leaf, w = h.clone().requires_grad_(), torch.nn.Parameter(w.clone())
    h = leaf if hidden_leaf else leaf * 1.0
    g, = torch.autograd.grad(loss_of(h, w).sum(), h, create_graph=True)
    return torch.autograd.grad(g.square().sum(), leaf if wrt == "h" else w, allow_unused=True)


@pytest.mark.parametrize("hidden_leaf", [True, False], ids=["h_leaf", "h_computed"])
@pytest.mark.parametrize("wrt", ["h", "w"])
@pytest.mark.parametrize("loss", ["cross_entropy", "cross_entropy_op", "linear_mean",
                                  "linear_classes", "linear_none", "soft"])
def test_gradient_penalty_by_autograd_grad_raises(loss, wrt, hidden_leaf):
    """torch.autograd.grad(penalty, W) runs only the nodes on a path to W: the error's node
    is on every such path (it takes the op's inputs too), or the backward raises at once;
    never the penalty without its term through the loss (a wrong number) or None."""
    from inductor_ce.eager import kernels as eager
    h, w, t = _head_case(8, 8, 10)
    p = torch.softmax(torch.randn(8, 10, generator=_gen("penalty-p")), -1)
    loss_of = {
        "cross_entropy": lambda h, w: inductor_ce.cross_entropy(h @ w.T, t),
        "cross_entropy_op": lambda h, w: inductor_ce.cross_entropy(h @ w.T, t),
        "linear_mean": lambda h, w: inductor_ce.linear_cross_entropy(h, w, t),
        "linear_classes": lambda h, w: inductor_ce.linear_cross_entropy(
            h, w, t, memory_budget=64),
        "linear_none": lambda h, w: inductor_ce.linear_cross_entropy(h, w, t,
                                                                     reduction="none"),
        "soft": lambda h, w: inductor_ce.cross_entropy(h @ w.T, p),
    }[loss]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(eager, "MODE", "decomposition" if loss == "cross_entropy_op" else "compiled")
        with pytest.raises(RuntimeError, match="not differentiable .no double backward"):
            _penalty_wrt(loss_of, h, w, wrt, hidden_leaf)


def test_gradient_penalty_through_torch_func_matches_float64():
    """What the error recommends: torch.func differentiates the decomposition twice."""
    h, w, t = _head_case(8, 8, 10)

    def penalized(loss_of):
        def fn(h, w):
            g = torch.func.grad(loss_of)(h, w)
            return loss_of(h, w) + g.square().sum()
        return torch.func.grad(fn, argnums=(0, 1))

    got = penalized(lambda h, w: inductor_ce.linear_cross_entropy(h, w, t))(h, w)
    want = penalized(lambda h, w: _head_reference(h, w, t))(h.double(), w.double())
    for g, r in zip(got, want):
        _close(g, r)


# --------------------------------------------------------------------------------------------
# 10. The fused head says which op and chunking it runs (DEBUG, TORCH_LOGS=+inductor_ce)
# --------------------------------------------------------------------------------------------

def test_linear_ce_logs_its_chunking_once_per_signature(caplog):
    import logging
    from inductor_ce.linear import plan
    caplog.set_level(logging.DEBUG, logger="inductor_ce")
    h, w, t = _head_case(6, 8, 11)     # a shape no other test logs
    plan._LOGGED.clear()
    for budget, reduction in ((None, "mean"), (64, "mean"), (None, "none"), (None, "mean")):
        inductor_ce.linear_cross_entropy(h.requires_grad_(), w, t, memory_budget=budget,
                                         reduction=reduction).sum().backward()
    lines = [r.getMessage() for r in caplog.records if "linear_cross_entropy: " in
             r.getMessage() and r.levelno == logging.DEBUG]
    assert len(lines) == 4, lines
    assert "linear_ce_fast, 6 rows, D 8, V 11" in lines[0]
    assert "chunk(s) of at most 6 rows" in lines[0] and "in the forward" in lines[0]
    assert "linear_ce_fast, 6 rows" in lines[1] and "chunks of 11 of 11 classes" in lines[1]
    assert "linear_ce_fwd" in lines[2] and "the backward recomputes them" in lines[2]
    assert "linear_ce_bwd" in lines[3] and "recomputed" in lines[3]


# --------------------------------------------------------------------------------------------
# 11. The fused head where the kept rows' class weights sum to 0 (mean: 0 / 0)
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kernels", ["default", "compiled"])
@pytest.mark.parametrize("budget", [None, 64], ids=["rows", "classes"])
def test_linear_ce_zero_kept_class_weight_like_stock(budget, kernels, monkeypatch):
    """Kept rows of weight 0 (and an ignored one): stock's nan loss and its gradient's
    pattern, nan on the kept rows, 0 on the ignored one; "sum" gives 0 and zero gradients.
    Eager, and compiled (fullgraph, dynamic rows), with a bias and label smoothing; the
    chunks' work eagerly at this size (default) or through the compiled kernels (a row
    chunk's loss and gradient then one graph, which masks the ignored row's nan
    coefficients itself)."""
    from inductor_ce.eager import kernels as eager
    if kernels == "compiled":
        monkeypatch.setattr(eager, "MODE", "compiled")
    g = _gen("zero-kept-weight")
    h0, w0, b0 = (torch.randn(6, 8, generator=g), torch.randn(10, 8, generator=g),
                  torch.randn(10, generator=g))
    t = torch.tensor([1, 1, 2, -100, 1, 2])
    weight = torch.ones(10)
    weight[1:3] = 0.0

    def ours(h, w, b, reduction):
        return inductor_ce.linear_cross_entropy(h, w, t, linear_bias=b, weight=weight,
                                                memory_budget=budget,
                                                reduction=reduction, label_smoothing=0.1)

    compiled = torch.compile(ours, fullgraph=True, dynamic=True)
    for fn in (ours, compiled):
        for reduction in ("mean", "sum"):
            leaves = [x.clone().requires_grad_() for x in (h0, w0, b0)]
            fn(*leaves, reduction).backward()
            ref = [x.double().requires_grad_() for x in (h0, w0, b0)]
            want = F.cross_entropy(F.linear(*ref), t, weight=weight.double(),
                                   reduction=reduction, label_smoothing=0.1)
            want.backward()
            got = fn(h0, w0, b0, reduction)
            torch.testing.assert_close(got.double(), want.detach(), equal_nan=True)
            for x, r in zip(leaves, ref):
                torch.testing.assert_close(x.grad.double(), r.grad, equal_nan=True, rtol=1e-5,
                                           atol=1e-6)


@pytest.mark.parametrize("path", ["decomposition", "compiled_kernels", "torch_compile"])
def test_cross_entropy_zero_kept_class_weight_with_smoothing_like_stock(path, monkeypatch):
    """Kept targets of class weight 0 with label smoothing: the smoothing term is not 0, the
    total weight is; stock's "mean" is nan (each term over 0), not inf; "sum" is finite."""
    from inductor_ce.eager import kernels as eager
    monkeypatch.setattr(eager, "MODE", "decomposition" if path == "decomposition"
                        else "compiled")
    x0 = torch.randn(6, 10, generator=_gen("zero-kept-weight-ce"))
    t = torch.tensor([1, 1, 2, -100, 1, 2])
    weight = torch.ones(10)
    weight[1:3] = 0.0

    def ours(x, reduction):
        return inductor_ce.cross_entropy(x, t, weight, reduction=reduction,
                                         label_smoothing=0.1)
    fn = torch.compile(ours, fullgraph=True) if path == "torch_compile" else ours
    for reduction in ("mean", "sum"):
        got = fn(x0, reduction)
        want = F.cross_entropy(x0.double(), t, weight=weight.double(), reduction=reduction,
                               label_smoothing=0.1)
        assert got.isnan().item() == (reduction == "mean")
        torch.testing.assert_close(got.double(), want, equal_nan=True)


@pytest.mark.parametrize("rows", [6, 1100], ids=["few", "many"])
@pytest.mark.parametrize("path", ["decomposition", "compiled_kernels",
                                  pytest.param("cuda", marks=pytest.mark.gpu)])
def test_ignored_rows_get_zero_gradient_under_an_infinite_upstream_gradient(path, rows,
                                                                           monkeypatch):
    """A sum over no kept target divided by a num_items_in_batch of 0 (an all-padded
    micro-batch) sends g = inf back; stock's gradient of an ignored row is still exactly 0
    (never 0 * inf = nan, which would poison the weights), its kept rows' not finite. The
    same for a per-row upstream gradient that is inf or nan at ignored rows, also with the
    entropy asked for."""
    from inductor_ce.eager import kernels as eager
    monkeypatch.setattr(eager, "MODE", "decomposition" if path == "decomposition"
                        else "compiled")
    g = _gen("infinite-upstream", rows)
    x0 = torch.randn(rows, 16, generator=g)
    some = torch.randint(0, 16, (rows,), generator=g).masked_fill(torch.arange(rows) % 3 == 0,
                                                                  -100)
    every = torch.full((rows,), -100)
    go = torch.randn(rows, generator=g).masked_fill(some == -100, float("inf"))
    go[3] = float("nan")
    if path == "cuda":       # (few rows: the CUDA graphs' replays from the second call on)
        x0, some, every, go = (v.cuda() for v in (x0, some, every, go))

    def grads(fn, t, scale):
        x = x0.clone().requires_grad_()
        scale(fn(x, t)).backward()
        return x.grad

    sum_over_0 = (lambda loss: loss / 0.0)
    per_row = (lambda loss: (loss * go).sum())
    cases = [(every, "sum", sum_over_0), (some, "mean", sum_over_0),
             (some, "none", per_row), (every, "none", per_row)]
    for t, reduction, scale in cases:
        want = grads(lambda x, t: F.cross_entropy(x.double(), t, reduction=reduction), t, scale)
        for extra in ({}, {"return_entropy": True}):
            def ours(x, t):
                out = inductor_ce.cross_entropy(x, t, reduction=reduction, **extra)
                return out.loss if extra else out
            for _ in range(3 if path == "cuda" else 1):   # (captured, then replayed)
                got = grads(ours, t, scale)
                assert (got[t == -100] == 0).all(), (reduction, extra)
                # (A kept row's gradient times an inf or nan g is inf or nan, in an order of
                # operations that differs from stock's: where each is finite is compared.)
                finite = want.isfinite()
                assert (got.isfinite() == finite).all(), (reduction, extra)
                torch.testing.assert_close(got[finite], want[finite],
                                           msg=lambda m: f"{reduction} {extra}: {m}")


@pytest.mark.parametrize("path", ["decomposition", "compiled_kernels", "torch_compile"])
@pytest.mark.parametrize("extra", [dict(return_entropy=True), dict(return_lse=True),
                                   dict(return_lse=True, return_entropy=True,
                                        return_accuracy=True)], ids=["entropy", "lse", "all"])
def test_padding_row_gets_zero_gradient_when_only_the_loss_is_differentiated(
        path, extra, monkeypatch):
    """An ignored row of -inf logits (padding) has a nan entropy and lse, and gets gradient 0
    (numerics.md). Asking for those outputs without differentiating them keeps it 0: their
    upstream gradient of zeros adds nothing, not 0 times nan."""
    from inductor_ce.eager import kernels as eager
    monkeypatch.setattr(eager, "MODE", "decomposition" if path == "decomposition"
                        else "compiled")
    x0 = torch.full((3, 10), float("-inf"))
    x0[0], x0[2] = torch.randn(2, 10, generator=_gen("padding-row"))
    t = torch.tensor([1, -100, 4])

    def ours(x, reduction):
        out = inductor_ce.cross_entropy(x, t, reduction=reduction, **extra)
        return out[0]
    fn = torch.compile(ours, fullgraph=True) if path == "torch_compile" else ours
    for reduction in ("mean", "none"):
        x = x0.clone().requires_grad_()
        fn(x, reduction).sum().backward()
        ref = x0[[0, 2]].double().requires_grad_()
        F.cross_entropy(ref, t[[0, 2]], reduction=reduction).sum().backward()
        assert torch.equal(x.grad[1], torch.zeros(10)), x.grad[1]
        torch.testing.assert_close(x.grad[[0, 2]].double(), ref.grad)


# --------------------------------------------------------------------------------------------
# 11. Activation checkpointing, export and row counts under Dynamo
# --------------------------------------------------------------------------------------------

_CHECKPOINTED = {
    "linear_rows": lambda h, w, t: inductor_ce.linear_cross_entropy(h, w, t),
    "linear_classes": lambda h, w, t: inductor_ce.linear_cross_entropy(
        h, w, t, label_smoothing=0.1, memory_budget=4096),
    "linear_entropy": lambda h, w, t: inductor_ce.linear_cross_entropy(
        h, w, t, return_entropy=True).loss,
    "cross_entropy": lambda h, w, t: inductor_ce.cross_entropy(h @ w.T, t),
}


@pytest.mark.parametrize("selective", [False, True], ids=["checkpoint", "selective"])
@pytest.mark.parametrize("loss", list(_CHECKPOINTED))
def test_checkpointed_loss_runs_its_region_once_in_the_forward(loss, selective):
    """The fused head differentiates a small graph inside its forward: the caller's saved-tensor
    hooks must not see it. A non-reentrant checkpoint's would recompute the region there (twice
    in the forward), a selective checkpoint's would fail to find the op's output. Gradients as
    float64's."""
    from torch.utils.checkpoint import (CheckpointPolicy, checkpoint,
                                        create_selective_checkpoint_contexts)
    h0, w0, t = _head_case(6, 16, 300)
    h, w = h0.clone().requires_grad_(), w0.clone().requires_grad_()
    runs = []

    def region(a):
        runs.append(1)
        return _CHECKPOINTED[loss](torch.tanh(a), w, t)
    context = {}
    if selective:
        policy = lambda ctx, op, *a, **k: CheckpointPolicy.PREFER_RECOMPUTE  # noqa: E731
        context["context_fn"] = functools.partial(create_selective_checkpoint_contexts, policy)
    out = checkpoint(region, h, use_reentrant=False, **context)
    assert len(runs) == 1
    out.backward()
    assert len(runs) == 2                     # the recompute, in the backward
    h64, w64 = h0.double().requires_grad_(), w0.double().requires_grad_()
    smoothing = 0.1 if loss == "linear_classes" else 0.0
    want = F.cross_entropy(torch.tanh(h64) @ w64.T, t, label_smoothing=smoothing)
    want.backward()
    torch.testing.assert_close(out.double(), want.detach(), rtol=1e-5, atol=1e-6)
    _close(h.grad, h64.grad)
    _close(w.grad, w64.grad)


# Compiled autograd (TorchTitan's option): Dynamo traces the backward of an eager call,
# fullgraph and dynamic, so the backward must not call what Dynamo cannot trace (our compiled
# kernels' runners, torch's C state queries); it runs the ops, which Inductor lowers.
_COMPILED_AUTOGRAD = {
    "cross_entropy": lambda h, w, t, p: inductor_ce.cross_entropy(
        h @ w.T, t, label_smoothing=0.1),
    "cross_entropy_lse": lambda h, w, t, p: sum(inductor_ce.cross_entropy(
        h @ w.T, t, reduction="none", return_lse=True)) @ p,
    "soft_targets": lambda h, w, t, p: inductor_ce.cross_entropy(
        h @ w.T, torch.softmax(h.detach() @ w.detach().T / 2, -1)),
    "linear_rows": lambda h, w, t, p: inductor_ce.linear_cross_entropy(h, w, t),
    "linear_classes": lambda h, w, t, p: inductor_ce.linear_cross_entropy(
        h, w, t, reduction="none", memory_budget=4096) @ p,
}


def _compiled_autograd_reference(loss, h, w, t, p):
    z = h @ w.T
    if loss == "cross_entropy":
        return F.cross_entropy(z, t, label_smoothing=0.1)
    if loss == "cross_entropy_lse":
        return (F.cross_entropy(z, t, reduction="none") + z.logsumexp(-1)) @ p
    if loss == "soft_targets":
        return F.cross_entropy(z, torch.softmax(h.detach() @ w.detach().T / 2, -1))
    if loss == "linear_rows":
        return F.cross_entropy(z, t)
    return F.cross_entropy(z, t, reduction="none") @ p


@pytest.mark.parametrize("loss", list(_COMPILED_AUTOGRAD))
def test_compiled_autograd_traces_the_backward_of_eager_calls(loss, monkeypatch):
    """TorchTitan's compiled autograd (maybe_enable_compiled_autograd: fullgraph, dynamic)
    around the backward of eager calls on our compiled kernels: float64's gradients, no
    warning; a plain backward afterwards still runs its compiled kernels."""
    from torch._dynamo.utils import counters, maybe_enable_compiled_autograd
    from inductor_ce.eager import kernels
    monkeypatch.setattr(kernels, "MODE", "compiled")
    h0, w0, t = _head_case(6, 16, 300)
    t[1] = -100
    p = torch.linspace(-1.0, 2.0, 6)
    h64, w64 = h0.double().requires_grad_(), w0.double().requires_grad_()
    _compiled_autograd_reference(loss, h64, w64, t, p.double()).backward()
    torch._dynamo.reset()
    counters.clear()
    for compiled_autograd in (True, False):
        h, w = h0.clone().requires_grad_(), w0.clone().requires_grad_()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = _COMPILED_AUTOGRAD[loss](h, w, t, p)
            with maybe_enable_compiled_autograd(compiled_autograd):
                out.backward()
        assert not [c for c in caught if "inductor_ce" in str(c.message)]
        _close(h.grad, h64.grad)
        _close(w.grad, w64.grad)
        if compiled_autograd:
            assert counters["compiled_autograd"]["captures"] == 1
    torch._dynamo.reset()


@pytest.mark.parametrize("pass_kind", ["meta_device", "fake_mode"])
def test_a_shape_pass_leaves_later_calls_their_softcap(pass_kind, monkeypatch):
    """A shape pass (a model built under torch.device("meta"), a memory estimator's
    FakeTensorMode) with a softcap, then real calls with the same softcap: float64's loss and
    gradients (the softcap's 0-d tensor, kept per value, was made on the meta device or as a
    fake tensor and read by every later call: garbage, or an error)."""
    from torch._subclasses.fake_tensor import FakeTensorMode
    from inductor_ce.op import ce
    monkeypatch.setattr(ce, "_SOFTCAPS", {})      # (made here, whatever other tests did)
    cap = 7.0
    context = torch.device("meta") if pass_kind == "meta_device" else FakeTensorMode()
    for _ in range(2):
        with context:
            h, w = torch.randn(6, 16), torch.randn(300, 16)
            t = torch.randint(0, 300, (6,))
            assert inductor_ce.cross_entropy(h @ w.T, t, softcap=cap).shape == ()
            assert inductor_ce.linear_cross_entropy(h, w, t, softcap=cap).shape == ()
    h0, w0, t = _head_case(6, 16, 300)
    for loss in ("cross_entropy", "linear_cross_entropy"):
        h, w = h0.clone().requires_grad_(), w0.clone().requires_grad_()
        if loss == "cross_entropy":
            out = inductor_ce.cross_entropy(h @ w.T, t, softcap=cap)
        else:
            out = inductor_ce.linear_cross_entropy(h, w, t, softcap=cap)
        out.backward()
        h64, w64 = h0.double().requires_grad_(), w0.double().requires_grad_()
        z = h64 @ w64.T
        want = F.cross_entropy(cap * torch.tanh(z / cap), t)
        want.backward()
        assert_loss_close(out, want)
        _close(h.grad, h64.grad)
        _close(w.grad, w64.grad)


def test_jit_trace_records_a_loss_that_trains():
    """torch.jit.trace of both ops (its check re-runs them; the row count is a traced tensor
    there), the fused head traced with a hidden state that needs no gradient and trained with
    one that does: float64's loss and gradients (the trace kept the example's requires_grad
    flags as constants: the hidden state's gradient was None)."""
    h0, w0, t = _head_case(6, 16, 300)

    class Head(torch.nn.Module):
        def __init__(self, fused):
            super().__init__()
            self.w, self.fused = torch.nn.Parameter(w0.clone()), fused

        def forward(self, h, t):
            if self.fused:
                return inductor_ce.linear_cross_entropy(h, self.w, t)
            return inductor_ce.cross_entropy(h @ self.w.T, t)

    for fused in (False, True):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")     # (the tracer's notes on Python values)
            traced = torch.jit.trace(Head(fused), (torch.randn(6, 16), t))
        h = h0.clone().requires_grad_()
        loss = traced(h, t)
        loss.backward()
        h64, w64 = h0.double().requires_grad_(), w0.double().requires_grad_()
        want = F.cross_entropy(h64 @ w64.T, t)
        want.backward()
        assert_loss_close(loss, want)
        _close(h.grad, h64.grad)
        _close(traced.w.grad, w64.grad)


def test_nested_and_sparse_tensors_are_refused_by_name():
    """Jagged nested logits (their class dimension dense) and sparse tensors: a TypeError
    naming the argument (and, for nested ones, what to pass), not the op's missing kernel."""
    x = torch.nested.nested_tensor([torch.randn(3, 64), torch.randn(5, 64)], layout=torch.jagged)
    t = torch.nested.nested_tensor_from_jagged(torch.randint(0, 64, (8,)), offsets=x.offsets())
    with pytest.raises(TypeError, match=r"input must be a dense tensor, got a nested one .*"
                                        r"x\.values\(\)"):
        inductor_ce.cross_entropy(x, t, reduction="none")
    x, t, w = torch.randn(4, 64), torch.randint(0, 64, (4,)), torch.rand(64)
    h, hw = torch.randn(4, 8), torch.randn(64, 8)
    calls = {"input": lambda: inductor_ce.cross_entropy(x.to_sparse(), t),
             "target": lambda: inductor_ce.cross_entropy(x, t.to_sparse()),
             "weight": lambda: inductor_ce.cross_entropy(x, t, weight=w.to_sparse()),
             "linear_weight": lambda: inductor_ce.linear_cross_entropy(h, hw.to_sparse(), t)}
    for name, call in calls.items():
        with pytest.raises(TypeError, match=f"^{name} must be a dense \\(strided\\) tensor, "
                                            "got layout torch.sparse_coo"):
            call()


def _rows_reference(z, t):
    return F.cross_entropy(z.double(), t)


@pytest.mark.parametrize("loss", ["cross_entropy", "linear_cross_entropy"])
def test_strict_export_with_rows_above_few_rows(loss):
    """Rows symbolic up to 8192 (above the few-rows variant's 1024): no guard on the row count
    (Dynamo reads a symbolic size as an int; a comparison with it would guard), so strict
    export succeeds and the exported loss is right at 3000 rows."""
    g = _gen("export", loss)
    w = torch.randn(50, 8, generator=g)

    class M(torch.nn.Module):
        def forward(self, x, t):
            if loss == "cross_entropy":
                return inductor_ce.cross_entropy(x, t)
            return inductor_ce.linear_cross_entropy(x, w, t)
    width = 50 if loss == "cross_entropy" else 8
    rows = torch.export.Dim("rows", min=2, max=8192)
    x, t = torch.randn(6, width, generator=g), torch.randint(0, 50, (6,), generator=g)
    exported = torch.export.export(M(), (x, t), dynamic_shapes=({0: rows}, {0: rows}),
                                   strict=True)
    x, t = torch.randn(3000, width, generator=g), torch.randint(0, 50, (3000,), generator=g)
    want = _rows_reference(x if loss == "cross_entropy" else x.double() @ w.double().T, t)
    torch.testing.assert_close(exported.module()(x, t).double(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("transform", ["none", "func_grad"])
def test_compiled_with_dynamic_rows_compiles_once(transform):
    """torch.compile(dynamic=True) over row counts on both sides of 1024: no compile after the
    first call's, with and without torch.func.grad (whose decomposition chunks its rows: under
    Dynamo in one chunk, a range over a symbolic size would guard on it). Values as
    float64's."""
    from torch._dynamo.testing import CompileCounterWithBackend

    def loss(x, t):
        return inductor_ce.cross_entropy(x, t)
    fn = loss if transform == "none" else torch.func.grad(loss)
    counter = CompileCounterWithBackend("aot_eager")
    compiled = torch.compile(fn, dynamic=True, backend=counter)
    torch._dynamo.reset()
    g = _gen("dynamic rows", transform)
    compiles = []
    for rows in (3, 7, 1100):
        x, t = torch.randn(rows, 40, generator=g), torch.randint(0, 40, (rows,), generator=g)
        got = compiled(x, t)
        compiles.append(counter.frame_count)
        want = (_rows_reference(x, t) if transform == "none" else
                torch.func.grad(_rows_reference)(x.double(), t))
        torch.testing.assert_close(got.double(), want, rtol=1e-5, atol=1e-7)
    assert compiles == compiles[:1] * 3, compiles


# --------------------------------------------------------------------------------------------
# 12. The caches of option values under threads
# --------------------------------------------------------------------------------------------

def test_option_value_caches_evict_safely_under_threads(monkeypatch):
    """Threads calling with option values new call after call (more than each cache keeps):
    the eviction of the oldest value races no other thread's (an unlocked dict: a KeyError or
    "dictionary changed size during iteration" before). The interpreter switches threads
    as often as it can, to make the race likely."""
    import threading
    from inductor_ce.eager import loss as eager_loss
    from inductor_ce.op import ce
    monkeypatch.setattr(ce, "_SOFTCAPS", {})
    options = eager_loss._Options(torch.device("cpu"))
    errors = []

    def work(k):
        try:
            for i in range(4000):
                value = float((7 * i + k) % 20 + 1)
                assert ce.softcap_tensor(value).item() == value
                assert options(value / 40, 0.0, None)[0].item() == pytest.approx(value / 40)
        except Exception as e:  # the first failure of each thread, for the assertion
            errors.append(repr(e))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors
