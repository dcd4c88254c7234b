"""transformers causal LMs, one training step (forward + backward) on one GPU, side by side.

    python benchmarks/bench_transformers.py --out benchmarks/results/transformers-H200.json
    python benchmarks/bench_transformers.py --models llama --set llama.num_hidden_layers=4 \
        --batch 1 --seq 8192 --contenders stock/compile,ours/compile
    python benchmarks/bench_transformers.py --device cpu --tiny      # a dry run of the script

Models (random weights from the config, bf16, no download; --set MODEL.KEY=VALUE overrides):
    llama    LlamaForCausalLM, V=128256, hidden 2048 (Llama-3.2-1B's layer), 2 layers
    gemma2   Gemma2ForCausalLM, V=256000, hidden 2304 (Gemma-2-2B's layer), 2 layers,
             final_logit_softcapping 30 (tied embeddings, as Gemma's)
Batch 2 x 4096 tokens, labels = the input ids with the first 16 of every row ignored.

Contenders (each on a fresh deep copy of the same model; one failing prints its error and the
others still run):
    stock/compile      torch.compile(model) (the reference of the agreement columns)
    stock/eager        model (bf16 eager against compiled: the spread the columns can show
                       without any change of the loss)
    enable/compile     inductor_ce.enable(), then torch.compile(model): our cross-entropy for
                       the model's F.cross_entropy, the logits still materialized
    ours/eager         inductor_ce.transformers.apply(model)
    ours/compile       inductor_ce.transformers.apply(model), then torch.compile(model)
    ours/MODE:N        the same with chunks of N rows (apply(model, memory_budget=N V 2))
    liger/eager        apply_liger_kernel_to_llama / _gemma2(model=model,
                       fused_linear_cross_entropy=True, every other Liger kernel off: the loss
                       is the only difference), if liger_kernel imports (else left out)
    liger/compile      the same, then torch.compile(model)

Per contender: ms, the median of triton.testing.do_bench over full steps (grads set to None,
forward with labels, backward); peak GiB, max_memory_allocated during one step minus the
memory allocated before it (model, inputs and the reference gradients kept for the agreement
check; the step's own gradients count); the loss and its relative error against stock/compile,
and the gradients' worst relative error over the parameters (||g - g_stock|| / ||g_stock||,
norms in float32); setup s (copy, patch, first step: compile time for the compiled ones).
"""
from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import platform
import sys
import time
import traceback

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import inductor_ce  # noqa: E402
import inductor_ce.transformers as ict  # noqa: E402

MODELS = {
    "llama": ("LlamaForCausalLM", dict(
        vocab_size=128256, hidden_size=2048, intermediate_size=8192, num_hidden_layers=2,
        num_attention_heads=32, num_key_value_heads=8, max_position_embeddings=8192,
        tie_word_embeddings=False)),
    "gemma2": ("Gemma2ForCausalLM", dict(
        vocab_size=256000, hidden_size=2304, intermediate_size=9216, num_hidden_layers=2,
        num_attention_heads=8, num_key_value_heads=4, head_dim=256, query_pre_attn_scalar=256,
        sliding_window=4096, max_position_embeddings=8192, final_logit_softcapping=30.0,
        attn_logit_softcapping=50.0)),
}
TINY = dict(vocab_size=512, hidden_size=64, intermediate_size=128, num_attention_heads=4,
            num_key_value_heads=2, head_dim=16, query_pre_attn_scalar=16, sliding_window=64)
CONTENDERS = ("stock/compile", "stock/eager", "enable/compile", "ours/eager", "ours/compile",
              "liger/eager", "liger/compile")
IGNORED_PREFIX = 16


def parse_value(v: str):
    for cast in (int, float):
        try:
            return cast(v)
        except ValueError:
            pass
    return {"true": True, "false": False, "none": None}.get(v.lower(), v)


def build(name, overrides, tiny, device, dtype):
    import transformers
    cls_name, kw = MODELS[name]
    kw = dict(kw)
    if tiny:
        kw.update({k: v for k, v in TINY.items() if k in kw})
    kw.update(overrides.get(name, {}))
    config = getattr(transformers, cls_name.replace("ForCausalLM", "Config"))(**kw)
    torch.manual_seed(0)
    with torch.device(device):
        model = getattr(transformers, cls_name)(config)
    return model.to(dtype).train(), config


def liger_patch(name, model):
    import liger_kernel.transformers as lk
    if name == "llama":
        lk.apply_liger_kernel_to_llama(rope=False, cross_entropy=False, rms_norm=False,
                                       swiglu=False, fused_linear_cross_entropy=True,
                                       model=model)
    elif name == "gemma2":
        lk.apply_liger_kernel_to_gemma2(rope=False, cross_entropy=False, rms_norm=False,
                                        geglu=False, fused_linear_cross_entropy=True,
                                        model=model)
    else:
        raise KeyError(name)


def prepare(contender, name, model):
    """The callable that runs the model for ``contender`` (patching ``model`` in place)."""
    kind, mode = contender.split("/")
    mode, _, chunk = mode.partition(":")
    if kind == "ours":
        head = model.get_output_embeddings().weight
        budget = int(chunk) * head.shape[0] * head.element_size() if chunk else None
        ict.apply(model, memory_budget=budget)
    elif kind == "liger":
        liger_patch(name, model)
    elif kind == "enable":
        inductor_ce.enable()
    return torch.compile(model) if mode == "compile" else model


def timer(device):
    if device == "cuda":
        from triton.testing import do_bench
        return lambda fn: do_bench(fn, warmup=100, rep=500, return_mode="median")

    def cpu_bench(fn, reps=3):   # the dry run: a median of a few wall-clock steps
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t0) * 1e3)
        return sorted(times)[len(times) // 2]
    return cpu_bench


def run_contender(contender, name, base, batch, ref, device, bench):
    row = {"contender": contender}
    t0 = time.perf_counter()
    model = copy.deepcopy(base)
    params = [p for p in model.parameters()]
    fn = prepare(contender, name, model)

    def step():
        for p in params:
            p.grad = None
        out = fn(**batch)
        out.loss.backward()
        return out

    out = step()                                   # first step (compiles)
    loss = out.loss.detach().float().item()
    grads = [p.grad for p in params]
    row["setup_s"] = round(time.perf_counter() - t0, 1)
    row["logits_returned"] = out.logits is not None
    row["loss"] = loss
    del out
    if ref is None:                                # this is the reference (stock/compile)
        ref = {"loss": loss, "grads": [g.detach().clone() for g in grads]}
    row["loss_rel_err"] = abs(loss - ref["loss"]) / abs(ref["loss"])
    row["grad_rel_err"] = max(
        ((g.float() - r.float()).norm() / r.float().norm().clamp_min(1e-30)).item()
        for g, r in zip(grads, ref["grads"]))
    del grads
    for p in params:
        p.grad = None
    if device == "cuda":
        torch.cuda.synchronize()
        gc.collect()
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_allocated()
        step()
        torch.cuda.synchronize()
        row["peak_gib"] = (torch.cuda.max_memory_allocated() - before) / 2**30
    else:
        row["peak_gib"] = None
    row["ms"] = bench(step)
    del fn, model, params
    return row, ref


def cleanup(device):
    inductor_ce.disable()
    torch._dynamo.reset()
    gc.collect()
    if device == "cuda":
        torch.cuda.empty_cache()


def run_model(name, args, overrides, bench):
    base, config = build(name, overrides, args.tiny, args.device, torch.bfloat16)
    g = torch.Generator(device="cpu").manual_seed(1)
    ids = torch.randint(0, config.vocab_size, (args.batch, args.seq), generator=g)
    labels = ids.clone()
    labels[:, :IGNORED_PREFIX] = -100
    batch = {"input_ids": ids.to(args.device), "labels": labels.to(args.device)}
    result = {"config": {k: v for k, v in config.to_dict().items()
                         if k in MODELS[name][1] or k in overrides.get(name, {})},
              "batch": args.batch, "seq": args.seq, "rows": []}
    ref = None
    contenders = [c for c in args.contenders if c.partition(":")[0] in CONTENDERS]
    if "stock/compile" not in contenders:
        contenders.insert(0, "stock/compile")          # the reference of the agreement check
    contenders.sort(key=lambda c: c != "stock/compile")
    for contender in contenders:
        t0 = time.perf_counter()
        try:
            row, ref = run_contender(contender, name, base, batch, ref, args.device, bench)
        except Exception as e:   # fail soft: print it, keep the others
            row = {"contender": contender, "error": f"{type(e).__name__}: {e}"}
            traceback.print_exc()
            if contender == "stock/compile":
                print("no reference: the agreement columns are empty", file=sys.stderr)
        row["wall_s"] = round(time.perf_counter() - t0, 1)
        result["rows"].append(row)
        print_row(name, row)
        cleanup(args.device)
    del base, ref
    cleanup(args.device)
    return result


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


HEADER = (f"{'model':<8} {'contender':<15} {'ms':>8} {'peak GiB':>9} {'loss':>10} "
          f"{'loss rel':>9} {'grad rel':>9} {'logits':>6} {'setup s':>8}")


def print_row(name, row):
    if "error" in row:
        print(f"{name:<8} {row['contender']:<15} FAILED: {row['error'][:200]}", flush=True)
        return
    print(f"{name:<8} {row['contender']:<15} {fmt(row['ms'], '8.2f')} "
          f"{fmt(row['peak_gib'], '9.2f')} {row['loss']:>10.4f} {row['loss_rel_err']:>9.1e} "
          f"{row['grad_rel_err']:>9.1e} {'yes' if row['logits_returned'] else 'no':>6} "
          f"{row['setup_s']:>8.1f}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="llama,gemma2")
    ap.add_argument("--contenders", default=",".join(CONTENDERS))
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--seq", type=int, default=4096)
    ap.add_argument("--set", action="append", default=[], metavar="MODEL.KEY=VALUE",
                    help="config override, e.g. llama.num_hidden_layers=4 (repeatable)")
    ap.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    ap.add_argument("--tiny", action="store_true", help="tiny shapes (a dry run of the script)")
    ap.add_argument("--out", help="write the results as JSON to this path")
    args = ap.parse_args()
    args.contenders = [c.strip() for c in args.contenders.split(",") if c.strip()]
    unknown = [c for c in args.contenders if c.partition(":")[0] not in CONTENDERS
               or (":" in c and not c.startswith("ours/"))]
    if unknown:
        ap.error(f"unknown contenders {unknown}; known: {', '.join(CONTENDERS)}")
    overrides = {}
    for item in args.set:
        key, _, value = item.partition("=")
        model, _, field = key.partition(".")
        if model not in MODELS or not field or not value:
            ap.error(f"--set {item!r}: expected MODEL.KEY=VALUE with MODEL in {list(MODELS)}")
        overrides.setdefault(model, {})[field] = parse_value(value)
    if args.tiny:
        args.batch, args.seq = min(args.batch, 2), min(args.seq, 64)

    import transformers
    env = {"torch": torch.__version__, "transformers": transformers.__version__,
           "python": platform.python_version(), "device": args.device}
    if args.device == "cuda":
        import triton
        env.update(gpu=torch.cuda.get_device_name(), triton=triton.__version__)
    try:
        import liger_kernel  # noqa: F401
        from importlib.metadata import version
        env["liger_kernel"] = version("liger-kernel")
    except Exception as e:  # (its contenders are then left out, said once)
        env["liger_kernel"] = f"unavailable: {type(e).__name__}: {e}"
        args.contenders = [c for c in args.contenders if not c.startswith("liger/")]
    print(json.dumps(env))
    print(f"batch {args.batch} x {args.seq}, bf16; ms: do_bench median of a full step; peak: "
          "above model + inputs; rel: against stock/compile")
    print(HEADER)
    bench = timer(args.device)
    t0 = time.perf_counter()
    results = {"env": env, "models": {}}
    for name in [m.strip() for m in args.models.split(",") if m.strip()]:
        if name not in MODELS:
            ap.error(f"unknown model {name!r}; known: {list(MODELS)}")
        results["models"][name] = run_model(name, args, overrides, bench)
    results["total_s"] = round(time.perf_counter() - t0, 1)
    print(f"total {results['total_s']} s")
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
