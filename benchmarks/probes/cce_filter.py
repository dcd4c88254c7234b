"""Apple's Cut Cross-Entropy against the data's shape: its backward skips the logit tiles
whose |softmax - onehot| is below its ``filter_eps`` everywhere, so its speed depends on how
peaked the softmax is, which ours does not. ``bench_linear_ce.py``'s data (h = randn, W =
0.02 randn: logits of standard deviation 0.02 sqrt(D), a nearly uniform softmax at most
shapes) leaves it few tiles to skip. This times the fwd+bwd step of CCE (its default
``filter_eps``, and ``filter_eps=None``: no filtering) and ours against the three cuBLAS GEMMs,
for W scaled so that the logits' standard deviation is that of the benchmark and larger.

    python benchmarks/probes/cce_filter.py [--shapes 65536x2048x32000 ...] [--sigmas 0 4 8]
        [--argmax]

(sigma 0: the benchmark's own W; ``--argmax``: each target the row's largest logit, as for a
confident model that is right, where the softmax minus the one-hot target is small
everywhere.) Prints, per shape and sigma, the mean loss and the mean
largest probability (how peaked the data is), then ms and x the GEMMs for each contender.
"""
from __future__ import annotations

import argparse
import os
import sys

import torch
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from bench_linear_ce import data, gemm_time  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shapes", nargs="+", default=["65536x2048x32000", "4096x2048x151936"])
    p.add_argument("--sigmas", nargs="+", type=float, default=[0.0, 4.0, 8.0])
    p.add_argument("--argmax", action="store_true",
                   help="targets = each row's largest logit (a confident, right model)")
    args = p.parse_args()
    import inductor_ce
    from cut_cross_entropy import linear_cross_entropy as cce
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}")
    for shape in args.shapes:
        T, D, V = (int(v) for v in shape.split("x"))
        gemms = gemm_time(T, D, V)
        for sigma in args.sigmas:
            h, w, y = data(T, D, V)
            if sigma:   # logits' standard deviation sigma: W of std sigma / sqrt(D)
                w = (w.float() * (sigma / (0.02 * D ** 0.5))).to(torch.bfloat16)
            if args.argmax:
                with torch.no_grad():
                    y = torch.cat([(h[i:i + 4096] @ w.T).argmax(-1)
                                   for i in range(0, T, 4096)])
                    y[::7] = -100
            with torch.no_grad():
                z = (h[:4096] @ w.T).float()
                loss = torch.nn.functional.cross_entropy(z, y[:4096]).item()
                top = torch.softmax(z, -1).amax(-1).mean().item()
                del z
            print(f"{shape} sigma {sigma or 0.02 * D ** 0.5:.2f}: mean loss {loss:.3f}, "
                  f"mean largest probability {top:.3f}; 3 GEMMs {gemms:.3f} ms")
            h.requires_grad_(), w.requires_grad_()
            for name, fn in (("ours", lambda: inductor_ce.linear_cross_entropy(h, w, y)),
                             ("cce", lambda: cce(h, w, y)),
                             ("cce filter_eps=None", lambda: cce(h, w, y, filter_eps=None))):
                fn().backward()
                ms = do_bench(lambda: fn().backward(), warmup=10, rep=200,
                              grad_to_none=[h, w], return_mode="median")
                print(f"  {name}: {ms:.3f} ms, {ms / gemms:.3f}x")
            del h, w, y
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
