"""The fused head's class chunks on the CPU, where a call's time is mostly its kernels and
its chunk loop: a mean loss and a per-row loss (reduction="none") with a gradient, 4096 x 64 x
8192 float32, a budget of 256 rows of logits with class chunks at any D; the minimum of 15
calls each. Two versions side by side: run it with each on PYTHONPATH (as linear_ab.py).

    INDUCTOR_CE_EAGER=compiled OMP_NUM_THREADS=1 python benchmarks/probes/class_chunks_cpu.py TAG [D]

D (default 64): at D = 8 the kernels cost little and the chunk loop's host time shows.
"""
import sys
import time

import torch

import inductor_ce   # the version on PYTHONPATH
from linear_ab import plan_module   # (this version's linear/plan.py, or older head.py)


def main():
    plan = plan_module()
    plan.CLASSES_MIN_HIDDEN = 0     # class chunks below ROWS_MIN rows of logits, any D
    plan.ROWS_MIN = plan.ROWS_MIN_PER_ROW = 1 << 20
    T, D, V = 4096, int(sys.argv[2]) if len(sys.argv) > 2 else 64, 8192
    torch.manual_seed(0)
    h = torch.randn(T, D, requires_grad=True)
    w = (torch.randn(V, D) * 0.02).requires_grad_()
    y = torch.randint(0, V, (T,))
    up = torch.rand(T)
    budget = 256 * V * 4

    def step(kind):
        if kind == "mean":
            inductor_ce.linear_cross_entropy(h, w, y, memory_budget=budget).backward()
        else:
            inductor_ce.linear_cross_entropy(h, w, y, reduction="none",
                                             memory_budget=budget).backward(up)
        h.grad = w.grad = None

    for kind in ("mean", "none"):
        for _ in range(3):
            step(kind)
        ts = []
        for _ in range(15):
            t0 = time.perf_counter()
            step(kind)
            ts.append(time.perf_counter() - t0)
        print(sys.argv[1], f"D {D}", kind, f"{min(ts) * 1e3:.1f} ms", flush=True)


if __name__ == "__main__":
    main()
