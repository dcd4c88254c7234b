"""The Inductor lowering: structure of the generated code and its numerics.

Triton: Inductor emits Triton kernels for CPU tensors (cpu_backend="triton") and they run in
Triton's interpreter, in one subprocess (tests/_lowering_cases.py; TRITON_INTERPRET must be
set before Triton is imported). The kernel bodies are the ones a GPU gets, up to details.
C++: the default CPU backend, in this process.
"""
from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings

import pytest
import torch

import inductor_ce
from _reference import assert_grad_close, assert_loss_close, reference
from _codegen_checks import _allocated_with_last_dim, _kernels as _codegen_kernels, \
    _logits_kernel
from _lowering_cases import V as VOCAB
from inductor_ce.codegen import reading as _codegen
from inductor_ce import _salt, lowering
from inductor_ce._inductor import cache, capture, ir, launch

HERE = os.path.dirname(os.path.abspath(__file__))
TRITON_CASES = ["plain", "all_options", "small_vocab", "few_rows", "prologue", "strided_3d",
                "dynamic", "lm_head", "many_rows", "wide_index", "even_chunks", "full",
                "full_single"]
EXTRA_CASES = ["column_prologue", "nan_and_inf", "nan_and_inf_many_rows",
               "target_out_of_range", "non_finite", "non_finite_many_rows",
               "non_finite_softcap", "degenerate_shapes", "dynamic_last_batch",
               "ignore_index_edges", "full_inf", "soft", "soft_options", "soft_single",
               "soft_bf16", "soft_subnormal", "soft_collapse", "linear_chunks",
               "linear_classes"]
SOFT_CASES = ["soft", "soft_options", "soft_single", "soft_bf16", "soft_subnormal"]


# The Triton cases need the triton package, which the CPU torch wheel does not pull in (the
# [test] extra does): without it every test of the cases skips with this reason, and the
# tests that need no Triton still run.
TRITON_MISSING = None if importlib.util.find_spec("triton") else (
    "triton is not installed (the CPU torch wheel does not pull it in): "
    "pip install -c .ci/constraints.txt -e \".[test]\"")


# The cases run in two subprocesses at once, the slowest first and spread over both: each
# runs on one core (Triton's interpreter), and pytest waits for them.
_SLOWEST_CASES = ["linear_classes", "many_rows", "dynamic", "degenerate_shapes"]


@pytest.fixture(scope="module")
def cases():
    if TRITON_MISSING:
        pytest.skip(TRITON_MISSING)
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=os.pathsep.join(
        [os.path.dirname(HERE), os.environ.get("PYTHONPATH", "")]))
    names = _SLOWEST_CASES + [n for n in TRITON_CASES + EXTRA_CASES if n not in _SLOWEST_CASES]
    workers = min(2, os.cpu_count() or 1)
    runs = []
    try:
        for i in range(workers):   # (files, not pipes: one's stderr cannot fill while we wait)
            out, err = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")
            runs.append((subprocess.Popen([sys.executable, os.path.join(HERE, "_lowering_cases.py"),
                                           *names[i::workers]], env=env, stdout=out, stderr=err,
                                          text=True), out, err))
        results = {}
        for proc, out, err in runs:
            proc.wait(timeout=1800)
            out.seek(0), err.seek(0)
            assert proc.returncode == 0, err.read()[-5000:]
            results.update(json.loads(out.read()))
        return results
    finally:
        for proc, out, err in runs:
            proc.kill()
            proc.wait()
            out.close(), err.close()


def _case(cases, name):
    case = cases[name]
    assert "error" not in case, case.get("error")
    return case


# --- 1. forward: one pass over the logits in one kernel, plus a gather of one logit per row
#        (the target's), no T x V write ------------------------------------------------------

@pytest.mark.parametrize("name", TRITON_CASES)
def test_forward_reads_the_logits_once(cases, name):
    case = _case(cases, name)
    vocab = case["vocab"]
    src = _logits_kernel(name, case["fwd"], vocab, gather=True)
    assert "for r0_offset" not in src, "not a persistent reduction (a loop re-reads the chunk)"
    # chunk max (the hardware max: _pin_chunk_kernel), sum-exp, in that kernel
    assert "tl.max(" in src and "tl.sum" in src and "exp2" in src
    expected = 1 if name == "lm_head" else 0  # the mm writes the logits; we write nothing
    assert len(_allocated_with_last_dim(case["fwd"], vocab)) == expected


@pytest.mark.parametrize("name", ["plain", "prologue", "strided_3d"])
def test_target_logit_is_a_gather_of_one_element_per_row(cases, name):
    """z_t = s(x[row, t]): one load per row at a column read from the targets, in a kernel
    over the rows only (not the chunk kernel), with a fused prologue applied to it too."""
    case = _case(cases, name)
    reads = _codegen.logits_reads(case["fwd"], case["vocab"])
    (kernel, n), = reads.gathers.items()
    assert n == 1 and kernel not in reads.passes, reads
    src = dict(_codegen_kernels(case["fwd"]))[kernel]
    assert re.search(r"tl\.load\(in_\w*ptr\d+ \+ \(tmp\d+ \+ [^)]*\)", src), src
    if name == "prologue":
        assert "tanh" in src  # the user's softcap, applied to the gathered logit


def test_column_dependent_prologue(cases):
    """x + bias[j] fused into the loads: the pass and the gather both apply bias at their own
    column (the gather at the target's), so the loss and gradient match float64."""
    case = _case(cases, "column_prologue")
    _logits_kernel("column_prologue", case["fwd"], case["vocab"], gather=True)
    assert case["loss_err"] < 1e-5 and case["grad_err"] < 1e-5, case


def test_forward_kernel_carries_every_option(cases):
    src = _logits_kernel("all_options", _case(cases, "all_options")["fwd"], VOCAB, gather=True)
    assert "tanh" in src  # softcap applied to the one load
    assert src.count("tl.sum(") == 2  # sum-exp, label-smoothing sum w_j z_j
    assert src.count("tl.max(") == 1  # chunk max


def test_few_rows_spread_over_chunks(cases):
    """N=1, V=5000: the reading kernel runs over (row, chunk) pairs, ceil(V / CHUNK)
    programs, not 1."""
    code = _case(cases, "few_rows")["fwd"]
    name = next(iter(_codegen.logits_reads(code, 5000).passes))
    args = re.search(rf"{name}\.run\((.*)\)", code)[1]
    xnumel, rnumel = [int(v) for v in re.findall(r"\b\d+\b", args)][-2:]
    assert (xnumel, rnumel) == (-(-5000 // lowering.CHUNK), lowering.CHUNK) and xnumel > 1


def test_small_vocabulary_is_one_kernel(cases):
    code = _case(cases, "small_vocab")["fwd"]
    _logits_kernel("small_vocab", code, 300, gather=True)
    # no second level: no (rows, chunks) partials are allocated (nothing 2-D at all)
    assert not re.findall(r"empty_strided\w*\(\(\w+, \w+", code), code


# --- 2. backward: one pointwise kernel, float32 math, one rounding on store -----------------

def _per_element_lines(body: str) -> list[str]:
    """The assignments of a tiled kernel whose value varies along the columns (x): those
    that read a column index or a value that does."""
    varying, lines = set(), []
    for line in body.splitlines():
        m = re.match(r"\s*(tmp\d+) = (.*)", line)
        names = set(re.findall(r"\b\w+\b", m[2])) if m else set()
        if varying & names or any(re.fullmatch(r"x\d+|xindex", n) for n in names):
            varying.add(m[1])
            lines.append(line.strip())
    return lines


@pytest.mark.parametrize("name", TRITON_CASES)
def test_backward_is_one_kernel(cases, name):
    case = _case(cases, name)
    vocab = case["vocab"]
    src = _logits_kernel(name, case["bwd"], vocab, allow_extern=name == "lm_head")
    assert "def triton_poi_" in src
    body = src[src.index("def triton_poi_"):]
    assert len(re.findall(r"tl\.store\(", body)) == 1
    # One exponential per element. Few rows inline the per-row coefficients (their own
    # exponentials act on [YBLOCK, 1] values: once per row of a block, not per element).
    exps = [line for line in _per_element_lines(body) if "exp" in line]
    assert len(exps) == 1 and "exp2(" in exps[0], exps
    # Low-precision values only at the ends: loaded then upcast, stored with one rounding.
    assert "tl.bfloat16" not in body and "tl.float16" not in body
    # Tiled by rows (y) and columns (x): the per-row values are loaded once per row of a
    # block, masked by the row bound alone, never found as a flat index // V.
    assert f"// {vocab}" not in body, body
    if case.get("rows") != 1:  # one row: the per-row values are scalars
        per_row_load = r"tl\.load\(in_ptr\d+ \+ \((tl\.broadcast_to\()?y[\dy +*]*[,)]"
        assert re.search(per_row_load, body), body


def test_backward_coefficients_inline_only_for_few_rows(cases):
    """Few static rows (<= lowering.FEW_ROWS): the backward lowering inlines the per-row
    coefficients into the gradient's kernel (on the GPU a launch and a buffer fewer per step:
    the CUDA snapshot few_rows.bwd is one kernel). More rows, or a symbolic count: they are
    realized by a kernel over the rows first. The decision is read from the lowering's log
    line; on the CPU Inductor realizes their exponentials either way, so the CPU code alone
    cannot show it."""
    for name, inline in (("plain", True), ("few_rows", True), ("many_rows", False),
                         ("dynamic", False)):
        bwd_lines = [line for line in _case(cases, name)["log"] if line.startswith("ce_bwd")]
        assert bwd_lines, name
        assert all(("per-row coefficients inlined" in line) == inline for line in bwd_lines), \
            (name, bwd_lines)


# --- 3. prologue fusion: cast, temperature, user softcap fuse; bf16 saved for backward ------

def test_prologue_fuses_and_saves_the_bf16_input(cases):
    case = _case(cases, "prologue")
    src = _logits_kernel("prologue", case["fwd"], VOCAB, gather=True)
    assert "tanh" in src and "0.7" in src or "1.428" in src  # temperature and softcap inline
    assert not _allocated_with_last_dim(case["fwd"], VOCAB), "an fp32 copy is saved"
    saved = re.search(r"return \((.*)\)", case["fwd"])[1]
    assert "primals_1" in saved  # the bf16 logits themselves
    assert re.search(r"'in_ptr0': '\*bf16'", case["bwd"])


# --- 4. memory: the gradient overwrites the dead logits (donated buffer) --------------------

def test_lm_head_gradient_reuses_the_logits_storage(cases):
    src = _logits_kernel("lm_head", _case(cases, "lm_head")["bwd"], VOCAB, allow_extern=True)
    assert re.search(r"tl\.load\(in_out_ptr0", src) and re.search(r"tl\.store\(in_out_ptr0",
                                                                   src)


# --- 6. dynamic shapes: rows symbolic (three row counts under error_on_recompile), the
#        vocabulary specialized (constant in the kernels; another V recompiles) -------------

def test_dynamic_rows_compile_once_vocabulary_specialized(cases):
    case = _case(cases, "dynamic")
    logits = [sizes for sizes, _ in _codegen.input_shapes(case["fwd"]).values()
              if len(sizes) == 2]
    assert logits and re.fullmatch(r"s\d+", logits[0][0]) and \
        logits[0][1] == str(case["vocab"]), ("rows symbolic, V a constant", logits)
    other = case["other_vocab"]
    for code, v, fwd in ((case["fwd"], case["vocab"], True), (case["bwd"], case["vocab"], False),
                         (case["fwd_other_vocab"], other, True),
                         (case["bwd_other_vocab"], other, False)):
        src = _logits_kernel("dynamic", code, v, gather=fwd)
        assert not re.search(r"\bks\d+\b", src), "a symbolic size reached the logits' kernel"
        if fwd:  # the chunk kernel's launch is fixed (XBLOCK=1): xmask defined, never used
            assert len(re.findall(r"\bxmask\b", src)) <= 1, "a per-element row-range mask"
    assert case["recompiled_for_other_vocab"]
    assert case["loss_err"] < 1e-5 and case["grad_err"] < 1e-5


def _ce_code_8x5000():
    """(x, forward code, backward code) of ours on bf16[8, 5000], CPU Triton, nothing run."""
    x = torch.empty(8, 5000, dtype=torch.bfloat16, requires_grad=True)
    t = torch.zeros(8, dtype=torch.long)
    fwd, bwd = capture.codegen_only(
        torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t)), x, t,
        triton_on_cpu_tensors=True)
    return x, fwd, bwd


def test_fixed_launch_keeps_the_users_inductor_choices():
    """The chunk kernel's fixed launch goes through Inductor's choices handler: a handler the
    user installed is wrapped, not replaced (it still sees every kernel), and its own kernel
    kwargs stand for every kernel but ours."""
    from torch._inductor.choices import InductorChoices
    from torch._inductor.virtualized import V

    seen = []

    class Recording(InductorChoices):
        def triton_kernel_kwargs(self, kernel_cls, features, groups, kernel_kwargs):
            seen.append(tuple(n.get_name() for n in features.scheduler_nodes()))
            return {**kernel_kwargs, "min_elem_per_thread": 4}  # any visible kwarg

    with V.set_choices_handler(Recording()):
        _, fwd, _ = _ce_code_8x5000()
        assert isinstance(V.choices, launch._PinnedChoices)
        assert isinstance(V.choices._inner, Recording)
    assert len(seen) >= 3, seen  # every forward and backward kernel went through the user's
    kernels = _codegen_kernels(fwd)
    pinned = [n for n, src in kernels.items() if "fixed_config" in src]
    assert len(pinned) == 1 and "ce_fwd" in pinned[0], list(kernels)
    assert "'XBLOCK': 1" in kernels[pinned[0]] and "for r0_offset" not in kernels[pinned[0]]


@pytest.mark.parametrize("rows, vocab, chunk", [
    (65536, 32000, 2048),      # 16 chunks of 2048 are 2^31 elements, every index < 2^31 - 1:
    (16700, 128256, 2048),     # the pinned launch indexes them in int32 (_index_bound)
    (32768, 32000, 2048),      # fits either way
    (16800, 128256, 2048),     # the logits themselves are above 2^31: int64 anyway
    (106522, 20160, 2016),     # padded addresses above 2^31 - 1: 10 chunks of 2016 (rounded to 8)
    (4096, 151936, 2048),
])
def test_chunk_length_keeps_int32_indexing_where_the_logits_allow(monkeypatch, rows, vocab,
                                                                  chunk):
    """(Static sizes: Inductor's own test, which needs a graph being lowered, is then a
    comparison with 2^31 - 1.)"""
    import sympy
    monkeypatch.setattr(ir, "fits_in_int32", lambda expr: int(expr) <= 2**31 - 1)
    assert lowering._chunk_length([sympy.Integer(rows)], vocab) == chunk


def test_chunk_kernel_in_int32_where_only_its_padded_range_exceeds_it():
    """65536 x 32000: 16 chunks of 2048 are 2^31 elements, so Inductor would index the chunk
    kernel in int64, though its largest address is 65536 x 32000 + 768 - 1; the pinned
    launch indexes it in int32 (one chunk length for every shape, no per-element mask of a
    2000-column chunk in a 2048 block). Code generation only (the tensor is not touched)."""
    from inductor_ce.codegen.cli import generate
    fwd, _ = generate(65536, 32000, torch.bfloat16, "cpu", "triton")
    pinned = [src for n, src in _codegen_kernels(fwd).items() if "fixed_config" in src]
    assert len(pinned) == 1
    assert "r0_numel = 2048" in pinned[0] and "'xnumel': 'i32'" in pinned[0], pinned[0]
    assert "xindex = tl.full([1], xoffset, tl.int32)" in pinned[0]


def test_hardware_max_is_the_chunk_kernels_only():
    """The chunk kernel's max is Triton's tl.max (one instruction); every other max reduction,
    ours (the combine) or a user's compiled in the same process, keeps Inductor's
    NaN-propagating max2."""
    x, fwd, _ = _ce_code_8x5000()
    kernels = _codegen_kernels(fwd)
    with_max = {n: "tl.max(" in src for n, src in kernels.items()
                if "tl.max(" in src or "max2(" in src}
    assert sorted(with_max.values()) == [False, True], with_max  # chunk: tl.max; combine: max2
    assert next(n for n, plain in with_max.items() if plain) in \
        [n for n, src in kernels.items() if "fixed_config" in src]
    user, = capture.codegen_only(torch.compile(lambda x: x.float().amax(-1)), x.detach(),
                                 triton_on_cpu_tensors=True)
    assert "max2(" in user and "tl.max(" not in user


def test_row_column_tiling_is_the_backward_kernels_only():
    """The backward kernel is tiled by rows and columns; a user's pointwise kernel over a
    (rows, V) tensor, compiled in the same process, keeps Inductor's flat tiling."""
    x, _, bwd = _ce_code_8x5000()
    assert any("ce_bwd" in n and "yindex" in src for n, src in _codegen_kernels(bwd).items())
    r = torch.empty(8)  # a per-row factor: the pattern our backward has
    user, = capture.codegen_only(torch.compile(lambda x, r: x.float() * r[:, None]),
                                 x.detach(), r, triton_on_cpu_tensors=True)
    assert "xindex // 5000" in user and "yindex" not in user, user


# --- 9. numerics of the generated Triton code against float64 -------------------------------

@pytest.mark.parametrize("name", TRITON_CASES)
def test_triton_numerics(cases, name):
    case = _case(cases, name)
    assert case["loss_err"] < 1e-5
    dtype = case["grad_dtype"]
    if dtype == "torch.float32":
        assert case["grad_err"] < 1e-5
    elif dtype == "torch.float16":
        assert case["grad_ulps"] <= 0.5  # float32 math, one correct rounding
    else:
        # bfloat16: Triton's interpreter truncates float32 -> bfloat16 on store (a GPU rounds
        # to nearest), so one ulp here; tests/GPU.md records the GPU's half ulp.
        assert case["grad_ulps"] <= 1.0


def test_full_form_with_minus_inf_logits(cases):
    """The entropy's per-chunk gap sum e_j (m_c - z_j) clamps m_c - z_j (+inf at a -inf
    logit, where e_j = 0) with an int32 min of its bits: finite and exact entropies for
    scattered -inf logits, a row without non-target mass, chunks without mass. The
    backward's q (a + e (lse_nt - z)) clamps lse_nt - z the same way: a finite gradient,
    0 at the -inf logits; with inlined and with realized per-row coefficients."""
    case = _case(cases, "full_inf")
    for sfx in ("", "_many_rows"):
        assert case["finite" + sfx] and case["accuracy_match" + sfx]
        assert case["loss_err" + sfx] < 1e-5 and case["entropy_err" + sfx] < 1e-5
        assert case["grad_finite" + sfx] and case["ref_grad_finite" + sfx]
        assert case["grad_zero_at_minus_inf" + sfx] and case["grad_err" + sfx] < 1e-5


@pytest.mark.parametrize("name", ["nan_and_inf", "nan_and_inf_many_rows"])
def test_nan_logits_give_nan_rows_and_minus_inf_chunks_no_mass(cases, name):
    """The chunk kernel's max is the hardware's, which may ignore a nan: the nan must still
    reach that row's loss and gradient (as in F.cross_entropy), and only that row's; with
    either form of the chunk partials (few rows: each chunk's logsumexp; more: max, sum-exp)."""
    case = _case(cases, name)
    fwd_log = [line for line in case["log"] if line.startswith("ce_fwd")]
    assert fwd_log and all(("one partial per chunk" in line) == (name == "nan_and_inf")
                           for line in fwd_log), fwd_log
    assert case["loss_nans_match"] and case["grad_nans_match"]
    assert case["loss_err"] < 1e-5 and case["grad_err"] < 1e-5


@pytest.mark.parametrize("name", ["non_finite", "non_finite_many_rows",
                                  "non_finite_softcap"])
def test_non_finite_logits_as_eager(cases, name):
    """+inf, nan and -inf logits in both chunks (tests/test_reliability.py's rows): the
    Triton kernels give eager's nan/inf pattern, which is F.cross_entropy's, in the loss,
    the lse and the gradient, and its finite values; a row with a +inf or nan logit is nan
    throughout its gradient (GradScaler reads that as an overflow), unless softcapped."""
    case = _case(cases, name)
    for what in ("loss", "lse", "grad"):
        assert case[f"{what}_pattern_matches"], (what, case)
        assert case[f"{what}_err"] < 1e-5, (what, case)
    nan_rows = [i for i, nan in enumerate(case["grad_nan_rows"]) if nan]
    assert nan_rows == ([2, 3, 9] if name == "non_finite_softcap"
                        else [0, 1, 2, 3, 6, 7, 8, 9, 13, 14]), nan_rows


def test_degenerate_shapes_compile(cases):
    """One row, 1-D input, V = 1 (the chunk reduction over one element is a pointwise node,
    not pinned), no rows: forward and backward, and the forward alone, match float64."""
    case = _case(cases, "degenerate_shapes")
    assert len(case) == 4 and max(case.values()) < 1e-5, case
    case = _case(cases, "dynamic_last_batch")
    assert case["err"] < 1e-5, case


def test_ignore_index_at_the_target_dtype_edges(cases):
    errs = _case(cases, "ignore_index_edges")["errs"]
    assert len(errs) == 3 and max(errs.values()) < 1e-5, errs


def test_target_range_is_asserted_in_the_rows_kernel(cases):
    """The op's contract (every target in [0, V) or ignore_index) costs no launch: the
    forward's kernels are the chunk kernel and one kernel over the rows, which also holds the
    per-row assert; its lanes past the last row are exempt (they load no target)."""
    case = _case(cases, "target_out_of_range")
    assert case["raised"] and "target out of range" in case["raised"], case["raised"]
    kernels = _codegen_kernels(case["fwd"])
    asserting = [name for name, src in kernels.items() if "tl.device_assert" in src]
    assert len(kernels) == 2 and len(asserting) == 1, list(kernels)
    src = kernels[asserting[0]]
    assert src.count("tl.device_assert") == 1 and "tl.store" in src
    # (torch <= 2.12 binds the row index without the cast: `tmpN = x0`.)
    row = re.search(r"(tmp\d+) = (?:\(x0\)\.to\(tl.int\d+\)|x0)$", src, re.M)
    rows = re.search(r"(tmp\d+) = tl.full\(\[1, 1\], 5, tl.int64\)", src)  # 5 rows
    assert row and rows and f"= {row[1]} >= {rows[1]}\n" in src, src


# --- 5. the C++ backend ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.bfloat16])
def test_cpp_backend(dtype):
    gen = torch.Generator().manual_seed(11)
    V = 700
    x = (torch.randn(2, 3, V, generator=gen) * 3).to(dtype).requires_grad_()
    t = torch.randint(0, V, (2, 3), generator=gen)
    t[0, 1] = 5
    w = torch.rand(V, generator=gen) + 0.5
    opts = dict(weight=w, ignore_index=5, label_smoothing=0.1, z_loss=1e-3, softcap=15.0)
    torch._dynamo.reset()
    fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, reduction="none", **opts),
                       fullgraph=True)
    g = torch.randn(2, 3, generator=gen)
    from torch._inductor.utils import run_and_get_code

    def step():
        loss = fn(x, t)
        (loss * g).sum().backward()
        return loss
    loss, (fwd, bwd) = run_and_get_code(step)
    xr = x.detach().double().requires_grad_()
    ref = reference(xr, t, reduction="none", **opts)
    (ref * g.double()).sum().backward()
    assert_loss_close(loss, ref)
    assert_grad_close(x.grad, xr.grad)  # float32 math, one correct rounding to bf16
    for code in (fwd, bwd):  # lowered into C++ kernels, not called as an opaque op
        assert "cpp_fused" in code and "torch.ops.inductor_ce" not in code
    assert "ce_fwd" in fwd and "ce_bwd" in bwd


# --- 7. cache safety ---------------------------------------------------------------------------

def test_changed_lowering_misses_the_cache(monkeypatch):
    from torch._dynamo.utils import counters
    import torch._inductor.config as inductor_config
    from torch._inductor import utils as inductor_utils

    fresh_cache = getattr(inductor_utils, "fresh_cache", None) or \
        inductor_utils.fresh_inductor_cache
    calls = []

    class UserPass(torch._inductor.custom_graph_pass.CustomGraphPass):
        def __call__(self, graph):
            calls.append(graph)

        def uuid(self):
            return "user-pass-v1"

    x, t = torch.randn(4, 300), torch.randint(0, 300, (4,))

    def compile_and_run():
        torch._dynamo.reset()
        counters.clear()
        torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t))(x, t)
        return (counters["inductor"]["fxgraph_cache_hit"],
                counters["inductor"]["fxgraph_cache_miss"])

    with fresh_cache(), inductor_config.patch(fx_graph_cache=True, fx_graph_remote_cache=False,
                                              force_disable_caches=False):
        # A pass the user installs after importing inductor_ce keeps its slot and still runs.
        monkeypatch.setattr(inductor_config, "post_grad_custom_post_pass", UserPass())
        hits, misses = compile_and_run()
        assert misses >= 1 and hits == 0
        assert calls, "the user's pass did not run"
        slot = inductor_config.post_grad_custom_post_pass
        assert isinstance(slot, cache.SaltPass) and isinstance(slot.inner, UserPass)
        assert compile_and_run()[0] >= 1, "an unchanged graph should hit the cache"
        monkeypatch.setattr(lowering, "SALT", "a-changed-lowering")
        hits, misses = compile_and_run()
        assert hits == 0 and misses >= 1, "a changed lowering reused a cached graph"


def test_salt_covers_every_autograd_formula():
    """AOTAutograd traces our custom ops' registered backward functions after Dynamo, so a
    cached compile does not see them change: every module of the package that registers one
    is part of the cache salt (a stale compiled backward is a wrong gradient)."""
    root = os.path.dirname(inductor_ce.__file__)
    salted = set(_salt.files())
    registering = set()
    for folder, _, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            if name.endswith(".py") and ".register_autograd(" in open(path).read():
                registering.add(os.path.relpath(path, root))
    assert registering and registering <= salted, registering - salted


# --- 8. versions: without the private API the ops fall back, with one warning ----------------

def test_missing_inductor_api_falls_back_with_one_warning(monkeypatch):
    monkeypatch.setattr(ir, "AVAILABLE", False)
    monkeypatch.setattr(ir, "MISSING", ["torch._inductor.ir.Reduction"])
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert lowering.register() is False
    assert len(seen) == 1 and "decomposition" in str(seen[0].message)
    assert "torch._inductor.ir.Reduction" in str(seen[0].message)


# --- probability targets: soft_stats' lowering ---------------------------------------------

@pytest.mark.parametrize("name", SOFT_CASES)
def test_soft_targets_forward_reads_logits_and_targets_once(cases, name):
    """One persistent kernel reads the logits and the targets once each (and the weights);
    the rest works on per-(row, chunk) partials."""
    case = _case(cases, name)
    reads = _codegen.logits_reads(case["fwd"], case["vocab"])
    (kernel, n), = reads.passes.items()
    assert n == 2 and not reads.gathers, reads
    src = dict(_codegen_kernels(case["fwd"]))[kernel]
    assert "for r0_offset" not in src and "tl.max(" in src, src
    assert any("soft_stats lowered" in line and
               ("single pass" if name == "soft_single" else "two-level split") in line
               for line in case["log"]), case["log"]


@pytest.mark.parametrize("name", SOFT_CASES)
def test_soft_targets_numerics(cases, name):
    """Loss (+ lse), the logits' and the targets' gradients against float64: ties for the
    max across chunks, a chunk of -inf logits without mass, every option."""
    case = _case(cases, name)
    assert case["loss_err"] < 1e-5 and case["target_grad_err"] < 1e-5, case
    assert case["target_grad_inf"], case
    if case["grad_dtype"] == "torch.float32":
        assert case["grad_err"] < 1e-5, case
    elif case["grad_dtype"] == "torch.float16":
        assert case["grad_ulps"] <= 0.5, case   # one correct rounding
    else:   # bfloat16: the interpreter truncates on store, as in test_triton_numerics
        assert case["grad_ulps"] <= 1.0, case


def test_soft_targets_collapse_grid(cases):
    """Margins 0-80 over 16 chunks: the loss, the dominant class's gradient (never 0) and
    every other gradient within 1e-5 relative of float64."""
    case = _case(cases, "soft_collapse")
    assert case["top_grad_nonzero"], case
    assert case["loss_rel"] < 1e-5 and case["top_grad_rel"] < 1e-5, case
    assert case["grad_rel"] < 1e-5, case


def test_linear_chunk_graph_in_triton(cases):
    """The fused head's scalar loss, each row chunk's statistics, finish and gradient over
    its logits as one compiled graph whose Triton code (a GPU's, run by the interpreter)
    reads the logits before writing dz over them: every option, three chunks, against
    float64; one compile for the chunks and one for the gradients' scaling."""
    case = _case(cases, "linear_chunks")
    assert case["loss_err"] < 1e-5, case
    assert max(case["dh_err"], case["dw_err"], case["db_err"]) < 1e-5, case
    assert case["compiles"] == 2, case


def test_linear_class_chunks_in_triton(cases):
    """The fused head by class chunks, the statistics of each chunk combined into its
    block's running values by one compiled graph, and ce_bwd over each recomputed chunk,
    their Triton code (a GPU's, run by the interpreter): masked classes, every option, blocks
    and chunks ragged, the mean loss and per-row losses against float64."""
    case = _case(cases, "linear_classes")
    for reduction in ("mean", "none"):
        assert case[f"{reduction}_loss_err"] < 1e-5, case
        assert max(case[f"{reduction}_{g}_err"] for g in ("dh", "dw", "db")) < 1e-5, case


@pytest.mark.parametrize("name", SOFT_CASES)
def test_soft_targets_argmax_by_gap_bits_only_of_loaded_logits(cases, name):
    """The chunk kernel finds its argmax by the bits of g = m_c - z_j only where z_j is the
    loaded logit: where z_j is a product (softcap), the GPU's compiler fuses the subtraction
    into it (an FMA), g at the max is a rounding residual and no column would be the argmax.
    The interpreter rounds every product, so the values cannot show it here (the GPU test
    test_probability_targets_against_float64 does): the code's form must."""
    case = _case(cases, name)
    reads = _codegen.logits_reads(case["fwd"], case["vocab"])
    (kernel, _), = reads.passes.items()
    src = dict(_codegen_kernels(case["fwd"]))[kernel]
    # the key's mask: 0x7FFFFFFF less the column bits, 2147481600 for 2048-column chunks
    # (not 2147483647 = 0x7FFFFFFF, the int32 min's start)
    by_bits = any(k != "2147483647" for k in re.findall(r"\b214748\d{4}\b", src))
    assert by_bits != (name == "soft_options"), (name, src)   # (the softcapped case)
