"""Eager calls at compiled speed: the ops run the kernels our Inductor lowering generates.

Without torch.compile, ``ce_fwd`` / ``ce_bwd`` would run their ATen decomposition: about ten
kernels and float32 temporaries of the logits' size. Instead their eager implementation
(registered on ``op/ce.py``'s ``BACKENDS``) compiles, once per signature, a graph that calls
the op itself, and Inductor lowers the op there with ``lowering.py``: the same kernels a
compiled model gets, one source of truth. ``loss.py`` compiles a whole loss the same way.

How a call gets there, and why:
- No Dynamo, no AOTAutograd. The graph is ``make_fx`` of a closure calling the op (options
  baked in), compiled by Inductor's ``compile_fx_inner`` (``_inductor/standalone.py``). A user's
  Dynamo settings (recompile limit, ``error_on_recompile``, ``torch.compiler.reset()``) see
  nothing of it; a user's ``torch.compile`` of code calling our op still traces the op
  (its fake kernel) and lowers it into their graph, never calls these compiled functions.
- No recursion. The compiled code runs Inductor's kernels, not the op. Should Inductor ever
  fall back to calling the op (an extern kernel), a thread-local flag sends that call, and
  any call made while we compile, to the decomposition.
- Keyed on what decides the code (``KernelKey``, ``loss.LossKey``): the op, device, dtypes,
  V (symbolic for the in-place ``ce_bwd_`` of the fused linear's chunks, whose widths vary),
  options (of label_smoothing, z_loss and softcap only whether each is given: their values
  are inputs), and the ``Layout`` class of the logits. The row dimensions are symbolic: no
  recompilation across row counts. Guards that Inductor's choices put on the row count
  (e.g. int32 indexing below 2^31 logits) are checked on every call; a call outside them
  compiles one more variant for that key.
- Cached for the process (a dict; compiles serialized by a lock, so threads are safe) and
  across processes through Inductor's own FX-graph and kernel caches (keyed with our salt).
  Bounded (``MAX_COMPILED`` keys, then the oldest is dropped, with a warning once): an option
  that is a constant of the code taking a new value per call (a temperature) compiles per
  call.
- Where it does not apply, the decomposition runs: off CUDA, fewer than ``MIN_ELEMENTS``
  logits (a compile costs seconds once; there the decomposition costs microseconds); one or
  zero rows,
  a tensor subclass or fake tensor, an active dispatch mode, functorch transforms,
  forward-mode AD, or no lowering (torch without the API). A compile that fails warns once
  per key and that key keeps the decomposition (under torch.inference_mode, whose tensors
  refuse the trace, the call alone does: the key compiles at a later call).

``INDUCTOR_CE_EAGER=decomposition`` disables the compiled path; ``=compiled`` uses it at any
size (the tests do); default ``auto`` (also when set but empty). See docs/eager.md.
"""
from __future__ import annotations

import os
import sys
import threading
import warnings
from typing import NamedTuple, Optional

import torch
from torch import Tensor

from .. import _log, lowering
from .._inductor import runtime
from ..op.ce import BACKENDS, times

MIN_ELEMENTS = 1 << 20


def _small(x: Tensor) -> bool:
    """Whether ``auto`` leaves this call to the decomposition: below MIN_ELEMENTS logits off
    CUDA, where a compile (seconds, once per signature) is not worth the microseconds it
    saves. On CUDA the compiled kernels (CUDA graphs at few rows) beat the decomposition's
    dozens of launches at any size (docs/eager.md)."""
    return MODE == "auto" and x.numel() < MIN_ELEMENTS and not x.is_cuda
_MODES = ("auto", "compiled", "decomposition")
MODE = os.environ.get("INDUCTOR_CE_EAGER") or "auto"   # (set but empty: the default)
if MODE not in _MODES:
    raise ValueError(f"INDUCTOR_CE_EAGER must be one of {_MODES}, got {MODE!r}")

# KernelKey | LossKey -> [standalone.Compiled, ...], or None (failed)
_CACHE: dict = {}
_LOCK = threading.Lock()
_STATE = threading.local()           # .busy: inside a compile or a compiled call
compiles = 0                         # how many graphs this process compiled (tests assert it)
# A program's dtypes, layouts, V and compile-time options need a handful of keys (each a
# compile of seconds); more means one of those changes per call. Past this the oldest key is
# dropped (a call of it compiles again), and ON_DROP's functions forget what they kept for
# its compiled functions (loss.py: plans and CUDA graphs).
MAX_COMPILED = 256
ON_DROP: list = []                   # functions of a list of dropped compiled functions
_WARNED: set = set()


# The temperature and ignore_index are constants of the compiled code (the ops' schemas take
# them as numbers): each new value compiles. The distinct values compiled so far, up to
# MANY_VALUES, where a RuntimeWarning says so once per constant: a value new every call (a
# schedule) would otherwise cost seconds per call without a word until MAX_COMPILED.
MANY_VALUES = 8
_TEMPERATURES: set = set()
_IGNORE_INDICES: set = set()


def note_constants(temperature, ignore_index) -> None:
    """Count a forward compile's temperature (None or 1: none) and ignore_index (-100:
    none); warn at the MANY_VALUES-th distinct value of either."""
    for name, value, absent, seen in (("temperature", temperature, 1.0, _TEMPERATURES),
                                      ("ignore_index", ignore_index, -100, _IGNORE_INDICES)):
        if value is not None and value != absent and _log.nth_value(seen, value, MANY_VALUES):
            warnings.warn(
                f"inductor_ce: {name} has taken {MANY_VALUES} different values, and each "
                f"compiled new kernels (seconds each): the {name} is a constant of the "
                "compiled code, not an input of it as label_smoothing, z_loss and softcap "
                f"are, so a {name} that changes every call compiles every call "
                "(docs/eager.md#options-that-change-every-call)", RuntimeWarning, stacklevel=3)


def warn_bound(what: str, consequence: str) -> None:
    """A RuntimeWarning, once per process and ``what``, that a bounded cache of the eager
    path is full: something new call after call fills it, which normal use never does."""
    if what in _WARNED:
        return
    _WARNED.add(what)
    warnings.warn(f"inductor_ce: {what} is full: {consequence}", RuntimeWarning, stacklevel=3)


def compiled_path_applies(x: Tensor, *others, any_size: bool = False) -> bool:
    """Whether this eager call should take the compiled path (``any_size``: whatever its
    size). (At a few rows every microsecond of this counts: module-level names, no imports,
    no generators.)"""
    if MODE == "decomposition" or not lowering.ACTIVE or (
            not any_size and _small(x)):
        return False
    if type(x) is not Tensor or is_functorch_wrapped(x) or x.is_meta:
        return False  # a subclass (DTensor, FakeTensor, Parameter...) keeps the plain op path
                      # (and meta tensors: no kernel runs on them)
    for o in others:
        if o is not None and (type(o) is not Tensor or is_functorch_wrapped(o)):
            return False
    return not op_path_forced()


def op_path_forced() -> bool:
    """The per-call state that sends an eager call to the op path: inside one of our
    compiles or compiled calls, a dispatch mode, forward-mode AD."""
    return (getattr(_STATE, "busy", False) or _dispatch_modes() > 0
            or runtime.forward_ad_active())


is_functorch_wrapped = runtime.is_functorch_wrapped   # under a torch.func transform
_dispatch_modes = runtime.dispatch_modes


# --- layouts and keys ----------------------------------------------------------------------------

class Layout(NamedTuple):
    """The layout class of merged logits (part of every key: it decides the generated code)."""
    row_dims: int             # row dimensions left after merging the mergeable ones (0: a
    #                           single row, (1, V), its count a constant of the code)
    rows_dense: bool          # the innermost row dimension steps over whole rows
    classes_contiguous: bool  # the class dimension has stride 1
    offset_zero: bool         # storage offset 0

    def dense_inner(self) -> bool:
        """Rows dense and classes contiguous at offset 0 (any number of row dims)."""
        return self.rows_dense and self.classes_contiguous and self.offset_zero


DENSE_2D = Layout(1, True, True, True)   # one (rows, V) block
ONE_ROW = Layout(0, True, True, True)    # one row, (1, V)


class KernelKey(NamedTuple):
    """What decides the code of one of the ops' compiled functions (a key of ``_CACHE``)."""
    op: str                   # "ce_fwd", "ce_fwd_full", "ce_fwd_into", "ce_bwd",
    #                           "ce_bwd_full", each backward + "_" in place; "scale_"
    device: torch.device
    dtype: torch.dtype
    vocab: Optional[int]      # None: V symbolic (the fused head's chunks of any width)
    layout: Layout
    target_dtype: Optional[torch.dtype]
    weight_dtype: Optional[torch.dtype]
    options: tuple            # the op's own: (ignore_index, capped, smooth) for ce_fwd, ...


def merged_rows(x: Tensor):
    """``x`` (..., V) viewed with size-1 row dims dropped and adjacent row dims merged where
    their strides allow (a view, never a copy), and the layout class of that view. A single
    row is a (1, V) view of layout ``row_dims`` 0: a key of its own, whose compile specializes
    the row count to 1 (on CUDA that beats the decomposition's dozens of launches as at any
    other size). None without rows."""
    if x.dim() == 2 and x.shape[0] >= 2:       # the common case, without the general walk
        rows, vocab = x.shape
        row, col = x.stride()
        return x, Layout(1, row == vocab * col, col == 1, x.storage_offset() == 0)
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
    if total == 0:
        return None
    if total == 1:      # ((1, V) itself: no view per call, no view's node in the backward)
        one = x if x.dim() == 2 else x.view(1, x.shape[-1])
        return one, Layout(0, True, one.stride(-1) == 1, x.storage_offset() == 0)
    view = x.view(*[n for n, _ in rows], x.shape[-1]) if rows != list(zip(sizes, strides)) \
        else x
    vocab, col = x.shape[-1], x.stride()[-1]
    layout = Layout(len(rows), rows[-1][1] == vocab * col, col == 1, x.storage_offset() == 0)
    return view, layout


def compiled_rows(x: Tensor, *others):
    """``merged_rows(x)`` where the compiled path applies to this call, else None."""
    return merged_rows(x) if compiled_path_applies(x, *others) else None


def compiled_function(key, build, first: Tensor, temperature=None, ignore_index=None):
    """The compiled function for ``key`` accepting ``first`` (compiled by ``build()`` if no
    entry does), or None (that key failed to compile: the caller uses the decomposition).
    ``temperature``, ``ignore_index``: those a forward's key compiles in (``note_constants``)."""
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
        if key not in _CACHE and len(_CACHE) >= MAX_COMPILED:
            _drop_oldest()
        _STATE.busy = True
        try:
            # (A user's detect_anomaly() would check the trace's own autograd, which then
            # fails on a data-dependent guard: it is about the user's graph, not ours.)
            with torch.autograd.set_detect_anomaly(False):
                entry = build()
        except Exception as e:  # compile failures of any kind: warn once, keep correct
            if torch.is_inference_mode_enabled() or runtime.functorch_transforms_active():
                # Inference tensors refuse the trace's in-place updates, and a transform's
                # wrapped tensors the trace: that says nothing of the key, which a call
                # outside them compiles then.
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
        note_constants(temperature, ignore_index)
        return entry


def _drop_oldest() -> None:
    warn_bound(f"the eager path's cache of compiled functions (kernels._CACHE, {MAX_COMPILED} "
               "keys)", "a constant of the compiled code is new call after call: a "
               "temperature or ignore_index value (label_smoothing's, z_loss's and softcap's "
               "values are inputs, not constants), or the V, dtype or layout of the logits. "
               "Each new one compiles (seconds); the oldest compiled function is dropped")
    dropped = _CACHE.pop(next(iter(_CACHE)))
    for forget in ON_DROP:
        forget(dropped or [])


def run_compiled(entry, *args):
    _STATE.busy = True
    try:
        return entry(*args)
    finally:
        _STATE.busy = False


def salt(variant: str = "eager") -> tuple:
    # (Our ops' fake kernels re-assert the lowering's salt while make_fx traces them; the
    # variant stays: see _inductor/cache.ensure_salt.)
    return lowering.cache_salt(), variant


def dtype_of(t: Optional[Tensor]):
    return None if t is None else t.dtype


def _per_row(rows, *values):
    """ce_bwd's per-row inputs (lse_nt, a, b[, c]) as contiguous float32 of the merged rows
    (as they are where they already are: the fused head's chunks call this per chunk)."""
    return [v if v.dtype == torch.float32 and v.shape == rows and v.is_contiguous() else
            v.reshape(rows).contiguous().float() for v in values if v is not None]


def _row_targets(target: Tensor, rows) -> Tensor:
    """The target as a contiguous tensor of the merged rows (as it is where it already is)."""
    return target if target.shape == rows and target.is_contiguous() else \
        target.reshape(rows).contiguous()


# --- the ops ------------------------------------------------------------------------------------

def ce_fwd(x, target, weight, ignore_index, softcap, smooth, temperature=None):
    """Compiled ``ce_fwd`` (with a ``temperature``: ``ce_fwd_full``), or None where the
    decomposition should run."""
    merged = compiled_rows(x, target, weight)
    if merged is None:
        return None
    xm, layout = merged
    weight = weight if smooth else None      # the forward reads the weight only to smooth
    full = temperature is not None
    key = KernelKey("ce_fwd_full" if full else "ce_fwd", x.device, x.dtype, x.shape[-1],
                    layout, target.dtype, dtype_of(weight),
                    (ignore_index, softcap is not None, smooth, temperature))
    tail = (smooth, temperature) if full else (smooth,)
    op = (torch.ops.inductor_ce.ce_fwd_full if full else torch.ops.inductor_ce.ce_fwd).default

    def fn(x, t, w, cap):
        return op(x, t, w, ignore_index, cap, *tail)

    t = _row_targets(target, xm.shape[:-1])
    from .._inductor.standalone import compile_rows_dynamic
    entry = compiled_function(
        key, lambda: compile_rows_dynamic(fn, xm, [t], [weight, softcap], salt()), xm,
        temperature, ignore_index)
    if entry is None:
        return None
    out = run_compiled(entry, xm, t, weight, softcap)
    return out if xm is x else tuple(o.view(x.shape[:-1]) for o in out)


def combine_statistics(acc, part) -> None:
    """``acc`` = (lse_nt, z_t, sum_wz) of some classes of each row, updated in place with a
    ``part`` of other classes, as shards combine: logaddexp, max, sum."""
    lse_nt, z_t, sum_wz = acc
    lse_nt.copy_(torch.logaddexp(lse_nt, part[0]))
    z_t.copy_(torch.maximum(z_t, part[1]))
    sum_wz.copy_(sum_wz + part[2])


def ce_fwd_into(x, target, weight, ignore_index, softcap, smooth, acc) -> bool:
    """``ce_fwd``'s statistics of ``x``, a chunk of classes, combined into ``acc`` = (lse_nt,
    z_t, sum_wz) of its rows in place, as shards combine (lse_nt = logaddexp(lse_nt, the
    chunk's), z_t = max, sum_wz = sum): the fused head's class chunks, one compiled graph per
    chunk where ce_fwd's and three combining launches were four calls. False where the
    compiled path does not apply (the caller combines the op's statistics itself)."""
    merged = compiled_rows(x, target, weight, *acc)
    if merged is None or merged[0] is not x or not merged[1].dense_inner() or \
            not all(v.is_contiguous() for v in (target, *acc)):
        return False
    weight = weight if smooth else None      # the forward reads the weight only to smooth
    key = KernelKey("ce_fwd_into", x.device, x.dtype, x.shape[-1], merged[1], target.dtype,
                    dtype_of(weight), (ignore_index, softcap is not None, smooth))

    def fn(x, t, lse_nt, z_t, sum_wz, w, cap):
        combine_statistics((lse_nt, z_t, sum_wz),
                           torch.ops.inductor_ce.ce_fwd.default(x, t, w, ignore_index, cap,
                                                                smooth))
        return (t,)

    from .._inductor.standalone import compile_rows_dynamic
    entry = compiled_function(
        key, lambda: compile_rows_dynamic(fn, x, [target, *acc], [weight, softcap], salt()), x)
    if entry is None:
        return False
    run_compiled(entry, x, target, *acc, weight, softcap)
    return True


def ce_bwd(x, target, weight, lse_nt, a, b, c, ignore_index, softcap, e=None,
           temperature=None):
    """Compiled ``ce_bwd`` (with a ``temperature``: ``ce_bwd_full``, ``e`` its entropy
    coefficient or None), or None where the decomposition should run."""
    merged = compiled_rows(x, target, weight, lse_nt, a, b, c, e)
    if merged is None:
        return None
    weight = weight if c is not None else None
    key = _bwd_key(merged, target, weight, c, ignore_index, softcap, False, False, e,
                   temperature)
    out = _compiled_bwd(key, merged, target, weight, lse_nt, a, b, c, ignore_index, softcap,
                        in_place=False, e=e, temperature=temperature)
    return None if out is None else out[0].view(x.shape)


def _bwd_key(merged, target, weight, c, ignore_index, softcap, in_place, columns, e=None,
             temperature=None):
    xm, layout = merged
    name = "ce_bwd" + ("_full" if temperature is not None else "") + ("_" if in_place else "")
    return KernelKey(name, xm.device, xm.dtype,
                     None if columns else xm.shape[-1], layout, target.dtype, dtype_of(weight),
                     (c is not None, ignore_index, softcap is not None, e is not None,
                      temperature))


def _compiled_bwd(key, merged, target, weight, lse_nt, a, b, c, ignore_index, softcap,
                  in_place, columns=False, e=None, temperature=None):
    """``ce_bwd`` of the merged logits through its compiled function for ``key``
    (``in_place``: written over the logits; ``columns``: V symbolic, and ``weight`` the
    logits' classes' slice; a ``temperature``: ``ce_bwd_full`` with entropy coefficient
    ``e``), or None where that key failed to compile."""
    xm, _ = merged
    rows = xm.shape[:-1]
    per_row = _per_row(rows, lse_nt, a, b, c, e)
    t = _row_targets(target, rows)

    def build():
        from .._inductor.standalone import compile_rows_dynamic
        fn = _bwd_function(ignore_index, in_place, c is not None, e is not None, temperature)
        return compile_rows_dynamic(fn, xm, [t, *per_row], [weight, softcap], salt(), columns)
    entry = compiled_function(key, build, xm)
    return None if entry is None else run_compiled(entry, xm, t, *per_row, weight, softcap)


def grad_op(x, t, w, lse_nt, a, b, c, e, ignore_index, softcap, temperature):
    """The gradient op a compiled function traces: ``ce_bwd``, or with a ``temperature``
    (not None) ``ce_bwd_full`` with the entropy's coefficient ``e``."""
    if temperature is None:
        return torch.ops.inductor_ce.ce_bwd.default(x, t, w, lse_nt, a, b, c, ignore_index,
                                                    softcap)
    return torch.ops.inductor_ce.ce_bwd_full.default(x, t, w, lse_nt, a, b, c, e, ignore_index,
                                                     softcap, temperature)


def _bwd_function(ignore_index, in_place, has_c, has_e, temperature):
    """_compiled_bwd's function of (x, t, lse_nt, a, b[, c][, e], w, softcap), for the
    compile."""
    def fn(x, t, lse_nt, a, b, *rest):
        c_ = rest[0] if has_c else None
        e_ = rest[1 if has_c else 0] if has_e else None
        grad = grad_op(x, t, rest[-2], lse_nt, a, b, c_, e_, ignore_index, rest[-1],
                       temperature)
        if not in_place:
            return (grad,)
        x.copy_(grad)
        return (lse_nt,)
    return fn


def ce_bwd_(x, target, weight, lse_nt, a, b, c, ignore_index, softcap, *,
            columns: bool = False, e=None, temperature=None) -> None:
    """``x.copy_(ce_bwd(x, ...))`` without a second (rows, V) buffer: the fused linear +
    cross-entropy's chunks of logits are its own, and their gradient takes their storage. The
    compiled kernel reads and writes each element at the same index (Inductor fuses the copy
    into the kernel's store); the decomposition, where the compiled path does not apply,
    computes into a temporary first. ``columns``: one compile for chunks of any width (V
    symbolic, ``weight`` the chunk's slice), used at any size once compiled (a chunk of a
    few classes then costs one launch, not the decomposition's ten)."""
    out = None
    weight = weight if c is not None else None     # the backward reads it only to smooth
    merged = merged_rows(x) if compiled_path_applies(x, target, weight, lse_nt, a, b, c, e,
                                                     any_size=True) else None
    if merged is not None and merged[1].dense_inner():
        key = _bwd_key(merged, target, weight, c, ignore_index, softcap, True, columns, e,
                       temperature)
        small = _small(x)
        if not small or (columns and _CACHE.get(key)):
            out = _compiled_bwd(key, merged, target, weight, lse_nt, a, b, c, ignore_index,
                                softcap, in_place=True, columns=columns, e=e,
                                temperature=temperature)
    if out is None:
        from ..op import decomposition
        x.copy_(decomposition.ce_bwd(x, target, weight, lse_nt, a, b, c, ignore_index,
                                     softcap, e, 1.0 if temperature is None else temperature))


def scale_(x: Tensor, g: Tensor) -> None:
    """``x *= g`` for a low-precision ``x`` and a float32 0-dim ``g``, in float32 and rounded
    once, a zero staying zero whatever g (``op/ce.py``'s ``times``): ATen's in-place multiply
    of mixed dtypes runs a kernel that is not vectorized (on the GPU several times its
    bandwidth time: benchmarks/NOTES.md); Inductor's is."""
    merged = merged_rows(x) if x.dim() >= 2 and compiled_path_applies(x, g) else None
    if merged is not None and merged[1].dense_inner() and g.dim() == 0:
        xm, layout = merged
        key = KernelKey("scale_", x.device, x.dtype, x.shape[-1], layout, None, None,
                        (g.dtype,))

        def fn(x, g):
            x.copy_(times(x, g))
            return (g,)

        from .._inductor.standalone import compile_rows_dynamic
        entry = compiled_function(key, lambda: compile_rows_dynamic(fn, xm, [], [g], salt()), xm)
        if entry is not None:
            run_compiled(entry, xm, g)
            return
    x.copy_(times(x, g))


# The ops' eager implementation (op/ce.py calls ce_fwd / ce_bwd above; None: decomposition).
BACKENDS.eager = sys.modules[__name__]
