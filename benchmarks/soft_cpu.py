"""Probability targets on the CPU: inductor_ce.cross_entropy(x, p) against F.cross_entropy(x, p),
forward + backward of a mean loss, eagerly and under torch.compile, float32 and bfloat16 logits
(float32 targets: a softmax of randn).

    python benchmarks/soft_cpu.py [--shape 2048x32000] [--calls 5] [--smoothing 0.1]

Medians of single calls taking turns, after a first call that compiles. The eager "ours" is
the compiled eager path (eager/soft.py); torch.compile's is fullgraph, dynamic=False.
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", default="2048x32000", help="TxV")
    ap.add_argument("--calls", type=int, default=5)
    ap.add_argument("--smoothing", type=float, default=0.0)
    args = ap.parse_args()
    T, V = (int(v) for v in args.shape.split("x"))
    g = torch.Generator().manual_seed(0)
    p = (torch.randn(T, V, generator=g) * 2).softmax(-1)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, {T} x {V}, "
          f"label_smoothing {args.smoothing}")
    for dtype in (torch.float32, torch.bfloat16):
        x = (torch.randn(T, V, generator=g) * 3).to(dtype).requires_grad_()

        def ours(x, p):
            return inductor_ce.cross_entropy(x, p, label_smoothing=args.smoothing)

        def stock(x, p):
            return F.cross_entropy(x, p, label_smoothing=args.smoothing)

        contenders = {
            "ours eager": ours,
            "ours compiled": torch.compile(ours, fullgraph=True, dynamic=False),
            "F.cross_entropy eager": stock,
            "F.cross_entropy compiled": torch.compile(stock, fullgraph=True, dynamic=False),
        }
        times = {name: [] for name in contenders}
        for name, fn in contenders.items():         # compiles
            fn(x, p).backward()
            x.grad = None
        for r in range(args.calls):
            order = list(contenders.items())
            for name, fn in order if r % 2 == 0 else order[::-1]:
                t0 = time.perf_counter()
                fn(x, p).backward()
                times[name].append(time.perf_counter() - t0)
                x.grad = None
        for name, ts in times.items():
            print(f"{str(dtype):15} {name:26} {statistics.median(ts) * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
