"""How much of a fused-head call's time is the host's: each call (linear_ab.py's: nograd,
logp, none, lse, mean) and its GEMM baseline timed three ways, do_bench medians:

- "alone": as bench_linear_ce.py times it (the GPU idle when the call starts, so the host's
  time to its first launch counts, and any stretch where the GPU waits for launches);
- "behind": the call enqueued behind ~2 ms of GPU work (``torch.cuda._sleep``, its own time
  subtracted), as in a training step where the model's forward keeps the GPU busy while the
  host reaches the loss: what remains is the GPU's time plus any wait for the host beyond it;
- "kernels": the sum of the call's kernel times under the profiler (5 calls), and the six
  kernels that take longest.

    python benchmarks/probes/host_latency.py 8192x768x50304 4096x2048x151936

Ratios: against one GEMM (nograd, logp) or three (none, lse, mean), each timed the same way.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from lean_parts import kernels, ms  # noqa: E402
from linear_ab import calls, data  # noqa: E402


def three_ways(fn, cycles, sleep_ms):
    def behind():
        torch.cuda._sleep(cycles)
        fn()
    by = kernels(fn)
    return (ms(fn), ms(behind) - sleep_ms, sum(by.values())), by


def main():
    cycles = 1 << 22
    sleep_ms = ms(lambda: torch.cuda._sleep(cycles))
    print(f"sleep {cycles} cycles: {sleep_ms:.3f} ms")
    for shape in sys.argv[1:]:
        T, D, V = (int(v) for v in shape.split("x"))
        h, w, y, up = data(T, D, V)
        hd, wd = h.detach(), w.detach()
        g1, _ = three_ways(lambda: hd @ wd.t(), cycles, sleep_ms)

        def three():
            z = hd @ wd.t()
            z @ wd
            z.t() @ hd
        g3, _ = three_ways(three, cycles, sleep_ms)
        print(f"\n## {T} x {D} x {V}: one GEMM alone / behind / kernels "
              + " / ".join(f"{v:.3f}" for v in g1) + " ms; three "
              + " / ".join(f"{v:.3f}" for v in g3))
        for name, (fn, one) in calls(h, w, y, up).items():
            def step(fn=fn):
                h.grad = w.grad = None
                fn()
            t, by = three_ways(step, cycles, sleep_ms)
            base = g1 if one else g3
            print(f"{name:7s} x {'one' if one else 'three'}: "
                  + ", ".join(f"{k} {a:.3f} ms {a / b:.3f}x"
                              for k, a, b in zip(("alone", "behind", "kernels"), t, base)))
            for k, v in sorted(by.items(), key=lambda kv: -kv[1])[:6]:
                print(f"        {v:7.3f} ms  {k[:90]}")


if __name__ == "__main__":
    main()
