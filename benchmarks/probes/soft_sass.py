"""Instructions per logit column of the probability-target forward's chunk kernel
(``soft_stats``' lowering), without a GPU: the kernel torch.compile generates for CPU tensors
(``cpu_backend="triton"``), compiled for sm_90 by ``sass_count.py`` (Triton's ptxas and
nvdisasm), with the launch the lowering pins (its chunk and warps).

    python benchmarks/probes/soft_sass.py [--shapes 16384x128256 4096x151936 32768x32000]
        [--dtype bfloat16] [--target-dtype bfloat16] [--modes train nograd] [--ptx] [--hist] [--warps W]

Per shape and mode (``train``: logits requiring grad, so the kernel also writes the backward's
statistics; ``nograd``: the loss alone): SASS instructions per column, PTX instructions per
column (``--ptx``), registers and spills. A persistent reduction has no loop: the count over
one program's columns is what each column costs. Generate with the GPU's torch where the
index code matters (above 2^31 logits, NOTES "Counting instructions without a GPU").
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
import inductor_ce  # noqa: E402
from inductor_ce import lowering, lowering_soft  # noqa: E402
from inductor_ce._inductor import capture  # noqa: E402
import sass_count  # noqa: E402


def generate(rows: int, vocab: int, dtype, target_dtype, train: bool) -> str:
    """The forward module generated for ``cross_entropy(x, p)`` (probability targets)."""
    x = torch.empty(rows, vocab, dtype=dtype, requires_grad=train)
    p = torch.empty(rows, vocab, dtype=target_dtype)

    def step(x, p):
        if train:
            return inductor_ce.cross_entropy(x, p)
        with torch.no_grad():
            return inductor_ce.cross_entropy(x, p)

    compiled = torch.compile(step, fullgraph=True)
    return capture.codegen_only(compiled, x, p, pin_machine=False,
                                triton_on_cpu_tensors=True)[0]


def chunk_kernel(code: str) -> str:
    names = re.findall(r"^def (triton_unk_fused\w*soft_stats\w*)\(", code, re.M)
    if len(names) != 1:
        raise SystemExit(f"expected one pinned soft_stats kernel, found {names}")
    return names[0]


def ptx_count(path: str, name: str, warps: int) -> float:
    """PTX instructions of the kernel (lines ending in ';' that are not declarations)."""
    compiled = sass_count.compile_kernel(path, name, warps)
    body = compiled.asm["ptx"].split("{", 1)[1]
    lines = [ln.strip() for ln in body.splitlines()]
    return sum(1 for ln in lines if ln.endswith(";") and not ln.startswith(
        (".reg", ".loc", ".shared", ".local", "//", ".pragma", ".file", ".section")))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shapes", nargs="*", default=["16384x128256", "4096x151936", "32768x32000"])
    p.add_argument("--dtype", default="bfloat16")
    p.add_argument("--target-dtype", default="bfloat16")
    p.add_argument("--modes", nargs="*", default=["train", "nograd"])
    p.add_argument("--ptx", action="store_true", help="also count PTX instructions")
    p.add_argument("--hist", action="store_true", help="print the SASS histogram")
    p.add_argument("--keep", default=None, help="folder to keep the generated modules in")
    p.add_argument("--warps", type=int, default=None,
                   help="lowering_soft.SOFT_WARPS for this process (default: the package's)")
    args = p.parse_args()
    if args.warps is not None:
        lowering_soft.SOFT_WARPS = args.warps
    dtype, target_dtype = getattr(torch, args.dtype), getattr(torch, args.target_dtype)
    warps = lowering_soft.SOFT_WARPS
    print(f"torch {torch.__version__}, {args.dtype} logits, {args.target_dtype} targets, "
          f"{warps} warps")
    print("| T x V | mode | chunk | SASS / column | PTX / column | registers |\n"
          "|---|---|---|---|---|---|")
    for spec in args.shapes:
        rows, vocab = map(int, spec.split("x"))
        for mode in args.modes:
            code = generate(rows, vocab, dtype, target_dtype, mode == "train")
            name = chunk_kernel(code)
            chunk = int(re.search(rf"def {name}\(.*?r0_numel = (\d+)", code, re.S)[1])
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(args.keep or tmp, f"soft-{spec}-{mode}.py")
                open(path, "w").write(code)
                hist, per_col, resources = sass_count.count(path, name, chunk, warps, 1)
                ptx = (f"{ptx_count(path, name, warps) / (chunk / (32 * warps)):.1f}"
                       if args.ptx else "-")
            print(f"| {spec} | {mode} | {chunk} | {per_col:.1f} | {ptx} | {resources} |",
                  flush=True)
            if args.hist:
                share = chunk / (32 * warps)
                print("    " + ", ".join(f"{op} {n / share:.2f}" for op, n in hist.most_common()))


if __name__ == "__main__":
    main()
