"""The README's collapse numbers: relative error of the loss against float64 over target margins.

    python benchmarks/collapse_margins.py

The README example's logits (torch.manual_seed(0), randn(1, 32000), target 0) with the target
logit set to the max of the others + margin, float32; exact value: softplus(logsumexp of the
other logits - target logit) in float64.
"""
from __future__ import annotations

import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import inductor_ce  # noqa: E402


def main():
    import argparse
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args()   # (--help)
    print(f"torch {torch.__version__}")
    print(f"{'margin':>6} {'exact loss':>11} {'stock fp32':>11} {'inductor_ce':>11} "
          f"{'stock fp64':>11}")
    for margin in (0, 10, 16, 20, 25, 30, 50, 80):
        torch.manual_seed(0)
        z = torch.randn(1, 32000)
        t = torch.tensor([0])
        z[0, 0] = z[0, 1:].max() + margin
        exact = F.softplus(torch.logsumexp(z[0, 1:].double(), 0) - z[0, 0].double())
        errs = [((loss.double() - exact).abs() / exact).item() for loss in (
            F.cross_entropy(z, t), inductor_ce.cross_entropy(z, t),
            F.cross_entropy(z.double(), t))]
        print(f"{margin:6d} {exact.item():11.3e} " + " ".join(f"{e:11.1e}" for e in errs))


if __name__ == "__main__":
    main()
