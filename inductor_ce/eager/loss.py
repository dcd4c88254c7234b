"""The eager loss: ``functional.cross_entropy`` outside torch.compile, as two compiled graphs
(its forward with the per-row finish and reduction; its backward) under one autograd node.

Compiling the whole loss turns ~40 small eager launches of the finish into the 3 + 2 kernels
of a compiled step. A call of at most ``FEW_ROWS`` rows compiles a variant lowered as for few
rows (one partial per chunk, the backward's coefficients inlined: a launch and three buffers
less per step, where the host sets the pace), and on CUDA its two functions replay from CUDA
graphs (``graphs.py``). A call whose signature was seen before skips the checks and lookups
and takes the path kept for it (``loss_of_seen_call``). The values of ``label_smoothing``,
``z_loss`` and ``softcap`` are inputs of the compiled functions, not constants of their code:
a new value never compiles (``LossSpec``). See docs/eager.md.
"""
from __future__ import annotations

import functools
from typing import NamedTuple, Optional

import torch
from torch import Tensor
from torch.compiler import is_compiling as _is_compiling

from .. import lowering
from .._inductor import runtime
from .._inductor.dispatch import autograd_inside_op as _autograd_inside_op
from ..op.ce import drop_oldest, entropy_term, no_double_backward, times
from ..op.finish import FEW_ROWS
from . import graphs as _GRAPHS
from . import kernels
from .kernels import (DENSE_2D, ONE_ROW, Layout, compiled_function, compiled_path_applies,
                      dtype_of, is_functorch_wrapped, merged_rows, op_path_forced,
                      run_compiled, salt)


class LossKey(NamedTuple):
    """What decides the code of a compiled loss's forward (a key of ``kernels._CACHE``)."""
    device: torch.device
    dtype: torch.dtype
    layout: Layout
    target_dtype: torch.dtype
    weight_dtype: Optional[torch.dtype]
    spec: "LossSpec"          # the options (V among them)
    training: bool            # also the per-row coefficients of the backward
    few: bool                 # at most FEW_ROWS rows: the variant lowered as for few rows
    chunk: bool = False       # the fused head's chunk (loss_chunk): times g, a sum, dz


class BackwardKey(NamedTuple):
    """A compiled loss's backward: that of its forward's key, for upstream gradients of a
    dtype."""
    forward: LossKey
    grad_dtype: torch.dtype


def _compile_loss(fn, x, rowwise, static, few: bool, outputs: int = 0):
    """The loss's forward or backward graph, rows symbolic; ``few``: the variant for calls of
    at most FEW_ROWS rows, lowered as for few rows (a launch and three buffers less per step,
    see lowering._few_static_rows), salted apart in Inductor's caches."""
    from .._inductor.standalone import compile_rows_dynamic
    if not few:
        return compile_rows_dynamic(fn, x, rowwise, static, salt(), outputs=outputs)
    with lowering.few_rows_hint():
        return compile_rows_dynamic(fn, x, rowwise, static, salt("eager-few"), outputs=outputs)


_REPLAYS: dict = {}   # compiled function -> its graphs.Replays


def _graph_replays(entry, copies: bool, options: bool = False):
    """``entry`` as a call replayed from CUDA graphs (graphs.py): what the few-rows calls on
    CUDA run, where the host sets the pace. ``options``: its last argument is the options
    tensor (``_Plan.options``), whose values a replay reads from a buffer of its own."""
    replays = _REPLAYS.get(entry)
    if replays is None:
        # (A replay runs no Python: only a call of ``entry`` itself needs run_compiled's flag.)
        replays = _REPLAYS[entry] = _GRAPHS.Replays(functools.partial(run_compiled, entry),
                                                    copies, options)
    return replays


def _may_replay_graphs(xm, layout, weight, few: bool) -> bool:
    """Whether this call of the loss may replay CUDA graphs (if ``graphs.ENABLED``, read per
    call): few rows on CUDA, the logits one dense (rows, V) block and the weight contiguous,
    so that the addresses and the row count alone tell its tensors apart (graphs.py)."""
    return (few and xm.is_cuda and (layout == DENSE_2D or layout == ONE_ROW)
            and (weight is None or weight.is_contiguous()))


# --- the whole loss -----------------------------------------------------------------------------

def cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing, z_loss,
                  softcap, return_lse, sig=None, temperature=None, entropy=False,
                  accuracy=False, graphs=True):
    """``functional.cross_entropy``'s value through compiled functions, or None where the op
    path should run. Arguments are already checked; ``sig``: the call's ``call_signature`` (of
    the arguments as the caller got them), under which its path is kept. With a
    ``temperature`` (the full form), the outputs (loss[, lse][, entropy][, accuracy]) as a
    tuple, ``entropy`` and ``accuracy`` saying which.

    Two compiled graphs, no AOTAutograd between them and autograd (its runtime wrappers were
    most of a few-row step's host time). The forward graph computes the loss (and lse) and,
    when a gradient is wanted, the per-row coefficients of ``ce_bwd`` for a unit upstream
    gradient: autograd's of ``op/finish.py``'s finish and the reduction, traced into the graph. Each
    row's loss depends on its own statistics only, so the coefficients for an upstream
    gradient g are g times those (g a scalar for "mean"/"sum", per row for "none"), plus, with
    ``return_lse``, g_lse times lse's. The backward graph applies them and runs ``ce_bwd``.
    ``graphs``: whether a few-row call may replay CUDA graphs (the fused head's chunks may
    not: their slices of the target are new addresses chunk after chunk, and each would be a
    graph of its own)."""
    if _is_compiling() or not compiled_path_applies(input, target, weight):
        return None
    merged = merged_rows(input)
    if merged is None:
        return None
    xm, layout = merged
    training = input.requires_grad and torch.is_grad_enabled()
    label_smoothing, z_loss = float(label_smoothing), float(z_loss)
    softcap = None if softcap is None else float(softcap)
    spec = LossSpec(ignore_index, reduction, label_smoothing > 0.0, z_loss != 0.0,
                    softcap is not None, return_lse, input.shape[-1], temperature, entropy,
                    accuracy)
    t = target if target.dim() == 1 and xm is input else target.reshape(xm.shape[:-1])
    t = t.contiguous()
    few = t.numel() <= FEW_ROWS
    key = LossKey(input.device, input.dtype, layout, target.dtype, dtype_of(weight), spec,
                  training, few)
    # (The options tensor of the first call: its shape and dtype are those of every call's.)
    entry = compiled_function(key, lambda: _compile_loss(
        spec.forward(training), xm, [t], [weight, _options_tensor(
            input.device, label_smoothing, z_loss, softcap) if spec.valued() else None], few),
        xm, temperature, ignore_index)
    if entry is None:
        return None
    call = CallPath(_plan_of(entry, key), input, xm, target, t,
                    graphs and _may_replay_graphs(xm, layout, weight, few),
                    training, reduction, return_lse)
    if sig is not None:
        if len(_SEEN_CALLS) >= MAX_SEEN_CALLS:
            # (No warning: unpadded batches, a row count new step after step, fill it in
            # normal use; a dropped call's next call runs its checks again, no compile.)
            drop_oldest(_SEEN_CALLS)
        _SEEN_CALLS[sig] = KeptCall(call, kernels._CACHE)
    return call(input, target, weight, label_smoothing, z_loss, softcap)


class CallPath:
    """One call's path through the compiled loss: its plan, the views its tensors take, and
    whether it replays CUDA graphs. Kept for the calls of the same call_signature
    (``loss_of_seen_call``)."""

    __slots__ = ("plan", "view", "t_view", "t_copy", "graphed", "training", "none",
                 "return_lse", "valued", "tuple")

    def __init__(self, plan, input, xm, target, t, graphed, training, reduction, return_lse):
        self.plan, self.graphed, self.training = plan, graphed, training
        self.view = None if xm is input else tuple(xm.shape)
        self.t_view = None if t.shape == target.shape else tuple(t.shape)
        self.t_copy = not target.reshape(t.shape).is_contiguous()
        self.none, self.return_lse = reduction == "none", return_lse
        self.valued = plan.key.spec.valued()
        self.tuple = plan.key.spec.temperature is not None    # the full form: every output

    def __call__(self, input, target, weight, label_smoothing, z_loss, softcap):
        xm = input if self.view is None else input.view(self.view)
        t = target if self.t_view is None else target.reshape(self.t_view)
        if self.t_copy:
            t = t.contiguous()
        graphed = self.graphed and _GRAPHS.ENABLED
        opts = self.plan.options(label_smoothing, z_loss, softcap) if self.valued else None
        if self.training:
            out = _apply_loss(xm, t, weight, opts, self.plan, graphed)
            if self.plan.n == 1:    # (the loss alone; the full form's callers take a tuple)
                loss = out.view(target.shape) if self.none else out
                return (loss,) if self.tuple else loss
        else:
            out = self.plan.forward_runner(graphed)(xm, t, weight, opts)
        loss = out[0].view(target.shape) if self.none else out[0]
        if self.tuple:
            return (loss, *(o.view(target.shape) for o in out[1:self.plan.n]))
        return (loss, out[1].view(target.shape)) if self.return_lse else loss


# --- calls seen before ----------------------------------------------------------------------------
# At a few rows the host sets the pace, and the checks and lookups of a call (its arguments'
# checks, its layout, its cache key and compiled function's guard) cost a step as much as the
# compiled work's launches (docs/eager.md). A call whose signature was seen before (the
# tensors' classes, shapes, strides, dtypes and devices, the options' types and values but
# label_smoothing's and z_loss's, grad mode) has passed those checks and takes the path it
# took then. The state a call_signature does not hold (dispatch modes, torch.func, forward AD,
# the CUDA-graph switch, label_smoothing's and z_loss's values) is read per call. Bounded: a
# program's few shapes need few signatures; one whose rows vary per step (unpadded batches)
# needs as many as its row counts.
MAX_SEEN_CALLS = 4096


class KeptCall(NamedTuple):
    path: "CallPath"
    cache: dict              # the kernels._CACHE it was found in (a replaced cache drops it)


_SEEN_CALLS: dict = {}       # CallSignature -> KeptCall


def call_signature(input, target, weight, ignore_index, reduction, label_smoothing, z_loss,
                   softcap, return_lse):
    """The signature of a ``cross_entropy`` call (unchecked arguments), or None where calls
    are not kept: a tensor subclass, an option of a class other than Python's own
    (``_KEPT_CLASSES``: a tensor or numpy ``ignore_index``, ``label_smoothing``, ... may
    change in place, and a tensor hashes by identity, an array not at all), or under
    torch.compile (where this is one guard). The options' classes come first: a tuple
    compares in order, so a class that differs is never compared by value. A float
    ``label_smoothing`` / ``z_loss`` enters as whether it is non-zero, a number ``softcap``
    as True (what the compiled code depends on; the values are read per call), or as None
    where it is invalid (the checks raise: never kept)."""
    if _is_compiling() or input.__class__ is not Tensor or target.__class__ is not Tensor:
        return None
    if weight is not None:
        # Its values are read per call (a kernel input); what its checks and the path read
        # is its layout, and whether a gradient is asked of it (refused).
        if weight.__class__ is not Tensor:
            return None
        weight = (weight.shape, weight.stride(), weight.dtype, weight.device,
                  weight.requires_grad and torch.is_grad_enabled())
    classes = (ignore_index.__class__, reduction.__class__, label_smoothing.__class__,
               z_loss.__class__, softcap.__class__, return_lse.__class__)
    if classes not in _KEPT_CLASSES:
        return None
    if classes[2] is float:
        label_smoothing = label_smoothing > 0.0 if 0.0 <= label_smoothing <= 1.0 else None
    if classes[3] is float:
        z_loss = z_loss != 0.0 if 0.0 <= z_loss < _INF else None
    if softcap is not None:
        softcap = True if 0.0 < softcap < _INF else None
    return _new_signature(CallSignature, (
        classes, ignore_index, reduction, label_smoothing, z_loss, softcap, return_lse,
        input.shape,
        input.stride(), input.storage_offset(), input.dtype, input.device, target.shape,
        target.stride(), target.dtype, target.device, weight,
        input.requires_grad and torch.is_grad_enabled(), kernels.MODE, FEW_ROWS))


class CallSignature(NamedTuple):
    """What a kept call's path depends on (the options' classes first: a tuple compares in
    order, so a class that differs is never compared by value)."""
    option_classes: tuple
    ignore_index: object
    reduction: object
    label_smoothing: object   # a float's: label_smoothing > 0 (None: invalid)
    z_loss: object            # a float's: z_loss != 0 (None: invalid)
    softcap: object           # a number's: True (None: invalid; its class says which)
    return_lse: object
    shape: torch.Size
    stride: tuple
    storage_offset: int
    dtype: torch.dtype
    device: torch.device
    target_shape: torch.Size
    target_stride: tuple
    target_dtype: torch.dtype
    target_device: torch.device
    weight: object            # None, or the class weight's (shape, stride, dtype, device,
                              # whether a gradient is asked of it)
    training: bool
    mode: str                 # kernels.MODE
    few_rows: int             # FEW_ROWS


_new_signature = tuple.__new__     # (NamedTuple's own __new__ is one more Python call)
# The option classes of a call that may be kept: (ignore_index, reduction, label_smoothing,
# z_loss, softcap, return_lse) of Python's own immutable classes.
_KEPT_CLASSES = frozenset((int, str, smoothing, z_loss, softcap, bool)
                          for smoothing in (int, float) for z_loss in (int, float)
                          for softcap in (type(None), int, float))
_INF = float("inf")


def loss_of_seen_call(sig, input, target, weight, label_smoothing, z_loss, softcap):
    """The loss of a call of call_signature ``sig`` along the path kept for it, or None (none
    kept, or the per-call state sends it elsewhere: see compiled_path_applies)."""
    found = _SEEN_CALLS.get(sig)
    if found is None or found.cache is not kernels._CACHE or _functorch_active() or \
            is_functorch_wrapped(input) or is_functorch_wrapped(target) or op_path_forced() \
            or weight is not None and is_functorch_wrapped(weight):
        return None
    return found.path(input, target, weight, label_smoothing, z_loss, softcap)


_functorch_active = runtime.functorch_transforms_active
_DEVICE_OPTIONS: dict = {}   # device -> its _Options, for calls without a plan (a few devices)


def device_options(device: torch.device, label_smoothing: float, z_loss: float,
                   softcap: Optional[float]) -> Tensor:
    """The options tensor of these values on ``device``, for compiled functions that no
    ``_Plan`` owns (the fused head's chunks, probability targets)."""
    options = _DEVICE_OPTIONS.get(device)
    if options is None:
        options = _DEVICE_OPTIONS[device] = _Options(device)
    return options(label_smoothing, z_loss, softcap)


def loss_chunk(z, t, w, ignore_index, label_smoothing, z_loss, softcap, g, temperature=None):
    """For a chunk of rows of the fused linear + cross-entropy of a scalar loss: g times the
    chunk's ``cross_entropy(z, t, reduction="sum")``, and its gradient written over ``z``
    (``g`` a 0-dim float32, the upstream gradient known before the backward). Returns (g *
    the chunk's summed loss, lse_nt), and with a ``temperature`` (``ce_fwd_full``'s
    statistics) also z_t, ent_nt and max_nt. In one compiled graph where the compiled path
    applies: the chunk's ce_fwd kernels, its finish with the per-row coefficients (a, b[, c])
    of ``ce_bwd`` (autograd's of the finish, times g, 0 on ignored rows), and ce_bwd storing
    dz over z (one graph call per chunk: at small D the host sets the pace, see
    docs/linear.md). Otherwise the same function eagerly, then ``ce_bwd_``. Callable inside
    an op's implementation: the function traces (or runs) autograd of the finish, so it runs
    with the dispatcher's autograd keys."""
    label_smoothing, z_loss = float(label_smoothing), float(z_loss)
    softcap = None if softcap is None else float(softcap)
    spec = LossSpec(ignore_index, "sum", label_smoothing > 0.0, z_loss != 0.0,
                    softcap is not None, False, z.shape[-1], temperature,
                    statistics=temperature is not None)
    opts = device_options(z.device, label_smoothing, z_loss, softcap) if spec.valued() \
        else None
    merged = merged_rows(z) if compiled_path_applies(z, t, w, g) and t.dim() == 1 else None
    if merged is not None and merged[0] is z and merged[1].dense_inner():
        key = LossKey(z.device, z.dtype, merged[1], t.dtype, dtype_of(w), spec,
                      training=True, few=False, chunk=True)
        t = t.contiguous()
        entry = compiled_function(key, lambda: _compile_chunk(spec, z, t, w, g, opts), z,
                                  temperature, ignore_index)
        if entry is not None:    # (Inductor's kernels: no autograd to run)
            return run_compiled(entry, z, t, w, g, opts)
    with _autograd_inside_op():
        loss, lse_nt, a, b, *rest = _chunk_function(spec, False)(z, t, w, g, opts)
    c = rest[0] if spec.smooth else None
    kernels.ce_bwd_(z, t, w if spec.smooth else None, lse_nt, a, b, c, ignore_index,
                    spec.cap(opts), temperature=temperature)
    return (loss, lse_nt, *rest[spec.smooth:])


def _chunk_function(spec: "LossSpec", write_grad: bool):
    """loss_chunk's function of (z, t, w, g, opts), traced by the compile (``write_grad``:
    the gradient stored over z) or run eagerly (the coefficients returned after lse_nt)."""
    forward = spec.forward(True)
    n_coefs = 2 + spec.smooth
    ignore_index, temperature = spec.ignore_index, spec.temperature

    def fn(x, t, w, g, opts):
        loss, lse_nt, *rest = forward(x, t, w, opts)
        # (On ignored rows the finish's coefficients are 0 but where g is nan: "mean" over
        # kept rows whose class weights sum to 0, stock's 0 / 0 on the kept rows only.)
        keep = t != ignore_index
        a, b, *c = (torch.where(keep, k * g, 0.0) for k in rest[:n_coefs])
        stats = rest[n_coefs:]
        if not write_grad:
            return (loss * g, lse_nt, a, b, *c, *stats)
        # (ce_bwd reads the weight only to smooth.)
        cw, c = (w, c[0]) if c else (None, None)
        x.copy_(kernels.grad_op(x, t, cw, lse_nt, a, b, c, None, ignore_index, spec.cap(opts),
                                temperature))
        return (loss * g, lse_nt, *stats)
    return fn


def _compile_chunk(spec, z, t, w, g, opts):
    from .._inductor.standalone import compile_rows_dynamic
    with _autograd_inside_op():
        return compile_rows_dynamic(_chunk_function(spec, True), z, [t], [w, g, opts], salt())


class LossSpec(NamedTuple):
    """The options of one compiled loss that are constants of its code (part of its key).
    ``label_smoothing``, ``z_loss`` and ``softcap`` are there only as whether each is
    non-zero or given (whether its term is computed); their values are an input of both
    graphs (``opts``, a float32 tensor [label_smoothing, z_loss, softcap]), so that one
    compile serves every value: an annealed smoothing or a z-loss warm-up would otherwise
    compile at every step."""
    ignore_index: int
    reduction: str
    smooth: bool              # label_smoothing > 0
    zloss: bool               # z_loss != 0
    capped: bool              # a softcap is applied (its value: opts[2])
    return_lse: bool
    vocab: int
    temperature: Optional[float] = None   # the full form (ce_fwd_full) when set
    entropy: bool = False     # (full) also each row's entropy, differentiable
    accuracy: bool = False    # (full) also each row's accuracy
    statistics: bool = False  # (full) the outputs end with z_t, ent_nt, max_nt (loss_chunk)

    def valued(self) -> bool:
        """Whether the forward graph takes the options tensor (else it is None)."""
        return self.smooth or self.zloss or self.capped

    def cap(self, opts) -> Optional[Tensor]:
        """The ops' softcap: its value in the options tensor, or None."""
        return opts[2] if self.capped else None

    def outputs(self) -> int:
        """How many outputs the caller gets: loss[, lse][, entropy][, accuracy]."""
        return 1 + self.return_lse + self.entropy + self.accuracy

    def forward(self, training: bool):
        """The forward graph's function of (x, t, w, opts): (loss[, lse][, entropy][,
        accuracy]) and, when ``training``, lse_nt and the coefficients for a unit upstream
        gradient: the loss's a, b[, c], then lse's a, b, then the entropy's a, b, e; with
        ``statistics``, then z_t, ent_nt and max_nt."""
        from ..op.finish import entropy_and_accuracy, finish, reduce
        smooth, zloss, temperature = self.smooth, self.zloss, self.temperature
        ignore_index = self.ignore_index
        full = temperature is not None

        def fn(x, t, w, opts):
            cap = self.cap(opts)
            if full:
                stats = torch.ops.inductor_ce.ce_fwd_full.default(x, t, w, ignore_index,
                                                                  cap, smooth, temperature)
            else:
                stats = torch.ops.inductor_ce.ce_fwd.default(x, t, w, ignore_index, cap,
                                                             smooth)
            with torch.enable_grad():
                leaves = [s.detach().requires_grad_(training)
                          for s in stats[:3 + self.entropy]]
                loss, lse, w_t = finish(*leaves[:3], t, w, ignore_index,
                                        opts[0] if smooth else 0.0,
                                        opts[1] if zloss else 0.0, self.vocab, smooth, zloss)
                # Each output with the statistics it is differentiated in: the loss's
                # coefficients (a, b[, c]), then lse's (a, b), then the entropy's (a, b, e).
                # (sum: each row's output depends on its own statistics.)
                outs = [(reduce(loss, w_t, self.reduction, w is not None and smooth),
                         leaves[:2 + smooth])]
                if self.return_lse:
                    outs.append((lse, leaves[:2]))
                if self.entropy or self.accuracy:
                    entropy, accuracy = entropy_and_accuracy(
                        leaves[0], leaves[1], leaves[3] if self.entropy else stats[3],
                        stats[4], t, ignore_index)
                if self.entropy:
                    outs.append((entropy, [leaves[0], leaves[1], leaves[3]]))
                coefs = []
                for o, inputs in outs if training else ():
                    coefs += torch.autograd.grad(o.sum(), inputs, retain_graph=True,
                                                 materialize_grads=True)
                if self.entropy and training:   # (as ce_fwd_full's autograd does)
                    coefs[-3] = entropy_term(coefs[-3], coefs[-1], stats[3])
            values = [o.detach() for o, _ in outs] + ([accuracy] if self.accuracy else [])
            return (tuple(values) + ((stats[0], *coefs) if training else ())
                    + ((stats[1], stats[3], stats[4]) if self.statistics else ()))

        return fn

    def backward(self, per_row_g: bool, with_lse: bool, with_entropy: bool = False):
        """The backward graph's function of (x, out, t, lse_nt, the loss's coefficients[,
        lse's][, the entropy's], g if per_row_g, g_lse if with_lse, g_entropy if
        with_entropy, w, g if not per_row_g, opts (None without a softcap)): the gradient,
        written into ``out`` (a tensor of x's shape and dtype, contiguous; Inductor stores
        into it from the gradient's kernel), then the rows-wise inputs, then the fixed-shape
        ones, as ``compile_rows_dynamic`` takes them. (A gradient written into the caller's
        tensor is what lets a CUDA graph replay it: see graphs.py.)"""
        ignore_index, smooth, temperature = self.ignore_index, self.smooth, self.temperature
        n = 2 + smooth

        def fn(x, out, t, lse_nt, *rest):
            coefs, rest = rest[:n], rest[n:]
            lse_coefs, rest = (rest[:2], rest[2:]) if with_lse else ((), rest)
            ent_coefs, rest = (rest[:3], rest[3:]) if with_entropy else ((), rest)
            if per_row_g:
                g, *rest = rest
            g_lse = g_ent = None
            if with_lse:
                g_lse, *rest = rest
            if with_entropy:
                g_ent, *rest = rest
            w, *rest = rest
            if not per_row_g:
                g, *rest = rest
            opts, = rest
            # (An ignored row's coefficients are 0, and its gradient 0 whatever g, as stock's:
            # g is inf for a sum over no kept target divided by a num_items_in_batch of 0.)
            a, b, *c = (times(k, g) for k in coefs)
            # An output that is not differentiated gets an upstream gradient of zeros (the
            # autograd.Function's): its terms must add nothing, also where its coefficients
            # are nan (an ignored row of -inf logits has a nan entropy and lse).
            if with_lse:
                a, b = a + times(g_lse, lse_coefs[0]), b + times(g_lse, lse_coefs[1])
            c = c[0] if c else None
            e = None
            if with_entropy:    # (the full form only)
                a, b = a + times(g_ent, ent_coefs[0]), b + times(g_ent, ent_coefs[1])
                e = times(g_ent, ent_coefs[2])
            grad = kernels.grad_op(x, t, w, lse_nt, a, b, c, e, ignore_index, self.cap(opts),
                                   temperature)
            if out is None:     # (batched upstream gradients: see _Plan.backward)
                return (grad,)
            out.copy_(grad)
            return (out,)

        return fn


# --- the options' values -------------------------------------------------------------------------
# How many values' tensors an _Options keeps: a loss of constant options (the common case) and
# a few losses of different ones in one step make none per call; a value new every call (an
# annealed smoothing) makes one per call, as it must (never a compile). Replaced oldest first;
# not a cache that can outgrow its use, so no warning when full.
RECENT_OPTIONS = 8


class _Options:
    """The graphs' options tensor for given values: float32 [label_smoothing, z_loss,
    softcap] on one device, made once per value among the last RECENT_OPTIONS. Never written
    after it is made (a call may still be reading it). On CUDA one per stream: each is
    written on the stream that reads it, so no other stream can read it before it is."""

    __slots__ = ("device", "cuda", "made")

    def __init__(self, device: torch.device):
        self.device, self.cuda, self.made = device, device.type == "cuda", {}

    def __call__(self, label_smoothing, z_loss, softcap) -> Tensor:
        if self.cuda and _capturing():
            # A caller's CUDA-graph capture: a tensor of this call's own, filled by kernels
            # its graph records (and freed into its pool after the call, as any temporary).
            # A cached one would be read by that graph through an address it does not own
            # (freed on eviction, reused), or, made here, read before any replay wrote it
            # by later captures or calls on that (pooled) stream.
            return _options_tensor(self.device, label_smoothing, z_loss, softcap)
        key = (_current_stream(self.device.index), label_smoothing, z_loss, softcap) \
            if self.cuda else (label_smoothing, z_loss, softcap)
        opts = self.made.get(key)
        if opts is None:
            if len(self.made) >= RECENT_OPTIONS:
                drop_oldest(self.made)
            # (Made outside inference mode, also for a call under torch.inference_mode(): a
            # later training call could not save an inference tensor.)
            with torch.inference_mode(False):
                opts = self.made[key] = _options_tensor(self.device, label_smoothing, z_loss,
                                                        softcap)
        return opts


_current_stream = runtime.current_raw_stream
_capturing = runtime.stream_capturing


def _options_tensor(device: torch.device, label_smoothing, z_loss, softcap) -> Tensor:
    """float32 [label_smoothing, z_loss, softcap] (a softcap of None: 1, never read)."""
    softcap = 1.0 if softcap is None else softcap
    if device.type == "cpu":
        return torch.tensor((label_smoothing, z_loss, softcap), dtype=torch.float32)
    # Filled by kernels that take the values as arguments, not copied from host memory: no
    # host sync, and a CUDA graph capture (a caller's) records the values with them.
    opts = torch.full((3,), label_smoothing, dtype=torch.float32, device=device)
    opts[1:].fill_(z_loss)
    opts[2:].fill_(softcap)
    return opts


class _Plan:
    """What every call of one compiled loss (a forward entry) shares, looked up once per call
    by the entry's identity: how many outputs it returns, its options tensors, its backward's
    compiled function (found on the first backward, re-checked against each call's rows) and
    their CUDA-graph runners. (At a few rows the host sets the pace: a nested cache key hashed
    per backward cost more than the rest of its Python.)"""

    __slots__ = ("entry", "key", "n", "per_row_g", "return_lse", "entropy", "accuracy",
                 "capped", "fn", "run", "bwd", "bwd_sizes", "replays", "bwd_replays",
                 "options")

    def __init__(self, entry, key):
        spec = key.spec
        self.entry, self.key = entry, key
        self.n = spec.outputs()
        self.per_row_g, self.return_lse = spec.reduction == "none", spec.return_lse
        self.entropy, self.accuracy, self.capped = spec.entropy, spec.accuracy, spec.capped
        self.fn = spec.backward(self.per_row_g, self.return_lse, self.entropy)
        self.run = functools.partial(run_compiled, entry)
        self.bwd = self.bwd_sizes = self.replays = self.bwd_replays = None
        self.options = _Options(key.device)

    def forward_runner(self, graphed: bool):
        """The forward: its compiled function, or that replayed from CUDA graphs (its
        options tensor, when it takes one, read through the replays' own buffer)."""
        if not graphed:
            return self.run
        if self.replays is None:
            self.replays = _graph_replays(self.entry, True, self.key.spec.valued())
        return self.replays

    def backward(self, ctx, g, g_lse, g_ent=None):
        x, t, w = ctx.saved_tensors
        rowwise = [t, *ctx.stats]
        if self.per_row_g:
            g = g.reshape(x.shape[:-1]).contiguous()
            rowwise.append(g)
        if self.return_lse:
            rowwise.append(g_lse.reshape(x.shape[:-1]).contiguous())
        if self.entropy:
            rowwise.append(g_ent.reshape(x.shape[:-1]).float().contiguous())
        # (the options tensor last, for the softcap alone: a replay reads it from a buffer of
        # its own)
        opts = ctx.opts if self.capped else None
        static = [w, opts] if self.per_row_g else [w, g, opts]
        if torch.compiler.is_compiling() or runtime.under_vmap(g, g_lse, g_ent):
            # Traced by Dynamo (compiled autograd traces the backward of an eager forward), or
            # upstream gradients batched by vmap (torch.autograd.grad(is_grads_batched=True),
            # jacobian(vectorize=True)): the compiled function takes plain tensors, and no
            # plain tensor holds the gradient (nor can a trace run it). The same function
            # out of place, through the ops (which Inductor lowers, or which run their
            # decomposition under a transform).
            return self.fn(x, None, *rowwise, *static)[0]
        grad = torch.empty_like(x, memory_format=torch.contiguous_format)
        entry = self.bwd
        # (Calls of one forward entry may differ in the logits' strides, e.g. transposed
        # views of different row counts, and the backward's guards may pin them: a call of
        # the sizes and strides it last took skips only the check of those guards.)
        sizes = (x.shape, x.stride())
        if entry is None or sizes != self.bwd_sizes and not entry.accepts(x):
            entry = compiled_function(BackwardKey(self.key, g.dtype), lambda: _compile_loss(
                self.fn, x, rowwise, static, self.key.few, outputs=1), x)
            if entry is None:
                self.fn(x, grad, *rowwise, *static)   # the ops' own (decomposition) path
                return grad
            if entry is not self.bwd:
                self.bwd, self.bwd_replays = entry, None
            self.bwd_sizes = sizes
        if ctx.graphed:
            if self.bwd_replays is None:
                self.bwd_replays = _graph_replays(entry, False, self.capped)
            self.bwd_replays(x, grad, *rowwise, *static)
        else:
            run_compiled(entry, x, grad, *rowwise, *static)
        return grad


_PLANS: dict = {}    # forward entry -> its _Plan (bounded with kernels._CACHE: _forget)


def _plan_of(entry, key) -> _Plan:
    plan = _PLANS.get(entry)
    if plan is None:
        plan = _PLANS[entry] = _Plan(entry, key)
    return plan


def _forget(dropped) -> None:
    """What was kept for compiled functions that kernels._CACHE dropped (its bound): their
    plans, CUDA graphs (released: after a device synchronization, no replay of theirs is in
    flight when their memory goes back) and every kept call (they find their paths again)."""
    dropped = set(dropped)
    for entry in dropped:
        _PLANS.pop(entry, None)
        replays = _REPLAYS.pop(entry, None)
        if replays is not None:
            replays.release()
    for plan in list(_PLANS.values()):   # (another thread may add a plan meanwhile)
        if plan.bwd in dropped:
            plan.bwd = plan.bwd_replays = None
    _SEEN_CALLS.clear()


kernels.ON_DROP.append(_forget)


class _Loss(torch.autograd.Function):
    """The compiled loss as one autograd node (see ``cross_entropy``) of one ``_Plan``;
    ``graphed``: both of its functions replay CUDA graphs. Called through ``_apply_loss``."""

    @staticmethod
    def forward(ctx, x, t, w, opts, plan, graphed):
        out = plan.forward_runner(graphed)(x, t, w, opts)
        n = plan.n
        # The per-row statistics are this node's own (no caller sees them): kept on ctx, not
        # saved (a saved tensor is packed and unpacked: host time per call).
        ctx.save_for_backward(x, t, w)
        ctx.plan, ctx.graphed, ctx.stats, ctx.opts = plan, graphed, out[n:], opts
        if plan.accuracy:
            ctx.mark_non_differentiable(out[n - 1])
        return out[0] if n == 1 else out[:n]

    @staticmethod
    def backward(ctx, g, *more):
        g_lse, g_ent = _more_grads(ctx.plan, more)
        if torch.is_grad_enabled():    # backward(create_graph=True): see _backward_once
            return _backward_once(ctx, g, g_lse, g_ent)
        return ctx.plan.backward(ctx, g, g_lse, g_ent), None, None, None, None, None


def _more_grads(plan, more):
    """(g_lse, g_entropy) among the upstream gradients after the loss's."""
    g_lse = more[0] if plan.return_lse else None
    g_ent = more[plan.return_lse] if plan.entropy else None
    return g_lse, g_ent


def _backward_once(ctx, g, g_lse, g_ent=None):
    """backward(create_graph=True): the same gradient, which raises if differentiated
    again (``no_double_backward``)."""
    with torch.no_grad():
        grad = ctx.plan.backward(ctx, g, g_lse, g_ent)
    grad, = no_double_backward("inductor_ce.cross_entropy", ctx.saved_tensors[:1], grad)
    return grad, None, None, None, None, None


# autograd.Function.apply without its Python wrapper (whose work, binding a setup_context's
# arguments and unwrapping functorch's dead wrappers, applies to no call that gets here:
# cross_entropy takes this path outside torch.func transforms only; docs/eager.md).
_apply_loss = runtime.function_apply(_Loss)


