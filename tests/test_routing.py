"""inductor_ce.enable(): torch.compile routes a model's own cross-entropy through our op.

Every compiled result is checked against stock PyTorch run in float64 (eager) or against
stock torch.compile from the same initial weights; whether a call was routed is read from
the code Inductor generated ("ce_fwd" appears in it) and, for what the pass did, from
Dynamo's graphs after the pass (``_run_routed_graph``). Cache hits skip the pass: tests that
watch it run turn the compile caches off.
Compiles are slow on a 2-core machine: models are tiny and the GPT runs are shared.
"""
import copy
import importlib.util
import re
import warnings

import pytest
import torch
import torch.nn.functional as F

import inductor_ce
from inductor_ce.codegen import reading as _codegen
from inductor_ce.demo import gpt
from inductor_ce.integrations import routing
from inductor_ce._inductor import cache, capture, passes
from _reference import assert_grad_close, assert_loss_close

CFG = gpt.GPTConfig(vocab_size=320, block_size=16, n_layer=1, n_head=2, n_embd=32)
STEPS = 3


@pytest.fixture(autouse=True)
def _routing_off():
    inductor_ce.disable()
    torch.compiler.reset()
    yield
    inductor_ce.disable()
    torch.compiler.reset()


def _compile_and_run(fn, *args):
    """(result, forward+backward code) of torch.compile(fn)(*args), compiled afresh."""
    result, codes = capture.generated_code(lambda: torch.compile(fn)(*args))
    return result, "\n".join(codes)


def _loss_and_grad(fn, logits, *args):
    x = logits.detach().clone().requires_grad_()
    loss = fn(x, *args)
    loss.sum().backward()
    return loss, x.grad


def _train_gpt(routed: bool, model: gpt.GPT, data):
    (inductor_ce.enable if routed else inductor_ce.disable)()
    compiled = torch.compile(copy.deepcopy(model))
    losses, codes = capture.generated_code(gpt.train, compiled, data)
    return losses, codes


@pytest.fixture(scope="module")
def gpt_runs():
    torch.manual_seed(0)
    model = gpt.GPT(CFG)
    data = gpt.batches(CFG, batch_size=4, steps=STEPS)
    runs = {routed: _train_gpt(routed, model, data) for routed in (False, True)}
    inductor_ce.disable()
    # float64 eager reference of the first step's loss (the same initial weights and batch)
    idx, labels = data[0]
    ref = model.double()(idx, labels, (labels[:, 1:] != -100).sum()).item()
    return runs, ref


def test_gpt_loss_goes_through_our_op_and_matches_stock(gpt_runs):
    (stock_losses, stock_codes), (our_losses, our_codes) = gpt_runs[0][False], gpt_runs[0][True]
    assert _codegen.uses_fused_op(our_codes[0]) and not _codegen.uses_fused_op(stock_codes[0])
    assert len(our_losses) == STEPS
    torch.testing.assert_close(torch.tensor(our_losses), torch.tensor(stock_losses),
                               rtol=1e-5, atol=0)
    ref = gpt_runs[1]
    assert abs(our_losses[0] - ref) <= 1e-6 * abs(ref)
    assert abs(our_losses[0] - ref) <= abs(stock_losses[0] - ref) + 1e-7 * abs(ref)


def _lowering_missing() -> str:
    if importlib.util.find_spec("inductor_ce.lowering") is None:
        return "inductor_ce.lowering is not importable yet: the op still runs its decomposition"
    if importlib.util.find_spec("triton") is None:
        return "triton is not installed: no Triton code to count loads in"
    return ""


@pytest.mark.skipif(bool(_lowering_missing()), reason=_lowering_missing())
def test_gpt_forward_reads_logits_once_in_triton_code():
    torch.manual_seed(0)
    model = gpt.GPT(CFG)
    idx, labels = gpt.batches(CFG, batch_size=4, steps=1)[0]
    num_items = (labels[:, 1:] != -100).sum()
    reads = {}
    for routed in (False, True):
        # (the loss on the logits: with the LM head fused there are no logits to read)
        inductor_ce.enable(fuse_linear=False) if routed else inductor_ce.disable()
        compiled = torch.compile(copy.deepcopy(model))
        _, codes = capture.generated_code(compiled, idx, labels, num_items, backend="triton")
        reads[routed] = _codegen.logits_reads(codes[0], CFG.vocab_size)
    # ours: one pass, plus the per-row gather of the target logit
    assert reads[True].passes and sum(reads[True].passes.values()) == 1, reads[True]
    assert sum(reads[True].gathers.values()) == 1 and not reads[True].extern, reads[True]
    assert reads[False].loads >= 2, reads[False]   # stock: a max/sum-exp pass and a gather


def test_disable_brings_stock_code_back(gpt_runs):
    inductor_ce.enable()
    inductor_ce.disable()
    torch.manual_seed(0)
    model = gpt.GPT(CFG)
    idx, labels = gpt.batches(CFG, batch_size=4, steps=1)[0]
    num_items = (labels[:, 1:] != -100).sum()
    loss, code = _compile_and_run(model, idx, labels, num_items)
    assert not _codegen.uses_fused_op(code)
    torch.testing.assert_close(loss.item(), gpt_runs[0][False][0][0], rtol=1e-6, atol=0)


def test_enable_disable_restore_the_users_pass():
    calls = []

    class UserPass(cache.CustomGraphPass):
        def __call__(self, graph):
            calls.append(len(graph.nodes))

        def uuid(self):
            return "user-pass-v1"

    mine = UserPass()
    with passes.patch_inductor_config(pre_grad_custom_pass=mine), cache.no_compile_caches():
        with inductor_ce.enabled():
            assert passes.get_pre_grad_pass() is not mine and routing.is_enabled()
            x, t = torch.randn(6, 50), torch.randint(0, 50, (6,))
            routed = routing.counters["routed"]
            _, code = _compile_and_run(F.cross_entropy, x, t)
            assert calls and routing.counters["routed"] == routed + 1
            assert _codegen.uses_fused_op(code)
            # keyed: our uuid carries the user's one
            assert "user-pass-v1" in passes.get_pre_grad_pass().uuid()
        assert passes.get_pre_grad_pass() is mine and not routing.is_enabled()
        # a plain callable cannot be keyed: our wrapper must not claim a uuid for it
        with passes.patch_inductor_config(pre_grad_custom_pass=lambda graph: None):
            inductor_ce.enable()
            assert passes.get_pre_grad_pass().uuid() is None


# torch 2.13 runs a keyed pre-grad pass after the cache lookup ("late"); 2.11 always runs it
# before ("early"), where the cache sees our routed graph. 2.13 can be told to do the same.
TIMINGS = ["default"] + (["early"] if hasattr(passes.inductor_config,
                                              "pre_grad_pass_timing") else [])


@pytest.mark.parametrize("timing", TIMINGS)
def test_cache_keys_follow_the_routing_state(timing, tmp_path, monkeypatch):
    """FX graph cache and AOTAutograd cache on: a stock compile, then the same function
    compiled afresh with routing on, must not reuse the stock graph, and the reverse; and
    the routed graph is cached too."""
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path))
    if timing != "default":
        monkeypatch.setattr(passes.inductor_config, "pre_grad_pass_timing", timing)

    def f(x, t):
        loss = F.cross_entropy(x, t, label_smoothing=0.1)
        loss.backward()
        return loss

    def run(routed):
        (inductor_ce.enable if routed else inductor_ce.disable)()
        x = torch.randn(8, 301, requires_grad=True, generator=torch.Generator().manual_seed(1))
        t = torch.arange(8) * 37
        capture.compile_counters().clear()
        loss, code = _compile_and_run(f, x, t)
        return _codegen.uses_fused_op(code), dict(capture.compile_counters()["aot_autograd"])

    with passes.patch_inductor_config(fx_graph_cache=True):
        assert run(False)[0] is False
        assert run(True)[0] is True
        used, hits = run(False)
        assert used is False and hits.get("autograd_cache_hit") == 1   # caches are on
        used, hits = run(True)
        assert used is True and hits.get("autograd_cache_hit") == 1


def _run_routed_graph(fn, *args):
    """(result, graphs) of fn run eagerly from Dynamo's graphs after our pass: what routing
    did, without Inductor (fast, and no cache in the way)."""
    seen = []

    def backend(gm, example_inputs):
        routing.route(gm.graph)
        gm.recompile()
        seen.append(gm.graph)
        return gm.forward

    torch.compiler.reset()
    return torch.compile(fn, backend=backend)(*args), seen


def _routed_inputs(graphs):
    return [n.args[0].meta["example_value"] for g in graphs for n in g.nodes
            if n.target is routing._fused_cross_entropy]


# Each case: (logits, target, fn(logits, target, weight)); inputs are made by _case().
UNSUPPORTED = {
    # (N, C, d) contiguous: class dim 1 has stride d; moving it last would need a copy
    "class dim 1 of a 3-D input": (lambda g: (torch.randn(3, 40, 5, generator=g),
                                              torch.randint(0, 40, (3, 5), generator=g)),
                                   lambda x, t, w: F.cross_entropy(x, t, w, reduction="none")),
}
SUPPORTED = {
    "probability targets": (lambda g: (torch.randn(6, 40, generator=g),
                                       torch.rand(6, 40, generator=g).softmax(-1)),
                            lambda x, t, w: F.cross_entropy(x, t, w, label_smoothing=0.1)),
    "nn.CrossEntropyLoss": (
        lambda g: (torch.randn(14, 40, generator=g) * 3, torch.randint(0, 40, (14,), generator=g)),
        lambda x, t, w: torch.nn.CrossEntropyLoss(w, ignore_index=3, label_smoothing=0.1)(x, t)),
    "class dim 1 of a transposed view": (
        lambda g: (torch.randn(2, 7, 40, generator=g) * 3,
                   torch.randint(0, 40, (2, 7), generator=g)),
        lambda x, t, w: F.cross_entropy(x.transpose(1, 2), t, w, reduction="none")),
    "nll_loss(log_softmax)": (
        lambda g: (torch.randn(2, 7, 40, generator=g) * 3,
                   torch.randint(0, 40, (2, 7), generator=g)),
        lambda x, t, w: F.nll_loss(F.log_softmax(x, dim=-1).flatten(0, 1), t.flatten(), w,
                                   reduction="sum")),
    "nll_loss(log_softmax) over class dim 1 of a transposed view": (
        lambda g: (torch.randn(2, 7, 40, generator=g) * 3,
                   torch.randint(0, 40, (2, 7), generator=g)),
        lambda x, t, w: F.nll_loss(F.log_softmax(x.transpose(1, 2), dim=1), t, w,
                                   reduction="none")),
    "aten.cross_entropy_loss": (
        lambda g: (torch.randn(2, 7, 40, generator=g) * 3,
                   torch.randint(0, 40, (2, 7), generator=g)),
        lambda x, t, w: torch.ops.aten.cross_entropy_loss(x.view(-1, 40), t.view(-1), w,
                                                          1, 3, 0.2)),
}


def _cases(table):
    g = torch.Generator().manual_seed(0)
    cases = []
    for name, (make, fn) in table.items():
        x, t = make(g)
        if t.dtype == torch.int64:
            t.view(-1)[:2] = 3          # two rows on the ignore_index of some forms
        cases.append((name, x, t, fn))
    return cases, torch.rand(40, generator=g) + 0.5


def _all_losses_and_grads(cases, weight):
    def run(*xs):
        losses = [fn(x, t, weight.to(x.dtype)) for (_, _, t, fn), x in zip(cases, xs)]
        sum(loss.sum() for loss in losses).backward()
        return losses
    xs = [x.clone().requires_grad_() for _, x, _, _ in cases]
    return run, xs


@pytest.mark.parametrize("table", ["supported", "unsupported"])
def test_loss_forms_compile_and_match_float64(table):
    """Each form in one compiled function; supported ones must be routed, the others kept
    stock; all must match stock PyTorch in float64, loss and gradient."""
    cases, weight = _cases(SUPPORTED if table == "supported" else UNSUPPORTED)
    run, xs = _all_losses_and_grads(cases, weight)
    inductor_ce.enable()
    _, graph = _run_routed_graph(run, *xs)          # the pass alone: which calls it took
    assert len(_routed_inputs(graph)) == (len(cases) if table == "supported" else 0)
    for x in xs:
        x.grad = None
    losses, code = _compile_and_run(run, *xs)
    assert _codegen.uses_fused_op(code) == (table == "supported")
    inductor_ce.disable()
    ref_run, ref_xs = _all_losses_and_grads(
        [(n, x.double(), t.double() if t.is_floating_point() else t, fn)
         for n, x, t, fn in cases], weight.double())
    ref_losses = ref_run(*ref_xs)
    for (name, *_), loss, ref, x, x_ref in zip(cases, losses, ref_losses, xs, ref_xs):
        assert loss.dtype == torch.float32 and loss.shape == ref.shape, name
        torch.testing.assert_close(loss, ref.float(), rtol=1e-5, atol=1e-6, msg=name)
        torch.testing.assert_close(x.grad, x_ref.grad.float(), rtol=1e-5, atol=1e-7, msg=name)


def test_upcast_is_dropped_and_stock_dtypes_kept():
    """Graph level: for (h @ W.T).float() -> shift -> .contiguous().view(-1, V), our op gets
    the bf16 logits (a strided view, no upcast, no copy); F.cross_entropy called on bf16
    logits directly still returns bf16."""
    g = torch.Generator().manual_seed(0)
    V = 96
    h = torch.randn(2, 9, 16, generator=g).bfloat16()
    w = (torch.randn(V, 16, generator=g) / 4).bfloat16()
    t = torch.randint(0, V, (2, 9), generator=g)

    def upcast_loss(h, w, t, upcast=torch.float32):
        logits = (h @ w.T).to(upcast)
        return F.cross_entropy(logits[:, :-1].contiguous().view(-1, V), t[:, 1:].reshape(-1),
                               reduction="sum")

    def bf16_loss(h, w, t):
        return F.cross_entropy((h @ w.T).view(-1, V), t.view(-1), reduction="none")

    inductor_ce.enable(fuse_linear=False)   # (the loss on the logits, not the LM head's)
    loss, graph = _run_routed_graph(upcast_loss, h, w, t)
    (x,) = _routed_inputs(graph)
    assert x.dtype == torch.bfloat16 and x.shape == (2, 8, V) and not x.is_contiguous()
    assert not [n for n in graph[0].nodes if n.target in ("float", "contiguous")]
    assert loss.dtype == torch.float32
    ref = upcast_loss(h, w, t, torch.float64)   # the same bf16 logits, in float64
    torch.testing.assert_close(loss, ref.float(), rtol=1e-5, atol=0)

    def class_dim_1_loss(h, w, t):     # the class dim moved to 1 by a view of the upcast
        return F.cross_entropy((h @ w.T).float().transpose(1, 2), t, reduction="none")

    loss, graph = _run_routed_graph(class_dim_1_loss, h, w, t)
    assert [x.dtype for x in _routed_inputs(graph)] == [torch.bfloat16]
    ref = F.cross_entropy((h @ w.T).double().transpose(1, 2), t, reduction="none")
    torch.testing.assert_close(loss, ref.float(), rtol=1e-5, atol=0)

    loss, graph = _run_routed_graph(bf16_loss, h, w, t)
    assert len(_routed_inputs(graph)) == 1 and loss.dtype == torch.bfloat16
    ref = F.cross_entropy((h @ w.T).double().view(-1, V), t.view(-1), reduction="none")
    torch.testing.assert_close(loss.float(), ref.float(), rtol=8e-3, atol=0)  # bf16 rounding


def test_upcast_pattern_compiled_end_to_end():
    g = torch.Generator().manual_seed(0)
    V = 384
    h = torch.randn(2, 9, 32, generator=g).bfloat16()
    w = (torch.randn(V, 32, generator=g) / 4).bfloat16().requires_grad_()
    target = torch.randint(0, V, (2, 9), generator=g)

    def step(h, w, t, upcast=torch.float32):
        logits = (h @ w.T).to(upcast)
        loss = F.cross_entropy(logits[:, :-1].contiguous().view(-1, V), t[:, 1:].reshape(-1),
                               reduction="sum")
        loss.backward()
        return loss

    inductor_ce.enable()
    loss, code = _compile_and_run(step, h, w, target)
    assert _codegen.uses_fused_op(code) and loss.dtype == torch.float32
    grad, w.grad = w.grad, None
    assert grad.dtype == torch.bfloat16
    ref = step(h, w, target, torch.float64)        # float64 loss of the same bf16 logits
    torch.testing.assert_close(loss, ref.float(), rtol=1e-5, atol=0)
    # the gradient of w is a bf16 matmul of a bf16 logits gradient: bf16 tolerance
    torch.testing.assert_close(grad.float(), w.grad.float(), rtol=2e-2, atol=2e-3)


def test_in_place_update_between_upcast_and_loss_is_respected():
    def f(x, t):
        y = x * 1.0
        z = y.float()
        y.mul_(3.0)          # z holds the values from before the update
        return F.cross_entropy(z.view(-1, z.shape[-1]), t.view(-1)) + y.float().mean()

    g = torch.Generator().manual_seed(0)
    x, t = torch.randn(4, 30, generator=g).bfloat16(), torch.randint(0, 30, (4,), generator=g)
    inductor_ce.enable()
    loss, code = _compile_and_run(f, x, t)
    assert _codegen.uses_fused_op(code)
    torch.testing.assert_close(loss, f(x.double(), t).float(), rtol=1e-5, atol=0)


def _edits_after_the_loss():
    """name -> fn(h, w, t) returning the loss; each edits (a view of) the logits after it."""
    def logits(h, w, t):
        z = h @ w.T
        loss = F.cross_entropy(z, t)
        z.mul_(0.5)
        return loss

    def a_view(h, w, t):
        z = (h @ w.T).view(2, 3, -1)
        loss = F.cross_entropy(z.view(6, -1), t)
        z[0, 1] = 0.0
        return loss

    def the_base_of_a_view(h, w, t):
        z = h @ w.T
        loss = F.cross_entropy(z[1:], t[1:])
        z.add_(1.0)
        return loss

    def behind_a_dropped_upcast(h, w, t):
        y = (h @ w.T).bfloat16()
        loss = F.cross_entropy(y.float(), t)
        y.mul_(2.0)
        return loss

    def a_detached_alias(h, w, t):
        z = h @ w.T
        loss = F.cross_entropy(z, t)
        z.detach().zero_()
        return loss

    def nll_of_log_softmax(h, w, t):
        z = h @ w.T
        loss = F.nll_loss(F.log_softmax(z, dim=-1), t)
        torch.relu_(z)
        return loss
    return {f.__name__: f for f in (logits, a_view, the_base_of_a_view,
                                    behind_a_dropped_upcast, a_detached_alias,
                                    nll_of_log_softmax)}


def _edits_that_are_harmless():
    def before_the_loss(h, w, t):
        z = h @ w.T
        z.mul_(0.5)
        return F.cross_entropy(z, t)

    def a_copy(h, w, t):
        z = h @ w.T
        loss = F.cross_entropy(z, t)
        q = z * 2.0
        q.mul_(0.5)
        return loss + q.mean()

    def the_upcast_copy(h, w, t):   # our op reads the bf16 tensor, not the float32 copy
        z = (h @ w.T).bfloat16().float()
        loss = F.cross_entropy(z, t)
        z.mul_(2.0)
        return loss
    return {f.__name__: f for f in (before_the_loss, a_copy, the_upcast_copy)}


def _head(seed=0):
    g = torch.Generator().manual_seed(seed)
    h = torch.randn(6, 8, generator=g)
    w = torch.randn(30, 8, generator=g).requires_grad_()
    return h, w, torch.randint(0, 30, (6,), generator=g)


@pytest.mark.parametrize("name", list(_edits_after_the_loss()) + list(_edits_that_are_harmless()))
def test_logits_edited_in_place_after_the_loss_stay_stock(name, caplog):
    """Our op saves the logits for the backward: an in-place edit after the loss of the
    logits or of any tensor sharing their memory keeps the call stock (AOTAutograd would
    fail: "modified by an inplace operation"), with the reason counted and logged; edits
    that cannot touch what our op saves leave it routed. Loss and gradient match stock."""
    fn = {**_edits_after_the_loss(), **_edits_that_are_harmless()}[name]
    kept = name in _edits_after_the_loss()
    h, w, t = _head()
    inductor_ce.enable()
    routing.counters.clear()
    with caplog.at_level("INFO", logger="inductor_ce"):
        loss, graphs = _run_routed_graph(fn, h, w, t)
    loss.backward()
    grad, w.grad = w.grad, None
    assert len(_routed_inputs(graphs)) == (0 if kept else 1)
    reason = "kept: the logits are modified in place after the loss (our op saves them " \
             "for its backward)"
    assert routing.counters[reason] == (1 if kept else 0), dict(routing.counters)
    assert ("stays stock: the logits are modified in place" in caplog.text) == kept
    inductor_ce.disable()
    ref = fn(h, w, t)           # stock, eager
    ref.backward()
    torch.testing.assert_close(loss, ref, rtol=1e-5, atol=0)
    torch.testing.assert_close(grad, w.grad, rtol=1e-5, atol=1e-7)


def test_logits_edited_in_place_after_the_loss_compile_end_to_end():
    """The reported graph, compiled by Inductor with enable(): it compiles (it did not), and
    matches stock."""
    fn = _edits_after_the_loss()["logits"]
    h, w, t = _head(1)
    inductor_ce.enable()
    loss, code = _compile_and_run(lambda: fn(h, w, t).backward() or w.grad)
    assert not _codegen.uses_fused_op(code)
    inductor_ce.disable()
    grad, w.grad = w.grad, None
    fn(h, w, t).backward()
    torch.testing.assert_close(grad, w.grad, rtol=1e-5, atol=1e-7)


def test_dynamic_shapes_one_compile_many_row_counts():
    def f(x, t):
        return F.cross_entropy(x.float(), t, ignore_index=0)

    inductor_ce.enable()
    compiled = torch.compile(f, dynamic=True)
    g = torch.Generator().manual_seed(0)
    codes = []
    for rows in (5, 9, 17):
        x = torch.randn(rows, 64, generator=g).bfloat16()
        t = torch.randint(0, 64, (rows,), generator=g)
        loss, c = capture.generated_code(compiled, x, t) if rows == 5 else (compiled(x, t), [])
        codes += c
        torch.testing.assert_close(loss, f(x.double(), t).float(), rtol=1e-5, atol=0)
    assert _codegen.uses_fused_op("\n".join(codes))


def test_eager_code_is_untouched():
    x, t = torch.randn(4, 10), torch.randint(0, 10, (4,))
    before, seen = F.cross_entropy(x, t), dict(routing.counters)
    with inductor_ce.enabled():
        assert torch.equal(F.cross_entropy(x, t), before)
        assert F.cross_entropy.__module__ == "torch.nn.functional"
    assert dict(routing.counters) == seen     # the pass never ran


@pytest.mark.slow
def test_hugging_face_llama_loss_routed_and_matches():
    transformers = pytest.importorskip("transformers")
    cfg = transformers.LlamaConfig(vocab_size=320, hidden_size=32, intermediate_size=64,
                                   num_hidden_layers=1, num_attention_heads=2,
                                   num_key_value_heads=2, max_position_embeddings=32)
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(cfg)
    ids = torch.randint(0, 320, (2, 12))
    labels = ids.clone()
    labels[0, -3:] = -100

    def loss_of(m):
        return m(input_ids=ids, labels=labels).loss

    inductor_ce.enable()
    loss, code = _compile_and_run(lambda: loss_of(model))
    assert _codegen.uses_fused_op(code)
    inductor_ce.disable()
    # float64 reference: the float64 model's logits, shifted, mean over the kept tokens
    logits = copy.deepcopy(model).double()(input_ids=ids).logits
    assert logits.dtype == torch.float64
    ref = F.cross_entropy(logits[:, :-1].reshape(-1, 320), labels[:, 1:].reshape(-1))
    torch.testing.assert_close(loss.double(), ref, rtol=1e-5, atol=0)


# --- the LM head: cross_entropy(linear(h, W)) becomes the fused linear + cross-entropy ----------

def _lm_heads():
    lin = torch.nn.Linear(8, 30, bias=True)
    return {
        # The Hugging Face idiom: h @ W.T, upcast, shift, flatten.
        "matmul_shift": (lambda h, w, t: F.cross_entropy(
            (h @ w.T).float()[..., :-1, :].contiguous().view(-1, 30), t[..., 1:].reshape(-1))),
        "module_bias_smoothing": (lambda h, w, t: F.cross_entropy(
            lin(h).view(-1, 30), t.view(-1), label_smoothing=0.1)),
        "sum_t": (lambda h, w, t: F.cross_entropy(
            torch.matmul(h, w.t()).view(-1, 30), t.view(-1), reduction="sum")),
        "none": (lambda h, w, t: F.cross_entropy(
            F.linear(h, w).view(-1, 30), t.view(-1), reduction="none")),
        # Row slices of the merged rows: every other token, a shift then every third.
        "merge_then_slice": (lambda h, w, t: F.cross_entropy(
            F.linear(h, w).flatten(0, 1)[::2, :], t.flatten()[::2])),
        "shift_merge_slice": (lambda h, w, t: F.cross_entropy(
            (h @ w.T)[:, :-1, :].reshape(-1, 30)[1::3], t[:, 1:].reshape(-1)[1::3],
            reduction="sum")),
    } | ({"torch_linear_cross_entropy": (lambda h, w, t: F.linear_cross_entropy(
        h.view(-1, 8), w, t.view(-1), reduction="sum"))}
        if hasattr(F, "linear_cross_entropy") else {})


@pytest.mark.parametrize("name", list(_lm_heads()))
def test_lm_head_loss_is_fused(name):
    """No logits in the compiled graph: the fused op, the same loss and gradients as stock."""
    fn = _lm_heads()[name]
    g = torch.Generator().manual_seed(1)
    h = torch.randn(2, 9, 8, generator=g)
    w = torch.randn(30, 8, generator=g)
    t = torch.randint(0, 30, (2, 9), generator=g)
    t[0, 2] = -100

    def run():
        hh, ww = h.clone().requires_grad_(), w.clone().requires_grad_()
        loss = torch.compile(fn)(hh, ww, t)
        loss.sum().backward()
        return loss, hh.grad, ww.grad

    inductor_ce.enable()
    routing.counters.clear()
    with cache.no_compile_caches():            # (a cache hit would skip the pass)
        (loss, gh, gw), codes = capture.generated_code(run)
    assert routing.counters["linear_fused"] == 1, dict(routing.counters)
    # the fused op's call, and no kernel of ce_fwd on logits (linear_ce_fwd is the fused op)
    assert "linear_ce" in "\n".join(codes) and not re.search(r"(?<!linear_)ce_fwd", codes[0])
    inductor_ce.disable()
    torch.compiler.reset()
    ref, ref_h, ref_w = run()
    torch.testing.assert_close(loss.float(), ref.float(), rtol=1e-5, atol=1e-6)
    assert loss.dtype == ref.dtype
    torch.testing.assert_close(gh, ref_h, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(gw, ref_w, rtol=1e-5, atol=1e-6)


def test_lm_head_logits_used_elsewhere_stay_unfused(caplog):
    """Logits that are also returned or logged stay: the loss still goes through our op on the
    logits, and the log line says why the linear was not fused."""
    def fn(h, w, t):
        z = h @ w.t()
        return F.cross_entropy(z.view(-1, 30), t.view(-1)), z.detach().abs().mean()

    h, w = torch.randn(2, 9, 8, requires_grad=True), torch.randn(30, 8, requires_grad=True)
    t = torch.randint(0, 30, (2, 9))
    inductor_ce.enable()
    routing.counters.clear()
    with caplog.at_level("INFO", logger="inductor_ce"), cache.no_compile_caches():
        (loss, _), codes = capture.generated_code(lambda: torch.compile(fn)(h, w, t))
    assert routing.counters["linear_kept"] == 1 and routing.counters["routed"] == 1
    assert "another use" in caplog.text
    assert "linear_ce" not in "\n".join(codes) and "ce_fwd" in codes[0]
    torch.testing.assert_close(loss, F.cross_entropy((h @ w.t()).view(-1, 30), t.view(-1)))


def test_lm_head_loss_over_class_dimension_1_says_why_it_is_not_fused(caplog):
    """F.cross_entropy((h @ W.T).transpose(1, 2), t): the loss is routed on the logits (the
    fused head takes the classes last), and the log line and counter say so."""
    def fn(h, w, t):
        return F.cross_entropy((h @ w.t()).transpose(1, 2), t)

    h, w = torch.randn(2, 9, 8, requires_grad=True), torch.randn(30, 8, requires_grad=True)
    t = torch.randint(0, 30, (2, 9))
    inductor_ce.enable()
    routing.counters.clear()
    with caplog.at_level("INFO", logger="inductor_ce"):
        loss, _ = _run_routed_graph(fn, h, w, t)
    assert routing.counters["linear_kept"] == 1 and routing.counters["routed"] == 1
    assert "class dimension is 1" in caplog.text
    torch.testing.assert_close(loss, F.cross_entropy((h @ w.t()).transpose(1, 2), t))


def _fused_then_stock(run):
    """run()'s results routed (the head fused: asserted), then stock's."""
    inductor_ce.enable()
    routing.counters.clear()
    with cache.no_compile_caches():
        ours = run()
    assert routing.counters["linear_fused"] == 1, dict(routing.counters)
    inductor_ce.disable()
    torch.compiler.reset()
    return ours, run()


def test_lm_head_under_autocast_with_the_loss_after_the_block():
    """``with autocast(): logits = F.linear(h, W)``, then the loss of ``logits.float()`` after
    the block: fused, the head runs under that autocast (bf16 GEMMs, as the linear did), not
    in float32 where the loss stands: stock's loss (of the bf16 logits) and gradients."""
    g = torch.Generator().manual_seed(3)
    h0, w0 = torch.randn(64, 32, generator=g), torch.randn(1000, 32, generator=g)
    t = torch.randint(0, 1000, (64,), generator=g)

    def step(h, w, t):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = F.linear(h, w)
        return F.cross_entropy(logits.float(), t)

    def run():
        h, w = h0.clone().requires_grad_(), w0.clone().requires_grad_()
        loss = torch.compile(step)(h, w, t)
        loss.backward()
        return loss, h.grad, w.grad

    (loss, gh, gw), (ref, ref_h, ref_w) = _fused_then_stock(run)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        bf16_logits = F.linear(h0, w0)
    assert_loss_close(loss, F.cross_entropy(bf16_logits.double(), t))
    torch.testing.assert_close(loss, ref, rtol=1e-5, atol=1e-6)
    # (the float32 weight's dW summed in float32 where stock rounds it to bf16 once)
    torch.testing.assert_close(gh, ref_h, rtol=2e-2, atol=1e-3)
    torch.testing.assert_close(gw, ref_w, rtol=2e-2, atol=1e-3)


@pytest.mark.parametrize("where", ["head_excluded", "loss_alone"])
def test_a_float32_lm_head_beside_an_autocast_loss_stays_float32(where):
    """A float32 head outside the loss's autocast (``autocast(enabled=False)`` inside the
    region, or the linear before it): fused in the loss's place, its GEMMs still run in
    float32, as the linear did (they ran in bf16: 1e-4 off in the loss, 5e-3 in dh and dW).
    float64's loss and gradients."""
    g = torch.Generator().manual_seed(5)
    h0, w0 = torch.randn(64, 32, generator=g), torch.randn(1000, 32, generator=g) * 0.5
    t = torch.randint(0, 1000, (64,), generator=g)

    def step(h, w, t):
        if where == "loss_alone":
            logits = F.linear(h, w)
            with torch.autocast("cpu", dtype=torch.bfloat16):
                return F.cross_entropy(logits, t)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            with torch.autocast("cpu", enabled=False):
                logits = F.linear(h, w)
            return F.cross_entropy(logits, t)

    inductor_ce.enable()
    routing.counters.clear()
    h, w = h0.clone().requires_grad_(), w0.clone().requires_grad_()
    with cache.no_compile_caches():
        loss = torch.compile(step)(h, w, t)
    loss.backward()
    assert routing.counters["linear_fused"] == 1, dict(routing.counters)
    h64, w64 = h0.double().requires_grad_(), w0.double().requires_grad_()
    want = F.cross_entropy(F.linear(h64, w64), t)
    want.backward()
    assert loss.dtype == torch.float32
    assert_loss_close(loss, want)
    assert_grad_close(h.grad, h64.grad)
    assert_grad_close(w.grad, w64.grad)


def test_lm_head_of_bf16_hidden_states_and_a_float32_weight_under_autocast():
    """Under autocast, hidden states made bf16 by an autocast op (a projection) and a float32
    head: fused (the pattern asked for equal dtypes: the (rows, V) logits were built), with
    stock's loss and gradients."""
    g = torch.Generator().manual_seed(4)
    proj, head = torch.nn.Linear(32, 32), torch.nn.Linear(32, 256)
    x, t = torch.randn(64, 32, generator=g), torch.randint(0, 256, (64,), generator=g)

    def step(x, t):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            return F.cross_entropy(head(proj(x)), t)

    def run():
        for p in (*proj.parameters(), *head.parameters()):
            p.grad = None
        loss = torch.compile(step, fullgraph=True)(x, t)
        loss.backward()
        return loss, proj.weight.grad.clone(), head.weight.grad.clone()

    (loss, g_proj, g_head), (ref, ref_proj, ref_head) = _fused_then_stock(run)
    torch.testing.assert_close(loss, ref, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(g_proj, ref_proj, rtol=2e-2, atol=1e-3)
    torch.testing.assert_close(g_head, ref_head, rtol=2e-2, atol=1e-3)


def test_lm_head_loss_kept_stock_is_logged_for_its_own_reason(caplog):
    """An LM-head loss that stays stock for a reason of its own (a label_smoothing Dynamo made
    symbolic at its second value) is logged with that reason, not as one "whose class
    dimension is 1" (2-D logits: the class dimension is the last), nor counted as kept from
    fusing."""
    h, w = torch.randn(6, 8, requires_grad=True), torch.randn(37, 8, requires_grad=True)
    t = torch.randint(0, 37, (6,))
    step = torch.compile(lambda h, w, t, ls: F.cross_entropy(F.linear(h, w), t,
                                                             label_smoothing=ls))
    inductor_ce.enable()
    routing.counters.clear()
    with caplog.at_level("INFO", logger="inductor_ce"), cache.no_compile_caches():
        for ls in (0.1, 0.2):
            loss = step(h, w, t, ls)
    assert "class dimension is 1" not in caplog.text
    assert "a label_smoothing Dynamo made symbolic" in caplog.text
    assert routing.counters["linear_kept"] == 0, dict(routing.counters)
    torch.testing.assert_close(loss, F.cross_entropy(F.linear(h, w), t, label_smoothing=0.2))


def test_a_label_smoothing_compiled_per_value_warns_once():
    """Dynamo specializes F.cross_entropy on its float label_smoothing (a compile per value,
    then at its recompile limit the frame runs eagerly, stock): the third value routed at one
    call site warns, once, naming our cross_entropy; every value's loss is right."""
    x, t = torch.randn(6, 37), torch.randint(0, 37, (6,))
    step = torch.compile(lambda x, t, ls: F.cross_entropy(x, t, label_smoothing=ls))
    inductor_ce.enable()
    routing._SMOOTHINGS.clear()
    with warnings.catch_warnings(record=True) as caught, cache.no_compile_caches():
        warnings.simplefilter("always")
        for ls in (0.1, 0.2, 0.3, 0.4):
            loss = step(x, t, ls)
            torch.testing.assert_close(loss, F.cross_entropy(x.double(), t, label_smoothing=ls)
                                       .float(), rtol=1e-5, atol=0)
    said = [str(w.message) for w in caught if "values of label_smoothing" in str(w.message)]
    assert len(said) == 1 and "inductor_ce.cross_entropy" in said[0], said
    assert routing.counters["routed"] >= 4, dict(routing.counters)


def test_lm_head_slice_after_a_partial_merge_stays_unfused(caplog):
    """A row slice of partly merged rows ((A, B, C, V) -> (A, B C, V), then [:, ::2]) has no
    replay on the hidden states that the fused op takes: the loss stays on the logits, with
    stock's value, and the log says why."""
    def fn(h, w, t):
        return F.cross_entropy(F.linear(h, w).flatten(1, 2)[:, ::2].reshape(-1, 30),
                               t.flatten(1, 2)[:, ::2].reshape(-1))

    h, w = torch.randn(2, 3, 3, 8, requires_grad=True), torch.randn(30, 8, requires_grad=True)
    t = torch.randint(0, 30, (2, 3, 3))
    inductor_ce.enable()
    routing.counters.clear()
    with caplog.at_level("INFO", logger="inductor_ce"), cache.no_compile_caches():
        loss = torch.compile(fn)(h, w, t)
    assert routing.counters["linear_kept"] == 1 and routing.counters["linear_fused"] == 0
    assert "partial merge" in caplog.text
    loss.backward()
    hh, ww = h.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    ref = fn(hh, ww, t)
    ref.backward()
    torch.testing.assert_close(loss.double(), ref, rtol=1e-5, atol=0)
    torch.testing.assert_close(h.grad.double(), hh.grad, rtol=1e-5, atol=1e-7)
    torch.testing.assert_close(w.grad.double(), ww.grad, rtol=1e-5, atol=1e-7)


def test_enable_on_a_torch_without_routing_changes_nothing(monkeypatch):
    """enable() that raises (this torch lacks the pass slot) leaves routing and its options
    as they were."""
    inductor_ce.enable(fuse_linear=False, memory_budget=1 << 20)
    monkeypatch.setattr(passes, "ROUTING_AVAILABLE", False)
    with pytest.raises(RuntimeError, match="lacks the Inductor API"):
        inductor_ce.enable(fuse_linear=True, memory_budget=1 << 30)
    assert (routing._fuse_linear, routing._memory_budget) == (False, 1 << 20)
    assert routing.is_enabled()


def test_enabled_restores_the_state_before_it():
    """``with enabled(...)`` gives back exactly what was set before: routing on or off and
    its fuse_linear, whatever the block asked for."""
    for before in (None, False, True):          # off, on without fusion, on with fusion
        for inside in (False, True):
            inductor_ce.disable()
            routing._fuse_linear = True
            if before is not None:
                inductor_ce.enable(fuse_linear=before)
            state = (routing.is_enabled(), routing._fuse_linear)
            with inductor_ce.enabled(fuse_linear=inside):
                assert routing.is_enabled() and routing._fuse_linear is inside
            assert (routing.is_enabled(), routing._fuse_linear) == state, (before, inside)


def test_enabled_blocks_of_two_threads_overlap():
    """Routing is the process's: a block of one thread that exits while another thread's
    block is open leaves routing on, with the open block's options; the last exit gives back
    the state before the first; nested blocks restore the outer one's options."""
    import threading
    inductor_ce.disable()
    routing._fuse_linear = True
    entered, first_left, done = threading.Event(), threading.Event(), threading.Event()
    seen = []

    def second():
        with inductor_ce.enabled(fuse_linear=False):
            entered.set()
            first_left.wait(30)
            seen.append((routing.is_enabled(), routing._fuse_linear))
        done.set()

    with inductor_ce.enabled(fuse_linear=True):
        thread = threading.Thread(target=second)
        thread.start()
        assert entered.wait(30)
    first_left.set()
    thread.join(30)
    assert done.is_set() and seen == [(True, False)]
    assert not routing.is_enabled() and routing._fuse_linear is True
    with inductor_ce.enabled(fuse_linear=False):
        with inductor_ce.enabled(fuse_linear=True):
            assert routing._fuse_linear is True
        assert routing.is_enabled() and routing._fuse_linear is False
    assert not routing.is_enabled()


def test_a_hook_that_edits_the_head_s_logits_is_honoured():
    """A forward hook on the LM head that scales the logits: Dynamo inlines it, so the loss
    sees logits * 0.5, which is no plain linear: not fused, and the loss is stock's."""
    head = torch.nn.Linear(8, 30)
    handle = head.register_forward_hook(lambda mod, args, out: out * 0.5)

    def fn(h, t):
        return F.cross_entropy(head(h).view(-1, 30), t.view(-1))

    h, t = torch.randn(2, 9, 8), torch.randint(0, 30, (2, 9))
    inductor_ce.enable(fuse_linear=True)
    routing.counters.clear()
    with cache.no_compile_caches():
        loss = torch.compile(fn)(h, t)
    handle.remove()
    assert routing.counters["linear_fused"] == 0 and routing.counters["routed"] == 1
    ref = F.cross_entropy((F.linear(h.double(), head.weight.double(), head.bias.double())
                           * 0.5).view(-1, 30), t.view(-1))
    torch.testing.assert_close(loss.double(), ref, rtol=1e-5, atol=0)


def test_the_fused_head_s_own_compiles_are_no_graphs_of_the_user_s(monkeypatch):
    """The fused head compiles its chunk kernels at its first call, when the user's compiled
    graph first runs: our compile, not a graph of the user's (nor one loaded from a cache)."""
    from inductor_ce.eager import kernels
    monkeypatch.setattr(kernels, "MODE", "compiled")
    monkeypatch.setattr(kernels, "_CACHE", {})    # (compiled here, whatever other tests did)
    head = torch.nn.Linear(8, 30, bias=False)

    def fn(h, t):
        return F.cross_entropy(head(h).flatten(0, 1), t.flatten(), reduction="sum")

    h, t = torch.randn(2, 9, 8), torch.randint(0, 30, (2, 9))
    inductor_ce.enable()
    routing.counters.clear()
    with cache.no_compile_caches():
        loss = torch.compile(fn, fullgraph=True)(h, t)
    assert len(kernels._CACHE) >= 1                 # (the head's own compile ran)
    assert dict(routing.counters) == {"linear_fused": 1, "routed": 1, "graphs": 1,
                                      "cached_graphs": 0, "graph: linear_ce_fast": 1,
                                      "cached: linear_ce_fast": 0}, dict(routing.counters)
    ref = F.cross_entropy(h.double().flatten(0, 1) @ head.weight.double().T, t.flatten(),
                          reduction="sum")
    assert_loss_close(loss, ref)


@pytest.mark.slow
def test_routing_is_reported_on_a_warm_cache(tmp_path, monkeypatch, caplog):
    """A cache hit skips the pass: the graph it loads is still reported, once, with what it
    calls (a routed loss's ce_fwd, a fused head's linear op), in the counters and the log;
    also after a graph without a loss was compiled fresh (its pass's run is closed: the
    loaded graph is not read as compiled)."""
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path))
    head = torch.nn.Linear(8, 30)

    def fn(h, t, z):
        return F.cross_entropy(head(h).view(-1, 30), t.view(-1)) + F.cross_entropy(z, t.view(-1))

    h, t = torch.randn(2, 9, 8), torch.randint(0, 30, (2, 9))
    z = torch.randn(18, 30, requires_grad=True)
    inductor_ce.enable()
    runs = []
    with passes.patch_inductor_config(fx_graph_cache=True), \
            caplog.at_level("INFO", logger="inductor_ce"):
        for scale in (2.0, 3.0):
            routing.counters.clear()
            caplog.clear()
            torch.compile(lambda y: y.sin() * scale)(z)     # new each time: a cache miss
            torch.compile(fn)(h, t, z).backward()
            runs.append((dict(routing.counters), caplog.text))
            torch._dynamo.reset()
    (first, first_log), (second, second_log) = runs
    assert first["routed"] == 2 and first["linear_fused"] == 1, first
    assert first["graphs"] == 1 and not first.get("cached_graphs"), first
    assert "compiled now" in first_log
    if torch.__version__ < "2.12":
        # torch 2.11 runs pre-grad passes before its cache lookup (its FX-graph cache then
        # hits): the graph is routed again and reported as compiled, not loaded
        assert second["routed"] == 2 and second["graphs"] == 1, second
        return
    # warm: the pass did not run, the loaded graph is reported
    assert not second.get("routed") and second["graphs"] == 1 == second["cached_graphs"], second
    assert second["cached: ce_fwd"] == 1 and any(
        k.startswith("cached: linear_ce") for k in second), second
    assert "loaded from Inductor's cache" in second_log and "ce_fwd x1" in second_log
