"""The fused head's step against its GEMMs, measured in alternation, with the GPU's clocks.

bench_linear_ce.py times the three GEMMs of a shape once, then every contender after it. Where
a step takes ~100 ms of back-to-back GEMMs, the GPU's clocks may not be what they were when
the GEMMs were timed. This probe times, in rounds, the GEMMs right before each of our calls
(do_bench medians, as bench_linear_ce.py), reads the SM clock and power after each
measurement (nvidia-smi), and also times each call as a plain loop of CUDA events (no cache
flush, no grad reset), so the two protocols can be compared.

    python benchmarks/probes/linear_interleaved.py [--shapes 8192x8192x128256 ...] [--rounds 3]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

import torch
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402

QUERY = "clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active"


def smi() -> str:
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu={QUERY}", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip().replace(", ", "/") or out.stderr.strip()[:60]
    except Exception as e:  # noqa: BLE001  clocks are a side reading
        return f"({type(e).__name__})"


def data(T, D, V):
    g = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(T, D, device="cuda", generator=g, dtype=torch.bfloat16)
    w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16)
    y = torch.randint(0, V, (T,), device="cuda", generator=g)
    y[::7] = -100
    return h.requires_grad_(), w.requires_grad_(), y


def steps(T, D, V):
    h, w, y = data(T, D, V)
    up = torch.rand(T, device="cuda")
    z = torch.empty(T, V, device="cuda", dtype=torch.bfloat16)
    dz = torch.randn(T, V, device="cuda", dtype=torch.bfloat16)
    dh, dw = torch.empty_like(h), torch.empty_like(w)
    hd, wd = h.detach(), w.detach()

    def gemms():
        torch.mm(hd, wd.t(), out=z)
        torch.mm(dz, wd, out=dh)
        torch.mm(dz.t(), hd, out=dw)

    def gemm1():
        torch.mm(hd, wd.t(), out=z)

    def mean():
        inductor_ce.linear_cross_entropy(h, w, y).backward()

    def none():
        inductor_ce.linear_cross_entropy(h, w, y, reduction="none").backward(up)

    def lse():
        loss, lse_ = inductor_ce.linear_cross_entropy(h, w, y, return_lse=True)
        torch.autograd.backward([loss, lse_], [torch.ones_like(loss), up])

    def nograd():
        with torch.no_grad():
            inductor_ce.linear_cross_entropy(h, w, y, reduction="none")

    return dict(gemms=gemms, gemm1=gemm1, mean=mean, none=none, lse=lse, nograd=nograd), (h, w)


def loop_ms(fn, params, n=6):
    fn()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(n):
        fn()
        for p in params:
            p.grad = None
    b.record()
    torch.cuda.synchronize()
    return a.elapsed_time(b) / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", nargs="+", default=["8192x8192x128256", "4096x2048x151936",
                                                    "8192x768x50304"])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--calls", nargs="+", default=["mean", "none", "lse", "nograd"])
    args = ap.parse_args()
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}; nvidia-smi {QUERY}")
    print(f"start: {smi()}")
    for shape in args.shapes:
        T, D, V = (int(v) for v in shape.split("x"))
        fns, params = steps(T, D, V)
        print(f"\n## {shape}\n\n| round | call | GEMMs before (ms) | call (ms) | x GEMMs | "
              "event loop (ms) | x | clocks after |\n|---|---|---|---|---|---|---|---|")
        for r in range(args.rounds):
            for call in args.calls:
                base = fns["gemm1" if call == "nograd" else "gemms"]
                g = do_bench(base, warmup=25, rep=300, return_mode="median")
                ms = do_bench(fns[call], warmup=10, rep=200, grad_to_none=list(params),
                              return_mode="median")
                clocks = smi()
                lp = loop_ms(fns[call], params)
                print(f"| {r} | {call} | {g:.3f} | {ms:.3f} | {ms / g:.3f}x | {lp:.3f} | "
                      f"{lp / g:.3f}x | {clocks} |", flush=True)
        del fns, params
        torch.cuda.empty_cache()
    print(f"\nend: {smi()}")


if __name__ == "__main__":
    main()
