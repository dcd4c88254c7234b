"""Where an eager fused-head step's GPU time goes: the CUDA kernels of a few steps, summed by
kernel name (GEMMs, our Triton kernels, small ATen kernels), and the GPU's idle share.

    python benchmarks/probes/linear_phases.py [--shape 8192x8192x128256] [--reduction none]
                                              [--budget BYTES]
"""
from __future__ import annotations

import argparse
import collections
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shape", default="8192x8192x128256")
    p.add_argument("--reduction", default="none")
    p.add_argument("--budget", type=int, default=None)
    p.add_argument("--steps", type=int, default=3)
    args = p.parse_args()
    T, D, V = (int(v) for v in args.shape.split("x"))
    g = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(T, D, device="cuda", generator=g, dtype=torch.bfloat16).requires_grad_()
    w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16)
    w.requires_grad_()
    y = torch.randint(0, V, (T,), device="cuda", generator=g)
    up = torch.rand(T, device="cuda", generator=g)

    def step():
        loss = inductor_ce.linear_cross_entropy(h, w, y, reduction=args.reduction,
                                                memory_budget=args.budget)
        loss.backward(up if args.reduction == "none" else None)
        h.grad = w.grad = None

    for _ in range(2):
        step()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as prof:
        start.record()
        for _ in range(args.steps):
            step()
        end.record()
        torch.cuda.synchronize()
    wall = start.elapsed_time(end) / args.steps
    totals, counts = collections.Counter(), collections.Counter()
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            totals[e.name[:70]] += e.device_time_total / 1e3 / args.steps
            counts[e.name[:70]] += 1 / args.steps
    busy = sum(totals.values())
    print(f"{args.shape} reduction={args.reduction} budget={args.budget}: {wall:.2f} ms per "
          f"step, kernels {busy:.2f} ms ({busy / wall:.0%} busy)")
    for name, ms in totals.most_common(14):
        print(f"  {ms:8.2f} ms  x{counts[name]:5.1f}  {name}")


if __name__ == "__main__":
    main()
