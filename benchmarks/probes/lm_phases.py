"""Where a few-rows eager step spends its host time: the loss alone (leaf logits), then an LM
head's step (logits = h @ W.T, the loss, backward), cut into phases, ours (with CUDA graphs
and without: "ours-plain") against bf16 F.cross_entropy's, single steps taking turns, then
in blocks (all of one contender's steps, then the other's); then the time spent inside our
``autograd.Function``'s backward, and a CPU profile of each step's autograd nodes and ATen
calls.

    python benchmarks/probes/lm_phases.py [256 128256 512]

Phases (us of wall clock per step, no synchronization): "mm" the logits, "loss" the loss's
forward, "backward" ``loss.backward()`` (the loss's node, the head's GEMM, the accumulation),
"none" ``W.grad = None``.
"""
from __future__ import annotations

import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from bench_ce import benchmark_data  # noqa: E402

import inductor_ce  # noqa: E402
from inductor_ce.eager import kernels as eager  # noqa: E402
from inductor_ce.eager import loss as eager_loss  # noqa: E402
from inductor_ce.eager import graphs  # noqa: E402

PHASES = ("mm", "loss", "backward", "none")


def phased(loss_fn, h, w, t):
    """A step of loss_fn's, recording its phases in ``out``; ``h`` None: the loss alone, of
    the leaf logits ``w``."""
    def step(out):
        clock = time.perf_counter
        a = clock()
        z = w if h is None else h @ w.t()
        b = clock()
        loss = loss_fn(z, t)
        c = clock()
        loss.backward()
        d = clock()
        w.grad = None
        e = clock()
        for name, span in zip(PHASES, (b - a, c - b, d - c, e - d)):
            out[name].append(span * 1e6)
    return step


def no_graphs(z, t):
    graphs.ENABLED = False
    try:
        return inductor_ce.cross_entropy(z, t)
    finally:
        graphs.ENABLED = True


def report(title, times):
    print(title)
    stock = {p: statistics.median(times["stock"][p]) for p in PHASES}
    for name, spans in times.items():
        med = {p: statistics.median(spans[p]) for p in PHASES}
        total = sum(med.values())
        cells = "  ".join(f"{p} {med[p]:6.1f} ({med[p] - stock[p]:+6.1f})" for p in PHASES)
        print(f"  {name:10s} step {total:6.1f} us ({total / sum(stock.values()):.3f}x)  {cells}")


def main():
    rows, vocab, dim = (int(a) for a in sys.argv[1:4]) if len(sys.argv) > 3 else (256, 128256,
                                                                                   512)
    print(f"{rows} x {vocab} bf16 (LM head D = {dim}), torch {torch.__version__}")
    _, t = benchmark_data(rows, vocab)
    gen = torch.Generator(device="cuda").manual_seed(1)
    h = torch.randn(rows, dim, device="cuda", generator=gen, dtype=torch.bfloat16)
    w = torch.randn(vocab, dim, device="cuda", generator=gen, dtype=torch.bfloat16) * 0.02
    losses = {"ours": inductor_ce.cross_entropy, "stock": F.cross_entropy,
              "ours-plain": no_graphs}
    ws = {n: w.clone().requires_grad_() for n in losses}
    scratch = {p: [] for p in PHASES}
    x, _ = benchmark_data(rows, vocab)
    alone = {n: x.clone().requires_grad_() for n in ("ours", "stock")}
    alone_steps = {n: phased(losses[n], None, alone[n], t) for n in alone}
    alone_times = {n: {p: [] for p in PHASES} for n in alone}
    for n in alone:
        for _ in range(30):
            alone_steps[n](scratch)
    torch.cuda.synchronize()
    for i in range(3000):
        for n in (list(alone) if i % 2 == 0 else list(alone)[::-1]):
            alone_steps[n](alone_times[n])
    torch.cuda.synchronize()
    report("the loss alone (leaf logits, no head), single steps taking turns", alone_times)
    alone_blocks = {n: {p: [] for p in PHASES} for n in alone}
    for _ in range(3):
        for n in alone:
            torch.cuda.synchronize()
            for _ in range(1000):
                alone_steps[n](alone_blocks[n])
    torch.cuda.synchronize()
    report("the loss alone, blocks of 1000 steps, three rounds", alone_blocks)
    times = {n: {p: [] for p in PHASES} for n in losses}
    steps = {n: phased(losses[n], h, ws[n], t) for n in losses}
    for n in losses:
        for _ in range(30):
            steps[n](scratch)
    torch.cuda.synchronize()
    names = list(losses)
    for i in range(3000):
        for n in (names if i % 2 == 0 else names[::-1]):
            steps[n](times[n])
    torch.cuda.synchronize()
    report("single steps taking turns (median per phase; in brackets, minus stock's)", times)
    blocks = {n: {p: [] for p in PHASES} for n in losses}
    for _ in range(3):
        for n in names:
            torch.cuda.synchronize()
            for _ in range(1000):
                steps[n](blocks[n])
    torch.cuda.synchronize()
    report("blocks of 1000 steps of one contender, three rounds", blocks)

    inside = []
    plain = eager_loss._Loss.backward

    def timed(ctx, *grads):
        start = time.perf_counter()
        out = plain(ctx, *grads)
        inside.append((time.perf_counter() - start) * 1e6)
        return out

    eager_loss._Loss.backward = staticmethod(timed)
    spans = {p: [] for p in PHASES}
    torch.cuda.synchronize()
    for _ in range(2000):
        steps["ours"](spans)
    torch.cuda.synchronize()
    eager_loss._Loss.backward = staticmethod(plain)
    print(f"ours, 2000 steps in a block: backward phase {statistics.median(spans['backward']):.1f}"
          f" us, of which inside _Loss.backward {statistics.median(inside):.1f}")

    from torch.profiler import ProfilerActivity, profile
    for n in ("ours", "stock"):
        for _ in range(20):
            steps[n](scratch)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            for _ in range(200):
                steps[n](scratch)
            torch.cuda.synchronize()
        print(f"--- {n}: CPU profile of 200 steps (self / total CPU us per step)")
        rows_ = sorted(prof.key_averages(), key=lambda e: -e.cpu_time_total)
        for e in rows_[:28]:
            print(f"  {e.key[:70]:70s} calls/step {e.count / 200:4.1f}  self "
                  f"{e.self_cpu_time_total / 200:7.1f}  total {e.cpu_time_total / 200:7.1f}")


if __name__ == "__main__":
    main()
