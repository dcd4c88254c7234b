"""Codegen snapshots: the forward and backward code Inductor generates for our ops, reviewed
like source. See codegen_snapshots/README.md for the layout and what normalization strips.

Code generation only: AOTAutograd compiles the backward together with the forward and no kernel is
compiled or run (``_inductor.capture.codegen_only``), so the inputs are uninitialized tensors of
real size and the whole matrix takes seconds per case.

    python -m pytest -q tests/test_codegen_snapshots.py                        # check
    EXPECTTEST_ACCEPT=1 python -m pytest -q tests/test_codegen_snapshots.py    # re-record
    EXPECTTEST_ACCEPT=1 python -m pytest -q -m gpu tests/test_codegen_snapshots.py  # CUDA

For each (backend, case) the structure (kernels, loads and stores of the logits, loops,
buffer reuse, saved tensors) is checked first and fails with sentences; the text then fails
with a unified diff.
"""
from __future__ import annotations

import difflib
import functools
import json
import os

import pytest
import torch

import inductor_ce
from inductor_ce.codegen import reading as _codegen
from inductor_ce._inductor import capture

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "codegen_snapshots")
TORCH = "torch" + ".".join(torch.__version__.split("+")[0].split(".")[:2])
V, N, D, FEW = 128256, 4096, 4096, 8  # Llama 3's vocabulary; no other dimension equals V
WIDE = 16800  # WIDE x V > 2^31 logits: Inductor indexes the kernels in int64
ACCEPT_CMD = "EXPECTTEST_ACCEPT=1 python -m pytest -q {m}tests/test_codegen_snapshots.py"
ce = inductor_ce.cross_entropy


def _logits(device, rows=N):
    # Never read: only the code generator sees these (shapes, dtypes, strides).
    return (torch.empty(rows, V, dtype=torch.bfloat16, device=device, requires_grad=True),
            torch.zeros(rows, dtype=torch.long, device=device))


def _dynamic_rows(device):
    x, t = _logits(device)
    torch._dynamo.mark_dynamic(x, 0)
    torch._dynamo.mark_dynamic(t, 0)
    return x, t


def _lm_head(device):
    h = torch.empty(N, D, dtype=torch.bfloat16, device=device, requires_grad=True)
    w = torch.empty(V, D, dtype=torch.bfloat16, device=device, requires_grad=True)
    return h, w, _logits(device)[1]


# name -> (what the user compiles, its inputs). x: bf16[4096, 128256] unless said otherwise.
CASES = {
    "plain": ("ce(x, t)", lambda x, t: ce(x, t), _logits),
    "ignore_index_smoothing": ("ce(x, t, ignore_index=0, label_smoothing=0.1)",
                               lambda x, t: ce(x, t, ignore_index=0, label_smoothing=0.1),
                               _logits),
    "class_weights": ("ce(x, t, weight=w), w: f32[128256]",
                      lambda x, t, w: ce(x, t, weight=w),
                      lambda device: (*_logits(device), torch.empty(V, device=device))),
    "z_loss": ("ce(x, t, z_loss=1e-4)", lambda x, t: ce(x, t, z_loss=1e-4), _logits),
    "softcap": ("ce(x, t, softcap=30.0)", lambda x, t: ce(x, t, softcap=30.0), _logits),
    "return_lse": ("ce(x, t, return_lse=True)", lambda x, t: ce(x, t, return_lse=True),
                   _logits),
    "prologue": ("ce(x.float() / 0.7, t): a user-written cast and temperature",
                 lambda x, t: ce(x.float() / 0.7, t), _logits),
    "lm_head": ("ce(h @ w.t(), t), h: bf16[4096, 4096], w: bf16[128256, 4096]",
                lambda h, w, t: ce(h @ w.t(), t), _lm_head),
    "dynamic_rows": ("ce(x, t), rows marked dynamic", lambda x, t: ce(x, t), _dynamic_rows),
    "few_rows": ("ce(x, t), x: bf16[8, 128256]", lambda x, t: ce(x, t),
                 lambda device: _logits(device, FEW)),
    "wide_index": ("ce(x, t), x: bf16[16800, 128256], over 2^31 logits", lambda x, t: ce(x, t),
                   lambda device: _logits(device, WIDE)),
    # The fused linear + cross-entropy: opaque ops in the graph (their chunk loops run the
    # eager path's kernels, snapshotted in test_linear_chunk_kernels). A scalar loss: the
    # backward's scaling of the gradients the forward computed. Per-row losses: the backward
    # op recomputing the logits; within 64 MiB (LEAN_BUDGET), at this V 261 rows of logits,
    # still row chunks (class chunks, below 256 rows, are tests/test_linear.py's).
    "linear_fast": ("linear_cross_entropy(h, w, t), h: bf16[4096, 4096], w: bf16[128256, 4096]",
                    lambda h, w, t: inductor_ce.linear_cross_entropy(h, w, t), _lm_head),
    "linear_per_row": ("linear_cross_entropy(h, w, t, reduction='none')",
                       lambda h, w, t: inductor_ce.linear_cross_entropy(h, w, t,
                                                                         reduction="none"),
                       _lm_head),
    "linear_lean": ("linear_cross_entropy(h, w, t, reduction='none', memory_budget=64 MiB)",
                    lambda h, w, t: inductor_ce.linear_cross_entropy(
                        h, w, t, reduction="none", memory_budget=64 << 20), _lm_head),
}
BACKENDS = ["triton", "cpp", pytest.param("cuda", marks=pytest.mark.gpu)]
GRAPHS = {"fwd": "forward", "bwd": "backward"}


def _accept() -> bool:
    return bool(os.environ.get("EXPECTTEST_ACCEPT"))  # expecttest's convention


def _machine(backend) -> str:
    """What the code depends on beyond torch's version, recorded in meta.json."""
    if backend == "cuda":
        return torch.cuda.get_device_name()
    if backend == "cpp":
        return f"C++ for {capture.cpp_vec_isa()}"
    return "Triton for CPU tensors"


@functools.cache
def _generated(backend: str, case: str) -> dict:
    _, fn, inputs = CASES[case]
    device = "cuda" if backend == "cuda" else "cpu"
    compiled = torch.compile(fn, fullgraph=True)
    fwd, bwd = capture.codegen_only(compiled, *inputs(device),
                                    triton_on_cpu_tensors=backend == "triton")
    return {"fwd": fwd, "bwd": bwd}


def _folder(backend) -> str:
    """The snapshot folder; skips when this torch or machine has none (not when accepting)."""
    folder = os.path.join(ROOT, TORCH, backend)
    if _accept():
        os.makedirs(folder, exist_ok=True)
        return folder
    cmd = ACCEPT_CMD.format(m="-m gpu " if backend == "cuda" else "")
    if not os.path.isdir(folder):
        pytest.skip(f"no {backend} codegen snapshots for {TORCH}: record them with `{cmd}`, "
                    f"review codegen_snapshots/{TORCH}/{backend}/ and commit it")
    if not os.path.exists(os.path.join(folder, "meta.json")):
        pytest.fail(f"{folder}/meta.json is missing: re-record with `{cmd}`")
    with open(os.path.join(folder, "meta.json")) as f:
        recorded = json.load(f)["machine"]
    if recorded != _machine(backend):
        pytest.skip(f"the {backend} snapshots of {TORCH} were recorded for {recorded!r}, "
                    f"this machine generates {_machine(backend)!r}")
    return folder


def _compare(path: str, actual: str, describe) -> None:
    """Write ``actual`` when accepting; otherwise fail with ``describe(recorded)``."""
    if _accept():
        with open(path, "w") as f:
            f.write(actual)
        return
    rel = os.path.relpath(path, os.path.dirname(ROOT))
    if not os.path.exists(path):
        pytest.fail(f"{rel} is missing: record it with EXPECTTEST_ACCEPT=1")
    with open(path) as f:
        recorded = f.read()
    if recorded != actual:
        pytest.fail(f"{rel} changed:\n{describe(recorded)}\n"
                    "If the change is intended, re-record with EXPECTTEST_ACCEPT=1 and review "
                    "the diff.", pytrace=False)


def _times(n: int) -> str:
    return {0: "never", 1: "once", 2: "twice"}.get(n, f"{n} times")


def _changes(old: dict, new: dict) -> list[str]:
    """Sentences for what changed between two ``_codegen.structure`` summaries."""
    out = []
    for graph in ("forward", "backward"):
        o, n = old.get(graph, {}), new.get(graph, {})
        for key in sorted(set(o) | set(n)):
            a, b = o.get(key), n.get(key)
            if a == b:
                continue
            if key in ("logits_loads", "logits_gathers", "logits_stores"):
                what = {"logits_loads": "reads the logits",
                        "logits_gathers": "gathers single logits (one per row)",
                        "logits_stores": "writes a (rows, V) tensor"}[key]
                sa, sb = sum((a or {}).values()), sum((b or {}).values())
                out.append(f"{graph} now {what} {_times(sb)} (was {_times(sa)})" if sa != sb
                           else f"{graph} {what} in other kernels: {b} (was {a})")
            elif key == "kernels" and len(a or []) != len(b or []):
                out.append(f"{graph} now launches {len(b or [])} kernels (was {len(a or [])}):"
                           f" {b}")
            else:
                out.append(f"{graph} {key.replace('_', ' ')} changed: {b} (was {a})")
    if old.get("saved") != new.get("saved"):
        gone = [s for s in old.get("saved", []) if s not in new.get("saved", [])]
        added = [s for s in new.get("saved", []) if s not in old.get("saved", [])]
        out.append(f"the forward now saves for the backward: +{added} -{gone}")
    return out


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_structure(backend, case):
    folder = _folder(backend)
    code = _generated(backend, case)
    actual = json.dumps(_codegen.structure(code["fwd"], code["bwd"], V), indent=2) + "\n"

    def describe(recorded):
        return "\n".join(f"  - {s}" for s in _changes(json.loads(recorded), json.loads(actual)))
    _compare(os.path.join(folder, f"{case}.summary.json"), actual, describe)


@pytest.mark.parametrize("graph", GRAPHS)
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_snapshot(backend, case, graph):
    folder = _folder(backend)
    header = f"# {GRAPHS[graph]} of {CASES[case][0]}\n"
    actual = header + _codegen.normalize(_generated(backend, case)[graph])
    name = f"{case}.{graph}.py"

    def describe(recorded):
        return "".join(difflib.unified_diff(recorded.splitlines(True), actual.splitlines(True),
                                            f"recorded/{name}", f"generated/{name}"))
    _compare(os.path.join(folder, name), actual, describe)


# chunking -> (memory_budget of the snapshot: 256 rows of logits (ROWS_MIN at 256, class
# chunks at any D), or 32768 classes of all 300 rows, compiled graphs)
CHUNKINGS = {"rows": (256 * V * 2, 2), "classes": (300 * 32768 * 2, 4)}


@pytest.mark.parametrize("chunking", CHUNKINGS)
def test_linear_chunk_kernels(chunking, monkeypatch):
    """The kernels the fused linear + cross-entropy of a scalar loss runs on its chunks of
    logits (the eager path's compiles: by rows, the chunk's loss and coefficients (ce_fwd and
    the finish, eager_loss.loss_chunk), ce_bwd writing in place, the gradient scaling; by
    classes, ce_fwd of the statistics' chunks, ce_bwd in place and the scaling), C++ for CPU
    tensors: h bf16[300, 16], W bf16[128256, 16], chunks of 256 rows (one compile per kernel,
    rows symbolic) or of classes (the statistics' 2368 classes, sized for a block of 4096
    rows, and the ragged last chunk's V of its own; ce_bwd's classes symbolic). These
    compile and run (a few seconds)."""
    from inductor_ce.eager import kernels as eager
    from torch._inductor.utils import run_and_get_code

    from inductor_ce.linear import plan
    folder = _folder("cpp")
    monkeypatch.setattr(eager, "MODE", "compiled")
    monkeypatch.setattr(eager, "_CACHE", {})
    monkeypatch.setattr(plan, "ROWS_MIN", 256)
    monkeypatch.setattr(plan, "CLASSES_MIN_HIDDEN", 0)     # (class chunks at D = 16)
    g = torch.Generator().manual_seed(0)
    h = torch.randn(300, 16, generator=g).bfloat16().requires_grad_()
    w = torch.randn(V, 16, generator=g).bfloat16().requires_grad_()
    t = torch.randint(0, V, (300,), generator=g)

    budget, graphs = CHUNKINGS[chunking]

    def step():
        inductor_ce.linear_cross_entropy(h, w, t, memory_budget=budget).backward()
    # (With the code generator's machine pinned, as codegen_only pins it: unpinned, the C++
    # would follow this CPU's SIMD width, and the snapshot the machine that recorded it.)
    with capture._pinned_codegen_machine():
        _, codes = run_and_get_code(step)
    assert len(codes) == graphs, len(codes)
    header = (f"# the chunk kernels of linear_cross_entropy(h, w, t, memory_budget={budget}), "
              f"eager, h: bf16[300, 16], w: bf16[128256, 16]\n")
    actual = header + "\n\n".join(f"# --- compiled graph {i}\n" + _codegen.normalize(c)
                                   for i, c in enumerate(codes))
    name = f"linear_{chunking}.chunks.py"

    def describe(recorded):
        return "".join(difflib.unified_diff(recorded.splitlines(True), actual.splitlines(True),
                                            f"recorded/{name}", f"generated/{name}"))
    _compare(os.path.join(folder, name), actual, describe)


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_stray_snapshot_files(backend):
    """Every file in the folder belongs to a case (accepting removes the others)."""
    folder = _folder(backend)
    expected = {"meta.json"} | {f"{c}.summary.json" for c in CASES} | \
        {f"{c}.{g}.py" for c in CASES for g in GRAPHS} | \
        ({f"linear_{c}.chunks.py" for c in CHUNKINGS} if backend == "cpp" else set())
    stray = sorted(set(os.listdir(folder)) - expected)
    if _accept():
        for name in stray:
            os.remove(os.path.join(folder, name))
        meta = {"machine": _machine(backend), "torch": torch.__version__,
                "triton": getattr(__import__("triton"), "__version__", None)
                if backend != "cpp" else None}
        with open(os.path.join(folder, "meta.json"), "w") as f:
            f.write(json.dumps(meta, indent=2) + "\n")
        return
    assert not stray, f"files of no case in {folder}: {stray} (re-record with " \
        "EXPECTTEST_ACCEPT=1 to remove them)"


@pytest.mark.parametrize("backend", BACKENDS)
def test_kernel_names_carry_our_op(backend):
    """``TORCH_LOGS=output_code`` prints the generated module as it is, so our kernels are
    found there by name: the one reading the logits in forward contains ``ce_fwd``, the
    gradient kernel ``ce_bwd``. Needs no recorded snapshot."""
    code = _generated(backend, "plain")
    # "unk": Inductor's category for a kernel with a fixed launch configuration (ours).
    prefix = {"cpp": "cpp_fused", "triton": "triton_unk_fused", "cuda": "triton_unk_fused"}
    for graph, op in (("fwd", "ce_fwd"), ("bwd", "ce_bwd")):
        acc = _codegen.logits_accesses(code[graph], V)
        readers = {a.kernel for a in acc if a.kind == "load"}
        assert readers and all(op in k for k in readers), (graph, readers)
    fwd_reader = next(a.kernel for a in _codegen.logits_accesses(code["fwd"], V))
    assert fwd_reader.startswith(prefix[backend]), fwd_reader
    if backend != "cpp":
        bwd_reader = next(a.kernel for a in _codegen.logits_accesses(code["bwd"], V))
        assert bwd_reader.startswith("triton_poi_fused"), bwd_reader


def test_structure_changes_read_as_sentences():
    old = {"forward": {"kernels": ["k0", "k1"], "logits_loads": {"k0": 1}},
           "backward": {"kernels": ["k2"], "reuse": ["buf4 = mm"]},
           "saved": ["primals_1: bf16[8, 128256]"]}
    new = {"forward": {"kernels": ["k0", "k1"], "logits_loads": {"k0": 1, "k1": 1}},
           "backward": {"kernels": ["k2"], "reuse": []},
           "saved": ["primals_1: bf16[8, 128256]", "div: f32[8, 128256]"]}
    assert _changes(old, new) == [
        "forward now reads the logits twice (was once)",
        "backward reuse changed: [] (was ['buf4 = mm'])",
        "the forward now saves for the backward: +['div: f32[8, 128256]'] -[]"]
