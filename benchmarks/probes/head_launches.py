"""ATen calls per step of the eager fused head, by kind of call, on the CPU: each is a kernel
launch (or an allocation) on a GPU, whose host time counts where a step is short (small D,
few rows, no-gradient calls). The ce ops' compiled graphs count as one call each and are not
listed (``Call CompiledFxGraph``); view ops and empty allocations are left out.

    INDUCTOR_CE_EAGER=compiled python benchmarks/probes/head_launches.py

One row chunk (2048 x 64 x 16000 float32): "nograd" (reduction="none" under no_grad),
"none" (per-token losses, a backward with a random upstream gradient), "lse"
(``return_lse=True``, a gradient through both outputs), "mean".
"""
from __future__ import annotations

import collections
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402

NOT_LAUNCHES = {"aten::view", "aten::reshape", "aten::slice", "aten::as_strided",
                "aten::select", "aten::t", "aten::transpose", "aten::expand", "aten::unsqueeze",
                "aten::squeeze", "aten::detach", "aten::alias", "aten::_reshape_alias",
                "aten::empty", "aten::empty_strided", "aten::lift_fresh", "aten::resolve_conj",
                "aten::resolve_neg", "aten::result_type"}


def main():
    T, D, V = 2048, 64, 16000
    torch.manual_seed(0)
    h = torch.randn(T, D, requires_grad=True)
    w = (torch.randn(V, D) * 0.02).requires_grad_()
    y = torch.randint(0, V, (T,))
    up = torch.rand(T)

    def step(kind):
        if kind == "nograd":
            with torch.no_grad():
                inductor_ce.linear_cross_entropy(h, w, y, reduction="none")
            return
        if kind == "mean":
            inductor_ce.linear_cross_entropy(h, w, y).backward()
        elif kind == "none":
            inductor_ce.linear_cross_entropy(h, w, y, reduction="none").backward(up)
        else:
            out = inductor_ce.linear_cross_entropy(h, w, y, return_lse=True)
            torch.autograd.backward(out, [torch.ones_like(out[0]), up])
        h.grad = w.grad = None

    for kind in ("nograd", "none", "lse", "mean"):
        for _ in range(2):
            step(kind)
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            step(kind)
        calls = collections.Counter()
        for e in prof.events():
            if not e.name.startswith("aten::") or e.name in NOT_LAUNCHES:
                continue
            parent = e.cpu_parent
            while parent is not None and not parent.name.startswith("aten::"):
                parent = parent.cpu_parent
            if parent is None:   # top-level: not inside another ATen call
                calls[e.name.removeprefix("aten::")] += 1
        print(f"{kind:7s} {sum(calls.values()):3d}  " +
              ", ".join(f"{n} {c}" for n, c in calls.most_common()))


if __name__ == "__main__":
    main()
