"""Where a few-rows eager step's host time goes, on CUDA with the loss's CUDA graphs: our
step against bf16 F.cross_entropy's and against floors in one process, steps taking turns,
then the host time of each piece of our step alone.

    python benchmarks/probes/step_floor.py [256 128256]

Contenders: "ours" (``inductor_ce.cross_entropy``), "ours-unkept" (``eager_loss.cross_entropy``
without a signature: every call checked and looked up), "ours-_Loss.apply" (the
``autograd.Function`` alone), "ours-gc-off" (Python's collector off around the step), stock.
Floors: "graphs-only" is a bare ``autograd.Function`` replaying our two captured graphs (the
forward's views of its graph's output buffer, the backward's gradient allocation: what our
step cannot avoid with graphs), "graphs-only-C-apply" the same without ``Function.apply``'s
Python wrapper; "no-work" the same Function doing no GPU work (a 0-dim allocation forward, a
kept gradient backward): autograd's own cost of a Python node; "both-in-forward" replays
both graphs in the forward and scales the gradient in place in the backward. (The floors'
numbers are only timings: their backward replays into the address it was captured with.)
"graph.replay" alone is bound by the GPU (the forward's kernels take ~30 us); the
small-kernel graphs show a replay's host cost.
"""
from __future__ import annotations

import gc
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from bench_ce import benchmark_data, interleaved_host  # noqa: E402

import inductor_ce  # noqa: E402
from inductor_ce.op import checks as _checks  # noqa: E402
from inductor_ce.eager import kernels as eager  # noqa: E402
from inductor_ce.eager import loss as eager_loss  # noqa: E402


def loop_us(fn, n=3000):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        rounds.append((time.perf_counter() - start) / n * 1e6)
    torch.cuda.synchronize()
    return statistics.median(rounds)


def main():
    rows, vocab = (int(a) for a in sys.argv[1:3]) if len(sys.argv) > 2 else (256, 128256)
    x, t = benchmark_data(rows, vocab)
    names = ("ours", "stock", "graphs-only", "no-work", "ours-unkept",
             "ours-_Loss.apply", "graphs-only-C-apply", "ours-gc-off", "both-in-forward")
    xs = {n: x.clone().requires_grad_() for n in names}
    for _ in range(6):
        inductor_ce.cross_entropy(xs["ours"], t).backward()
        xs["ours"].grad = None
    replays = list(eager_loss._REPLAYS.values())
    fwd = next(r for r in replays if r.copies and r.graphs)
    bwd = next(r for r in replays if not r.copies and r.graphs)
    # (a forward graph and how its outputs sit in the call's buffer, graphs.py)
    (fkey, _), fg = next(iter(fwd.graphs.items()))
    bg = next(iter(bwd.graphs.values()))
    packing = fwd.seen[fkey]

    def forward_replay():
        flat = packing.empty(x.device)   # (the graph writes where it was captured: timing only)
        fg.replay()
        return packing.outputs(flat)
    kept = torch.empty_like(x)

    class GraphsOnly(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            out = forward_replay()
            ctx.save_for_backward(*out[1:])
            return out[0]

        @staticmethod
        def backward(ctx, g):
            grad = torch.empty(x.shape, dtype=x.dtype, device=x.device)
            bg.replay()
            return grad

    class NoWork(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return torch.empty((), device=x.device)

        @staticmethod
        def backward(ctx, g):
            return kept

    class BothInForward(torch.autograd.Function):
        # the backward's graph replayed in the forward, the backward a scale in place
        @staticmethod
        def forward(ctx, x):
            out = forward_replay()
            grad = torch.empty(x.shape, dtype=x.dtype, device=x.device)
            bg.replay()
            ctx.grad = grad
            return out[0]

        @staticmethod
        def backward(ctx, g):
            grad = ctx.grad
            del ctx.grad
            return grad.mul_(g)

    class GraphsOnlyC(GraphsOnly):
        pass

    c_apply = torch._C._FunctionBase.__dict__["apply"].__get__(None, GraphsOnlyC)
    key = next(k for k in eager._CACHE if isinstance(k, eager_loss.LossKey))
    entry = eager._CACHE[key][0]
    plan = eager_loss._PLANS[entry]
    steps = {
        "ours": lambda: inductor_ce.cross_entropy(xs["ours"], t).backward(),
        "ours-unkept": lambda: eager_loss.cross_entropy(
            xs["ours-unkept"], t, None, -100, "mean", 0.0, 0.0, None,
            False).backward(),
        "ours-_Loss.apply": lambda: eager_loss._apply_loss(xs["ours-_Loss.apply"], t, None,
                                                           None, plan, True).backward(),
        "both-in-forward": lambda: BothInForward.apply(xs["both-in-forward"]).backward(),
        "graphs-only-C-apply": lambda: c_apply(xs["graphs-only-C-apply"]).backward(),
        "stock": lambda: F.cross_entropy(xs["stock"], t).backward(),
        "graphs-only": lambda: GraphsOnly.apply(xs["graphs-only"]).backward(),
        "no-work": lambda: NoWork.apply(xs["no-work"]).backward(),
    }
    def gc_off():
        gc.disable()
        inductor_ce.cross_entropy(xs["ours-gc-off"], t).backward()
        gc.enable()

    steps["ours-gc-off"] = gc_off
    for n in names:
        for _ in range(20):
            steps[n]()
            xs[n].grad = None
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    per_step = interleaved_host(steps, xs, 3000)
    stock = statistics.median(per_step["stock"])
    print(f"{rows}x{vocab} bf16, torch {torch.__version__}: host us per step, 3000 steps "
          "taking turns (median; ratio to stock)")
    for n in names:
        m = statistics.median(per_step[n])
        print(f"  {n:12s} {m:7.1f}  {m / stock:.2f}x")

    xo = xs["ours"]
    spec = eager_loss.LossSpec(-100, "mean", 0.0, 0.0, None, False, vocab)
    loss = inductor_ce.cross_entropy(xo, t)

    def fwd_only():
        inductor_ce.cross_entropy(xo, t)

    def bwd_of_fresh():
        inductor_ce.cross_entropy(xo, t).backward()
        xo.grad = None

    def no_grad():
        with torch.no_grad():
            pass

    pieces = {
        "step (forward + backward + grad=None)": bwd_of_fresh,
        "forward alone (loss dropped)": fwd_only,
        "check_options + check_tensors": lambda: (
            _checks.check_options(-100, "mean", 0.0, 0.0, None, False),
            _checks.check_tensors(xo, t, None)),
        "eager.compiled_path_applies": lambda: eager.compiled_path_applies(xo, t, None),
        "eager.merged_rows": lambda: eager.merged_rows(xo),
        "LossSpec(...)": lambda: eager_loss.LossSpec(-100, "mean", 0.0, 0.0, None, False, vocab),
        "LossKey + compiled_function lookup": lambda: eager.compiled_function(
            eager_loss.LossKey(xo.device, xo.dtype, eager.DENSE_2D, t.dtype, None, spec, True,
                               True), None, xo),
        "entry.accepts": lambda: entry.accepts(xo),
        "Replays call, forward (replay, views)": lambda: fwd(xo, t, None),
        "graph.replay (forward)": fg.replay,
        "the outputs' buffer (torch.empty)": lambda: packing.empty(x.device),
        "torch.empty of the gradient": lambda: torch.empty(x.shape, dtype=x.dtype,
                                                           device=x.device),
        "torch.ones_like(loss)": lambda: torch.ones_like(loss),
        "is_grad_enabled + requires_grad": lambda: (torch.is_grad_enabled(), xo.requires_grad),
        "data_ptr x3": lambda: (xo.data_ptr(), t.data_ptr(), kept.data_ptr()),
        "no-work step": lambda: (NoWork.apply(xs["no-work"]).backward(),
                                 setattr(xs["no-work"], "grad", None)),
        "no-work forward alone": lambda: NoWork.apply(xs["no-work"]),
        "no_grad enter/exit": no_grad,
        "graphs-only forward alone": lambda: GraphsOnly.apply(xs["graphs-only"]),
        "graphs-only forward alone, C apply": lambda: c_apply(xs["graphs-only"]),
        "_Loss.apply forward alone": lambda: eager_loss._apply_loss(xo, t, None, None, plan, True),
        "x.new_empty(x.shape)": lambda: x.new_empty(x.shape),
        "torch.empty_like(x)": lambda: torch.empty_like(x),
        "gc.collect(0)": lambda: gc.collect(0),
        "stock forward alone": lambda: F.cross_entropy(xs["stock"], t),
    }
    small = torch.zeros(16, device="cuda")
    for k in (1, 3, 6, 12):
        g = torch.cuda.CUDAGraph()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            small.add_(1)
            g.capture_begin()
            for _ in range(k):
                small.add_(1)
            g.capture_end()
        torch.cuda.current_stream().wait_stream(side)
        pieces[f"replay of a graph of {k} small kernels"] = g.replay
    pieces["small add_"] = lambda: small.add_(1)
    print("host us per call, each piece alone (median of 5 rounds of 3000):")
    for name, fn in pieces.items():
        print(f"  {loop_us(fn):7.2f}  {name}")


if __name__ == "__main__":
    main()
