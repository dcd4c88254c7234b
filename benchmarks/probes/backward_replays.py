"""How many steps of a steady few-row training loop replay the eager loss's CUDA graphs,
forward and backward, per kind of upstream gradient (a CUDA GPU; nothing else allocates in
the loop but what a training step would).

    python benchmarks/probes/backward_replays.py [--rows 3] [--vocab 128256] [--steps 20]

Kinds: "mean" (a scalar upstream gradient), "none" (per-token losses weighted per row),
"lse" (reduction "none" and a differentiated lse), "entropy" (the mean loss minus an
entropy bonus, the accuracy asked for: a trainer's metrics).
"""
from __future__ import annotations

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from inductor_ce.eager import loss as eager_loss  # noqa: E402


def replayed(copies: bool) -> int:
    return sum(r.replayed for r in eager_loss._REPLAYS.values() if r.copies == copies)


def step(kind, leaf, t, u):
    if kind == "mean":
        inductor_ce.cross_entropy(leaf, t).backward()
    elif kind == "none":
        (inductor_ce.cross_entropy(leaf, t, reduction="none") * u).sum().backward()
    elif kind == "lse":
        loss, lse = inductor_ce.cross_entropy(leaf, t, reduction="none", return_lse=True)
        ((loss * u).sum() + 0.1 * lse.mean()).backward()
    else:
        out = inductor_ce.cross_entropy(leaf, t, return_entropy=True, return_accuracy=True)
        (out.loss - 0.01 * out.entropy.mean()).backward()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=int, default=3)
    p.add_argument("--vocab", type=int, default=128256)
    p.add_argument("--steps", type=int, default=20)
    args = p.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(0)
    for kind in ("mean", "none", "lse", "entropy"):
        leaf = torch.empty(args.rows, args.vocab, device="cuda", dtype=torch.bfloat16,
                           requires_grad=True)
        t = torch.randint(0, args.vocab, (args.rows,), device="cuda", generator=gen)
        before = replayed(True), replayed(False)
        for _ in range(args.steps):
            with torch.no_grad():
                leaf.copy_(torch.randn(args.rows, args.vocab, device="cuda", generator=gen))
            u = torch.randn(args.rows, device="cuda", generator=gen)
            step(kind, leaf, t, u)
            leaf.grad = None
        torch.cuda.synchronize()
        print(f"{kind}: of {args.steps} steps, forward replayed {replayed(True) - before[0]}, "
              f"backward {replayed(False) - before[1]}", flush=True)


if __name__ == "__main__":
    main()
