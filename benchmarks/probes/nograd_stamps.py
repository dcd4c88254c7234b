"""Where the host's time goes in one no-gradient fused-head call: host timestamps around
each chunk's GEMM (``chunks.logits``) and ce_fwd in ``_row_statistics``, from the call's
start, for single calls after a synchronization (four with Python's garbage collector on,
four off).

    python benchmarks/probes/nograd_stamps.py 8192x768x50304

Prints per call: ``mm<`` / ``mm>`` (before / after a GEMM's launch), ``ce<`` / ``ce>`` (the
same for ce_fwd) and ``end`` (the call's return), in ms. Then the caching allocator's
retries (a retry would free cached blocks: a synchronization). The ce stamps wrap both the
op (``head._CE_FWD``) and its compiled kernels (``eager.kernels.ce_fwd``): a head calling
the op shows the op's stamps around the kernels' ones; one calling the kernels directly,
theirs alone.
"""
import gc
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from inductor_ce.eager import kernels  # noqa: E402
from inductor_ce.linear import chunks, head  # noqa: E402


def main():
    T, D, V = (int(v) for v in sys.argv[1].split("x"))
    g = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(T, D, device="cuda", generator=g, dtype=torch.bfloat16)
    w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16)
    y = torch.randint(0, V, (T,), device="cuda", generator=g)

    def call():
        with torch.no_grad():
            return inductor_ce.linear_cross_entropy(h, w, y, reduction="none")
    for _ in range(3):
        call()
    stamps = []
    orig_mm, orig_fwd, orig_kernels = chunks.logits, head._CE_FWD, kernels.ce_fwd

    def mm(*a, **k):
        stamps.append(("mm<", time.perf_counter()))
        r = orig_mm(*a, **k)
        stamps.append(("mm>", time.perf_counter()))
        return r

    def stamped(fn):
        def call(*a, **k):
            stamps.append(("ce<", time.perf_counter()))
            r = fn(*a, **k)
            stamps.append(("ce>", time.perf_counter()))
            return r
        return call
    chunks.logits, head._CE_FWD = mm, stamped(orig_fwd)
    kernels.ce_fwd = stamped(orig_kernels)
    for gc_off in (False, True):
        if gc_off:
            gc.disable()
        for _ in range(4):
            torch.cuda.synchronize()
            stamps.clear()
            t0 = time.perf_counter()
            call()
            t1 = time.perf_counter()
            print("gc off" if gc_off else "gc on ",
                  " ".join(f"{n}{(t - t0) * 1e3:.3f}" for n, t in stamps),
                  f"end {(t1 - t0) * 1e3:.3f}")
    gc.enable()
    stats = torch.cuda.memory_stats()
    print(stats["num_alloc_retries"], stats["segment.all.allocated"])


if __name__ == "__main__":
    main()
