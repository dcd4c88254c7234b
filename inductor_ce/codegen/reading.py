"""Reading Inductor's generated code: how many times the kernels of a graph read a buffer.

A "read" is one load instruction of the buffer's pointer in a kernel body: a pass over the
logits in a reduction loop, or a gather of single elements (a load whose index depends on
loaded data, e.g. the target logit of each row: one element per row, no pass). Loads that the
code generator deduplicated inside one loop count once, which is what matters for memory
traffic.

    loads of the logits = logits_reads(forward_code, vocab_size)

Works on the two code generators Inductor has for our ops: Triton (GPU, or the CPU with
``cpu_backend="triton"``) and C++ (CPU). The C++ generator emits a vectorized body and a
masked tail (``if(C10_UNLIKELY(...))``) for each loop; loads inside the tail are not counted.
Buffers are found by shape: every tensor in the wrapper whose last dimension is the vocabulary
size and contiguous (pick a vocabulary size no other dimension of the model shares).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_KERNEL_DEF = re.compile(
    r"^(\w+) = async_compile\.(triton|cpp_pybinding)\((.*?)r?'''(.*?)'''", re.S | re.M)
_SHAPE = r"\(([^()]*)\), \(([^()]*)\)"         # (sizes), (strides)
_ALLOC = re.compile(r"^\s*(\w+) = empty_strided\w*\(" + _SHAPE)
_INPUT = re.compile(r"^\s*assert_size_stride\((\w+), " + _SHAPE)
_INPUTS = re.compile(r"^\s*assert_size_stride_grouped\((.*)\)\s*$")
_ALIAS = re.compile(r"^\s*(\w+) = reinterpret_tensor\((\w+), " + _SHAPE)


@dataclass
class Reads:
    """Reads of some buffers in one graph's generated code."""
    loads: int = 0                                    # load instructions in kernels
    kernels: dict = field(default_factory=dict)       # kernel name -> its loads
    extern: list = field(default_factory=list)        # opaque calls that take the buffer
    gathers: dict = field(default_factory=dict)       # kernel name -> its gather loads

    @property
    def passes(self) -> dict:
        """kernel name -> its loads that are not gathers (passes over the buffer)."""
        return {k: n - self.gathers.get(k, 0) for k, n in self.kernels.items()
                if n > self.gathers.get(k, 0)}

    def __str__(self) -> str:
        g = sum(self.gathers.values())
        p = self.loads - g
        s = f"{p} pass{'es' * (p != 1)}" + (f" + {g} per-row gather{'s' * (g != 1)}" if g else "")
        return s + (f" + extern {', '.join(self.extern)}" if self.extern else "")


def _dims(text: str) -> list[str]:
    return [d.strip() for d in text.split(",") if d.strip()]


def _rows_of(sizes: str, strides: str, size: int) -> bool:
    """At least two dims, the last one ``size`` and contiguous: rows of logits, not, say, a
    transposed (d, V) copy of the LM-head weight."""
    sizes, strides = _dims(sizes), _dims(strides)
    return len(sizes) >= 2 and sizes[-1] == str(size) and strides[-1:] == ["1"]


def _asserted(line: str) -> list[tuple[str, str, str]]:
    """(name, sizes, strides) of each graph input whose shape a wrapper line asserts. torch
    2.14 asserts all of them in one call, ``assert_size_stride_grouped((a, b), ((sizes of
    a), (sizes of b)), ((strides of a), (strides of b)), 'input')``, where earlier versions
    write one ``assert_size_stride(a, (sizes), (strides), 'input')`` per input."""
    m = _INPUT.match(line)
    if m:
        return [(m[1], m[2], m[3])]
    m = _INPUTS.match(line)
    if not m:
        return []
    names, sizes, strides = (_split_args(a[1:-1]) for a in _split_args(m[1])[:3])
    return [(n, sz[1:-1], st[1:-1]) for n, sz, st in zip(names, sizes, strides)]


def input_shapes(code: str) -> dict[str, tuple[list[str], list[str]]]:
    """name -> (sizes, strides) of the graph inputs the wrapper asserts, in its order."""
    return {name: (_dims(sizes), _dims(strides))
            for line in code.splitlines() for name, sizes, strides in _asserted(line)}


def buffers_with_last_dim(code: str, size: int) -> set[str]:
    """Names of the wrapper's tensors (allocated, graph inputs, reinterpreted views) of at
    least two dimensions whose last one is ``size``, with stride 1."""
    names = set()
    for line in code.splitlines():
        m = _ALLOC.match(line)
        for name, sizes, strides in [m.groups()] if m else _asserted(line):
            if _rows_of(sizes, strides, size):
                names.add(name)
        m = _ALIAS.match(line)
        if m and m[2] in names and _rows_of(m[3], m[4], size):
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


_GATHER = re.compile(r"\btmp\d+")  # an index computed from loaded data
_NOT_CALLS = ("reinterpret_tensor", "assert_size_stride", "assert_size_stride_grouped",
              "assert_alignment")


def _calls(code: str, wrapper: str | None = None):
    """(callee, its arguments, (kind, source) of the generated kernel or None) for each call
    line of the wrapper (``wrapper``: the part of ``code`` to scan, default all of it)."""
    kernels = {m[1]: (m[2], m[4]) for m in _KERNEL_DEF.finditer(code)}
    for line in (code if wrapper is None else wrapper).splitlines():
        m = re.match(r"^\s*(?:\w+ = )?([\w.]+?)(?:\.run)?\((.*)\)\s*$", line)
        if m and m[1] not in _NOT_CALLS:
            yield m[1], _split_args(m[2]), kernels.get(m[1])


def _cpp_body_lines(source: str):
    """A C++ kernel's lines outside the masked tails (``if(C10_UNLIKELY(...)) { ... }``),
    which handle the leftover elements of the same loop: their accesses are not counted."""
    depth, tail_depth = 0, None
    for line in source.splitlines():
        if "C10_UNLIKELY(" in line and tail_depth is None:
            tail_depth = depth
        elif tail_depth is None:
            yield line
        depth += line.count("{") - line.count("}")
        if tail_depth is not None and depth <= tail_depth and "}" in line:
            tail_depth = None


def _count_loads(kind: str, source: str, param: str) -> tuple[int, int]:
    """(loads, of which gathers) of ``param`` in a kernel's source."""
    if kind == "triton":
        idx = re.findall(rf"tl\.load\(\s*{param}\b([^,]*)", source)
        return len(idx), sum(bool(_GATHER.search(i)) for i in idx)
    count, gathers = 0, 0
    for line in _cpp_body_lines(source):
        m = re.search(rf"\b{param}\s*(\[[^]]*\]|\+ static_cast<\w+>\([^)]*\))", line)
        if m and not re.search(rf"\b{param}\s*\[[^]]*\]\s*=[^=]|\.store\(\s*{param}\b", line):
            count += 1
            gathers += bool(_GATHER.search(m[1]))
    return count, gathers


def count_reads(code: str, buffers: set[str]) -> Reads:
    """Load instructions of ``buffers`` in the kernels ``code`` launches, plus the names of
    other calls (extern kernels, fallback ops) that take one of them as an input."""
    reads = Reads()
    for callee, args, kernel in _calls(code):
        if kernel is not None:
            kind, source = kernel
            counts = [_count_loads(kind, source, p) for p, a in zip(_params(kind, source), args)
                      if _base(a) in buffers and not p.startswith("out_ptr")]
            n, g = sum(c[0] for c in counts), sum(c[1] for c in counts)
            if n:
                reads.kernels[callee] = reads.kernels.get(callee, 0) + n
                reads.loads += n
            if g:
                reads.gathers[callee] = reads.gathers.get(callee, 0) + g
        elif any(_base(a) in buffers for a in args if not a.startswith("out=")):
            reads.extern.append(callee)
    return reads


def logits_reads(code: str, vocab_size: int) -> Reads:
    """Reads of the logits (every tensor whose last dimension is ``vocab_size``)."""
    return count_reads(code, buffers_with_last_dim(code, vocab_size))


def uses_fused_op(code: str) -> bool:
    """Whether the graph runs inductor_ce's forward (lowered or as a fallback call), the
    fused linear + cross-entropy's included."""
    return "ce_fwd" in code or "linear_ce_fast" in code


# --- Structure and normalized text of a graph (codegen_snapshots/, inductor_ce.codegen) -------

_REUSE = re.compile(r"^\s*(\w+) = (\w+); del \2  # reuse", re.M)
_GET_ARG = re.compile(r"^    (\w+) = rand_strided\(" + _SHAPE + r", device='[^']*', "
                      r"dtype=torch\.(\w+)\)", re.M)
_SHORT_DTYPE = {"float32": "f32", "bfloat16": "bf16", "float16": "f16", "float64": "f64",
                "int64": "i64", "int32": "i32", "bool": "b8", "uint8": "u8", "int8": "i8"}
_ITEMSIZE = {"f32": 4, "fp32": 4, "float": 4, "bf16": 2, "BFloat16": 2, "f16": 2, "fp16": 2,
             "Half": 2, "f64": 8, "fp64": 8, "double": 8}


def graph_inputs(code: str) -> dict[str, str]:
    """The graph's arguments as ``name -> "bf16[4096, 128256]"`` (or ``"int"`` for a size),
    read from the ``get_args()`` that Inductor appends to a wrapper (sizes are hints there)."""
    body = code[code.find("def get_args():"):]
    out = {m[1]: f"{_SHORT_DTYPE.get(m[4], m[4])}[{', '.join(_dims(m[2]))}]"
           for m in _GET_ARG.finditer(body)}
    for name in re.findall(r"^    (\w+) = -?\d+$", body, re.M):
        out[name] = "int"
    order = re.search(r"return \[(.*)\]", body)
    return {n: out[n] for n in (order[1].split(", ") if order else out) if n in out}


def logits_buffers(code: str, vocab_size) -> set[str]:
    """Every name a (rows, V) tensor goes by: ``buffers_with_last_dim``, arguments of that
    shape, and the names a ``# reuse`` line gives their storage."""
    names = buffers_with_last_dim(code, vocab_size)
    names |= {m[1] for m in _GET_ARG.finditer(code[code.find("def get_args():"):])
              if _rows_of(m[2], m[3], vocab_size)}
    for new, old in _REUSE.findall(code):
        if old in names:
            names.add(new)
    return names


def _count_stores(kind: str, source: str, param: str) -> int:
    if kind == "triton":
        return len(re.findall(rf"tl\.store\(\s*{param}\b", source))
    return sum(bool(re.search(rf"\.store\(\s*{param}\b|\b{param}\s*\[[^]]*\]\s*=[^=]", line))
               for line in _cpp_body_lines(source))


def _param_dtypes(kind: str, source: str) -> dict[str, str]:
    if kind == "triton":
        m = re.search(r"'signature': \{([^}]*)\}", source)
        return dict(re.findall(r"'(\w+)': '\*?(\w+)'", m[1])) if m else {}
    m = re.search(r"\bkernel\(([^)]*)\)", source)
    return {p.split()[-1]: re.sub(r"^(const )?(at::|c10::)?|\*$", "", p.split()[-2])
            for p in _split_args(m[1])} if m else {}


@dataclass
class Access:
    """One load or store instruction of a (rows, V) tensor in a kernel, or an extern call."""
    kernel: str
    kind: str       # "load" (a pass) | "gather" (one element per row) | "store" | "extern ..."
    dtype: str      # of the element, e.g. "bf16" ("?" for extern calls)

    @property
    def itemsize(self) -> int:
        return _ITEMSIZE.get(self.dtype, 0)


def logits_accesses(code: str, vocab_size) -> list[Access]:
    """Loads and stores of (rows, V) tensors, kernel by kernel in launch order."""
    buffers = logits_buffers(code, vocab_size)
    out = []
    for callee, args, kernel in _calls(code, code[:code.find("def get_args():")]):
        if kernel is not None:
            kind, source = kernel
            dtypes = _param_dtypes(kind, source)
            for p, a in zip(_params(kind, source), args):
                if _base(a) not in buffers:
                    continue
                if not p.startswith("out_ptr"):
                    loads, gathers = _count_loads(kind, source, p)
                    out += [Access(callee, "load", dtypes.get(p, "?"))] * (loads - gathers)
                    out += [Access(callee, "gather", dtypes.get(p, "?"))] * gathers
                out += [Access(callee, "store", dtypes.get(p, "?"))] * \
                    _count_stores(kind, source, p)
        else:
            for a in args:
                if _base(a.removeprefix("out=")) in buffers:
                    out.append(Access(callee, "extern store" if a.startswith("out=")
                                      else "extern load", "?"))
    return out


def launched_kernels(code: str) -> list[str]:
    """Generated kernels in launch order (a kernel launched twice appears twice)."""
    defined = {m[1] for m in _KERNEL_DEF.finditer(code)}
    return [m[1] for m in re.finditer(r"^\s*(\w+)(?:\.run)?\(", code, re.M) if m[1] in defined]


def loops(code: str) -> dict[str, int]:
    """Loops in each kernel's body, kernels without any left out. Triton: a reduction too
    long to be held in registers is a ``for r0_offset`` loop. C++: every loop over an index
    (``for(int64_t x1 ...``: a pass over a dimension), not the helper loops over threads."""
    out = {}
    for m in _KERNEL_DEF.finditer(code):
        body = m[4][m[4].find("@triton.jit"):] if m[2] == "triton" else m[4]
        n = len(re.findall(r"^\s*for \w+ in " if m[2] == "triton" else r"\bfor\(int64_t ",
                           body, re.M))
        if n:
            out[m[1]] = n
    return out


def structure(forward: str, backward: str | None, vocab_size) -> dict:
    """What a reviewer checks first, for a forward (and backward) graph: kernels launched,
    loads and stores of the (rows, V) tensors per kernel, extern calls taking them, loops,
    buffer reuse, and the tensors the forward saves for the backward."""
    def graph(code):
        short = _short_kernel_names(code)
        acc = [Access(short.get(a.kernel, a.kernel), a.kind, a.dtype)
               for a in logits_accesses(code, vocab_size)]
        per = lambda kind: {k: n for k in dict.fromkeys(a.kernel for a in acc)  # noqa: E731
                            if (n := sum(a.kernel == k and a.kind == kind for a in acc))}
        return {"kernels": [short.get(k, k) for k in launched_kernels(code)],
                "logits_loads": per("load"), "logits_gathers": per("gather"),
                "logits_stores": per("store"),
                "extern_calls_on_logits": [f"{a.kernel} ({a.kind.split()[1]})" for a in acc
                                           if a.kind.startswith("extern")],
                "loops": {short.get(k, k): n for k, n in loops(code).items()},
                "reuse": [f"{new} = {old}" for new, old in _REUSE.findall(code)]}
    out = {"forward": graph(forward)}
    if backward is not None:
        out["backward"] = graph(backward)
        out["saved"] = [f"{n}: {t}" for n, t in graph_inputs(backward).items()
                        if not n.startswith("tangents_")]
    return out


def _short_kernel_names(code: str) -> dict[str, str]:
    """Inductor names a kernel after every ATen op fused into it, sorted
    (``triton_red_fused__assert_async__to_copy_all_..._3``): long, and it changes with the
    user's program around our ops. Keep the kind, our op's name, and the unique index."""
    names = {}
    for m in _KERNEL_DEF.finditer(code):
        k = re.match(r"((?:triton_[a-z]+|cpp)_fused)_?(.*?)_?(\d+)$", m[1])
        if k:
            ours = [op for op in ("ce_fwd", "ce_bwd") if op in k[2]]
            names[m[1]] = "_".join([k[1], *ours, k[3]])
    return names


def _renumber_tmps(source: str) -> str:
    """tmpN in order of first appearance (Inductor numbers them in creation order, with
    gaps): an unrelated change renumbers a kernel, not the text around it."""
    order: dict[str, dict] = {"": {}, "_": {}}  # reduction accumulators _tmpN: their own
    return re.sub(r"(?<![A-Za-z0-9])(_?)tmp(\d+)\b", lambda m: "{0}tmp{1}".format(
        m[1], order[m[1]].setdefault(m[2], len(order[m[1]]))), source)


def _call_body(code: str) -> list[str]:
    m = re.search(r"^( *)def call\((?:self, )?args\):\n", code, re.M)
    if not m:
        return []
    lines, indent = [], len(m[1]) + 4
    for line in code[m.end():].splitlines():
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            break
        lines.append(line[indent:])
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _triton_kernel(name: str, source: str) -> str:
    deco = re.search(r"@triton_heuristics\.(\w+)\(", source)
    hints = [f"{k}={v}" for k, v in re.findall(
        r"\b(size_hints|reduction_hint|tile_hint|config)=(\{[^}]*\}|[\w.]+)", source)]
    signature = ", ".join(f"{p}: {t}" for p, t in re.findall(
        r"'(\w+)': '(\*\w+)'", (re.search(r"'signature': \{([^}]*)\}", source) or ["", ""])[1]))
    body = source[source.find("@triton.jit"):].strip()
    head = f"@triton_heuristics.{deco[1] if deco else '?'}({', '.join(hints)})"
    return f"{head}  # {signature}\n{body}"


def _cpp_kernel(name: str, source: str) -> str:
    lines = [line for line in source.strip().splitlines() if not line.startswith("#include")]
    return re.sub(r"\bkernel\(", f"{name}(", "\n".join(lines), count=1)


def normalize(code: str) -> str:
    """A generated module reduced to what a reviewer reads: the wrapper's ``call`` (buffers,
    launches, ``# reuse`` lines, what the graph returns), then each kernel. Dropped: imports
    and boilerplate, comments (kernel paths, source-node lists, graph fragments), streams,
    device properties, inductor_meta and triton_meta except the pointer types, C++ includes;
    kernel names shortened and tmpN renumbered (see codegen_snapshots/README.md)."""
    names = _short_kernel_names(code)
    kernels = [(names.get(m[1], m[1]), m[2], m[4]) for m in _KERNEL_DEF.finditer(code)]
    call = []
    for line in _call_body(code):
        if line.lstrip().startswith("#") or line.strip() == "args.clear()" or \
                re.match(r"\s*\w+ = get_raw_stream\(", line):
            continue
        call.append(re.sub(r", stream=\w+\)", ")", line))
    text = "\n".join(["def call(args):", *("    " + line if line else "" for line in call)])
    for name, kind, source in kernels:
        kernel = _triton_kernel(name, source) if kind == "triton" else _cpp_kernel(name, source)
        text += "\n\n\n" + _renumber_tmps(kernel)
    for old in sorted(names, key=len, reverse=True):
        text = text.replace(old, names[old])
    return text + "\n"
