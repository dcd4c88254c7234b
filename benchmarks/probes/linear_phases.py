"""Where an eager fused-head step's GPU time goes: the CUDA kernels of a few steps, summed by
kernel name (GEMMs, our Triton kernels, small ATen kernels), and the GPU's idle share.

    python benchmarks/probes/linear_phases.py [--shape 8192x8192x128256] [--reduction none]
                                              [--budget BYTES] [--nograd]

With ``--nograd`` the step is the forward under ``torch.no_grad()`` (RL's reference
log-probabilities); the host's time per step (its Python and launches, from the profiler's
CPU events of the step's top frame) is printed beside the GPU's.
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import time

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
    p.add_argument("--nograd", action="store_true")
    args = p.parse_args()
    T, D, V = (int(v) for v in args.shape.split("x"))
    g = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(T, D, device="cuda", generator=g, dtype=torch.bfloat16).requires_grad_()
    w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16)
    w.requires_grad_()
    y = torch.randint(0, V, (T,), device="cuda", generator=g)
    up = torch.rand(T, device="cuda", generator=g)

    def step():
        if args.nograd:
            with torch.no_grad():
                inductor_ce.linear_cross_entropy(h, w, y, reduction=args.reduction,
                                                 memory_budget=args.budget)
            return
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
    # The host's own time per step, without the profiler: steps enqueued back to back, timed
    # on the host up to the last launch (no synchronization inside).
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(args.steps):
        step()
    host = (time.perf_counter() - t0) / args.steps * 1e3
    torch.cuda.synchronize()
    totals, counts = collections.Counter(), collections.Counter()
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            totals[e.name[:70]] += e.device_time_total / 1e3 / args.steps
            counts[e.name[:70]] += 1 / args.steps
    busy = sum(totals.values())
    print(f"{args.shape} reduction={args.reduction} budget={args.budget} nograd={args.nograd}: "
          f"{wall:.2f} ms per step, kernels {busy:.2f} ms ({busy / wall:.0%} busy), host "
          f"{host:.2f} ms per step to its last launch")
    for name, ms in totals.most_common(14):
        print(f"  {ms:8.2f} ms  x{counts[name]:5.1f}  {name}")


if __name__ == "__main__":
    main()
