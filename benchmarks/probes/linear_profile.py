"""Where a fused linear + cross-entropy step spends its GPU time, eager against compiled.

    python benchmarks/probes/linear_profile.py [--shape 8192x4096x128256] [--budget BYTES]

One step each after a warm-up, under torch.profiler; prints the CUDA kernels by total time.
"""
from __future__ import annotations

import argparse
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shape", default="8192x4096x128256")
    p.add_argument("--budget", type=int, default=None, help="memory_budget (bytes)")
    args = p.parse_args()
    T, D, V = (int(v) for v in args.shape.split("x"))
    g = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(T, D, device="cuda", generator=g, dtype=torch.bfloat16).requires_grad_()
    w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16)
    w.requires_grad_()
    y = torch.randint(0, V, (T,), device="cuda", generator=g)
    fn = lambda h, w, y: inductor_ce.linear_cross_entropy(h, w, y, memory_budget=args.budget)  # noqa
    for name, f in (("eager", fn), ("compiled", torch.compile(fn))):
        for _ in range(3):
            f(h, w, y).backward()
            h.grad = w.grad = None
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as prof:
            f(h, w, y).backward()
            torch.cuda.synchronize()
        h.grad = w.grad = None
        print(f"=== {name}")
        print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=14,
                                        max_name_column_width=60))


if __name__ == "__main__":
    main()
