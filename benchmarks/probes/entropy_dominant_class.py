"""The entropy's error against float64 where one non-target class dominates its row (a
confidently wrong prediction), on the CPU: ours against stock float32.

    python benchmarks/probes/entropy_dominant_class.py [--vocab 1000]
    INDUCTOR_CE_EAGER=compiled python benchmarks/probes/entropy_dominant_class.py

The target is a typical logit (class 0, randn); class 1 leads every other logit by a gap g.
Ours forms ent_nt = log S + U / S over the non-target logits with S = 1 + S' in float32
(S' the mass of the classes other than the leader, relative to it): log S carries about
half an ulp of 1 (6e-8) absolute, large against an entropy of size S' (g + ...) when S' is
small (docs/numerics.md, "One limit"). Stock float32 entropy: -sum p log p from
log_softmax. Per gap: the entropy (float64), and the relative and absolute error of each;
then the error of its gradient (the entropy's sum differentiated) as a fraction of the row's
largest float64 derivative: ours by autograd (the op's backward), ours under
torch.func.grad (the decomposition's closed form), stock float32 by autograd.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--vocab", type=int, default=1000)
    args = p.parse_args()
    import torch

    import inductor_ce
    gaps = [4, 8, 12, 14, 16, 20, 25, 40]
    x = torch.randn(len(gaps), args.vocab, generator=torch.Generator().manual_seed(0))
    for i, gap in enumerate(gaps):
        x[i, 1] = x[i, 2:].max() + gap
    t = torch.zeros(len(gaps), dtype=torch.long)
    ours = inductor_ce.cross_entropy(x, t, reduction="none", return_entropy=True).entropy

    def entropy(v):
        lp = torch.log_softmax(v, -1)
        return -(lp.exp() * lp).sum(-1)

    def log_softmax64(v):
        """float64 log-softmax anchored at the row's largest logit, with log1p of the others'
        mass S': log_softmax's log(1 + S') drops S' below float64's ulp of 1 (gap 40: S' of
        4e-15, a leader's term -p log p of the entropy's own size)."""
        z = v.double()
        top = z.argmax(-1, keepdim=True)
        d = (z - z.gather(-1, top)).scatter(-1, top, 0.0)
        rest = d.exp().scatter(-1, top, 0.0).sum(-1, keepdim=True)
        return d - torch.log1p(rest)
    lp64 = log_softmax64(x)
    ref, stock = -(lp64.exp() * lp64).sum(-1), entropy(x)
    print(f"torch {torch.__version__}, V = {args.vocab}, INDUCTOR_CE_EAGER="
          f"{os.environ.get('INDUCTOR_CE_EAGER', 'auto')}")
    print(f"{'gap':>4} {'entropy':>10} {'ours rel':>9} {'ours abs':>9} {'stock rel':>9} "
          f"{'stock abs':>9}")
    for i, gap in enumerate(gaps):
        r = ref[i].item()
        e, s = abs(ours[i].item() - r), abs(stock[i].item() - r)
        print(f"{gap:>4} {r:10.3e} {e / r:9.1e} {e:9.1e} {s / r:9.1e} {s:9.1e}")

    def ours_sum(v):
        return inductor_ce.cross_entropy(v, t, reduction="none", return_entropy=True).entropy.sum()
    grads = {}
    for name, fn in (("ours", ours_sum), ("stock", lambda v: entropy(v).sum())):
        leaf = x.clone().requires_grad_()
        fn(leaf).backward()
        grads[name] = leaf.grad
    grads["ours, torch.func"] = torch.func.grad(ours_sum)(x)
    want = -lp64.exp() * (lp64 + ref.unsqueeze(-1))      # dH/dz = -p (log p + H)
    scale = want.abs().amax(-1)
    print(f"\ngradient: max error / the row's largest derivative")
    print(f"{'gap':>4} " + " ".join(f"{k:>17}" for k in grads))
    for i, gap in enumerate(gaps):
        errs = [((g[i].double() - want[i]).abs().max() / scale[i]).item() for g in grads.values()]
        print(f"{gap:>4} " + " ".join(f"{e:17.1e}" for e in errs))


if __name__ == "__main__":
    main()
