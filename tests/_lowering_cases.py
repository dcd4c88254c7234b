"""Compile inductor_ce under Inductor's Triton backend on the CPU, run the generated kernels
in Triton's interpreter, and report code and errors against float64 as JSON.

Run as a subprocess by tests/test_lowering.py: TRITON_INTERPRET=1 must be set before Triton
and Inductor's runtime helpers are imported, which a test process cannot guarantee.

    TRITON_INTERPRET=1 python tests/_lowering_cases.py CASE [CASE ...] > out.json
"""
from __future__ import annotations

import json
import logging
import os
import sys
from unittest import mock

import torch

sys.path.insert(0, os.path.dirname(__file__))
import inductor_ce  # noqa: E402
from _reference import full_reference, reference, softcap64, ulps_error  # noqa: E402
from inductor_ce import lowering  # noqa: E402
from inductor_ce._inductor import cpu_triton, ir  # noqa: E402
from torch._inductor.utils import run_and_get_code  # noqa: E402

V = lowering.CHUNK + 76  # two chunks, the second one ragged: exercises the tail mask


def _rel(a, b):
    a, b = a.double(), b.double()
    if not b.numel():
        return 0.0 if a.shape == b.shape else float("inf")
    return ((a - b).abs().max() / b.abs().max().clamp_min(1e-30)).item()


class _Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def _logged(fn, *args):
    """fn(*args) and the inductor_ce log lines (the lowerings' decisions) it produced."""
    log, lines = logging.getLogger("inductor_ce"), _Lines()
    level = log.level
    log.addHandler(lines)
    log.setLevel(logging.INFO)
    try:
        return fn(*args), lines.lines
    finally:
        log.removeHandler(lines)
        log.setLevel(level)


def _run(fn, x, target, ref_fn, *, dynamic=False):
    """Compile fn, run forward+backward through the interpreter, compare with float64; also
    returns the lowerings' log lines."""
    torch._dynamo.reset()
    x = x.detach().requires_grad_()
    compiled = torch.compile(fn, fullgraph=True, dynamic=dynamic)
    g = None

    def step():
        nonlocal g
        loss = compiled(x, target)
        g = torch.randn_like(loss, dtype=torch.float64) if loss.dim() else None
        (loss if g is None else (loss * g.float()).sum()).backward()
        return loss

    (loss, (fwd, bwd)), log = _logged(run_and_get_code, step)
    xr = x.detach().double().requires_grad_()
    ref = ref_fn(xr, target)
    (ref if g is None else (ref * g).sum()).backward()
    return {"fwd": fwd, "bwd": bwd, "log": log, "loss_err": _rel(loss.detach(), ref.detach()),
            "grad_err": _rel(x.grad, xr.grad), "grad_ulps": ulps_error(x.grad, xr.grad),
            "grad_dtype": str(x.grad.dtype), "vocab": x.shape[-1], "rows": x.shape[:-1].numel()}


def _loss_and_backward(fn, *args):
    loss = fn(*args)
    loss.backward()
    return loss


def _data(n, v=V, dtype=torch.float32, seed=0):
    gen = torch.Generator().manual_seed(seed)
    x = (torch.randn(n, v, generator=gen) * 3).to(dtype)
    t = torch.randint(0, v, (n,), generator=gen)
    return x, t


def case_plain():
    x, t = _data(3)
    return _run(lambda x, t: inductor_ce.cross_entropy(x, t), x, t,
                lambda x, t: reference(x, t))


def case_all_options():
    # float16: the interpreter rounds float32 -> float16 to nearest like a GPU, but truncates
    # float32 -> bfloat16 (triton/runtime/interpreter.py, _convert_float without a rounding
    # mode), which would add an ulp that the GPU does not have.
    x, t = _data(4, dtype=torch.float16, seed=1)
    t[1] = 7  # a non-default ignore_index that is also a valid class
    w = torch.rand(V, generator=torch.Generator().manual_seed(2)) + 0.5
    opts = dict(weight=w, ignore_index=7, label_smoothing=0.1, z_loss=1e-3, softcap=20.0)
    return _run(lambda x, t: inductor_ce.cross_entropy(x, t, reduction="none", **opts), x, t,
                lambda x, t: reference(x, t, reduction="none", **opts))


def case_small_vocab():  # V <= CHUNK: one kernel, no second level
    x, t = _data(5, v=300, seed=3)
    t[0] = -100
    return _run(lambda x, t: inductor_ce.cross_entropy(x, t, label_smoothing=0.2), x, t,
                lambda x, t: reference(x, t, label_smoothing=0.2))


def case_few_rows():  # N=1, V=5000: the work still spreads over chunks
    x, t = _data(1, v=5000, seed=4)
    return _run(lambda x, t: inductor_ce.cross_entropy(x, t, reduction="sum"), x, t,
                lambda x, t: reference(x, t, reduction="sum"))


def case_wide_index():
    """The chunk kernel's form for logits above 2^31 elements (Inductor then indexes in int64):
    the target and tail compares on the column within the chunk against per-program values.
    Forced here on a small input (no int64 indexing), targets in both chunks and on the
    ragged tail's last column, with every option that reads the tail mask."""
    x, t = _data(5, dtype=torch.float16, seed=16)
    t[:] = torch.tensor([0, lowering.CHUNK - 1, lowering.CHUNK, V - 1, 7])
    w = torch.rand(V, generator=torch.Generator().manual_seed(17)) + 0.5
    opts = dict(weight=w, ignore_index=7, label_smoothing=0.1, softcap=20.0)
    with mock.patch.object(ir, "indexed_in_int64", lambda box: True):
        return _run(lambda x, t: inductor_ce.cross_entropy(x, t, reduction="none", **opts), x,
                    t, lambda x, t: reference(x, t, reduction="none", **opts))


def case_even_chunks():
    """The chunk kernel's form where CHUNK-long chunks would be indexed in int64 and the
    logits not (lowering._chunk_length: equal chunks of ceil(V / nc) columns rounded up to 8,
    not a power of two: the reductions mask the block's last lanes). Forced here on a small
    input, targets in both chunks and at their edges, with every option."""
    x, t = _data(5, dtype=torch.float16, seed=18)
    even = lowering._even_chunk(V)
    t[:] = torch.tensor([0, even - 1, even, V - 1, 7])
    w = torch.rand(V, generator=torch.Generator().manual_seed(19)) + 0.5
    opts = dict(weight=w, ignore_index=7, label_smoothing=0.1, softcap=20.0)
    with mock.patch.object(lowering, "_chunk_length", lambda rows, vocab: even):
        return _run(lambda x, t: inductor_ce.cross_entropy(x, t, reduction="none", **opts), x,
                    t, lambda x, t: reference(x, t, reduction="none", **opts))


def case_many_rows():
    """More rows than lowering.FEW_ROWS: the backward's per-row coefficients get a kernel of
    their own (fewer rows inline them into the gradient's kernel)."""
    x, t = _data(lowering.FEW_ROWS + 3, v=40, seed=14)
    t[::5] = -100
    w = torch.rand(40, generator=torch.Generator().manual_seed(15)) + 0.5
    opts = dict(weight=w, label_smoothing=0.1, z_loss=1e-3)
    return _run(lambda x, t: inductor_ce.cross_entropy(x, t, **opts), x, t,
                lambda x, t: reference(x, t, **opts))


def _full_case(n, v, seed, opts):
    """The full form: loss + entropy/2 + accuracy per row (the accuracy adds 0 or 1 to the
    value, so a wrong one shows as a large error), against float64."""
    x, t = _data(n, v=v, seed=seed)
    t[0] = -100
    t[1] = int(x[1].argmax())             # a target that is the largest logit
    full = dict(temperature=0.7, return_entropy=True, return_accuracy=True, **opts)

    def fn(x, t):
        out = inductor_ce.cross_entropy(x, t, reduction="none", **full)
        return out.loss + 0.5 * out.entropy + out.accuracy.float()

    def ref(x, t):
        loss, entropy, accuracy = full_reference(x, t, temperature=0.7, **opts)
        return loss + 0.5 * entropy + accuracy.double()
    return _run(fn, x, t, ref)


def case_full():
    """ce_fwd_full / ce_bwd_full, two chunks (the ragged tail), a temperature and a softcap:
    the entropy's two sums combined across chunks, and its gradient term."""
    return _full_case(4, V, 20, dict(softcap=20.0, z_loss=1e-3))


def case_full_single():
    """The same, V <= CHUNK (one kernel, no second level), with label smoothing."""
    return _full_case(5, 300, 21, dict(label_smoothing=0.1))


def case_full_inf():
    """The full form with -inf logits (the entropy's gap sum clamps m_c - z_j, and the
    backward's gap term lse_nt - z_j, which are +inf there): scattered in both chunks, a row
    whose only finite logit is its target (no non-target mass: entropy 0), a chunk without
    mass, the target in a chunk after one without mass; forward and backward against float64.
    A row with more than lowering.FEW_ROWS rows' lowering too (realized coefficients)."""
    out = _full_inf()
    with mock.patch.object(lowering, "FEW_ROWS", 0):
        many = _full_inf()
    return {**out, **{k + "_many_rows": v for k, v in many.items()}}


def _full_inf():
    x, t = _data(4, seed=22)
    t[:] = 3
    t[0] = 4
    t[3] = lowering.CHUNK + 5
    x[0, ::3] = float("-inf")
    x[1, :] = float("-inf")
    x[1, 3] = 1.0
    x[2, lowering.CHUNK:] = float("-inf")
    x[3, :lowering.CHUNK] = float("-inf")
    full = dict(temperature=0.7, return_entropy=True, return_accuracy=True)
    torch._dynamo.reset()
    fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, reduction="none", **full),
                       fullgraph=True)
    xl = x.detach().requires_grad_()
    out = fn(xl, t)
    gen = torch.Generator().manual_seed(23)
    w_loss, w_ent = torch.randn(4, generator=gen), torch.randn(4, generator=gen)
    ((out.loss * w_loss).sum() + (out.entropy * w_ent).sum()).backward()
    xr = x.detach().double().requires_grad_()
    loss, entropy, accuracy = full_reference(xr, t, temperature=0.7)
    # The reference gradient: float64 autograd gives nan rows through -inf logits, so it
    # differentiates with -1e4 in their place (exp(-1e4 / 0.7 - lse) is 0 in float64: the
    # same loss, and the gradient's limit, 0 there).
    xg = x.detach().double().nan_to_num(neginf=-1e4).requires_grad_()
    loss_g, entropy_g, _ = full_reference(xg, t, temperature=0.7)
    ((loss_g * w_loss.double()).sum() + (entropy_g * w_ent.double()).sum()).backward()
    return {"loss_err": _rel(out.loss.detach(), loss.detach()),
            "entropy_err": _rel(out.entropy.detach(), entropy.detach()),
            "entropy_abs": (out.entropy.detach().double() - entropy.detach()).abs().max().item(),
            "accuracy_match": bool((out.accuracy == accuracy).all()),
            "finite": bool(out.loss.isfinite().all() and out.entropy.isfinite().all()),
            "grad_finite": bool(xl.grad.isfinite().all()),
            "ref_grad_finite": bool(xg.grad.isfinite().all()),
            "grad_err": _rel(xl.grad, xg.grad),
            "grad_zero_at_minus_inf": bool((xl.grad[x == float("-inf")] == 0).all())}


def case_nan_and_inf():
    """A nan logit makes its row's loss and gradient nan, also in a chunk whose other logits
    are all -inf (the chunk max may ignore a nan); a chunk of only -inf holds no mass. Few
    rows: one partial per chunk, its logsumexp."""
    return _nan_and_inf()


def case_nan_and_inf_many_rows():
    """The same with the partials of more than lowering.FEW_ROWS rows, (max, sum-exp) per
    chunk: the lowering is told that 4 rows are many."""
    with mock.patch.object(lowering, "FEW_ROWS", 0):
        return _nan_and_inf()


def _nan_and_inf():
    x, t = _data(4, seed=12)
    t[:] = 3                         # every target in the first chunk
    x[0, 10] = float("nan")          # nan among finite logits
    x[1, lowering.CHUNK:] = float("-inf")
    x[1, V - 1] = float("nan")       # nan in the ragged last chunk, the rest of it -inf
    x[2, lowering.CHUNK:] = float("-inf")  # a chunk without mass, no nan
    torch._dynamo.reset()
    xl = x.detach().requires_grad_()
    fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, reduction="none"),
                       fullgraph=True)
    losses = []
    _, log = _logged(_loss_and_backward, lambda x, t: losses.append(fn(x, t)) or losses[0].sum(),
                     xl, t)
    loss = losses[0]
    xr = x.detach().double().requires_grad_()
    ref = torch.nn.functional.cross_entropy(xr, t, reduction="none")
    ref.sum().backward()
    same_nans = lambda a, b: bool((a.isnan() == b.isnan()).all())  # noqa: E731
    finite = ~ref.isnan()
    return {"log": log, "loss_nans_match": same_nans(loss.detach(), ref.detach()),
            "grad_nans_match": same_nans(xl.grad, xr.grad),
            "loss_err": _rel(loss.detach()[finite], ref.detach()[finite]),
            "grad_err": _rel(xl.grad[finite], xr.grad[finite])}


def case_target_out_of_range():
    """The op asserts its targets in a kernel over the rows: a valid call passes (5 rows, so
    a program of the rows' kernel has masked lanes), one bad target fails. The interpreter
    skips device asserts unless its options say debug, as Inductor's GPU launches do."""
    import dataclasses
    from triton.runtime import interpreter
    builder, options = interpreter.interpreter_builder, interpreter.interpreter_builder.options
    builder.options = dataclasses.replace(options, debug=True)
    try:
        x, t = _data(5, seed=13)
        t[0] = -100
        torch._dynamo.reset()
        f = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, reduction="none"),
                          fullgraph=True)
        _, (fwd,) = run_and_get_code(f, x, t)
        t[3] = V
        try:
            f(x, t)
            raised = None
        except Exception as e:
            raised = f"{type(e).__name__}: {e}"
    finally:
        builder.options = options
    return {"fwd": fwd, "raised": raised}


def case_prologue():
    """A bf16 input upcast, a temperature and a user-written softcap, all fused."""
    x, t = _data(3, dtype=torch.bfloat16, seed=5)

    def fn(x, t):
        z = x.float() / 0.7
        return inductor_ce.cross_entropy(30.0 * torch.tanh(z / 30.0), t)

    def ref(x, t):
        z = x.double() / 0.7
        return reference(30.0 * torch.tanh(z / 30.0), t)
    return _run(fn, x, t, ref)


def case_column_prologue():
    """A per-column prologue (x + bias[j]): the gathered target logit must see bias[t]."""
    x, t = _data(4, seed=9)
    bias = torch.linspace(-3.0, 3.0, V)
    return _run(lambda x, t: inductor_ce.cross_entropy(x + bias, t), x, t,
                lambda x, t: reference(x + bias.double(), t))


def case_strided_3d():
    """logits[:, :-1] of a (B, T, V) tensor: strided rows, no copy."""
    x, _ = _data(2 * 4, seed=6)
    big = x.reshape(2, 4, V)
    t = torch.randint(0, V, (2, 3), generator=torch.Generator().manual_seed(7))
    return _run(lambda x, t: inductor_ce.cross_entropy(x[:, :-1], t), big, t,
                lambda x, t: reference(x[:, :-1], t))


def case_dynamic():
    """dynamic=True: one compile serves several row counts (no recompile); the vocabulary is
    specialized, so another V recompiles (and is exact too)."""
    torch._dynamo.reset()
    fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, label_smoothing=0.1),
                       dynamic=True, fullgraph=True)
    errs, codes, log = [], {}, []

    def one(n, v):
        x, t = _data(n, v, seed=n)
        x.requires_grad_()
        (loss, code), lines = _logged(run_and_get_code, _loss_and_backward, fn, x, t)
        log.extend(lines)
        xr = x.detach().double().requires_grad_()
        ref = reference(xr, t, label_smoothing=0.1)
        ref.backward()
        errs.append((_rel(loss.detach(), ref.detach()), _rel(x.grad, xr.grad)))
        return code

    with torch._dynamo.config.patch(error_on_recompile=True):
        for n in (3, 5, 2):
            codes[V] = one(n, V) or codes.get(V)
    other = one(4, 2304)  # another V recompiles (code comes back only from a fresh compile)
    return {"fwd": codes[V][0], "bwd": codes[V][1], "fwd_other_vocab": other[0] if other else "",
            "bwd_other_vocab": other[1] if other else "", "other_vocab": 2304,
            "recompiled_for_other_vocab": bool(other), "log": log,
            "loss_err": max(e[0] for e in errs), "grad_err": max(e[1] for e in errs),
            "grad_dtype": "torch.float32", "vocab": V}


def case_lm_head():
    """logits = h @ W.T inside the compiled region: the gradient reuses the logits' storage."""
    gen = torch.Generator().manual_seed(8)
    h = torch.randn(6, 16, generator=gen)
    w = (torch.randn(V, 16, generator=gen) * 0.3).requires_grad_()
    t = torch.randint(0, V, (6,), generator=gen)

    def step(h, w, t):
        return inductor_ce.cross_entropy(h @ w.t(), t)

    torch._dynamo.reset()
    compiled = torch.compile(step, fullgraph=True)
    loss, (fwd, bwd) = run_and_get_code(_loss_and_backward, compiled, h, w, t)
    wr = w.detach().double().requires_grad_()
    ref = reference(h.double() @ wr.t(), t)
    ref.backward()
    return {"fwd": fwd, "bwd": bwd, "loss_err": _rel(loss.detach(), ref.detach()),
            "grad_err": _rel(w.grad, wr.grad), "grad_dtype": "torch.float32", "vocab": V}


def _patterns(t):
    return torch.stack([t.isnan(), t.isposinf(), t.isneginf()])


def _non_finite(options):
    """Rows with +inf / nan / -inf logits (test_reliability.NON_FINITE_ROWS, every
    non-finite value once in each of the two chunks): loss, lse and gradient must have
    eager's nan/inf pattern (eager has F.cross_entropy's, tests/test_reliability.py) and its
    finite values."""
    import test_reliability as rel
    wide, t = rel.non_finite_wide_case(V, lowering.CHUNK)
    kw = dict(options)

    def run(fn):
        leaf = wide.clone().requires_grad_()
        loss, lse = fn(leaf, t, reduction="none", return_lse=True, **kw)
        loss.backward(torch.linspace(0.5, 1.5, t.numel()))
        return loss.detach(), lse.detach(), leaf.grad

    torch._dynamo.reset()
    compiled = torch.compile(inductor_ce.cross_entropy, fullgraph=True)
    got, log = _logged(run, compiled)
    eager = run(inductor_ce.cross_entropy)
    out = {"log": log}
    for name, a, b in zip(("loss", "lse", "grad"), got, eager):
        out[f"{name}_pattern_matches"] = bool(torch.equal(_patterns(a), _patterns(b)))
        ok = b.isfinite()
        out[f"{name}_err"] = _rel(a[ok], b[ok])
    out["grad_nan_rows"] = got[2].isnan().all(-1).tolist()
    return out


def case_non_finite():
    """Few rows (one partial per chunk); label smoothing, weights and the z-loss."""
    w = torch.rand(V, generator=torch.Generator().manual_seed(22)) + 0.5
    return _non_finite(dict(label_smoothing=0.1, z_loss=1e-2, weight=w))


def case_non_finite_many_rows():
    """(max, sum-exp) partials per chunk and the backward's own coefficient kernel: the
    lowering is told that these rows are many."""
    from inductor_ce.op import finish as _math
    with mock.patch.object(lowering, "FEW_ROWS", 0), mock.patch.object(_math, "FEW_ROWS", 0):
        return _non_finite({})


def case_non_finite_softcap():
    return _non_finite(dict(softcap=3.0))


def case_degenerate_shapes():
    """One row (2-D, 3-D, 1-D), V = 1 (one and four rows), no rows, a vocabulary of one
    chunk and of two: the losses in one graph, forward and backward, against float64; the
    forward alone (no requires_grad) in another; the 1-D input in graphs of its own, without
    options. (Its per-row values are 0-d tensors, which Inductor passes to a Triton kernel as
    scalars when they are CPU tensors, and the interpreter then fails on a bool scalar or an
    int64 bitwise or: artifacts of CPU tensors, a GPU gets pointers. The C++ backend runs it
    with options in tests/test_reliability.py, the GPU in its gpu-marked tests.)"""
    out = {}
    for key, shapes, kw in (
            ("", [(1, V), (1, 1, V), (4, 1), (1, 1), (0, V), (2, 0, V), (1, 300)],
             dict(z_loss=1e-2)),
            ("_1d", [(V,)], dict())):
        out.update(_degenerate(shapes, key, kw))
    return out


def _degenerate(shapes, key, kw):
    gen = torch.Generator().manual_seed(23)
    xs = [torch.randn(s, generator=gen) * 3 for s in shapes]
    ts = [torch.randint(0, s[-1], s[:-1], generator=gen) for s in shapes]

    def losses(*xs):
        return [inductor_ce.cross_entropy(x, t, reduction="sum", **kw) for x, t in zip(xs, ts)]

    out = {}
    for grad in (True, False):
        torch._dynamo.reset()
        leaves = [x.clone().requires_grad_(grad) for x in xs]
        got = torch.compile(losses, fullgraph=True)(*leaves)
        if grad:
            sum(got).backward()
        errs = []
        for x, t, loss, leaf in zip(xs, ts, got, leaves):
            x64 = x.double().requires_grad_()
            ref = reference(x64, t, reduction="sum", **kw)
            errs.append(_rel(loss.detach(), ref.detach()))
            if grad:
                ref.backward()
                errs.append(_rel(leaf.grad, x64.grad))
        out[("grad" if grad else "forward") + key] = max(errs)
    return out


def case_dynamic_last_batch():
    """dynamic=True, then a last batch of one row, then none (Dynamo specializes 0 and 1:
    compiles of static rows)."""
    torch._dynamo.reset()
    fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, reduction="sum"),
                       dynamic=True, fullgraph=True)
    errs = []
    for n in (3, 5, 1, 0):
        x, t = _data(n, seed=24 + n)
        x.requires_grad_()
        loss = _loss_and_backward(fn, x, t)
        xr = x.detach().double().requires_grad_()
        ref = reference(xr, t, reduction="sum")
        ref.backward()
        errs.append(max(_rel(loss.detach(), ref.detach()), _rel(x.grad, xr.grad)))
    return {"err": max(errs)}


def case_ignore_index_edges():
    """ignore_index outside int32 with int32 targets (2**32 + 3 wraps onto class 3 in an
    int32 compare) ignores nothing, as F.cross_entropy; at the edges of int32 and int64 it
    ignores the rows equal to it."""
    import test_reliability as rel
    errs = {}
    for dtype, ii in ((torch.int32, 2**32 + 3), (torch.int32, 2**31 - 1),
                      (torch.int64, -2**63)):
        x, t = rel.ignore_edge_case(dtype, ii)
        torch._dynamo.reset()
        fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, ignore_index=ii,
                                                                  reduction="none"),
                           fullgraph=True)
        x = x.requires_grad_()
        loss = fn(x, t)
        loss.sum().backward()
        xr = x.detach().double().requires_grad_()
        ref = torch.nn.functional.cross_entropy(xr, t.long(), ignore_index=ii,
                                                reduction="none")
        ref.sum().backward()
        errs[f"{dtype} {ii}"] = max(_rel(loss.detach(), ref.detach()), _rel(x.grad, xr.grad))
    return {"errs": errs}


def _soft_data(n, v, dtype=torch.float32, seed=30):
    gen = torch.Generator().manual_seed(seed)
    x = (torch.randn(n, v, generator=gen) * 3).to(dtype)
    p = (torch.randn(n, v, generator=gen) * 2).softmax(-1)
    p = torch.where(torch.rand(n, v, generator=gen) < 0.2, 0.0, p)
    return x, p / p.sum(-1, keepdim=True)


def _soft_run(x, p, opts, *, lse=False):
    """Probability targets compiled (soft_stats' lowering), per-row loss (+ lse) and the
    gradients of logits and targets against float64 F.cross_entropy."""
    import test_soft_targets as st
    torch._dynamo.reset()
    xl, pl = x.clone().requires_grad_(), p.clone().requires_grad_()

    def fn(x, p):
        out = inductor_ce.cross_entropy(x, p, reduction="none", return_lse=lse, **opts)
        return out[0] + 0.25 * out[1] if lse else out

    up = torch.rand(x.shape[0], generator=torch.Generator().manual_seed(31)) + 0.5
    (loss, (fwd, bwd)), log = _logged(run_and_get_code, lambda: _backward_with(
        torch.compile(fn, fullgraph=True), xl, pl, up))
    # A -inf logit of mass 0 adds 0 (F.cross_entropy's 0 * inf would be nan): as -1e300
    # in float64, it does.
    x64 = x.double().masked_fill(x.isneginf(), -1e300).requires_grad_()
    p64 = p.double().requires_grad_()
    ref = st.reference(x64, p64, reduction="none", **opts)
    if lse:
        ref = ref + 0.25 * torch.logsumexp(softcap64(x64, opts.get("softcap")), -1)
    (ref * up.double()).sum().backward()
    finite = ~x.isneginf()
    return {"fwd": fwd, "bwd": bwd, "log": log, "loss_err": _rel(loss.detach(), ref.detach()),
            "grad_err": _rel(xl.grad, x64.grad), "grad_ulps": ulps_error(xl.grad, x64.grad),
            "grad_dtype": str(xl.grad.dtype),
            # dL/dp_j = g (lse - z_j): inf at a -inf logit (-1e300 in the reference)
            "target_grad_err": _rel(pl.grad[finite], p64.grad[finite]),
            "target_grad_inf": bool(pl.grad[~finite].isposinf().all()),
            "vocab": x.shape[-1], "rows": x.shape[0]}


def _backward_with(fn, x, p, up):
    loss = fn(x, p)
    (loss * up).sum().backward()
    return loss


def case_soft():
    """soft_stats over two chunks (the ragged tail): a tie for the max across chunks (the
    first is the argmax, the other counts in S'), a chunk of -inf logits with no mass, the
    lse's gradient too."""
    x, p = _soft_data(4, V)
    x[1, 5] = x[1, lowering.CHUNK + 3] = x[1].max() + 2.0
    x[2, lowering.CHUNK:] = float("-inf")
    p[2, lowering.CHUNK:] = 0.0
    p[2] /= p[2].sum()
    x[3, lowering.CHUNK + 7] = x[3].max() + 12.0          # the max in the second chunk
    return _soft_run(x, p, {}, lse=True)


def case_soft_options():
    """Every option (class weights, label smoothing, z-loss, softcap) on float16 logits, in
    the chunk kernel's two other forms: the int32 column compares of int64 indexing and the
    equal chunks of lowering._chunk_length (both forced on a small input)."""
    x, p = _soft_data(5, V, dtype=torch.float16, seed=32)
    x[4, lowering.CHUNK + 10] = 15.0
    w = torch.rand(V, generator=torch.Generator().manual_seed(33)) + 0.5
    opts = dict(weight=w, label_smoothing=0.1, z_loss=1e-3, softcap=20.0)
    even = lowering._even_chunk(V)
    with mock.patch.object(ir, "indexed_in_int64", lambda box: True), \
            mock.patch.object(lowering, "_chunk_length", lambda rows, vocab: even):
        return _soft_run(x, p, opts)


def case_soft_single():
    """V <= CHUNK: the chunk's statistics are the row's (one kernel), with smoothing."""
    x, p = _soft_data(5, 300, seed=34)
    x[0, 17] = x[0].max() + 30.0
    return _soft_run(x, p, dict(label_smoothing=0.2))


def case_soft_bf16():
    """bfloat16 logits of a graph input (widened by a 16-bit shift in the chunk kernel) with
    float32 targets over two chunks: a tie for the max across chunks, a -inf logit without
    mass, the max in the ragged chunk (whose fill past V is the load's own -inf)."""
    x, p = _soft_data(4, V, seed=36)
    x = x.bfloat16()
    x[1, 7] = x[1, lowering.CHUNK + 5] = x[1].max() + 2.0
    x[2, 11] = float("-inf")
    p[2, 11] = 0.0
    p[2] /= p[2].sum()
    x[3, lowering.CHUNK + 7] = x[3].max() + 12.0
    return _soft_run(x, p, {})


def case_soft_subnormal():
    """float32 rows whose max is subnormal, with another column a subnormal gap below it
    (5 x 2^-149) before the max's first column, in either chunk: the chunk kernel's argmax key
    packs the gap's bits with the column, and such a gap must not yield another column."""
    x, p = _soft_data(3, V, seed=37)
    x = -x.abs() - 1.0
    tiny = torch.finfo(torch.float32).smallest_normal * 2.0 ** -23   # 2^-149
    for r, start in enumerate((0, lowering.CHUNK, 0)):
        x[r, start + 10] = 100 * tiny
        x[r, start + 3] = 95 * tiny
    x[2, 20] = 100 * tiny   # and a second exact tie after the first
    return _soft_run(x, p, {})


def _linear_data(seed):
    """The generator, then h (40, 16), W, b and the targets of the fused head's cases."""
    gen = torch.Generator().manual_seed(seed)
    n, d = 40, 16
    h = torch.randn(n, d, generator=gen)
    w, b = torch.randn(V, d, generator=gen) * 0.5, torch.randn(V, generator=gen)
    t = torch.randint(0, V, (n,), generator=gen)
    return gen, h, w, b, t


def _linear_errors(h, w, b, t, opts, up=None, prefix=""):
    """``linear_cross_entropy``'s loss, dh, dW, db (the loss times ``up`` where given, for
    reduction="none") against float64, as relative errors keyed by ``prefix``."""
    leaves = [x.clone().requires_grad_() for x in (h, w, b)]
    ref_leaves = [x.double().requires_grad_() for x in (h, w, b)]
    loss = inductor_ce.linear_cross_entropy(leaves[0], leaves[1], t, linear_bias=leaves[2],
                                            **opts)
    ref_opts = {k: v for k, v in opts.items() if k != "memory_budget"}
    ref = reference(ref_leaves[0] @ ref_leaves[1].t() + ref_leaves[2], t, **ref_opts)
    for out, scale in ((loss, up), (ref, None if up is None else up.double())):
        (out if scale is None else out * scale).sum().backward()
    errors = {f"{prefix}loss_err": _rel(loss.detach(), ref.detach())}
    for name, x, r in zip(("dh", "dw", "db"), leaves, ref_leaves):
        errors[f"{prefix}{name}_err"] = _rel(x.grad, r.grad)
    return errors


def case_linear_chunks():
    """The fused head's scalar loss by row chunks, eagerly (each chunk's statistics, finish and
    ce_bwd over its logits in one compiled graph, eager/loss.py's loss_chunk), its Triton code
    run by the interpreter: a bias, class weights, smoothing, z-loss, a softcap and ignored
    rows, three chunks (the last ragged), against float64."""
    from inductor_ce.eager import kernels as eager
    from inductor_ce.linear import plan
    gen, h, w, b, t = _linear_data(11)
    t[::5] = -100
    cw = torch.rand(V, generator=gen) + 0.5
    opts = dict(weight=cw, label_smoothing=0.1, z_loss=1e-3, softcap=20.0,
                memory_budget=16 * V * 4)
    saved = eager.MODE, plan.ROWS_MIN_NARROW
    eager.MODE, plan.ROWS_MIN_NARROW = "compiled", 1   # (16 rows: the budget's chunks)
    before = eager.compiles
    try:
        out = _linear_errors(h, w, b, t, opts)
    finally:
        eager.MODE, plan.ROWS_MIN_NARROW = saved
    return {**out, "compiles": eager.compiles - before}


def case_linear_classes():
    """The fused head by class chunks (blocks of 16 rows, the last ragged; the statistics'
    chunks of 128 classes, the gradient's of 64, the last of each ragged), eagerly, its
    Triton code run by the interpreter: the statistics combined into the block's running
    values by one compiled graph per chunk (eager.ce_fwd_into), then ce_bwd over each
    recomputed chunk; a bias with a whole chunk of -inf (masked classes), class weights,
    smoothing, z-loss, a softcap and ignored rows; the mean loss and reduction="none" with
    an upstream gradient, against float64."""
    from inductor_ce.eager import kernels as eager
    from inductor_ce.linear import plan
    gen, h, w, b, t = _linear_data(12)
    b[128:256] = float("-inf")   # (the statistics' second chunk, the gradient's 3rd and 4th)
    t = torch.where((t >= 128) & (t < 256), t + 128, t)     # (no target among them)
    t[::5] = -100
    up = torch.rand(t.shape[0], generator=gen)
    cw = torch.rand(V, generator=gen) + 0.5
    opts = dict(weight=cw, label_smoothing=0.1, z_loss=1e-3, softcap=20.0,
                memory_budget=V * 4)
    saved = eager.MODE, plan.CLASSES_MIN_HIDDEN
    eager.MODE, plan.CLASSES_MIN_HIDDEN = "compiled", 0
    out, before = {}, eager.compiles
    try:
        for reduction in ("mean", "none"):
            out.update(_linear_errors(h, w, b, t, dict(opts, reduction=reduction),
                                      up if reduction == "none" else None, f"{reduction}_"))
    finally:
        eager.MODE, plan.CLASSES_MIN_HIDDEN = saved
    return {**out, "compiles": eager.compiles - before}


def case_soft_collapse():
    """The margin grid 0-80 (tests/test_soft_targets.collapse_case over V columns: two chunks,
    the dominant class in either): per row, the loss, the dominant class's gradient and every
    other within 1e-5 relative of float64."""
    import test_soft_targets as st
    torch._dynamo.reset()
    z, p, top = st.collapse_case(torch.float32, vocab=V)
    for r in range(0, z.shape[0], 2):   # every other row's classes rolled into chunk 2
        z[r], p[r] = z[r].roll(lowering.CHUNK), p[r].roll(lowering.CHUNK)
        top[r] = (top[r] + lowering.CHUNK) % V
    x = z.clone().requires_grad_()
    loss = torch.compile(lambda x, p: inductor_ce.cross_entropy(x, p, reduction="none"),
                         fullgraph=True)(x, p)
    loss.sum().backward()
    ref_loss, ref_grad = st.collapse_reference(z, p)
    rows = torch.arange(len(top))
    loss_rel = ((loss.detach().double() - ref_loss).abs() / ref_loss.abs()).max().item()
    g_top, r_top = x.grad[rows, top].double(), ref_grad[rows, top]
    top_rel = ((g_top - r_top).abs() / r_top.abs()).max().item()
    tiny = torch.finfo(torch.float32).tiny
    elem = ((x.grad.double() - ref_grad).abs() / (ref_grad.abs() + tiny)).max().item()
    return {"loss_rel": loss_rel, "top_grad_rel": top_rel, "grad_rel": elem,
            "top_grad_nonzero": bool((g_top != 0).all())}


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    if os.environ.get("TRITON_INTERPRET") != "1":
        sys.exit("set TRITON_INTERPRET=1")
    out = {}
    with cpu_triton.triton_on_cpu(run=True):
        for name in sys.argv[1:] or CASES:
            try:
                out[name] = CASES[name]()
            except Exception as e:  # reported to the test, which fails with the message
                import traceback
                out[name] = {"error": f"{type(e).__name__}: {e}\n{traceback.format_exc()}"}
    json.dump(out, sys.stdout)
