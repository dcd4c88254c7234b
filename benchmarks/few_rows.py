"""Few rows, where a step is host-bound: ours and stock torch.compile measured in alternation
(rounds of do_bench medians, so that a drift of the machine hits both alike), with the time
per step the host spends (wall clock, no synchronization in the loop) and the GPU time of
each contender's kernels (torch.profiler).

    python benchmarks/few_rows.py 256 128256 [--rounds 7] [--profile 12]

With --profile N it also prints, per contender, the N functions where the host spends most
of its own time (cProfile over 500 steps, microseconds per step): where a host-bound step
differs.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time

import torch
from triton.testing import do_bench

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from bench_ce import benchmark_data, ours, stock  # noqa: E402
from kernel_times import kernel_times  # noqa: E402


def _steps(step, xg, n: int) -> None:
    for _ in range(n):
        step()
        xg.grad = None


def host_ms(step, xg, iters: int = 200) -> float:
    """Wall-clock ms per step while the host only enqueues (the GPU keeps up when host-bound)."""
    torch.cuda.synchronize()
    start = time.perf_counter()
    _steps(step, xg, iters)
    elapsed = time.perf_counter() - start
    torch.cuda.synchronize()
    return elapsed / iters * 1e3


def host_profile(step, xg, top: int, steps: int = 500) -> None:
    """The ``top`` functions by own host time, in microseconds per step."""
    torch.cuda.synchronize()
    prof = cProfile.Profile()
    prof.enable()
    _steps(step, xg, steps)
    prof.disable()
    torch.cuda.synchronize()
    stats = pstats.Stats(prof).stats  # (file, line, name) -> (calls, ncalls, tottime, cumtime, _)
    rows = sorted(stats.items(), key=lambda kv: -kv[1][2])[:top]
    total = sum(v[2] for v in stats.values())
    print(f"  host time under cProfile {total / steps * 1e6:.1f} us/step; own time per step:")
    for (file, line, name), (_, ncalls, tottime, _, _) in rows:
        where = f"{os.path.basename(file)}:{line}({name})" if line else name
        print(f"    {tottime / steps * 1e6:7.2f} us  {ncalls / steps:4.1f} calls  {where[:90]}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("rows", type=int)
    p.add_argument("vocab", type=int)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--profile", type=int, default=0, metavar="N")
    args = p.parse_args()
    x, t = benchmark_data(args.rows, args.vocab)
    fns = {"ours": torch.compile(ours), "stock": torch.compile(stock)}
    xs = {}
    for name, fn in fns.items():
        xs[name] = x.clone().requires_grad_()
        for _ in range(3):
            fn(xs[name], t).backward()
    results = {name: [] for name in fns}
    hosts = {name: [] for name in fns}
    for _ in range(args.rounds):
        for name, fn in fns.items():
            xg = xs[name]
            step = lambda: fn(xg, t).backward()  # noqa: E731
            results[name].append(do_bench(step, warmup=25, rep=200, grad_to_none=[xg],
                                          return_mode="median"))
            hosts[name].append(host_ms(step, xg))
    print(f"{args.rows}x{args.vocab} bf16, fwd+bwd ms per round (do_bench medians), "
          f"{args.rounds} rounds in alternation")
    for name in fns:
        gpu = sum(kernel_times(fns[name], x, t, dynamic=False, iters=20).values())
        print(f"{name:6s} rounds {[round(v, 3) for v in results[name]]} median "
              f"{statistics.median(results[name]):.3f}; host enqueue "
              f"{statistics.median(hosts[name]):.3f} ms/step; its kernels' GPU time "
              f"{gpu:.3f} ms/step")
    if args.profile:
        for name, fn in fns.items():
            print(f"{name}:")
            host_profile(lambda: fn(xs[name], t).backward(), xs[name], args.profile)  # noqa: B023


if __name__ == "__main__":
    main()
