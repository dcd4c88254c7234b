"""Where a budgeted fused head's step goes on the GPU: for each shape and budget, the mean
loss's step (forward + backward) as do_bench sees it, the sum of its kernels' times under the
profiler (their ratio says whether the host or the GPU binds), and the five kernels that
take longest; then the row chunk's input-gradient GEMM dz (R x V) @ W (V x D) at the chunk
sizes the budgets give, against the rate of one N x D x V GEMM, plainly and split over the
classes (bmm of S slices, float32, summed).

    python benchmarks/probes/lean_parts.py 8192x768x50304 4096x2048x151936
    python benchmarks/probes/lean_parts.py --host 8192x768x50304 64   # CPU ops, 64 MiB

(bf16 h of randn, W of randn * 0.02, uniform targets, every 7th ignored.)
"""
import cProfile
import os
import pstats
import sys
import time
import traceback
import warnings
from collections import defaultdict

import torch
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from inductor_ce.linear import head  # noqa: E402

MiB = 1 << 20


def ms(fn):
    return do_bench(fn, warmup=10, rep=100, return_mode="median")


def data(T, D, V):
    g = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(T, D, device="cuda", generator=g, dtype=torch.bfloat16).requires_grad_()
    w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16).requires_grad_()
    y = torch.randint(0, V, (T,), device="cuda", generator=g)
    y[::7] = -100
    return h, w, y


def kernels(fn):
    """CUDA kernel time per step (ms) by kernel name, over 5 steps."""
    fn()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(5):
            fn()
        torch.cuda.synchronize()
    by = defaultdict(float)
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            by[e.name] += e.device_time_total / 1e3 / 5
    return by


def steps(T, D, V):
    h, w, y = data(T, D, V)
    gemms = ms(lambda: h.detach() @ w.detach().t())
    print(f"\n## {T} x {D} x {V}: one GEMM {gemms:.3f} ms")
    for label, budget in (("default", None), ("256 MiB", 256 * MiB), ("128 MiB", 128 * MiB),
                          ("64 MiB", 64 * MiB)):
        def step():
            h.grad = w.grad = None
            inductor_ce.linear_cross_entropy(h, w, y, memory_budget=budget).backward()
        wall = ms(step)
        by = kernels(step)
        busy = sum(by.values())
        rows = head.chunk_rows(T, V, D, 2, budget or 0)
        cls = head.by_classes(V, 2, budget or 0)
        print(f"{label:8s} {'classes' if cls else f'rows {rows}':12s} step {wall:.3f} ms "
              f"({wall / gemms / 3:.3f}x 3 GEMMs), kernels {busy:.3f} ms "
              f"({busy / wall:.2f} of the step)")
        for name, t in sorted(by.items(), key=lambda kv: -kv[1])[:5]:
            print(f"    {t:7.3f} ms  {name[:110]}")


def dh_gemm(T, D, V):
    h, w, _ = data(T, D, V)
    w = w.detach()
    full = ms(lambda: torch.mm(torch.empty(T, V, device="cuda", dtype=torch.bfloat16), w))
    print(f"\n## dz @ W at {T} x {D} x {V}: all rows {full:.3f} ms; x that rate per row:")
    for R in (4096, 2048, 1171, 667, 256):
        if R > T:
            continue
        z = torch.randn(R, V, device="cuda", dtype=torch.bfloat16)
        plain = ms(lambda: torch.mm(z, w))
        line = f"R {R:5d}: mm {plain / (full * R / T):.2f}x"
        line += f", W^T z^T {ms(lambda: torch.mm(w.t(), z.t())) / (full * R / T):.2f}x"
        for S in (2, 4, 8, 16):
            if V % S:
                continue
            a = z.view(R, S, V // S).transpose(0, 1)
            b = w.view(S, V // S, D)
            try:
                t = ms(lambda: torch.bmm(a, b, out_dtype=torch.float32).sum(0))
            except RuntimeError:   # an older torch: no bmm with out_dtype
                t = ms(lambda: torch.bmm(a, b).sum(0, dtype=torch.float32))
            line += f", split {S} {t / (full * R / T):.2f}x"
        print(line)


def host(T, D, V, budget):
    """The step's host side at one budget: CPU ops by their own time over 5 steps."""
    h, w, y = data(T, D, V)

    def step():
        h.grad = w.grad = None
        inductor_ce.linear_cross_entropy(h, w, y, memory_budget=budget).backward()
    step()
    torch.cuda.synchronize()
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts) as prof:
        for _ in range(5):
            step()
        torch.cuda.synchronize()
    print(f"\n## host at {T} x {D} x {V}, budget {budget >> 20} MiB, 5 steps")
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=30,
                                    max_name_column_width=60))
    # Host time to the step's last launch, and to its end, one step at a time after a sync.
    enq, tot = [], []
    for _ in range(20):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        step()
        enq.append(time.perf_counter() - t0)
        torch.cuda.synchronize()
        tot.append(time.perf_counter() - t0)
    print(f"host to last launch {1e3 * sorted(enq)[10]:.3f} ms, to the end "
          f"{1e3 * sorted(tot)[10]:.3f} ms (medians of 20)")
    torch.cuda.set_sync_debug_mode("warn")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        step()
    torch.cuda.set_sync_debug_mode(0)
    print(f"synchronizing calls in one step: {len(caught)}")
    if caught:   # where the first one is
        torch.cuda.set_sync_debug_mode("error")
        try:
            step()
        except RuntimeError:
            traceback.print_exc(limit=-6)
        torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(5):
        step()
    torch.cuda.synchronize()
    pr.disable()
    pstats.Stats(pr).sort_stats("tottime").print_stats(25)


def main():
    if sys.argv[1] == "--host":
        T, D, V = (int(v) for v in sys.argv[2].split("x"))
        return host(T, D, V, int(sys.argv[3]) << 20)
    shapes = [tuple(int(v) for v in s.split("x")) for s in sys.argv[1:]]
    for s in shapes:
        steps(*s)
    for s in shapes:
        dh_gemm(*s)


if __name__ == "__main__":
    main()
