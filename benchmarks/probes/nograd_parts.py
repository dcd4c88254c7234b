"""The no-gradient fused head's parts on the GPU: one GEMM of all rows, one chunk's GEMM, a
chunk's ce_fwd op and the same chunk's ``cross_entropy(reduction="none")``, then the whole
call (reduction "none" and "mean", ``linear_log_probs``, and budgets of 1, 2 and 4 chunks),
do_bench medians; then the host's time per call to its last launch over 20 calls.

    python benchmarks/probes/nograd_parts.py 8192x768x50304

(bf16 h of randn, W of randn * 0.02, uniform targets.)
"""
import os
import sys
import time

import torch
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from inductor_ce.linear import head  # noqa: E402


def bench(name, fn):
    ms = do_bench(fn, warmup=25, rep=200, return_mode="median")
    print(f"{name:40s} {ms:.3f} ms")
    return ms


def main():
    T, D, V = (int(v) for v in sys.argv[1].split("x"))
    g = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(T, D, device="cuda", generator=g, dtype=torch.bfloat16)
    w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16)
    y = torch.randint(0, V, (T,), device="cuda", generator=g)
    step = head.chunk_rows(T, V, D, 2, 0)
    print("chunk rows", step)
    z = h[:step] @ w.t()
    yy = y[:step].clone()
    bench("full GEMM", lambda: h @ w.t())
    bench("chunk GEMM", lambda: h[:step] @ w.t())
    bench("chunk GEMM into out", lambda: torch.mm(h[:step], w.t(), out=z))
    bench("ce_fwd chunk", lambda: torch.ops.inductor_ce.ce_fwd(z, yy, None, -1, None, False))
    bench("cross_entropy chunk none", lambda: inductor_ce.cross_entropy(z, yy, reduction="none"))
    with torch.no_grad():
        bench("nograd none", lambda: inductor_ce.linear_cross_entropy(h, w, y, reduction="none"))
        bench("nograd mean", lambda: inductor_ce.linear_cross_entropy(h, w, y))
        bench("logp", lambda: inductor_ce.linear_log_probs(h, w, y, temperature=0.7))
        bench("logp t=1", lambda: inductor_ce.linear_log_probs(h, w, y))
        for name, budget in (("2 chunks", T * V), ("4 chunks", T * V // 2),
                             ("1 chunk", T * V * 2)):
            bench(f"nograd none budget {name}", lambda b=budget: inductor_ce.linear_cross_entropy(
                h, w, y, reduction="none", memory_budget=b))
    torch.cuda.synchronize()
    with torch.no_grad():
        t0 = time.perf_counter()
        for _ in range(20):
            inductor_ce.linear_cross_entropy(h, w, y, reduction="none")
        host = (time.perf_counter() - t0) / 20
        torch.cuda.synchronize()
        total = (time.perf_counter() - t0) / 20
    print(f"host {host * 1e3:.3f} ms per call to last launch; total {total * 1e3:.3f}")


if __name__ == "__main__":
    main()
