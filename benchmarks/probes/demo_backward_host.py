"""Where the main job's backward spends host time, stock torch.compile against enable().

    python benchmarks/probes/demo_backward_host.py [--top 14]

The demo's "cuda" preset model on random tokens (as demo_phases.py), compiled once per
contender; after a warm-up, one backward under torch.profiler (CPU and CUDA activity): the
host's wall time of the backward, the number of kernel launches (cudaLaunchKernel,
cuLaunchKernel(Ex)), the CUDA calls that may wait or allocate, and the CPU events by self
time, per contender.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from inductor_ce.demo import gpt  # noqa: E402
from _demo_model import CONTENDERS, compiled, model_and_batch  # noqa: E402

# CUDA runtime and driver calls that may wait for the GPU or allocate.
WAITS = ("cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
         "cudaMalloc", "cudaFree", "cudaMemcpy", "cudaMemcpyAsync", "cudaHostAlloc",
         "cudaStreamWaitEvent", "cuMemAlloc_v2", "cuMemFree_v2")
LAUNCHES = ("cudaLaunchKernel", "cuLaunchKernel", "cuLaunchKernelEx", "cudaLaunchKernelExC",
            "cudaGraphLaunch")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--top", type=int, default=14)
    args = p.parse_args()
    _, base, idx, labels = model_and_batch()
    num_items = (labels[..., 1:] != gpt.IGNORE_INDEX).sum()
    for name, routed in CONTENDERS:
        model = compiled(base, routed)
        for _ in range(4):
            with torch.autocast("cuda", dtype=torch.bfloat16):
                model(idx, labels, num_items).backward()
        model.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(idx, labels, num_items)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            t0 = time.perf_counter()
            loss.backward()
            host = time.perf_counter() - t0
            torch.cuda.synchronize()
        events = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CPU]
        launches = sum(1 for e in events if e.name in LAUNCHES)
        selfs = Counter()
        calls = Counter()
        for e in events:
            selfs[e.name] += e.self_cpu_time_total
            calls[e.name] += 1
        print(f"{name}: backward host {1e3 * host:.2f} ms (profiled), {launches} launches, "
              f"{len(events)} CPU events")
        waits = [(n, calls[n], selfs[n]) for n in WAITS if calls[n]]
        print("    waits and allocations: " + (", ".join(
            f"{n} x{c} {us / 1e3:.3f} ms" for n, c, us in waits) or "none"))
        for n, us in selfs.most_common(args.top):
            print(f"    {us / 1e3:8.3f} ms self  {calls[n]:5d} x  {n[:90]}")
        inductor_ce.disable()


if __name__ == "__main__":
    main()
