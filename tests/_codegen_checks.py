"""Finding the logits in Inductor's generated code (shared by the lowering and GPU tests)."""
from __future__ import annotations

import re

from inductor_ce.codegen import reading as _codegen


def _kernels(code: str) -> dict[str, str]:
    """Triton kernel name -> source, from a generated module."""
    return {m[1]: m[2] for m in re.finditer(
        r"^(\w+) = async_compile\.triton\('\w+', '''(.*?)'''", code, re.S | re.M)}


def _allocated_with_last_dim(code: str, size: int) -> list[str]:
    return [m[1] for m in re.finditer(r"^\s*(\w+) = empty_strided\w*\(\(([^()]*)\)", code, re.M)
            if [d.strip() for d in m[2].split(",") if d.strip()][-1:] == [str(size)]
            and len([d for d in m[2].split(",") if d.strip()]) >= 2]


def _logits_names(name: str, code: str, vocab) -> set[str]:
    """Names the logits go by in a generated module: buffers whose last dimension is the
    vocabulary (graph inputs that carry a size assert, allocations), plus the saved logits a
    backward receives without an assert: its first tensor input (``mm`` in the LM-head
    step, where the logits are the matmul's output)."""
    names = set(_codegen.buffers_with_last_dim(code, vocab))
    args = re.search(r"def call\(self, args\):\s*\n\s*(.*?) = args", code)[1].split(", ")
    sizes = set(re.findall(r"^\s*s\d+ = (\w+)$", code, re.M))
    tensors = [a for a in args if a not in sizes]
    names.add("mm" if "mm" in tensors else tensors[0])
    if name == "lm_head":
        names.discard("primals_1")  # h, not the logits
    # Buffer reuse renames the storage: "buf3 = mm; del mm  # reuse".
    for new, old in re.findall(r"^\s*(\w+) = (\w+); del \2  # reuse", code, re.M):
        if old in names:
            names.add(new)
    return names


def _logits_kernel(name: str, code: str, vocab, allow_extern: bool = False,
                   gather: bool = False) -> str:
    """The source of the single kernel that makes a pass over the logits (asserting there is
    one, loading them once). ``gather``: the graph also gathers one logit per row (the
    forward's target logit), once; otherwise nothing else reads them. ``allow_extern``: in
    the LM-head backward, the weight-gradient matmul reads the gradient, which then lives in
    the logits' storage under the same buffer name."""
    reads = _codegen.count_reads(code, _logits_names(name, code, vocab))
    assert allow_extern or not reads.extern, f"the logits go to an opaque call: {reads.extern}"
    passes = reads.passes
    assert len(passes) == 1, f"{len(passes)} kernels make a pass over the logits: {reads}"
    kernel, loads = next(iter(passes.items()))
    assert loads == 1, f"{kernel} loads the logits {loads} times"
    assert sum(reads.gathers.values()) == int(gather), f"gathers: {reads.gathers}"
    return _kernels(code)[kernel]
