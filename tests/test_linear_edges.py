"""The fused LM head at its edges, on the CPU: what F.cross_entropy(F.linear(...)) gives, it
gives (values and gradients, against float64), and where it cannot, it says so.

* a batch whose every target is ignored: loss nan ("mean") / 0, gradients exactly 0, also
  for an infinite upstream gradient (a sum divided by 0 kept targets);
* 0 rows: mean nan, sum 0, none empty, gradients 0, eager and compiled;
* double backward (a gradient penalty): raises, never a silent number;
* torch.inference_mode: the loss, and later training calls unchanged;
* construction-time checks of LinearCrossEntropyLoss.
"""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

import inductor_ce

D, V = 8, 10
# Memory budgets: the default (row chunks) and one below ROWS_MIN rows of logits (classes).
BUDGETS = {"default": None, "classes": 64}
REDUCTIONS = ("mean", "sum", "none")


def _stock(h, w, t, b=None, **kw):
    return F.cross_entropy(F.linear(h.double(), w.double(), None if b is None else b.double()),
                           t, **kw)


def _ours(design):
    def loss(h, w, t, b=None, **kw):
        return inductor_ce.linear_cross_entropy(h, w, t, linear_bias=b,
                                                memory_budget=BUDGETS[design], **kw)
    return loss


@torch.compiler.disable
def _grads(fn, rows, target, bias, divide=1.0, **kw):
    """fn's loss and (dh, dW[, db]) for fresh leaves, float32 in, float64 for stock; the
    loss's sum divided by ``divide`` before the backward."""
    gen = torch.Generator().manual_seed(rows)
    h = torch.randn(rows, D, generator=gen).requires_grad_()
    w = torch.randn(V, D, generator=gen).requires_grad_()
    b = torch.randn(V, generator=gen).requires_grad_() if bias else None
    loss = fn(h, w, target, b, **kw)
    (loss.sum() / divide).backward()
    return loss.detach(), [x.grad for x in (h, w, b) if x is not None]


def _assert_like_stock(ours, stock):
    (loss, grads), (ref_loss, ref_grads) = ours, stock
    assert loss.shape == ref_loss.shape
    torch.testing.assert_close(loss.double(), ref_loss, equal_nan=True, rtol=1e-5, atol=1e-6)
    for g, r in zip(grads, ref_grads):
        assert not g.isnan().any(), "a nan gradient where stock's is finite"
        torch.testing.assert_close(g.double(), r.double(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("design", BUDGETS)
def test_kept_class_weights_summing_to_a_negative_number(design):
    """Class weights may be negative (F.cross_entropy takes them): "mean" divides by their
    sum over the kept rows, negative too, with and without a gradient."""
    target = torch.tensor([0, 1, 2, 3, 1, -100])
    weight = torch.tensor([0.5, -2.0, 1.0, 0.25, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    _assert_like_stock(_grads(_ours(design), 6, target, False, weight=weight),
                       _grads(_stock, 6, target, False, weight=weight.double()))
    gen = torch.Generator().manual_seed(6)
    h, w = torch.randn(6, D, generator=gen), torch.randn(V, D, generator=gen)
    with torch.no_grad():
        torch.testing.assert_close(_ours(design)(h, w, target, weight=weight).double(),
                                   _stock(h, w, target, weight=weight.double()),
                                   rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("design", BUDGETS)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("rows, bias", [(6, False), (0, True)])
def test_all_ignored_and_no_rows_eager(design, reduction, rows, bias):
    """Every target ignored (a padded micro-batch), or no rows: stock's loss (mean: nan) and
    gradients (exactly 0), never nan gradients that would poison an accumulated step."""
    t = torch.full((rows,), -100)
    _assert_like_stock(_grads(_ours(design), rows, t, bias, reduction=reduction),
                       _grads(_stock, rows, t, bias, reduction=reduction))


@pytest.mark.parametrize("design", BUDGETS)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_all_ignored_with_an_infinite_upstream_gradient(design, reduction):
    """A sum divided by a count of 0 kept targets (transformers' num_items_in_batch of an
    all-padded batch) sends g = inf back: stock's gradient of ignored rows is still exactly
    0, never g times 0 (nan, which would poison the weights), eagerly and compiled."""
    t = torch.full((6,), -100)
    torch._dynamo.reset()      # (the closures of _ours share one code object: its recompiles)
    compiled = torch.compile(_ours(design), fullgraph=True)
    for fn in (_ours(design), compiled):
        _assert_like_stock(_grads(fn, 6, t, True, divide=0.0, reduction=reduction),
                           _grads(_stock, 6, t, True, divide=0.0, reduction=reduction))


@pytest.mark.parametrize("design", BUDGETS)
def test_all_ignored_and_no_rows_compiled(design):
    """The same, compiled (fullgraph; rows dynamic, then a static 0-row graph)."""
    ours = _ours(design)
    torch._dynamo.reset()
    dynamic = torch.compile(ours, fullgraph=True, dynamic=True)
    static = torch.compile(ours, fullgraph=True, dynamic=False)
    for fn, rows in ((dynamic, 6), (dynamic, 5), (static, 0)):
        t = torch.full((rows,), -100)
        for reduction in ("mean", "sum"):
            _assert_like_stock(_grads(fn, rows, t, rows == 0, reduction=reduction),
                               _grads(_stock, rows, t, rows == 0, reduction=reduction))


@pytest.mark.parametrize("design", BUDGETS)
@pytest.mark.parametrize("kw", [dict(), dict(reduction="sum"), dict(reduction="none"),
                                dict(return_lse=True),
                                dict(reduction="none", return_entropy=True,
                                     return_accuracy=True)],
                         ids=["mean", "sum", "none", "lse", "full"])
def test_meta_tensors(design, kw):
    """On meta tensors (shape inference, a model built on "meta") the head gives the shapes
    and dtypes it gives on real ones, forward and backward, as F.linear_cross_entropy does."""
    def run(device):
        h = torch.zeros(2, 3, D, device=device, requires_grad=True)
        w = torch.zeros(V, D, device=device, requires_grad=True)
        t = torch.zeros(2, 3, dtype=torch.long, device=device)
        out = _ours(design)(h, w, t, **kw)
        outs = out if isinstance(out, tuple) else (out,)
        outs[0].sum().backward()
        return [(o.shape, o.dtype) for o in outs if o is not None] + \
            [(g.shape, g.dtype) for g in (h.grad, w.grad)]
    meta = run("meta")
    assert meta == run("cpu")
    with torch.no_grad():
        h, w = torch.zeros(4, D, device="meta"), torch.zeros(V, D, device="meta")
        t = torch.zeros(4, dtype=torch.long, device="meta")
        assert inductor_ce.linear_log_probs(h, w, t).shape == (4,)


# --- which gradients, at which precision ---------------------------------------------------------

@pytest.mark.parametrize("design", BUDGETS)
@pytest.mark.parametrize("frozen", ["weight", "input"])
def test_a_frozen_operand_gets_no_gemm_and_no_buffer(design, frozen, monkeypatch):
    """A scalar loss with the head frozen (LoRA) or the input frozen (a head on cached
    features): its gradient is not computed in the forward (one GEMM of three) nor held until
    the backward; the other gradient is float64's."""
    from inductor_ce.linear import class_chunks, head
    calls = []
    spied = {head: "_row_chunk_grads", class_chunks: "block_grads"}
    for module, name in spied.items():
        def spy(*args, _orig=getattr(module, name), **kw):
            calls.append(args[-4:-1])     # (dh, dW, db): None where not computed
            return _orig(*args, **kw)
        monkeypatch.setattr(module, name, spy)
    g = torch.Generator().manual_seed(0)
    rows = 37
    h = torch.randn(rows, D, generator=g, requires_grad=frozen != "input")
    w = torch.randn(V, D, generator=g, requires_grad=frozen != "weight")
    t = torch.randint(0, V, (rows,), generator=g)
    loss = _ours(design)(h, w, t)
    assert calls and all((dh is None) == (frozen == "input") and (dw is None) ==
                         (frozen == "weight") for dh, dw, _ in calls), calls
    saved = [x.numel() for x in loss.grad_fn.saved_tensors if x is not None]
    assert w.numel() not in saved if frozen == "weight" else h.numel() not in saved, saved
    loss.backward()
    h64, w64 = h.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    _stock(h64, w64, t).backward()
    got, ref = (w.grad, w64.grad) if frozen == "input" else (h.grad, h64.grad)
    torch.testing.assert_close(got.double(), ref, rtol=1e-5, atol=1e-6)
    assert (h.grad if frozen == "input" else w.grad) is None


def test_float16_scalar_loss_keeps_the_loss_scale():
    """float16 autocast with a GradScaler's scale: the gradients as accurate as the unfused
    step's (a gradient computed in the forward at a unit scale, dz = (p - y) / N, underflows
    float16: 9x the error at 2048 rows, 190x at 8192)."""
    g = torch.Generator().manual_seed(0)
    n, d, v = 2048, 32, 2048
    h0, w0 = torch.randn(n, d, generator=g), torch.randn(v, d, generator=g) * 0.05
    t = torch.randint(0, v, (n,), generator=g)
    h64, w64 = (x.half().double().requires_grad_() for x in (h0, w0))
    F.cross_entropy(F.linear(h64, w64), t).backward()
    errors = []
    for fn in (lambda h, w: F.cross_entropy(F.linear(h, w), t),
               lambda h, w: inductor_ce.linear_cross_entropy(h, w, t)):
        h, w = h0.clone().requires_grad_(), w0.clone().requires_grad_()
        with torch.autocast("cpu", dtype=torch.float16):
            loss = fn(h, w)
        (loss * 65536.0).backward()
        errors.append([((x.grad.double() / 65536.0 - r).norm() / r.norm()).item()
                       for x, r in ((h, h64.grad), (w, w64.grad))])
    stock, ours = errors
    assert ours[0] <= 2 * stock[0] and ours[1] <= 2 * stock[1], errors


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_float32_weight_under_autocast_sums_its_gradient_in_float32(dtype):
    """Mixed precision with float32 parameters (a Trainer's bf16=True): the ops take the
    float32 weight and cast it for their GEMMs, so dW (float32) sums the chunks' products in
    float32 at any number of chunks, by rows and by classes, for a scalar loss and
    per-token losses. (Cast before the op, dW was summed in the autocast dtype, rounded
    per chunk: 1.5x the unfused step's error at 4 row chunks, 5.5x at 64.) Against float64
    of the operands autocast's GEMMs see; no worse than the unfused autocast step, whose dW
    is rounded to the autocast dtype once."""
    g = torch.Generator().manual_seed(1)
    n, d, v = 1024, 32, 256
    h0, w0 = torch.randn(n, d, generator=g), torch.randn(v, d, generator=g) * 0.3
    b0 = torch.randn(v, generator=g) * 0.1
    t = torch.randint(0, v, (n,), generator=g)
    t[::7] = -100
    for reduction in ("mean", "none"):
        h64, w64, b64 = (x.to(dtype).double().requires_grad_() for x in (h0, w0, b0))
        ref = F.cross_entropy(F.linear(h64, w64, b64), t, reduction=reduction)
        ref.sum().backward()

        def error(fn):
            h, w, b = (x.clone().requires_grad_() for x in (h0, w0, b0))
            with torch.autocast("cpu", dtype=dtype):
                loss = fn(h, w, b)
            loss.sum().backward()
            assert w.grad.dtype == torch.float32 and b.grad.dtype == torch.float32
            return [((x.grad.double() - r.grad).norm() / r.grad.norm()).item()
                    for x, r in ((w, w64), (b, b64), (h, h64))]

        stock = error(lambda h, w, b: F.cross_entropy(F.linear(h, w, b), t, reduction=reduction))
        for budget in (None, 16 * v * 2, 64):    # one chunk, 64 row chunks, class chunks
            ours = error(lambda h, w, b: inductor_ce.linear_cross_entropy(
                h, w, t, linear_bias=b, reduction=reduction, memory_budget=budget))
            assert ours[0] <= stock[0], (reduction, budget, ours, stock)
            assert ours[2] <= 1.5 * stock[2], (reduction, budget, ours, stock)


@pytest.mark.parametrize("mode", ["auto", "compiled"])
def test_log_probs_without_gradient_equal_those_with_one(mode, monkeypatch):
    """RL: the old policy's log-probabilities (no gradient) and the new one's (with one), same
    weights: equal where the decomposition runs, and within float32 rounding where the
    compiled kernels do (every CUDA call; here forced: the call without gradient runs each
    chunk's statistics and finish as one compiled graph, whose fused arithmetic rounds 1-2
    ulps apart from the finish of the call with one), an importance ratio within 1e-6 of 1
    (bfloat16, a temperature: the temperature folded into the GEMM rounded z / T to
    bfloat16, a ratio of 0.97-1.03)."""
    from inductor_ce.eager import kernels as eager
    monkeypatch.setattr(eager, "MODE", mode)
    g = torch.Generator().manual_seed(0)
    h = torch.randn(96, 32, generator=g).bfloat16()
    w = (torch.randn(300, 32, generator=g) * 0.5).bfloat16()
    t = torch.randint(0, 300, (96,), generator=g)
    for temperature in (0.7, 1.0):
        for dtype in (torch.bfloat16, torch.float32):
            hd, wd = h.to(dtype), w.to(dtype)
            with torch.no_grad():
                old = inductor_ce.linear_log_probs(hd, wd, t, temperature=temperature)
            new = inductor_ce.linear_log_probs(hd, wd.clone().requires_grad_(), t,
                                               temperature=temperature)
            if mode == "auto":
                assert torch.equal(old, new.detach()), (temperature, dtype,
                                                        (old - new).abs().max())
            torch.testing.assert_close(old, new.detach(), rtol=1e-6, atol=0.0)


def test_float64_under_autocast_is_not_cast():
    """autocast leaves float64 alone (F.linear of float64 under a bf16 autocast is float64):
    the fused head then refuses it, naming the dtype, where it used to cast it to bfloat16
    and return a loss 2e-3 off."""
    h, w = torch.randn(4, D, dtype=torch.float64), torch.randn(V, D, dtype=torch.float64)
    t = torch.randint(0, V, (4,))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert F.linear(h, w).dtype == torch.float64
        with pytest.raises(TypeError, match="float64"):
            inductor_ce.linear_cross_entropy(h, w, t)


def test_module_takes_torchs_out_features_keyword():
    """torch.nn.LinearCrossEntropyLoss's keyword out_features: its default () accepted, a
    K-dimensional loss refused by name; a bias of another dtype named with its dtype."""
    inductor_ce.LinearCrossEntropyLoss(D, V, out_features=())
    with pytest.raises(NotImplementedError, match="out_features"):
        inductor_ce.LinearCrossEntropyLoss(D, V, out_features=(3,))
    h, w, t = torch.randn(4, D), torch.randn(V, D), torch.randint(0, V, (4,))
    with pytest.raises(ValueError, match="linear_bias .* got .*float16"):
        inductor_ce.linear_cross_entropy(h, w, t, linear_bias=torch.zeros(V).half())


@pytest.mark.parametrize("reduction", ["none", "mean"])
def test_a_frozen_input_keeps_to_the_budget(reduction, monkeypatch):
    """Class chunks with the input frozen (a head trained on cached features): the backward's
    scratch stays within the budget (per-token losses took every row in one block, rows x 64
    classes: 5 MB for a 16 KiB budget at 20000 rows), and dW is float64's."""
    from inductor_ce.linear import class_chunks
    sizes = []
    real = class_chunks.Scratch.__init__

    def spy(self, like, nbytes):
        sizes.append(nbytes)
        real(self, like, nbytes)
    monkeypatch.setattr(class_chunks.Scratch, "__init__", spy)
    g = torch.Generator().manual_seed(0)
    n, d, v, budget = 4000, 16, 97, 16 << 10
    h, w = torch.randn(n, d, generator=g), torch.randn(v, d, generator=g, requires_grad=True)
    t = torch.randint(0, v, (n,), generator=g)
    inductor_ce.linear_cross_entropy(h, w, t, reduction=reduction,
                                     memory_budget=budget).sum().backward()
    assert sizes and max(sizes) <= budget, sizes
    w64 = w.detach().double().requires_grad_()
    _stock(h, w64, t, reduction=reduction).sum().backward()
    torch.testing.assert_close(w.grad.double(), w64.grad, rtol=1e-5, atol=1e-5)
