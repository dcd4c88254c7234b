"""Host time of one short fused-head call without gradient, on the CPU, where its kernels cost
almost nothing: 64 x 8 x 64 float32 (one chunk), ``reduction="none"`` and "mean", and
``linear_log_probs`` at temperature 0.7, all under ``torch.no_grad()``; the median of 7
rounds of 2000 calls. Two versions side by side: run it with each on PYTHONPATH (as
linear_ab.py).

    INDUCTOR_CE_EAGER=compiled OMP_NUM_THREADS=1 python benchmarks/probes/nograd_call_host.py
"""
import statistics
import time

import torch

import inductor_ce   # the version on PYTHONPATH


def main():
    torch.manual_seed(0)
    T, D, V = 64, 8, 64
    h, w = torch.randn(T, D), torch.randn(V, D)
    y = torch.randint(0, V, (T,))
    y[::7] = -100
    calls = {
        "none": lambda: inductor_ce.linear_cross_entropy(h, w, y, reduction="none"),
        "mean": lambda: inductor_ce.linear_cross_entropy(h, w, y),
        "logp": lambda: inductor_ce.linear_log_probs(h, w, y, temperature=0.7),
    }
    out = []
    with torch.no_grad():
        for name, fn in calls.items():
            for _ in range(50):
                fn()
            rounds = []
            for _ in range(7):
                t0 = time.perf_counter()
                for _ in range(2000):
                    fn()
                rounds.append((time.perf_counter() - t0) / 2000 * 1e6)
            out.append(f"{name} {statistics.median(rounds):.1f} us")
    print(", ".join(out))


if __name__ == "__main__":
    main()
