"""Few rows, where a step is host-bound: ours and stock torch.compile measured in alternation
(rounds of do_bench medians, so that a drift of the machine hits both alike; the order
flips every round), with the time per step the host spends (wall clock, no synchronization
in the loop), what does not drift (kernel launches and allocations per step) and the GPU
time of each contender's kernels (torch.profiler). The process is pinned to one CPU core.

    python benchmarks/few_rows.py 256 128256 [--rounds 7] [--profile 12] \
        [--mode reduce-overhead | --eager]

Each round's ratio ours / stock is taken within the round; single steps taking turns
(--steps) give the host time per step to judge by. It also prints the host time of Dynamo's
guard check per call. With --profile N it also prints, per contender, the N functions where
the host spends most of its own time (cProfile over 500 steps, microseconds per step). With
--mode reduce-overhead both are compiled with CUDA graphs, where the host drops out. With
--eager nothing is compiled by the caller: ours eagerly (its compiled kernels, inductor_ce/eager/)
against bf16 ``F.cross_entropy`` eagerly (``INDUCTOR_CE_CUDA_GRAPHS=0``: ours without its
CUDA graphs).
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
from bench_ce import benchmark_data, interleaved_host, ours, stock, stock_bf16  # noqa: E402
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


def guard_us(fns: dict, xs: dict, t, calls: int = 200, rounds: int = 21) -> dict[str, float]:
    """Host time of Dynamo's guard check per compiled forward call (us): the forward timed
    with the guards evaluated and with them skipped (set_stance(skip_guard_eval_unsafe=True)),
    all variants taking turns; the minimum over rounds of each, then the difference."""
    best: dict = {}
    for r in range(rounds):
        for skip in (False, True) if r % 2 == 0 else (True, False):
            with torch.compiler.set_stance("default", skip_guard_eval_unsafe=skip):
                for name, fn in fns.items():
                    torch.cuda.synchronize()
                    start = time.perf_counter()
                    for _ in range(calls):
                        fn(xs[name], t)
                    us = (time.perf_counter() - start) / calls * 1e6
                    best[name, skip] = min(best.get((name, skip), us), us)
    torch.cuda.synchronize()
    return {name: best[name, False] - best[name, True] for name in fns}


def allocations(step, xg, iters: int = 50) -> float:
    """Caching-allocator allocations per step (each of the generated code's buffers is one)."""
    torch.cuda.synchronize()
    before = torch.cuda.memory_stats()["allocation.all.allocated"]
    _steps(step, xg, iters)
    torch.cuda.synchronize()
    return (torch.cuda.memory_stats()["allocation.all.allocated"] - before) / iters


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
    p.add_argument("--mode", default=None, help="torch.compile mode, e.g. reduce-overhead")
    p.add_argument("--steps", type=int, default=3000, help="steps each, taking turns")
    p.add_argument("--eager", action="store_true", help="no torch.compile (see above)")
    args = p.parse_args()
    x, t = benchmark_data(args.rows, args.vocab)
    fns = ({"ours": ours, "stock": stock_bf16} if args.eager else
           {"ours": torch.compile(ours, mode=args.mode),
            "stock": torch.compile(stock, mode=args.mode)})
    graphs = args.mode == "reduce-overhead"
    xs = {name: x.clone().requires_grad_() for name in fns}

    def step_of(name):
        fn, xg = fns[name], xs[name]

        def step():
            if graphs:  # a new step: outputs of the last replay are no longer read
                torch.compiler.cudagraph_mark_step_begin()
            fn(xg, t).backward()
        return step

    steps = {name: step_of(name) for name in fns}
    for name in fns:
        _steps(steps[name], xs[name], 3)  # compile, record
    # The kernels' GPU time before the process is pinned and the rounds run, and again after
    # them (below): the two readings have differed (benchmarks/NOTES.md, run 69).
    gpu_first = {name: sum(kernel_times(fns[name], x, t, dynamic=False, iters=20).values())
                 for name in fns} if not graphs else {}
    cpu = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    results = {name: [] for name in fns}
    hosts = {name: [] for name in fns}
    for r in range(args.rounds):
        for name in (list(fns) if r % 2 == 0 else list(fns)[::-1]):
            results[name].append(do_bench(steps[name], warmup=25, rep=200,
                                          grad_to_none=[xs[name]], return_mode="median"))
            hosts[name].append(host_ms(steps[name], xs[name]))
    mode = "eager (stock: bf16 F.cross_entropy)" if args.eager else f"mode={args.mode}"
    print(f"{args.rows}x{args.vocab} bf16, {mode}, fwd+bwd ms per round (do_bench "
          f"medians), {args.rounds} rounds in alternation, pinned to CPU {cpu}")
    for name in fns:
        gpu = kernel_times(fns[name], x, t, dynamic=False, iters=20) if not graphs else {}
        gpu_text = (f"; {len(gpu)} kernels, their GPU time {sum(gpu.values()):.3f} ms/step "
                    f"({gpu_first[name]:.3f} before the rounds)" if gpu else "")
        print(f"{name:6s} rounds {[round(v, 3) for v in results[name]]} median "
              f"{statistics.median(results[name]):.3f}; host enqueue "
              f"{statistics.median(hosts[name]):.3f} ms/step (rounds "
              f"{[round(v, 3) for v in hosts[name]]}); "
              f"{allocations(steps[name], xs[name]):.0f} allocations/step{gpu_text}")
    per_step = interleaved_host(steps, xs, args.steps)
    for name, v in per_step.items():
        q = statistics.quantiles(v, n=20)  # 5%, 10%, ..., 95%
        print(f"{name:6s} host us per step, {args.steps} steps taking turns: p10 {q[1]:.1f}, "
              f"p25 {q[4]:.1f}, median {q[9]:.1f}, p75 {q[14]:.1f}")
    if not graphs and not args.eager:
        guards = guard_us(fns, xs, t)
        print("Dynamo guard check per forward call (us): " +
              ", ".join(f"{name} {us:.1f}" for name, us in guards.items()))
    pairs = list(zip(per_step["ours"], per_step["stock"]))
    ratio = statistics.median(per_step["ours"]) / statistics.median(per_step["stock"])
    print(f"ours / stock, host per step: median {ratio:.3f}, ours faster in "
          f"{sum(a < b for a, b in pairs)} of {len(pairs)} adjacent pairs")
    for what, series in (("do_bench", results), ("host enqueue", hosts)):
        ratios = [a / b for a, b in zip(series["ours"], series["stock"])]
        print(f"ours / stock per round, {what}: {[round(v, 3) for v in ratios]}, median "
              f"{statistics.median(ratios):.3f}, ours lower in {sum(v < 1 for v in ratios)} "
              f"of {len(ratios)}")
    if args.eager:
        from inductor_ce.eager import loss as eager_loss
        from inductor_ce.eager import graphs
        replays = list(eager_loss._REPLAYS.values())
        print(f"ours: CUDA graphs {'on' if graphs.ENABLED else 'off'}, "
              f"{sum(r.replayed for r in replays)} replays from "
              f"{sum(len(r.graphs) for r in replays)} graphs of {len(replays)} functions")
    if args.profile:
        for name in fns:
            print(f"{name}:")
            host_profile(steps[name], xs[name], args.profile)


if __name__ == "__main__":
    main()
