"""The main job's GPU step by phase, stock against enable(): host (enqueue) and GPU time.

    python benchmarks/probes/demo_phases.py            # INDUCTOR_CE_EAGER=decomposition too

The demo's "cuda" preset model on random tokens (as demo_profile.py). Per contender, medians
of 20 steps: forward and backward each timed twice, once until the host returns (what it
costs the host to enqueue the phase) and once until the GPU is done (synchronized before and
after). Then the fused op alone at the step's shape (h bf16[8184, 768], W bf16[32768, 768]):
host time per call against its GPU time.
"""
from __future__ import annotations

import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from _demo_model import CONTENDERS, compiled, model_and_batch  # noqa: E402
from inductor_ce.demo import gpt  # noqa: E402


def med(xs):
    return 1e3 * statistics.median(xs)


def main():
    _, base, idx, labels = model_and_batch()
    num_items = (labels[..., 1:] != gpt.IGNORE_INDEX).sum()
    print(f"INDUCTOR_CE_EAGER={os.environ.get('INDUCTOR_CE_EAGER', 'auto')}")
    for name, routed in CONTENDERS:
        model = compiled(base, routed)
        for _ in range(4):
            with torch.autocast("cuda", dtype=torch.bfloat16):
                model(idx, labels, num_items).backward()
        f_host, f_all, b_host, b_all = [], [], [], []
        for _ in range(20):
            model.zero_grad(set_to_none=True)
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(idx, labels, num_items)
            t1 = time.perf_counter()
            torch.cuda.synchronize()
            t2 = time.perf_counter()
            loss.backward()
            t3 = time.perf_counter()
            torch.cuda.synchronize()
            t4 = time.perf_counter()
            f_host.append(t1 - t0), f_all.append(t2 - t0)
            b_host.append(t3 - t2), b_all.append(t4 - t2)
        print(f"{name:>5}: forward host {med(f_host):6.2f} ms, until done {med(f_all):6.2f}; "
              f"backward host {med(b_host):6.2f}, until done {med(b_all):6.2f}")
        inductor_ce.disable()
    h = torch.randn(8184, 768, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    w = (torch.randn(32768, 768, device="cuda") * 0.02).to(torch.bfloat16).requires_grad_()
    y = torch.randint(0, 32768, (8184,), device="cuda")
    op = torch.ops.inductor_ce.linear_ce_fast

    def call():
        return op(h, w, None, y, None, -100, None, 0.0, 0.0, False, 0)
    for _ in range(5):
        call()
    torch.cuda.synchronize()
    hosts, gpus = [], []
    for _ in range(20):
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t0 = time.perf_counter()
        start.record()
        call()
        end.record()
        hosts.append(time.perf_counter() - t0)
        torch.cuda.synchronize()
        gpus.append(start.elapsed_time(end) / 1e3)
    print(f"linear_ce_fast alone (8184 x 768 x 32768): host {med(hosts):.2f} ms per call, "
          f"start to end on the GPU {med(gpus):.2f} ms")


if __name__ == "__main__":
    main()
