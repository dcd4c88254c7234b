"""Two versions of the package side by side on the fused head's calls: the one on PYTHONPATH
(``git archive <commit> inductor_ce | tar -x -C old/``, then ``PYTHONPATH=old``) and the
working tree, run in turns so that a drift of the GPU's clocks hits both alike.

    PYTHONPATH=old python benchmarks/probes/linear_ab.py old 8192x768x50304 ...
    python benchmarks/probes/linear_ab.py new 8192x768x50304 ...
    python benchmarks/probes/linear_ab.py new --budget-mib 64 8192x768x50304 ...
    python benchmarks/probes/linear_ab.py new --calls mean,none 8192x768x50304 ...
    python benchmarks/probes/linear_ab.py new --classes-any-d --budget-mib 64 4096x2048x151936
    python benchmarks/probes/linear_ab.py classes --rows-min 100000 --budget-mib 128 8192x8192x128256

Per shape (bf16, every 7th target ignored), do_bench medians: "nograd" (reduction="none"
under no_grad) and "logp" (``linear_log_probs`` at temperature 0.7 under no_grad) x one GEMM;
"none", "lse" (a gradient through the mean loss and the lse), "mean" x the three GEMMs;
"host": ms per call over 10 calls back to back (the launch queue fills where a call has many
launches: then it reads the GPU's pace, not the host's).
"""
import sys
import time

import torch
from triton.testing import do_bench

import inductor_ce   # the version on PYTHONPATH (so nothing here puts this checkout first)


def plan_module():
    """Where this version keeps the head's chunking constants (``linear/plan.py``; older
    versions: ``linear/head.py``)."""
    try:
        from inductor_ce.linear import plan
    except ImportError:
        from inductor_ce.linear import head as plan
    return plan


def data(T, D, V):
    """bench_linear_ce.py's inputs, made here: importing that script would put this checkout
    first on sys.path, ahead of the version under test."""
    g = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(T, D, device="cuda", generator=g, dtype=torch.bfloat16).requires_grad_()
    w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16)
    y = torch.randint(0, V, (T,), device="cuda", generator=g)
    y[::7] = -100
    up = torch.rand(T, device="cuda", generator=g)
    return h, w.requires_grad_(), y, up


def calls(h, w, y, up, budget=None):
    """name -> (the call, whether it is timed against one GEMM rather than three)."""
    def nograd():
        with torch.no_grad():
            inductor_ce.linear_cross_entropy(h, w, y, reduction="none", memory_budget=budget)

    def logp():
        with torch.no_grad():
            inductor_ce.linear_log_probs(h, w, y, temperature=0.7, memory_budget=budget)

    def none():
        inductor_ce.linear_cross_entropy(h, w, y, reduction="none",
                                         memory_budget=budget).backward(up)

    def lse():
        loss, lse_ = inductor_ce.linear_cross_entropy(h, w, y, return_lse=True,
                                                      memory_budget=budget)
        torch.autograd.backward([loss, lse_], [torch.ones_like(loss), up])

    def mean():
        inductor_ce.linear_cross_entropy(h, w, y, memory_budget=budget).backward()

    return dict(nograd=(nograd, True), logp=(logp, True), none=(none, False),
                lse=(lse, False), mean=(mean, False))


def main():
    tag, args = sys.argv[1], sys.argv[2:]
    budget, only = None, None
    while args[0].startswith("--"):
        if args[0] == "--budget-mib":
            budget = int(args[1]) << 20
        elif args[0] == "--calls":     # a comma-separated subset of the calls
            only = args[1].split(",")
        elif args[0] == "--rows-min":   # class chunks below N rows of logits, every call
            plan = plan_module()
            plan.ROWS_MIN = plan.ROWS_MIN_SCALAR = plan.ROWS_MIN_PER_ROW = int(args[1])
        elif args[0] == "--classes-any-d":   # class chunks below 256 rows of logits, any D
            plan_module().CLASSES_MIN_HIDDEN = 0
            args = args[1:]
            continue
        args = args[2:]
    for spec in args:
        T, D, V = (int(v) for v in spec.split("x"))
        h, w, y, up = data(T, D, V)

        def bench(fn):
            return do_bench(fn, warmup=10, rep=150, grad_to_none=[h, w], return_mode="median")
        hd, wd = h.detach(), w.detach()
        dz = torch.randn(T, V, device="cuda", dtype=torch.bfloat16)
        g1 = bench(lambda: hd @ wd.t())
        g3 = g1 + bench(lambda: dz @ wd) + bench(lambda: dz.t() @ hd)
        del dz
        out = []
        for name, (fn, one_gemm) in calls(h, w, y, up, budget).items():
            if only is not None and name not in only:
                continue
            fn()
            torch.cuda.synchronize()
            ms = bench(fn)
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(10):
                fn()
            host = (time.perf_counter() - t0) / 10 * 1e3
            torch.cuda.synchronize()
            out.append(f"{name} {round(ms, 3)}ms {round(ms / (g1 if one_gemm else g3), 3)}x "
                       f"host {round(host, 3)}")
        print(tag, spec, f"1 GEMM {g1:.3f} 3 GEMMs {g3:.3f}", " ".join(out), flush=True)


if __name__ == "__main__":
    main()
