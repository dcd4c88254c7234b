"""The main job's step, stock torch.compile against enable(), the two taking turns.

    python benchmarks/probes/demo_turns.py [--device cuda] [--rounds 15] [--steps 10]

The demo trains its two models one after the other, so a drift of the machine (clocks, a
neighbour, the power cap) between the runs reads as a difference of the code. Here both
compiled models live at once and take turns: rounds of ``--steps`` training steps each,
who goes first rotating from round to round (``--unfused`` adds a third contender, the loss
routed with the logits kept). The step is the demo's
(``gpt.train_steps``: bf16 autocast on CUDA, gradient clipping, fused AdamW, one
``loss.item()``), on the demo's preset model and batch shape; the tokens are random, with
the labels after a random end of file in a seventh of the rows set to -100, as the demo's
windows pad. Printed: each contender's median step and 10th percentile over every timed
step, the median over rounds of ours / stock (each round's median steps), and on CUDA the
peak memory above what is allocated when the contender's round starts.

Each model's compiled frame is its own code object (a copy of ``GPT.forward``), so Dynamo
cannot serve one contender's graph to the other; the script checks what enable() routed in
each contender's compile (nothing for stock; the loss, and for ours the LM head fused) and
raises on any recompile once all are compiled.
"""
from __future__ import annotations

import argparse
import copy
import os
import statistics
import sys
import time
import types
from collections import Counter

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from inductor_ce.demo import gpt  # noqa: E402
from inductor_ce.demo import job as demo  # noqa: E402
from inductor_ce.integrations import routing  # noqa: E402


class Contender:
    """One compiled copy of the model with its optimizer: ``step()`` runs one training step
    and returns its wall time (synchronized on CUDA)."""

    def __init__(self, name: str, base, routed: bool, amp: bool, lr: float, first,
                 fuse: bool = True):
        self.name, self.amp, self.times, self.peaks = name, amp, [], []
        model = copy.deepcopy(base)
        forward = type(model).forward
        code = forward.__code__.replace(co_name=f"forward_{name.replace(' ', '_')}")
        model.forward = types.MethodType(types.FunctionType(
            code, forward.__globals__, code.co_name, forward.__defaults__,
            forward.__closure__), model)
        if routed:
            inductor_ce.enable(fuse_linear=fuse)
        else:
            inductor_ce.disable()
        before = Counter(routing.counters)
        try:
            self.model = torch.compile(model)
            self.device = next(model.parameters()).device
            params = [p for p in model.parameters() if p.requires_grad]
            self.params = params
            self.opt = torch.optim.AdamW(params, lr=lr, betas=(0.9, 0.95),
                                         fused=self.device.type == "cuda")
            self.step(*first)                             # compiles, routing as asked
        finally:
            inductor_ce.disable()
        made = Counter(routing.counters)
        made.subtract(before)
        # (The compiled graphs that call our ops, also when loaded from Inductor's cache,
        # where the routing pass does not run again.)
        self.routed = sum(n for k, n in made.items() if k.startswith("graph: "))
        self.fused = sum(n for k, n in made.items() if k.startswith("graph: linear_"))

    def step(self, idx, labels) -> float:
        cuda = self.device.type == "cuda"
        num_items = (labels[..., 1:] != gpt.IGNORE_INDEX).sum()
        if cuda:
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        with torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.amp):
            loss = self.model(idx, labels, num_items)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.params, 1.0)
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)
        loss.item()
        if cuda:
            torch.cuda.synchronize()
        return time.perf_counter() - t0


def make_batches(preset, device: str, n: int):
    """``n`` batches of random tokens; a seventh of the rows end early (labels -100 after a
    random position), as the demo's windows pad after an end of file."""
    g = torch.Generator().manual_seed(0)
    out = []
    for _ in range(n):
        idx = torch.randint(0, preset.vocab, (preset.batch, preset.block), generator=g)
        labels = idx.clone()
        for row in range(0, preset.batch, 7):
            cut = int(torch.randint(1, preset.block, (1,), generator=g))
            labels[row, cut:] = gpt.IGNORE_INDEX
        out.append((idx.to(device), labels.to(device)))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", choices=("cpu", "cuda"), default="cuda")
    p.add_argument("--preset", default=None, help="the demo's preset (default: the device's)")
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--steps", type=int, default=10, help="steps per contender and round")
    p.add_argument("--unfused", action="store_true",
                   help="a third contender: enable(fuse_linear=False) (the loss routed, the "
                        "logits kept)")
    args = p.parse_args()
    preset = demo.PRESETS[args.preset or args.device]
    cuda = args.device == "cuda"
    torch.manual_seed(0)
    base = gpt.GPT(demo.model_config(preset)).to(args.device)
    batches = make_batches(preset, args.device, 8)
    plan = [("stock", False, True), ("ours", True, True)]
    if args.unfused:
        plan.append(("ours unfused", True, False))
    contenders = [Contender(name, base, routed, cuda, preset.lr, batches[0], fuse)
                  for name, routed, fuse in plan]
    torch._dynamo.config.error_on_recompile = True       # each serves its own graph from now
    for c, (_, routed, fuse) in zip(contenders, plan):
        if (c.routed > 0, c.fused > 0) != (routed, routed and fuse):
            sys.exit(f"{c.name}'s graphs call inductor_ce's ops {c.routed} times, its fused "
                     f"head {c.fused} times")
    for c in contenders:                                  # warm-up, not timed
        for s in range(3):
            c.step(*batches[s % len(batches)])
    ratios = {c.name: [] for c in contenders[1:]}
    for r in range(args.rounds):
        order = contenders[r % len(contenders):] + contenders[:r % len(contenders)]
        medians = {}
        for c in order:
            if cuda:
                torch.cuda.reset_peak_memory_stats()
                start = torch.cuda.memory_allocated()
            times = [c.step(*batches[(r * args.steps + s) % len(batches)])
                     for s in range(args.steps)]
            if cuda:
                c.peaks.append(torch.cuda.max_memory_allocated() - start)
            c.times += times
            medians[c.name] = statistics.median(times)
        for name in ratios:
            ratios[name].append(medians[name] / medians["stock"])
    dev = torch.cuda.get_device_name() if cuda else f"{torch.get_num_threads()} CPU threads"
    print(f"{dev}, torch {torch.__version__}; demo preset {args.preset or args.device}: "
          f"{preset.batch} x {preset.block} tokens, V {preset.vocab}, {preset.layers} x "
          f"{preset.width}; {args.rounds} rounds of {args.steps} steps each, taking turns")
    for c in contenders:
        ts = sorted(c.times)
        peak = f", peak above resident {max(c.peaks) / 2**30:.2f} GiB" if c.peaks else ""
        print(f"{c.name:>12}: median {1e3 * statistics.median(ts):7.2f} ms per step, 10th "
              f"percentile {1e3 * ts[len(ts) // 10]:7.2f}{peak}")
    for name, rs in ratios.items():
        rs.sort()
        print(f"{name} / stock, median over rounds {statistics.median(rs):.3f} (rounds "
              f"{rs[0]:.3f} to {rs[-1]:.3f})")


if __name__ == "__main__":
    main()
