"""Print the kernels torch.compile generates for inductor_ce's loss, and what they move.

    python -m inductor_ce.codegen --rows 4096 --vocab 128256 --dtype bfloat16 \\
        [--softcap 30] [--label-smoothing 0.1] [--z-loss 1e-4] [--backend triton|cpp]

Code generation only (``_inductor.capture.codegen_only``): the backward is generated with the
forward, no kernel is compiled or run, the logits are an uninitialized tensor, so a real model's
shape takes seconds. On a GPU the code is the CUDA Triton code; on a machine without one, Triton
code for the CPU tensors (``--backend triton``, the default: the same kernel bodies up to details)
or the C++ backend's code (``--backend cpp``).

The table counts the traffic of (rows, V) tensors, the only one that matters at this size:
per token, V x element size for each load of the logits or store of the gradient, against
the minimum (forward: one read of the logits; backward: one read and one write).
"""
from __future__ import annotations

import argparse
import glob
import importlib.metadata
import importlib.util
import os
import sys

# torch and the package's torch-side modules are imported in the functions, after the
# arguments are checked (`python -m inductor_ce.codegen` leaves the package's torch-side
# modules unimported until then: ``inductor_ce._command_line_first``), so that `--help` and
# a bad argument answer at once.


def generate(rows: int, vocab: int, dtype, device: str, backend: str,
             **options) -> tuple[str, str]:
    """(forward, backward) generated code of ``cross_entropy(x, t, **options)`` for
    ``x: dtype[rows, vocab]`` on ``device``; nothing runs."""
    import torch
    from .. import cross_entropy
    from .._inductor import capture

    x = torch.empty(rows, vocab, dtype=dtype, device=device, requires_grad=True)
    t = torch.zeros(rows, dtype=torch.long, device=device)
    compiled = torch.compile(lambda x, t: cross_entropy(x, t, **options), fullgraph=True)
    fwd, bwd = capture.codegen_only(compiled, x, t, pin_machine=False,
                                    triton_on_cpu_tensors=device == "cpu" and backend == "triton")
    return fwd, bwd


def summary(fwd: str, bwd: str, vocab: int, dtype) -> str:
    """The table: kernels, loads and stores of (rows, V) tensors, bytes per token."""
    from . import reading as _codegen

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


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m inductor_ce.codegen", description=__doc__.split(
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
    p.add_argument("--device", choices=["cuda", "cpu"], default=None,
                   help="default: cuda when a CUDA device is present, else cpu")
    p.add_argument("--raw", action="store_true", help="the generated modules, unnormalized")
    p.add_argument("--summary-only", action="store_true", help="only the table")
    return p


def _fail(p: argparse.ArgumentParser, message: str):
    """parser.error's message and exit status 2, without the usage block: one line."""
    p.exit(2, f"{p.prog}: error: {message}\n")


def _have_triton() -> bool:
    return importlib.util.find_spec("triton") is not None


def _no_cuda_device() -> bool:
    """True where no CUDA device can be present, known without importing torch: torch is a
    CPU build, or (Linux) there is no NVIDIA or ROCm device node. False means "maybe"."""
    try:
        version = importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return True
    if version.endswith("+cpu"):
        return True
    if sys.platform.startswith("linux"):
        return not (glob.glob("/dev/nvidia[0-9]*") or os.path.exists("/dev/kfd"))
    return False


# The flag of each option the library's check names first in its message.
_FLAGS = {"label_smoothing": "--label-smoothing", "z_loss": "--z-loss", "softcap": "--softcap",
          "ignore_index": "--ignore-index"}


def _check(p: argparse.ArgumentParser, args) -> None:
    """Reject, in one line, what the loss would reject, before anything is traced (where
    Dynamo would bury our ValueError in its own traceback). First what needs no torch, then
    the library's own option checks (``op/options.py``'s ``check_options``: one copy of the
    rules, and no torch), then the device (torch only where the answer needs it)."""
    for flag, n in (("--rows", args.rows), ("--vocab", args.vocab)):
        if n < 1:
            _fail(p, f"{flag} {n}: must be at least 1 (nothing to inspect)")
        if n >= 2**31:
            _fail(p, f"{flag} {n}: must be below 2^31")
    if args.backend == "triton" and not _have_triton():
        _fail(p, "--backend triton: triton is not installed (pip install triton, or "
                 "--backend cpp)")
    if args.device == "cuda" and args.backend == "cpp":
        _fail(p, "--backend cpp needs --device cpu")
    if args.device == "cuda" and _no_cuda_device():
        _fail(p, "--device cuda: no CUDA device")
    from ..op.options import check_options
    try:
        check_options(args.ignore_index, "mean", args.label_smoothing, args.z_loss,
                      args.softcap)
    except (TypeError, ValueError) as e:
        flag = _FLAGS.get(str(e).split()[0])
        _fail(p, f"{flag}: {e}" if flag else str(e))
    import torch
    from .. import _load
    try:
        _load()     # (the modules: the eager path reads INDUCTOR_CE_EAGER, and checks it)
    except ValueError as e:
        _fail(p, str(e))
    if args.device is None:
        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    elif args.device == "cuda" and not torch.cuda.is_available():
        _fail(p, "--device cuda: no CUDA device")
    try:   # (the logits generate() compiles for; on the CPU only address space is taken)
        torch.empty(args.rows, args.vocab, dtype=getattr(torch, args.dtype), device=args.device)
    except (RuntimeError, MemoryError) as e:
        _fail(p, f"--rows {args.rows} --vocab {args.vocab}: the {args.dtype} logits do not fit "
                 f"on {args.device} ({str(e).splitlines()[0][:120]})")


def main(argv=None) -> None:
    p = _parser()
    args = p.parse_args(argv)
    _check(p, args)
    import torch
    from . import reading as _codegen

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

