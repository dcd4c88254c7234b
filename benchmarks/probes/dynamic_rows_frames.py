"""Frames torch.compile(dynamic=True) compiles for the loss over row counts on both sides of
the few-rows variant's 1024 and of Inductor's CPU 4096, ours against stock F.cross_entropy:
forward+backward, float32 logits of 40 classes, Inductor's C++ backend.

    python benchmarks/probes/dynamic_rows_frames.py

Prints, per loss, the cumulative frame count after each call.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch._dynamo.testing import CompileCounterWithBackend

import inductor_ce

ROWS = (3, 7, 1100, 5000, 9000)


def main() -> None:
    print(f"torch {torch.__version__}, rows {ROWS}")
    for name, ce in (("stock", F.cross_entropy), ("ours", inductor_ce.cross_entropy)):
        torch._dynamo.reset()
        counter = CompileCounterWithBackend("inductor")
        step = torch.compile(lambda x, t, ce=ce: ce(x, t), dynamic=True, backend=counter)
        frames = []
        for rows in ROWS:
            x = torch.randn(rows, 40, requires_grad=True)
            step(x, torch.randint(0, 40, (rows,))).backward()
            frames.append(counter.frame_count)
        print(f"{name}: frames {frames}", flush=True)


if __name__ == "__main__":
    main()
