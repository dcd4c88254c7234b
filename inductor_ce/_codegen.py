"""Reading Inductor's generated code: how many times the kernels of a graph read a buffer.

A "read" is one load instruction of the buffer's pointer in a kernel body: a pass over the
logits in a reduction loop, or a gather of single elements. Loads that the code generator
deduplicated inside one loop count once, which is what matters for memory traffic.

    loads of the logits = logits_reads(forward_code, vocab_size)

Works on the two code generators Inductor has for our ops: Triton (GPU, or the CPU with
``cpu_backend="triton"``) and C++ (CPU). The C++ generator emits a vectorized body and a
masked tail (``if(C10_UNLIKELY(...))``) for each loop; loads inside the tail are not counted.
Buffers are found by shape: every tensor in the wrapper whose last dimension is the vocabulary
size (pick a vocabulary size no other dimension of the model shares).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_KERNEL_DEF = re.compile(
    r"^(\w+) = async_compile\.(triton|cpp_pybinding)\((.*?)r?'''(.*?)'''", re.S | re.M)
_ALLOC = re.compile(r"^\s*(\w+) = empty_strided\w*\(\(([^()]*)\),")
_INPUT = re.compile(r"^\s*assert_size_stride\((\w+), \(([^()]*)\),")
_ALIAS = re.compile(r"^\s*(\w+) = reinterpret_tensor\((\w+), \(([^()]*)\),")


@dataclass
class Reads:
    """Reads of some buffers in one graph's generated code."""
    loads: int = 0                                    # load instructions in kernels
    kernels: dict = field(default_factory=dict)       # kernel name -> its loads
    extern: list = field(default_factory=list)        # opaque calls that take the buffer

    def __str__(self) -> str:
        s = f"{self.loads} load{'s' * (self.loads != 1)}"
        return s + (f" + extern {', '.join(self.extern)}" if self.extern else "")


def _dims(text: str) -> list[str]:
    return [d.strip() for d in text.split(",") if d.strip()]


def buffers_with_last_dim(code: str, size: int) -> set[str]:
    """Names of the wrapper's tensors (allocated, graph inputs, reinterpreted views) of at
    least two dimensions whose last one is ``size``."""
    names = set()
    for line in code.splitlines():
        for pattern in (_ALLOC, _INPUT):
            m = pattern.match(line)
            if m and len(_dims(m[2])) >= 2 and _dims(m[2])[-1] == str(size):
                names.add(m[1])
        m = _ALIAS.match(line)
        if m and m[2] in names and _dims(m[3])[-1:] == [str(size)]:
            names.add(m[1])
    return names


def _split_args(text: str) -> list[str]:
    """Top-level comma split of a call's argument list."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + ([cur.strip()] if cur.strip() else [])


def _base(arg: str) -> str:
    m = re.match(r"(?:reinterpret_tensor\()?\s*(\w+)", arg)
    return m[1] if m else ""


def _params(kind: str, source: str) -> list[str]:
    m = re.search(r"\bdef \w+\(([^)]*)\)" if kind == "triton" else r"\bkernel\(([^)]*)\)",
                  source)
    return [re.findall(r"\w+", p)[-1] for p in _split_args(m[1])] if m else []


def _count_loads(kind: str, source: str, param: str) -> int:
    if kind == "triton":
        return len(re.findall(rf"tl\.load\(\s*{param}\b", source))
    count, depth, tail_depth = 0, 0, None
    for line in source.splitlines():
        if "C10_UNLIKELY(" in line and tail_depth is None:
            tail_depth = depth
        elif tail_depth is None and re.search(rf"\b{param}\s*(\+|\[)", line) \
                and not re.search(rf"\b{param}\s*\[[^]]*\]\s*=[^=]", line):
            count += 1
        depth += line.count("{") - line.count("}")
        if tail_depth is not None and depth <= tail_depth and "}" in line:
            tail_depth = None
    return count


def count_reads(code: str, buffers: set[str]) -> Reads:
    """Load instructions of ``buffers`` in the kernels ``code`` launches, plus the names of
    other calls (extern kernels, fallback ops) that take one of them as an input."""
    kernels = {m[1]: (m[2], m[4]) for m in _KERNEL_DEF.finditer(code)}
    reads = Reads()
    for line in code.splitlines():
        m = re.match(r"^\s*(?:\w+ = )?([\w.]+?)(?:\.run)?\((.*)\)\s*$", line)
        if not m:
            continue
        args = _split_args(m[2])
        if m[1] in kernels:
            kind, source = kernels[m[1]]
            n = sum(_count_loads(kind, source, p) for p, a in zip(_params(kind, source), args)
                    if _base(a) in buffers and not p.startswith("out_ptr"))
            if n:
                reads.kernels[m[1]] = reads.kernels.get(m[1], 0) + n
                reads.loads += n
        elif m[1] not in ("reinterpret_tensor", "assert_size_stride", "assert_alignment") \
                and any(_base(a) in buffers for a in args if not a.startswith("out=")):
            reads.extern.append(m[1])
    return reads


def logits_reads(code: str, vocab_size: int) -> Reads:
    """Reads of the logits (every tensor whose last dimension is ``vocab_size``)."""
    return count_reads(code, buffers_with_last_dim(code, vocab_size))


def uses_fused_op(code: str) -> bool:
    """Whether the graph runs inductor_ce's forward (lowered or as a fallback call)."""
    return "ce_fwd" in code
