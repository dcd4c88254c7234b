"""Instructions per element of a generated Triton kernel, without a GPU.

Triton's wheel carries ptxas and nvdisasm, so a kernel from a CUDA codegen snapshot can be
compiled for sm_90 on any machine and its SASS counted. A persistent reduction has no loop,
so the static count over the elements one program handles is what each element costs
(Nsight Compute on the H200 measured 20.1 instructions per element for the forward kernel of
an early snapshot, where this script counted 20.2).

    python benchmarks/sass_count.py codegen_snapshots/torch2.11/cuda/plain.fwd.py \
        triton_unk_fused_ce_fwd_0 --elements 2048 [--warps 1] [--xblock 1]

(the current chunk kernel: 11.2 instructions per element, no spills; 72 registers with
Triton 3.7's ptxas, 79 with Triton 3.9's, from CUDA 13). It also
reads a raw generated module (``python -m inductor_ce.codegen ... --raw``, or a kernel file of
Inductor's cache). Generate with the GPU's torch (2.11): torch 2.13 emits different index
code above 2^31 elements (NOTES run 27). Prints the instruction histogram, the count per
element and ptxas's register and spill figures, so a change to the lowering can be weighed
before spending device time on it (benchmarks/NOTES.md).
"""
from __future__ import annotations

import argparse
import ast
import collections
import importlib.util
import os
import re
import subprocess
import tempfile

import triton
from triton.backends.compiler import GPUTarget

HEADER = """import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math

@triton.jit
"""


def kernel_source(snapshot: str, name: str) -> tuple[str, dict]:
    """(module source with the kernel, its signature) from a normalized CUDA snapshot, whose
    decorator line carries the pointer types as a comment ('# in_ptr0: *bf16, ...')."""
    text = open(snapshot).read()
    m = re.search(rf"^@triton_heuristics\.\w+\([^\n]*?\)  # ([^\n]*)\n@triton\.jit\n(def {name}\(.*?)"
                  r"(?=\n\n\n|\n@triton_heuristics|\Z)", text, re.S | re.M)
    if m is not None:
        types, body = dict(p.split(": ") for p in m[1].split(", ")), m[2]
    else:  # a raw module (inspect --raw, or a kernel file from Inductor's cache)
        # (the signature nearest before the kernel: a module holds several kernels)
        m = re.search(rf"@triton\.jit\n(def {name}\(.*?)(?=''|\n\n\n|\Z)", text, re.S)
        sigs = None if m is None else re.findall(r"'signature': (\{[^}]*\})",
                                                 text[:m.start()])
        if not sigs:
            raise SystemExit(f"kernel {name} not found in {snapshot}")
        types, body = ast.literal_eval(sigs[-1]), m[1]
    params = re.match(r"def \w+\((.*?)\)", body)[1].split(", ")
    sig = {}
    for p in params:
        p = p.split(":")[0].strip()
        sig[p] = types.get(p, "constexpr" if p.isupper() or p.endswith("BLOCK") else "i32")
    return HEADER + body + "\n", sig


def compile_kernel(snapshot: str, name: str, warps: int, xblock: int = 1,
                   yblock: int | None = None):
    """The kernel of the snapshot compiled by Triton for sm_90 (``.asm`` holds its PTX and
    cubin), with every constexpr block size ``xblock`` (``YBLOCK``: ``yblock``)."""
    src, sig = kernel_source(snapshot, name)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "kernel.py")
        open(path, "w").write(src)
        spec = importlib.util.spec_from_file_location("kernel", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        constexprs = {p: yblock if p == "YBLOCK" and yblock is not None else xblock
                      for p, t in sig.items() if t == "constexpr"}
        # Inductor tells Triton that pointers (and 16-divisible sizes) are 16-byte aligned;
        # without that hint the loads are not vectorized and the count is meaningless.
        attrs = {(i,): [["tt.divisibility", 16]] for i, t in enumerate(sig.values())
                 if t.startswith("*")}
        return triton.compile(
            triton.compiler.ASTSource(fn=getattr(module, name), signature=sig,
                                      constexprs=constexprs, attrs=attrs),
            target=GPUTarget("cuda", 90, 32), options={"num_warps": warps, "num_stages": 1})


def _ptxas() -> str:
    """The ptxas Triton compiles sm_90 with (Triton 3.9 picks its newer one there: the other
    cannot read the PTX version it writes)."""
    from triton.backends.nvidia import compiler
    try:
        return compiler.get_ptxas(90).path
    except (AttributeError, TypeError):   # (a Triton without get_ptxas(arch))
        return os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas")


def count(snapshot: str, name: str, elements: int, warps: int, xblock: int,
          yblock: int | None = None):
    compiled = compile_kernel(snapshot, name, warps, xblock, yblock)
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "kernel.cubin")
        open(cubin, "wb").write(compiled.asm["cubin"])
        nvdisasm = os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/nvdisasm")
        sass = subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True).stdout
        # Registers and spills, from ptxas itself (occupancy: 65536 registers per SM).
        ptx = os.path.join(tmp, "kernel.ptx")
        open(ptx, "w").write(compiled.asm["ptx"])
        usage = subprocess.run([_ptxas(), "-v", "--gpu-name", "sm_90a", ptx, "-o", cubin + ".2"],
                               capture_output=True, text=True)
        usage = usage.stdout + usage.stderr
        resources = " ".join(re.findall(r"Used \d+ registers|\d+ bytes spill \w+", usage)) or usage
    ops = re.findall(r"^\s+/\*[0-9a-f]{4}\*/\s+(?:@!?U?P[0-9T] )?([A-Z0-9_]+)", sass, re.M)
    per_thread = elements / (32 * warps)
    return collections.Counter(ops), len(ops) / per_thread, resources


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("snapshot")
    p.add_argument("kernel")
    p.add_argument("--elements", type=int, default=1024, help="elements one program handles")
    p.add_argument("--warps", type=int, default=1)
    p.add_argument("--xblock", type=int, default=1)
    p.add_argument("--yblock", type=int, default=None,
                   help="YBLOCK of a 2-D tiled pointwise kernel (default: --xblock); its "
                        "elements per program are then XBLOCK x YBLOCK")
    args = p.parse_args()
    hist, per_element, resources = count(args.snapshot, args.kernel, args.elements, args.warps,
                                         args.xblock, args.yblock)
    threads_share = args.elements / (32 * args.warps)
    for op, n in hist.most_common():
        print(f"{op:10s} {n:5d}  {n / threads_share:5.2f} per element")
    print(f"total {sum(hist.values())} instructions per thread, {per_element:.1f} per element")
    print(resources)


if __name__ == "__main__":
    main()
