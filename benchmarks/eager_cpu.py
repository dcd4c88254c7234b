"""The eager path on the CPU: inductor_ce.cross_entropy (Inductor's C++ kernels, compiled once)
against F.cross_entropy and against our ATen decomposition, forward + backward.

    python benchmarks/eager_cpu.py [--shape 2048x32000] [--calls 10]

float32 logits randn*2, every 7th target ignored; medians of single calls taking turns (the
order flips every round), after a first call that compiles.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import inductor_ce  # noqa: E402
from inductor_ce.eager import kernels as eager  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shape", default="2048x32000")
    p.add_argument("--calls", type=int, default=10)
    args = p.parse_args()
    T, V = (int(v) for v in args.shape.split("x"))
    torch.manual_seed(0)
    x = (torch.randn(T, V) * 2).requires_grad_()
    t = torch.randint(0, V, (T,))
    t[::7] = -100

    def ours():
        inductor_ce.cross_entropy(x, t).backward()

    def stock():
        F.cross_entropy(x.float(), t).backward()

    def decomposition():
        eager.MODE, mode = "decomposition", eager.MODE
        try:
            inductor_ce.cross_entropy(x, t).backward()
        finally:
            eager.MODE = mode

    start = time.perf_counter()
    ours()
    print(f"first call {time.perf_counter() - start:.1f} s, {eager.compiles} compile(s); "
          f"{torch.get_num_threads()} threads")
    fns = {"inductor_ce eager": ours, "F.cross_entropy": stock, "decomposition": decomposition}
    times = {name: [] for name in fns}
    for i in range(args.calls):
        for name in (list(fns) if i % 2 == 0 else list(fns)[::-1]):
            start = time.perf_counter()
            fns[name]()
            x.grad = None
            times[name].append(time.perf_counter() - start)
    for name, ts in times.items():
        print(f"{name:18} {1e3 * statistics.median(ts):8.1f} ms")


if __name__ == "__main__":
    main()
