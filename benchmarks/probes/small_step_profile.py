"""Where a small eager step's time goes on the GPU: ours against bf16 F.cross_entropy.

    python benchmarks/probes/small_step_profile.py [--shapes 3x128256 64x32000]

Per shape and contender: do_bench of the step as bench_ce.py times it (gradient
accumulating into x.grad), then a torch.profiler trace of 10 steps after warm-up: per step
the GPU kernels (and memcpy/memset) in order with their durations, the GPU's busy time, the
span from the step's first to its last GPU activity, and the host time of the step.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, record_function
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402


def contenders():
    return {"ours/eager": inductor_ce.cross_entropy,
            "stock/eager bf16": F.cross_entropy}


def trace(fn, x, t, steps=10):
    for _ in range(30):
        fn(x, t).backward()
    torch.cuda.synchronize()
    host = []
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for i in range(steps):
            with record_function(f"step{i}"):
                t0 = time.perf_counter()
                fn(x, t).backward()
                host.append((time.perf_counter() - t0) * 1e6)
            torch.cuda.synchronize()
    events = prof.events()
    marks = sorted((e for e in events if e.name.startswith("step")),
                   key=lambda e: e.time_range.start)
    gpu = sorted((e for e in events if e.device_type == torch.autograd.DeviceType.CUDA),
                 key=lambda e: e.time_range.start)
    return marks, gpu, host, prof


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shapes", nargs="*", default=["3x128256", "64x32000"])
    args = p.parse_args()
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    for shape in args.shapes:
        rows, classes = map(int, shape.split("x"))
        torch.manual_seed(0)
        t = torch.randint(0, classes, (rows,), device="cuda")
        base = (torch.randn(rows, classes, device="cuda") * 2).bfloat16()
        for name, fn in contenders().items():
            x = base.clone().requires_grad_()
            ms = do_bench(lambda: fn(x, t).backward(), warmup=25, rep=200)
            marks, gpu, host, prof = trace(fn, x, t)
            print(f"\n== {shape} {name}: do_bench {ms * 1e3:.1f} us; host per step "
                  f"median {sorted(host)[len(host) // 2]:.1f} us")
            # GPU activity per step: kernels launched inside a step's CPU range are matched
            # by correlation to their launches; simpler, and enough here, is the GPU events
            # between this step's mark and the next one's start (the steps synchronize).
            for i, m in enumerate(marks[-3:]):
                lo = m.time_range.start
                nxt = [n.time_range.start for n in marks if n.time_range.start > lo]
                hi = nxt[0] if nxt else float("inf")
                ks = [e for e in gpu if lo <= e.time_range.start < hi]
                busy = sum(e.time_range.elapsed_us() for e in ks)
                span = (ks[-1].time_range.end - ks[0].time_range.start) if ks else 0
                print(f"  step: {len(ks)} GPU events, busy {busy:.1f} us, span {span:.1f} us")
                for e in ks:
                    print(f"    +{e.time_range.start - lo:8.1f} {e.time_range.elapsed_us():6.1f}"
                          f"  {e.name[:90]}")
            print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=14,
                                            max_name_column_width=60))


if __name__ == "__main__":
    main()
