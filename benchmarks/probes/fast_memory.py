"""Where an eager "fast" linear + cross-entropy step holds its memory (CUDA).

    python benchmarks/probes/fast_memory.py [--shape 8192x4096x128256] [--chunk 2093 (rows)]

Prints torch.cuda.memory_allocated above the inputs at each stage of one eager step (after
the forward, inside the backward around the in-place scaling, after the backward), the
step's peak, and whether the gradients the forward computed became h.grad / W.grad (same
storage) or were copied.
"""
from __future__ import annotations

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from inductor_ce.linear import scaling  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shape", default="8192x4096x128256")
    p.add_argument("--chunk", type=int, default=0)
    args = p.parse_args()
    T, D, V = (int(v) for v in args.shape.split("x"))
    g = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(T, D, device="cuda", generator=g, dtype=torch.bfloat16).requires_grad_()
    w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16)
    w.requires_grad_()
    y = torch.randint(0, V, (T,), device="cuda", generator=g)
    gib = 2 ** 30
    marks, ptrs = [], []
    scale = scaling.launch   # the eager backward's in-place scaling on CUDA (scaling.py)

    def traced_scale(x, s):
        torch.cuda.synchronize()
        marks.append((f"before scale_ {tuple(x.shape)}", torch.cuda.memory_allocated()))
        ptrs.append(x.data_ptr())
        scale(x, s)
        marks.append((f"after scale_ {tuple(x.shape)}", torch.cuda.memory_allocated()))

    def step():
        budget = args.chunk * V * h.element_size() if args.chunk else None
        return inductor_ce.linear_cross_entropy(h, w, y, memory_budget=budget)

    for _ in range(2):
        step().backward()
        h.grad = w.grad = None
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    scaling.launch = traced_scale
    loss = step()
    torch.cuda.synchronize()
    marks.append(("after forward", torch.cuda.memory_allocated()))
    fwd_peak = torch.cuda.max_memory_allocated()
    loss.backward()
    torch.cuda.synchronize()
    marks.append(("after backward", torch.cuda.memory_allocated()))
    scaling.launch = scale
    print(f"T, D, V = {T}, {D}, {V}; chunk {args.chunk or 'default'}; torch {torch.__version__}")
    print(f"dh + dW bytes: {(T + V) * D * 2 / gib:.3f} GiB")
    for name, b in marks:
        print(f"{name:<40} {(b - base) / gib:7.3f} GiB above the inputs")
    print(f"forward peak {(fwd_peak - base) / gib:.3f} GiB, step peak "
          f"{(torch.cuda.max_memory_allocated() - base) / gib:.3f} GiB")
    print("h.grad is the forward's buffer:", h.grad.data_ptr() in ptrs,
          "; W.grad is:", w.grad.data_ptr() in ptrs)


if __name__ == "__main__":
    main()
