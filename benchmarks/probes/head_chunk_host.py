"""Host time per row chunk of the eager fused head, on the CPU, where these kernels cost
almost nothing: one chunk against 32 chunks of 256 rows (``memory_budget``), 8192 x 8 x 64
float32, the minimum of 60 calls each; the difference per chunk is the chunk loop's own
host time. Two versions side by side: run it with each on PYTHONPATH (as linear_ab.py).

    INDUCTOR_CE_EAGER=compiled OMP_NUM_THREADS=1 python benchmarks/probes/head_chunk_host.py \
        {nograd,none,mean} [--profile]

``--profile``: also the 25 functions of most own time over 10 calls of 32 chunks (cProfile).
"""
import cProfile
import pstats
import sys
import time

import torch

import inductor_ce   # the version on PYTHONPATH


def main():
    kind = sys.argv[1]
    T, D, V = 8192, 8, 64
    torch.manual_seed(0)
    h = torch.randn(T, D, requires_grad=True)
    w = (torch.randn(V, D) * 0.02).requires_grad_()
    y = torch.randint(0, V, (T,))
    up = torch.rand(T)

    def step(rows):
        budget = rows * V * 4
        if kind == "mean":
            inductor_ce.linear_cross_entropy(h, w, y, memory_budget=budget).backward()
        elif kind == "none":
            inductor_ce.linear_cross_entropy(h, w, y, reduction="none",
                                             memory_budget=budget).backward(up)
        else:
            with torch.no_grad():
                inductor_ce.linear_cross_entropy(h, w, y, reduction="none",
                                                 memory_budget=budget)
        h.grad = w.grad = None

    res = {}
    for rows in (8192, 256):
        for _ in range(3):
            step(rows)
        ts = []
        for _ in range(60):
            t0 = time.perf_counter()
            step(rows)
            ts.append(time.perf_counter() - t0)
        res[rows] = min(ts) * 1e3
    print(kind, f"1 chunk {res[8192]:.2f} ms, 32 chunks {res[256]:.2f} ms: "
          f"{(res[256] - res[8192]) / 31 * 1e3:.0f} us per chunk")
    if "--profile" in sys.argv:
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(10):
            step(256)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
