"""inductor_ce.transformers against the unpatched transformers model in float64.

Every comparison builds copies of one tiny random model (a config object, no download): the
unpatched reference in float64 and the patched model in float32 with the same weights.
float32, because inductor_ce computes in float32 and rejects float64 (apply() raises a
TypeError for a float64 head, tested below). The reference never calls inductor_ce: it is
transformers' own forward and loss (F.cross_entropy in float64), so these tests stay
meaningful when linear_cross_entropy's body is replaced by the fused op.

Tolerances. The loss: 1e-5 relative (tests/_reference.py: float32 arithmetic). The gradients
of every parameter: 1e-5 relative plus 1e-5 of the parameter's largest entry (the rule of
tests/test_parallel.py for gradients with cancellation), not the single op's 1e-6: here the
whole backbone runs in float32, and transformers' own unpatched float32 model is off the
float64 one by up to 2.9e-6 of the largest entry on these models (qwen3; see
worst_grad_error). The main test also checks that the patched model's worst gradient error is
within 2x (+1e-6) of that unpatched float32 model's.

FSDP2 runs on 2 gloo processes on the CPU (this file as a script, as tests/test_parallel.py).
"""
from __future__ import annotations

import functools
import json
import os
import socket
import subprocess
import sys
import tempfile
from datetime import timedelta

import pytest
import torch
from torch import nn

transformers = pytest.importorskip("transformers")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _reference import assert_grad_close, assert_loss_close  # noqa: E402

import inductor_ce.transformers as ict  # noqa: E402
from inductor_ce.linear import plan  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
V, B, T = 96, 2, 8
SEQ_LENS = (8, 5)           # row 1 is right-padded after 5 tokens


def make_config(name):
    """A tiny config of architecture ``name`` (initializer_range 0.2: at the default 0.02 the
    backbone's gradients are mostly rounding)."""
    t = transformers
    llama_like = dict(vocab_size=V, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                      num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=64,
                      initializer_range=0.2, tie_word_embeddings=False)
    if name == "llama":
        return t.LlamaConfig(**llama_like)
    if name == "mistral":
        return t.MistralConfig(**llama_like, sliding_window=4)
    if name == "qwen2":
        return t.Qwen2Config(**llama_like)
    if name == "qwen3":
        return t.Qwen3Config(**llama_like, head_dim=8)
    if name == "gemma2":   # final_logit_softcapping 2.0: far from linear at these logits
        return t.Gemma2Config(**dict(llama_like, tie_word_embeddings=True), head_dim=8,
                              query_pre_attn_scalar=8, sliding_window=4,
                              final_logit_softcapping=2.0, attn_logit_softcapping=5.0)
    if name == "gpt2":     # tied embeddings, backbone `transformer`
        return t.GPT2Config(vocab_size=V, n_embd=16, n_layer=2, n_head=2, n_positions=64,
                            initializer_range=0.2, resid_pdrop=0.0, embd_pdrop=0.0,
                            attn_pdrop=0.0)
    if name == "qwen3_moe":  # the router's auxiliary loss is added to ours by the model
        return t.Qwen3MoeConfig(**llama_like, head_dim=8, num_experts=4, num_experts_per_tok=2,
                                moe_intermediate_size=16, output_router_logits=True,
                                experts_implementation="eager",  # (grouped_mm: no float64)
                                router_aux_loss_coef=0.1)
    if name == "cohere":   # logits * logit_scale
        return t.CohereConfig(**dict(llama_like, tie_word_embeddings=True), logit_scale=0.5)
    if name == "granite":  # logits / logits_scaling
        return t.GraniteConfig(**llama_like, logits_scaling=0.25)
    raise KeyError(name)


MODELS = ("llama", "mistral", "qwen2", "qwen3", "gemma2", "gpt2", "qwen3_moe", "cohere",
          "granite")


def make_pair(name, seed=0, stock=False, device="cpu"):
    """(reference float64 unpatched, ours float32 patched[, stock float32 unpatched]), same
    weights, training mode. The head's weight is scaled by 4 so that the logits spread over
    several units (the loss is then well below log V, the softcap bites)."""
    cfg = make_config(name)
    cls = transformers.AutoModelForCausalLM.from_config(cfg).__class__
    torch.manual_seed(seed)
    ref = cls(cfg).double().train().to(device)
    with torch.no_grad():
        ref.get_output_embeddings().weight.mul_(4.0)
    copies = []
    for _ in range(2 if stock else 1):
        m = cls(cfg).train().to(device)
        m.load_state_dict(ref.state_dict())
        copies.append(m.float())
    return (ref, ict.apply(copies[0]), *copies[1:])


def make_batch(seed=0, shift=False):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, V, (B, T), generator=g)
    mask = torch.zeros(B, T, dtype=torch.long)
    for i, n in enumerate(SEQ_LENS):
        mask[i, :n] = 1
    labels = ids.masked_fill(mask == 0, -100)
    labels[0, 2] = -100                          # an ignored label inside a sequence too
    batch = dict(input_ids=ids, attention_mask=mask, labels=labels)
    if shift:   # pre-shifted labels, unrelated to the labels: must be the ones used
        batch["shift_labels"] = torch.randint(0, V, (B, T), generator=g).masked_fill(
            mask == 0, -100)
    return batch


def assert_grads_close(ours, ref, what=""):
    """Every parameter's gradient: |ours - ref| <= 1e-5 |ref| + 1e-5 max|ref| elementwise."""
    ref_params = dict(ref.named_parameters())
    names = [n for n, _ in ours.named_parameters()]
    assert names == list(ref_params)
    for n, p in ours.named_parameters():
        assert p.grad is not None, f"{what} {n}: no gradient"
        grad_close(p.grad, ref_params[n].grad, f"{what} {n}")


def grad_close(got, ref, what):
    assert got.dtype == torch.float32 and got.shape == ref.shape, (what, got.dtype, got.shape)
    torch.testing.assert_close(got.double(), ref.double(), rtol=1e-5,
                               atol=1e-5 * ref.abs().max().item(),
                               msg=lambda m: f"{what}: {m}")


def worst_grad_error(model, ref):
    """max over parameters of max|grad - ref grad| / max|ref grad|."""
    return max(((p.grad.double() - q.grad).abs().max() / q.grad.abs().max()).item()
               for p, q in zip(model.parameters(), ref.parameters()))


def run_both(ref, ours, batch, ours_fn=None, **extra):
    r = ref(**batch, **extra)
    o = (ours if ours_fn is None else ours_fn)(**batch, **extra)
    r.loss.backward()
    o.loss.backward()
    return r, o


# ----------------------------------------------------------------------------- the loss

@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("variant", ["mean", "num_items_in_batch", "shift_labels"])
def test_loss_and_every_gradient_match_the_unpatched_model(name, variant):
    ref, ours, stock = make_pair(name, stock=True)
    batch = make_batch(shift=variant == "shift_labels")
    extra = {}
    if variant == "num_items_in_batch":  # a tensor, and not this batch's count: it divides
        extra["num_items_in_batch"] = torch.tensor(40)
    r, o = run_both(ref, ours, batch, **extra)
    assert o.logits is None and r.logits is not None
    assert type(o) is type(r)
    assert_loss_close(o.loss, r.loss, msg=name)
    assert_grads_close(ours, ref, name)
    # and no less accurate than transformers' own float32 model (within 2x: other roundings)
    stock(**batch, **extra).loss.backward()
    assert worst_grad_error(ours, ref) <= 2 * worst_grad_error(stock, ref) + 1e-6
    if name == "qwen3_moe":
        assert o.aux_loss is not None and o.aux_loss.item() > 0   # (in the loss: the model's)
        torch.testing.assert_close(o.aux_loss.double(), r.aux_loss.double(), rtol=1e-5, atol=0)


def _budgets_seen(monkeypatch) -> list:
    """The memory_budget of each fused-loss call from now on (a spy on the op)."""
    seen = []
    real = ict.linear_cross_entropy

    def spy(*args, **kwargs):
        seen.append(kwargs.get("memory_budget"))
        return real(*args, **kwargs)

    monkeypatch.setattr(ict, "linear_cross_entropy", spy)
    return seen


def test_memory_budget_reaches_the_fused_loss(monkeypatch):
    """apply(model, memory_budget=B): the fused loss runs within B bytes (here chunks of
    classes), same loss and gradients; a bad value is refused by name; the deprecated
    chunk_size=N is N rows of logits, with a FutureWarning. The default: lean_chunk_rows
    eagerly, the op's own (None) under torch.compile."""
    seen = _budgets_seen(monkeypatch)
    ref, ours = make_pair("llama")
    head = ours.get_output_embeddings().weight
    vocab, size = head.shape[0], head.element_size()
    run_both(ref, ours, make_batch())
    assert seen == [plan.lean_chunk_rows(*head.shape) * vocab * size]   # eagerly
    ict.revert(ours)
    ict.apply(ours, memory_budget=4096)
    for p in (*ref.parameters(), *ours.parameters()):
        p.grad = None
    r, o = run_both(ref, ours, make_batch())
    assert seen[1:] == [4096]
    ict.revert(ours)
    ict.apply(ours)
    torch._dynamo.reset()
    run_both(ref, ours, make_batch(), ours_fn=torch.compile(ours, backend="aot_eager"))
    assert seen[2:] == [None]    # compiled: the op's own rule
    assert_loss_close(o.loss, r.loss)
    assert_grads_close(ours, ref)
    ict.revert(ours)
    with pytest.warns(FutureWarning, match="memory_budget"):
        ict.apply(ours, chunk_size=5)
    run_both(ref, ours, make_batch())
    assert seen[3:] == [5 * vocab * size]
    for bad in (0, -3, 2.5, True, "8"):
        with pytest.raises(ValueError if isinstance(bad, int) and bad is not True else TypeError,
                           match="memory_budget"):
            ict.apply(make_pair("llama")[0].float(), memory_budget=bad)
        with pytest.raises(ValueError, match="chunk_size"):
            ict.apply(make_pair("llama")[0].float(), chunk_size=bad)


def test_the_reference_sees_what_the_tests_claim():
    """The comparisons are not vacuous: the softcap, the logit scale, num_items_in_batch and
    shift_labels each change the reference's loss, and the logits are not near-uniform."""
    batch = make_batch()

    def loss(name, **kw):
        ref, _ = make_pair(name)
        with torch.no_grad():
            return ref(**batch, **kw).loss.item()
    base = loss("llama")
    assert abs(base - torch.log(torch.tensor(float(V))).item()) > 0.5
    assert loss("llama", num_items_in_batch=torch.tensor(40)) != pytest.approx(base, rel=1e-3)
    assert loss("llama", shift_labels=make_batch(shift=True)["shift_labels"]) != \
        pytest.approx(base, rel=1e-3)
    for name, attr, value in (("gemma2", "final_logit_softcapping", None),
                              ("cohere", "logit_scale", 1.0), ("granite", "logits_scaling", 1.0)):
        ref, _ = make_pair(name)
        with torch.no_grad():
            a = ref(**batch).loss.item()
            setattr(ref.config, attr, value)
            if name == "cohere":
                ref.logit_scale = value
            b = ref(**batch).loss.item()
        assert a != pytest.approx(b, rel=1e-3), name


def test_logits_to_keep():
    """logits_to_keep=k: the loss of the last k positions against (B, k) labels."""
    ref, ours = make_pair("llama")
    batch = make_batch()
    batch["labels"] = batch["labels"][:, -5:]
    r, o = run_both(ref, ours, batch, logits_to_keep=5)
    assert r.logits.shape == (B, 5, V) and o.logits is None
    assert_loss_close(o.loss, r.loss)
    assert_grads_close(ours, ref)


def test_gpt2_tied_head_gets_both_gradients():
    ref, ours = make_pair("gpt2")
    assert ours.lm_head.weight is ours.transformer.wte.weight
    run_both(ref, ours, make_batch())
    grad_close(ours.transformer.wte.weight.grad, ref.transformer.wte.weight.grad, "wte")


def test_all_labels_ignored_gives_nan_like_transformers():
    ref, ours = make_pair("llama")
    batch = make_batch()
    batch["labels"] = torch.full_like(batch["labels"], -100)
    with torch.no_grad():
        assert torch.isnan(ref(**batch).loss) and torch.isnan(ours(**batch).loss)
        n = torch.tensor(3)
        assert ours(**batch, num_items_in_batch=n).loss.item() == 0.0


def test_optimizer_steps_keep_the_weights_equal():
    """4 SGD steps: every weight as the unpatched float64 run's, though the steps moved them
    (by much more than the tolerance)."""
    ref, ours = make_pair("qwen2")
    start = [p.detach().clone() for p in ref.parameters()]
    opt_r = torch.optim.SGD(ref.parameters(), lr=0.05)
    opt_o = torch.optim.SGD(ours.parameters(), lr=0.05)
    for step in range(4):
        batch = make_batch(seed=step)
        for model, opt in ((ref, opt_r), (ours, opt_o)):
            opt.zero_grad()
            model(**batch).loss.backward()
            opt.step()
    for (n, p), q, q0 in zip(ours.named_parameters(), ref.parameters(), start):
        moved = (q.detach() - q0).abs().max().item()
        assert moved > 1e-3, n
        torch.testing.assert_close(p.detach().double(), q.detach(), rtol=1e-5,
                                   atol=1e-5 * moved, msg=lambda m: f"{n}: {m}")
    with torch.no_grad():
        r, o = ref(**make_batch(seed=9)), ours(**make_batch(seed=9))
    assert_loss_close(o.loss, r.loss)


# ----------------------------------------------------------------------------- unchanged calls

def test_calls_without_training_labels_are_the_unpatched_forward():
    ref, ours = make_pair("gemma2")
    plain = type(ours)(ours.config)
    plain.load_state_dict(ours.state_dict())
    plain.train()
    batch = make_batch()
    no_labels = {k: v for k, v in batch.items() if k != "labels"}
    with torch.no_grad():
        # no labels (generation): the logits
        torch.testing.assert_close(ours(**no_labels).logits, plain(**no_labels).logits,
                                   rtol=0, atol=0)
        # eval mode with labels (evaluation with logits): the model's own loss and logits
        ours.eval(), plain.eval()
        o, p = ours(**batch), plain(**batch)
        torch.testing.assert_close(o.logits, p.logits, rtol=0, atol=0)
        assert o.loss.item() == p.loss.item()
        # eval mode, skip_logits=True: fused, as the Trainer asks Liger for a loss-only eval
        f = ours(**batch, skip_logits=True)
        assert f.logits is None
        assert_loss_close(f.loss, ref.eval()(**batch).loss)
        # training mode, skip_logits=False: unfused
        ours.train(), plain.train()
        o, p = ours(**batch, skip_logits=False), plain(**batch)
        torch.testing.assert_close(o.logits, p.logits, rtol=0, atol=0)
        # generation
        prompt = batch["input_ids"][:1, :4]
        ours.eval(), plain.eval()
        assert torch.equal(ours.generate(prompt, max_new_tokens=4, do_sample=False),
                           plain.generate(prompt, max_new_tokens=4, do_sample=False))


def test_return_dict_false_and_positional_labels():
    ref, ours = make_pair("llama")
    batch = make_batch()
    o = ours(batch["input_ids"], batch["attention_mask"], None, None, None, batch["labels"],
             return_dict=False)
    assert isinstance(o, tuple) and o[0].dim() == 0   # (loss, past_key_values): no logits
    with torch.no_grad():
        assert_loss_close(o[0].detach(), ref(**batch).loss)


@pytest.mark.parametrize("name", ["llama", "qwen3_moe"])
def test_fused_output_has_no_logits_entry(name):
    """The fused call's output is the unpatched one without its logits: no "logits" key (so
    out["logits"] is a KeyError, as for any absent field), and a return_dict=False tuple that
    is the unpatched tuple minus its logits entry, the other fields in their order (Qwen3-MoE:
    aux_loss before the logits, router_logits after), not a placeholder in its place."""
    ref, ours, stock = make_pair(name, stock=True)
    batch = make_batch()
    with torch.no_grad():
        r, o, s = ref(**batch), ours(**batch), stock(**batch)
        t, st = ours(**batch, return_dict=False), stock(**batch, return_dict=False)
    keys = [k for k in s.keys() if k != "logits"]
    assert o.logits is None and "logits" in s.keys()
    assert list(o.keys()) == keys
    with pytest.raises(KeyError):
        o["logits"]
    assert len(o.to_tuple()) == len(keys)
    assert isinstance(t, tuple) and len(t) == len(st) - 1 == len(keys)
    for k, ot, tt, sv in zip(keys, o.to_tuple(), t, (s[k] for k in keys)):
        assert type(ot) is type(tt) is type(sv), (k, type(ot), type(tt), type(sv))
    for loss in (o.loss, o.to_tuple()[0], t[0]):
        assert_loss_close(loss, r.loss, msg=name)
    assert_loss_close(t[0], st[0].double(), msg=name)   # (the unpatched float32 model's too)
    if name == "qwen3_moe":
        assert keys[1] == "aux_loss"
        torch.testing.assert_close(t[1], st[1], rtol=1e-5, atol=0)


def test_revert_restores_the_model():
    _, ours = make_pair("llama")
    forward, head_forward = ours.forward, ours.lm_head.forward
    assert ict.is_applied(ours) and ict.apply(ours) is ours    # a second apply: no-op
    ict.revert(ours)
    assert not ict.is_applied(ours)
    assert "forward" not in vars(ours) and "forward" not in vars(ours.lm_head)
    assert "_loss_function" not in vars(ours)
    assert ours(**make_batch()).logits.shape == (B, T, V)
    assert forward is not ours.forward and head_forward is not ours.lm_head.forward
    ict.apply(ours)
    assert ours(**make_batch()).logits is None


def test_threads_sharing_a_patched_model_each_get_their_own_call():
    """One thread's training calls (fused: labels) beside another's calls without labels
    (an evaluation or generation thread) on the same patched model: each thread's results
    are those of its calls alone (the running call is the thread's, not the model's)."""
    import threading
    _, ours = make_pair("llama")
    batch = make_batch()
    ids = batch["input_ids"][:1, :5]
    with torch.no_grad():
        loss, logits = ours(**batch).loss, ours(input_ids=ids).logits
    barrier, errors = threading.Barrier(2), []

    def run(call, want):
        try:
            barrier.wait()
            for _ in range(30):
                with torch.no_grad():
                    torch.testing.assert_close(call(), want, rtol=0, atol=0)
        except Exception as e:   # (reported below: an assertion in a thread is lost)
            errors.append(e)

    threads = [threading.Thread(target=run, args=(lambda: ours(**batch).loss, loss)),
               threading.Thread(target=run, args=(lambda: ours(input_ids=ids).logits, logits))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors[:2]
    assert ours(**batch).logits is None          # still patched, fused


def test_forward_rebound_to_the_model_as_accelerate_does():
    """accelerate's mixed-precision wrapper (Trainer with bf16 / fp16) rebinds the patched
    ``model.forward.__func__`` to the model, wrapped: the patched forward must be a plain
    function of the model (not, say, of a weak reference to it), and stay fused."""
    import types
    ref, ours = make_pair("llama")
    inner = ours.forward.__func__

    def wrapped(self, *args, **kwargs):
        return inner(self, *args, **kwargs)
    ours.forward = types.MethodType(functools.wraps(inner)(wrapped), ours)
    batch = make_batch()
    o = ours(**batch)
    assert o.logits is None
    assert_loss_close(o.loss.detach(), ref(**batch).loss.detach())


def _accelerate_mixed_precision(model):
    """What accelerate's prepare() does to a model's forward under bf16 mixed precision (the
    Trainer's bf16=True, TRL's default): autocast around it, outputs converted to float32,
    the forward it wrapped kept as ``_original_forward``."""
    import types

    from accelerate.utils import convert_outputs_to_fp32
    model._original_forward = model.forward
    autocast = torch.autocast("cpu", dtype=torch.bfloat16)
    model.forward = types.MethodType(autocast(model.forward.__func__), model)
    model.forward = types.MethodType(convert_outputs_to_fp32(model.forward.__func__), model)
    return model


def test_accelerate_unwrap_keeps_the_fused_forward_and_revert_says_how():
    """accelerate's unwrap_model(keep_fp32_wrapper=False) follows ``__wrapped__`` from the
    wrapper to its end: the patched forward must end that walk (it did not, and the model
    ran unfused, with is_applied() True and revert() refusing). revert() of a still wrapped
    model names the remedy."""
    from accelerate.utils import extract_model_from_parallel
    ref, ours = make_pair("llama")
    batch = make_batch()
    wrapped = _accelerate_mixed_precision(ours)
    assert wrapped(**batch).logits is None
    with pytest.raises(ValueError, match="unwrap_model"):
        ict.revert(wrapped)
    model = extract_model_from_parallel(wrapped, keep_fp32_wrapper=False)
    assert ict.is_applied(model)
    o = model(**batch)
    assert o.logits is None
    assert_loss_close(o.loss.detach(), ref(**batch).loss.detach())
    ict.revert(model)
    assert model(**batch).logits is not None


def test_deepcopy_keeps_what_was_set_after_apply():
    """copy.deepcopy of a patched model keeps accelerate's mixed-precision wrapper (around the
    copy's own fused forward) and a loss function the user set since apply()."""
    import copy
    ref, ours = make_pair("llama")
    batch = make_batch()
    wrapped = _accelerate_mixed_precision(ours)
    twin = copy.deepcopy(wrapped)
    assert twin.forward.__func__ is wrapped.forward.__func__ and twin.forward.__self__ is twin
    o = twin(**batch)
    assert o.logits is None
    assert o.loss.item() == wrapped(**batch).loss.item()    # (both under bf16 autocast)
    ref2, ours2 = make_pair("llama")
    ours2.loss_function = ref2.loss_function = _user_loss
    with pytest.warns(UserWarning, match="loss_function was replaced"):
        twin2 = copy.deepcopy(ours2)
        assert twin2.loss_function is _user_loss and ict.is_applied(twin2)
        assert_loss_close(twin2(**batch).loss.detach(), ref2(**batch).loss.detach())


def _user_loss(logits, labels, vocab_size, **kwargs):
    """A loss of the user's own (label smoothing), set as the model's loss_function."""
    return nn.functional.cross_entropy(logits[:, :-1].reshape(-1, vocab_size),
                                       labels[:, 1:].reshape(-1), label_smoothing=0.1)


def test_a_loss_function_set_after_apply_runs_on_the_logits():
    """model.loss_function set after apply() takes logits: the call computes them and runs
    it, with a warning (it got the head's (1, 1, 1) placeholder, a shape error naming
    nothing of ours); revert() keeps it."""
    ref, ours = make_pair("llama")
    batch = make_batch()
    ours.loss_function = ref.loss_function = _user_loss
    with pytest.warns(UserWarning, match="loss_function was replaced after apply"):
        o = ours(**batch)
    assert o.logits is not None
    assert_loss_close(o.loss.detach(), ref(**batch).loss.detach())
    ict.revert(ours)
    assert ours.loss_function is _user_loss and not ict.is_applied(ours)


def test_deepcopy_of_a_patched_model_runs_on_its_own_weights():
    """(TRL's reference models, EMA copies.) A closure-based patch would make the copy call
    the original model."""
    import copy
    ref, ours = make_pair("llama")
    twin = copy.deepcopy(ours)
    assert ict.is_applied(twin) and twin.forward.__self__ is twin
    with torch.no_grad():
        for m in (ref, twin):
            m.lm_head.weight.mul_(0.5)
    batch = make_batch()
    o = twin(**batch)
    assert o.logits is None
    assert_loss_close(o.loss.detach(), ref(**batch).loss.detach())
    assert ours(**batch).loss.item() != pytest.approx(o.loss.item(), rel=1e-3)


def test_default_budget_under_autocast_counts_the_autocast_dtype(monkeypatch):
    """Eagerly the default chunk is lean_chunk_rows rows: under bf16 autocast with float32
    parameters (a Trainer's bf16=True) the chunks' logits are bf16, so the budget is counted
    in 2-byte logits (it was in the weight's 4: twice the rows)."""
    seen = _budgets_seen(monkeypatch)
    _, ours = make_pair("llama")
    with torch.autocast("cpu", dtype=torch.bfloat16):
        ours(**make_batch()).loss.backward()
    assert seen == [plan.lean_chunk_rows(V, 16) * V * 2]


def test_apply_again_takes_a_new_budget():
    """apply() of a patched model with a memory_budget (or chunk_size) replaces the budget
    (it was kept, silently); without either it changes nothing."""
    _, ours = make_pair("llama")
    patch = vars(ours)[ict._PATCH_ATTR]
    assert ict.apply(ours, memory_budget=1 << 20) is ours and patch.memory_budget == 1 << 20
    ict.apply(ours)
    assert patch.memory_budget == 1 << 20
    with pytest.warns(FutureWarning, match="memory_budget"):
        ict.apply(ours, chunk_size=5)
    assert patch.memory_budget == 5 * V * 4
    with pytest.raises(ValueError, match="memory_budget"):
        ict.apply(ours, memory_budget=0)


def test_a_forward_replaced_before_apply_is_refused_unless_known():
    """A forward set on the instance before apply() may read the output's logits (here a
    z-loss of them), which a fused call never makes: apply() refuses it, naming it (it was
    called with a placeholder, the z-loss silently 0). The class's own forward rebound,
    torch.compile's wrapper of it and accelerate's mixed-precision wrapper are accepted."""
    import types
    ref, model = make_pair("llama")
    ict.revert(model)
    inner = model.forward

    def forward_with_z_loss(self, *args, **kwargs):
        out = inner(*args, **kwargs)
        out.loss = out.loss + 1e-2 * out.logits.float().logsumexp(-1).square().mean()
        return out
    model.forward = types.MethodType(forward_with_z_loss, model)
    with pytest.raises(ValueError, match="forward_with_z_loss.*apply\\(\\) before wrapping"):
        ict.apply(model)
    assert not ict.is_applied(model)
    batch = make_batch()
    r = ref(**batch).loss
    for wrap in ("rebound", "compiled", "accelerate"):
        del model.forward
        if wrap == "rebound":
            model.forward = model.forward
        elif wrap == "compiled":
            model.forward = torch.compile(model.forward, backend="eager")
        else:
            _accelerate_mixed_precision(model)
        ict.apply(model)
        o = model(**batch)
        assert o.logits is None, wrap
        if wrap != "accelerate":   # (bf16 autocast: not float32's loss)
            assert_loss_close(o.loss.detach(), r.detach(), msg=wrap)
        ict.revert(model)
    torch._dynamo.reset()


def test_a_compiled_model_is_named_in_errors():
    """apply() of torch.compile(model) says to patch before compiling; is_applied() sees
    through the compiled wrapper; revert() of it says how instead of doing nothing."""
    _, ours = make_pair("llama")
    ict.revert(ours)
    with pytest.raises(TypeError, match="OptimizedModule.*patch the model before compiling"):
        ict.apply(torch.compile(ours))
    compiled = torch.compile(ict.apply(ours))
    assert ict.is_applied(compiled)
    with pytest.raises(TypeError, match="revert\\(compiled._orig_mod\\)"):
        ict.revert(compiled)
    assert ict.is_applied(ours)


@pytest.mark.parametrize("how", ["torch.save", "pickle"])
def test_a_patched_model_pickles_and_loads_back_patched(how):
    """torch.save(model) / pickle of a patched model: the file loads (the patched forwards,
    bound to this module's functions, are not pickled as such) into a model patched again,
    with its memory budget, whose loss and gradients are stock's; revert() works on it."""
    import io
    import pickle
    ref, ours = make_pair("llama")
    ict.revert(ours)
    ict.apply(ours, memory_budget=4096)
    if how == "torch.save":
        buf = io.BytesIO()
        torch.save(ours, buf)
        buf.seek(0)
        back = torch.load(buf, weights_only=False)
    else:
        back = pickle.loads(pickle.dumps(ours))
    assert ict.is_applied(back) and ict.is_applied(ours)
    assert vars(back)[ict._PATCH_ATTR].memory_budget == 4096
    assert vars(back)[ict._PATCH_ATTR].head is back.lm_head is not ours.lm_head
    batch = make_batch()
    o = back(**batch)
    assert o.logits is None
    r = ref(**batch)
    assert_loss_close(o.loss.detach(), r.loss.detach())
    o.loss.backward()
    r.loss.backward()
    assert_grads_close(back, ref)
    ict.revert(back)
    assert back(**batch).logits.shape == (B, T, V)
    assert ours(**batch).logits is None


def test_a_shallow_copy_shares_the_patched_head_and_runs_unpatched():
    """copy.copy shares the submodules (the patched head among them): the copy is left
    unpatched (stock's loss, its logits), the original stays patched."""
    import copy
    ref, ours = make_pair("llama")
    twin = copy.copy(ours)
    assert not ict.is_applied(twin) and ict.is_applied(ours) and twin.lm_head is ours.lm_head
    batch = make_batch()
    o = twin(**batch)
    assert o.logits.shape == (B, T, V)
    assert_loss_close(o.loss.detach(), ref(**batch).loss.detach())
    assert ours(**batch).logits is None


def test_resize_token_embeddings_after_apply():
    """model.resize_token_embeddings(n) of an untied head replaces lm_head: the next training
    call patches the new head (as apply() again would) and its loss and gradients are
    stock's."""
    ref, ours = make_pair("llama")
    for m in (ref, ours):
        m.resize_token_embeddings(V + 8)
        m.get_output_embeddings().weight.data[V:] = 0.5   # (not the mean init's exact copy)
        m.get_input_embeddings().weight.data[V:] = 0.25
    old_head = vars(ours)[ict._PATCH_ATTR].head
    assert ours.lm_head is not old_head
    batch = make_batch()
    batch["labels"][0, 3] = V + 5
    o, r = ours(**batch), ref(**batch)
    assert o.logits is None and vars(ours)[ict._PATCH_ATTR].head is ours.lm_head
    assert "forward" not in vars(old_head)
    assert_loss_close(o.loss.detach(), r.loss.detach())
    o.loss.backward()
    r.loss.backward()
    assert_grads_close(ours, ref)


def test_signature_is_kept_for_the_trainer_and_generate():
    import inspect
    _, ours = make_pair("llama")
    params = inspect.signature(ours.forward).parameters
    assert "labels" in params and "logits_to_keep" in params
    assert any(p.kind == inspect.Parameter.VAR_KEYWORD for p in params.values())


# ----------------------------------------------------------------------------- refusals

def _llama():
    return transformers.LlamaForCausalLM(make_config("llama"))


class _ScaledLlama(transformers.LlamaForCausalLM):
    """A logit scaling apply() does not know: the logits doubled before the loss."""

    def forward(self, input_ids=None, labels=None, **kwargs):
        hidden_states = self.model(input_ids=input_ids, **kwargs).last_hidden_state
        logits = self.lm_head(hidden_states)
        logits = logits * 2.0
        loss = None
        if labels is not None:
            loss = self.loss_function(logits, labels, self.config.vocab_size)
        return transformers.modeling_outputs.CausalLMOutputWithPast(loss=loss, logits=logits)


class _ZLossLlama(transformers.LlamaForCausalLM):
    """Reads the logits after the loss (a z-loss): the fused loss would silently drop it."""

    def forward(self, input_ids=None, labels=None, **kwargs):
        hidden_states = self.model(input_ids=input_ids, **kwargs).last_hidden_state
        logits = self.lm_head(hidden_states)
        loss = None
        if labels is not None:
            loss = self.loss_function(logits, labels, self.config.vocab_size)
        loss = loss + 1e-4 * logits.logsumexp(-1).square().mean()
        return transformers.modeling_outputs.CausalLMOutputWithPast(loss=loss, logits=logits)


class _RelabelLlama(transformers.LlamaForCausalLM):
    """Changes the labels before the loss: the fused loss would use the call's labels."""

    def forward(self, input_ids=None, labels=None, **kwargs):
        hidden_states = self.model(input_ids=input_ids).last_hidden_state
        logits = self.lm_head(hidden_states)
        labels = labels.masked_fill(labels == 0, -100)
        loss = None
        if labels is not None:
            loss = self.loss_function(logits, labels, self.config.vocab_size, **kwargs)
        return transformers.modeling_outputs.CausalLMOutputWithPast(loss=loss, logits=logits)


class _NoKwargsLlama(transformers.LlamaForCausalLM):
    """Hands no **kwargs to its loss: num_items_in_batch and shift_labels do not reach it."""

    def forward(self, input_ids=None, attention_mask=None, labels=None, **kwargs):
        hidden_states = self.model(input_ids=input_ids,
                                   attention_mask=attention_mask).last_hidden_state
        logits = self.lm_head(hidden_states)
        loss = None
        if labels is not None:
            loss = self.loss_function(logits, labels, self.config.vocab_size)
        return transformers.modeling_outputs.CausalLMOutputWithPast(loss=loss, logits=logits)


class _MonkeyPatchedLlama(transformers.LlamaForCausalLM):
    """A class whose forward a test replaces after apply() (a monkeypatch of the class)."""


def test_a_forward_replaced_on_the_class_after_apply_is_not_taken_for_the_checked_one(
        monkeypatch):
    """The class's forward replaced after apply() (a Liger- or Unsloth-style monkeypatch; here
    one adding a z-loss of the logits, which a fused call would drop): the patched model's
    training call warns and runs the new forward unfused (its loss, the z-loss included), and
    apply() on a new model checks the new forward (refused), not the first one's result."""
    cfg = make_config("llama")
    torch.manual_seed(0)
    ours = ict.apply(_MonkeyPatchedLlama(cfg).train())
    stock = _MonkeyPatchedLlama(cfg).train()
    stock.load_state_dict(ours.state_dict())
    monkeypatch.setattr(_MonkeyPatchedLlama, "forward", _ZLossLlama.forward)
    batch = make_batch()
    want = stock(**batch).loss
    with pytest.warns(UserWarning, match="forward was replaced after apply"):
        got = ours(**batch)
    assert got.logits is not None
    torch.testing.assert_close(got.loss, want)
    with pytest.raises(ValueError, match="after the loss"):
        ict.apply(_MonkeyPatchedLlama(cfg).train())


def test_a_loss_call_without_kwargs_is_mirrored():
    cfg = make_config("llama")
    torch.manual_seed(0)
    ref = _NoKwargsLlama(cfg).double().train()
    ours = _NoKwargsLlama(cfg).train()
    ours.load_state_dict(ref.state_dict())
    ict.apply(ours.float())
    batch = make_batch(shift=True)
    n = torch.tensor(40)
    r, o = ref(**batch, num_items_in_batch=n), ours(**batch, num_items_in_batch=n)
    assert o.logits is None
    assert_loss_close(o.loss.detach(), r.loss.detach())
    # (with **kwargs handed on, as LlamaForCausalLM does, they would change the loss)
    plain = transformers.LlamaForCausalLM(cfg).double()
    plain.load_state_dict(ref.state_dict())
    with torch.no_grad():
        assert plain(**batch, num_items_in_batch=n).loss.item() != \
            pytest.approx(r.loss.item(), rel=1e-3)


def test_refuses_what_it_cannot_do_exactly():
    cfg = make_config("llama")
    for cls, words in ((_ScaledLlama, "logits * 2.0"), (_ZLossLlama, "after the loss"),
                       (_RelabelLlama, "assigns `labels`")):
        with pytest.raises(ValueError, match="Supported: a causal LM") as e:
            ict.apply(cls(cfg))
        assert words in str(e.value)
        assert not ict.is_applied(cls(cfg))
    m = _llama()
    m.lm_head = nn.Sequential(nn.Linear(16, V, bias=False))
    with pytest.raises(ValueError, match="get_output_embeddings|nn.Linear"):
        ict.apply(m)
    m = _llama()
    m.loss_function = lambda *a, **k: 0.0
    with pytest.raises(ValueError, match="ForCausalLMLoss"):
        ict.apply(m)
    with pytest.raises(TypeError, match="float64"):
        ict.apply(_llama().double())
    with pytest.raises(TypeError, match="PreTrainedModel"):
        ict.apply(nn.Linear(2, 2))
    # A head whose forward is replaced on the instance (accelerate's offload hooks, any
    # wrapper): the fused loss would bypass it.
    m = _llama()
    head = m.lm_head
    head.forward = lambda x: nn.functional.linear(x, head.weight) * 0.5
    with pytest.raises(ValueError, match="lm_head's forward is replaced on the instance"):
        ict.apply(m)
    assert not ict.is_applied(m) and "_inductor_ce_patch" not in vars(head)


def test_a_head_changed_after_apply_is_an_error_not_a_different_loss():
    """A LoRA-like hook on lm_head (its output plus a delta): the call is unfused, with a
    warning; a head replaced by one apply() refuses (a wrapper, not a plain nn.Linear): the
    call raises apply()'s error (a plain new head is patched:
    test_resize_token_embeddings_after_apply)."""
    _, ours = make_pair("llama")
    handle = ours.lm_head.register_forward_hook(lambda m, i, o: o + torch.zeros(B, T, V))
    with pytest.warns(UserWarning, match="forward hook"):
        assert ours(**make_batch()).logits is not None
    handle.remove()
    ours.lm_head = torch.nn.Sequential(ours.lm_head)
    ours.get_output_embeddings = lambda: ours.lm_head
    for _ in range(2):   # every call, not the first only: the model stays patched
        with pytest.raises(ValueError, match="replaced after .*not a plain torch.nn.Linear"):
            ours(**make_batch())
        assert ict.is_applied(ours)
    ict.revert(ours)     # what the error says: unfused from then on
    assert ours(**make_batch()).logits is not None
    assert not any(k.startswith("_inductor_ce") for k in vars(ours))   # (the hook's warning)


class _PeftLike(nn.Module):
    """What apply() reads of a PEFT model (peft.PeftModel): get_base_model(), and a forward
    that calls the base model's."""

    def __init__(self, base):
        super().__init__()
        self.base_model = base

    def get_base_model(self):
        return self.base_model

    def forward(self, **kwargs):
        return self.base_model(**kwargs)


def test_a_peft_model_is_patched_through_its_base_model():
    ref, base = make_pair("llama")
    ict.revert(base)
    wrapped = _PeftLike(base)
    assert ict.apply(wrapped) is wrapped and ict.is_applied(wrapped) and ict.is_applied(base)
    batch = make_batch()
    o, r = wrapped(**batch), ref(**batch)
    assert o.logits is None
    assert_loss_close(o.loss.detach(), r.loss.detach())
    ict.revert(wrapped)
    assert not ict.is_applied(base) and wrapped(**batch).logits is not None
    with pytest.raises(TypeError, match="PreTrainedModel \\(or a PEFT model"):
        ict.apply(_PeftLike(nn.Linear(2, 2)))


def test_data_parallel_replicas_are_refused():
    """nn.DataParallel's replicate() copies each module's __dict__: a patched model's replica
    would run the original's forward; replicating raises instead (a RuntimeError naming DDP
    and FSDP), and works again after revert()."""
    _, ours = make_pair("llama")
    for module in (ours, ours.lm_head):
        with pytest.raises(RuntimeError, match="DataParallel.*DistributedDataParallel"):
            module._replicate_for_data_parallel()
    head = ours.lm_head
    ict.revert(ours)
    assert ours._replicate_for_data_parallel() is not ours
    assert head._replicate_for_data_parallel() is not head


def test_refuses_a_library_model_with_an_unknown_transform():
    """ModernBertDecoder's logits go through a second module: refused, never patched."""
    cfg = transformers.ModernBertDecoderConfig(vocab_size=V, hidden_size=16,
                                               intermediate_size=32, num_hidden_layers=1,
                                               num_attention_heads=2, pad_token_id=0,
                                               bos_token_id=1, eos_token_id=2)
    with pytest.raises(ValueError, match="self.decoder"):
        ict.apply(transformers.ModernBertDecoderForCausalLM(cfg))


def test_forward_check_accepts_the_library_s_causal_lms():
    """The source check recognises the families the tests run (and their transforms)."""
    from inductor_ce.integrations.transformers import _forward_spec
    for cls_name, softcap, scale in (
            ("LlamaForCausalLM", False, None), ("GPT2LMHeadModel", False, None),
            ("Gemma2ForCausalLM", True, None), ("Gemma3ForCausalLM", True, None),
            ("Qwen3MoeForCausalLM", False, None), ("MixtralForCausalLM", False, None),
            ("CohereForCausalLM", False, ("mul", ("logit_scale",))),
            ("GraniteForCausalLM", False, ("div", ("config", "logits_scaling")))):
        spec = _forward_spec(getattr(transformers, cls_name))
        assert (spec.softcap, spec.scale) == (softcap, scale), cls_name


# ----------------------------------------------------------------------------- the function

def test_for_causal_lm_loss_matches_transformers():
    """ForCausalLMLoss(hidden, weight, labels, hidden_size, ...) == transformers'
    ForCausalLMLoss(hidden @ weight.T + bias, labels, vocab_size, ...) in float64."""
    from transformers.loss.loss_utils import ForCausalLMLoss as hf_loss
    g = torch.Generator().manual_seed(3)
    h = torch.randn(B, T, 16, generator=g)
    w = torch.randn(V, 16, generator=g) * 0.5
    b = torch.randn(V, generator=g)
    labels = make_batch()["labels"]
    shift = make_batch(shift=True)["shift_labels"]
    cases = [dict(), dict(num_items_in_batch=7), dict(num_items_in_batch=torch.tensor(11)),
             dict(shift_labels=shift), dict(final_logit_softcapping=1.5), dict(bias=b),
             dict(ignore_index=5, labels=labels.clamp_min(0))]
    for kw in cases:
        kw = dict(kw)
        lab = kw.pop("labels", labels)
        cap, bias = kw.pop("final_logit_softcapping", None), kw.pop("bias", None)
        h64, w64 = h.double().requires_grad_(), w.double().requires_grad_()
        z = torch.nn.functional.linear(h64, w64, None if bias is None else bias.double())
        if cap is not None:
            z = cap * torch.tanh(z / cap)
        ref = hf_loss(z, lab, V, **kw)
        h32, w32 = h.clone().requires_grad_(), w.clone().requires_grad_()
        loss = ict.ForCausalLMLoss(h32, w32, lab, 16, final_logit_softcapping=cap, bias=bias,
                                   output_attentions=False, **kw)   # (a forward kwarg: ignored)
        assert_loss_close(loss, ref, msg=str(kw))
        (loss * 3).backward()
        (ref * 3).backward()
        assert_grad_close(h32.grad, h64.grad, msg=f"{kw} hidden")
        assert_grad_close(w32.grad, w64.grad, msg=f"{kw} weight")
    with pytest.raises(ValueError, match="return_token_accuracy"):
        ict.ForCausalLMLoss(h, w, labels, 16, return_token_accuracy=True)


def test_for_causal_lm_loss_liger_extras():
    """Liger's keyword names: ce_weight (class weights), label_smoothing, lse_square_scale
    (z-loss: + scale * lse**2, reduced like the loss), against float64 F.cross_entropy."""
    F = torch.nn.functional
    g = torch.Generator().manual_seed(5)
    h = torch.randn(B, T, 16, generator=g)
    w = torch.randn(V, 16, generator=g) * 0.5
    cw = torch.rand(V, generator=g) + 0.5
    labels = make_batch()["labels"]
    t = F.pad(labels, (0, 1), value=-100)[..., 1:].reshape(-1)
    keep = t != -100
    for kw in (dict(ce_weight=cw), dict(label_smoothing=0.1), dict(lse_square_scale=1e-2),
               dict(num_items_in_batch=13, label_smoothing=0.2)):
        z = (h.double() @ w.double().T).reshape(-1, V)
        n = kw.get("num_items_in_batch")
        ref = F.cross_entropy(z, t, None if "ce_weight" not in kw else cw.double(),
                              label_smoothing=kw.get("label_smoothing", 0.0),
                              reduction="mean" if n is None else "sum")
        if "lse_square_scale" in kw:
            ref = ref + kw["lse_square_scale"] * z.logsumexp(-1)[keep].square().mean()
        ref = ref if n is None else ref / n
        loss = ict.ForCausalLMLoss(h, w, labels, 16, **kw)
        assert_loss_close(loss, ref, msg=str(kw))


def test_module_imports_and_loss_runs_without_transformers():
    code = ("import sys; sys.modules['transformers'] = None\n"   # (import transformers fails)
            "import torch, inductor_ce.transformers as t\n"
            "h, w = torch.randn(2, 3, 4), torch.randn(5, 4)\n"
            "print(float(t.ForCausalLMLoss(h, w, torch.randint(0, 5, (2, 3)), 4)))\n"
            "try:\n    t.apply(torch.nn.Linear(2, 2))\nexcept ImportError:\n"
            "    print('apply needs transformers')\n")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout.splitlines()[-1] == "apply needs transformers"


def test_for_causal_lm_loss_compiles_fullgraph_without_host_sync():
    """fullgraph: no graph break, so no .item() on num_items_in_batch either."""
    g = torch.Generator().manual_seed(4)
    h = torch.randn(B, T, 16, generator=g, requires_grad=True)
    w = torch.randn(V, 16, generator=g, requires_grad=True)
    labels, n = make_batch()["labels"], torch.tensor(9)
    f = torch.compile(ict.ForCausalLMLoss, fullgraph=True, backend="aot_eager")
    loss = f(h, w, labels, 16, num_items_in_batch=n, final_logit_softcapping=2.0)
    ref = ict.ForCausalLMLoss(h, w, labels, 16, num_items_in_batch=n,
                              final_logit_softcapping=2.0)
    torch.testing.assert_close(loss, ref, rtol=1e-6, atol=0)


# ----------------------------------------------------------------------------- compiled

@pytest.mark.parametrize("name,backend", [("llama", "inductor"), ("gemma2", "aot_eager")])
def test_compiled_model_fullgraph(name, backend):
    """torch.compile(model, fullgraph=True): the patched forward traces without a graph
    break; loss and every gradient as the unpatched float64 model's. Llama through Inductor
    (the lowering), Gemma-2 (softcap) through aot_eager (the graph capture; cheaper)."""
    torch._dynamo.reset()
    ref, ours = make_pair(name)
    compiled = torch.compile(ours, fullgraph=True, backend=backend)
    r, o = run_both(ref, ours, make_batch(), ours_fn=compiled,
                    num_items_in_batch=torch.tensor(11))
    assert o.logits is None
    assert_loss_close(o.loss, r.loss)
    assert_grads_close(ours, ref, f"compiled {name}")
    # Later calls reuse the graph (a thread's running call was an attribute the first call
    # created, and Dynamo's guard on it recompiled the second call).
    with torch._dynamo.config.patch(error_on_recompile=True):
        for seed in (1, 2):
            compiled(**make_batch(seed), num_items_in_batch=torch.tensor(11)).loss.backward()


@pytest.mark.gpu
@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("name", ["llama", "gemma2", "qwen3_moe"])
def test_on_cuda(name, compiled):
    """The same comparison on a CUDA GPU (the fused op's GPU kernels), eager and compiled
    (fullgraph, except Qwen3-MoE: transformers' own router-logit capture takes a lock that
    Dynamo cannot trace, a graph break of the unpatched model too)."""
    dev = os.environ.get("INDUCTOR_CE_GPU_DEVICE", "cuda")   # (=cpu: tests/GPU.md's dry run)
    torch._dynamo.reset()
    ref, ours = make_pair(name, device=dev)
    fn = torch.compile(ours, fullgraph=name != "qwen3_moe") if compiled else ours
    batch = {k: v.to(dev) for k, v in make_batch().items()}
    r, o = run_both(ref, ours, batch, ours_fn=fn, num_items_in_batch=torch.tensor(11).to(dev))
    assert o.logits is None
    assert_loss_close(o.loss.cpu(), r.loss.cpu(), msg=name)
    assert_grads_close(ours, ref, f"cuda {name}")


# ----------------------------------------------------------------------------- Trainer

TRAINER_EXAMPLE = '''
import torch
from transformers import LlamaConfig, LlamaForCausalLM, Trainer, TrainingArguments
import inductor_ce.transformers

config = LlamaConfig(vocab_size=256, hidden_size=32, intermediate_size=64,
                     num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2)
torch.manual_seed(0)
model = LlamaForCausalLM(config)
inductor_ce.transformers.apply(model)          # the training loss without logits

data = [{"input_ids": ids, "labels": ids} for ids in torch.randint(0, 256, (16, 32))]
args = TrainingArguments(output_dir="/tmp/inductor_ce_trainer", max_steps=4,
                         per_device_train_batch_size=4, gradient_accumulation_steps=2,
                         learning_rate=1e-3, logging_steps=1, report_to="none",
                         save_strategy="no", use_cpu=True)
trainer = Trainer(model=model, args=args, train_dataset=data)
trainer.train()
print([log["loss"] for log in trainer.state.log_history if "loss" in log])
'''


def test_trainer_example_runs_and_matches_the_unpatched_trainer(tmp_path):
    """The Trainer example of docs/transformers.md, then the same run unpatched (one process,
    two runs): the same
    logged losses (the Trainer's gradient accumulation passes num_items_in_batch)."""
    plain = TRAINER_EXAMPLE.replace("inductor_ce.transformers.apply(model)", "pass")
    assert plain != TRAINER_EXAMPLE
    out_dir = "/tmp/inductor_ce_trainer"
    driver = (f"exec({TRAINER_EXAMPLE.replace(out_dir, str(tmp_path / 'a'))!r})\n"
              f"exec({plain.replace(out_dir, str(tmp_path / 'b'))!r})\n")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", driver], env=env, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    ours, plain = (json.loads(line) for line in p.stdout.splitlines() if line.startswith("["))
    assert len(ours) == 4 and all(l > 0 for l in ours)
    print("Trainer losses, patched / unpatched:", ours, plain)
    assert ours == pytest.approx(plain, rel=1e-5)
    assert ours[-1] < ours[0]


# ----------------------------------------------------------------------------- FSDP2

FSDP_LAYOUTS = ("head_sharded_alone", "head_in_root", "apply_after_fully_shard")


def test_fsdp2_fully_shard_two_gloo_ranks():
    """fully_shard on 2 CPU gloo ranks: every rank's loss, and every parameter's gradient
    shard (FSDP2 averages over the ranks), as the float64 reference computes them on the
    two ranks' batches in one process. ``head_sharded_alone``: fully_shard(lm_head) of its
    own, so its weight is a sharded DTensor outside its forward; ``head_in_root``: the head
    in the root's group; ``apply_after_fully_shard``: the first, patched after sharding (on
    FSDP2's subclasses). All in one launch."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, OMP_NUM_THREADS="1",
                   PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "fsdp", str(r),
                                   str(port), out], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True) for r in range(2)]
        logs = [p.communicate(timeout=600)[0] for p in procs]
        for r, p in enumerate(procs):
            assert p.returncode == 0, f"rank {r}:\n{logs[r][-5000:]}"
            with open(os.path.join(out, f"rank{r}.json")) as f:
                result = json.load(f)
            for layout in FSDP_LAYOUTS:
                assert result[layout]["error"] is None, f"rank {r}: {result[layout]['error']}"
                assert result[layout]["sharded_head"] == (layout != "head_in_root")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _fsdp_worker(rank, port, out):
    import torch.distributed as dist
    world = 2
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world, timeout=timedelta(seconds=300))
    results = {layout: _fsdp_case(layout, rank, world) for layout in FSDP_LAYOUTS}
    with open(os.path.join(out, f"rank{rank}.json"), "w") as f:
        json.dump(results, f)
    dist.destroy_process_group()


def _fsdp_case(layout, rank, world):
    import traceback

    from torch.distributed.fsdp import FSDPModule, fully_shard
    from torch.distributed.tensor import DTensor
    result = {"error": None, "sharded_head": False}
    try:
        ref, ours = make_pair("llama")
        if layout == "apply_after_fully_shard":
            ict.revert(ours)
        if layout != "head_in_root":
            fully_shard(ours.lm_head)
        for layer in ours.model.layers:
            fully_shard(layer)
        fully_shard(ours)
        if layout == "apply_after_fully_shard":
            ict.apply(ours)
        # its own FSDP group (a sharded DTensor outside its forward) or the root's
        result["sharded_head"] = isinstance(ours.lm_head, FSDPModule)
        assert isinstance(ours.lm_head.weight, DTensor)
        assert ours.lm_head.weight.to_local().shape == (V // world, 16)
        batches = [make_batch(seed=10 + r) for r in range(world)]
        o = ours(**batches[rank])
        assert o.logits is None
        o.loss.backward()
        ref_losses = [ref(**b).loss for b in batches]
        (sum(ref_losses) / world).backward()     # FSDP2 averages the ranks' gradients
        assert_loss_close(o.loss.detach(), ref_losses[rank].detach(), msg=f"rank {rank}")
        ref_params = dict(ref.named_parameters())
        for n, p in ours.named_parameters():
            assert isinstance(p, DTensor) and isinstance(p.grad, DTensor), n
            full = ref_params[n].grad
            step = -(-full.shape[0] // world)       # Shard(0): torch.chunk's split
            grad_close(p.grad.to_local(), full[rank * step:(rank + 1) * step],
                       f"{layout} rank {rank} {n}")
    except Exception:
        result["error"] = traceback.format_exc()
    return result


if __name__ == "__main__":
    if sys.argv[1] == "fsdp":
        _fsdp_worker(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])


@pytest.mark.parametrize("name", ["llama", "qwen2", "gemma2", "gpt2", "cohere", "granite"])
def test_all_padded_batch_gives_the_unpatched_model_s_loss_and_zero_gradients(name):
    """A micro-batch whose labels are all -100 (gradient accumulation over padded data): the
    loss is transformers' (NaN for the mean, 0 for sum / num_items_in_batch, NaN for a
    num_items_in_batch of 0: every micro-batch of the step padded) and every gradient is
    exactly zero, as the unpatched model's, not NaN."""
    ref, ours = make_pair(name)
    batch = make_batch()
    batch["labels"] = torch.full_like(batch["labels"], -100)
    for extra in ({}, {"num_items_in_batch": torch.tensor(3)},
                  {"num_items_in_batch": torch.tensor(0)}):
        ref.zero_grad(set_to_none=True)
        ours.zero_grad(set_to_none=True)
        r, o = run_both(ref, ours, batch, **extra)
        torch.testing.assert_close(o.loss.double(), r.loss.double(), equal_nan=True, rtol=0,
                                   atol=0)
        for (n, p), q in zip(ours.named_parameters(), ref.parameters()):
            assert q.grad is not None and not q.grad.any(), (name, n)   # (the reference)
            assert p.grad is not None and not p.grad.any(), (name, n, extra)


def test_a_hook_on_the_head_is_honoured_not_bypassed():
    """Hooks that edit the head's logits (registered after apply(): checked per call): a
    forward hook scaling them, a pre-hook scaling its input, a global forward hook masking
    a class. Each call with one is the unpatched forward, with a warning naming the hook, and
    gets the stock loss; with the hook removed the call is fused again."""
    from torch.nn.modules.module import register_module_forward_hook
    ref, ours = make_pair("llama")
    batch = make_batch()

    def scale(mod, args, out):
        return out * 0.5

    def pre(mod, args):
        return (args[0] * 2.0,)

    def mask(mod, args, out):
        return out.masked_fill(torch.arange(out.shape[-1]) == 3, -1e4) \
            if mod is ours.lm_head or mod is ref.lm_head else None

    for register, name in ((lambda m: m.lm_head.register_forward_hook(scale), "scale"),
                           (lambda m: m.lm_head.register_forward_pre_hook(pre), "pre"),
                           (lambda m: register_module_forward_hook(mask), "mask")):
        handles = [register(ref)] + ([register(ours)] if name != "mask" else [])
        with pytest.warns(UserWarning, match=f"hook .*{name}"):
            o = ours(**batch)
        r = ref(**batch)
        for h in handles:
            h.remove()
        assert o.logits is not None, name
        assert_loss_close(o.loss, r.loss, msg=name)
    assert ours(**batch).logits is None          # no hook left: fused again


def test_a_model_cast_to_float64_after_apply_runs_unfused():
    """apply() refuses a float64 head; a model cast to float64 after it computes its loss as
    the unpatched model does (with a warning), as a float32 one again fuses."""
    ref, ours = make_pair("llama")
    batch = make_batch()
    ours.double()
    with pytest.warns(UserWarning, match="float64"):
        o = ours(**batch)
    assert o.logits is not None
    torch.testing.assert_close(o.loss, ref(**batch).loss, rtol=1e-12, atol=0)
    assert ours.float()(**batch).logits is None
