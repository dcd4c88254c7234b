"""The main job: ``python -m inductor_ce.demo`` trains a GPT on real text twice, stock
``torch.compile`` against ``torch.compile`` after ``inductor_ce.enable()``.

    python -m inductor_ce.demo                              # CPU, a couple of minutes
    python -m inductor_ce.demo --device cuda --out DIR      # 136M parameters, bf16 autocast

Part 1 (numerics, a constructed batch): float32 logits, V = 32000, target logit = max of the
others + margin. Our loss and target gradient against a collapse-safe float64 reference,
softplus(logsumexp_{j != t} z_j - z_t), and against stock F.cross_entropy, which returns
exactly 0 from a margin of about 17 on.

Part 2 (training): the text is the Python standard library's own source and docstrings, a
byte-level BPE tokenizer trained on it at start (``inductor_ce.demo.corpus``: deterministic,
cached, no network), held-out files by a hash of their path. A GPT (``inductor_ce.demo.gpt``)
whose loss is the usual ``F.cross_entropy(logits.float()[..., :-1, :].view(-1, V), ...,
reduction="sum") / num_items`` with padding labelled -100 is trained from the same initial
weights on the same batches, in the same order, once per compile. Shown, printed and in one
PNG (plus every number in a JSON file):
  * training loss at every step and held-out loss every ``--eval-every`` steps, both runs,
    and their relative difference;
  * step time (median after compilation) and, on CUDA, peak memory of both;
  * on the held-out batches, every ``--eval-every`` steps: the share of target tokens whose
    float32 margin, z_t - max_{j != t} z_j (the logits the loss sees: ``logits.float()``),
    exceeds ``COLLAPSE_MARGIN`` = 24 ln 2 = 16.64; and on those tokens the loss and target
    gradient of stock F.cross_entropy (eager, float32), of ``inductor_ce.cross_entropy``
    (eager) and of float64.
  * a plain summary of what the curves show, computed from them ("no difference" only where
    the numbers say so, by the criterion printed with it).

Why 24 ln 2: stock cross-entropy is m + log(sum_j exp(z_j - m)) - z_t with m the max. When the
target is the max, that sum is 1 + sum_{j != t} exp(z_j - z_t), and in float32 1 + x rounds to
1 once x <= 2^-24 (half an ulp of 1): the loss becomes log(1) = 0 and the target gradient
p_t - 1 = 0 exactly. Above 24 ln 2 even the best competitor's term rounds away when added
to the 1 on its own; whether a given token collapses then depends on the other logits and on
the order in which stock sums them (vectorized partial sums, each below 2^-24, are lost one
by one). So the share above the threshold is where the collapse can happen, and the demo
counts on how many of those tokens stock actually returns exactly 0.

A missing optional package (tokenizers; matplotlib for the PNG) gives one line saying what
to install and exit status 2, before any work.
"""
from __future__ import annotations

import argparse
import copy
import dataclasses
import gc
import json
import math
import os
import platform
import statistics
import sys
import textwrap
import time
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn.functional as F

import inductor_ce

from . import corpus, gpt

MARGINS = (0.0, 20.0, 30.0, 50.0)
VOCAB = 32000
MIN_VOCAB = 257                       # the tokenizer's 256 byte symbols and <|endoftext|>
RUNS = (("stock torch.compile", False), ("inductor_ce.enable()", True))
# On a GPU a second stock run (same seed, same batches) measures how far two runs of the same
# code drift apart (non-deterministic kernels: atomics in the embedding's backward, cuBLAS's
# split reductions): the yardstick for the difference between stock and ours.
AGAIN = ("stock torch.compile, again", False)
COLLAPSE_MARGIN = 24 * math.log(2)    # 16.64: exp(-margin) below half an ulp of 1.0 in fp32
SAME_FP32 = 1e-5                      # curves this close at every point: float32 rounding
DEFAULT_OUT = "inductor_ce_demo"      # the main job's output folder, below the current one
SAME_PRACTICAL = 1e-3                 # a mean difference below 0.1% of the loss


# --- part 1 -----------------------------------------------------------------------------------

def confident_batch(margins=MARGINS, vocab=VOCAB, seed=0):
    """float32 logits (one row per margin) and targets: z_t = max_{j != t} z_j + margin."""
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(len(margins), vocab, generator=g) * 2
    target = torch.randint(0, vocab, (len(margins),), generator=g)
    rows = torch.arange(len(margins))
    others = logits.clone()
    others[rows, target] = float("-inf")
    logits[rows, target] = others.amax(-1) + torch.tensor(margins)
    return logits, target


def reference64(logits, target):
    """Collapse-safe float64 per-row loss and d loss / d z_t: softplus(lse_nt - z_t) and
    -sigmoid(lse_nt - z_t) (= -(1 - p_t), the non-target mass)."""
    z = logits.double()
    rows = torch.arange(len(target), device=z.device)
    z_t = z[rows, target]
    others = z.clone()
    others[rows, target] = float("-inf")
    d = torch.logsumexp(others, -1) - z_t
    return F.softplus(d), -torch.sigmoid(d)


def loss_and_target_grad(fn, logits, target):
    """Per-row loss of ``fn(logits, target, reduction="none")``, its gradient with respect
    to each row's target logit, and each row's gradient summed over the classes (float64 sum
    of the float32 gradient: 0 in exact math, since softmax sums to 1)."""
    with torch.enable_grad():
        x = logits.detach().clone().requires_grad_()
        loss = fn(x, target, reduction="none")
        loss.sum().backward()
    rows = torch.arange(len(target), device=x.device)
    return loss.detach(), x.grad[rows, target], x.grad.double().sum(-1)


def grad_sum64(logits, target):
    """Each row's float64 gradient summed over the classes: softmax off the target and the
    collapse-safe -(non-target mass) on it (``reference64``)."""
    g = torch.softmax(logits.double(), -1)
    g[torch.arange(len(target), device=g.device), target] = reference64(logits, target)[1]
    return g.sum(-1)


def _num(x) -> float:
    """``x`` as a float, with -0.0 printed as 0 (adding 0.0 turns -0.0 into +0.0)."""
    return float(x) + 0.0


def part1(out=print):
    logits, target = confident_batch()
    ref_loss, ref_grad = reference64(logits, target)
    ours = loss_and_target_grad(inductor_ce.cross_entropy, logits, target)
    stock = loss_and_target_grad(F.cross_entropy, logits, target)
    out(f"Part 1: a confident-target batch: float32 logits, V={VOCAB}, target logit = "
        "max of the others + margin.\nfloat64 reference: softplus(logsumexp_{j!=t} z_j - z_t)"
        " and d/dz_t = -(1 - p_t).\n")
    out(f"{'margin':>6} | {'loss: float64':>13} {'inductor_ce':>11} {'rel.err':>7} "
        f"{'F.cross_ent':>11} | {'dL/dz_t: f64':>12} {'inductor_ce':>11} {'rel.err':>7} "
        f"{'F.cross_ent':>11}")
    for i, m in enumerate(MARGINS):
        cells = []
        for ref, a, b in ((ref_loss[i], ours[0][i], stock[0][i]),
                          (ref_grad[i], ours[1][i], stock[1][i])):
            rel = abs(a.double() - ref) / abs(ref)
            cells.append(f"{_num(ref):13.4e} {_num(a):11.4e} {_num(rel):7.1e} {_num(b):11.4e}")
        out(f"{m:6.0f} | {cells[0]} | {cells[1][1:]}")
    return logits, target, ref_loss, ref_grad, ours, stock


# --- the confident-token metric ---------------------------------------------------------------

def confident_tokens(logits, target) -> dict:
    """On float32 ``logits`` (N, V) and targets (N,) (no ignored rows): how many targets have
    a margin z_t - max_{j != t} z_j above ``COLLAPSE_MARGIN``, and on those the summed loss
    and target gradient of stock F.cross_entropy, of ours and of float64, how many of them
    stock returns as exactly 0, our largest relative error against float64, and the
    gradient summed over classes and tokens (``gsum_*``: 0 in exact math)."""
    z = logits.float()
    rows = torch.arange(len(target), device=z.device)
    z_t = z[rows, target]
    others = z.index_put((rows, target), torch.tensor(float("-inf"), device=z.device))
    margin = z_t - others.amax(-1)
    del others
    conf = margin > COLLAPSE_MARGIN
    r = dict(tokens=len(target), confident=int(conf.sum()),
             max_margin=float(margin.max()) if len(target) else float("nan"),
             stock_loss_zero=0, stock_grad_zero=0, loss_f64=0.0, loss_ours=0.0,
             loss_stock=0.0, grad_f64=0.0, grad_ours=0.0, grad_stock=0.0,
             ours_loss_rel_err=0.0, ours_grad_rel_err=0.0, gsum_f64=0.0, gsum_ours=0.0,
             gsum_stock=0.0)
    if r["confident"] == 0:
        return r
    zc, tc = z[conf], target[conf]
    ref_loss, ref_grad = reference64(zc, tc)
    stock_loss, stock_grad, stock_gsum = loss_and_target_grad(F.cross_entropy, zc, tc)
    ours_loss, ours_grad, ours_gsum = loss_and_target_grad(inductor_ce.cross_entropy, zc, tc)
    r.update(stock_loss_zero=int((stock_loss == 0).sum()),
             stock_grad_zero=int((stock_grad == 0).sum()),
             loss_f64=float(ref_loss.sum()), loss_ours=float(ours_loss.double().sum()),
             loss_stock=float(stock_loss.double().sum()), grad_f64=float(ref_grad.sum()),
             grad_ours=float(ours_grad.double().sum()),
             grad_stock=float(stock_grad.double().sum()),
             ours_loss_rel_err=float(((ours_loss.double() - ref_loss) / ref_loss).abs().max()),
             ours_grad_rel_err=float(((ours_grad.double() - ref_grad) / ref_grad).abs().max()),
             gsum_f64=float(grad_sum64(zc, tc).sum()), gsum_ours=float(ours_gsum.sum()),
             gsum_stock=float(stock_gsum.sum()))
    return r


def _merge(a: Optional[dict], b: dict) -> dict:
    if a is None:
        return dict(b)
    return {k: max(a[k], v) if k == "max_margin" or k.endswith("rel_err") else a[k] + v
            for k, v in b.items()}


@torch.no_grad()
def evaluate(model, batches, amp: bool) -> dict:
    """Held-out loss (float64 cross-entropy of the float32 logits: one measuring stick for
    both models) and ``confident_tokens`` over ``batches``. Runs the model eagerly (its
    parameters are the compiled module's): the compiled graph is a training graph."""
    total, tokens, conf = 0.0, 0, None
    for idx, labels in batches:
        with torch.autocast(idx.device.type, dtype=torch.bfloat16, enabled=amp):
            logits = model(idx)
        v = logits.shape[-1]
        z = logits.float()[:, :-1].reshape(-1, v)
        t = labels[:, 1:].reshape(-1)
        keep = t != gpt.IGNORE_INDEX
        z, t = z[keep], t[keep]
        z64 = z.double()
        rows = torch.arange(len(t), device=z.device)
        total += float((torch.logsumexp(z64, -1) - z64[rows, t]).sum())
        tokens += len(t)
        del z64
        conf = _merge(conf, confident_tokens(z, t))
    return dict(loss=total / tokens, **conf)


# --- sizes ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Preset:
    vocab: int          # tokenizer vocabulary = model vocabulary
    block: int
    layers: int
    heads: int
    width: int
    batch: int
    steps: int
    eval_every: int
    eval_batches: int
    corpus_mb: Optional[float]   # cap on the corpus (None: all of it)
    lr: float
    warmup: int
    memorize: int       # steps of the second phase on one window repeated (0: none)
    memorize_lr: float  # its learning rate, decaying linearly to 0


PRESETS = {
    # A couple of minutes on 2 CPU cores, most of it compiling: vocabulary 8192, not 32k, and
    # 8 x 64 tokens a step, so that the LM head and the loss (the largest tensors) fit the CPU
    # budget; 1.5 MB of text.
    "cpu": Preset(vocab=8192, block=64, layers=2, heads=4, width=128, batch=8, steps=100,
                  eval_every=20, eval_batches=4, corpus_mb=1.5, lr=3e-3, warmup=10,
                  memorize=500, memorize_lr=1.2e-2),
    # 136M parameters (GPT-2 small's shape, V = 32768, untied head) on all of the corpus, 8k
    # tokens/step.
    "cuda": Preset(vocab=32768, block=1024, layers=12, heads=12, width=768, batch=8,
                   steps=2000, eval_every=100, eval_batches=4, corpus_mb=None, lr=6e-4,
                   warmup=100, memorize=300, memorize_lr=1e-3),
    # Under a minute: a smoke test of the whole path on any device, and what the tests run.
    "tiny": Preset(vocab=512, block=32, layers=1, heads=2, width=32, batch=4, steps=6,
                   eval_every=3, eval_batches=1, corpus_mb=0.3, lr=3e-3, warmup=2,
                   memorize=600, memorize_lr=3e-2),
}


def model_config(p: Preset) -> gpt.GPTConfig:
    return gpt.GPTConfig(vocab_size=p.vocab, block_size=p.block, n_layer=p.layers,
                         n_head=p.heads, n_embd=p.width)


# --- part 2 -----------------------------------------------------------------------------------

class Bar:
    """A one-line progress bar on stderr: redrawn in place on a terminal; in a log, a line at
    the start, every 10% and at the end."""

    def __init__(self, total: int, desc: str):
        self.total, self.desc, self.n, self.tty = total, desc, 0, sys.stderr.isatty()
        self._draw("compiling")

    def _draw(self, note: str) -> None:
        if self.tty or self.n in (0, self.total) or \
                self.n * 10 // self.total != (self.n - 1) * 10 // self.total:
            filled = 24 * self.n // self.total
            line = (f"{self.desc:<22} [{'#' * filled}{'.' * (24 - filled)}] "
                    f"{self.n}/{self.total} {note:<24}")
            sys.stderr.write("\r" + line if self.tty else line + "\n")
            sys.stderr.flush()

    def update(self, note: str) -> None:
        self.n += 1
        self._draw(note)

    def close(self) -> None:
        if self.tty:
            sys.stderr.write("\n")


def memorize_slice(data: corpus.Corpus, preset: Preset, device: str):
    """The second phase's text: the first training window (seeds 10**6, 10**6 + 1, ...) with
    no end of file in it, so every one of its ``block - 1`` targets counts. Returns the
    training batch (that window repeated ``preset.batch`` times: the first phase's shape, so
    the compiled graph is reused) and the window alone (what the phase is measured on)."""
    train_ids = data.train.to(device)
    for k in range(1000):
        idx, labels = gpt.windows(train_ids, data.eot, 1, preset.block, 10**6 + k, device)
        if bool((labels != gpt.IGNORE_INDEX).all()):
            break
    return (idx.repeat(preset.batch, 1), labels.repeat(preset.batch, 1)), (idx, labels)


def train_run(model, routed: bool, data: corpus.Corpus, preset: Preset, device: str,
              seed: int, heldout, desc: str, amp: Optional[bool] = None,
              memo=None) -> dict:
    """Compile a copy of ``model`` (routing on or off) and train it for ``preset.steps``
    steps on the batches of ``seed``; evaluate on ``heldout`` before the first step, every
    ``preset.eval_every`` steps and after the last. Then, given ``memo`` (from
    ``memorize_slice``), ``preset.memorize`` steps on its repeated window (``gpt.train_steps``'s
    second phase), evaluating that window (``slice_evals``) at the phase's start, about 12
    times in it and at its end. On CUDA, the peak memory of training steps from the 2nd on
    (evaluations excluded: the peak is reset after each), and what stays allocated between
    steps (weights, optimizer state, data). ``amp``: bf16 autocast (default: on CUDA only; a
    test also runs it on the CPU)."""
    torch.compiler.reset()
    gc.collect()
    cuda = device == "cuda"
    amp = cuda if amp is None else amp
    if cuda:
        torch.cuda.empty_cache()
    (inductor_ce.enable if routed else inductor_ce.disable)()
    eager = copy.deepcopy(model)
    compiled = torch.compile(eager)
    train_ids = data.train.to(device)
    memorize = preset.memorize if memo is not None else 0
    slice_every = max(1, memorize // 12)
    evals, slice_evals, mem = [], [], dict(resident=None, peak=0)
    bar = Bar(preset.steps + memorize, desc)

    def batch_at(step):
        if step >= preset.steps:
            return memo[0]
        return gpt.windows(train_ids, data.eot, preset.batch, preset.block, seed + step, device)

    def run_eval(into, step, batches):
        if cuda and mem["resident"] is not None:
            mem["peak"] = max(mem["peak"], torch.cuda.max_memory_allocated())
        into.append(dict(step=step, **evaluate(eager, batches, amp)))
        if cuda:
            torch.cuda.reset_peak_memory_stats()

    def on_step(step, loss):
        if cuda and step == 0:          # steady state from the 2nd step on
            mem["resident"] = torch.cuda.memory_allocated()
            torch.cuda.reset_peak_memory_stats()
        bar.update(f"loss {loss:.4g}")
        done = step + 1
        if done <= preset.steps and (done % preset.eval_every == 0 or done == preset.steps):
            run_eval(evals, done, heldout)
        if memorize and done >= preset.steps and ((done - preset.steps) % slice_every == 0
                                                 or done == preset.steps + memorize):
            run_eval(slice_evals, done, [memo[1]])

    run_eval(evals, 0, heldout)
    try:
        result = gpt.train_steps(compiled, batch_at, preset.steps, lr=preset.lr,
                                 warmup=preset.warmup, amp=amp, on_step=on_step,
                                 memorize_steps=memorize, memorize_lr=preset.memorize_lr)
    finally:
        bar.close()
        inductor_ce.disable()
    step_s = result["step_s"][:preset.steps]
    steady = step_s[1:] or step_s
    return dict(losses=result["losses"][:preset.steps], step_s=step_s,
                first_step_s=step_s[0], median_step_s=statistics.median(steady),
                peak_bytes=mem["peak"] if cuda else None, resident_bytes=mem["resident"],
                evals=evals, slice_losses=result["losses"][preset.steps:],
                slice_step_s=result["step_s"][preset.steps:], slice_evals=slice_evals)


# --- what the curves show ---------------------------------------------------------------------

def agreement(stock: list, ours: list, what: str, unit: str,
              names: tuple = ("stock", "ours")) -> dict:
    """Compare two curves point by point. "no difference" when the largest relative
    difference is at most ``SAME_FP32`` (float32 rounding), or when over the last fifth of
    the points (at least 3) the mean difference is within 2 standard errors of the paired
    differences or below ``SAME_PRACTICAL`` of the loss; otherwise which one is lower and
    by how much. Returns the numbers and the sentence."""
    rel = [abs(b - a) / max(abs(a), 1e-30) for a, b in zip(stock, ours)]
    worst = max(rel)
    n = max(3, len(stock) // 5)
    tail = list(zip(stock[-n:], ours[-n:]))
    d = [b - a for a, b in tail]
    mean_d = statistics.fmean(d)
    se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
    level = statistics.fmean(a for a, _ in tail)
    r = dict(max_rel_diff=worst, tail_points=len(d), tail_mean_diff=mean_d, tail_se=se,
             tail_rel_diff=mean_d / level)
    if worst <= SAME_FP32:
        r["same"] = True
        r["text"] = (f"{what}: no difference: the two curves agree at every {unit} to "
                     f"{worst:.1e} (relative), float32 rounding.")
    elif len(d) >= 3 and (abs(mean_d) <= 2 * se or abs(mean_d) <= SAME_PRACTICAL * level):
        r["same"] = True
        r["text"] = (f"{what}: no difference: the curves drift apart by up to {worst:.1e} "
                     f"(relative) at one {unit}, as small differences (rounding; on a GPU also "
                     f"non-deterministic kernels) compound over the steps, "
                     f"but over the last {len(d)} {unit}s {names[1]} differs from "
                     f"{names[0]} by "
                     f"{mean_d:+.2e} on average ({mean_d / level:+.3%}, standard error "
                     f"{se:.1e}).")
    else:
        r["same"] = False
        k = abs(mean_d) / se if se > 0 else float("inf")
        r["text"] = (f"{what}: {names[1]} is {'lower' if mean_d < 0 else 'higher'} than "
                     f"{names[0]} "
                     f"by {abs(mean_d):.3e} on average over the last {len(d)} {unit}s "
                     f"({abs(mean_d) / level:.3%}, {k:.1f} standard errors; the largest "
                     f"relative difference at one {unit}: {worst:.1e}).")
    return r


def summarize(runs: dict, device: str) -> list[str]:
    """The sentences of the summary, computed from the runs (stock, ours[, stock again])."""
    stock, ours, *again = runs.values()

    def curves(other, names):
        return [agreement(stock["losses"], other["losses"], "Training loss", "step",
                          names)["text"],
                agreement([e["loss"] for e in stock["evals"]],
                          [e["loss"] for e in other["evals"]], "Held-out loss", "evaluation",
                          names)["text"]]
    lines = curves(ours, ("stock", "ours"))
    for a in again:
        lines += [f"Run to run (a second stock run, same seed and batches; the GPU's "
                  f"non-deterministic kernels): {t[0].lower()}{t[1:]}"
                  for t in curves(a, ("stock", "stock's second run"))]
    ms = [1e3 * r["median_step_s"] for r in (stock, ours)]
    faster = ms[0] / ms[1]
    lines.append(f"Step time (median after the first, compiling, step): stock {ms[0]:.1f} ms, "
                 f"ours {ms[1]:.1f} ms: ours is "
                 + (f"{faster:.2f}x faster." if faster >= 1 else f"{1 / faster:.2f}x slower.")
                 + (" (CPU step times vary with the machine's load.)" if device == "cpu" else ""))
    if device == "cuda":
        gib = [r["peak_bytes"] / 2**30 for r in (stock, ours)]
        above = [(r["peak_bytes"] - r["resident_bytes"]) / 2**30 for r in (stock, ours)]
        lines.append(f"Peak memory of a training step: stock {gib[0]:.2f} GiB, ours "
                     f"{gib[1]:.2f} GiB ({above[0]:.2f} and {above[1]:.2f} GiB above the "
                     "weights, optimizer state and data that stay between steps).")
    for name, r in list(runs.items())[:2]:
        last = r["evals"][-1]
        most = max(r["evals"], key=lambda e: e["confident"] / e["tokens"])
        share = most["confident"] / most["tokens"]
        if most["confident"] == 0:
            lines.append(f"Confident tokens ({name} model): no held-out target token had a "
                         f"float32 margin above {COLLAPSE_MARGIN:.2f} at any evaluation "
                         f"(largest margin at the end: {last['max_margin']:.2f}), so stock's "
                         "loss would have lost nothing to the collapse on its tokens.")
            continue
        part = most["loss_f64"] / (most["loss"] * most["tokens"])
        lines.append(
            f"Confident tokens ({name} model): at most {share:.2%} of held-out targets "
            f"({most['confident']:,} of {most['tokens']:,}, step {most['step']}) have a float32 "
            f"margin > {COLLAPSE_MARGIN:.2f}; stock F.cross_entropy (eager) gives loss exactly 0"
            f" on {most['stock_loss_zero']:,} and target gradient exactly 0 on "
            f"{most['stock_grad_zero']:,} of them; ours is within "
            f"{max(most['ours_loss_rel_err'], most['ours_grad_rel_err']):.1e} of float64 on "
            f"all (loss and gradient). Their float64 loss is {part:.1e} of the held-out loss"
            + (": too little to show in these curves." if part < SAME_PRACTICAL else "."))
    return lines + memorize_summary(runs)


def memorize_summary(runs: dict) -> list[str]:
    """The sentences on the second phase (none without one), from each run's window
    evaluations: the tokens past the margin at its end and each loss on them."""
    lines = []
    for name, r in list(runs.items())[:2]:
        ev = r.get("slice_evals")
        if not ev:
            continue
        first, last = ev[0], ev[-1]
        head = (f"Memorized slice ({name} model, {len(r['slice_losses'])} steps on one "
                f"window of {last['tokens']} targets): its training loss went from "
                f"{r['slice_losses'][0]:.3e} to {r['slice_losses'][-1]:.3e} (the float64 loss "
                f"of its logits from {first['loss']:.3e} to {last['loss']:.3e} per token); ")
        if last["confident"] == 0:
            lines.append(head + f"no target passed the float32 margin {COLLAPSE_MARGIN:.2f} "
                         f"(largest margin {last['max_margin']:.2f}).")
            continue
        c = last["confident"]
        lines.append(
            head + f"at the end {c} of its targets have a float32 margin > "
            f"{COLLAPSE_MARGIN:.2f} (largest {last['max_margin']:.2f}). On those, summed: "
            f"loss: stock F.cross_entropy {_num(last['loss_stock']):.4e} (exactly 0 on "
            f"{last['stock_loss_zero']} of {c}), ours {last['loss_ours']:.4e}, float64 "
            f"{last['loss_f64']:.4e}; target gradient: stock {_num(last['grad_stock']):.4e} "
            f"(exactly 0 on {last['stock_grad_zero']} of {c}), ours {last['grad_ours']:.4e}, "
            f"float64 {last['grad_f64']:.4e} (ours within "
            f"{max(last['ours_loss_rel_err'], last['ours_grad_rel_err']):.1e} relative of "
            f"float64, loss and gradient); gradient summed over the classes: stock "
            f"{_num(last['gsum_stock']):+.3e}, ours {_num(last['gsum_ours']):+.3e}, float64 "
            f"{_num(last['gsum_f64']):+.3e} (0 in exact math).")
    return lines


# --- the picture ------------------------------------------------------------------------------

def require_matplotlib():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise corpus.MissingDependency(
            f"the demo's picture needs matplotlib: {corpus.INSTALL_HINT} (or pip install "
            "matplotlib), or run with --no-png") from None
    return plt


def plot(report: dict, path: str) -> str:
    """One PNG of the run: twelve panels and the summary (``report`` is the JSON's dict)."""
    plt = require_matplotlib()
    every = report["runs"]
    runs = dict(list(every.items())[:2])      # stock and ours; a second stock run: below
    names = list(runs)
    colors = dict(zip(names, ("tab:blue", "tab:orange")))
    styles = dict(zip(names, ("-", "--")))
    fig, axes = plt.subplots(3, 4, figsize=(20, 14))
    (a_train, a_held, a_diff, a_time), (a_mem, a_share, a_loss, a_grad), \
        (a_slice, a_margin, a_bars, a_gsum) = axes

    for name, r in runs.items():
        steps = range(1, len(r["losses"]) + 1)
        a_train.plot(steps, r["losses"], styles[name], color=colors[name], lw=1, label=name)
        ev = r["evals"]
        a_held.plot([e["step"] for e in ev], [e["loss"] for e in ev], styles[name],
                    marker="o", ms=3, color=colors[name], label=name)
    a_train.set(title="training loss (each step's batch)", xlabel="step",
                ylabel="loss (nats/token)")
    a_held.set(title="held-out loss (float64 of the float32 logits)", xlabel="step",
               ylabel="loss (nats/token)")
    for ax in (a_train, a_held):
        ax.legend()

    stock, ours = runs.values()
    floor = 1e-9
    rel = [max(abs(b - a) / abs(a), floor) for a, b in zip(stock["losses"], ours["losses"])]
    a_diff.semilogy(range(1, len(rel) + 1), rel, lw=1, color="tab:green",
                    label="training loss, per step")
    rel_h = [max(abs(b["loss"] - a["loss"]) / a["loss"], floor)
             for a, b in zip(stock["evals"], ours["evals"])]
    a_diff.semilogy([e["step"] for e in stock["evals"]], rel_h, "o", ms=4, color="tab:red",
                    label="held-out loss")
    for again in list(every.values())[2:]:
        rel_a = [max(abs(b - a) / abs(a), floor) for a, b in zip(stock["losses"],
                                                               again["losses"])]
        a_diff.semilogy(range(1, len(rel_a) + 1), rel_a, lw=0.6, color="tab:gray", alpha=0.8,
                        label="training loss, stock's second run against its first")
    a_diff.axhline(SAME_FP32, color="gray", ls=":", lw=1,
                   label=f"{SAME_FP32:.0e} (float32 rounding level)")
    a_diff.set(title="|ours - stock| / stock (0 drawn at 1e-9)", xlabel="step")
    a_diff.set_ylim(bottom=floor / 2)
    a_diff.legend(fontsize=8)

    for name, r in runs.items():
        ms = [1e3 * s for s in r["step_s"][1:]]
        a_time.plot(range(2, len(ms) + 2), ms, styles[name], color=colors[name], lw=0.8,
                    label=f"{name}: median {1e3 * r['median_step_s']:.1f} ms")
    a_time.set(title="step time (from step 2: step 1 compiles)", xlabel="step", ylabel="ms")
    a_time.set_ylim(bottom=0)
    a_time.legend(fontsize=8)

    if report["device"] == "cuda":
        gib = [r["peak_bytes"] / 2**30 for r in runs.values()]
        res = [r["resident_bytes"] / 2**30 for r in runs.values()]
        a_mem.bar(names, res, color="lightgray", label="stays between steps (weights, "
                  "optimizer state, data)")
        a_mem.bar(names, [g - b for g, b in zip(gib, res)], bottom=res,
                  color=[colors[n] for n in names], label="peak above that (activations, "
                  "logits, loss)")
        for i, g in enumerate(gib):
            a_mem.text(i, g, f"{g:.2f} GiB", ha="center", va="bottom")
        a_mem.set(title="peak memory of a training step", ylabel="GiB", ylim=(0, 1.35 * max(gib)))
        a_mem.legend(fontsize=8, loc="upper right")
    else:
        a_mem.axis("off")
        a_mem.text(0.5, 0.5, "peak memory: measured on CUDA only\n(--device cuda)",
                   ha="center", va="center", fontsize=11)

    for name, r in runs.items():
        ev = r["evals"]
        a_share.plot([e["step"] for e in ev], [100 * e["confident"] / e["tokens"] for e in ev],
                     styles[name], marker="o", ms=3, color=colors[name], label=f"{name} model")
    a_share.set(title=f"held-out targets with float32 margin > {COLLAPSE_MARGIN:.2f}",
                xlabel="step", ylabel="% of target tokens")
    a_share.legend(fontsize=8)

    for ax, key, what in ((a_loss, "loss", "loss"), (a_grad, "grad", "|d loss / d z_t|")):
        # One model (ours) for these panels: the confident tokens of the model trained with
        # ours, evaluated with each loss, on the held-out batches and then on the memorized
        # window. Means over those tokens; stock's 0 sits at the floor.
        ev = [e for e in ours["evals"] + ours.get("slice_evals", []) if e["confident"] > 0]
        if not ev:
            ax.axis("off")
            ax.text(0.5, 0.5, f"{what} on tokens above the margin:\nno target token "
                    f"had a margin\nabove {COLLAPSE_MARGIN:.2f} in this run", ha="center",
                    va="center", fontsize=11)
            continue
        x = [e["step"] for e in ev]
        f64 = [abs(e[f"{key}_f64"]) / e["confident"] for e in ev]
        mine = [abs(e[f"{key}_ours"]) / e["confident"] for e in ev]
        st = [abs(e[f"{key}_stock"]) / e["confident"] for e in ev]
        low = min(v for v in f64 + mine + st if v > 0) / 30
        ax.semilogy(x, f64, "-", color="black", lw=2, label="float64")
        ax.semilogy(x, mine, "o", color=colors[names[1]], ms=5, label="inductor_ce")
        ax.semilogy(x, [max(v, low) for v in st], "v", color=colors[names[0]], ms=6,
                    label=f"stock F.cross_entropy (0 drawn at {low:.0e})")
        zero = sum(e[f"stock_{key}_zero"] for e in ev)
        total = sum(e["confident"] for e in ev)
        ax.set(title=f"mean {what}, targets past the margin (ours' model;\nheld-out, then "
               f"the window): stock exactly 0 on {zero:,} of {total:,}", xlabel="step")
        ax.legend(fontsize=8)

    plot_memorized(runs, colors, styles, (a_slice, a_margin, a_bars, a_gsum))

    fig.suptitle(report["title"], fontsize=12)
    text = [textwrap.fill(s, 190, subsequent_indent="  ") for s in report["summary"]]
    fig.text(0.01, 0.005, "\n".join(text), fontsize=8.5, va="bottom", family="monospace")
    lines = sum(t.count("\n") + 1 for t in text)
    fig.tight_layout(rect=(0, 0.01 + 0.016 * lines, 1, 0.97))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_memorized(runs: dict, colors: dict, styles: dict, axes) -> None:
    """The second phase's row: each run's loss on the memorized window, its margins, and at
    the end, on the targets past the margin, each loss's loss, target gradient and gradient
    summed over the classes (absolute values, log scale; an exact 0 drawn at the floor)."""
    a_slice, a_margin, a_bars, a_gsum = axes
    if not all(r.get("slice_evals") for r in runs.values()):
        for ax in axes:
            ax.axis("off")
        a_slice.text(0.5, 0.5, "no memorization phase in this run", ha="center", va="center")
        return
    for name, r in runs.items():
        ev = r["slice_evals"]
        x0 = ev[0]["step"]
        a_slice.semilogy(range(x0 + 1, x0 + 1 + len(r["slice_losses"])),
                         [max(v, 1e-30) for v in r["slice_losses"]], styles[name], lw=1,
                         color=colors[name], label=f"{name}: training loss (its own loss)")
        a_slice.semilogy([e["step"] for e in ev], [e["loss"] for e in ev], "o", ms=4,
                         color=colors[name], label=f"{name} model: float64 loss of its logits")
        a_margin.plot([e["step"] for e in ev], [e["max_margin"] for e in ev], styles[name],
                      marker="o", ms=3, color=colors[name], label=f"{name}: largest margin")
        a_margin.plot([e["step"] for e in ev], [e["confident"] for e in ev], ":", marker="s",
                      ms=3, color=colors[name], label=f"{name}: targets past the margin")
    a_slice.set(title="memorizing one window: loss per token", xlabel="step")
    a_slice.legend(fontsize=7)
    a_margin.axhline(COLLAPSE_MARGIN, color="gray", ls="--", lw=1,
                     label=f"collapse margin {COLLAPSE_MARGIN:.2f}")
    a_margin.set(title="the window: float32 margins z_t - max_{j!=t} z_j",
                 xlabel="step", ylabel="margin (nats) / count")
    a_margin.legend(fontsize=7)

    last = {name: r["slice_evals"][-1] for name, r in runs.items()}
    kinds = (("f64", "float64", "black"), ("ours", "inductor_ce", "tab:orange"),
             ("stock", "stock F.cross_entropy", "tab:blue"))
    values = [abs(e[f"{q}_{k}"]) for e in last.values() for q in ("loss", "grad", "gsum")
              for k, _, _ in kinds]
    low = min([v for v in values if v > 0] or [1e-30]) / 30
    model = dict(zip(runs, ("stock's model", "ours' model")))
    groups = [(f"{q}\n{model[name]}", last[name], q) for q in ("loss", "grad") for name in runs]
    for ax, cols in ((a_bars, groups), (a_gsum, [(model[name], last[name], "gsum")
                                                 for name in runs])):
        for i, (label, e, q) in enumerate(cols):
            for j, (k, what, color) in enumerate(kinds):
                v = abs(e[f"{q}_{k}"])
                ax.bar(i + 0.27 * (j - 1), max(v, low), 0.25, color=color,
                       label=what if i == 0 else None)
                ax.text(i + 0.27 * (j - 1), max(v, low), "0" if v == 0 else f"{v:.1e}",
                        ha="center", va="bottom", fontsize=6, rotation=90)
        ax.set_xticks(range(len(cols)), [c[0] for c in cols], fontsize=8)
        ax.set_yscale("log")
        ax.set_ylim(low / 3, max(values + [low]) * 1e3)
        ax.legend(fontsize=7, loc="upper right")
    n = ", ".join(f"{model[name]} {e['confident']}" for name, e in last.items())
    a_bars.set(title=f"end: window's targets past the margin ({n})\n|sum of losses|, "
               f"|sum of target gradients| (0 drawn at {low:.0e})")
    a_gsum.set(title="|gradient summed over classes and those targets|\n(0 in exact math; "
               f"0 drawn at {low:.0e})")


# --- main -------------------------------------------------------------------------------------

def part2(args, preset: Preset, out=print) -> dict:
    device = args.device
    data = corpus.load(preset.vocab, None if preset.corpus_mb is None else
                       int(preset.corpus_mb * 1e6), cache_dir=args.cache_dir)
    out(f"\nPart 2: {data.describe()}")
    cfg = model_config(preset)
    torch.manual_seed(args.seed)
    model = gpt.GPT(cfg).to(device)
    n_params = sum(p.numel() for p in model.parameters())
    held_ids = data.heldout.to(device)
    # Seeds -1, -2, ...: a stream apart from the training batches' seed + step.
    heldout = [gpt.windows(held_ids, data.eot, preset.batch, preset.block, -1 - i, device)
               for i in range(preset.eval_batches)]
    out(f"model: GPT, {cfg.n_layer} layers, width {cfg.n_embd}, {cfg.n_head} heads, context "
        f"{cfg.block_size}, V={cfg.vocab_size}: {n_params / 1e6:.1f}M parameters; "
        f"{preset.steps} AdamW steps of {preset.batch} x {cfg.block_size} tokens (lr "
        f"{preset.lr:g}, warmup {preset.warmup}, cosine), "
        + ("bf16 autocast" if device == "cuda" else "float32")
        + f" on {device}; held-out evaluation every {preset.eval_every} steps on "
        f"{preset.eval_batches} x {preset.batch} x {cfg.block_size} tokens.\n"
        "Loss code: F.cross_entropy(logits.float()[..., :-1, :].contiguous().view(-1, V), "
        'labels[..., 1:], ignore_index=-100, reduction="sum") / num_items; compiled from the '
        "same weights with stock torch.compile and after inductor_ce.enable().\n")
    plan = RUNS + ((AGAIN,) if device == "cuda" and not args.no_repeat else ())
    memo = memorize_slice(data, preset, device) if preset.memorize else None
    runs = {name: train_run(model, routed, data, preset, device, args.seed, heldout, name,
                            memo=memo)
            for name, routed in plan}
    stock, ours = list(runs.values())[:2]
    out(f"{'step':>6} | {'train: stock':>12} {'ours':>10} | {'held-out: stock':>15} "
        f"{'ours':>10} | {'confident %: stock':>18} {'ours':>6}")
    for es, eo in zip(stock["evals"], ours["evals"]):
        s = es["step"]
        tr = (f"{stock['losses'][s - 1]:12.5f} {ours['losses'][s - 1]:10.5f}" if s else
              f"{'':12} {'':10}")
        out(f"{s:6d} | {tr} | {es['loss']:15.5f} {eo['loss']:10.5f} | "
            f"{100 * es['confident'] / es['tokens']:18.3f} "
            f"{100 * eo['confident'] / eo['tokens']:6.3f}")
    out(f"first step (compiling): stock {stock['first_step_s']:.1f} s, ours "
        f"{ours['first_step_s']:.1f} s")
    if memo is not None:
        out(f"\nMemorizing a slice: {preset.memorize} more steps on one training window of "
            f"{preset.block} tokens repeated {preset.batch} times (the same batch shape: no "
            f"recompilation), weight decay 0, lr {preset.memorize_lr:g} decaying linearly to 0."
            f"\nEach run's model on the window: its training loss, the float64 loss of its "
            f"logits, and its targets with a float32 margin > {COLLAPSE_MARGIN:.2f}.")
        out(f"{'step':>6} | {'train: stock':>12} {'ours':>10} | {'float64: stock':>14} "
            f"{'ours':>10} | {'past margin: stock':>18} {'ours':>4} | {'max margin: stock':>17}"
            f" {'ours':>6}")
        for es, eo in zip(stock["slice_evals"], ours["slice_evals"]):
            k = es["step"] - preset.steps
            tr = (f"{stock['slice_losses'][k - 1]:12.4e} {ours['slice_losses'][k - 1]:10.4e}"
                  if k else f"{'':12} {'':10}")
            out(f"{es['step']:6d} | {tr} | {es['loss']:14.4e} {eo['loss']:10.4e} | "
                f"{es['confident']:18d} {eo['confident']:4d} | {es['max_margin']:17.2f} "
                f"{eo['max_margin']:6.2f}")
    summary = summarize(runs, device)
    out("\nWhat the curves show:\n" + "\n".join(f"  * {s}" for s in summary))
    gpu = (torch.cuda.get_device_name() if device == "cuda" else
           f"{torch.get_num_threads()} threads")
    title = (f"GPT {n_params / 1e6:.3g}M on the Python {data.info['python']} standard library "
             f"({len(data.train) / 1e6:.2f}M training tokens, V={cfg.vocab_size}), "
             f"{preset.steps} steps + {preset.memorize} on a slice, {device} ({gpu}), "
             f"torch {torch.__version__}: "
             "stock torch.compile vs after inductor_ce.enable()")
    return dict(title=title, device=device, device_name=gpu, summary=summary,
                preset=dataclasses.asdict(preset), n_params=n_params,
                corpus=dict(data.info, key=data.key, vocab_size=data.vocab_size,
                            train_tokens=len(data.train), heldout_tokens=len(data.heldout)),
                collapse_margin=COLLAPSE_MARGIN, runs=runs)


def parse_args(argv=None):
    presets = "\n".join(
        f"  {k:<5} {gpt.n_params(model_config(v)) / 1e6:.3g}M parameters: "
        f"{v.layers} layers x {v.width}, V={v.vocab}, {v.batch} x {v.block} tokens, "
        f"{v.steps} steps, eval every {v.eval_every} on {v.eval_batches} batches, corpus "
        + ("all" if v.corpus_mb is None else f"{v.corpus_mb:g} MB") + f", lr {v.lr:g}, "
        f"then {v.memorize} steps memorizing a window (lr {v.memorize_lr:g})"
        for k, v in PRESETS.items())
    p = argparse.ArgumentParser(prog="python -m inductor_ce.demo", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=f"presets:\n{presets}")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    p.add_argument("--preset", choices=sorted(PRESETS), default=None,
                   help="sizes (default: the device's; 'tiny': a smoke test, under a minute)")
    for name, kind, what in (("steps", int, "training steps"), ("batch", int, "sequences per "
                             "batch"), ("eval-every", int, "steps between evaluations"),
                             ("eval-batches", int, "held-out batches per evaluation"),
                             ("vocab", int, "tokenizer and model vocabulary"),
                             ("corpus-mb", float, "cap on the corpus in MB (0: all)"),
                             ("lr", float, "peak learning rate"),
                             ("memorize", int, "steps of the second phase, on one window "
                              "repeated (0: none)"),
                             ("memorize-lr", float, "the second phase's initial learning "
                              "rate")):
        p.add_argument(f"--{name}", type=kind, default=None, help=f"{what} (default: preset)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=DEFAULT_OUT, help="directory of the PNG and JSON, made "
                   f"if missing (inductor_ce_demo_<device>.png/.json; default: ./{DEFAULT_OUT})")
    p.add_argument("--no-png", action="store_true", help="write no picture (no matplotlib)")
    p.add_argument("--no-repeat", action="store_true", help="on CUDA, skip the second stock "
                   "run (the run-to-run yardstick of the GPU's non-deterministic kernels)")
    p.add_argument("--cache-dir", default=None, help="corpus and tokenizer cache (default: "
                   "$XDG_CACHE_HOME/inductor_ce/corpus or ~/.cache/inductor_ce/corpus)")
    args = p.parse_args(argv)
    preset = PRESETS[args.preset or args.device]
    overrides = {f: getattr(args, f) for f in ("steps", "batch", "eval_every", "eval_batches",
                                               "vocab", "lr", "memorize", "memorize_lr")
                 if getattr(args, f) is not None}
    if args.corpus_mb is not None:
        overrides["corpus_mb"] = args.corpus_mb or None
    preset = dataclasses.replace(preset, **overrides)
    # Each bad value named, before any work (the checks' bounds: the run's own needs).
    inf = float("inf")
    for flag, value, ok, rule in (
            ("--steps", preset.steps, 2 <= preset.steps < 2**31, "an integer in [2, 2^31)"),
            ("--batch", preset.batch, 1 <= preset.batch < 2**31, "an integer in [1, 2^31)"),
            ("--eval-every", preset.eval_every, 1 <= preset.eval_every < 2**31,
             "an integer in [1, 2^31)"),
            ("--eval-batches", preset.eval_batches, 1 <= preset.eval_batches < 2**31,
             "an integer in [1, 2^31)"),
            ("--vocab", preset.vocab, MIN_VOCAB <= preset.vocab < 2**31,
             f"an integer in [{MIN_VOCAB}, 2^31)"),
            ("--memorize", preset.memorize, 0 <= preset.memorize < 2**31,
             "an integer in [0, 2^31)"),
            ("--lr", preset.lr, 0.0 < preset.lr < inf, "a finite number > 0"),
            ("--memorize-lr", preset.memorize_lr, 0.0 < preset.memorize_lr < inf,
             "a finite number > 0"),
            ("--corpus-mb", args.corpus_mb, args.corpus_mb is None or
             0.0 <= args.corpus_mb < inf, "a finite number >= 0"),
            # (negative seeds draw the held-out batches)
            ("--seed", args.seed, 0 <= args.seed < 2**63, "an integer in [0, 2^63)")):
        if not ok:
            p.error(f"{flag} {value}: must be {rule}")
    if args.device == "cuda" and not torch.cuda.is_available():
        p.error("--device cuda: no CUDA device")
    for flag, path in (("--out", args.out), ("--cache-dir", args.cache_dir)):
        if path is not None and not _can_make_dir(path):
            p.error(f"{flag} {path}: cannot create or write to this directory")
    return args, preset


def _can_make_dir(path: str) -> bool:
    """Whether ``path`` is, or could be made (it is, now), a writable directory: checked
    before the run, which writes there at its end."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return False
    return os.access(path, os.W_OK | os.X_OK)


def main(argv=None) -> int:
    args, preset = parse_args(argv)
    try:                      # every optional package first: one line, before any work
        corpus.require_tokenizers()
        if not args.no_png:
            require_matplotlib()
    except corpus.MissingDependency as e:
        print(f"python -m inductor_ce.demo: {e}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    print(f"inductor_ce {inductor_ce.__version__}, torch {torch.__version__}, Python "
          f"{platform.python_version()}, device {args.device}\n")
    part1()
    report = part2(args, preset)
    os.makedirs(args.out, exist_ok=True)
    stem = os.path.join(args.out, f"inductor_ce_demo_{args.device}")
    report["wall_s"] = time.perf_counter() - start
    report["versions"] = dict(inductor_ce=inductor_ce.__version__, torch=torch.__version__,
                              python=platform.python_version())
    report["command"] = "python -m inductor_ce.demo " + " ".join(
        sys.argv[1:] if argv is None else argv)
    with open(stem + ".json", "w") as f:
        json.dump(report, f, indent=1)
    print(f"\nwrote {os.path.abspath(stem)}.json (every number)")
    if not args.no_png:
        print(f"wrote {os.path.abspath(plot(report, stem + '.png'))} (the picture)")
    print(f"({time.perf_counter() - start:.0f} s)")
    return 0

