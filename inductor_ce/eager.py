"""Eager calls at compiled speed: the ops run the kernels our Inductor lowering generates.

Without torch.compile, ``ce_fwd`` / ``ce_bwd`` would run their ATen decomposition: about ten
kernels and float32 temporaries of the logits' size (35x the floor on an H200 at
16384 x 128256). Instead their eager implementation compiles, once per signature, a graph that
calls the op itself, and Inductor lowers the op there with ``lowering.py``: the same kernels a
compiled model gets, one source of truth. ``cross_entropy`` goes one step further in eager
mode: it compiles its whole loss (op, per-row finish, reduction; their backward), which turns
~40 small eager launches of the finish into the 3 + 2 kernels of a compiled step.

How a call gets there, and why:
- No Dynamo, no AOTAutograd. The graph is ``make_fx`` of a closure calling the op (options
  baked in), compiled by Inductor's ``compile_fx_inner`` (``_inductor/standalone.py``). A user's
  Dynamo settings (recompile limit, ``error_on_recompile``, ``torch.compiler.reset()``) see
  nothing of it; a user's ``torch.compile`` of code calling our op still traces the op
  (its fake kernel) and lowers it into their graph, never calls these compiled functions.
- No recursion. The compiled code runs Inductor's kernels, not the op. Should Inductor ever
  fall back to calling the op (an extern kernel), a thread-local flag sends that call, and
  any call made while we compile, to the decomposition.
- Keyed on what decides the code: the op, device, dtypes, V (symbolic for the in-place
  ``ce_bwd_`` of the fused linear's chunks, whose widths vary), options, and the layout class of
  the logits (the number of row dimensions after merging the mergeable ones, whether the
  innermost one is dense, whether the class dimension has stride 1, whether the storage
  offset is 0), and for the whole loss whether the call has at most ``FEW_ROWS`` rows: that
  variant is lowered as for few rows (one partial per chunk, the backward's coefficients
  inlined: on the H200 a launch and three buffers less per step, where the host sets the
  pace: host time 1.78-1.83x bf16 F.cross_entropy's instead of 2.03x, NOTES run 40). The
  row dimensions are symbolic: no recompilation across row counts within a variant. Guards
  that Inductor's choices put on the row count (e.g. int32 indexing below 2^31 logits) are
  checked on every call; a call outside them compiles one more variant for that key.
- Cached for the process (a dict; compiles serialized by a lock, so threads are safe) and
  across processes through Inductor's own FX-graph and kernel caches (keyed with our salt).
- Where it does not apply, the decomposition runs (as before): fewer than ``MIN_ELEMENTS``
  logits (a compile costs seconds once; there the decomposition costs microseconds), one or
  zero rows, a tensor subclass or fake tensor, an active dispatch mode, functorch transforms,
  forward-mode AD, or no lowering (torch without the API). A compile that fails warns once
  per key and that key keeps the decomposition (under torch.inference_mode, whose tensors
  refuse the trace, the call alone does: the key compiles at a later call).

At most FEW_ROWS rows on CUDA, the loss's two compiled functions replay from CUDA graphs
(``graphs.py``; the backward writes the gradient into a tensor it allocates, which a graph can
take as an argument). A loss call whose signature was seen before skips the checks and
lookups and takes the path kept for it (``repeat``, below).

``INDUCTOR_CE_EAGER=decomposition`` disables the compiled path; ``=compiled`` uses it at any
size (the tests do); default ``auto``.
"""
from __future__ import annotations

import functools
import os
import sys
import threading
import warnings
from typing import Optional

import torch
from torch import Tensor
from torch.autograd import forward_ad as _forward_ad
from torch.compiler import is_compiling as _is_compiling

from . import graphs as _GRAPHS
from ._math import FEW_ROWS

MIN_ELEMENTS = 1 << 20
_MODES = ("auto", "compiled", "decomposition")
MODE = os.environ.get("INDUCTOR_CE_EAGER", "auto")
if MODE not in _MODES:
    raise ValueError(f"INDUCTOR_CE_EAGER must be one of {_MODES}, got {MODE!r}")

_CACHE: dict = {}                    # key -> [standalone.Compiled, ...], or None (failed)
_LOCK = threading.Lock()
_STATE = threading.local()           # .busy: inside a compile or a compiled call
compiles = 0                         # how many graphs this process compiled (tests assert it)


def _wanted(x: Tensor, *others, any_size: bool = False) -> bool:
    """Whether this eager call should take the compiled path (``any_size``: whatever its
    size). (At a few rows every microsecond of this counts: module-level names, no imports,
    no generators.)"""
    if MODE == "decomposition" or not _PACKAGE.LOWERING_ACTIVE or (
            MODE == "auto" and not any_size and x.numel() < MIN_ELEMENTS):
        return False
    if type(x) is not Tensor or _is_wrapped(x):
        return False  # a subclass (DTensor, FakeTensor, Parameter...) keeps the plain op path
    for o in others:
        if o is not None and (type(o) is not Tensor or _is_wrapped(o)):
            return False
    return not _elsewhere()


def _elsewhere() -> bool:
    """The per-call state that sends an eager call to the op path: inside one of our
    compiles or compiled calls, a dispatch mode, forward-mode AD."""
    return (getattr(_STATE, "busy", False) or _dispatch_modes() > 0
            or getattr(_forward_ad, "_current_level", -1) >= 0)


_is_wrapped = torch._C._functorch.is_functorch_wrapped_tensor   # under a torch.func transform
_dispatch_modes = torch._C._len_torch_dispatch_stack
_PACKAGE = sys.modules[__package__]     # (its LOWERING_ACTIVE is set after this imports)


# --- layouts ----------------------------------------------------------------------------------

def merged_rows(x: Tensor):
    """``x`` (..., V) viewed with size-1 row dims dropped and adjacent row dims merged where
    their strides allow (a view, never a copy), and the layout class of that view. None when
    fewer than two rows (not worth a compile; ShapeEnv would specialize a size-1 dim)."""
    if x.dim() == 2 and x.shape[0] >= 2:       # the common case, without the general walk
        rows, vocab = x.shape
        row, col = x.stride()
        return x, (1, row == vocab * col, col == 1, x.storage_offset() == 0)
    sizes, strides = list(x.shape[:-1]), list(x.stride()[:-1])
    keep = [(n, s) for n, s in zip(sizes, strides) if n != 1]
    rows: list = []
    for n, s in keep:
        if rows and rows[-1][1] == n * s:      # the outer dim steps over whole inner ones
            rows[-1] = (rows[-1][0] * n, s)
        else:
            rows.append((n, s))
    total = 1
    for n, _ in rows:
        total *= n
    if total < 2:
        return None
    view = x.view(*[n for n, _ in rows], x.shape[-1]) if rows != list(zip(sizes, strides)) \
        else x
    vocab, col = x.shape[-1], x.stride()[-1]
    layout = (len(rows), rows[-1][1] == vocab * col, col == 1, x.storage_offset() == 0)
    return view, layout


def _guarded(key, build, first: Tensor):
    """The compiled function for ``key`` accepting ``first`` (compiled by ``build()`` if no
    entry does), or None (that key failed to compile: the caller uses the decomposition)."""
    entries = _CACHE.get(key, ())
    if entries is None:
        return None
    for entry in entries:
        if entry.accepts(first):
            return entry
    with _LOCK:
        entries = _CACHE.get(key, [])
        if entries is None:
            return None
        for entry in entries:
            if entry.accepts(first):
                return entry
        global compiles
        _STATE.busy = True
        try:
            entry = build()
        except Exception as e:  # compile failures of any kind: warn once, keep correct
            if torch.is_inference_mode_enabled():
                # Inference tensors refuse the trace's in-place updates: that says nothing
                # of the key, which a call outside inference mode compiles then.
                return None
            warnings.warn(f"inductor_ce: compiling the eager kernels failed ({type(e).__name__}"
                          f": {str(e)[:300]}); this signature keeps the ATen decomposition",
                          RuntimeWarning, stacklevel=4)
            _CACHE[key] = None
            return None
        finally:
            _STATE.busy = False
        compiles += 1
        _CACHE[key] = [*entries, entry]
        return entry


def _call(entry, *args):
    _STATE.busy = True
    try:
        return entry(*args)
    finally:
        _STATE.busy = False


def _salt() -> str:
    # (Our ops' fake kernels re-assert the lowering's salt while make_fx traces them: this
    # one extends it, so that it stays; see _inductor/cache.ensure_salt.)
    from . import lowering
    return f"{lowering.cache_salt()}-eager"


def _compile_loss(fn, x, rowwise, static, few: bool, outputs: int = 0):
    """The loss's forward or backward graph, rows symbolic; ``few``: the variant for calls of
    at most FEW_ROWS rows, lowered as for few rows (a launch and three buffers less per step,
    see lowering._few_static_rows), salted apart in Inductor's caches."""
    from . import lowering
    from ._inductor.standalone import compile_rows_dynamic
    if not few:
        return compile_rows_dynamic(fn, x, rowwise, static, _salt(), outputs=outputs)
    with lowering.few_rows_hint():
        return compile_rows_dynamic(fn, x, rowwise, static, _salt() + "-few", outputs=outputs)


_REPLAYS: dict = {}   # compiled function -> its graphs.Replays


def _runner(entry, copies: bool):
    """``entry`` as a call replayed from CUDA graphs (graphs.py): what the few-rows calls on
    CUDA run, where the host sets the pace."""
    replays = _REPLAYS.get(entry)
    if replays is None:
        # (A replay runs no Python: only a call of ``entry`` itself needs _call's flag.)
        replays = _REPLAYS[entry] = _GRAPHS.Replays(functools.partial(_call, entry), copies)
    return replays


def _graphed(xm, layout, weight, few: bool) -> bool:
    """Whether this call of the loss may replay CUDA graphs (if ``graphs.ENABLED``, read per
    call): few rows on CUDA, the logits one dense (rows, V) block and the weight contiguous,
    so that the addresses and the row count alone tell its tensors apart (graphs.py)."""
    return (few and xm.is_cuda and layout == (1, True, True, True)
            and (weight is None or weight.is_contiguous()))


def _dtype(t: Optional[Tensor]):
    return None if t is None else t.dtype


def _per_row(rows, *values):
    """ce_bwd's per-row inputs (lse_nt, a, b[, c]) as contiguous float32 of the merged rows."""
    return [v.reshape(rows).contiguous().float() for v in values if v is not None]


# --- the ops ------------------------------------------------------------------------------------

def ce_fwd(x, target, weight, ignore_index, softcap, smooth):
    """Compiled ``ce_fwd``, or None where the decomposition should run."""
    if not _wanted(x, target, weight):
        return None
    merged = merged_rows(x)
    if merged is None:
        return None
    xm, layout = merged
    weight = weight if smooth else None      # the forward reads the weight only to smooth
    key = ("ce_fwd", x.device, x.dtype, x.shape[-1], layout, target.dtype, _dtype(weight),
           ignore_index, softcap, smooth)
    op = torch.ops.inductor_ce.ce_fwd.default

    def fn(x, t, w):
        return op(x, t, w, ignore_index, softcap, smooth)

    t = target.reshape(xm.shape[:-1]).contiguous()
    from ._inductor.standalone import compile_rows_dynamic
    entry = _guarded(key, lambda: compile_rows_dynamic(fn, xm, [t], [weight], _salt()), xm)
    if entry is None:
        return None
    out = _call(entry, xm, t, weight)
    return tuple(o.view(x.shape[:-1]) for o in out)


def ce_bwd(x, target, weight, lse_nt, a, b, c, ignore_index, softcap):
    """Compiled ``ce_bwd``, or None where the decomposition should run."""
    if not _wanted(x, target, weight, lse_nt, a, b, c):
        return None
    merged = merged_rows(x)
    if merged is None:
        return None
    weight = weight if c is not None else None
    key = _bwd_key(merged, target, weight, c, ignore_index, softcap, False, False)
    out = _compiled_bwd(key, merged, target, weight, lse_nt, a, b, c, ignore_index, softcap,
                        in_place=False)
    return None if out is None else out[0].view(x.shape)


def _bwd_key(merged, target, weight, c, ignore_index, softcap, in_place, columns):
    xm, layout = merged
    return ("ce_bwd_" if in_place else "ce_bwd", xm.device, xm.dtype,
            None if columns else xm.shape[-1], layout, target.dtype, _dtype(weight),
            c is not None, ignore_index, softcap)


def _compiled_bwd(key, merged, target, weight, lse_nt, a, b, c, ignore_index, softcap,
                  in_place, columns=False):
    """``ce_bwd`` of the merged logits through its compiled function for ``key``
    (``in_place``: written over the logits; ``columns``: V symbolic, and ``weight`` the
    logits' classes' slice), or None where that key failed to compile."""
    xm, _ = merged
    op = torch.ops.inductor_ce.ce_bwd.default
    rows = xm.shape[:-1]
    per_row = _per_row(rows, lse_nt, a, b, c)

    def fn(x, t, lse_nt, a, b, *rest):
        c_ = rest[0] if c is not None else None
        grad = op(x, t, rest[-1], lse_nt, a, b, c_, ignore_index, softcap)
        if not in_place:
            return (grad,)
        x.copy_(grad)
        return (lse_nt,)

    t = target.reshape(rows).contiguous()
    from ._inductor.standalone import compile_rows_dynamic
    entry = _guarded(key, lambda: compile_rows_dynamic(fn, xm, [t, *per_row], [weight],
                                                       _salt(), columns), xm)
    return None if entry is None else _call(entry, xm, t, *per_row, weight)


# --- the whole loss -----------------------------------------------------------------------------

def cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing, z_loss,
                  softcap, return_lse, sig=None):
    """``functional.cross_entropy``'s value through compiled functions, or None where the op
    path should run. Arguments are already checked; ``sig``: the call's ``signature`` (of
    the arguments as the caller got them), under which its path is kept.

    Two compiled graphs, no AOTAutograd between them and autograd (its runtime wrappers were
    most of a few-row step's host time). The forward graph computes the loss (and lse) and,
    when a gradient is wanted, the per-row coefficients of ``ce_bwd`` for a unit upstream
    gradient: autograd's of ``_math.finish`` and the reduction, traced into the graph. Each
    row's loss depends on its own statistics only, so the coefficients for an upstream
    gradient g are g times those (g a scalar for "mean"/"sum", per row for "none"), plus, with
    ``return_lse``, g_lse times lse's. The backward graph applies them and runs ``ce_bwd``."""
    if _is_compiling() or not _wanted(input, target, weight):
        return None
    merged = merged_rows(input)
    if merged is None:
        return None
    xm, layout = merged
    training = input.requires_grad and torch.is_grad_enabled()
    spec = _LossSpec(ignore_index, reduction, float(label_smoothing), float(z_loss), softcap,
                     return_lse, input.shape[-1])
    t = target if target.dim() == 1 and xm is input else target.reshape(xm.shape[:-1])
    t = t.contiguous()
    few = t.numel() <= FEW_ROWS
    key = ("loss", input.device, input.dtype, input.shape[-1], layout, target.dtype,
           _dtype(weight), spec, training, few)
    entry = _guarded(key, lambda: _compile_loss(spec.forward(training), xm, [t], [weight],
                                                few), xm)
    if entry is None:
        return None
    call = _Call(_plan(entry, key), input, xm, target, t, _graphed(xm, layout, weight, few),
                 training, reduction, return_lse)
    if sig is not None:
        if len(_REPEATS) >= MAX_REPEATS:
            _REPEATS.clear()
        _REPEATS[sig] = (call, _CACHE)
    return call(input, target, weight)


class _Call:
    """One call's path through the compiled loss: its plan, the views its tensors take, and
    whether it replays CUDA graphs. Kept for the calls of the same signature (``repeat``)."""

    __slots__ = ("plan", "view", "t_view", "t_copy", "graphed", "training", "none",
                 "return_lse")

    def __init__(self, plan, input, xm, target, t, graphed, training, reduction, return_lse):
        self.plan, self.graphed, self.training = plan, graphed, training
        self.view = None if xm is input else tuple(xm.shape)
        self.t_view = None if t.shape == target.shape else tuple(t.shape)
        self.t_copy = not target.reshape(t.shape).is_contiguous()
        self.none, self.return_lse = reduction == "none", return_lse

    def __call__(self, input, target, weight):
        xm = input if self.view is None else input.view(self.view)
        t = target if self.t_view is None else target.reshape(self.t_view)
        if self.t_copy:
            t = t.contiguous()
        graphed = self.graphed and _GRAPHS.ENABLED
        if self.training:
            out = _apply_loss(xm, t, weight, self.plan, graphed)
            if not self.return_lse:
                return out.view(target.shape) if self.none else out
        else:
            out = self.plan.forward_runner(graphed)(xm, t, weight)
        loss = out[0].view(target.shape) if self.none else out[0]
        return (loss, out[1].view(target.shape)) if self.return_lse else loss


# --- calls seen before ----------------------------------------------------------------------------
# At a few rows the host sets the pace, and the checks and lookups of a call (its arguments'
# checks, its layout, its cache key and compiled function's guard) cost a step as much as the
# compiled work's launches (NOTES run 52). A call whose signature was seen before (the
# tensors' classes, shapes, strides, dtypes and devices, the options and their types, grad
# mode) has passed those checks and takes the path it took then. The state a signature does
# not hold (dispatch modes, torch.func, forward AD, the CUDA-graph switch) is read per call.
MAX_REPEATS = 256
_REPEATS: dict = {}       # signature -> (_Call, the _CACHE it was found in)


def signature(input, target, weight, ignore_index, reduction, label_smoothing, z_loss,
              softcap, return_lse):
    """The signature of a ``cross_entropy`` call (unchecked arguments), or None where calls
    are not kept: a weight, a tensor subclass, a tensor ``label_smoothing`` (its value may
    change in place), or under torch.compile (where this is one guard). The options' classes
    come first: a tuple compares in order, so a class that differs is never compared by
    value."""
    if _is_compiling() or weight is not None or input.__class__ is not Tensor or \
            target.__class__ is not Tensor or label_smoothing.__class__ is Tensor:
        return None
    return (ignore_index.__class__, reduction.__class__, label_smoothing.__class__,
            z_loss.__class__, softcap.__class__, return_lse.__class__, ignore_index, reduction,
            label_smoothing, z_loss, softcap, return_lse, input.shape, input.stride(),
            input.storage_offset(), input.dtype, input.device, target.shape, target.stride(),
            target.dtype, target.device, input.requires_grad and torch.is_grad_enabled(), MODE,
            FEW_ROWS)


def repeat(sig, input, target):
    """The loss of a call of signature ``sig`` along the path kept for it, or None (none
    kept, or the per-call state sends it elsewhere: see _wanted)."""
    try:
        found = _REPEATS.get(sig)
    except TypeError:   # an unhashable option: the checks name it
        return None
    if found is None or found[1] is not _CACHE or _functorch_active() or \
            _is_wrapped(input) or _is_wrapped(target) or _elsewhere():
        return None
    return found[0](input, target, None)


_functorch_active = torch._C._are_functorch_transforms_active


def loss_chunk(z, t, w, ignore_index, label_smoothing, z_loss, softcap, g):
    """For a chunk of rows of the fused linear + cross-entropy ("fast"): ``cross_entropy(z,
    t, reduction="sum")``'s forward graph with its coefficients, all times the 0-dim float32
    ``g``: (g * the chunk's summed loss, lse_nt, g * a, g * b[, g * c]), where (a, b, c) are
    ``ce_bwd``'s per-row coefficients for an upstream gradient of 1. One compiled graph where
    the compiled path applies (the chunk's ce_fwd kernels and its finish, instead of ~50
    eager ops and an autograd call per chunk: host time); otherwise the same function
    eagerly. Callable inside an op's implementation: the function traces (or runs) autograd
    of the finish, so it runs with the dispatcher's autograd keys."""
    from ._inductor.dispatch import autograd_inside_op
    spec = _LossSpec(ignore_index, "sum", float(label_smoothing), float(z_loss), softcap,
                     False, z.shape[-1])
    forward = spec.forward(True)

    def fn(x, t, w, g):
        loss, lse_nt, *coefs = forward(x, t, w)
        return (loss * g, lse_nt, *(k * g for k in coefs))

    merged = merged_rows(z) if _wanted(z, t, w, g) and t.dim() == 1 else None
    with autograd_inside_op():
        if merged is not None and merged[0] is z:
            key = ("loss_chunk", z.device, z.dtype, z.shape[-1], merged[1], t.dtype,
                   _dtype(w), spec)
            from ._inductor.standalone import compile_rows_dynamic
            entry = _guarded(key, lambda: compile_rows_dynamic(fn, z, [t.contiguous()],
                                                               [w, g], _salt()), z)
            if entry is not None:
                return _call(entry, z, t.contiguous(), w, g)
        return fn(z, t, w, g)


class _LossSpec(tuple):
    """The options of one compiled loss (a tuple: part of the cache key)."""

    def __new__(cls, *options):
        return super().__new__(cls, options)

    def forward(self, training: bool):
        """The forward graph's function: (loss[, lse]) and, when ``training``, lse_nt and
        the coefficients for a unit upstream gradient: the loss's a, b[, c], then lse's
        a, b."""
        from ._math import finish, reduce
        ignore_index, reduction, label_smoothing, z_loss, softcap, return_lse, vocab = self
        smooth = label_smoothing > 0.0
        op = torch.ops.inductor_ce.ce_fwd.default

        def fn(x, t, w):
            stats = op(x, t, w, ignore_index, softcap, smooth)
            with torch.enable_grad():
                leaves = [s.detach().requires_grad_(training) for s in stats]
                loss, lse, w_t = finish(*leaves, t, w, ignore_index, label_smoothing, z_loss,
                                        vocab)
                outs = (reduce(loss, w_t, reduction), lse)[:1 + return_lse]
                coefs = []
                # The loss's coefficients (a, b[, c]), then lse's (a, b): lse reads lse_nt
                # and z_t only. (sum: each row's output depends on its own statistics.)
                wrt = (leaves[:2 + smooth], leaves[:2])
                for o, inputs in zip(outs, wrt) if training else ():
                    coefs += torch.autograd.grad(o.sum(), inputs, retain_graph=True,
                                                 materialize_grads=True)
            return tuple(o.detach() for o in outs) + ((stats[0], *coefs) if training else ())

        return fn

    def backward(self, per_row_g: bool, with_lse: bool):
        """The backward graph's function of (x, out, t, lse_nt, the loss's coefficients[,
        lse's], g if per_row_g, g_lse if with_lse, w, g if not per_row_g): the gradient,
        written into ``out`` (a tensor of x's shape and dtype, contiguous; Inductor stores
        into it from the gradient's kernel), then the rows-wise inputs, then the fixed-shape
        ones, as ``compile_rows_dynamic`` takes them. (A gradient written into the caller's
        tensor is what lets a CUDA graph replay it: see graphs.py.)"""
        ignore_index, _, label_smoothing, _, softcap, _, _ = self
        n = 2 + (label_smoothing > 0.0)
        op = torch.ops.inductor_ce.ce_bwd.default

        def fn(x, out, t, lse_nt, *rest):
            coefs, rest = rest[:n], rest[n:]
            lse_coefs, rest = (rest[:2], rest[2:]) if with_lse else ((), rest)
            if per_row_g:
                g, *rest = rest
            g_lse = None
            if with_lse:
                g_lse, *rest = rest
            w, *rest = rest
            if not per_row_g:
                g, = rest
            a, b, *c = (g * k for k in coefs)
            if with_lse:
                a, b = a + g_lse * lse_coefs[0], b + g_lse * lse_coefs[1]
            out.copy_(op(x, t, w, lse_nt, a, b, c[0] if c else None, ignore_index, softcap))
            return (out,)

        return fn


class _Plan:
    """What every call of one compiled loss (a forward entry) shares, looked up once per call
    by the entry's identity: how many outputs it returns, its backward's compiled function
    (found on the first backward, re-checked against each call's rows) and their CUDA-graph
    runners. (At a few rows the host sets the pace: a nested cache key hashed per backward
    cost more than the rest of its Python, NOTES run 52.)"""

    __slots__ = ("entry", "key", "n", "per_row_g", "return_lse", "fn", "run", "bwd",
                 "bwd_shape", "replays", "bwd_replays")

    def __init__(self, entry, key):
        spec = key[7]
        self.entry, self.key = entry, key
        self.n = 1 + spec[5]
        self.per_row_g, self.return_lse = spec[1] == "none", spec[5]
        self.fn = spec.backward(self.per_row_g, self.return_lse)
        self.run = functools.partial(_call, entry)
        self.bwd = self.bwd_shape = self.replays = self.bwd_replays = None

    def forward_runner(self, graphed: bool):
        """The forward: its compiled function, or that replayed from CUDA graphs."""
        if not graphed:
            return self.run
        if self.replays is None:
            self.replays = _runner(self.entry, True)
        return self.replays

    def backward(self, ctx, g, g_lse):
        x, t, w = ctx.saved_tensors
        rowwise = [t, *ctx.stats]
        if self.per_row_g:
            g = g.reshape(x.shape[:-1]).contiguous()
            rowwise.append(g)
        if self.return_lse:
            rowwise.append(g_lse.reshape(x.shape[:-1]).contiguous())
        static = [w] if self.per_row_g else [w, g]
        grad = torch.empty_like(x, memory_format=torch.contiguous_format)
        entry = self.bwd
        if entry is None or x.shape != self.bwd_shape and not entry.accepts(x):
            entry = _guarded(("loss_bwd", self.key, g.dtype), lambda: _compile_loss(
                self.fn, x, rowwise, static, self.key[9], outputs=1), x)
            if entry is None:
                self.fn(x, grad, *rowwise, *static)   # the ops' own (decomposition) path
                return grad
            if entry is not self.bwd:
                self.bwd, self.bwd_replays = entry, None
            self.bwd_shape = x.shape
        if ctx.graphed:
            if self.bwd_replays is None:
                self.bwd_replays = _runner(entry, False)
            self.bwd_replays(x, grad, *rowwise, *static)
        else:
            _call(entry, x, grad, *rowwise, *static)
        return grad


_PLANS: dict = {}    # forward entry -> its _Plan


def _plan(entry, key) -> _Plan:
    plan = _PLANS.get(entry)
    if plan is None:
        plan = _PLANS[entry] = _Plan(entry, key)
    return plan


class _Loss(torch.autograd.Function):
    """The compiled loss as one autograd node (see ``cross_entropy``) of one ``_Plan``;
    ``graphed``: both of its functions replay CUDA graphs. Called through ``_apply_loss``."""

    @staticmethod
    def forward(ctx, x, t, w, plan, graphed):
        out = plan.forward_runner(graphed)(x, t, w)
        n = plan.n
        # The per-row statistics are this node's own (no caller sees them): kept on ctx, not
        # saved (a saved tensor costs ~1-2 us to pack and unpack; NOTES run 53).
        ctx.save_for_backward(x, t, w)
        ctx.plan, ctx.graphed, ctx.stats = plan, graphed, out[n:]
        return out[0] if n == 1 else out[:n]

    @staticmethod
    def backward(ctx, g, g_lse=None):
        if torch.is_grad_enabled():    # backward(create_graph=True): see _backward_once
            return _backward_once(ctx, g, g_lse)
        return ctx.plan.backward(ctx, g, g_lse), None, None, None, None


def _backward_once(ctx, g, g_lse):
    """backward(create_graph=True): the same gradient, which raises if differentiated
    again (once_differentiable's error, whatever requires grad: its own would let a gradient
    penalty through this loss silently miss its term)."""
    with torch.no_grad():
        grad = ctx.plan.backward(ctx, g, g_lse)
    delayed = torch._C._functions.DelayedError(
        b"inductor_ce.cross_entropy's gradient is not differentiable (no double backward)", 1)
    return delayed(grad.requires_grad_()), None, None, None, None


# autograd.Function.apply without its Python wrapper (whose work, binding a setup_context's
# arguments and unwrapping functorch's dead wrappers, applies to no call that gets here:
# cross_entropy takes this path outside torch.func transforms only): ~5 us a call on the
# H200's host (NOTES run 52).
_apply_loss = torch._C._FunctionBase.__dict__["apply"].__get__(None, _Loss)


def ce_bwd_(x, target, weight, lse_nt, a, b, c, ignore_index, softcap, *,
            columns: bool = False) -> None:
    """``x.copy_(ce_bwd(x, ...))`` without a second (rows, V) buffer: the fused linear +
    cross-entropy's chunks of logits are its own, and their gradient takes their storage. The
    compiled kernel reads and writes each element at the same index (Inductor fuses the copy
    into the kernel's store); the decomposition, where the compiled path does not apply,
    computes into a temporary first. ``columns``: one compile for chunks of any width (V
    symbolic, ``weight`` the chunk's slice), used at any size once compiled (a chunk of a
    few classes then costs one launch, not the decomposition's ten)."""
    out = None
    weight = weight if c is not None else None     # the backward reads it only to smooth
    merged = merged_rows(x) if _wanted(x, target, weight, lse_nt, a, b, c,
                                       any_size=True) else None
    if merged is not None and merged[1][1:] == (True, True, True):
        key = _bwd_key(merged, target, weight, c, ignore_index, softcap, True, columns)
        small = MODE == "auto" and x.numel() < MIN_ELEMENTS
        if not small or (columns and _CACHE.get(key)):
            out = _compiled_bwd(key, merged, target, weight, lse_nt, a, b, c, ignore_index,
                                softcap, in_place=True, columns=columns)
    if out is None:
        from . import decomposition
        x.copy_(decomposition.ce_bwd(x, target, weight, lse_nt, a, b, c, ignore_index,
                                     softcap))


def scale_(x: Tensor, g: Tensor) -> None:
    """``x *= g`` for a low-precision ``x`` and a float32 0-dim ``g``, in float32 and rounded
    once: ATen's in-place multiply of mixed dtypes runs a kernel that is not vectorized (2.4 ms
    for a 128256 x 4096 bf16 gradient on the H200, 4x its bandwidth time); Inductor's is."""
    merged = merged_rows(x) if x.dim() >= 2 and _wanted(x, g) else None
    if merged is not None and merged[1][1:] == (True, True, True) and g.dim() == 0:
        xm, layout = merged
        key = ("scale_", x.device, x.dtype, g.dtype, x.shape[-1], layout)

        def fn(x, g):
            x.copy_(x * g)
            return (g,)

        from ._inductor.standalone import compile_rows_dynamic
        entry = _guarded(key, lambda: compile_rows_dynamic(fn, xm, [], [g], _salt()), xm)
        if entry is not None:
            _call(entry, xm, g)
            return
    x.mul_(g)
