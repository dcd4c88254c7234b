"""inductor_ce.transformers with TRL: apply() serves TRL's fused LM head, and GRPO-style losses.

TRL's trainers (1.16) never read ``outputs.logits`` in training: ``SFTTrainer``, ``GRPOTrainer``
and the others put TRL's own fused LM head on the model (``add_fused_lm_head``) and call
``model(..., labels=labels, fused_lm_head=True)``, which reads the backbone's hidden states and
the head's weight itself and returns a ``FusedCausalLMOutput`` (per-token ``log_probs``,
``entropy``, ``is_top1``, ``label_mask``). ``apply(trainer.model)`` makes inductor_ce compute
those calls (docs/transformers.md#trl). These tests compare, on tiny random models (config
objects, a local tokenizer, no download), TRL's head against ours (one call; SFTTrainer and
GRPOTrainer runs), and a GRPO-style loss from ``linear_log_probs`` against its logits in
float64. FSDP2 (fully_shard) runs on 2 gloo processes on the CPU (this file as a script).

Tolerances. One head call (the same hidden states): log-probs, entropy and loss to 1e-5
relative plus 1e-6 absolute (float32 arithmetic over V = 300 classes, two summation orders),
``is_top1`` and ``label_mask`` equal; gradients 1e-5 relative plus 1e-5 of the largest entry
(tests/test_transformers.py's rule: the backbone runs in float32). The SFTTrainer runs: the
logged loss and entropy per step to 2e-5 relative: the two heads' float32 roundings (1e-6)
change the AdamW updates by about as much, and three steps add up three such differences;
``mean_token_accuracy`` exactly (a count: only a near-tie within float32 rounding could flip a
token, and this seed has none). The trainer runs in float32 (``bf16=False``; TRL's default is
bf16 autocast, whose roundings would drown these comparisons).
"""
from __future__ import annotations

import copy
import os
import sys

import pytest
import torch

transformers = pytest.importorskip("transformers")
trl = pytest.importorskip("trl", reason="trl is not installed (pip install trl: the test "
                                        "extra)")
from trl.trainer import utils as trl_utils  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inductor_ce  # noqa: E402
import inductor_ce.transformers as ict  # noqa: E402

V = 300
SFT_OUTPUTS = ("log_probs", "entropy", "is_top1")   # SFTTrainer's add_fused_lm_head outputs


def make_model(name="llama", seed=0, head_scale=4.0):
    small = dict(vocab_size=V, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                 num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                 initializer_range=0.1, tie_word_embeddings=False)
    t = transformers
    if name == "llama":
        cfg, cls = t.LlamaConfig(**small), t.LlamaForCausalLM
    elif name == "qwen2":
        cfg, cls = t.Qwen2Config(**small), t.Qwen2ForCausalLM
    elif name == "gemma2":   # final_logit_softcapping: TRL's head and ours both apply it
        cfg = t.Gemma2Config(**dict(small, tie_word_embeddings=True), head_dim=8,
                             query_pre_attn_scalar=8, sliding_window=4,
                             final_logit_softcapping=2.0)
        cls = t.Gemma2ForCausalLM
    elif name == "cohere":   # logits * logit_scale
        cfg = t.CohereConfig(**dict(small, tie_word_embeddings=True), logit_scale=0.5)
        cls = t.CohereForCausalLM
    else:
        raise KeyError(name)
    torch.manual_seed(seed)
    model = cls(cfg).train()
    with torch.no_grad():   # logits spread over several units: is_top1 and softcap bite
        model.get_output_embeddings().weight.mul_(head_scale)
    return model


def trl_pair(name="llama", temperature=1.0, outputs=SFT_OUTPUTS):
    """(TRL's head, ours): two copies of one model, each with TRL's fused LM head as a trainer
    puts it; ours then apply()'d."""
    theirs = make_model(name)
    ours = copy.deepcopy(theirs)
    for m in (theirs, ours):
        trl_utils.add_fused_lm_head(m, temperature=temperature, outputs=outputs)
    return theirs, ict.apply(ours)


def make_batch(seed=0, shift=False, model=None):
    """Three rows of 12 tokens; with ``model`` (unpatched), every other next token is the
    model's argmax there, so that ``is_top1`` is both True and False."""
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, V, (3, 12), generator=g)
    if model is not None:
        with torch.no_grad():   # causal: a later token does not change an earlier argmax
            for t in range(0, 11, 2):
                ids[:, t + 1] = model(input_ids=ids).logits[:, t].argmax(-1)
    mask = torch.ones_like(ids)
    mask[1, 8:] = 0                            # right padding
    labels = ids.masked_fill(mask == 0, -100)
    labels[2, :5] = -100                       # a prompt: only the completion is scored
    batch = dict(input_ids=ids, attention_mask=mask, labels=labels)
    if shift:   # pre-shifted labels (context parallelism): used as given, not shifted
        batch["shift_labels"] = torch.cat([labels[:, 1:], torch.full((3, 1), -100)], 1)
    return batch


def close(got, ref, what, rtol=1e-5, atol=1e-6):
    torch.testing.assert_close(got.double(), ref.double(), rtol=rtol, atol=atol,
                               msg=lambda m: f"{what}: {m}")


def count_calls(monkeypatch):
    """Counts of calls to inductor_ce's fused head and to TRL's chunked log-prob kernel."""
    calls = {"ours": 0, "trl": 0}
    ours, theirs = ict.linear_cross_entropy, trl_utils._ChunkedLogProbFunction

    def spy(*args, **kwargs):
        calls["ours"] += 1
        calls["extras"] = [k for k in ("return_entropy", "return_accuracy") if kwargs.get(k)]
        return ours(*args, **kwargs)

    class Spy(theirs):
        @classmethod
        def apply(cls, *args, **kwargs):
            calls["trl"] += 1
            return theirs.apply(*args, **kwargs)

    monkeypatch.setattr(ict, "linear_cross_entropy", spy)
    monkeypatch.setattr(trl_utils, "_ChunkedLogProbFunction", Spy)
    return calls


# ----------------------------------------------------------------------------- one call

@pytest.mark.parametrize("name,temperature,variant", [
    ("llama", 1.0, "labels"),                  # SFTTrainer's call
    ("llama", 0.7, "labels"),                  # GRPOTrainer's: its temperature
    ("qwen2", 0.7, "num_items_in_batch"),      # a bias-free Qwen2 head, a given count
    ("llama", 1.0, "shift_labels"),
    ("gemma2", 0.7, "labels"),                 # final_logit_softcapping, then temperature
    ("cohere", 1.0, "labels"),                 # logit_scale
])
def test_fused_lm_head_call_matches_trls_head(name, temperature, variant, monkeypatch):
    """model(..., labels, fused_lm_head=True): TRL's FusedCausalLMOutput, every field and the
    gradients of a GRPO-style loss of them (log-probs and an entropy bonus) as TRL's head's;
    computed by inductor_ce, TRL's kernel never called."""
    theirs, ours = trl_pair(name, temperature)
    batch = make_batch(shift=variant == "shift_labels", model=theirs)
    extra = {"num_items_in_batch": torch.tensor(17)} if variant == "num_items_in_batch" else {}
    calls = count_calls(monkeypatch)
    o = ours(**batch, **extra, fused_lm_head=True)
    assert calls == {"ours": 1, "trl": 0, "extras": ["return_entropy", "return_accuracy"]}
    t = theirs(**batch, **extra, fused_lm_head=True)
    assert type(o) is type(t) is trl_utils.FusedCausalLMOutput
    assert o.log_probs.shape == t.log_probs.shape == (
        (3, 12) if variant == "shift_labels" else (3, 11))
    for k in ("loss", "log_probs", "entropy"):
        close(getattr(o, k), getattr(t, k), k)
    for k in ("is_top1", "label_mask"):
        assert torch.equal(getattr(o, k), getattr(t, k)), k
    assert o.is_top1.any() and not o.is_top1.all()
    assert o.log_sum_sq_probs is None and o.mean_logits is None and o.aux_loss is None
    assert (o.entropy[~o.label_mask] == 0).all() and (o.log_probs[~o.label_mask] == 0).all()

    def grpo_like(out, model):
        mask = out.label_mask.float()
        advantages = torch.tensor([[1.0], [-0.5], [2.0]])
        ratio = torch.exp(out.log_probs - out.log_probs.detach())
        loss = -(ratio * advantages * mask).sum() / mask.sum()
        loss = loss - 0.01 * (out.entropy * mask).sum() / mask.sum()   # entropy bonus
        (loss + out.loss).backward()
        return {n: p.grad for n, p in model.named_parameters()}

    got, ref = grpo_like(o, ours), grpo_like(t, theirs)
    assert got.keys() == ref.keys()
    for n in ref:
        close(got[n], ref[n], n, atol=1e-5 * ref[n].abs().max().item())


def test_fused_lm_head_call_in_eval_mode_and_without_grad(monkeypatch):
    """TRL scores the reference policy, and evaluates, with fused_lm_head=True in eval mode
    and under no_grad: still our head, the same values; the fields not asked for (a reference
    model's head: log_probs only) are None and not computed."""
    theirs, ours = trl_pair(temperature=0.7, outputs=("log_probs",))
    theirs.eval()
    ours.eval()
    calls = count_calls(monkeypatch)
    with torch.no_grad():
        o = ours(**make_batch(), fused_lm_head=True)
        t = theirs(**make_batch(), fused_lm_head=True)
    assert calls == {"ours": 1, "trl": 1, "extras": []}
    assert o.entropy is None and o.is_top1 is None
    close(o.log_probs, t.log_probs, "log_probs")


def test_fused_lm_head_call_of_a_model_cast_to_float64_after_apply(monkeypatch):
    """A model cast to float64 after apply(): TRL's head serves its fused_lm_head calls (with
    a warning), as TRL's float64 model's; inductor_ce's op is never called."""
    theirs, ours = trl_pair(temperature=0.7)
    theirs.double()
    ours.double()
    calls = count_calls(monkeypatch)
    with pytest.warns(UserWarning, match="float64"):
        o = ours(**make_batch(), fused_lm_head=True)
    assert calls["ours"] == 0
    t = theirs(**make_batch(), fused_lm_head=True)
    torch.testing.assert_close(o.log_probs, t.log_probs, rtol=1e-12, atol=0)


def test_apply_before_and_after_trls_head_and_revert(monkeypatch):
    """apply() before TRL's trainer patched the model: TRL's head sits on top of ours; apply()
    again takes its calls over. revert(): TRL's head again, with the trainer's settings.
    Ordinary calls stay apply()'s: a training call with labels fuses, logits None."""
    theirs = make_model()
    trl_utils.add_fused_lm_head(theirs, temperature=0.7)
    ours = ict.apply(make_model())
    trl_utils.add_fused_lm_head(ours, temperature=0.7)           # as SFTTrainer(model=...)
    calls = count_calls(monkeypatch)
    ours(**make_batch(), fused_lm_head=True)
    assert calls == {"ours": 0, "trl": 1}                        # TRL's head, not ours
    assert ict.apply(ours) is ours
    o = ours(**make_batch(), fused_lm_head=True)
    assert calls["ours"] == 1 and calls["trl"] == 1
    close(o.log_probs, theirs(**make_batch(), fused_lm_head=True).log_probs, "log_probs")
    out = ours(**make_batch())                                   # an ordinary training call
    assert out.logits is None and calls["ours"] == 2 and calls["extras"] == []
    ict.revert(ours)
    assert not ict.is_applied(ours)
    o = ours(**make_batch(), fused_lm_head=True)
    assert calls["ours"] == 2 and calls["trl"] == 3
    close(o.log_probs, theirs(**make_batch(), fused_lm_head=True).log_probs, "log_probs")
    assert ours(**make_batch()).logits is not None


@pytest.mark.parametrize("how", ["deepcopy", "torch.save"])
def test_copies_keep_trls_head_taken_over(how):
    """copy.deepcopy / torch.save of a model whose TRL head apply() took over (the trainer's
    model): a copy with TRL's head, its settings, taken over again, on the copy's own
    weights (deepcopy and torch.save raised a TypeError: a thread-local was pickled)."""
    import io
    theirs, ours = trl_pair(temperature=0.7)
    if how == "deepcopy":
        back = copy.deepcopy(ours)
    else:
        buf = io.BytesIO()
        torch.save(ours, buf)
        buf.seek(0)
        back = torch.load(buf, weights_only=False)
    assert ict.is_applied(back) and back.lm_head is not ours.lm_head
    batch = make_batch()
    o = back(**batch, fused_lm_head=True)
    t = theirs(**batch, fused_lm_head=True)
    for k in ("loss", "log_probs", "entropy"):
        close(getattr(o, k), getattr(t, k), k)
    assert torch.equal(o.is_top1, t.is_top1)
    before = ours(**batch, fused_lm_head=True).log_probs
    with torch.no_grad():
        back.lm_head.weight.mul_(1.5)
    assert not torch.equal(back(**batch, fused_lm_head=True).log_probs, o.log_probs)
    assert torch.equal(ours(**batch, fused_lm_head=True).log_probs, before)
    ict.revert(back)   # TRL's own head again, with the trainer's temperature
    with torch.no_grad():
        back.lm_head.weight.div_(1.5)
    close(back(**batch, fused_lm_head=True).log_probs, t.log_probs, "reverted")


def test_refusals_name_the_cause():
    model = ict.apply(make_model())
    with pytest.raises(ValueError, match="fused_lm_head=True .*TRL's fused LM head"):
        model(**make_batch(), fused_lm_head=True)
    dpo = make_model()   # DPOTrainer asks for fields inductor_ce does not compute
    trl_utils.add_fused_lm_head(dpo, outputs=("log_probs", "mean_logits", "is_top1"))
    with pytest.raises(ValueError, match=r"\['mean_logits'\].*leave this model to TRL"):
        ict.apply(dpo)
    assert not ict.is_applied(dpo)


# ----------------------------------------------------------------------------- SFTTrainer

def make_tokenizer():
    from tokenizers import Tokenizer, models
    vocab = {f"t{i}": i for i in range(V)}
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer(models.WordLevel(vocab, unk_token="t0")),
        pad_token="t0", eos_token="t1", unk_token="t0")


def make_dataset(n, seed):
    """Rows of 7 to 16 token ids among 2..9 (0 and 1 are the pad and EOS tokens): the model
    learns within three steps to predict those few, so the accuracy moves off 0."""
    from datasets import Dataset
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(7, 17, (n,), generator=g).tolist()
    return Dataset.from_dict({"input_ids": [torch.randint(2, 10, (k,), generator=g).tolist()
                                            for k in lengths]})


def sft_run(patch, tmp_path):
    model = make_model(head_scale=1.0)
    args = trl.SFTConfig(output_dir=str(tmp_path), max_steps=3, per_device_train_batch_size=4,
                         gradient_accumulation_steps=2, learning_rate=1e-2, logging_steps=1,
                         report_to="none", save_strategy="no", use_cpu=True, bf16=False,
                         disable_tqdm=True, seed=0, per_device_eval_batch_size=4)
    trainer = trl.SFTTrainer(model=model, args=args, train_dataset=make_dataset(24, 0),
                             eval_dataset=make_dataset(8, 1), processing_class=make_tokenizer())
    if patch:
        ict.apply(trainer.model)   # after the trainer: its fused LM head is ours from now on
    trainer.train()
    keys = ("loss", "entropy", "mean_token_accuracy")
    logs = [[log[k] for k in keys] for log in trainer.state.log_history if "loss" in log]
    evals = trainer.evaluate()
    return logs, [evals["eval_" + k] for k in keys]


def test_sft_trainer_logs_match_unpatched(tmp_path, monkeypatch):
    """Three SFTTrainer steps (gradient accumulation 2, variable lengths, padding) and an
    evaluation, with apply() and without, same seed: the same loss, entropy and
    mean_token_accuracy at every step and in the evaluation; the patched run never calls TRL's
    kernel."""
    calls = count_calls(monkeypatch)
    ref, ref_eval = sft_run(False, tmp_path)
    assert calls["ours"] == 0 and calls["trl"] == 8   # 3 x 2 training + 2 eval batches
    got, got_eval = sft_run(True, tmp_path)
    assert calls["ours"] == 8 and calls["trl"] == 8
    assert len(got) == len(ref) == 3
    assert ref[-1][2] > 0   # (accuracy off 0: the metric is exercised)
    for step, (g, r) in enumerate(zip(got + [got_eval], ref + [ref_eval])):
        for k, a, b in zip(("loss", "entropy", "mean_token_accuracy"), g, r):
            if k == "mean_token_accuracy":
                assert a == b, (step, k, a, b)
            else:
                assert a == pytest.approx(b, rel=2e-5), (step, k, a, b)


# ----------------------------------------------------------------------------- GRPOTrainer

def grpo_run(patch, tmp_path):
    from datasets import Dataset
    from tokenizers import pre_tokenizers
    tokenizer = make_tokenizer()
    tokenizer.backend_tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    prompts = [" ".join(f"t{2 + (7 * i + j) % 50}" for j in range(4)) for i in range(8)]

    def reward(completions, **kwargs):   # any reward: the advantages only need to differ
        return [sum(map(ord, c)) % 7 / 7 for c in completions]

    make_model(head_scale=1.0).save_pretrained(tmp_path / "model")   # beta > 0: the trainer
    tokenizer.save_pretrained(tmp_path / "model")                     # loads a ref_model
    args = trl.GRPOConfig(output_dir=str(tmp_path), max_steps=3, per_device_train_batch_size=4,
                          num_generations=4, max_completion_length=8, temperature=0.7,
                          learning_rate=1e-2, logging_steps=1, report_to="none",
                          save_strategy="no", use_cpu=True, bf16=False, disable_tqdm=True,
                          seed=0, beta=0.04)
    trainer = trl.GRPOTrainer(model=str(tmp_path / "model"), reward_funcs=reward, args=args,
                              train_dataset=Dataset.from_dict({"prompt": prompts}),
                              processing_class=tokenizer)
    if patch:
        ict.apply(trainer.model)
        ict.apply(trainer.ref_model)   # (its own TRL head: log-probs only)
    trainer.train()
    keys = ("loss", "grad_norm", "entropy", "reward", "kl")
    return [[log[k] for k in keys] for log in trainer.state.log_history if "loss" in log]


def test_grpo_trainer_logs_match_unpatched(tmp_path, monkeypatch):
    """Three GRPOTrainer steps (temperature 0.7, sampled completions, the entropy metric, a
    reference model for the KL term) with apply() on the policy and the reference model and
    without, same seed: the same rewards (the same completions), loss, gradient norm, entropy
    and KL; the patched run never calls TRL's kernel. (The loss is small: the ratio is 1 with
    one iteration per generation, the advantages have mean 0, the KL starts at 0; compared to
    1e-6 absolute plus 2e-5 relative. The gradient norm, over every parameter, to 1e-4
    relative; the KL, a difference of close log-probs, to 1e-6 absolute.)"""
    calls = count_calls(monkeypatch)
    ref = grpo_run(False, tmp_path)
    assert calls["ours"] == 0 and calls["trl"] == 6   # the policy's and the reference's
    got = grpo_run(True, tmp_path)
    assert calls["ours"] == 6 and calls["trl"] == 6
    assert len(got) == len(ref) == 3 and all(r[1] > 0.1 for r in ref) and ref[-1][4] > 1e-3
    for step, (g, r) in enumerate(zip(got, ref)):
        assert g[0] == pytest.approx(r[0], rel=2e-5, abs=1e-6), (step, "loss")
        assert g[1] == pytest.approx(r[1], rel=1e-4), (step, "grad_norm")
        assert g[2] == pytest.approx(r[2], rel=2e-5), (step, "entropy")
        assert g[3] == r[3], (step, "reward")
        assert g[4] == pytest.approx(r[4], abs=1e-6), (step, "kl")


# ----------------------------------------------------------------------------- the op

@pytest.mark.parametrize("temperature", [0.7, 1.0])
def test_grpo_loss_from_linear_log_probs_matches_logits(temperature):
    """A GRPO-style loss (advantage-weighted ratio of per-token log-probs at a temperature, an
    entropy bonus) from linear_log_probs, against the same loss from the logits
    (log_softmax(h @ W.T / T).gather) in float64: values and the gradients of h and W."""
    g = torch.Generator().manual_seed(1)
    n, d = 48, 32
    h = torch.randn(n, d, generator=g)
    w = torch.randn(V, d, generator=g) * 0.5
    target = torch.randint(0, V, (n,), generator=g)
    target[::7] = -100
    old = torch.randn(n, generator=g) * 0.1 - 5.0       # the sampling policy's log-probs
    adv = torch.randn(n, generator=g)
    keep = (target != -100).double()

    def loss_of(logp, entropy):
        ratio = torch.exp(logp - old.to(logp.dtype))
        clipped = torch.clamp(ratio, 0.8, 1.2)
        a = adv.to(logp.dtype)
        per_token = -torch.minimum(ratio * a, clipped * a) - 0.01 * entropy
        return (per_token * keep.to(logp.dtype)).sum() / keep.sum()

    h32, w32 = h.clone().requires_grad_(), w.clone().requires_grad_()
    logp, entropy = inductor_ce.linear_log_probs(h32, w32, target, temperature=temperature,
                                                 return_entropy=True)
    assert logp.dtype == entropy.dtype == torch.float32 and logp.shape == target.shape
    assert (logp[target == -100] == 0).all()
    ours = loss_of(logp, entropy)
    ours.backward()

    h64, w64 = h.double().requires_grad_(), w.double().requires_grad_()
    log_softmax = torch.log_softmax(h64 @ w64.T / temperature, -1)
    ref_logp = log_softmax.gather(-1, target.clamp(min=0)[:, None])[:, 0] * keep
    ref_entropy = -(log_softmax.exp() * log_softmax).sum(-1)
    ref = loss_of(ref_logp, ref_entropy)
    ref.backward()

    close(logp, ref_logp, "log_probs")
    close(entropy, ref_entropy, "entropy")
    close(ours, ref, "loss")
    for what, got, want in (("h", h32.grad, h64.grad), ("W", w32.grad, w64.grad)):
        close(got, want, f"grad {what}", atol=1e-5 * want.abs().max().item())
    # log_probs alone (no entropy): the same values
    close(inductor_ce.linear_log_probs(h, w, target, temperature=temperature), ref_logp,
          "log_probs alone")


# ----------------------------------------------------------------------------- FSDP2

@pytest.mark.slow   # (two processes: about 20 s on 2 cores)
def test_fused_lm_head_call_under_fsdp2_two_gloo_ranks(tmp_path):
    """TRL's call on a model with TRL's head, apply()'d, then fully_shard (as accelerate does
    when training starts): the head's own FSDP group, 2 CPU gloo ranks. Each rank's log-probs
    and entropy, and every gradient shard of a loss of both (FSDP2 averages the ranks), as
    TRL's head on the unsharded model computes them on the two ranks' batches."""
    import json
    import subprocess
    from test_transformers import _free_port
    port = _free_port()
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
         os.environ.get("PYTHONPATH", "")]))
    procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "fsdp", str(r),
                               str(port), str(tmp_path)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) for r in range(2)]
    logs = [p.communicate(timeout=600)[0] for p in procs]
    for r, p in enumerate(procs):
        assert p.returncode == 0, f"rank {r}:\n{logs[r][-5000:]}"
        with open(tmp_path / f"rank{r}.json") as f:
            error = json.load(f)["error"]
        assert error is None, f"rank {r}: {error}"


def _fsdp_worker(rank, port, out):
    import json
    import traceback
    from datetime import timedelta

    import torch.distributed as dist
    from torch.distributed.fsdp import fully_shard
    from torch.distributed.tensor import DTensor
    world, error = 2, None
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world, timeout=timedelta(seconds=300))
    try:
        theirs, ours = trl_pair(temperature=0.7, outputs=("log_probs", "entropy"))
        fully_shard(ours.lm_head)
        for layer in ours.model.layers:
            fully_shard(layer)
        fully_shard(ours)

        def loss_of(out):
            return -(out.log_probs.sum() + 0.1 * out.entropy.sum()) / 40

        batches = [make_batch(seed=10 + r) for r in range(world)]
        o = ours(**batches[rank], fused_lm_head=True)
        loss_of(o).backward()
        refs = [theirs(**b, fused_lm_head=True) for b in batches]
        (sum(loss_of(t) for t in refs) / world).backward()
        close(o.log_probs, refs[rank].log_probs, "log_probs")
        close(o.entropy, refs[rank].entropy, "entropy")
        ref_params = dict(theirs.named_parameters())
        for n, p in ours.named_parameters():
            assert isinstance(p, DTensor) and isinstance(p.grad, DTensor), n
            full = ref_params[n].grad
            step = -(-full.shape[0] // world)       # Shard(0): torch.chunk's split
            want = full[rank * step:(rank + 1) * step]
            close(p.grad.to_local(), want, f"rank {rank} {n}",
                  atol=1e-5 * full.abs().max().item())
    except Exception:
        error = traceback.format_exc()
    with open(os.path.join(out, f"rank{rank}.json"), "w") as f:
        json.dump({"error": error}, f)
    dist.destroy_process_group()


if __name__ == "__main__":
    if sys.argv[1] == "fsdp":
        _fsdp_worker(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
