"""The fused LM head on the CPU: inductor_ce.linear_cross_entropy against the unfused eager step
inductor_ce.cross_entropy(h @ W.T, y) (which builds the logits), forward + backward, for a scalar
loss, per-token losses (reduction="none", a random upstream gradient per row), return_lse (a
gradient through loss and lse) and the per-token losses without gradient.

    python benchmarks/linear_cpu.py [--shape 2048x64x16000] [--calls 7] [--budget BYTES]

float32 h of randn, W of randn * 0.1, uniform targets, every 7th ignored; medians of single
calls taking turns (the order flips every round), after a first call that compiles. The ratio
is ours / unfused for the same call.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import inductor_ce  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shape", default="2048x64x16000", help="TxDxV")
    p.add_argument("--calls", type=int, default=7)
    p.add_argument("--budget", type=int, default=None, help="memory_budget (bytes)")
    args = p.parse_args()
    T, D, V = (int(v) for v in args.shape.split("x"))
    g = torch.Generator().manual_seed(0)
    h = torch.randn(T, D, generator=g).requires_grad_()
    w = (torch.randn(V, D, generator=g) * 0.1).requires_grad_()
    y = torch.randint(0, V, (T,), generator=g)
    y[::7] = -100
    up = torch.rand(T, generator=g)

    def step(fused, kind):
        def loss_of(**kw):
            if fused:
                return inductor_ce.linear_cross_entropy(h, w, y, memory_budget=args.budget,
                                                        **kw)
            return inductor_ce.cross_entropy(h @ w.t(), y, **kw)

        def run():
            if kind == "nograd":
                with torch.no_grad():
                    loss_of(reduction="none")
                return
            if kind == "mean":
                loss_of().backward()
            elif kind == "none":
                loss_of(reduction="none").backward(up)
            else:
                loss, lse = loss_of(reduction="none", return_lse=True)
                torch.autograd.backward([loss, lse], [up, up])
            h.grad = w.grad = None
        return run

    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, T {T}, D {D}, V {V}, "
          f"memory_budget {args.budget}")
    for kind in ("mean", "none", "lse", "nograd"):
        fns = {"fused": step(True, kind), "unfused": step(False, kind)}
        for fn in fns.values():
            fn()   # (compiles)
        times = {name: [] for name in fns}
        for i in range(args.calls):
            for name in (list(fns) if i % 2 == 0 else list(fns)[::-1]):
                start = time.perf_counter()
                fns[name]()
                times[name].append(time.perf_counter() - start)
        fused, unfused = (statistics.median(times[n]) for n in ("fused", "unfused"))
        print(f"{kind:7} fused {1e3 * fused:8.1f} ms   unfused {1e3 * unfused:8.1f} ms   "
              f"ratio {fused / unfused:.2f}")


if __name__ == "__main__":
    main()
