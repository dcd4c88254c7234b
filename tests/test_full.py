"""The full form of the loss: a temperature, and each row's entropy and accuracy from the same
pass (``ce_fwd_full`` / ``ce_bwd_full``, ``linear_ce_fwd_full``), against float64: the loss
1e-5 relative, the entropy 1e-5 relative + 1e-6 absolute (it is a sum of non-negative
products, no cancellation: docs/numerics.md), the accuracy exactly, the gradients as the
plain loss's (tests/_reference.py). Eager and compiled (one compiled function per
configuration, shared), the fused head by rows and with a small budget, torch.func, opcheck.
"""
from __future__ import annotations

import functools

import pytest
import torch

import inductor_ce
from inductor_ce.eager import kernels as eager_kernels
from _reference import (MARGINS, assert_grad_close, assert_loss_close, collapse_logits,
                        full_reference, gemm_rounding, reference)

ENTROPY_ATOL = 1e-6


def assert_entropy_close(actual, expected, msg=""):
    assert actual.dtype == torch.float32 and actual.shape == expected.shape
    err = (actual.double() - expected.double()).abs()
    bad = ~(err <= 1e-5 * expected.abs() + ENTROPY_ATOL)
    assert not bool(bad.any()), (msg, actual[bad][:4], expected[bad][:4])


def _objective(loss, entropy, upstream):
    """A loss built from both outputs (an entropy bonus): checks both gradient paths."""
    return (loss * upstream).sum() - 0.3 * (entropy * upstream.flip(0)).sum()


def _eager(config: str):
    """(loss, entropy, accuracy) per row of one configuration."""
    kw = CONFIGS[config]

    def fn(x, target, weight):
        out = inductor_ce.cross_entropy(x, target, weight, reduction="none",
                                        return_entropy=True, return_accuracy=True, **kw)
        return out.loss, out.entropy, out.accuracy
    return fn


@functools.lru_cache(maxsize=None)
def _compiled(config: str):
    """_eager's function compiled, once per configuration and shared by the tests (compiles
    are slow on this CPU), rows dynamic; its own code object (Dynamo keeps its cache there)."""
    fn = _eager(config)
    fn.__code__ = fn.__code__.replace(co_name=f"full_{config}")
    return torch.compile(fn, fullgraph=True, dynamic=True)


CONFIGS = {
    "grid": dict(),
    "tempered": dict(temperature=0.7),
    "all": dict(temperature=1.3, softcap=15.0, label_smoothing=0.1, z_loss=1e-3,
                ignore_index=2),
}


# --- the collapse grid: a dominant target, margins 0-80 ------------------------------------------

@pytest.mark.pinned
@pytest.mark.parametrize("mode", ["eager", "graphs", "compiled"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_margin_grid(dtype, mode, monkeypatch):
    """V = 32000, target = max of the others + margin (0-80) at temperature 1: loss, entropy
    (which shrinks like margin * exp(-margin) and must not round to 0) and the gradient of
    loss - 0.3 entropy against float64; the target is a largest logit in every row. "eager"
    runs the decomposition here (these logits are below the eager graphs' size on the CPU),
    "graphs" the eager graphs (eager/loss.py), "compiled" the lowering under torch.compile."""
    if mode == "graphs":
        monkeypatch.setattr(eager_kernels, "MODE", "compiled")
    z, target = collapse_logits(MARGINS, dtype)
    x = z.clone().requires_grad_()
    fn = _compiled("grid") if mode == "compiled" else _eager("grid")
    loss, entropy, accuracy = fn(x, target, None)
    upstream = torch.linspace(0.5, 1.5, len(MARGINS), dtype=torch.float64)
    _objective(loss, entropy, upstream.float()).backward()
    zr = z.double().requires_grad_()
    ref_loss, ref_entropy, ref_accuracy = full_reference(zr, target)
    _objective(ref_loss, ref_entropy, upstream).backward()
    assert bool(ref_entropy.min() > 0) and bool(ref_loss.min() > 0)
    assert_loss_close(loss, ref_loss, rtol=1e-5, atol=0.0)
    # Relative to the entropy itself, however small: no absolute floor on this grid.
    rel = ((entropy.double() - ref_entropy).abs() / ref_entropy).max().item()
    assert rel <= 1e-5, rel
    assert torch.equal(accuracy, ref_accuracy) and bool(accuracy.all())
    assert_grad_close(x.grad, zr.grad)
    rows = torch.arange(len(MARGINS))
    assert bool((x.grad[rows, target] != 0).all())


@pytest.mark.parametrize("mode", ["eager", "graphs", "compiled"])
def test_entropy_gradient_alone_near_uniform_rows(mode, monkeypatch):
    """The gradient of the entropy alone (an entropy bonus, RL's regularizer) where the rows
    are near uniform: every probability ~1 / V, so the gradient is small everywhere and the
    target column's as small as the others. Against float64, no worse than a few times stock
    float32's own error (autograd of the value's expression had the target column wrong by
    1e-3 to 0.4 of the row's largest gradient, docs/numerics.md)."""
    if mode == "graphs":     # (as test_margin_grid's)
        monkeypatch.setattr(eager_kernels, "MODE", "compiled")
    g = torch.Generator().manual_seed(5)
    scales = torch.tensor([0.01, 0.1, 1.0, 3.0])[:, None]
    z = torch.randn(4, 32000, generator=g) * scales
    target = torch.tensor([0, 1, 2, 3])
    x = z.clone().requires_grad_()
    fn = _compiled("grid") if mode == "compiled" else _eager("grid")
    _, entropy, _ = fn(x, target, None)
    entropy.sum().backward()
    zr = z.double().requires_grad_()
    torch.special.entr(zr.softmax(-1)).sum().backward()
    zs = z.clone().requires_grad_()
    torch.special.entr(zs.softmax(-1)).sum().backward()
    scale = zr.grad.abs().amax(-1, keepdim=True)
    ours = ((x.grad.double() - zr.grad).abs() / scale).amax(-1)
    stock = ((zs.grad.double() - zr.grad).abs() / scale).amax(-1)
    assert bool((ours <= 4 * stock.clamp_min(1e-6)).all()), (ours, stock)


@pytest.mark.parametrize("mode", ["eager", "graphs", "compiled"])
def test_padding_rows_of_minus_inf(mode, monkeypatch):
    """A padding row: every logit -inf, its target ignored. Its entropy is 0 (no
    distribution: as the other paths give) and its gradient exactly 0, also when the caller
    masks its entropy out of an entropy bonus (a nan entropy there sent nan into every
    gradient of the row, the masked term included); the other rows as float64."""
    if mode == "graphs":
        monkeypatch.setattr(eager_kernels, "MODE", "compiled")
    g = torch.Generator().manual_seed(9)
    z = torch.randn(5, 300, generator=g) * 3
    z[[1, 3]] = float("-inf")
    target = torch.tensor([2, -100, 7, -100, 299])
    x = z.clone().requires_grad_()
    fn = _compiled("grid") if mode == "compiled" else _eager("grid")
    loss, entropy, accuracy = fn(x, target, None)
    kept = target != -100
    (loss.sum() - 0.3 * entropy.where(kept, 0.0).sum()).backward()
    assert entropy[~kept].tolist() == [0.0, 0.0] and loss[~kept].tolist() == [0.0, 0.0]
    assert bool(torch.isfinite(x.grad).all()) and not bool(x.grad[~kept].any())
    zr = z[kept].double().requires_grad_()
    ref_loss, ref_entropy, _ = full_reference(zr, target[kept])
    (ref_loss.sum() - 0.3 * ref_entropy.sum()).backward()
    assert_loss_close(loss[kept], ref_loss, rtol=1e-5, atol=0.0)
    assert_entropy_close(entropy[kept], ref_entropy)
    assert_grad_close(x.grad[kept], zr.grad)


@pytest.mark.parametrize("mode", ["eager", "compiled"])
def test_entropy_beyond_the_sigmoids_overflow(mode):
    """Two classes, the target ahead by 89-95: H = p_t (1 + margin) + ..., p_t = e^-margin a
    float32 number (to ~1e-45), where float32 sigmoid(-margin) = 1 / (1 + exp(margin)) is 0
    (exp overflows past 88.7): H was e^-margin alone, 1/90 of its value."""
    margins = torch.tensor([89.0, 92.0, 95.0], dtype=torch.float64)
    z = torch.zeros(3, 2, dtype=torch.float64)
    z[:, 0] = margins
    target = torch.zeros(3, dtype=torch.long)
    x = z.float().requires_grad_()
    fn = _compiled("grid") if mode == "compiled" else _eager("grid")
    _, entropy, _ = fn(x, target, None)
    entropy.sum().backward()
    zr = z.clone().requires_grad_()
    _, ref, _ = full_reference(zr, target)   # (entr(softmax) rounds p_nt to 1 in float64)
    ref.sum().backward()
    assert torch.allclose(entropy.double(), ref, rtol=1e-5, atol=0.0), (entropy, ref)
    assert torch.allclose(x.grad.double(), zr.grad, rtol=1e-4, atol=0.0), (x.grad, zr.grad)


# --- every option, eager and compiled -------------------------------------------------------------

def _case(config, dtype, seed):
    g = torch.Generator().manual_seed(seed)
    n, v = 37, 300
    # Strided rows (a slice of a wider buffer) and one target that is its row's largest logit.
    base = torch.randn(n, v + 5, generator=g) * 4
    target = torch.randint(0, v, (n,), generator=g)
    target[1] = int(base[1, :v].argmax())
    target[::6] = CONFIGS[config].get("ignore_index", -100)
    leaf = base.to(dtype).requires_grad_()
    weight = torch.rand(v, generator=g) + 0.5 if config == "all" else None
    return leaf, target, weight


@pytest.mark.parametrize("mode", ["eager", "graphs", "compiled"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
@pytest.mark.parametrize("config", ["tempered", "all"])
def test_matches_float64(config, dtype, mode, monkeypatch):
    if mode == "graphs":     # (as test_margin_grid's)
        monkeypatch.setattr(eager_kernels, "MODE", "compiled")
    leaf, target, weight = _case(config, dtype, 1)
    x = leaf[:, :300]
    fn = _compiled(config) if mode == "compiled" else _eager(config)
    loss, entropy, accuracy = fn(x, target, weight)
    upstream = torch.randn(target.shape, generator=torch.Generator().manual_seed(2),
                           dtype=torch.float64)
    _objective(loss, entropy, upstream.float()).backward()
    kw = dict(CONFIGS[config])
    xr = leaf.detach().double().requires_grad_()
    ref = full_reference(xr[:, :300], target, weight=weight, **kw)
    _objective(ref[0], ref[1], upstream).backward()
    assert_loss_close(loss, ref[0])
    assert_entropy_close(entropy, ref[1])
    assert torch.equal(accuracy, ref[2])
    assert_grad_close(leaf.grad, xr.grad)


def test_reductions_and_return_forms():
    leaf, target, weight = _case("all", torch.float32, 3)
    kw = CONFIGS["all"]
    x = leaf.detach()[:, :300]
    per_row = inductor_ce.cross_entropy(x, target, weight, reduction="none", **kw)
    for reduction in ("mean", "sum"):
        out = inductor_ce.cross_entropy(x, target, weight, reduction=reduction,
                                        return_accuracy=True, **kw)
        assert isinstance(out, inductor_ce.LossOutput)
        assert out.lse is None and out.entropy is None and out.accuracy.dtype == torch.bool
        ref = reference(x.double() / kw["temperature"], target, weight, reduction=reduction,
                        **{k: v for k, v in kw.items() if k != "temperature"})
        assert_loss_close(out.loss, ref)
        keep = target != kw["ignore_index"]
        want = per_row.sum() if reduction == "sum" else per_row.sum() / weight[target[keep]].sum()
        torch.testing.assert_close(out.loss, want)
    # A temperature alone keeps the plain return forms.
    loss, lse = inductor_ce.cross_entropy(x, target, weight, return_lse=True, **kw)
    assert loss.dim() == 0 and lse.shape == target.shape
    out = inductor_ce.cross_entropy(x, target, return_lse=True, return_entropy=True)
    z = x.double()
    torch.testing.assert_close(out.lse.double(), z.logsumexp(-1), rtol=1e-6, atol=1e-6)
    assert out.accuracy is None
    # An ignored row: its entropy is the whole row's, its accuracy False, its loss 0.
    assert out.loss.dim() == 0
    rows = inductor_ce.cross_entropy(x, target, reduction="none", ignore_index=2,
                                     return_entropy=True, return_accuracy=True)
    ign = target == 2
    ref_entropy = torch.special.entr(torch.softmax(z, -1)).sum(-1)
    assert_entropy_close(rows.entropy[ign], ref_entropy[ign])
    assert not bool(rows.accuracy[ign].any()) and bool((rows.loss[ign] == 0).all())


@pytest.mark.parametrize("asked", ["temperature", "accuracy", "entropy"])
def test_compiled_temperature_without_entropy_runs_the_plain_kernels(asked):
    """Compiled, a temperature without the entropy (alone, or with the accuracy) costs what the
    plain loss does: the op's backward gets no entropy gradient (None, not zeros), so nothing
    reads ent_nt and neither the forward's gap sum nor the backward's entropy term is
    generated (the gap's clamp constant marks both); with the entropy, both are. Values and
    gradients as float64's."""
    from torch._inductor.utils import run_and_get_code
    from inductor_ce.lowering import _GAP_MAX_BITS
    leaf, target, _ = _case("tempered", torch.float32, 5)
    x = leaf[:, :300]
    kw = dict(temperature=0.7, reduction="none", return_entropy=asked == "entropy",
              return_accuracy=asked == "accuracy")

    def fn(x, target):   # (with the entropy: an entropy bonus, both differentiated)
        out = inductor_ce.cross_entropy(x, target, **kw)
        loss = out if asked == "temperature" else out.loss
        (loss.sum() - (0.3 * out.entropy.sum() if asked == "entropy" else 0.0)).backward()
        return loss, out.entropy if asked == "entropy" else None

    with torch._inductor.config.patch(force_disable_caches=True):
        (loss, entropy), code = run_and_get_code(torch.compile(fn), x, target)
    assert len(code) == 2, len(code)              # the forward's and the backward's
    assert [str(_GAP_MAX_BITS) in c for c in code] == [asked == "entropy"] * 2
    xr = leaf.detach().double().requires_grad_()
    ref = full_reference(xr[:, :300], target, temperature=0.7)
    (ref[0].sum() - (0.3 * ref[1].sum() if asked == "entropy" else 0.0)).backward()
    assert_loss_close(loss, ref[0])
    if entropy is not None:
        assert_entropy_close(entropy, ref[1])
    assert_grad_close(leaf.grad, xr.grad)


def test_accuracy_counts_ties_and_masked_classes():
    x = torch.tensor([[1.0, 3.0, 3.0, -1.0], [float("-inf"), 0.0, float("-inf"), -2.0],
                      [0.0, 0.0, 0.0, 0.0], [5.0, 4.0, 4.0, 4.0]])
    target = torch.tensor([2, 1, 3, 1])
    out = inductor_ce.cross_entropy(x, target, reduction="none", return_entropy=True,
                                    return_accuracy=True)
    assert out.accuracy.tolist() == [True, True, True, False]
    ref = torch.special.entr(torch.softmax(x.double(), -1)).sum(-1)
    assert_entropy_close(out.entropy, ref)
    torch.testing.assert_close(out.entropy[2], torch.tensor(4.0).log())


def test_accuracy_of_a_target_logit_of_minus_inf_is_false():
    """A row of -inf logits only ties everywhere, but its target has no probability: not
    counted as correct (argmax == target would say True for target 0), whatever the
    target; nor a -inf target logit beside finite ones."""
    x = torch.tensor([[-1.0, 2.0, 0.5]] + [[float("-inf")] * 3] * 2
                     + [[float("-inf"), 1.0, 1.0]])
    target = torch.tensor([1, 0, 2, 0])
    out = inductor_ce.cross_entropy(x, target, reduction="none", return_accuracy=True)
    assert out.accuracy.tolist() == [True, False, False, False]


def test_torch_func_runs_the_decomposition():
    leaf, target, _ = _case("tempered", torch.float32, 4)
    x = leaf.detach()[:, :300].contiguous()

    def f(x):
        out = inductor_ce.cross_entropy(x, target, return_entropy=True, temperature=0.7)
        return out.loss + out.entropy.mean()
    got = torch.func.grad(f)(x)
    xr = x.double().requires_grad_()
    loss, entropy, _ = full_reference(xr, target, temperature=0.7)
    (loss[target != -100].mean() + entropy.mean()).backward()
    assert_grad_close(got, xr.grad)


def _entropy_grad64(x: torch.Tensor) -> torch.Tensor:
    """dH/dz of each row's entropy in float64, in closed form: -p (log p + H)."""
    logp = torch.log_softmax(x.double(), -1)
    p = logp.exp()
    h = -(p * logp).sum(-1, keepdim=True)
    return -p * (logp + h)


@pytest.mark.parametrize("transform", ["grad", "vmap_grad", "jvp", "forward_ad"])
def test_entropy_gradient_under_transforms_where_a_non_target_dominates(transform):
    """torch.func and forward-mode AD differentiate the decomposition, whose non-target
    entropy has the op's derivative q_j (lse_nt - z_j - ent_nt), not autograd's of
    log S + U / S (which lost the dominant column's derivative, -U, from a gap of ~20: off by
    the row's largest derivative at gaps 30-40). Rows: a wrong target, an ignored row, the
    target dominant; each row against float64 on its own scale."""
    from torch.autograd import forward_ad as fwAD
    V = 1000
    g = torch.Generator().manual_seed(0)
    target = torch.tensor([0, -100, 1])
    tangent = torch.randn(3, V, generator=g)

    def entropy(x):
        return inductor_ce.cross_entropy(x, target, reduction="none",
                                         return_entropy=True).entropy.sum()
    for gap in (12.0, 20.0, 30.0, 40.0):
        x = torch.randn(3, V, generator=g)
        x[:, 1] = x.amax(-1) + gap
        want = _entropy_grad64(x)
        if transform == "grad":
            got = torch.func.grad(entropy)(x)
        elif transform == "vmap_grad":
            got = torch.func.vmap(torch.func.grad(entropy))(x.unsqueeze(0))[0]
        else:
            if transform == "jvp":
                dot = torch.func.jvp(entropy, (x,), (tangent,))[1]
            else:
                with fwAD.dual_level():
                    dot = fwAD.unpack_dual(entropy(fwAD.make_dual(x, tangent))).tangent
            per_row = (want * tangent.double()).sum(-1)
            # (one number: within the tolerance of the terms' sizes)
            torch.testing.assert_close(dot.double(), per_row.sum(), rtol=1e-5,
                                       atol=1e-6 * (want * tangent.double()).abs().max().item())
            continue
        for row in range(3):
            assert_grad_close(got[row], want[row], f"gap {gap}, row {row}")


@pytest.mark.parametrize("second", ["hessian", "grad_of_grad", "jvp_of_grad"])
def test_entropy_refuses_second_derivatives(second):
    """The entropy's first derivatives are closed forms, not differentiable again: a second
    derivative raises (it was ~1% off, silently) and names the argument; the loss's own
    second derivative, asked without the entropy, is float64's."""
    x, target = torch.randn(2, 30, dtype=torch.float64).float(), torch.tensor([0, 3])

    def entropy(x):
        return inductor_ce.cross_entropy(x, target, return_entropy=True).entropy.sum()
    run = {"hessian": lambda: torch.func.hessian(entropy)(x),
           "grad_of_grad": lambda: torch.func.grad(
               lambda x: torch.func.grad(entropy)(x).square().sum())(x),
           "jvp_of_grad": lambda: torch.func.jvp(torch.func.grad(entropy), (x,), (x,))}
    with pytest.raises(NotImplementedError, match=r"return_entropy=True\) has first deriv"):
        run[second]()
    got = torch.func.hessian(lambda x: inductor_ce.cross_entropy(x, target))(x)
    want = torch.func.hessian(lambda x: torch.nn.functional.cross_entropy(x, target))(
        x.double())
    torch.testing.assert_close(got.double(), want, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("kw, error, match", [
    (dict(temperature=0.0), ValueError, r"temperature must be a number in .* \(finite and > 0"),
    (dict(temperature=1e-39), ValueError, "temperature must be a number in"),
    (dict(temperature=float("inf")), ValueError, "temperature"),
    (dict(temperature=True), TypeError, "temperature must be a float"),
    (dict(temperature="1"), TypeError, "temperature"),
    (dict(temperature=torch.tensor([0.5, 0.5])), TypeError, "temperature must be a float"),
    (dict(temperature=torch.tensor(1.0)), TypeError, "temperature must be a float"),
    (dict(return_entropy=1), TypeError, "return_entropy must be a bool"),
    (dict(return_accuracy=None), TypeError, "return_accuracy must be a bool"),
])
def test_errors_name_the_argument(kw, error, match):
    x, t = torch.randn(3, 5), torch.tensor([0, 1, 2])
    with pytest.raises(error, match=match):
        inductor_ce.cross_entropy(x, t, **kw)
    with pytest.raises(error, match=match):
        inductor_ce.linear_cross_entropy(x, torch.randn(7, 5), t, **kw)


def test_opcheck():
    g = torch.Generator().manual_seed(5)
    x = torch.randn(6, 40, generator=g).requires_grad_()
    t = torch.randint(0, 40, (6,), generator=g)
    t[0] = -100
    w = torch.rand(40, generator=g)
    torch.library.opcheck(torch.ops.inductor_ce.ce_fwd_full.default,
                          (x, t, w, -100, torch.tensor(4.0), True, 0.8))
    per_row = [torch.randn(6, generator=g) for _ in range(5)]
    torch.library.opcheck(torch.ops.inductor_ce.ce_bwd_full.default,
                          (x.detach(), t, w, *per_row, -100, torch.tensor(4.0), 0.8))


# --- the fused head ----------------------------------------------------------------------------

N, D, V = 300, 16, 700


def _head_case(seed):
    g = torch.Generator().manual_seed(seed)
    h = torch.randn(N, D, generator=g, dtype=torch.float64)
    w = torch.randn(V, D, generator=g, dtype=torch.float64) * 0.5
    t = torch.randint(0, V, (N,), generator=g)
    t[::7] = -100
    return h, w, t


@pytest.mark.pinned
@pytest.mark.parametrize("reduction", ["none", "mean"])
@pytest.mark.parametrize("budget", [None, 64 * V * 4], ids=["default", "64 rows"])
def test_linear_matches_float64(budget, reduction):
    """Loss, entropy, accuracy, dh and dW of the fused head's full form, by rows (the default
    and a budget of 64 rows of logits; the full form chunks by rows at any budget); "mean"
    computes its gradient in the forward and
    the entropy's (a bonus in the loss) in the backward."""
    h, w, t = _head_case(6)
    hs, ws = h.float().requires_grad_(), w.float().requires_grad_()
    out = inductor_ce.linear_cross_entropy(hs, ws, t, reduction=reduction, temperature=0.7,
                                           return_entropy=True, return_accuracy=True,
                                           memory_budget=budget)
    upstream = torch.randn(N, generator=torch.Generator().manual_seed(7), dtype=torch.float64)
    keep = t != -100
    if reduction == "mean":    # the mean's upstream: 1 / kept rows on each kept row
        upstream = keep.double() / keep.sum()
        (out.loss - 0.3 * (out.entropy * upstream.flip(0).float()).sum()).backward()
    else:
        _objective(out.loss, out.entropy, upstream.float()).backward()
    hr, wr = h.clone().requires_grad_(), w.clone().requires_grad_()
    z = hr @ wr.T
    ref = full_reference(z, t, temperature=0.7)
    _objective(ref[0], ref[1], upstream).backward()
    # The logits come from a float32 GEMM: its rounding (gemm_rounding) enters every output.
    logit_err = gemm_rounding(h, w.T).max().item() / 0.7
    ref_loss = (ref[0] * upstream).sum() if reduction == "mean" else ref[0]
    assert_loss_close(out.loss, ref_loss, atol=2 * logit_err)
    err = (out.entropy.double() - ref[1]).abs()
    assert bool((err <= 1e-5 * ref[1] + 2 * logit_err).all())
    near_tie = (z.detach().topk(2, -1).values.diff(dim=-1).abs().squeeze(-1) < 4 * logit_err)
    assert torch.equal(out.accuracy[~near_tie], ref[2][~near_tie])
    assert_grad_close(hs.grad, hr.grad, extra_tol=1e-5 * hr.grad.abs().max())
    assert_grad_close(ws.grad, wr.grad, extra_tol=1e-5 * wr.grad.abs().max())


def test_linear_no_grad_and_log_probs():
    """RL's two calls: the reference model's log-probabilities without gradient (one GEMM and
    one pass per chunk, nothing saved), and the policy's with one, at a temperature; a
    GRPO-style ratio loss from them matches the one built from the logits."""
    h, w, t = _head_case(8)
    hs, ws = h.float().requires_grad_(), w.float()
    with torch.no_grad():
        old = inductor_ce.linear_log_probs(hs, ws, t, temperature=0.7)
    new, entropy = inductor_ce.linear_log_probs(hs, ws, t, temperature=0.7, return_entropy=True)
    assert not old.requires_grad and new.requires_grad
    torch.testing.assert_close(old, new.detach())
    mask = (t != -100).double()
    adv = torch.randn(N, generator=torch.Generator().manual_seed(9), dtype=torch.float64)

    def grpo(logp, logp_old, ent):
        ratio = torch.exp(logp - logp_old)
        clipped = torch.minimum(ratio * adv, ratio.clamp(0.8, 1.2) * adv)
        return -((clipped + 0.01 * ent) * mask).sum() / mask.sum()
    grpo(new.double(), old.double() - 0.05, entropy.double()).backward()
    hr = h.clone().requires_grad_()
    logits = (hr @ w.T) / 0.7
    logp = torch.log_softmax(logits, -1).gather(-1, t.clamp_min(0)[:, None]).squeeze(-1)
    logp = logp * mask
    ref_entropy = torch.special.entr(torch.softmax(logits, -1)).sum(-1)
    ref = grpo(logp, logp.detach() - 0.05, ref_entropy)
    ref.backward()
    logit_err = gemm_rounding(h, w.T).max().item() / 0.7
    torch.testing.assert_close(new.double() * mask, logp.detach(), rtol=1e-5,
                               atol=2 * logit_err)
    assert_grad_close(hs.grad, hr.grad, extra_tol=1e-5 * hr.grad.abs().max())


@pytest.mark.parametrize("options", [
    {}, dict(bias=True, softcap=8.0, label_smoothing=0.1, z_loss=1e-3, weight=True)],
    ids=["plain", "all"])
@pytest.mark.parametrize("budget", [None, 64 * V * 4], ids=["default", "64 rows"])
def test_linear_temperature_without_gradient(budget, options, monkeypatch):
    """A temperature and no gradient: linear_cross_entropy's per-row losses divide each
    chunk's logits by it in the chunk's graph with the plain statistics, not the full form's
    (checked: that op is not called). Per-row loss and lse against float64 of
    s((h W^T + b) / T); then linear_log_probs over the collapse margins 0-80 of the tempered
    logits built into the weights (collapse-safe reference)."""
    from inductor_ce.linear import head
    monkeypatch.setattr(head, "linear_ce_fwd_full", None)   # (a call would raise)
    T = 0.6
    h, w, t = _head_case(11)
    kw = dict(options)
    g = torch.Generator().manual_seed(12)
    b = torch.randn(V, generator=g, dtype=torch.float64) if kw.pop("bias", False) else None
    cw = torch.rand(V, generator=g, dtype=torch.float64) + 0.5 if kw.pop("weight", False) \
        else None
    hs, ws = h.float().requires_grad_(), w.float().requires_grad_()   # (frozen by no_grad)
    with torch.no_grad():
        loss, lse = inductor_ce.linear_cross_entropy(
            hs, ws, t, linear_bias=None if b is None else b.float(),
            weight=None if cw is None else cw.float(), reduction="none", temperature=T,
            return_lse=True, memory_budget=budget, **kw)
    z = h @ w.T + (0.0 if b is None else b)
    ref_loss, ref_lse = reference(z / T, t, cw, reduction="none", return_lse=True, **kw)
    logit_err = gemm_rounding(h, w.T).max().item() / T
    assert_loss_close(loss, ref_loss, atol=2 * logit_err)
    assert_loss_close(lse, ref_lse, atol=2 * logit_err)
    # Collapse margins: row i's hidden state is e_i, its target's weight row puts the
    # tempered target logit `margin` above the largest other one.
    k, v = len(MARGINS), 4000
    w = torch.randn(v, k, generator=g, dtype=torch.float64) * 0.5
    t = torch.randperm(v, generator=g)[:k]
    h = torch.eye(k, dtype=torch.float64)
    z = h @ w.T
    for i, m in enumerate(MARGINS):
        w[t[i]] = 0.0
        w[t[i], i] = z[i].scatter(0, t[i:i + 1], float("-inf")).max() + m * T
    with torch.no_grad():
        logp = inductor_ce.linear_log_probs(h.float(), w.float(), t, temperature=T,
                                            memory_budget=budget)
    ref = full_reference(h @ w.T, t, temperature=T)[0]
    assert bool((logp < 0).all())       # nothing collapsed to 0
    assert_loss_close(-logp, ref, rtol=1e-5, atol=0.0)


def test_linear_compiled_fullgraph_rows_dynamic():
    h, w, t = _head_case(10)

    @torch.compile(fullgraph=True, dynamic=True)
    def fn(h, w, t):
        out = inductor_ce.linear_cross_entropy(h, w, t, temperature=0.9, return_entropy=True,
                                               return_accuracy=True)
        return out.loss + out.entropy.mean(), out.accuracy.float().mean()

    for n in (N, N - 37):
        hs, ws = h[:n].float().requires_grad_(), w.float().requires_grad_()
        loss, acc = fn(hs, ws, t[:n])
        loss.backward()
        eager = inductor_ce.linear_cross_entropy(hs, ws, t[:n], temperature=0.9,
                                                 return_entropy=True, return_accuracy=True)
        torch.testing.assert_close(loss, eager.loss + eager.entropy.mean())
        torch.testing.assert_close(acc, eager.accuracy.float().mean())
        hg = hs.grad
        hs.grad = None
        (eager.loss + eager.entropy.mean()).backward()
        torch.testing.assert_close(hg, hs.grad)
