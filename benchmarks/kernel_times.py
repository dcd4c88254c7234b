"""Per-kernel GPU times of one compiled forward+backward, static and rows-dynamic, side by side
(torch.profiler; averages over --iters steps). Where a compiled mode loses time, this says in
which kernel.

    python benchmarks/kernel_times.py 16384 128256 [--iters 20] [--stock]
"""
from __future__ import annotations

import argparse
import collections
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from bench_ce import benchmark_data, ours, stock  # noqa: E402


def gpu_times(run, iters: int) -> dict[str, float]:
    """ms per call of each CUDA kernel that ``run()`` launches (torch.profiler)."""
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(iters):
            run()
        torch.cuda.synchronize()
    times: dict[str, float] = collections.defaultdict(float)
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            times[e.name] += e.device_time / 1e3 / iters
    return times


def kernel_times(fn, x, t, dynamic: bool, iters: int) -> dict[str, float]:
    xg = x.clone().requires_grad_()
    if dynamic:
        torch._dynamo.mark_dynamic(xg, 0)
        torch._dynamo.mark_dynamic(t, 0)

    def step():
        fn(xg, t).backward()
        xg.grad = None

    for _ in range(3):  # compile, autotune, warm
        step()
    return gpu_times(step, iters)  # ms per step


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rows", type=int)
    p.add_argument("vocab", type=int)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--stock", action="store_true", help="stock F.cross_entropy(x.float(), t)")
    args = p.parse_args()
    x, t = benchmark_data(args.rows, args.vocab)
    loss = stock if args.stock else ours
    modes = {}
    for dynamic in (False, True):
        torch._dynamo.reset()
        modes["dynamic rows" if dynamic else "static"] = kernel_times(
            torch.compile(loss), x, t, dynamic, args.iters)
    names = sorted({n for m in modes.values() for n in m}, key=lambda n: -max(
        m.get(n, 0.0) for m in modes.values()))
    print(f"{args.rows}x{args.vocab} bf16, ms per forward+backward step (torch.profiler)")
    print("| kernel | " + " | ".join(modes) + " |\n|---|" + "---|" * len(modes))
    for n in names:
        print(f"| {n[:90]} | " + " | ".join(f"{m.get(n, 0.0):.3f}" for m in modes.values()) + " |")
    print("| total | " + " | ".join(f"{sum(m.values()):.3f}" for m in modes.values()) + " |")


if __name__ == "__main__":
    main()
