"""Print the kernels torch.compile generates for inductor_ce's loss, and what they move.

    python -m inductor_ce.inspect --rows 4096 --vocab 128256 --dtype bfloat16 \\
        [--softcap 30] [--label-smoothing 0.1] [--z-loss 1e-4] [--backend triton|cpp]

Code generation only (``_inductor.capture.codegen_only``): the backward is generated with the forward,
no kernel is compiled or run, the logits are an uninitialized tensor, so a real model's shape
takes seconds. On a GPU the code is the CUDA Triton code; on a machine without one, Triton
code for the CPU tensors (``--backend triton``, the default: the same kernel bodies up to
details) or the C++ backend's code (``--backend cpp``).

The table counts the traffic of (rows, V) tensors, the only one that matters at this size:
per token, V x element size for each load of the logits or store of the gradient, against
the minimum (forward: one read of the logits; backward: one read and one write).
(Run it as ``python -m``: this module's name shadows the standard library's ``inspect``
for a script run from inside the package directory.)
"""
from __future__ import annotations

import argparse
import sys

import torch

from . import _codegen, cross_entropy
from ._inductor import capture


def generate(rows: int, vocab: int, dtype: torch.dtype, device: str, backend: str,
             **options) -> tuple[str, str]:
    """(forward, backward) generated code of ``cross_entropy(x, t, **options)`` for
    ``x: dtype[rows, vocab]`` on ``device``; nothing runs."""
    x = torch.empty(rows, vocab, dtype=dtype, device=device, requires_grad=True)
    t = torch.zeros(rows, dtype=torch.long, device=device)
    compiled = torch.compile(lambda x, t: cross_entropy(x, t, **options), fullgraph=True)
    fwd, bwd = capture.codegen_only(compiled, x, t, pin_machine=False,
                                    triton_on_cpu_tensors=device == "cpu" and backend == "triton")
    return fwd, bwd


def summary(fwd: str, bwd: str, vocab: int, dtype: torch.dtype) -> str:
    """The table: kernels, loads and stores of (rows, V) tensors, bytes per token."""
    elt = dtype.itemsize
    cols = {"forward": (fwd, vocab * elt), "backward": (bwd, 2 * vocab * elt)}
    rows: dict[str, list[str]] = {k: [] for k in (
        "kernels launched", "kernels touching (rows, V)", "loads of the logits",
        "gathers (1 per row)", "stores of a (rows, V) tensor", "loops in kernels",
        "bytes per token", "minimum bytes per token", "x minimum")}
    for code, minimum in cols.values():
        acc = _codegen.logits_accesses(code, vocab)
        moved = sum((1 if a.kind == "gather" else vocab) * a.itemsize for a in acc
                    if not a.kind.startswith("extern"))
        rows["kernels launched"].append(str(len(_codegen.launched_kernels(code))))
        rows["kernels touching (rows, V)"].append(str(len({a.kernel for a in acc})))
        rows["loads of the logits"].append(str(sum(a.kind == "load" for a in acc)))
        rows["gathers (1 per row)"].append(str(sum(a.kind == "gather" for a in acc)))
        rows["stores of a (rows, V) tensor"].append(str(sum(a.kind == "store" for a in acc)))
        rows["loops in kernels"].append(str(sum(_codegen.loops(code).values())))
        rows["bytes per token"].append(f"{moved:,}")
        rows["minimum bytes per token"].append(f"{minimum:,}")
        rows["x minimum"].append(f"{moved / minimum:.2f}")
    width = max(map(len, rows)) + 2
    lines = [f"{'':{width}}{'forward':>14}{'backward':>14}"]
    lines += [f"{k:{width}}{a:>14}{b:>14}" for k, (a, b) in rows.items()]
    saved = _codegen.structure(fwd, bwd, vocab)["saved"]
    lines += [f"{'saved for backward' if i == 0 else '':{width}}{s}" for i, s in enumerate(saved)]
    return "\n".join(lines)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m inductor_ce.inspect", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=4096, help="tokens (rows of the logits)")
    p.add_argument("--vocab", type=int, default=128256)
    p.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float16", "float32"])
    p.add_argument("--softcap", type=float, default=None)
    p.add_argument("--label-smoothing", type=float, default=0.0)
    p.add_argument("--z-loss", type=float, default=0.0)
    p.add_argument("--ignore-index", type=int, default=-100)
    p.add_argument("--backend", choices=["triton", "cpp"], default="triton",
                   help="on a machine without a GPU: Triton code for the CPU, or C++")
    p.add_argument("--device", choices=["cuda", "cpu"],
                   default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--raw", action="store_true", help="the generated modules, unnormalized")
    p.add_argument("--summary-only", action="store_true", help="only the table")
    args = p.parse_args(argv)
    if args.device == "cuda" and args.backend == "cpp":
        p.error("--backend cpp needs --device cpu")
    dtype = getattr(torch, args.dtype)
    options = dict(softcap=args.softcap, label_smoothing=args.label_smoothing,
                   z_loss=args.z_loss, ignore_index=args.ignore_index)
    fwd, bwd = generate(args.rows, args.vocab, dtype, args.device, args.backend, **options)
    what = (f"inductor_ce.cross_entropy(x, t, {', '.join(f'{k}={v}' for k, v in options.items())})"
            f", x: {args.dtype}[{args.rows}, {args.vocab}] on {args.device}, "
            f"{'CUDA Triton' if args.device == 'cuda' else args.backend} code, "
            f"torch {torch.__version__}")
    out = sys.stdout
    if not args.summary_only:
        for name, code in (("forward", fwd), ("backward", bwd)):
            print(f"{'=' * 30} {name}: {what}\n", file=out)
            print(code if args.raw else _codegen.normalize(code), file=out)
    print(f"{'=' * 30} summary: {what}\n", file=out)
    print(summary(fwd, bwd, args.vocab, dtype), file=out)


if __name__ == "__main__":
    main()
