"""Small budgets by row chunks against class chunks, on the GPU: the mean loss's and the
per-token losses' step (forward + backward, a random upstream gradient for "none") at each
budget, as the head chooses (class chunks below ``plan.rows_least`` rows of logits) and
with row chunks forced (its thresholds set to 1), x the three
GEMMs of the same run; and each
one's peak memory above the inputs and the gradients; where T x V <= 2^30, also the mean
loss's dh and dW errors against float64 (relative norm, as bench_linear_ce.py), beside the
unfused ``cross_entropy(h @ W.T)``'s.

    python benchmarks/probes/lean_rows_vs_classes.py 8192x768x50304 4096x2048x151936 ...

(bf16 h of randn, W of randn * 0.02, uniform targets, every 7th ignored; do_bench medians.)
"""
import os
import sys

import torch
from triton.testing import do_bench

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from inductor_ce.linear import plan  # noqa: E402
from linear_ab import data  # noqa: E402

MiB = 1 << 20


def rel(a, b):
    return ((a.double() - b).norm() / b.norm()).item()


def errors(h, w, y, fn, ref):
    h.grad = w.grad = None
    fn().backward()
    out = f"dh {rel(h.grad, ref[0]) / ref[2]:.2f}x, dW {rel(w.grad, ref[1]) / ref[3]:.2f}x"
    h.grad = w.grad = None
    return out


def reference(h, w, y):
    """float64 (dh, dW) of the mean loss, and the unfused path's relative errors."""
    h64, w64 = h.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    torch.nn.functional.cross_entropy(h64 @ w64.t(), y).backward()
    h.grad = w.grad = None
    inductor_ce.cross_entropy(h @ w.t(), y).backward()
    out = h64.grad, w64.grad, rel(h.grad, h64.grad), rel(w.grad, w64.grad)
    h.grad = w.grad = None
    return out


def main():
    rows_min = plan.ROWS_MIN, plan.ROWS_MIN_SCALAR, plan.ROWS_MIN_PER_ROW
    for shape in sys.argv[1:]:
        T, D, V = (int(v) for v in shape.split("x"))
        h, w, y, up = data(T, D, V)
        hd, wd = h.detach(), w.detach()

        def three():
            z = hd @ wd.t()
            z @ wd
            z.t() @ hd
        g3 = do_bench(three, warmup=10, rep=100, return_mode="median")
        ref = reference(h, w, y) if T * V <= 1 << 30 else None
        print(f"\n## {T} x {D} x {V}: three GEMMs {g3:.3f} ms"
              + ("" if ref is None else f"; unfused errors dh {ref[2]:.2e}, dW {ref[3]:.2e}"))
        for mib in (0, 256, 128, 64, 32, 16):    # 0: the default
            budget = mib * MiB or None
            chosen = plan.by_classes(V, D, 2, mib * MiB, per_row=True)  # (or the scalar's)
            for forced in (False, True) if chosen else (False,):
                (plan.ROWS_MIN, plan.ROWS_MIN_SCALAR,
                 plan.ROWS_MIN_PER_ROW) = (1, 1, 1) if forced else rows_min
                how = "/".join("classes" if plan.by_classes(V, D, 2, mib * MiB, per_row=p) else
                               f"rows {plan.chunk_rows(T, V, D, 2, mib * MiB)}"
                               for p in (False, True))   # (mean/none)
                line = f"{mib:3d} MiB {how:22s}"
                for kind in ("mean", "none"):
                    def step():
                        h.grad = w.grad = None
                        loss = inductor_ce.linear_cross_entropy(
                            h, w, y, reduction=kind, memory_budget=budget)
                        loss.backward(None if kind == "mean" else up)
                    step()
                    torch.cuda.synchronize()
                    t = do_bench(step, warmup=3, rep=60, return_mode="median")
                    h.grad = w.grad = None
                    torch.cuda.synchronize()
                    base = torch.cuda.memory_allocated()
                    torch.cuda.reset_peak_memory_stats()
                    step()
                    torch.cuda.synchronize()
                    grads = h.grad.nbytes + w.grad.nbytes
                    peak = (torch.cuda.max_memory_allocated() - base - grads) / MiB
                    line += f"  {kind} {t / g3:.3f}x, {peak:.0f} MiB"
                if ref is not None:
                    line += "; errors x unfused: " + errors(
                        h, w, y, lambda: inductor_ce.linear_cross_entropy(
                            h, w, y, memory_budget=budget), ref)
                print(line)
            plan.ROWS_MIN, plan.ROWS_MIN_SCALAR, plan.ROWS_MIN_PER_ROW = rows_min


if __name__ == "__main__":
    main()
