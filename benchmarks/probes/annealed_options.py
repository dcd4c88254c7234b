"""Time per eager call when ``label_smoothing``, ``z_loss`` or ``softcap`` takes a new value
every call (an annealed smoothing, a z-loss warm-up, a softcap sweep), on the CPU: what a value
costs in compiles.

    python benchmarks/probes/annealed_options.py [--option z_loss|softcap] [--linear] [--calls 8]

Each call is a forward+backward of 64 x 32768 float32 logits (2^21: the eager path compiles at
this size by default) with a new value of the option; prints each call's time and the
compiles it caused (``inductor_ce.eager.kernels.compiles``). Inductor's caches go to a fresh
directory (``TORCHINDUCTOR_CACHE_DIR``) unless ``--warm-cache``: a value compiled by an earlier
run would otherwise be a cache hit. ``--linear``: ``linear_cross_entropy`` ("fast", h 64 x 64,
W 32768 x 64) instead.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--option", choices=("label_smoothing", "z_loss", "softcap"),
                   default="label_smoothing")
    p.add_argument("--calls", type=int, default=8)
    p.add_argument("--linear", action="store_true")
    p.add_argument("--warm-cache", action="store_true")
    args = p.parse_args()
    if not args.warm_cache:
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="annealed-")
    import torch
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    import inductor_ce
    from inductor_ce.eager import kernels

    torch.manual_seed(0)
    rows, vocab, dim = 64, 32768, 64
    t = torch.randint(0, vocab, (rows,))
    x = torch.randn(rows, vocab, requires_grad=True)
    h = torch.randn(rows, dim, requires_grad=True)
    w = (torch.randn(vocab, dim) * 0.1).requires_grad_()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"{'linear_cross_entropy' if args.linear else 'cross_entropy'}, {args.option} new "
          f"every call")
    for i in range(args.calls):
        value = {"label_smoothing": 0.1 * (1 - i / args.calls), "z_loss": 1e-4 * (i + 1),
                 "softcap": 30.0 - 2.0 * i}[args.option]
        before = kernels.compiles
        t0 = time.perf_counter()
        if args.linear:
            loss = inductor_ce.linear_cross_entropy(h, w, t, **{args.option: value})
        else:
            loss = inductor_ce.cross_entropy(x, t, **{args.option: value})
        loss.backward()
        dt = time.perf_counter() - t0
        print(f"call {i}: {args.option}={value:.4g} {dt:7.3f} s, "
              f"{kernels.compiles - before} compile(s), loss {loss.item():.6f}")


if __name__ == "__main__":
    main()
