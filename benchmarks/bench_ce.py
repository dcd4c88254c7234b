"""Cross-entropy forward and forward+backward on one GPU, side by side in one process.

    python benchmarks/bench_ce.py                     # every shape, writes benchmarks/results/
    python benchmarks/bench_ce.py --shapes 16384x128256 --no-dynamic --no-memory

Contenders (same data, bf16 logits of randn*2, uniform targets, every 7th row ignored):
    ours/compile     torch.compile(inductor_ce.cross_entropy)          (our Inductor lowering)
    ours/* +metrics  the same with return_entropy and return_accuracy (an entropy bonus in the
                     loss, the accuracy's mean computed): the full ops
    ours/* +temperature, +accuracy   the loss at temperature 0.7 (RL's log-probabilities);
                     the loss and the accuracy's mean (a trainer's logged token accuracy)
    ours/eager       inductor_ce.cross_entropy, no torch.compile (the lowering's kernels,
                     compiled once by the eager path: inductor_ce/eager/)
    stock/compile    torch.compile(F.cross_entropy(x.float(), t))
    stock/eager      F.cross_entropy(x.float(), t)
    stock/eager bf16 F.cross_entropy(x, t) on the bf16 logits
    liger            liger_kernel's cross-entropy, if installed (it writes the gradient into
                     the caller's logits, and its forward already computes the gradient)
    triton_ref       a hand-written two-level Triton forward (yardstick for the forward only)
"dyn" variants mark the row dimension dynamic, as torch.compile does by itself once the
batch shape changes; "dyn-all" variants (--dynamic-all) compile with dynamic=True, every size
symbolic (our lowering specializes the vocabulary back to a constant, with a guard).

Floors (bytes over the device-to-device copy bandwidth measured in the same run):
    forward        T*V*s          (one read of the logits)
    fwd+bwd        3*T*V*s        (forward read; backward read + write of the gradient)
Times are medians of triton.testing.do_bench; for few rows, where the host sets the pace,
medians over rounds in which the contenders take turns (HOST_BOUND_ROUNDS).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time

import torch
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import inductor_ce  # noqa: E402

SHAPES = ["16384x128256", "16384x64128", "8192x256000", "32768x32000", "4096x151936",
          "256x128256", "fp32:8192x128256"]
LARGE = SHAPES[:4]


def copy_bandwidth(elements: int = 1 << 31, warmup: int = 50, rep: int = 400) -> float:
    """Bytes read + written per second by a device-to-device copy of int16 ``elements``
    (4 GiB by default)."""
    src = torch.empty(elements, dtype=torch.int16, device="cuda").random_()
    dst = torch.empty_like(src)
    ms = do_bench(lambda: dst.copy_(src), warmup=warmup, rep=rep, return_mode="median")
    bw = 2 * src.numel() * src.element_size() / (ms * 1e-3)
    del src, dst
    return bw


# --- a hand-written two-level forward: the yardstick for what the hardware allows ----------

@triton.jit
def _chunk_stats(x_ptr, t_ptr, m_ptr, s_ptr, stride, V, n_chunks, ignore_index,
                 CHUNK: tl.constexpr):
    """Program (row, chunk): chunk max of the non-target logits, then one exp2 per element."""
    row, c = tl.program_id(0), tl.program_id(1)
    cols = c * CHUNK + tl.arange(0, CHUNK)
    t = tl.load(t_ptr + row)
    z = tl.load(x_ptr + row.to(tl.int64) * stride + cols, mask=cols < V,
                other=float("-inf")).to(tl.float32)
    z = tl.where((cols == t) & (t != ignore_index), float("-inf"), z)
    m = tl.max(z, 0)
    m_safe = tl.where(m == float("-inf"), 0.0, m)
    s = tl.sum(tl.exp2((z - m_safe) * 1.4426950408889634), 0)
    tl.store(m_ptr + row * n_chunks + c, m)
    tl.store(s_ptr + row * n_chunks + c, s)


def triton_ref_forward(x, t, chunk=8192, warps=8):
    T, V = x.shape
    n = triton.cdiv(V, chunk)
    m = torch.empty(T, n, device=x.device)
    s = torch.empty(T, n, device=x.device)
    _chunk_stats[(T, n)](x, t, m, s, x.stride(0), V, n, -100, CHUNK=chunk, num_warps=warps)
    big_m = m.amax(1, keepdim=True)
    return big_m.squeeze(1) + torch.log((s * torch.exp(m - big_m)).sum(1))


# --- contenders -----------------------------------------------------------------------------

def _compile(fn, dynamic):
    """torch.compile for a benchmark mode: dynamic=True only for "all" ("rows" marks the row
    dimension of the inputs instead, see bench_shape)."""
    return torch.compile(fn, dynamic=dynamic == "all" or None)


class _Chunked:
    """ours/compile with the lowering's chunk length (and the chunk kernel's warps) set while
    it compiles (tuning runs): ``spec`` is "2048" or "2048x2"."""

    def __init__(self, spec, dynamic):
        chunk, _, warps = spec.partition("x")
        self.config = {"CHUNK": int(chunk), "CHUNK_WARPS": int(warps or 1)}
        # Dynamo caches compiled graphs on the code object, and the chunk is read by the
        # lowering, not by Dynamo: each variant needs a code object of its own, or every
        # variant after the first silently reuses the first one's graph.
        fn = lambda x, t: inductor_ce.cross_entropy(x, t)  # noqa: E731
        fn.__code__ = fn.__code__.replace(co_name=f"ours_chunk_{chunk}x{warps or 1}")
        self.fn = _compile(fn, dynamic)

    def __call__(self, x, t):
        saved = {k: getattr(inductor_ce.lowering, k) for k in self.config}
        for k, v in self.config.items():
            setattr(inductor_ce.lowering, k, v)
        try:
            return self.fn(x, t)
        finally:
            for k, v in saved.items():
                setattr(inductor_ce.lowering, k, v)


CHUNKS: list[str] = []
ONLY: list[str] = []
NO_REF = False


def ours(x, t):
    return inductor_ce.cross_entropy(x, t)


def ours_metrics(x, t):
    """The loss with an entropy bonus and the accuracy (as a trainer logs it): the full ops."""
    out = inductor_ce.cross_entropy(x, t, return_entropy=True, return_accuracy=True)
    return out.loss - 0.01 * out.entropy.mean() + 0.0 * out.accuracy.float().mean()


def ours_tempered(x, t):
    return inductor_ce.cross_entropy(x, t, temperature=0.7)


def ours_accuracy(x, t):
    out = inductor_ce.cross_entropy(x, t, return_accuracy=True)
    return out.loss + 0.0 * out.accuracy.float().mean()


def stock(x, t):
    return F.cross_entropy(x.float(), t)


def stock_bf16(x, t):
    return F.cross_entropy(x, t)


def benchmark_data(T: int, V: int, dtype=torch.bfloat16):
    """The benchmarks' inputs: logits randn*2, uniform targets, every 7th row ignored."""
    gen = torch.Generator(device="cuda").manual_seed(0)
    x = (torch.randn(T, V, device="cuda", generator=gen) * 2).to(dtype)
    t = torch.randint(0, V, (T,), device="cuda", generator=gen)
    t[::7] = -100
    return x, t


def contenders(dynamic):
    """dynamic: None (static), "rows" (rows marked dynamic) or "all" (dynamic=True)."""
    out = {
        "ours/compile": _compile(ours, dynamic),
        "ours/compile +metrics": _compile(ours_metrics, dynamic),
        "ours/compile +temperature": _compile(ours_tempered, dynamic),
        "ours/compile +accuracy": _compile(ours_accuracy, dynamic),
        "stock/compile": _compile(stock, dynamic),
    }
    for chunk in CHUNKS:
        out[f"ours/compile chunk={chunk}"] = _Chunked(chunk, dynamic)
    if not dynamic:
        out["ours/eager"] = ours
        out["ours/eager +metrics"] = ours_metrics
        out["ours/eager +temperature"] = ours_tempered
        out["ours/eager +accuracy"] = ours_accuracy
        out["stock/eager"] = stock
        out["stock/eager bf16"] = stock_bf16
        try:
            from liger_kernel.transformers.functional import liger_cross_entropy
            out["liger"] = lambda x, t: liger_cross_entropy(x, t)
        except Exception:  # optional dependency
            pass
    return out


def interleaved_host(steps: dict, xs: dict, n: int) -> dict[str, list[float]]:
    """Host time of single steps (us, wall clock, no synchronization), the contenders taking
    turns step by step (the order flipping each time): adjacent steps share the machine's
    state, which on the H200's host drifts within seconds by up to 2x (NOTES run 25)."""
    names, out = list(steps), {name: [] for name in steps}
    torch.cuda.synchronize()
    for i in range(n):
        for name in (names if i % 2 == 0 else names[::-1]):
            start = time.perf_counter()
            steps[name]()
            xs[name].grad = None
            out[name].append((time.perf_counter() - start) * 1e6)
    torch.cuda.synchronize()
    return out


# Below this many bytes of logits a step is bound by the host (NOTES run 23), whose speed
# drifts by up to 2x within seconds on the H200's machine (run 25): there the contenders are
# measured in HOST_BOUND_ROUNDS rounds, taking turns (the order flips every round). The table
# shows each one's median over its rounds; the comparison with stock is the median of the
# ratios within a round, and the host time per step with single steps taking turns.
HOST_BOUND_BYTES = 1 << 27
HOST_BOUND_ROUNDS = 9
HOST_BOUND_STEPS = 2000


def bench_shape(spec: str, bw: float, dynamic, skip_eager: bool):
    dtype = torch.float32 if spec.startswith("fp32:") else torch.bfloat16
    T, V = (int(v) for v in spec.split(":")[-1].split("x"))
    x, t = benchmark_data(T, V, dtype)
    size = x.element_size()
    floor_fwd = T * V * size / bw * 1e3
    floor = 3 * T * V * size / bw * 1e3
    host_bound = T * V * size < HOST_BOUND_BYTES
    rows, ready = [], {}

    def label(name):
        return name + {None: "", "rows": " dyn", "all": " dyn-all"}[dynamic]

    def measure(fn, xg):
        fwd = do_bench(lambda: fn(xg, t), warmup=25, rep=200, return_mode="median")
        both = do_bench(lambda: fn(xg, t).backward(), warmup=25, rep=200,
                        grad_to_none=[xg], return_mode="median")
        return fwd, both

    for name, fn in contenders(dynamic).items():
        if skip_eager and name.endswith("eager") or ONLY and not any(
                name == o[:-1] if o.endswith("$") else name.startswith(o) for o in ONLY):
            continue
        try:
            xg = x.clone().requires_grad_()
            if dynamic == "rows":
                torch._dynamo.mark_dynamic(xg, 0)
                torch._dynamo.mark_dynamic(t, 0)
            fn(xg, t).backward()  # compile, autotune
            if name == "liger":
                xg = x.clone().requires_grad_()  # liger overwrote it with the gradient
            if host_bound:
                ready[name] = (fn, xg)  # measured below, all of them taking turns
                continue
            fwd, both = measure(fn, xg)
            rows.append(dict(shape=spec, impl=label(name), fwd_ms=fwd, fwdbwd_ms=both,
                             fwd_x_floor=fwd / floor_fwd, x_floor=both / floor,
                             floor_ms=floor, floor_fwd_ms=floor_fwd,
                             peak_gib=step_peak(fn, xg, t)))
        except Exception as e:  # noqa: BLE001  a contender failing must not hide the others
            rows.append(dict(shape=spec, impl=label(name),
                             error=f"{type(e).__name__}: {e}"[:300]))
        if not host_bound:
            del xg
            gc.collect()
            torch.cuda.empty_cache()
    rounds = {name: [] for name in ready}
    for r in range(HOST_BOUND_ROUNDS if ready else 0):
        for name in (list(ready) if r % 2 == 0 else list(ready)[::-1]):
            rounds[name].append(measure(*ready[name]))
    if ready:
        # Single fwd+bwd steps, the contenders taking turns step by step: adjacent steps see
        # the same machine, which rounds of do_bench cannot promise (few_rows.py has more).
        steps = {name: (lambda fn=fn, xg=xg: fn(xg, t).backward()) for name, (fn, xg) in
                 ready.items()}
        per_step = interleaved_host(steps, {name: xg for name, (_, xg) in ready.items()},
                                    HOST_BOUND_STEPS)
    for name, results in rounds.items():
        fwd, both = (statistics.median(v) for v in zip(*results))
        rows.append(dict(shape=spec, impl=label(name), fwd_ms=fwd, fwdbwd_ms=both,
                         fwd_x_floor=fwd / floor_fwd, x_floor=both / floor, floor_ms=floor,
                         floor_fwd_ms=floor_fwd, rounds_fwdbwd_ms=[r[1] for r in results],
                         step_host_us=statistics.median(per_step[name])))
        if name == "ours/eager" and "stock/eager bf16" in rounds:
            ref_rounds, ref_steps = rounds["stock/eager bf16"], per_step["stock/eager bf16"]
            rows[-1].update(
                vs_eager_bf16_rounds=statistics.median(
                    a[1] / b[1] for a, b in zip(results, ref_rounds)),
                vs_eager_bf16_steps=rows[-1]["step_host_us"] / statistics.median(ref_steps))
        if name != "stock/compile" and "stock/compile" in rounds:
            stock_rounds, stock_steps = rounds["stock/compile"], per_step["stock/compile"]
            rows[-1].update(
                vs_stock_rounds=statistics.median(
                    a[1] / b[1] for a, b in zip(results, stock_rounds)),
                vs_stock_steps=rows[-1]["step_host_us"] / statistics.median(stock_steps),
                faster_steps=sum(a < b for a, b in zip(per_step[name], stock_steps)),
                steps=len(stock_steps))
    if not dynamic and dtype == torch.bfloat16 and not NO_REF:
        chunk, warps = (8192, 8) if V >= 65536 else (4096, 4)
        ms = do_bench(lambda: triton_ref_forward(x, t, chunk, warps), warmup=25, rep=200,
                      return_mode="median")
        rows.append(dict(shape=spec, impl="triton_ref (fwd only)", fwd_ms=ms,
                         fwd_x_floor=ms / floor_fwd, floor_ms=floor, floor_fwd_ms=floor_fwd))
    return rows


def step_peak(fn, xg, t) -> float:
    """GiB allocated at the peak of one forward+backward step above what was allocated
    before it (the logits and targets; the gradient of the logits counts)."""
    xg.grad = None
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    fn(xg, t).backward()
    torch.cuda.synchronize()
    peak = (torch.cuda.max_memory_allocated() - base) / 2**30
    xg.grad = None
    return peak


def lm_head_peak(which: str) -> float:
    """Peak memory (GiB above what was allocated before) of one compiled LM-head step."""
    torch._dynamo.reset()
    gen = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(16384, 4096, device="cuda", generator=gen, dtype=torch.bfloat16)
    w = (torch.randn(128256, 4096, device="cuda", generator=gen, dtype=torch.bfloat16)
         * 0.02).requires_grad_()
    h.requires_grad_()
    t = torch.randint(0, 128256, (16384,), device="cuda", generator=gen)
    if which == "ours":
        loss_fn = lambda logits: inductor_ce.cross_entropy(logits, t)  # noqa: E731
    else:
        loss_fn = lambda logits: F.cross_entropy(logits.float(), t)  # noqa: E731

    @torch.compile
    def step(h, w):
        return loss_fn(h @ w.t())

    step(h, w).backward()  # compile
    h.grad = w.grad = None
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    step(h, w).backward()
    torch.cuda.synchronize()
    peak = (torch.cuda.max_memory_allocated() - base) / 2**30
    del h, w
    gc.collect()
    torch.cuda.empty_cache()
    return peak


def markdown(rows, bw) -> str:
    out = [f"Copy bandwidth {bw / 1e12:.2f} TB/s. Times in ms (do_bench medians); "
           "x = ratio to the floor.", "",
           "| shape | impl | fwd ms | fwd x read-floor | fwd+bwd ms | fwd+bwd x floor | peak GiB |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            out.append(f"| {r['shape']} | {r['impl']} | error: {r['error'][:80]} | | | |")
            continue
        both = f"{r['fwdbwd_ms']:.3f} | {r['x_floor']:.2f}x" if "fwdbwd_ms" in r else "- | -"
        peak = f"{r['peak_gib']:.2f}" if "peak_gib" in r else "-"
        out.append(f"| {r['shape']} | {r['impl']} | {r['fwd_ms']:.3f} | "
                   f"{r['fwd_x_floor']:.2f}x | {both} | {peak} |")
    host_bound = [r for r in rows if "vs_stock_steps" in r]
    if host_bound:
        out += ["", "Host-bound shapes, each against stock/compile in the same rounds: fwd+bwd, "
                "the median over rounds of the ratio within a round; host time per step, "
                "single steps taking turns (ratio of medians, and the pairs where it was "
                "faster)."]
    for r in rows:
        if "vs_eager_bf16_rounds" in r:
            out.append(f"- {r['shape']} {r['impl']}: rounds {r['vs_eager_bf16_rounds']:.3f}x "
                       f"stock/eager bf16; host time per step "
                       f"{r['vs_eager_bf16_steps']:.3f}x its")
    for r in host_bound:
        out.append(f"- {r['shape']} {r['impl']}: rounds {r['vs_stock_rounds']:.3f}x stock; "
                   f"steps {r['vs_stock_steps']:.3f}x stock ({r['step_host_us']:.1f} us), "
                   f"faster in {r['faster_steps']} of {r['steps']} pairs")
    return "\n".join(out)


def plot(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    shapes = list(dict.fromkeys(r["shape"] for r in rows))
    impls = [i for i in dict.fromkeys(r["impl"] for r in rows) if "fwd only" not in i]
    fig, ax = plt.subplots(figsize=(11, 4.5))
    width = 0.8 / max(len(impls), 1)
    for k, impl in enumerate(impls):
        vals = [next((r.get("x_floor", 0) for r in rows if r["shape"] == s and r["impl"] == impl
                      and "x_floor" in r), 0) for s in shapes]
        ax.bar([i + k * width for i in range(len(shapes))], vals, width, label=impl)
    ax.axhline(1.0, color="k", lw=1)
    ax.axhline(1.1, color="k", lw=1, ls="--")
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(shapes))], shapes, rotation=15)
    ax.set_ylabel("fwd+bwd time / memory floor")
    ax.set_yscale("log")
    ax.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shapes", nargs="*", default=SHAPES)
    p.add_argument("--no-dynamic", action="store_true")
    p.add_argument("--dynamic-shapes", nargs="*", default=LARGE,
                   help="shapes also measured with the row dimension marked dynamic")
    p.add_argument("--dynamic-all", nargs="*", default=[],
                   help="shapes also measured with dynamic=True (every size symbolic)")
    p.add_argument("--no-memory", action="store_true")
    p.add_argument("--skip-eager", action="store_true")
    p.add_argument("--only", nargs="*", default=[],
                   help="contender name prefixes (a trailing $: the exact name)")
    p.add_argument("--no-ref", action="store_true", help="skip the hand-written yardstick")
    p.add_argument("--chunks", nargs="*", default=[],
                   help="also compile ours with these forward chunk lengths, CHUNK or "
                        "CHUNKxWARPS (tuning)")
    p.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results"))
    p.add_argument("--name", default=None, help="file stem (default: GPU-torch version)")
    args = p.parse_args()
    CHUNKS.extend(args.chunks)
    ONLY.extend(args.only)
    global NO_REF
    NO_REF = args.no_ref
    torch.backends.cuda.matmul.allow_tf32 = False
    bw = copy_bandwidth()
    gpu = torch.cuda.get_device_name().replace(" ", "-")
    print(f"{gpu}, torch {torch.__version__}, triton {triton.__version__}, "
          f"copy {bw / 1e12:.2f} TB/s", flush=True)
    os.makedirs(args.out, exist_ok=True)
    stem = os.path.join(args.out, args.name or f"{gpu}-torch{torch.__version__.split('+')[0]}")
    rows, memory = [], {}

    def save():  # after every step, so that a run cut short still leaves its numbers
        result = dict(gpu=gpu, torch=torch.__version__, triton=triton.__version__,
                      python=platform.python_version(), copy_bw=bw, rows=rows,
                      lm_head_peak_gib=memory, command="python " + " ".join(sys.argv))
        with open(stem + ".json", "w") as f:
            json.dump(result, f, indent=1)
        table = markdown(rows, bw)
        if memory:
            table += ("\n\nLM-head step peak memory above the step's inputs (h 16384x4096, "
                      "W 128256x4096, bf16, compiled): " +
                      ", ".join(f"{k} {v:.2f} GiB" for k, v in memory.items()))
        with open(stem + ".md", "w") as f:
            f.write(table + "\n")
        plot(rows, stem + ".png")
        return table

    if not args.no_memory:  # first: it needs the most memory
        memory.update({w: lm_head_peak(w) for w in ("ours", "stock")})
        print(memory, flush=True)
    for spec in args.shapes:
        torch._dynamo.reset()
        rows += bench_shape(spec, bw, dynamic=None, skip_eager=args.skip_eager)
        if not args.no_dynamic and spec in args.dynamic_shapes:
            torch._dynamo.reset()
            rows += bench_shape(spec, bw, dynamic="rows", skip_eager=True)
        if spec in args.dynamic_all:
            torch._dynamo.reset()
            rows += bench_shape(spec, bw, dynamic="all", skip_eager=True)
        save()
        print(markdown([r for r in rows if r["shape"] == spec], bw).split("\n", 4)[-1],
              flush=True)
    print(save())


if __name__ == "__main__":
    main()
