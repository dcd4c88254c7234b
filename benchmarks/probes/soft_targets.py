"""Probability targets on one GPU: forward+backward of ours (eager and compiled) and stock
compile, against the floor of their traffic: the forward reads the logits and the targets
once, the backward reads both again and writes the gradient (5 T V s bytes, bf16 both), at
the copy bandwidth measured in the same run.

    python benchmarks/probes/soft_targets.py [--shapes 16384x128256 4096x151936] [--kernels]

Prints the forward alone and forward+backward (ms, x their floors: 2 T V s bytes, 5 T V s),
and with ``--kernels`` the GPU time of each kernel of one step (torch.profiler).
"""
from __future__ import annotations

import argparse
import os
import sys

import torch
import torch.nn.functional as F
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import inductor_ce  # noqa: E402
from bench_ce import copy_bandwidth  # noqa: E402
from kernel_times import gpu_times  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shapes", nargs="*", default=["16384x128256", "4096x151936", "32768x32000"])
    p.add_argument("--kernels", action="store_true", help="per-kernel GPU times of a step")
    p.add_argument("--only", nargs="*", default=None, help="contenders to run (names)")
    p.add_argument("--warps", type=int, default=None,
                   help="lowering_soft.SOFT_WARPS for this process (its chunk kernel)")
    args = p.parse_args()
    if args.warps is not None:
        from inductor_ce import lowering_soft
        lowering_soft.SOFT_WARPS = args.warps
    bw = copy_bandwidth()
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, copy {bw / 1e12:.2f} TB/s")
    print("| T x V | contender | fwd ms | x floor | fwd+bwd ms | x floor |\n"
          "|---|---|---|---|---|---|")
    ours = lambda x, p: inductor_ce.cross_entropy(x, p)  # noqa: E731
    stock = lambda x, p: F.cross_entropy(x.float(), p.float())  # noqa: E731
    for spec in args.shapes:
        T, V = map(int, spec.split("x"))
        g = torch.Generator(device="cuda").manual_seed(0)
        x = (torch.randn(T, V, device="cuda", generator=g) * 2).bfloat16().requires_grad_()
        probs = torch.softmax(torch.randn(T, V, device="cuda", generator=g) * 3, -1).bfloat16()
        floor = 5 * T * V * 2 / bw * 1e3
        for name, fn in [("ours/eager", ours), ("ours/compile", torch.compile(ours)),
                         ("stock/compile", torch.compile(stock))]:
            if args.only is not None and name not in args.only:
                continue

            def step():
                fn(x, probs).backward()

            def forward():
                with torch.no_grad():
                    fn(x, probs)
            step()
            forward()
            fwd = do_bench(forward, warmup=10, rep=100, return_mode="median")
            ms = do_bench(step, warmup=10, rep=100, grad_to_none=[x], return_mode="median")
            print(f"| {spec} | {name} | {fwd:.3f} | {fwd / (floor * 2 / 5):.2f}x | {ms:.3f} | "
                  f"{ms / floor:.2f}x |", flush=True)
            if args.kernels:
                for kernel, t in sorted(gpu_times(step, 5).items(), key=lambda kv: -kv[1]):
                    print(f"    {t:8.3f} ms  {kernel[:110]}")
        del x, probs
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
