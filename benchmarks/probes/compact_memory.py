"""Where an eager "compact" linear + cross-entropy step holds its memory (CUDA).

    python benchmarks/probes/compact_memory.py [--shape 8192x1024x32768] [--blocks]

Prints, for a few steps, torch.cuda.memory_allocated above the inputs after the forward, at
the start of the input's gradient (``linear._dh``) and after the backward, the step's peak,
whether dh was written in place in the forward's u and became h.grad (same storage); with
``--blocks``, the live allocations of at least 4 MiB at the start of ``_dh`` with the Python
frames that made them (torch.cuda.memory._record_memory_history).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from inductor_ce.linear import head as linear  # noqa: E402


def live_blocks():
    out = []
    for seg in torch.cuda.memory._snapshot()["segments"]:
        for b in seg["blocks"]:
            if b["state"] == "active_allocated" and b["size"] >= 4 << 20:
                frames = [f"{os.path.basename(f['filename'])}:{f['line']}:{f['name']}"
                          for f in b.get("frames", []) if "site-packages/torch" not in
                          f["filename"]]
                out.append((b["size"] >> 20, frames[:6]))
    return sorted(out, key=lambda x: -x[0])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shape", default="8192x1024x32768")
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--blocks", action="store_true")
    args = p.parse_args()
    n, d, v = (int(x) for x in args.shape.split("x"))
    g = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(n, d, device="cuda", generator=g, dtype=torch.bfloat16)
    w = (torch.randn(v, d, device="cuda", generator=g) * 0.02).to(torch.bfloat16)
    t = torch.randint(0, v, (n,), device="cuda", generator=g)
    t[::7] = -100
    rec, dh_of = {}, linear._dh

    def spy(u, *rest):
        rec["at_dh_MiB"] = (torch.cuda.memory_allocated() - rec["base"]) / 2**20
        if args.blocks and rec.get("last"):
            for size, frames in live_blocks():
                print(size, "MiB", frames)
        out = dh_of(u, *rest)
        rec["in_place"], rec["u"] = out.data_ptr() == u.data_ptr(), u.data_ptr()
        return out

    linear._dh = spy
    if args.blocks:   # (from the start: blocks allocated before it would show no frames)
        torch.cuda.memory._record_memory_history(stacks="python")
    for step in range(args.steps):
        hh = ww = loss = None   # (the last step's graph holds its leaves)
        hh, ww = h.clone().requires_grad_(), w.clone().requires_grad_()
        rec["last"] = step == args.steps - 1
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        rec["base"] = torch.cuda.memory_allocated()
        loss = inductor_ce.linear_cross_entropy(hh, ww, t, policy="compact")
        rec["after_forward_MiB"] = (torch.cuda.memory_allocated() - rec["base"]) / 2**20
        loss.backward()
        torch.cuda.synchronize()
        rec["after_backward_MiB"] = (torch.cuda.memory_allocated() - rec["base"]) / 2**20
        rec["peak_MiB"] = (torch.cuda.max_memory_allocated() - rec["base"]) / 2**20
        rec["grad_is_u"] = hh.grad.data_ptr() == rec["u"]
        print(json.dumps({k: x for k, x in rec.items() if k not in ("base", "u", "last")}),
              flush=True)
    own = linear.compact_backward_chunks(n, v, d)[1]
    print(f"gradients {(n + v) * d * 2 / 2**20:.1f} MiB, the backward's buffer of its own "
          f"{n * own * 2 / 2**20:.2f} MiB (its other chunks live in dW)")


if __name__ == "__main__":
    main()
