"""Few rows eagerly, CUDA graphs of our compiled functions on and off in one process (the
switch is read per call), against bf16 F.cross_entropy: steps taking turns, do_bench rounds,
the GPU's kernels of each, and the host time of the graph machinery's pieces alone.

    python benchmarks/probes/graph_probe.py [256 128256]
"""
from __future__ import annotations

import os
import statistics
import sys
import time

import torch
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from bench_ce import benchmark_data, interleaved_host, ours, stock_bf16  # noqa: E402
from kernel_times import gpu_times  # noqa: E402

from inductor_ce.eager import kernels as eager  # noqa: E402
from inductor_ce.eager import loss as eager_loss  # noqa: E402
from inductor_ce.eager import graphs  # noqa: E402


def loop_us(fn, n=2000):
    """Host us per call of ``fn`` in a loop without synchronization."""
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(n):
        fn()
    us = (time.perf_counter() - start) / n * 1e6
    torch.cuda.synchronize()
    return us


def main():
    rows, vocab = (int(a) for a in sys.argv[1:3]) if len(sys.argv) > 2 else (256, 128256)
    x, t = benchmark_data(rows, vocab)
    xs = {n: x.clone().requires_grad_() for n in ("graphs", "plain", "stock")}

    def step_of(name):
        xg = xs[name]
        if name == "stock":
            return lambda: stock_bf16(xg, t).backward()

        def step():
            graphs.ENABLED = name == "graphs"
            ours(xg, t).backward()
        return step

    steps = {n: step_of(n) for n in xs}
    for n in xs:
        for _ in range(4):
            steps[n]()
            xs[n].grad = None
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    rounds = {n: [] for n in xs}
    for r in range(7):
        for n in (list(xs) if r % 2 == 0 else list(xs)[::-1]):
            rounds[n].append(do_bench(steps[n], warmup=25, rep=200, grad_to_none=[xs[n]],
                                      return_mode="median"))
    per_step = interleaved_host(steps, xs, 2000)
    print(f"{rows}x{vocab} bf16, torch {torch.__version__}")
    for n in xs:
        print(f"{n:7s} do_bench rounds {[round(v, 3) for v in rounds[n]]} median "
              f"{statistics.median(rounds[n]):.3f} ms; host per step (turns) median "
              f"{statistics.median(per_step[n]):.1f} us")
    for a in ("graphs", "plain"):
        ratios = [u / s for u, s in zip(rounds[a], rounds["stock"])]
        print(f"{a} / stock do_bench per round median {statistics.median(ratios):.3f}; host "
              f"per step {statistics.median(per_step[a]) / statistics.median(per_step['stock']):.3f}")
    for n in xs:
        def run():
            steps[n]()
            xs[n].grad = None
        times = gpu_times(run, 20)
        print(f"{n}: {len(times)} kernels, {sum(times.values()):.4f} ms GPU/step: " +
              ", ".join(f"{k[:40]} {v * 1e3:.1f}us" for k, v in times.items()))
    replays = list(eager_loss._REPLAYS.values())
    print("replays:", [(r.copies, r.replayed, len(r.graphs), r.captures) for r in replays])
    fwd = next(r for r in replays if r.copies and r.graphs)
    (key, _), g = next(iter(fwd.graphs.items()))
    packing = fwd.seen[key]
    small = torch.zeros(16, device="cuda")
    print(f"host us per call: graph.replay {loop_us(g.replay):.1f}, the outputs' buffer "
          f"{loop_us(lambda: packing.empty('cuda')):.1f}, its views "
          f"{loop_us(lambda: packing.outputs(small)):.1f}, is_current_stream_capturing "
          f"{loop_us(torch.cuda.is_current_stream_capturing):.1f}, torch.empty 65 MB "
          f"{loop_us(lambda: torch.empty(rows, vocab, dtype=torch.bfloat16, device='cuda')):.1f}"
          f", small add_ {loop_us(lambda: small.add_(1)):.1f}")


if __name__ == "__main__":
    main()
