"""A design for small budgets, timed before it was built (the head's class chunks have run it
since, with their own chunk loop: linear/class_chunks.py's block_statistics and block_grads;
this prototype, as NOTES run 67 measured it, is kept with only the target lookup's
constructor and the names it borrows updated): the gradient by chunks of classes
over all rows, with dh accumulated over the chunks (instead of row chunks, whose every chunk
reads and writes dW, or the class chunks' forward sum u):

    statistics:  for each chunk c of C classes:  z_c = h W_c^T;  ce_fwd(z_c) combined
    gradient:    for each chunk c:  z_c = h W_c^T;  dz_c = ce_bwd(z_c) in place;
                 dW_c = dz_c^T h (written once);  dh32 += dz_c W_c (float32 output)

4 GEMMs of all rows, no dW read-modify-write, dh in a float32 T x D accumulator (rows in
blocks of B where 4 B D is over half the budget; dW then accumulates over the blocks).
The per-row coefficients are a mean loss's.

    python benchmarks/probes/class_grad_sweep.py --budget-mib 64 4096x2048x151936 8192x768x50304

Per shape, do_bench medians x the three GEMMs of the same process: the sweep; the head's
row chunks and its class chunks at the same budget (``linear_cross_entropy`` mean); and
host ms per sweep (10 back to back). bf16, every 7th target ignored.
"""
import sys
import time

import torch
from triton.testing import do_bench

import inductor_ce
from inductor_ce.eager import kernels as eager
from inductor_ce.linear import class_chunks, head, plan


def sweep(h, w, t, budget):
    """The design's step (mean loss, no bias); returns (dh, dW) to keep them alive."""
    T, D = h.shape
    V = w.shape[0]
    item = h.element_size()
    block = min(T, max(16, budget // 2 // (4 * D)))         # rows whose float32 dh fits
    classes = max(64, (budget - 4 * block * D) // (block * item) // 64 * 64)
    keep = torch.where(t == -100, -1, t)
    n = (keep >= 0).sum().clamp(min=1)
    dw = torch.empty_like(w)
    dh = torch.empty_like(h)
    scratch = h.new_empty(block * min(classes, V))
    for r0 in range(0, T, block):
        r1 = min(T, r0 + block)
        h_r, k_r = h[r0:r1], keep[r0:r1]
        targets = class_chunks.ChunkTargets(k_r, classes, V)
        lse = h.new_full((r1 - r0,), float("-inf"), dtype=torch.float32)
        z_t = torch.full_like(lse, float("-inf"))
        for v0 in range(0, V, classes):
            v1 = min(V, v0 + classes)
            z = scratch[:(r1 - r0) * (v1 - v0)].view(r1 - r0, v1 - v0)
            torch.mm(h_r, w[v0:v1].t(), out=z)
            part = head._CE_FWD(z, targets.of(v0), None, -1, None, 0.0)
            lse = torch.logaddexp(lse, part[0])
            z_t = torch.maximum(z_t, part[1])
        # mean loss: dz_j = p_j / n off the target, -(1 - p_t) / n on it; with lse_nt the
        # non-targets' logsumexp, p_j = exp(z_j - lse_nt) * q and 1 - p_t = q, q the
        # non-targets' mass sigmoid(lse_nt - z_t) (ce_bwd: a exp(z_j - lse_nt), b).
        a = torch.where(k_r >= 0, torch.sigmoid(lse - z_t), 0.0) / n
        b = -a
        dh32 = torch.zeros(r1 - r0, D, dtype=torch.float32, device=h.device)
        for v0 in range(0, V, classes):
            v1 = min(V, v0 + classes)
            z = scratch[:(r1 - r0) * (v1 - v0)].view(r1 - r0, v1 - v0)
            torch.mm(h_r, w[v0:v1].t(), out=z)
            eager.ce_bwd_(z, targets.of(v0), None, lse, a, b, None, -1, None, columns=True)
            if r0 == 0:
                torch.mm(z.t(), h_r, out=dw[v0:v1])
            else:
                dw[v0:v1].addmm_(z.t(), h_r)
            chunks.add_product(dh32, z, w[v0:v1])
        dh[r0:r1] = dh32
    return dh, dw


def main():
    args = sys.argv[1:]
    budget = 64 << 20
    if "--budget-mib" in args:
        i = args.index("--budget-mib")
        budget = int(args[i + 1]) << 20
        del args[i:i + 2]
    for spec in args:
        T, D, V = (int(v) for v in spec.split("x"))
        g = torch.Generator(device="cuda").manual_seed(0)
        h = torch.randn(T, D, device="cuda", generator=g, dtype=torch.bfloat16)
        w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16)
        t = torch.randint(0, V, (T,), device="cuda", generator=g)
        t[::7] = -100
        dz = torch.randn(T, V, device="cuda", dtype=torch.bfloat16) * 1e-3
        gemms = (do_bench(lambda: h @ w.t()) + do_bench(lambda: dz @ w)
                 + do_bench(lambda: dz.t() @ h))
        del dz
        torch.cuda.empty_cache()
        sw = do_bench(lambda: sweep(h, w, t, budget))
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(10):
            sweep(h, w, t, budget)
        host = (time.perf_counter() - t0) / 10 * 1e3
        torch.cuda.synchronize()
        hg, wg = h.detach().requires_grad_(), w.detach().requires_grad_()

        def step():
            inductor_ce.linear_cross_entropy(hg, wg, t, memory_budget=budget).backward()
            hg.grad = wg.grad = None
        rows = do_bench(step)
        plan.CLASSES_MIN_HIDDEN, keep = 0, plan.CLASSES_MIN_HIDDEN
        plan.ROWS_MIN_NARROW, keep2 = 1 << 30, plan.ROWS_MIN_NARROW
        plan.ROWS_MIN, keep3 = 1 << 30, plan.ROWS_MIN
        classes = do_bench(step)
        plan.CLASSES_MIN_HIDDEN, plan.ROWS_MIN_NARROW, plan.ROWS_MIN = keep, keep2, keep3
        line = (f"{spec} {budget >> 20} MiB: GEMMs {gemms:.2f} ms; sweep {sw / gemms:.3f}x "
                f"(host {host:.2f} ms/call), rows {rows / gemms:.3f}x, classes "
                f"{classes / gemms:.3f}x")
        if T * V > 1 << 30:    # (float64 logits over ~8 GiB: not checked)
            print(line, flush=True)
            continue
        # dh, dW against float64 of the same loss (mean, no bias): the sweep's, and the
        # unfused bf16 step's for scale.
        h64, w64 = h.double().requires_grad_(), w.double().requires_grad_()
        torch.nn.functional.cross_entropy(h64 @ w64.t(), t).backward()
        hu, wu = h.detach().requires_grad_(), w.detach().requires_grad_()
        torch.nn.functional.cross_entropy(hu @ wu.t(), t).backward()

        def err(x, r):
            return ((x.double() - r).norm() / r.norm()).item()
        dh, dw = sweep(h, w, t, budget)
        print(f"{line}; dh err {err(dh, h64.grad):.2e} (unfused {err(hu.grad, h64.grad):.2e}), "
              f"dW err {err(dw, w64.grad):.2e} (unfused {err(wu.grad, w64.grad):.2e})",
              flush=True)
        del h64, w64, hu, wu, dh, dw
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
