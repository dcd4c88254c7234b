"""Where a step of the main job's GPU model goes, stock torch.compile against enable().

    python benchmarks/probes/demo_profile.py [--steps 3]

The demo's "cuda" preset model (GPT, 12 x 768, V 32768, 8 x 1024 tokens, bf16 autocast,
fused AdamW) on random tokens: per contender, the wall time of a step (median of 20 after a
warm-up), then one profiled step: CUDA time in total and the kernels by total time.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import traceback

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from _demo_model import CONTENDERS, compiled, model_and_batch  # noqa: E402
from inductor_ce.demo import gpt  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--top", type=int, default=18)
    p.add_argument("--only", choices=("stock", "ours"), default=None)
    p.add_argument("--trace", default=None, help="write the profiled steps' Chrome trace "
                   "(gzipped) to this path")
    args = p.parse_args()
    _, base, idx, labels = model_and_batch()
    labels[:, :16] = gpt.IGNORE_INDEX
    num_items = (labels[..., 1:] != gpt.IGNORE_INDEX).sum()
    for name, routed in CONTENDERS:
        if args.only not in (None, name):
            continue
        model = compiled(base, routed)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)

        def step():
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(idx, labels, num_items)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            return loss

        for _ in range(5):
            step()
        times = []
        for _ in range(20):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            step()
            torch.cuda.synchronize()
            times.append(time.perf_counter() - t0)
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for _ in range(2 if args.trace else 1):
                step()
            torch.cuda.synchronize()
        if args.trace:
            import gzip
            raw = args.trace + ".json"
            prof.export_chrome_trace(raw)
            with open(raw, "rb") as f, gzip.open(args.trace, "wb") as g:
                g.write(f.read())
            os.remove(raw)
        events = prof.key_averages()
        cuda_total = sum(e.self_device_time_total for e in events) / 1e3
        print(f"\n== {name}: step {statistics.median(times) * 1e3:.2f} ms (median of 20), "
              f"CUDA time of one profiled step {cuda_total:.2f} ms")
        print(events.table(sort_by="self_device_time_total", row_limit=args.top,
                           max_name_column_width=70))
        print(events.table(sort_by="self_cpu_time_total", row_limit=args.top,
                           max_name_column_width=70))
        # Does the step make the host wait for the GPU? The first synchronizing call raises.
        torch.cuda.synchronize()
        torch.cuda.set_sync_debug_mode("error")
        try:
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(idx, labels, num_items)
            loss.backward()
            print(f"{name}: no synchronizing call in forward + backward")
        except RuntimeError:
            print(f"{name}: a synchronizing call in forward + backward:")
            traceback.print_exc(limit=-12, file=sys.stdout)
        finally:
            torch.cuda.set_sync_debug_mode("default")
            opt.zero_grad(set_to_none=True)
        inductor_ce.disable()


if __name__ == "__main__":
    main()
