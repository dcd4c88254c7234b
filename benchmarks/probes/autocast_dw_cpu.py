"""The fused head's dW under bf16 autocast with float32 parameters, against the unfused
autocast step's (F.cross_entropy(F.linear(h, W), t)), by the number of row chunks: the
largest error against float64 of what autocast's GEMMs see (the bf16-rounded operands), on
the CPU.

    python benchmarks/probes/autocast_dw_cpu.py

A float32 weight enters the ops as it is; they cast it for their GEMMs and sum dW over the
chunks in float32 (docs/linear.md). Logs: ``results/log/autocast-dw-cpu-before-torch2.14.txt``
(the weight cast to bfloat16 before the op: dW summed in bfloat16) and ``-after-``.
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402

N, D, V = 4096, 64, 256


def main():
    torch.manual_seed(0)
    h0, w0 = torch.randn(N, D), torch.randn(V, D) * 0.3
    t = torch.randint(0, V, (N,))
    h64, w64 = (x.bfloat16().double().requires_grad_() for x in (h0, w0))
    F.cross_entropy(F.linear(h64, w64), t).backward()

    def errors(fn):
        h, w = h0.clone().requires_grad_(), w0.clone().requires_grad_()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = fn(h, w)
        loss.backward()
        return [(x.grad.double() - r.grad).abs().max().item() for x, r in ((w, w64), (h, h64))]

    u = errors(lambda h, w: F.cross_entropy(F.linear(h, w), t))
    print(f"unfused autocast: dW err {u[0]:.2e}  dh err {u[1]:.2e}")
    for rows in (None, 1024, 256, 64):
        budget = None if rows is None else rows * V * 2
        e = errors(lambda h, w: inductor_ce.linear_cross_entropy(h, w, t, memory_budget=budget))
        print(f"fused, {rows or 'default'} rows per chunk ({-(-N // (rows or N))} chunks): "
              f"dW err {e[0]:.2e} ({e[0] / u[0]:.1f}x)  dh err {e[1]:.2e} ({e[1] / u[1]:.1f}x)")


if __name__ == "__main__":
    main()
