"""LM-head training step on one GPU: loss = CE(h @ W.T, y); loss.backward(), side by side.

    python benchmarks/bench_linear_ce.py                       # the shapes below, results/
    python benchmarks/bench_linear_ce.py --shapes 8192x768x50304 --frontier
    python benchmarks/bench_linear_ce.py --plot results/linear-ce-NVIDIA-H100-80GB-HBM3-torch2.11.0.json

Contenders (bf16 h of randn, W of randn * 0.02, uniform targets, every 7th ignored), each a call
of one kind: "mean" (a scalar loss, backward()), "none" (per-token losses, backward with a
random upstream gradient per row), "lse" (return_lse=True, a gradient through both), "nograd"
(the forward under torch.no_grad: per-token losses, nothing saved):
    gemms              the three cuBLAS GEMMs of the step (h W^T; dz W; dz^T h): the yardstick;
                       for "nograd", the first alone ("1 GEMM")
    ours [kind]        inductor_ce.linear_cross_entropy, default memory budget, eager
    ours compiled      the same, torch.compile'd
    ours lean [kind]   memory_budget=64 MiB (inductor_ce.linear.LEAN_BUDGET)
    ours metrics       "mean" with return_entropy and return_accuracy, both logged (their
                       batch means computed, no gradient through them), as a trainer does
    ours logp nograd   inductor_ce.linear_log_probs at temperature 0.7 under no_grad (RL's
                       reference log-probabilities)
    ours unfused compiled   torch.compile(inductor_ce.cross_entropy(h @ W.T, y))
    stock compile      torch.compile(F.cross_entropy((h @ W.T).float(), y)) ("mean", "none")
    liger              liger_kernel's LigerFusedLinearCrossEntropyLoss, if installed
    cce                Apple's cut_cross_entropy.linear_cross_entropy, if installed
--frontier adds ours at budgets of 16, 32, 128 and 256 MiB, "mean" and "none" (with the
default and the lean one, the speed/memory frontier: docs/linear.md#the-memory-budget).

Step time: triton.testing.do_bench median of forward + backward. Peak: the most memory
allocated during one step above what the inputs hold (h, W, y; the gradients h.grad and
W.grad are part of the step: 2 (T + V) D bytes of it cannot be avoided). Errors ("mean" and
"none"): relative Frobenius errors of the loss, dh and dW against float64 (h, W upcast,
float64 GEMMs).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time

import torch
import torch.nn.functional as F
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import inductor_ce  # noqa: E402

# GPT-2 small, Qwen3-1.7B, Qwen2.5-14B, a 70B-class head, a small head over many rows; then
# Llama-3 8B's head at two row counts, Gemma-2's softcapped 256000 classes, Qwen2's.
SHAPES = ["8192x768x50304", "4096x2048x151936", "16384x5120x152064", "8192x8192x128256",
          "65536x2048x32000", "8192x4096x128256", "32768x4096x128256", "8192x2304x256000:30",
          "16384x4096x151936"]
KINDS = ("mean", "none", "lse", "nograd")
LOGGED: list = []   # the metrics contender's last logged values (kept like a trainer's)
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def data(T, D, V, seed=0):
    g = torch.Generator(device="cuda").manual_seed(seed)
    h = torch.randn(T, D, device="cuda", generator=g, dtype=torch.bfloat16)
    w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16)
    y = torch.randint(0, V, (T,), device="cuda", generator=g)
    y[::7] = -100
    return h, w, y


def contenders(softcap, frontier):
    """name -> (kind, function of (h, w, y))."""
    kw = dict(softcap=softcap)

    def ours(budget=None, **more):
        return lambda h, w, y: inductor_ce.linear_cross_entropy(h, w, y, memory_budget=budget,
                                                                **kw, **more)

    def stock(reduction):
        def fn(h, w, y):
            z = (h @ w.t()).float()
            if softcap is not None:
                z = softcap * torch.tanh(z / softcap)
            return F.cross_entropy(z, y, reduction=reduction)
        return fn

    def metrics(h, w, y):
        out = inductor_ce.linear_cross_entropy(h, w, y, return_entropy=True,
                                               return_accuracy=True, **kw)
        LOGGED.append((out.entropy.detach().mean(), out.accuracy.float().mean()))
        del LOGGED[:-1]
        return out.loss

    lean = inductor_ce.linear.LEAN_BUDGET
    out = {
        "ours": ("mean", ours()),
        "ours compiled": ("mean", torch.compile(ours())),
        "ours none": ("none", ours(reduction="none")),
        "ours lse": ("lse", ours(return_lse=True)),
        "ours nograd": ("nograd", ours(reduction="none")),
        "ours metrics": ("mean", metrics),
        "ours logp nograd": ("nograd", lambda h, w, y: inductor_ce.linear_log_probs(
            h, w, y, temperature=0.7)),
        "ours lean": ("mean", ours(lean)),
        "ours lean none": ("none", ours(lean, reduction="none")),
        "ours lean nograd": ("nograd", ours(lean, reduction="none")),
        "ours unfused compiled": ("mean", torch.compile(
            lambda h, w, y: inductor_ce.cross_entropy(h @ w.t(), y, **kw))),
        "stock compile": ("mean", torch.compile(stock("mean"))),
        "stock compile none": ("none", torch.compile(stock("none"))),
    }
    if frontier:
        for mib in (16, 32, 128, 256):
            out[f"ours budget={mib}MiB"] = ("mean", ours(mib << 20))
            out[f"ours none budget={mib}MiB"] = ("none", ours(mib << 20, reduction="none"))
    try:
        from liger_kernel.transformers import LigerFusedLinearCrossEntropyLoss
        liger = LigerFusedLinearCrossEntropyLoss(softcap=softcap)
        out["liger"] = ("mean", lambda h, w, y: liger(w, h, y))
    except Exception as e:  # optional
        print(f"(liger not run: {type(e).__name__}: {e})")
    try:
        from cut_cross_entropy import linear_cross_entropy as cce
        out["cce"] = ("mean", lambda h, w, y: cce(h, w, y, softcap=softcap))
        out["cce none"] = ("none", lambda h, w, y: cce(h, w, y, softcap=softcap,
                                                       reduction="none"))
    except Exception as e:  # optional
        print(f"(cce not run: {type(e).__name__}: {e})")
    return out


def gemm_time(T, D, V, only_first=False):
    """The three GEMMs of the step (or the first alone), with preallocated outputs (cuBLAS)."""
    h, w, _ = data(T, D, V)
    z = torch.empty(T, V, device="cuda", dtype=torch.bfloat16)
    dz = torch.randn(T, V, device="cuda", dtype=torch.bfloat16)
    dh, dw = torch.empty_like(h), torch.empty_like(w)

    def step():
        torch.mm(h, w.t(), out=z)
        if not only_first:
            torch.mm(dz, w, out=dh)
            torch.mm(dz.t(), h, out=dw)

    ms = do_bench(step, warmup=25, rep=300, return_mode="median")
    del z, dz
    return ms


def upstream(kind, T, seed=1):
    """The upstream gradients of a call of ``kind``: None for a scalar, else per row."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    if kind in ("none", "lse"):
        return torch.rand(T, device="cuda", generator=g), torch.rand(T, device="cuda",
                                                                      generator=g)
    return None


def backward(kind, out, grads):
    """out's backward for a call of ``kind`` with upstream ``grads``."""
    if kind == "mean":
        out.backward()
    elif kind == "none":
        out.backward(grads[0].to(out.dtype))
    else:   # "lse": (mean loss, per-row lse)
        torch.autograd.backward(out, [torch.ones_like(out[0]), grads[1].to(out[1].dtype)])


def reference64(h, w, y, softcap, kind, grads):
    h64, w64 = h.double().requires_grad_(), w.double().requires_grad_()
    z = h64 @ w64.t()
    if softcap is not None:
        z = softcap * torch.tanh(z / softcap)
    loss = F.cross_entropy(z, y, reduction="mean" if kind == "mean" else "none")
    backward(kind, loss, None if grads is None else [g.double() for g in grads])
    out = loss.detach(), h64.grad, w64.grad
    del z, h64, w64
    return out


def rel(a, b):
    return ((a.double() - b).norm() / b.norm()).item()


def measure(name, kind, fn, T, D, V, ref, grads):
    h, w, y = data(T, D, V)
    h.requires_grad_(), w.requires_grad_()
    row = dict(impl=name, kind=kind)
    if kind == "nograd":
        def step():
            with torch.no_grad():
                fn(h, w, y)
    else:
        def step():
            backward(kind, fn(h, w, y), grads)
    try:
        start = time.perf_counter()
        step()
        torch.cuda.synchronize()
        row["first_call_s"] = time.perf_counter() - start
        if ref is not None and kind in ("mean", "none"):
            h.grad = w.grad = None
            loss = fn(h, w, y)
            backward(kind, loss, grads)
            row.update(loss_err=rel(loss.detach(), ref[0]), dh_err=rel(h.grad, ref[1]),
                       dw_err=rel(w.grad, ref[2]))
        h.grad = w.grad = None
        gc.collect()
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        step()
        torch.cuda.synchronize()
        row["peak_gib"] = (torch.cuda.max_memory_allocated() - base) / 2**30
        row["ms"] = do_bench(step, warmup=10, rep=200, grad_to_none=[h, w],
                             return_mode="median")
    except Exception as e:  # noqa: BLE001  one contender failing must not hide the others
        row["error"] = f"{type(e).__name__}: {e}"[:400]
    del h, w, y
    gc.collect()
    torch.cuda.empty_cache()
    return row


FRONTIER = (("default", "ours"), ("256", "ours budget=256MiB"), ("128", "ours budget=128MiB"),
            ("64", "ours lean"), ("32", "ours budget=32MiB"), ("16", "ours budget=16MiB"))


def _frontier(ax, rows):
    """The mean loss's step at each memory budget of a shape (``--frontier``), joined by a
    line from the default to 16 MiB, each point labelled with its budget in MiB."""
    by_name = {r["impl"]: r for r in rows if r.get("kind", "mean") == "mean"}
    points = [(label, by_name[name]) for label, name in FRONTIER if name in by_name]
    if len(points) < 3:
        return
    ax.plot([r["peak_gib"] for _, r in points], [r["x_gemms"] for _, r in points], "-",
            color="C0", lw=0.8, alpha=0.6, zorder=2)
    for label, r in points[1:]:
        if label != "64":   # (the lean point has its own label)
            ax.annotate(label, (r["peak_gib"], r["x_gemms"]), fontsize=6, color="C0",
                        xytext=(-4, -9), textcoords="offset points")


def plot(rows, path):
    """Per shape, each contender's step time (x the GEMMs) against its peak memory; the
    GEMMs' own point (their time, the gradients' size) is the corner both axes start from.
    Ours eager filled, compiled hollow; with ``--frontier``, ours at each budget joined by a
    line (``_frontier``). False without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    shapes = list(dict.fromkeys(r["shape"] for r in rows))
    cols = min(2, len(shapes))
    fig, axes = plt.subplots(-(-len(shapes) // cols), cols, figsize=(5.2 * cols, 3.6 * (
        -(-len(shapes) // cols))), squeeze=False)
    for ax, shape in zip(axes.flat, shapes):
        for r in rows:
            if r["shape"] != shape or "ms" not in r:
                continue
            if r.get("kind", "mean") != "mean" or "budget=" in r["impl"]:
                continue
            name = r["impl"]
            ours, compiled = name.startswith("ours"), name.endswith(" compiled")
            yard = name == "3 cuBLAS GEMMs"
            color = "k" if yard else ("C0" if ours else "C3")
            ax.scatter(r["peak_gib"], r["x_gemms"], s=30, zorder=3, marker="*" if yard else
                       ("o" if ours else "s"), facecolors="none" if ours and compiled and
                       "unfused" not in name else color, edgecolors=color)
            if not (ours and compiled and "unfused" not in name):
                label = name.replace("ours ", "ours: ").replace("3 cuBLAS GEMMs", "GEMMs")
                ax.annotate(label, (r["peak_gib"], r["x_gemms"]), fontsize=7, xytext=(4, 3),
                            textcoords="offset points")
        _frontier(ax, [r for r in rows if r["shape"] == shape and "ms" in r])
        t, d, v = shape.split(":")[0].split("x")
        ax.set_title(f"T {t}, D {d}, V {v}" + (", softcap 30" if ":" in shape else ""),
                     fontsize=9)
        ax.set_xlabel("peak above the inputs, GiB", fontsize=8)
        ax.set_ylabel("step / the 3 cuBLAS GEMMs", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(True, lw=0.3)
    for ax in list(axes.flat)[len(shapes):]:
        ax.set_visible(False)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shapes", nargs="*", default=SHAPES, help="TxDxV[:softcap]")
    p.add_argument("--frontier", action="store_true")
    p.add_argument("--errors-up-to", type=int, default=16384,
                   help="float64 references for T up to this (they need ~4 T V 8 bytes)")
    p.add_argument("--only", nargs="*", default=None,
                   help="contender name prefixes (a trailing $: the exact name)")
    p.add_argument("--out", default=os.path.join(RESULTS, "linear-ce-{gpu}-torch{torch}"))
    p.add_argument("--plot", metavar="JSON", help="only draw the picture of a results file")
    args = p.parse_args()
    if args.plot:
        with open(args.plot) as f:
            plot(json.load(f)["rows"], os.path.splitext(args.plot)[0] + ".png")
        return
    gpu = torch.cuda.get_device_name().replace(" ", "-")
    out = args.out.format(gpu=gpu, torch=torch.__version__.split("+")[0])
    meta = dict(gpu=torch.cuda.get_device_name(), torch=torch.__version__,
                triton=__import__("triton").__version__, python=platform.python_version(),
                command=" ".join(sys.argv))
    rows = []
    for spec in args.shapes:
        dims, _, cap = spec.partition(":")
        T, D, V = (int(v) for v in dims.split("x"))
        softcap = float(cap) if cap else None
        gemms, gemm1 = gemm_time(T, D, V), gemm_time(T, D, V, only_first=True)
        refs, grads = {}, {k: upstream(k, T) for k in KINDS}
        if T <= args.errors_up_to:
            h, w, y = data(T, D, V)
            for kind in ("mean", "none"):
                refs[kind] = reference64(h, w, y, softcap, kind, grads[kind])
            del h, w, y
        floor_gib = 2 * (T + V) * D / 2**30
        rows.append(dict(shape=spec, impl="3 cuBLAS GEMMs", ms=gemms, x_gemms=1.0,
                         peak_gib=floor_gib))
        rows.append(dict(shape=spec, impl="1 GEMM", kind="nograd", ms=gemm1, x_gemms=1.0,
                         peak_gib=T * V * 2 / 2**30))
        for name, (kind, fn) in contenders(softcap, args.frontier).items():
            if args.only and not any(name == o[:-1] if o.endswith("$") else name.startswith(o)
                                     for o in args.only):
                continue
            torch._dynamo.reset()
            row = measure(name, kind, fn, T, D, V, refs.get(kind), grads[kind])
            row.update(shape=spec, x_gemms=row.get("ms", float("nan")) / (
                gemm1 if kind == "nograd" else gemms))
            rows.append(row)
            print(json.dumps(row), flush=True)
        del refs
        gc.collect()
        torch.cuda.empty_cache()
        with open(out + ".json", "w") as f:
            json.dump(dict(meta=meta, rows=rows), f, indent=1)
    lines = [f"{meta['gpu']}, torch {meta['torch']}, triton {meta['triton']}; `{meta['command']}`",
             "", "x GEMMs: the three GEMMs of the step, or for nograd the first alone.", "",
             "| shape | contender | kind | step ms | x GEMMs | peak GiB | loss err | dh err | "
             "dW err |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        kind = r.get("kind", "mean")
        if "error" in r:
            lines.append(f"| {r['shape']} | {r['impl']} | {kind} | error: {r['error'][:80]} "
                         "|||||")
            continue
        errs = [f"{r[k]:.1e}" if k in r else "" for k in ("loss_err", "dh_err", "dw_err")]
        lines.append(f"| {r['shape']} | {r['impl']} | {kind} | {r['ms']:.2f} | "
                     f"{r['x_gemms']:.3f} | {r['peak_gib']:.2f} | {' | '.join(errs)} |")
    with open(out + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    plot(rows, out + ".png")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
