"""A few-rows training step around the loss, eagerly: the loss alone (ours against bf16
F.cross_entropy, just the two taking turns) and an LM head's step (logits = h @ W.T, the
loss, backward) with each loss. do_bench rounds taking turns (the order flips each round)
and host time per single step taking turns.

    python benchmarks/probes/lm_step.py [256 128256 512]
"""
from __future__ import annotations

import os
import statistics
import sys

import torch
import torch.nn.functional as F
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from bench_ce import benchmark_data, interleaved_host  # noqa: E402
from kernel_times import gpu_times  # noqa: E402

import inductor_ce  # noqa: E402
from inductor_ce.eager import kernels as eager  # noqa: E402
from inductor_ce.eager import loss as eager_loss  # noqa: E402


def replay_counts():
    """(forward, backward): calls served by a replay so far, graphs kept, captures made."""
    out = {}
    for r in eager_loss._REPLAYS.values():
        out["forward" if r.copies else "backward"] = (r.replayed, len(r.graphs), r.captures)
    return out


def compare(title, steps, leaves, rounds=9):
    for name in steps:
        for _ in range(10):
            steps[name]()
            leaves[name].grad = None
    times = {n: [] for n in steps}
    for r in range(rounds):
        for n in (list(steps) if r % 2 == 0 else list(steps)[::-1]):
            times[n].append(do_bench(steps[n], warmup=25, rep=200, grad_to_none=[leaves[n]],
                                     return_mode="median"))
    host = interleaved_host(steps, leaves, 2000)
    ours, stock = times["ours"], times["stock"]
    ratios = [a / b for a, b in zip(ours, stock)]
    print(f"{title}: do_bench median ours {statistics.median(ours):.3f} ms, stock "
          f"{statistics.median(stock):.3f} ms, per-round ratio median "
          f"{statistics.median(ratios):.3f} (ours lower in {sum(r < 1 for r in ratios)} of "
          f"{rounds}); host per step {statistics.median(host['ours']):.1f} against "
          f"{statistics.median(host['stock']):.1f} us "
          f"({statistics.median(host['ours']) / statistics.median(host['stock']):.3f}x)")
    for n in steps:
        def run(n=n):
            steps[n]()
            leaves[n].grad = None
        print(f"  {n} GPU time per step {sum(gpu_times(run, 20).values()):.4f} ms")


def main():
    rows, vocab, dim = (int(a) for a in sys.argv[1:4]) if len(sys.argv) > 3 else (256, 128256,
                                                                                   512)
    print(f"{rows} x {vocab} bf16 (LM head D = {dim}), torch {torch.__version__}")
    x, t = benchmark_data(rows, vocab)
    xs = {n: x.clone().requires_grad_() for n in ("ours", "stock")}
    compare("loss alone", {
        "ours": lambda: inductor_ce.cross_entropy(xs["ours"], t).backward(),
        "stock": lambda: F.cross_entropy(xs["stock"], t).backward()}, xs)
    gen = torch.Generator(device="cuda").manual_seed(1)
    h = torch.randn(rows, dim, device="cuda", generator=gen, dtype=torch.bfloat16)
    w = torch.randn(vocab, dim, device="cuda", generator=gen, dtype=torch.bfloat16) * 0.02
    ws = {n: w.clone().requires_grad_() for n in ("ours", "stock")}
    print("  replays after the loss alone (served, graphs, captures):", replay_counts())
    compare("LM-head step", {
        "ours": lambda: inductor_ce.cross_entropy(h @ ws["ours"].t(), t).backward(),
        "stock": lambda: F.cross_entropy(h @ ws["stock"].t(), t).backward()}, ws)
    before = replay_counts()
    for _ in range(200):
        inductor_ce.cross_entropy(h @ ws["ours"].t(), t).backward()
        ws["ours"].grad = None
    print("  replays after the LM-head steps:", before, "then after 200 more steps:",
          replay_counts())


if __name__ == "__main__":
    main()
