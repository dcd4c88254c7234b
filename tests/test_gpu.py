"""CUDA subset: bf16 logits at LM scale, every option, against float64; and the structure of
the generated CUDA code. Skipped without a GPU (conftest marks ``gpu`` tests).

    INDUCTOR_CE_GPU_ROWS=4096 python -m pytest -q -m gpu tests/test_gpu.py

``INDUCTOR_CE_GPU_DEVICE=cpu`` (with small ``INDUCTOR_CE_GPU_ROWS``/``_VOCAB``) dry-runs the
eager checks on the CPU before spending GPU time.
"""
from __future__ import annotations

import os

import pytest
import torch
import torch.nn.functional as F

import inductor_ce
from _reference import (assert_grad_close, assert_loss_close, check_a_new_softcap_every_call,
                        reference)
from _codegen_checks import _logits_kernel

pytestmark = pytest.mark.gpu

T = int(os.environ.get("INDUCTOR_CE_GPU_ROWS", "4096"))
V = int(os.environ.get("INDUCTOR_CE_GPU_VOCAB", "128256"))
DEV = os.environ.get("INDUCTOR_CE_GPU_DEVICE", "cuda")
OPTIONS = {
    "plain": dict(),
    "sum_ignore": dict(reduction="sum", ignore_index=3),
    "weight_smoothing": dict(weight="w", label_smoothing=0.1),
    "zloss_softcap": dict(z_loss=1e-4, softcap=30.0),
    "everything_none": dict(weight="w", ignore_index=3, label_smoothing=0.1, z_loss=1e-4,
                            softcap=30.0, reduction="none"),
}


@pytest.fixture(scope="module")
def data():
    gen = torch.Generator(device=DEV).manual_seed(0)
    x = (torch.randn(T, V, device=DEV, generator=gen) * 2).to(torch.bfloat16)
    t = torch.randint(0, V, (T,), device=DEV, generator=gen)
    t[::7] = -100
    w = torch.rand(V, device=DEV, generator=gen) + 0.5
    return x, t, w


def _opts(name, w, t):
    """The option dict and the targets for it (ignored rows use the option's ignore_index)."""
    opts = {k: (w if v == "w" else v) for k, v in OPTIONS[name].items()}
    ignore = opts.get("ignore_index", -100)
    return opts, torch.where(t == -100, ignore, t)


def _replayed(copies: bool) -> int:
    """Calls served by CUDA-graph replays so far: the eager loss's forwards (``copies``) or
    backwards."""
    from inductor_ce.eager import loss as eager_loss
    return sum(r.replayed for r in eager_loss._REPLAYS.values() if r.copies == copies)


def _check(loss, grad, x, t, opts, g):
    xr = x.double().requires_grad_()
    ref = reference(xr, t, **opts)
    (ref if g is None else ref * g.double()).sum().backward()
    assert_loss_close(loss, ref)
    assert_grad_close(grad, xr.grad)  # float32 math, one correct rounding to bf16


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
@pytest.mark.parametrize("name", list(OPTIONS))
def test_bf16_lm_scale_against_float64(data, name, compiled):
    x, t, w = data
    opts, t = _opts(name, w, t)
    fn = lambda x, t: inductor_ce.cross_entropy(x, t, **opts)  # noqa: E731
    if compiled:
        torch._dynamo.reset()
        fn = torch.compile(fn, fullgraph=True)
    xg = x.clone().requires_grad_()
    loss = fn(xg, t)
    g = torch.randn_like(loss) if loss.dim() else None
    (loss if g is None else loss * g).sum().backward()
    _check(loss.detach(), xg.grad, x, t, opts, g)


@pytest.mark.parametrize("name", ["plain", "everything_none"])
def test_cuda_code_structure(data, name):
    from torch._inductor.utils import run_and_get_code
    x, t, w = data
    opts, t = _opts(name, w, t)
    torch._dynamo.reset()
    fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, **opts), fullgraph=True)
    xg = x.clone().requires_grad_()
    _, (fwd, bwd) = run_and_get_code(lambda: fn(xg, t).sum().backward())
    # asserts: exactly one kernel makes one pass over the logits; the forward also gathers
    # one target logit per row
    _logits_kernel(name, fwd, V, gather=True)
    _logits_kernel(name, bwd, V)


def test_nan_logit_reaches_its_row_only():
    """The chunk kernel's max is the hardware's max instruction, which ignores a nan on the
    GPU: the nan must still reach its row's loss and gradient (as in F.cross_entropy), also
    from a chunk whose other logits are all -inf; a chunk of -inf alone holds no mass."""
    gen = torch.Generator(device=DEV).manual_seed(1)
    x = (torch.randn(4, V, device=DEV, generator=gen) * 2).to(torch.bfloat16)
    t = torch.full((4,), 3, device=DEV)
    x[0, 10] = float("nan")
    x[1, V // 2:] = float("-inf")
    x[1, V - 1] = float("nan")
    x[2, V // 2:] = float("-inf")
    torch._dynamo.reset()
    fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, reduction="none"),
                       fullgraph=True)
    xg = x.clone().requires_grad_()
    loss = fn(xg, t)
    loss.sum().backward()
    xr = x.double().requires_grad_()
    ref = torch.nn.functional.cross_entropy(xr, t, reduction="none")
    ref.sum().backward()
    assert loss.isnan().tolist() == [True, True, False, False]
    assert_loss_close(loss.detach(), ref.detach())
    assert xg.grad.isnan().any(-1).tolist() == [True, True, False, False]
    assert_grad_close(xg.grad[2:], xr.grad[2:])


# --- the eager path and the fused linear + cross-entropy on the GPU ---------------------------

def test_eager_layouts_and_no_recompilation(data):
    """Eager calls run compiled kernels: strided rows, a storage offset, odd row counts,
    all against float64, with one compile per layout class and none across row counts."""
    from inductor_ce.eager import kernels as eager
    x, t, _ = data
    base = torch.cat([x[:64], x[:64]]).view(2, 64, V)
    t2 = torch.randint(0, V, (2, 63), device=DEV, generator=torch.Generator(DEV).manual_seed(2))
    cases = [(x[1:1001], t[1:1001]), (x[:777], t[:777]), (base[:, :-1], t2)]
    for logits, target in cases:
        xg = logits.clone().requires_grad_() if logits.is_contiguous() else logits.detach()
        if not logits.is_contiguous():
            leaf = base.clone().requires_grad_()
            xg = leaf[:, :-1]
        before = eager.compiles
        loss = inductor_ce.cross_entropy(xg, target, label_smoothing=0.1)
        loss.backward()
        grad = (leaf.grad[:, :-1] if not logits.is_contiguous() else xg.grad)
        _check(loss.detach(), grad, logits.detach(), target, dict(label_smoothing=0.1), None)
        assert eager.compiles - before <= 2     # a layout class: its forward and backward
    for rows in (100, 2049):   # each variant (at most FEW_ROWS rows, more) compiled once
        inductor_ce.cross_entropy(x[:rows].clone().requires_grad_(), t[:rows]).backward()
    before = eager.compiles
    for rows in (300, 1000, 3000, 4096):
        inductor_ce.cross_entropy(x[:rows].clone().requires_grad_(), t[:rows]).backward()
    assert eager.compiles == before


def test_few_rows_replay_cuda_graphs():
    """Few rows on CUDA replay CUDA graphs (graphs.py) and stay exact: each step's loss and
    gradient against float64 while the logits keep their address and change their values (a
    replay reading stale inputs, or handing out memory a later replay overwrites, fails
    here), with earlier steps' losses and gradients kept alive, two losses before one
    backward, other row counts; and the replays counted."""
    if DEV != "cuda":
        pytest.skip("CUDA graphs")
    from inductor_ce.eager import kernels as eager
    from inductor_ce.eager import loss as eager_loss
    from inductor_ce.eager import graphs
    gen = torch.Generator(device=DEV).manual_seed(5)
    rows, vocab = 256, 4096          # 2^20 logits: the compiled path's smallest call
    leaf = torch.empty(rows, vocab, device=DEV, dtype=torch.bfloat16, requires_grad=True)
    t = torch.randint(0, vocab, (rows,), device=DEV, generator=gen)
    t[::7] = -100
    opts = dict(label_smoothing=0.1, z_loss=1e-4)

    def step(scale):
        with torch.no_grad():
            leaf.copy_(torch.randn(rows, vocab, device=DEV, generator=gen) * scale)
        loss = inductor_ce.cross_entropy(leaf, t, **opts)
        loss.backward()
        grad, leaf.grad = leaf.grad, None
        return leaf.detach().clone(), loss, grad

    # Every step's outputs kept: the forward replays (its key is the logits', the targets'
    # and the row count), the backward's key changes with each step's saved statistics.
    before = _replayed(True)
    kept = [step(1 + i) for i in range(5)]
    for x, loss, grad in kept:       # checked after all steps: nothing was overwritten
        _check(loss.detach(), grad, x, t, opts, None)
    assert _replayed(True) - before >= 3
    del kept, x, loss, grad
    # A training loop's pattern (the last step's outputs freed): the backward replays too,
    # and so does the forward, into each call's own buffer.
    before, before_fwd = _replayed(False), _replayed(True)
    for i in range(6):
        x, loss, grad = step(3 - 0.3 * i)
        _check(loss.detach(), grad, x, t, opts, None)
        del x, loss, grad
    assert _replayed(False) - before >= 2 and _replayed(True) - before_fwd >= 4
    assert all(len(r.graphs) <= graphs.MAX_GRAPHS * graphs.SLOTS
               for r in eager_loss._REPLAYS.values())
    # Two losses of different logits before one backward, then other row counts.
    a = (torch.randn(rows, vocab, device=DEV, generator=gen) * 2).to(torch.bfloat16)
    b = (torch.randn(rows, vocab, device=DEV, generator=gen) * 3).to(torch.bfloat16)
    xa, xb = a.clone().requires_grad_(), b.clone().requires_grad_()
    for _ in range(3):
        xa.grad = xb.grad = None
        la, lb = inductor_ce.cross_entropy(xa, t), inductor_ce.cross_entropy(xb, t)
        (la + 2 * lb).backward()
        _check(la.detach(), xa.grad, a, t, {}, None)
        _check(lb.detach(), xb.grad, b, t, {}, torch.tensor(2.0, device=DEV))
    before = eager.compiles
    for n in (300, 300, 300, 257):
        x = a[:n].clone().requires_grad_()
        loss = inductor_ce.cross_entropy(x, t[:n])
        loss.backward()
        _check(loss.detach(), x.grad, a[:n], t[:n], {}, None)
    assert eager.compiles == before


def test_few_rows_replays_never_overwrite_what_a_caller_still_reads():
    """What a replay hands out is never overwritten by a later replay, whoever still reads
    it: a kept ``untyped_storage()`` (no tensor), and another stream with work queued on a
    loss the caller dropped after ``record_stream`` (the later steps run at once on the
    current stream while the other stream still sleeps)."""
    if DEV != "cuda":
        pytest.skip("CUDA graphs")
    gen = torch.Generator(device=DEV).manual_seed(9)
    rows, vocab = 256, 4096
    x = torch.empty(rows, vocab, device=DEV, dtype=torch.bfloat16)
    t = torch.randint(0, vocab, (rows,), device=DEV, generator=gen)

    def loss_of(scale):
        with torch.no_grad():
            x.copy_(torch.randn(rows, vocab, device=DEV, generator=gen) * scale)
        return inductor_ce.cross_entropy(x, t)

    for i in range(4):                      # the key's graphs captured, replays running
        loss_of(1.0 + i)
    before = _replayed(True)
    # A kept storage handle.
    loss = loss_of(2.0)
    expected = loss.item()
    storage = loss.untyped_storage()
    del loss
    for i in range(6):
        loss_of(0.5 + i)
    kept = torch.empty(0, device=DEV).set_(storage)    # (a view made only to read it now)
    assert kept[0].item() == expected
    del kept, storage
    # Another stream still reading a dropped loss.
    side = torch.cuda.Stream()
    loss = loss_of(3.0)
    expected = loss.item()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        torch.cuda._sleep(200_000_000)      # ~0.1 s of the side stream's time
        read = loss * 1.0
    loss.record_stream(side)
    del loss
    for i in range(6):
        loss_of(0.25 + i)
    torch.cuda.synchronize()
    assert read.item() == expected
    assert _replayed(True) - before >= 8, "the forward did not replay: the test saw nothing"


@pytest.mark.parametrize("weighted", [False, True], ids=["w=None", "w=in_place"])
def test_few_rows_replays_take_options_new_every_call(weighted):
    """Few rows on CUDA with label_smoothing, z_loss and softcap new at every step (an
    annealed smoothing, a z-loss warm-up, a softcap sweep), and class weights changed in
    place (a weighted call is kept too): the values are an input of the compiled forward
    and backward, whose CUDA graphs read them from a buffer of their own; each step's loss
    and gradient against float64 (a replay reading a stale value fails here), nothing
    compiled after the first step, and the forward and backward replayed."""
    if DEV != "cuda":
        pytest.skip("CUDA graphs")
    from inductor_ce.eager import kernels as eager
    gen = torch.Generator(device=DEV).manual_seed(12)
    rows, vocab = 256, 4096
    leaf = torch.empty(rows, vocab, device=DEV, dtype=torch.bfloat16, requires_grad=True)
    t = torch.randint(0, vocab, (rows,), device=DEV, generator=gen)
    t[::7] = -100
    w = torch.empty(vocab, device=DEV)

    before, compiled = (_replayed(True), _replayed(False)), []
    for i in range(10):
        opts = dict(label_smoothing=0.2 * (1 - i / 10), z_loss=1e-3 * (i + 1),
                    softcap=30.0 - 2.0 * i)
        with torch.no_grad():
            leaf.copy_(torch.randn(rows, vocab, device=DEV, generator=gen) * 8)
            if weighted:
                w.copy_(torch.rand(vocab, device=DEV, generator=gen) * (1 + i) + 0.1)
                opts["weight"] = w
        start = eager.compiles
        loss = inductor_ce.cross_entropy(leaf, t, **opts)
        loss.backward()
        compiled.append(eager.compiles - start)
        grad, leaf.grad = leaf.grad, None
        _check(loss.detach(), grad, leaf.detach(), t, opts, None)
        del loss, grad
    assert sum(compiled[1:]) == 0, compiled
    assert _replayed(True) - before[0] >= 6 and _replayed(False) - before[1] >= 2


def test_few_rows_graphs_captured_under_inference_mode_replay_outside_it():
    """An evaluation under inference_mode at few rows on CUDA (its graphs captured there),
    then the same calls under no_grad, the label smoothing new every call: the graphs'
    options buffer, into which a call copies a new value, is no inference tensor (a copy into
    one outside inference mode raises). Each loss against float64; the forward replayed."""
    if DEV != "cuda":
        pytest.skip("CUDA graphs")
    gen = torch.Generator(device=DEV).manual_seed(13)
    rows, vocab = 64, 4096
    x = (torch.randn(rows, vocab, device=DEV, generator=gen) * 4).to(torch.bfloat16)
    t = torch.randint(0, vocab, (rows,), device=DEV, generator=gen)
    before = _replayed(True)
    for i, mode in enumerate([torch.inference_mode] * 3 + [torch.no_grad] * 3):
        opts = dict(label_smoothing=0.1 + 0.01 * i)
        with mode():
            loss = inductor_ce.cross_entropy(x, t, **opts)
        assert_loss_close(loss, reference(x.double(), t, **opts))
    assert _replayed(True) - before >= 3


@pytest.mark.parametrize("op", ["cross_entropy", "linear_cross_entropy"])
def test_softcap_new_every_call_compiles_once(op):
    """A softcap new at every call on the GPU, eagerly (nothing compiled after the first
    call) and under torch.compile (one recompile, at the second value, then none): the value
    reaches the kernels as an argument (a CPU 0-d tensor, a scalar argument of the GPU
    kernels); each call's loss (and for cross_entropy its gradient) against float64."""
    gen = torch.Generator(device=DEV).manual_seed(21)
    rows, vocab, hidden = (2048, 32000, 256) if DEV == "cuda" else (64, 1000, 32)
    h = torch.randn(rows, hidden, device=DEV, generator=gen).to(torch.bfloat16)
    w = (torch.randn(vocab, hidden, device=DEV, generator=gen) * 0.5).to(torch.bfloat16)
    x0 = (h @ w.T).detach() if op == "cross_entropy" else h
    t = torch.randint(0, vocab, (rows,), device=DEV, generator=gen)
    t[::7] = -100

    def call(x, cap):
        if op == "cross_entropy":
            return inductor_ce.cross_entropy(x, t, softcap=cap)
        return inductor_ce.linear_cross_entropy(x, w, t, softcap=cap)

    def check(cap, loss, x):
        if op == "cross_entropy":
            _check(loss.detach(), x.grad, x0, t, dict(softcap=cap), None)
            return
        # at most twice the error of the unfused loss, as test_linear_against_float64
        want = reference(h.double() @ w.double().T, t, softcap=cap)
        unfused = inductor_ce.cross_entropy(h @ w.T, t, softcap=cap)
        err, err_unfused = (abs(v.item() - want.item()) for v in (loss, unfused))
        assert err <= 2 * err_unfused + 1e-6 * abs(want.item()), (cap, err, err_unfused)

    check_a_new_softcap_every_call(call, x0, (30.0, 20.0, 15.0, 50.0), check)


def test_few_rows_replayed_loss_takes_in_place_division():
    """A replayed few-row loss (CUDA graphs hand out tensors on their buffer) divided in
    place, as gradient accumulation does (`loss /= steps`), then backpropagated: the
    gradient is the divided loss's, against float64, at every step (views of the buffer
    raised there)."""
    if DEV != "cuda":
        pytest.skip("CUDA graphs")
    gen = torch.Generator(device=DEV).manual_seed(17)
    leaf = torch.empty(8, 32000, device=DEV, dtype=torch.bfloat16, requires_grad=True)
    t = torch.randint(0, 32000, (8,), device=DEV, generator=gen)
    before, steps = _replayed(True), []
    for _ in range(5):
        with torch.no_grad():
            leaf.copy_(torch.randn(8, 32000, device=DEV, generator=gen) * 2)
        loss = inductor_ce.cross_entropy(leaf, t)
        loss /= 4
        loss.backward()
        steps.append([v.to("cpu", copy=True) for v in (leaf.detach(), loss.detach(),
                                                        leaf.grad)])
        leaf.grad = None
        del loss
    assert _replayed(True) - before >= 2
    for x, loss, grad in steps:     # (references after the steps: see the test below)
        xr = x.double().requires_grad_()
        ref = F.cross_entropy(xr, t.cpu()) / 4
        ref.backward()
        assert_loss_close(loss, ref)
        assert_grad_close(grad, xr.grad)


@pytest.mark.parametrize("rows", [3, 1])
def test_few_rows_replays_with_entropy_and_accuracy(rows):
    """Few rows on CUDA asking for the entropy and the accuracy (a trainer's logged metrics,
    an entropy bonus) replay CUDA graphs as the plain loss does (the bool accuracy shares
    the float32 outputs' buffer): each step's loss, entropy, accuracy and gradient of
    loss - 0.1 entropy against float64 on new logits (a replay handing out stale outputs or
    reading a stale upstream gradient fails here), and both replayed. The steps allocate on
    the GPU as a training loop does, the same every step (the references are computed on
    the CPU after them): the graphs' keys hold addresses, among them those of the entropy's
    upstream gradient, a new tensor every step, which a steady loop gets at the same
    addresses from the caching allocator."""
    if DEV != "cuda":
        pytest.skip("CUDA graphs")
    from _reference import full_reference
    gen = torch.Generator(device=DEV).manual_seed(13)
    vocab = 128256
    leaf = torch.empty(rows, vocab, device=DEV, dtype=torch.bfloat16, requires_grad=True)
    t = torch.randint(0, vocab, (rows,), device=DEV, generator=gen)

    before, steps = (_replayed(True), _replayed(False)), []
    for i in range(6):
        with torch.no_grad():
            leaf.copy_(torch.randn(rows, vocab, device=DEV, generator=gen) * 2)
            # Row 0's target a largest logit (accuracy True) at odd steps, the smallest else.
            leaf[0, t[0]] = leaf[0].max() + 1.0 if i % 2 else leaf[0].min() - 1.0
        out = inductor_ce.cross_entropy(leaf, t, return_entropy=True, return_accuracy=True)
        (out.loss - 0.1 * out.entropy.sum()).backward()
        kept = (leaf.detach(), out.loss.detach(), out.entropy.detach(), out.accuracy, leaf.grad)
        steps.append([v.to("cpu", copy=True) for v in kept])
        leaf.grad = None
        del out, kept
    assert _replayed(True) - before[0] >= 4 and _replayed(False) - before[1] >= 3
    for i, (x, loss, entropy, accuracy, grad) in enumerate(steps):
        xr = x.double().requires_grad_()
        ref_loss, ref_entropy, ref_accuracy = full_reference(xr, t.cpu())
        (ref_loss.mean() - 0.1 * ref_entropy.sum()).backward()
        assert_loss_close(loss, ref_loss.mean())
        torch.testing.assert_close(entropy.double(), ref_entropy, rtol=1e-5, atol=1e-6)
        assert accuracy.dtype == torch.bool and torch.equal(accuracy, ref_accuracy)
        assert bool(accuracy[0]) == bool(i % 2)
        assert_grad_close(grad, xr.grad)


def test_few_rows_replays_per_row_gradients():
    """Few rows on CUDA with per-row upstream gradients (reduction "none" and the lse: new
    tensors every step, one of them a broadcast scalar's): the backward replays, and each
    step's losses, lse and gradient match float64 (a replay reading the last step's
    gradients fails here). References on the CPU after the steps, as in the test above."""
    if DEV != "cuda":
        pytest.skip("CUDA graphs")
    gen = torch.Generator(device=DEV).manual_seed(14)
    rows, vocab = 3, 128256
    leaf = torch.empty(rows, vocab, device=DEV, dtype=torch.bfloat16, requires_grad=True)
    t = torch.randint(0, vocab, (rows,), device=DEV, generator=gen)
    before, steps = _replayed(False), []
    for i in range(6):
        with torch.no_grad():
            leaf.copy_(torch.randn(rows, vocab, device=DEV, generator=gen) * 2)
        u = torch.randn(rows, device=DEV, generator=gen)
        loss, lse = inductor_ce.cross_entropy(leaf, t, reduction="none", return_lse=True)
        ((loss * u).sum() + (0.5 + i) * lse.mean()).backward()
        kept = (leaf.detach(), u, loss.detach(), lse.detach(), leaf.grad)
        steps.append([v.to("cpu", copy=True) for v in kept])
        leaf.grad = None
        del loss, lse, kept
    assert _replayed(False) - before >= 3
    for i, (x, u, loss, lse, grad) in enumerate(steps):
        xr = x.double().requires_grad_()
        ref, ref_lse = reference(xr, t.cpu(), reduction="none", return_lse=True)
        ((ref * u.double()).sum() + (0.5 + i) * ref_lse.mean()).backward()
        assert_loss_close(loss, ref)
        torch.testing.assert_close(lse.double(), ref_lse, rtol=1e-6, atol=0)
        assert_grad_close(grad, xr.grad)


@pytest.mark.parametrize("rows", [3, 2048])
@pytest.mark.parametrize("op", ["cross_entropy", "linear_cross_entropy"])
def test_compiled_autograd_steps(op, rows):
    """TorchTitan's compiled autograd (maybe_enable_compiled_autograd: fullgraph, dynamic)
    around eager steps (3 rows: the forward replays a CUDA graph; either way the backward is
    traced and runs the ops, lowered into the compiled backward graph): each step's gradients
    within twice the plain backward's error against float64, new values every step."""
    from torch._dynamo.utils import maybe_enable_compiled_autograd
    gen = torch.Generator(device=DEV).manual_seed(23)
    vocab, hidden = (32000, 256) if DEV == "cuda" else (3000, 32)
    w0 = (torch.randn(vocab, hidden, device=DEV, generator=gen) * 0.05).to(torch.bfloat16)
    t = torch.randint(0, vocab, (rows,), device=DEV, generator=gen)
    t[1] = -100
    torch._dynamo.reset()
    for _ in range(3):
        h0 = torch.randn(rows, hidden, device=DEV, generator=gen).to(torch.bfloat16)
        grads = {}
        for mode in ("plain", "compiled_autograd", "float64"):
            dtype = torch.float64 if mode == "float64" else torch.bfloat16
            h, w = (p.to(dtype, copy=True).requires_grad_() for p in (h0, w0))
            if mode == "float64":
                loss = F.cross_entropy(h @ w.T, t)
            elif op == "cross_entropy":
                loss = inductor_ce.cross_entropy(h @ w.T, t)
            else:
                loss = inductor_ce.linear_cross_entropy(h, w, t)
            with maybe_enable_compiled_autograd(mode == "compiled_autograd"):
                loss.backward()
            grads[mode] = (h.grad.double(), w.grad.double())
        for i, what in enumerate(("dh", "dW")):
            ref = grads["float64"][i]
            err = {k: ((g[i] - ref).norm() / ref.norm()).item() for k, g in grads.items()}
            assert err["compiled_autograd"] <= 2 * err["plain"] + 1e-6, (what, err)
    torch._dynamo.reset()


def test_few_rows_inside_a_users_cuda_graph():
    """A caller's own CUDA graph of a no-grad loss (after a warm-up call) records our kernels
    (the loss neither captures nor replays graphs of its own inside it), and replaying the
    caller's graph recomputes the loss from the logits' new values."""
    if DEV != "cuda":
        pytest.skip("CUDA graphs")
    gen = torch.Generator(device=DEV).manual_seed(6)
    x = (torch.randn(512, 4096, device=DEV, generator=gen) * 2).to(torch.bfloat16)
    t = torch.randint(0, 4096, (512,), device=DEV, generator=gen)
    with torch.no_grad():
        for _ in range(3):                  # compile, then (ours) capture and replay
            inductor_ce.cross_entropy(x, t)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=side):
            loss = inductor_ce.cross_entropy(x, t)
        x.mul_(1.5)
        graph.replay()
        torch.cuda.synchronize()
    assert_loss_close(loss, reference(x.double(), t))


def test_no_host_sync(monkeypatch):
    """Eager cross_entropy and the fused head (scalar and per-row, by rows and by classes)
    never make the host wait for the GPU."""
    if DEV != "cuda":
        pytest.skip("CUDA's sync debug mode")
    gen = torch.Generator(device=DEV).manual_seed(3)
    h = torch.randn(1024, 256, device=DEV, generator=gen, dtype=torch.bfloat16)
    w = (torch.randn(8192, 256, device=DEV, generator=gen) * 0.05).to(torch.bfloat16)
    t = torch.randint(0, 8192, (1024,), device=DEV, generator=gen)
    def head(budget, reduction):
        return lambda: inductor_ce.linear_cross_entropy(
            h.requires_grad_(), w.requires_grad_(), t, memory_budget=budget,
            reduction=reduction).sum()
    # 256 rows of logits (row chunks from 256 rows here); 1024 classes of all rows (128 rows
    # of logits: classes)
    rows, classes = 256 * 8192 * 2, 1024 * 1024 * 2
    calls = [lambda: inductor_ce.cross_entropy((h @ w.t()).requires_grad_(), t)] + [
        head(budget, reduction) for budget in (rows, classes) for reduction in ("mean", "none")]
    from inductor_ce.linear import plan
    monkeypatch.setattr(plan, "ROWS_MIN", 256)
    monkeypatch.setattr(plan, "ROWS_MIN_PER_ROW", 256)
    monkeypatch.setattr(plan, "CLASSES_MIN_HIDDEN", 0)    # (class chunks at D = 256)
    assert plan.by_classes(8192, 256, 2, classes) and not plan.by_classes(8192, 256, 2, rows)
    for call in calls:
        call().backward()  # first calls compile (and may synchronize)
        torch.cuda.synchronize()
        torch.cuda.set_sync_debug_mode("error")
        try:
            call().backward()
        finally:
            torch.cuda.set_sync_debug_mode("default")


LINEAR_OPTIONS = {
    "plain": dict(),
    "everything": dict(weight="w", ignore_index=3, label_smoothing=0.1, z_loss=1e-4,
                       softcap=30.0, reduction="sum"),
    "none_lse": dict(reduction="none", return_lse=True, softcap=30.0),
}


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
@pytest.mark.parametrize("chunking", ["rows", "classes"])
@pytest.mark.parametrize("name", list(LINEAR_OPTIONS))
def test_linear_against_float64(name, chunking, compiled, monkeypatch):
    """bf16 h, W: our errors against float64 (of the same bf16 values) are at most twice those
    of our unfused path (whose logits are rounded to bf16 once, as ours are), loss and both
    gradients, with a bias and several chunks of rows, or of classes (ROWS_MIN and
    CLASSES_MIN_HIDDEN lowered)."""
    from inductor_ce.linear import plan
    gen = torch.Generator(device=DEV).manual_seed(4)
    n, d, v = (2048, 512, 40000) if DEV == "cuda" else (64, 32, 3000)
    h = torch.randn(n, d, device=DEV, generator=gen, dtype=torch.bfloat16)
    w = (torch.randn(v, d, device=DEV, generator=gen) * 0.05).to(torch.bfloat16)
    b = (torch.randn(v, device=DEV, generator=gen) * 0.1).to(torch.bfloat16)
    t = torch.randint(0, v, (n,), device=DEV, generator=gen)
    opts = dict(LINEAR_OPTIONS[name])
    if opts.get("weight") == "w":
        opts["weight"] = torch.rand(v, device=DEV, generator=gen) + 0.5
    t = torch.where(torch.arange(n, device=DEV) % 7 == 0, opts.get("ignore_index", -100), t)
    lse = opts.pop("return_lse", False)
    # several chunks, a ragged one: n / 4 + 12 rows, or v / 7 + 5 classes of all rows
    monkeypatch.setattr(plan, "ROWS_MIN", n // 4)
    monkeypatch.setattr(plan, "ROWS_MIN_PER_ROW", n // 4)
    monkeypatch.setattr(plan, "CLASSES_MIN_HIDDEN", 0)
    budget = ((n // 4 + 12) * v if chunking == "rows" else (v // 7 + 5) * n) * 2

    def ours(h, w, b):
        return inductor_ce.linear_cross_entropy(h, w, t, linear_bias=b, memory_budget=budget,
                                                return_lse=lse, **opts)

    def unfused(h, w, b):
        return inductor_ce.cross_entropy(torch.nn.functional.linear(h, w, b), t,
                                         return_lse=lse, **opts)

    def run(fn, dtype):
        leaves = [p.to(dtype).requires_grad_() for p in (h, w, b)]
        if dtype == torch.float64:
            z = torch.nn.functional.linear(*leaves)
            out = reference(z, t, return_lse=lse, **opts)
        else:
            out = (torch.compile(fn) if compiled and fn is ours else fn)(*leaves)
        loss = out[0] + out[1].sum() if lse else out
        g = torch.ones_like(loss) if loss.dim() == 0 else \
            torch.linspace(-1, 1, loss.numel(), device=DEV).view(loss.shape)
        (loss * g.to(loss.dtype)).sum().backward()
        return [loss.detach().double()] + [p.grad.double() for p in leaves]

    ref, got, base = run(None, torch.float64), run(ours, torch.bfloat16), run(unfused,
                                                                              torch.bfloat16)
    for what, r, a, u in zip(("loss", "dh", "dW", "db"), ref, got, base):
        err, err_unfused = ((a - r).norm() / r.norm()).item(), ((u - r).norm() / r.norm()).item()
        assert err <= 2 * err_unfused + 1e-6, (what, err, err_unfused)


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
@pytest.mark.parametrize("reduction", ["mean", "none"])
@pytest.mark.parametrize("mib", [4, 512], ids=["classes", "rows"])
def test_linear_peak_is_the_gradients_and_the_budget(mib, reduction, compiled):
    """A step's peak above its inputs is dh + dW, the memory budget (4 MiB here, 32 rows of
    logits: chunks of classes; 512 MiB: of 4096 rows) and per-row vectors: no float32 buffer
    of dh's size, no second dh or dW. Without a gradient, the per-row losses: the budget and
    vectors."""
    if DEV != "cuda":
        pytest.skip("CUDA's memory statistics")
    gen = torch.Generator(device=DEV).manual_seed(6)
    n, d, v = 8192, 1024, 65536
    h = torch.randn(n, d, device=DEV, generator=gen, dtype=torch.bfloat16)
    w = (torch.randn(v, d, device=DEV, generator=gen) * 0.05).to(torch.bfloat16)
    t = torch.randint(0, v, (n,), device=DEV, generator=gen)
    budget = mib << 20
    from inductor_ce.linear import plan
    assert plan.by_classes(v, d, 2, budget) == (mib == 4)

    def step(h, w, t):
        return inductor_ce.linear_cross_entropy(h, w, t, memory_budget=budget,
                                                reduction=reduction)

    fn = torch.compile(step) if compiled else step
    for grad in (True, False):
        for _ in range(2):   # the first call compiles
            hh, ww = h.clone().requires_grad_(grad), w.clone().requires_grad_(grad)
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
            base = torch.cuda.memory_allocated()
            loss = fn(hh, ww, t)
            if grad:
                loss.sum().backward()
            torch.cuda.synchronize()
            peak = torch.cuda.max_memory_allocated() - base
            del loss
        grads = (n * d + v * d) * 2 if grad else 0
        assert peak <= grads + budget + (2 << 20), (grad, peak / 2**20, grads / 2**20, mib)


def test_scale_kernel_exact():
    """The scalar loss's in-place scaling by the upstream g (scaling.py) on CUDA: bf16
    products rounded once to nearest, exactly ATen's float32 product rounded; zeros kept
    whatever g; x untouched where g == 1; ragged sizes."""
    from inductor_ce.linear import scaling
    from inductor_ce.op.ce import times
    gen = torch.Generator(device=DEV).manual_seed(5)
    for n in (1, scaling.BLOCK - 1, 3 * scaling.BLOCK + 17, 1 << 22):
        x = (torch.randn(n, device=DEV, generator=gen) * 3).to(torch.bfloat16)
        x[1::3] = 0.0
        for gv in (1.0, 0.37, -2.5, 0.0, float("nan"), float("inf")):
            y = x.clone()
            torch.ops.inductor_ce.scale_(y, torch.tensor(gv, device=DEV))
            want = x if gv == 1.0 else times(x.float(), gv).to(torch.bfloat16)
            torch.testing.assert_close(y, want, rtol=0, atol=0, equal_nan=True)


@pytest.mark.parametrize("rows", [3, 1])
def test_small_eager_calls_on_cuda_run_the_compiled_kernels(monkeypatch, rows):
    """On CUDA the eager path compiles at any size (auto mode): a call of 3 x 128256 logits,
    or of one row, runs our compiled kernels, not the decomposition, and is exact."""
    if DEV != "cuda":
        pytest.skip("the threshold applies off CUDA")
    from inductor_ce.eager import kernels as eager
    monkeypatch.setattr(eager, "MODE", "auto")
    gen = torch.Generator(device=DEV).manual_seed(11)
    x = (torch.randn(rows, 128256, device=DEV, generator=gen) * 2).to(torch.bfloat16)
    t = torch.randint(0, 128256, (rows,), device=DEV, generator=gen)
    monkeypatch.setattr(eager, "_CACHE", {})    # (compiled here, whatever other tests did)
    opts = dict(label_smoothing=0.03)
    before = eager.compiles
    leaf = x.clone().requires_grad_()
    loss = inductor_ce.cross_entropy(leaf, t, **opts)
    loss.backward()
    _check(loss.detach(), leaf.grad, x, t, opts, None)
    assert eager.compiles > before, "the decomposition ran"


# --- the full form: temperature, entropy, accuracy --------------------------------------------

@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_full_form_against_float64(compiled):
    """bf16 logits, 2048 x V, temperature 0.8 and a softcap: loss, entropy, accuracy and
    the gradient of loss - 0.1 entropy against float64, eager and compiled."""
    from _reference import full_reference
    g = torch.Generator(device=DEV).manual_seed(3)
    rows = min(T, 2048)
    x = (torch.randn(rows, V, device=DEV, generator=g) * 3).bfloat16()
    t = torch.randint(0, V, (rows,), device=DEV, generator=g)
    t[::7] = -100
    t[1] = int(x[1].argmax())
    kw = dict(temperature=0.8, softcap=30.0)

    def fn(x, t):
        out = inductor_ce.cross_entropy(x, t, reduction="none", return_entropy=True,
                                        return_accuracy=True, **kw)
        return out.loss, out.entropy, out.accuracy
    if compiled:
        fn = torch.compile(fn, fullgraph=True)
    leaf = x.clone().requires_grad_()
    loss, entropy, accuracy = fn(leaf, t)
    (loss.sum() - 0.1 * entropy.sum()).backward()
    xr = x.double().requires_grad_()
    ref = full_reference(xr, t, **kw)
    (ref[0].sum() - 0.1 * ref[1].sum()).backward()
    assert_loss_close(loss, ref[0])
    err = (entropy.double() - ref[1]).abs()
    assert bool((err <= 1e-5 * ref[1] + 1e-6).all()), err.max()
    assert torch.equal(accuracy, ref[2]) and bool(accuracy[1])
    assert_grad_close(leaf.grad, xr.grad)


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_linear_full_form_against_float64(reduction):
    """The fused head's full form on CUDA (bf16 h and W), temperature 0.7, loss - 0.1
    entropy: loss and entropy within 1e-5 of the unfused full form of the same bf16 logits
    (the fused chunks' GEMM is the same product), the accuracy equal but where bf16 logits
    tie, dh and dW no further from float64 than 2x the unfused step's (Frobenius)."""
    from _reference import full_reference
    g = torch.Generator(device=DEV).manual_seed(4)
    rows, vocab = min(T, 1024), min(V, 32000)
    h = torch.randn(rows, 512, device=DEV, generator=g).bfloat16()
    w = (torch.randn(vocab, 512, device=DEV, generator=g) * 0.05).bfloat16()
    t = torch.randint(0, vocab, (rows,), device=DEV, generator=g)
    t[::5] = -100
    kw = dict(reduction=reduction, temperature=0.7, return_entropy=True, return_accuracy=True)
    out = []
    for fused in (True, False):
        hs, ws = h.clone().requires_grad_(), w.clone().requires_grad_()
        r = (inductor_ce.linear_cross_entropy(hs, ws, t, **kw) if fused
             else inductor_ce.cross_entropy(hs @ ws.T, t, **kw))
        (r.loss.sum() - 0.1 * r.entropy.sum()).backward()
        out.append((r.loss.detach(), r.entropy.detach(), r.accuracy, hs.grad, ws.grad))
    h64, w64 = h.double().requires_grad_(), w.double().requires_grad_()
    loss64, entropy64, _ = full_reference(h64 @ w64.T, t, temperature=0.7)
    keep = t != -100
    loss64 = loss64[keep].mean() if reduction == "mean" else loss64
    (loss64.sum() - 0.1 * entropy64.sum()).backward()
    (lf, ef, af, dhf, dwf), (lu, eu, au, dhu, dwu) = out
    torch.testing.assert_close(lf, lu, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(ef, eu, rtol=1e-5, atol=1e-5)
    assert (af != au).sum() <= 2
    rel = lambda a, b: ((a.double() - b).norm() / b.norm()).item()  # noqa: E731
    assert rel(dhf, h64.grad) <= 2 * rel(dhu, h64.grad) + 1e-6
    assert rel(dwf, w64.grad) <= 2 * rel(dwu, w64.grad) + 1e-6


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_linear_float32_weight_under_autocast(compiled):
    """bf16 autocast with float32 h and W on CUDA: the ops cast W for their GEMMs and sum dW
    in float32 (cuBLAS's float32 output: ``linear/chunks.py``'s add_product), by rows (one
    chunk, 64 chunks) and by classes, a scalar loss and per-token losses: dW float32 and no
    further from float64 (of the bf16-rounded operands) than the unfused autocast step's,
    whose dW is rounded to bf16 once; dh within 1.5x of it."""
    g = torch.Generator(device=DEV).manual_seed(5)
    n, d, v = 2048, 256, 8192
    h0 = torch.randn(n, d, device=DEV, generator=g)
    w0 = torch.randn(v, d, device=DEV, generator=g) * 0.05
    t = torch.randint(0, v, (n,), device=DEV, generator=g)
    t[::7] = -100
    ce = torch.compile(inductor_ce.linear_cross_entropy) if compiled \
        else inductor_ce.linear_cross_entropy
    for reduction in ("mean", "none"):
        h64, w64 = (x.bfloat16().double().requires_grad_() for x in (h0, w0))
        F.cross_entropy(h64 @ w64.T, t, reduction=reduction).sum().backward()

        def error(fn):
            h, w = h0.clone().requires_grad_(), w0.clone().requires_grad_()
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = fn(h, w)
            loss.sum().backward()
            assert w.grad.dtype == torch.float32
            return [((x.grad.double() - r.grad).norm() / r.grad.norm()).item()
                    for x, r in ((w, w64), (h, h64))]

        stock = error(lambda h, w: F.cross_entropy(F.linear(h, w), t, reduction=reduction))
        budgets = (None, 32 * v * 2) if compiled else (None, 32 * v * 2, 1 << 16)
        for budget in budgets:
            ours = error(lambda h, w: ce(h, w, t, reduction=reduction, memory_budget=budget))
            assert ours[0] <= stock[0] * 1.01, (reduction, budget, ours, stock)
            assert ours[1] <= 1.5 * stock[1], (reduction, budget, ours, stock)


# --- probability targets: soft_stats / soft_grad's lowerings ---------------------------------

@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
@pytest.mark.parametrize("options", ["plain", "all"])
def test_probability_targets_against_float64(compiled, options):
    """bf16 logits and probabilities at LM scale (T x V of this module, 2048 rows at most),
    every option or none: loss, and the gradients of logits and targets, against float64."""
    import test_soft_targets as st
    gen = torch.Generator(device=DEV).manual_seed(5)
    n = min(T, 2048)
    x = (torch.randn(n, V, device=DEV, generator=gen) * 2).bfloat16().requires_grad_()
    p = torch.softmax(torch.randn(n, V, device=DEV, generator=gen) * 3, -1).bfloat16()
    p.requires_grad_()
    opts = {} if options == "plain" else dict(
        weight=torch.rand(V, device=DEV, generator=gen) + 0.5, label_smoothing=0.1,
        z_loss=1e-4, softcap=30.0)
    fn = lambda x, p: inductor_ce.cross_entropy(x, p, reduction="none", **opts)  # noqa: E731
    if compiled:
        fn = torch.compile(fn, fullgraph=True)
    g = torch.rand(n, device=DEV, generator=gen) + 0.5
    loss = fn(x, p)
    (loss * g).sum().backward()
    x64, p64 = x.detach().double().requires_grad_(), p.detach().double().requires_grad_()
    ref = st.reference(x64, p64, reduction="none", **opts)
    (ref * g.double()).sum().backward()
    assert_loss_close(loss.detach(), ref.detach())
    assert_grad_close(x.grad, x64.grad)
    assert_grad_close(p.grad, p64.grad)


def _smoothing_case(rows, seed):
    """Few rows (the CUDA-graph path), the target well ahead: the smoothing moves the loss."""
    g = torch.Generator(device=DEV).manual_seed(seed)
    t = torch.randint(0, 4096, (rows,), device=DEV, generator=g)
    x = torch.randn(rows, 4096, device=DEV, generator=g)
    x[torch.arange(rows, device=DEV), t] += 8.0
    return x, t


def _smoothed_reference(x, t, eps):
    return torch.nn.functional.cross_entropy(x.double(), t, label_smoothing=eps).item()


def test_replays_on_two_streams_read_their_own_options():
    """One compiled loss replayed on two streams with two smoothings: a replay queued on a
    busy stream (a long kernel ahead of it) must read its own options, not what the other
    stream's later call copied (one options buffer for every stream did)."""
    x1, t1 = _smoothing_case(64, 1)
    x2, t2 = _smoothing_case(64, 2)
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    torch.cuda.synchronize()

    def step(busy):
        with torch.cuda.stream(s1):
            if busy:
                torch.cuda._sleep(200_000_000)
            a = inductor_ce.cross_entropy(x1, t1, label_smoothing=0.1)
        with torch.cuda.stream(s2):
            b = inductor_ce.cross_entropy(x2, t2, label_smoothing=0.2)
        torch.cuda.synchronize()
        return a.item(), b.item()

    with torch.no_grad():
        for _ in range(3):     # first calls, captures, replays
            step(False)
        a, b = step(True)
    assert a == pytest.approx(_smoothed_reference(x1, t1, 0.1), rel=1e-5)
    assert b == pytest.approx(_smoothed_reference(x2, t2, 0.2), rel=1e-5)


def test_user_graphs_capturing_the_loss_own_their_options():
    """Two CUDA graphs of the caller's (one per batch size) capturing the same compiled loss
    with the same smoothing, the second replayed first: each reads options it owns (an
    options tensor made during the first capture and cached was read by the second graph
    before any replay had written it)."""
    x1, t1 = _smoothing_case(64, 3)
    x2, t2 = _smoothing_case(128, 4)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.no_grad():
        with torch.cuda.stream(side):
            for _ in range(3):
                inductor_ce.cross_entropy(x1, t1, label_smoothing=0.1)
                inductor_ce.cross_entropy(x2, t2, label_smoothing=0.1)
        torch.cuda.synchronize()
        g1, g2 = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
        with torch.cuda.graph(g1):
            l1 = inductor_ce.cross_entropy(x1, t1, label_smoothing=0.1)
        with torch.cuda.graph(g2):
            l2 = inductor_ce.cross_entropy(x2, t2, label_smoothing=0.1)
        g2.replay()
        torch.cuda.synchronize()
        first = l2.item()
        g1.replay()
        torch.cuda.synchronize()
    assert first == pytest.approx(_smoothed_reference(x2, t2, 0.1), rel=1e-5)
    assert l1.item() == pytest.approx(_smoothed_reference(x1, t1, 0.1), rel=1e-5)
