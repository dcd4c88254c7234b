"""The two ``torch.library`` custom ops of namespace ``inductor_ce``.

    ce_fwd(logits, target, weight, ignore_index, softcap, smooth) -> (lse_nt, z_t, sum_wz)
    ce_bwd(logits, target, weight, lse_nt, a, b, c, ignore_index, softcap) -> grad_logits

and their full form, for a temperature and the entropy / accuracy statistics:

    ce_fwd_full(logits, target, weight, ignore_index, softcap, smooth, temperature)
        -> (lse_nt, z_t, sum_wz, ent_nt, max_nt)
    ce_bwd_full(logits, target, weight, lse_nt, a, b, c, e, ignore_index, softcap,
                temperature) -> grad_logits

The full form is the same lowering with two more reductions in the same pass (and one more
term in the gradient); the plain ops stay as they are so that a loss that asks for neither
pays for neither, not even an empty buffer. ``softcap`` is None or a float32 0-d tensor
(``softcap_tensor``): its value is an input of the compiled kernels, so one compile serves
every value; ``temperature`` is a float, a constant of their code.

Both are functional (``mutates_args=()``): they never write into their inputs, so
functionalization, AOTAutograd and torch.export see plain data flow. Under torch.compile the
Inductor lowering (``lowering.py``) replaces them; called eagerly they run the same lowered
kernels, compiled once per signature (``eager/kernels.py``, registered in ``BACKENDS``), and
the ATen decomposition (``decomposition.py``) where that does not apply. The decomposition is
deliberately NOT put in Inductor's decomposition table: a decomposition there would win over
the lowering.

``ce_fwd`` returns shard-combinable per-row float32 statistics (see ``decomposition.py``);
the loss itself is a per-row finish in ATen (``finish.py``) so that the single-device path and
the vocabulary-parallel path share it, and autograd derives the per-row coefficients of the
backward from it. ``ce_fwd``'s autograd saves only the logits, target, weight and lse_nt.
"""
from __future__ import annotations

from typing import Optional

import torch
from torch import Tensor

from .._inductor import runtime
from . import decomposition

LIB = "inductor_ce"


class _Backends:
    """What the layers above register on the ops (the op imports none of them): ``eager``,
    an object with ``ce_fwd`` / ``ce_bwd`` that return None where they do not apply (the
    decomposition then runs); ``on_trace``, called from the fake kernels (tracing runs them
    before Inductor looks up its cache: the moment to make sure the cache key carries the
    lowering's salt)."""
    eager = None
    on_trace = None


BACKENDS = _Backends()


def _on_trace() -> None:
    if BACKENDS.on_trace is not None:
        BACKENDS.on_trace()


@torch.library.custom_op(f"{LIB}::ce_fwd", mutates_args=())
def ce_fwd(logits: Tensor, target: Tensor, weight: Optional[Tensor], ignore_index: int,
           softcap: Optional[Tensor], smooth: bool) -> tuple[Tensor, Tensor, Tensor]:
    # Eager: the lowering's own kernels, compiled once per signature (eager/kernels.py); else ATen.
    eager = BACKENDS.eager
    out = None if eager is None else eager.ce_fwd(logits, target, weight, ignore_index,
                                                  softcap, smooth)
    if out is None:
        out = decomposition.ce_fwd(logits, target, weight, ignore_index, softcap, smooth)
    return out


@ce_fwd.register_fake
def _(logits, target, weight, ignore_index, softcap, smooth):
    _on_trace()
    rows = logits.shape[:-1]
    return tuple(logits.new_empty(rows, dtype=torch.float32) for _ in range(3))


@torch.library.custom_op(f"{LIB}::ce_bwd", mutates_args=())
def ce_bwd(logits: Tensor, target: Tensor, weight: Optional[Tensor], lse_nt: Tensor, a: Tensor,
           b: Tensor, c: Optional[Tensor], ignore_index: int,
           softcap: Optional[Tensor]) -> Tensor:
    eager = BACKENDS.eager
    out = None if eager is None else eager.ce_bwd(logits, target, weight, lse_nt, a, b, c,
                                                  ignore_index, softcap)
    if out is None:
        out = decomposition.ce_bwd(logits, target, weight, lse_nt, a, b, c, ignore_index,
                                   softcap)
    return out


@ce_bwd.register_fake
def _(logits, target, weight, lse_nt, a, b, c, ignore_index, softcap):
    _on_trace()
    # The gradient has the logits' dtype and a dense layout (a strided view of the logits
    # gets a contiguous gradient, like aten ops).
    return torch.empty(logits.shape, dtype=logits.dtype, device=logits.device)


# Eager calls' softcap tensors, one per value among the last few (a constant softcap makes
# one; a value new every call one per call, as it must: a tensor is never written after it is
# handed out, since a call may still be reading it).
_SOFTCAPS: dict = {}
_RECENT_SOFTCAPS = 8


def softcap_tensor(softcap) -> Optional[Tensor]:
    """The ops' ``softcap`` argument for the option's value: None for None, a Python number
    as a float32 0-d CPU tensor, which a compiled kernel reads as an argument (a GPU kernel
    as a scalar): one compile serves every value. Under torch.compile it is made in the
    traced graph (``traced_scalar``)."""
    if softcap is None:
        return None
    if torch.compiler.is_compiling():
        return traced_scalar(softcap, None)
    if runtime.dispatch_modes():
        # (A FakeTensorMode's shape pass, say: the mode's own tensor, kept by no later call.)
        return torch.tensor(float(softcap), dtype=torch.float32, device="cpu")
    cap = _SOFTCAPS.get(softcap)
    if cap is None:
        if len(_SOFTCAPS) >= _RECENT_SOFTCAPS:
            drop_oldest(_SOFTCAPS)
        # (On the CPU whatever the default device: a meta one, under torch.device("meta"),
        # would be read by every later call of this value. Made outside inference mode, also
        # for a call under torch.inference_mode(): a later training call could not save an
        # inference tensor.)
        with torch.inference_mode(False):
            cap = _SOFTCAPS[softcap] = torch.tensor(float(softcap), dtype=torch.float32,
                                                    device="cpu")
    return cap


def drop_oldest(cache: dict) -> None:
    """Removes the oldest entry of ``cache``, if any. Without a lock: another thread may
    change the dict meanwhile (then this removes another entry, or none, and never raises)."""
    try:
        cache.pop(next(iter(cache), None), None)
    except RuntimeError:   # (dictionary changed size during iteration)
        pass


def traced_scalar(value, device: Optional[torch.device]) -> Tensor:
    """A float32 0-d tensor of a Python number, as a product: a float that Dynamo made
    symbolic stays an input of the graph, where a tensor constructor taking float(value)
    would make it a constant again, a compile per value. (``device`` None: the default.)"""
    return torch.ones((), dtype=torch.float32, device=device) * value


# An input of ``no_double_backward`` that the backward does not have (see there).
UNTIED = object()


def no_double_backward(what: str, inputs, *grads):
    """The backward's ``grads``, unchanged where it runs once; under backward(create_graph=
    True), the same values, which raise if differentiated again: the ops' backward is not
    itself differentiable, and a gradient penalty through it would silently miss its term
    (or, where the backward's outputs are leaves, get None). ``inputs``: the op's
    differentiable inputs (None where absent). The raising node takes them as inputs too, so
    that every path from a gradient back to them passes through it: a node fed by fresh
    leaves only is skipped by ``torch.autograd.grad(penalty, W)``, which then returns the
    penalty's other terms alone, a wrong number. Where one is ``UNTIED`` (the backward does
    not hold it) the error is raised at once."""
    if not torch.is_grad_enabled() or any(
            g is not None and (type(g) is not Tensor or runtime.dispatch_modes())
            for g in grads):   # (traced: AOTAutograd's own rules apply)
        return grads
    msg = (f"{what}'s gradient is not differentiable (no double backward); for a gradient "
           "penalty use torch.func (e.g. torch.func.grad of it, which runs the "
           "differentiable ATen decomposition) or the unfused F.cross_entropy")
    present = [g.detach().requires_grad_() for g in grads if g is not None]
    if not present:
        return grads
    if any(i is UNTIED for i in inputs):
        raise RuntimeError(msg + " (raised by backward(create_graph=True) itself: this "
                           "backward cannot tie its error to every input it differentiates)")
    tied = [i for i in inputs if i is not None and i.requires_grad]
    out = runtime.delayed_error(msg, len(present) + len(tied))(*present, *tied)
    out = iter(out if isinstance(out, tuple) else (out,))
    return tuple(None if g is None else next(out) for g in grads)


def coefficients(lse_nt: Tensor, g_lse_nt, g_z_t, g_sum_wz, smooth: bool, g_ent_nt=None,
                 ent_nt=None):
    """ce_bwd's per-row (a, b, c) from the upstream gradients of the statistics (None: 0; c
    only with ``smooth``). With the full form's ``g_ent_nt`` (``ce_bwd_full``'s e), a takes
    ``entropy_term(...)``."""
    a = torch.zeros_like(lse_nt) if g_lse_nt is None else g_lse_nt
    if g_ent_nt is not None:
        a = entropy_term(a, g_ent_nt, ent_nt)
    b = torch.zeros_like(lse_nt) if g_z_t is None else g_z_t
    c = (torch.zeros_like(lse_nt) if g_sum_wz is None else g_sum_wz) if smooth else None
    return a, b, c


def times(x: Tensor, g) -> Tensor:
    """x * g, a zero of x staying zero whatever g (inf, nan). Two uses: a gradient that the
    fused head computed in the forward, times the upstream scalar g (an ignored row's
    gradient is exactly 0 in stock's backward, not 0 times the infinite g of a sum over 0 kept
    targets, e.g. transformers' num_items_in_batch of an all-padded step); and an upstream
    gradient x of zeros (an output nobody differentiates) times its coefficients, which adds
    nothing where a coefficient is nan (an ignored row of -inf logits)."""
    return torch.where(x == 0, x, x * g)


def entropy_term(a, e, ent_nt):
    """a with the entropy's share: d ent_nt / d z_j = q_j (lse_nt - z_j - ent_nt), whose
    last part is a q_j term (ce_bwd_full computes the rest, e q_j (lse_nt - z_j))."""
    return a - e * ent_nt


def _setup_context(ctx, inputs, output):
    logits, target, weight, ignore_index, softcap, smooth = inputs
    ctx.save_for_backward(logits, target, weight, output[0], softcap)
    ctx.ignore_index, ctx.smooth = ignore_index, smooth


def _backward(ctx, g_lse_nt, g_z_t, g_sum_wz):
    logits, target, weight, lse_nt, softcap = ctx.saved_tensors
    a, b, c = coefficients(lse_nt, g_lse_nt, g_z_t, g_sum_wz, ctx.smooth)
    grad = ce_bwd(logits, target, weight if ctx.smooth else None, lse_nt, a, b, c,
                  ctx.ignore_index, softcap)
    grad, = no_double_backward("inductor_ce.cross_entropy", (logits,), grad)
    return grad, None, None, None, None, None


ce_fwd.register_autograd(_backward, setup_context=_setup_context)


@torch.library.custom_op(f"{LIB}::ce_fwd_full", mutates_args=())
def ce_fwd_full(logits: Tensor, target: Tensor, weight: Optional[Tensor], ignore_index: int,
                softcap: Optional[Tensor], smooth: bool, temperature: float
                ) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    eager = BACKENDS.eager
    out = None if eager is None else eager.ce_fwd(logits, target, weight, ignore_index,
                                                  softcap, smooth, temperature)
    if out is None:
        out = decomposition.ce_fwd(logits, target, weight, ignore_index, softcap, smooth,
                                   temperature, full=True)
    return out


@ce_fwd_full.register_fake
def _(logits, target, weight, ignore_index, softcap, smooth, temperature):
    _on_trace()
    rows = logits.shape[:-1]
    return tuple(logits.new_empty(rows, dtype=torch.float32) for _ in range(5))


@torch.library.custom_op(f"{LIB}::ce_bwd_full", mutates_args=())
def ce_bwd_full(logits: Tensor, target: Tensor, weight: Optional[Tensor], lse_nt: Tensor,
                a: Tensor, b: Tensor, c: Optional[Tensor], e: Optional[Tensor],
                ignore_index: int, softcap: Optional[Tensor], temperature: float) -> Tensor:
    eager = BACKENDS.eager
    out = None if eager is None else eager.ce_bwd(logits, target, weight, lse_nt, a, b, c,
                                                  ignore_index, softcap, e, temperature)
    if out is None:
        out = decomposition.ce_bwd(logits, target, weight, lse_nt, a, b, c, ignore_index,
                                   softcap, e, temperature)
    return out


@ce_bwd_full.register_fake
def _(logits, target, weight, lse_nt, a, b, c, e, ignore_index, softcap, temperature):
    _on_trace()
    return torch.empty(logits.shape, dtype=logits.dtype, device=logits.device)


def _setup_context_full(ctx, inputs, output):
    logits, target, weight, ignore_index, softcap, smooth, temperature = inputs
    ctx.save_for_backward(logits, target, weight, output[0], output[3], softcap)
    ctx.ignore_index, ctx.smooth = ignore_index, smooth
    ctx.temperature = temperature
    # An output without a gradient reaches the backward as None, not zeros: without the
    # entropy's, ce_bwd_full runs as ce_bwd (and, traced, nothing reads ent_nt, so the
    # forward's gap sum is dead code: a temperature alone costs what the plain loss does).
    ctx.set_materialize_grads(False)
    ctx.mark_non_differentiable(output[4])     # max_nt: compared, never differentiated


def _backward_full(ctx, g_lse_nt, g_z_t, g_sum_wz, g_ent_nt, g_max_nt):
    logits, target, weight, lse_nt, ent_nt, softcap = ctx.saved_tensors
    a, b, c = coefficients(lse_nt, g_lse_nt, g_z_t, g_sum_wz, ctx.smooth, g_ent_nt, ent_nt)
    grad = ce_bwd_full(logits, target, weight if ctx.smooth else None, lse_nt, a, b, c,
                       g_ent_nt, ctx.ignore_index, softcap, ctx.temperature)
    grad, = no_double_backward("inductor_ce.cross_entropy", (logits,), grad)
    return grad, None, None, None, None, None, None


ce_fwd_full.register_autograd(_backward_full, setup_context=_setup_context_full)
