"""The loss's and the gradient's error against float64 when every logit of a row carries the
same large offset c, on the CPU: ours against stock float32 ``F.cross_entropy``.

    python benchmarks/probes/logit_offset.py [--vocab 1000] [--margin 8]

The loss is shift-invariant. Stock's log_softmax subtracts the row's max first (x - max is
exact), so its error does not depend on c. Ours forms lse_nt = m + log s in float32 and
then d = lse_nt - z_t: lse_nt carries about half an ulp of |c|, so the loss and the
gradient lose about ulp(c) / 2 relative (docs/numerics.md, "The logits' magnitude").
float32 logits randn + c, the target's logit raised by ``--margin``; 16 rows; the largest
relative error of the per-row loss and of the target column's gradient (a sum loss), each
against float64 of the same float32 values.
"""
from __future__ import annotations

import argparse
import os
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--vocab", type=int, default=1000)
    p.add_argument("--margin", type=float, default=8.0)
    args = p.parse_args()
    import torch
    import torch.nn.functional as F
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    import inductor_ce

    torch.manual_seed(0)
    rows, vocab = 16, args.vocab
    base = torch.randn(rows, vocab)
    t = torch.randint(0, vocab, (rows,))
    i = torch.arange(rows)
    base[i, t] += args.margin
    print(f"torch {torch.__version__}, float32 logits {rows} x {vocab}, margin {args.margin}")
    print("| offset c | half ulp(c) | ours loss | stock loss | ours target grad | stock target grad |")
    print("|---|---|---|---|---|---|")
    for c in (0.0, 10.0, 100.0, 1e3, 1e4, 1e5):
        x = base + c
        xd = x.double().requires_grad_()
        ref = F.cross_entropy(xd, t, reduction="none")
        ref.sum().backward()
        row = [f"{c:.0e}", f"{torch.finfo(torch.float32).eps * max(c, 1.0) / 2:.1e}"]
        errs = []
        for fn in (inductor_ce.cross_entropy, F.cross_entropy):
            xx = x.clone().requires_grad_()
            loss = fn(xx, t, reduction="none")
            loss.sum().backward()
            errs.append((((loss.double() - ref) / ref).abs().max().item(),
                         ((xx.grad[i, t].double() - xd.grad[i, t]) / xd.grad[i, t])
                         .abs().max().item()))
        row += [f"{errs[0][0]:.1e}", f"{errs[1][0]:.1e}", f"{errs[0][1]:.1e}", f"{errs[1][1]:.1e}"]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
