"""Host time per call of the eager paths, on the CPU, where kernels of these sizes cost
almost nothing: what a few-rows GPU step pays on top of its kernels, without a GPU.

    INDUCTOR_CE_EAGER=compiled python benchmarks/probes/host_time.py [--calls 3000]

Prints the median over 5 rounds of: ``inductor_ce.cross_entropy`` forward+backward on 8 x 64
float32 logits (and ``F.cross_entropy``'s), and one call of the "fast" fused linear +
cross-entropy op on h 64 x 16, W 1000 x 16, inputs requiring grad. ``--options``: also
``cross_entropy`` with ``label_smoothing=0.1``, and with a smoothing new every call (not
before the values became inputs of the compiled code: each call compiled, seconds).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402


def per_call_us(fn, calls):
    for _ in range(50):
        fn()
    rounds = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        rounds.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(rounds)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=3000)
    p.add_argument("--options", action="store_true")
    p.add_argument("--no-annealed", action="store_true", help="with --options: not the "
                   "smoothing new every call")
    args = p.parse_args()
    torch.manual_seed(0)
    x = torch.randn(8, 64, requires_grad=True)
    y = torch.randint(0, 64, (8,))
    h = torch.randn(64, 16, requires_grad=True)
    w = torch.randn(1000, 16, requires_grad=True)
    t = torch.randint(0, 1000, (64,))
    op = torch.ops.inductor_ce.linear_ce_fast
    ours = per_call_us(lambda: inductor_ce.cross_entropy(x, y).backward(), args.calls)
    stock = per_call_us(lambda: F.cross_entropy(x, y).backward(), args.calls)
    fast = per_call_us(lambda: op(h, w, None, t, None, -100, None, 0.0, 0.0, False, 0),
                       args.calls // 6)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"INDUCTOR_CE_EAGER={os.environ.get('INDUCTOR_CE_EAGER', 'auto')}")
    print(f"cross_entropy fwd+bwd 8 x 64: ours {ours:.0f} us, F.cross_entropy {stock:.0f} us")
    print(f"linear_ce_fast 64 x 16 x 1000: {fast:.0f} us per call")
    if args.options:
        smooth = per_call_us(lambda: inductor_ce.cross_entropy(
            x, y, label_smoothing=0.1).backward(), args.calls)
        print(f"cross_entropy fwd+bwd 8 x 64, label_smoothing 0.1: {smooth:.0f} us")
        if not args.no_annealed:
            values = iter([0.1 * (1 - i / 1e6) for i in range(1_000_000)])
            annealed = per_call_us(lambda: inductor_ce.cross_entropy(
                x, y, label_smoothing=next(values)).backward(), args.calls)
            print(f"cross_entropy fwd+bwd 8 x 64, label_smoothing new every call: "
                  f"{annealed:.0f} us")


if __name__ == "__main__":
    main()
