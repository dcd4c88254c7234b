"""Vocabulary-parallel cross-entropy on several GPUs over NCCL: correctness, time, memory.

    torchrun --nproc_per_node 2 benchmarks/bench_parallel.py [--rows 16384 --vocab 128256]

1. Correctness (NCCL, eager and compiled): every option and the collapse margin grid, each
   rank's loss and gradient shard against a float64 reference of the full logits.
2. Time (medians measured as do_bench does, see ``bench``) and peak memory of a compiled
   forward+backward at T x V bf16 with
   V/world classes per rank: inductor_ce.parallel.vocab_parallel_cross_entropy against stock
   DTensor `loss_parallel()` (eager, and compiled where it compiles), with the per-rank floor
   3 * T * (V / world) * 2 bytes over the copy bandwidth measured on each rank.
Results: benchmarks/results/<gpu>x<world>-torch<ver>-parallel.{json,md} (written by rank 0).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import torch
import torch.distributed as dist
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from _reference import collapse_safe_reference, reference, ulps_error  # noqa: E402
from bench_ce import copy_bandwidth  # noqa: E402
from inductor_ce.parallel import vocab_parallel_cross_entropy  # noqa: E402

OPTIONS = {
    "plain": dict(),
    "sum, ignore_index=3": dict(reduction="sum", ignore_index=3),
    "weight, smoothing": dict(weight=True, label_smoothing=0.1),
    "z_loss, softcap": dict(z_loss=1e-4, softcap=30.0),
    "everything, none": dict(weight=True, ignore_index=3, label_smoothing=0.1, z_loss=1e-4,
                             softcap=30.0, reduction="none"),
}


def log(*a):
    if dist.get_rank() == 0:
        print(*a, flush=True)


def shard(x, rank, world):
    v = x.shape[-1] // world
    return x[..., rank * v:(rank + 1) * v]


def check_options(rank, world, compiled, rows=512, vocab=32000):
    out = []
    gen = torch.Generator(device="cuda").manual_seed(0)
    full = (torch.randn(rows, vocab, device="cuda", generator=gen) * 2).to(torch.bfloat16)
    t0 = torch.randint(0, vocab, (rows,), device="cuda", generator=gen)
    w = torch.rand(vocab, device="cuda", generator=gen) + 0.5
    for name, spec in OPTIONS.items():
        opts = dict(spec)
        weight = w if opts.pop("weight", False) else None
        t = torch.where(torch.arange(rows, device="cuda") % 7 == 0,
                        opts.get("ignore_index", -100), t0)
        fn = lambda x, t: vocab_parallel_cross_entropy(x, t, weight=weight, **opts)  # noqa
        if compiled:
            torch._dynamo.reset()
            fn = torch.compile(fn, fullgraph=True)
        x = shard(full, rank, world).clone().requires_grad_()
        loss = fn(x, t)
        g = torch.randn_like(loss) if loss.dim() else torch.ones_like(loss)
        (loss * g).sum().backward()
        xr = full.double().requires_grad_()
        ref = reference(xr, t, weight=weight, **opts)
        (ref * g.double()).sum().backward()
        loss_err = ((loss.double() - ref).abs().max() / ref.abs().max()).item()
        gref = shard(xr.grad, rank, world)
        ulps = ulps_error(x.grad, gref)
        out.append(dict(check=name, compiled=compiled, loss_rel_err=loss_err, grad_ulps=ulps,
                        ok=loss_err < 1e-5 and ulps <= 0.5))
    return out


def check_margins(rank, world, compiled, vocab=32000):
    """fp32 logits, target = max of the others + margin: loss, target gradient and gradient
    row within 1e-5 relative of a collapse-safe float64 reference."""
    out = []
    fn = lambda x, t: vocab_parallel_cross_entropy(x, t, reduction="none")  # noqa: E731
    if compiled:
        torch._dynamo.reset()
        fn = torch.compile(fn, fullgraph=True)
    gen = torch.Generator(device="cuda").manual_seed(1)
    margins = [0.0, 10.0, 20.0, 30.0, 50.0, 80.0]
    full = torch.randn(len(margins), vocab, device="cuda", generator=gen)
    # targets on both ranks' shards
    t = torch.tensor([(i * 7919) % vocab for i in range(len(margins))], device="cuda")
    t[1] = vocab - 1
    t[2] = 0
    rows = torch.arange(len(margins), device="cuda")
    full[rows, t] = full.amax(1) + torch.tensor(margins, device="cuda")
    x = shard(full, rank, world).clone().requires_grad_()
    loss = fn(x, t)
    loss.sum().backward()
    ref_loss, ref_grad = (r.cuda() for r in collapse_safe_reference(full.double().cpu(), t.cpu()))
    rel = ((loss.double() - ref_loss).abs() / ref_loss.abs()).max().item()
    gref = shard(ref_grad, rank, world)
    grel = ((x.grad.double() - gref).abs() / gref.abs().clamp_min(1e-300)).max().item()
    out.append(dict(check="margins 0-80 (fp32)", compiled=compiled, loss_rel_err=rel,
                    grad_rel_err=grel, ok=rel < 1e-5 and grel < 1e-5))
    return out


def check_dtensor(rank, world, compiled, rows=512, vocab=32000):
    """inductor_ce.cross_entropy of a Shard(-1) DTensor over NCCL (every option): a replicated
    loss and a Shard(-1) gradient, against float64 of the full logits."""
    import inductor_ce
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor import Replicate, Shard, distribute_tensor
    mesh = init_device_mesh("cuda", (world,))
    gen = torch.Generator(device="cuda").manual_seed(4)
    full = (torch.randn(rows, vocab, device="cuda", generator=gen) * 2).to(torch.bfloat16)
    t = torch.randint(0, vocab, (rows,), device="cuda", generator=gen)
    t[::7] = -100
    w = torch.rand(vocab, device="cuda", generator=gen) + 0.5
    opts = dict(label_smoothing=0.1, z_loss=1e-4, softcap=30.0)
    fn = lambda x, t: inductor_ce.cross_entropy(x, t, w, **opts)  # noqa: E731
    if compiled:
        torch._dynamo.reset()
        fn = torch.compile(fn, fullgraph=True)
    x = distribute_tensor(full, mesh, [Shard(-1)]).requires_grad_()
    loss = fn(x, distribute_tensor(t, mesh, [Replicate()]))
    loss.backward()
    xr = full.double().requires_grad_()
    ref = reference(xr, t, weight=w, **opts)
    ref.backward()
    loss_err = abs(loss.to_local().double().item() - ref.item()) / abs(ref.item())
    gref = shard(xr.grad, rank, world)
    ulps = ulps_error(x.grad.to_local(), gref)
    placements = (list(loss.placements), list(x.grad.placements))
    (p,) = x.grad.placements
    ok = (loss_err < 1e-5 and ulps <= 0.5 and placements[0] == [Replicate()]
          and isinstance(p, Shard) and p.dim in (-1, 1))
    return [dict(check="DTensor Shard(-1), every option", compiled=compiled,
                 loss_rel_err=loss_err, grad_ulps=ulps, placements=str(placements), ok=ok)]


def bench(step, x, warmup_ms=25.0, rep_ms=200.0):
    """Median ms of step(x), measured as triton's do_bench does (L2 flushed before each run,
    CUDA events, the median), but with iteration counts agreed by all ranks: do_bench picks
    its counts from each process's own estimate, and ranks running different numbers of
    collectives wait for each other forever (a run timed with do_bench hung, most likely so).
    Returns the slowest rank's median."""
    flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")

    def runs(n):
        events = []
        for _ in range(n):
            x.grad = None
            flush.zero_()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            step(x)
            end.record()
            events.append((start, end))
        torch.cuda.synchronize()
        return torch.tensor([s.elapsed_time(e) for s, e in events], device="cuda")

    estimate = runs(5).mean().reshape(1)
    dist.all_reduce(estimate, op=dist.ReduceOp.MAX)
    runs(max(1, int(warmup_ms / estimate.item())))
    median = runs(max(1, int(rep_ms / estimate.item()))).median().reshape(1)
    dist.all_reduce(median, op=dist.ReduceOp.MAX)
    return median.item()


def timing(rank, world, rows, vocab, bw):
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor import DTensor, Replicate, Shard
    from torch.distributed.tensor.parallel import loss_parallel

    mesh = init_device_mesh("cuda", (world,))
    gen = torch.Generator(device="cuda").manual_seed(2)
    local = (torch.randn(rows, vocab // world, device="cuda", generator=gen) * 2).to(
        torch.bfloat16)
    t = torch.randint(0, vocab, (rows,), device="cuda", generator=torch.Generator(
        device="cuda").manual_seed(3))
    t[::7] = -100
    floor = 3 * rows * (vocab // world) * 2 / bw * 1e3

    def ours(x):
        return vocab_parallel_cross_entropy(x, t)

    t_dt = DTensor.from_local(t, mesh, [Replicate()], run_check=False)

    def stock(x):
        # TorchTitan's pattern: logits sharded on the class dim, labels replicated.
        # loss_parallel() must not nest (its exit pops the op handlers: KeyError); the step
        # below enters it once around the loss and its backward, as TorchTitan does.
        dx = DTensor.from_local(x, mesh, [Shard(1)], run_check=False)
        return F.cross_entropy(dx, t_dt)

    def stock_step(fn):
        def step(x):
            with loss_parallel():
                fn(x).backward()
        return step

    results = []
    contenders = [("inductor_ce compiled", torch.compile(ours), None),
                  ("inductor_ce eager", ours, None),
                  ("DTensor loss_parallel eager", stock, "stock"),
                  ("DTensor loss_parallel compiled", torch.compile(stock), "stock")]
    for name, fn, kind in contenders:
        x = local.clone().requires_grad_()
        step = stock_step(fn) if kind else (lambda x, fn=fn: fn(x).backward())
        try:
            step(x)
            x.grad = None
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
            base = torch.cuda.memory_allocated()
            step(x)
            torch.cuda.synchronize()
            peak = (torch.cuda.max_memory_allocated() - base) / 2**30
            ms = bench(step, x)
            results.append(dict(impl=name, fwdbwd_ms=ms, x_floor=ms / floor,
                                peak_gib_above_inputs=peak, floor_ms=floor))
        except Exception as e:  # noqa: BLE001
            results.append(dict(impl=name, error=f"{type(e).__name__}: {e}"[:300]))
        del x
        torch.cuda.empty_cache()
    return results


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=int, default=16384)
    p.add_argument("--vocab", type=int, default=128256)
    p.add_argument("--out", default=os.path.join(HERE, "results"))
    p.add_argument("--skip-checks", action="store_true", help="timing only")
    args = p.parse_args()
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(rank)
    bw = copy_bandwidth(1 << 30, warmup=25, rep=100)  # do_bench's defaults
    log(f"{world} x {torch.cuda.get_device_name()}, torch {torch.__version__}, "
        f"NCCL {torch.cuda.nccl.version()}, copy {bw / 1e12:.2f} TB/s (rank 0), "
        f"NCCL_NVLS_ENABLE={os.environ.get('NCCL_NVLS_ENABLE')}")
    checks = []
    for compiled in () if args.skip_checks else (False, True):
        for check in (check_options, check_margins, check_dtensor):
            try:
                checks += check(rank, world, compiled)
            except Exception as e:  # noqa: BLE001  recorded as a failed check
                checks.append(dict(check=check.__name__, compiled=compiled, ok=False,
                                   error=f"{type(e).__name__}: {e}"[:400]))
    for c in checks:
        log(c)
    ok = torch.tensor([all(c["ok"] for c in checks)], device="cuda")
    dist.all_reduce(ok, op=dist.ReduceOp.MIN)
    times = timing(rank, world, args.rows, args.vocab, bw)
    for r in times:
        log(r)
    if rank == 0:
        gpu = torch.cuda.get_device_name().replace(" ", "-")
        stem = os.path.join(args.out, f"{gpu}x{world}-torch{torch.__version__.split('+')[0]}"
                                      "-parallel" + ("-timing" if args.skip_checks else ""))
        os.makedirs(args.out, exist_ok=True)
        result = dict(world=world, gpu=gpu, torch=torch.__version__, rows=args.rows,
                      vocab=args.vocab, copy_bw=bw, checks=checks,
                      all_checks_ok=None if args.skip_checks else bool(ok),
                      timing=times, command="torchrun --nproc_per_node %d %s" % (
                          world, " ".join(sys.argv)))
        json.dump(result, open(stem + ".json", "w"), indent=1)
        lines = [f"{world} x {gpu}, torch {torch.__version__}, T={args.rows}, V={args.vocab} "
                 f"({args.vocab // world} per rank), bf16, forward+backward:", "",
                 "| impl | ms | x per-rank floor | peak GiB above inputs |", "|---|---|---|---|"]
        for r in times:
            lines.append(f"| {r['impl']} | " + (f"{r['fwdbwd_ms']:.3f} | {r['x_floor']:.2f}x | "
                         f"{r['peak_gib_above_inputs']:.2f} |" if "error" not in r else
                         f"error: {r['error'][:100]} | | |"))
        lines.append("\nCorrectness (NCCL, eager and compiled, vs float64): " + (
            "not run in this invocation (--skip-checks)" if args.skip_checks else
            "all passed" if bool(ok) else "FAILURES, see json"))
        open(stem + ".md", "w").write("\n".join(lines) + "\n")
        print("\n".join(lines))
    dist.barrier()
    dist.destroy_process_group()
    sys.exit(0 if bool(ok) else 1)


if __name__ == "__main__":
    main()
