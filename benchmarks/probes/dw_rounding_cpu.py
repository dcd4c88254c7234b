"""dW's error against float64 as bf16 row chunks multiply, on the CPU: each row chunk adds its
dz^T h_r to dW in W's dtype (one rounding per chunk). bf16 h (T 4096, D 64) and W (V 8000,
randn * 0.05), uniform targets, the mean loss; budgets of 4096 to 16 rows of logits (1 to
256 chunks; row chunks forced), against the unfused ``cross_entropy(h @ W.T)``. With
``--classes``: class chunks forced, budgets giving blocks of 4096 to 256 rows (1 to 16
blocks; dW accumulates once per block).

    INDUCTOR_CE_EAGER=compiled python benchmarks/probes/dw_rounding_cpu.py [--classes]
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from inductor_ce.linear import plan  # noqa: E402


def rel(a, b):
    return ((a.double() - b).norm() / b.norm()).item()


def main():
    torch.manual_seed(0)
    T, D, V = 4096, 64, 8000
    h = torch.randn(T, D).bfloat16()
    w = (torch.randn(V, D) * 0.05).bfloat16()
    y = torch.randint(0, V, (T,))
    h64, w64 = h.double().requires_grad_(), w.double().requires_grad_()
    torch.nn.functional.cross_entropy(h64 @ w64.t(), y).backward()

    def grads(fn):
        hh, ww = h.clone().requires_grad_(), w.clone().requires_grad_()
        fn(hh, ww).backward()
        return hh.grad, ww.grad
    dh, dw = grads(lambda a, b: inductor_ce.cross_entropy(a @ b.t(), y))
    base_h, base_w = rel(dh, h64.grad), rel(dw, w64.grad)
    print(f"unfused: dh {base_h:.2e}, dW {base_w:.2e}")
    if "--classes" in sys.argv:
        plan.CLASSES_MIN_HIDDEN, plan.ROWS_MIN = 0, 1 << 30
        for block in (4096, 2048, 1024, 512, 256):
            budget = 2 * block * 4 * D     # (half of it: the block's float32 dh)
            assert plan.class_blocks(D, V, 2, budget).rows == block
            dh, dw = grads(lambda a, b: inductor_ce.linear_cross_entropy(
                a, b, y, memory_budget=budget))
            print(f"{T // block:4d} blocks of {block:4d} rows: dh "
                  f"{rel(dh, h64.grad) / base_h:.2f}x, dW {rel(dw, w64.grad) / base_w:.2f}x "
                  f"the unfused error")
        return
    plan.ROWS_MIN = plan.ROWS_MIN_NARROW = 1
    for rows in (4096, 1024, 256, 64, 16):
        dh, dw = grads(lambda a, b: inductor_ce.linear_cross_entropy(
            a, b, y, memory_budget=rows * V * 2))
        print(f"{T // rows:4d} chunks of {rows:4d} rows: dh {rel(dh, h64.grad) / base_h:.2f}x, "
              f"dW {rel(dw, w64.grad) / base_w:.2f}x the unfused error")


if __name__ == "__main__":
    main()
