"""Two versions of the package side by side on the fused head's calls: the one on PYTHONPATH
(``git archive <commit> inductor_ce | tar -x -C old/``, then ``PYTHONPATH=old``) and the
working tree, run in turns so that a drift of the GPU's clocks hits both alike.

    PYTHONPATH=old python benchmarks/probes/linear_ab.py old 8192x768x50304 ...
    python benchmarks/probes/linear_ab.py new 8192x768x50304 ...

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

import inductor_ce

tag = sys.argv[1]
for spec in sys.argv[2:]:
    T, D, V = (int(v) for v in spec.split("x"))
    g = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(T, D, device="cuda", generator=g, dtype=torch.bfloat16).requires_grad_()
    w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16).requires_grad_()
    y = torch.randint(0, V, (T,), device="cuda", generator=g); y[::7] = -100
    up = torch.rand(T, device="cuda", generator=g)
    def b(fn):
        return do_bench(fn, warmup=10, rep=150, grad_to_none=[h, w], return_mode="median")
    hd, wd = h.detach(), w.detach()
    dz = torch.randn(T, V, device="cuda", dtype=torch.bfloat16)
    g1 = b(lambda: hd @ wd.t())
    g3 = g1 + b(lambda: dz @ wd) + b(lambda: dz.t() @ hd)
    del dz
    def nograd(**kw):
        def f():
            with torch.no_grad():
                inductor_ce.linear_cross_entropy(h, w, y, reduction="none", **kw)
        return f
    def logp():
        with torch.no_grad():
            inductor_ce.linear_log_probs(h, w, y, temperature=0.7)
    def none():
        inductor_ce.linear_cross_entropy(h, w, y, reduction="none").backward(up)
    def lse():
        l, s = inductor_ce.linear_cross_entropy(h, w, y, return_lse=True)
        torch.autograd.backward([l, s], [torch.ones_like(l), up])
    def mean():
        inductor_ce.linear_cross_entropy(h, w, y).backward()
    r = {}
    for name, fn, base in (("nograd", nograd(), g1), ("logp", logp, g1), ("none", none, g3),
                           ("lse", lse, g3), ("mean", mean, g3)):
        fn(); torch.cuda.synchronize()
        ms = b(fn)
        torch.cuda.synchronize(); t0 = time.perf_counter()
        for _ in range(10): fn()
        host = (time.perf_counter() - t0) / 10 * 1e3
        torch.cuda.synchronize()
        r[name] = (round(ms, 3), round(ms / base, 3), round(host, 3))
    print(tag, spec, f"1 GEMM {g1:.3f} 3 GEMMs {g3:.3f}", " ".join(f"{k} {v[0]}ms {v[1]}x host {v[2]}" for k, v in r.items()), flush=True)
