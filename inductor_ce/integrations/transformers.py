"""Hugging Face transformers: a causal LM's training loss by the fused linear + cross-entropy.

    import inductor_ce.transformers
    model = AutoModelForCausalLM.from_pretrained(...)
    inductor_ce.transformers.apply(model)   # training steps: loss without a logits tensor
    ...
    inductor_ce.transformers.revert(model)  # the model's own forward again

Also ``ForCausalLMLoss(hidden_states, lm_head_weight, labels, hidden_size, ...)``, the
signature of Liger's ``LigerForCausalLMLoss`` (code written for it switches by an import).

How ``apply`` works, and why this way. The model's own forward still runs: its argument
handling, backbone call, ``logits_to_keep`` slice, MoE auxiliary loss, output dataclass and
``return_dict`` stay the library's (Liger and TRL's ``add_fused_lm_head`` rewrite the forward
around the backbone instead, per architecture or by assumption). Two calls inside it are
redirected for a training call:

* ``self.lm_head(hidden_states[:, slice_indices, :])``: the head's forward computes the loss
  from those hidden states, its ``weight`` (and ``bias``) and the labels, and returns a
  (1, 1, 1) zero connected to the loss. The loss is computed inside the head module's
  ``__call__``, so the head's hooks run around it: FSDP2 (``fully_shard``) all-gathers a
  sharded head before it and reshards after, re-gathers before its backward (the hook on the
  returned tensor) and reduce-scatters the head's gradient after it. A hook of any other kind
  on the head (forward, forward pre-, backward; the head's own or nn.Module's global ones,
  also registered after ``apply``) would see that zero instead of logits: a call that finds
  one is the unpatched forward (logits and transformers' loss), with a warning naming it.
* ``self.loss_function(logits, labels, ...)``: returns that loss (plus 0 times the "logits",
  which keeps the head's output on the backward path, for those hooks).

That is exact only if nothing between the two calls depends on the logits' values, which
``apply`` checks on the forward's source (``ast``) before patching anything. Accepted between
``logits = self.lm_head(...)`` (optionally ``.float()``/``.contiguous()``) and
``loss = self.loss_function(logits, ...)``: Gemma-2/3's ``final_logit_softcapping`` block (the
op's ``softcap``), multiplication or division of the logits by a number attribute of the
model (Cohere's ``logit_scale``, Granite's ``logits_scaling``, Falcon-H1's
``lm_head_multiplier``: applied to the hidden states and the bias, which is the same product),
and statements that do not read the logits; the loss call must be
``self.loss_function(logits, labels, vocab_size[, **kwargs])`` with the forward's ``labels``
and ``**kwargs`` unchanged before it (the fused loss takes ``shift_labels``,
``num_items_in_batch`` and ``ignore_index`` from those kwargs only if they are handed on, as
the model's loss would); after the loss, the logits may only be handed to the output
(``logits=logits``). Anything else, a head that is not a plain ``nn.Linear`` of
``vocab_size`` outputs, or a loss other than transformers' ``ForCausalLMLoss``, is refused with
a ValueError saying what is supported: never a silently different loss.

When the fused loss is used (Liger's convention and the Trainer's ``skip_logits`` protocol):
``skip_logits=True`` passed to the forward, or by default ``model.training`` and ``labels`` given.
The output's ``logits`` is then None and not among its keys (a tuple output,
``return_dict=False``, has no logits entry, as transformers' ``to_tuple`` leaves out None
fields). Without labels (generation), in eval mode (evaluation with logits) or with
``skip_logits=False`` the forward is the unpatched one.

TRL (1.16): its trainers call TRL's own fused LM head, ``add_fused_lm_head``, which replaces
``model.forward`` and answers ``model(..., labels=labels, fused_lm_head=True)`` from the
backbone and the head's weight, bypassing the model's forward. ``apply`` on a model that has
it (``apply(trainer.model)`` after creating the trainer) serves those calls: the model's own
forward as above, the head computing TRL's per-token fields at the trainer's temperature,
returned as TRL's ``FusedCausalLMOutput`` (docs/transformers.md#trl).

transformers and trl are imported lazily: this module imports without them.
"""
from __future__ import annotations

import ast
import contextlib
import copyreg
import functools
import inspect
import textwrap
import threading
import types
import warnings
from collections import OrderedDict
from typing import Optional

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .._inductor import runtime
from ..functional import linear_cross_entropy
from ..linear.chunks import logits_element_size
from ..linear.plan import deprecated_budget, lean_chunk_rows
from ..op.checks import check_budget

__all__ = ["apply", "revert", "is_applied", "ForCausalLMLoss"]

_PATCH_ATTR = "_inductor_ce_patch"
_WARNED = "_inductor_ce_warned"   # why a model last ran unfused, warned of (_warn_unfused)

# Liger options with no counterpart here: refused when set, not silently dropped.
_LIGER_UNSUPPORTED = ("return_z_loss", "return_token_accuracy", "return_predicted_tokens",
                      "use_token_scaling")


def ForCausalLMLoss(hidden_states: Tensor, lm_head_weight: Tensor, labels: Tensor,
                    hidden_size: int, num_items_in_batch=None, ignore_index: int = -100,
                    shift_labels: Optional[Tensor] = None,
                    final_logit_softcapping: Optional[float] = None, **kwargs) -> Tensor:
    """transformers' ``ForCausalLMLoss`` on ``hidden_states @ lm_head_weight.T`` (+ ``bias``),
    without the logits; the signature of Liger's ``LigerForCausalLMLoss``.

    * labels are shifted (position i predicts ``labels[..., i + 1]``, the last position
      nothing) unless ``shift_labels`` (already aligned with ``hidden_states``) is given;
    * ``ignore_index`` labels (-100) count for nothing;
    * ``num_items_in_batch`` given (an int or a tensor, e.g. the Trainer's count over all
      gradient-accumulation steps): the sum divided by it, with no host sync; else the mean
      over the non-ignored labels (NaN if there are none, as transformers');
    * ``final_logit_softcapping``: logits ``c * tanh(logits / c)`` (Gemma-2/3).

    Keyword extras, Liger's names: ``bias`` (the head's bias), ``ce_weight`` (class weights),
    ``label_smoothing``, ``lse_square_scale`` (z-loss); and ours, ``memory_budget`` (bytes
    of chunk scratch, as ``linear_cross_entropy``'s; default eagerly chunks of
    ``inductor_ce.linear.lean_chunk_rows`` rows, D / 2 rows within [2^27, 2^28] logits, so
    that the loss adds little to an eager model's peak; under torch.compile the op's own, D
    rows). Other keyword arguments (a model's
    forward kwargs) are ignored, as transformers' and Liger's loss functions do; Liger's
    ``return_z_loss``, ``return_token_accuracy``, ``return_predicted_tokens`` and
    ``use_token_scaling`` are not supported (ValueError when set).

    Returns the float32 loss (inductor_ce's loss is float32 whatever the input dtype).
    """
    for name in _LIGER_UNSUPPORTED:
        if kwargs.get(name):
            raise ValueError(f"{name} is not supported by inductor_ce's ForCausalLMLoss")
    if shift_labels is None:
        # Shift so that tokens < n predict n (the last position gets ignore_index).
        shift_labels = F.pad(labels, (0, 1), value=ignore_index)[..., 1:]
    hidden = hidden_states.reshape(-1, hidden_size)
    target = shift_labels.reshape(-1).to(hidden.device)
    budget = kwargs.get("memory_budget")
    if kwargs.get("chunk_size") is not None:   # (deprecated: rows per chunk)
        budget = deprecated_budget(budget, None, kwargs["chunk_size"], lm_head_weight,
                                   hidden_states)
    reduction = "mean" if num_items_in_batch is None else "sum"
    loss = linear_cross_entropy(
        hidden, lm_head_weight, target, linear_bias=kwargs.get("bias"),
        weight=kwargs.get("ce_weight"), reduction=reduction, ignore_index=ignore_index,
        label_smoothing=kwargs.get("label_smoothing", 0.0),
        z_loss=kwargs.get("lse_square_scale", 0.0), softcap=final_logit_softcapping,
        memory_budget=budget or _default_budget(lm_head_weight, hidden))
    if num_items_in_batch is not None:
        if isinstance(num_items_in_batch, Tensor):
            num_items_in_batch = num_items_in_batch.to(loss.device)  # (no .item(): no sync)
        loss = loss / num_items_in_batch
    return loss


def _default_budget(weight: Tensor, hidden: Tensor) -> Optional[int]:
    """Eagerly, the budget of chunks of ``linear.lean_chunk_rows`` rows (D / 2): an eager
    model's own activations are larger when its loss runs, and the loss's chunk adds to them.
    Under torch.compile, None (the op's own default, D rows), whose peak is already below
    Liger's eager one and which is faster (Llama and Gemma-2, measured: docs/transformers.md).
    The chunks' logits have the hidden states' dtype as the op takes them: under autocast
    the autocast dtype, also for float32 parameters (a Trainer's ``bf16=True``)."""
    if torch.compiler.is_compiling():
        return None
    vocab = weight.shape[0]
    return lean_chunk_rows(vocab, hidden.shape[-1]) * vocab * logits_element_size(hidden)


# ----------------------------------------------------------------------------- source check

class _Spec:
    """What the forward does to the logits between the head and the loss."""

    def __init__(self):
        self.softcap = False             # Gemma's final_logit_softcapping block
        self.scale = None                # (op "mul" or "div", attribute path from the model)
        self.loss_kwargs = True          # the loss call passes the forward's **kwargs on


_SOFTCAP_BLOCK = ("if self.config.final_logit_softcapping is not None:\n"
                  "    {v} = {v} / self.config.final_logit_softcapping\n"
                  "    {v} = torch.tanh({v})\n"
                  "    {v} = {v} * self.config.final_logit_softcapping")

SUPPORTED = (
    "a causal LM whose forward computes `logits = self.lm_head(hidden_states...)` (optionally "
    "`.float()` / `.contiguous()`), optionally Gemma's `final_logit_softcapping` block or a "
    "multiplication/division of the logits by a number attribute of the model (Cohere "
    "`logit_scale`, Granite `logits_scaling`, Falcon-H1 `lm_head_multiplier`), then `loss = "
    "self.loss_function(logits, labels, vocab_size[, **kwargs])` (transformers' "
    "ForCausalLMLoss; labels and kwargs unchanged before it), and hands the logits only to "
    "its output; the head a plain nn.Linear with vocab_size outputs")


def _refuse(cls, why: str):
    return ValueError(f"inductor_ce.transformers cannot patch {cls.__name__} exactly: {why}. "
                      f"Supported: {SUPPORTED}.")


def _attr_path(node) -> Optional[tuple]:
    """``self.a.b`` -> ("a", "b"); anything else None."""
    path = []
    while isinstance(node, ast.Attribute):
        path.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == "self" and path:
        return tuple(reversed(path))
    return None


def _is_call_of(node, attr: str) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == attr and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "self")


def _reads(node, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _head_expr(value):
    """``self.lm_head(x)``, possibly ``.float()``/``.contiguous()`` and ``* s`` / ``/ s``:
    returns (the call or None, scale or None)."""
    scale = None
    if isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Mult, ast.Div)):
        path = _attr_path(value.right)
        if path is None:
            return None, None
        scale = ("mul" if isinstance(value.op, ast.Mult) else "div", path)
        value = value.left
    while (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
           and value.func.attr in ("float", "contiguous") and not value.args
           and not value.keywords):
        value = value.func.value
    return (value if _is_call_of(value, "lm_head") and len(value.args) == 1
            and not value.keywords else None), scale


def _forward_spec(cls) -> _Spec:
    """What ``cls.forward`` does to the logits, checked on its source (ValueError: refused).
    Kept per class and forward function: a forward replaced on the class is checked anew."""
    return _spec_of(cls, inspect.unwrap(cls.forward))


@functools.lru_cache(maxsize=64)   # (bounded: it holds the classes, which may be made at runtime)
def _spec_of(cls, fn) -> _Spec:
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError) as e:
        raise _refuse(cls, f"the source of its forward cannot be read ({e})") from None
    fdef = tree.body[0]
    body = fdef.body
    heads = [n for n in ast.walk(tree) if _is_call_of(n, "lm_head")]
    losses = [n for n in ast.walk(tree) if _is_call_of(n, "loss_function")]
    if len(heads) != 1 or len(losses) != 1:
        raise _refuse(cls, f"its forward calls self.lm_head {len(heads)} times and "
                           f"self.loss_function {len(losses)} times (expected once each)")
    i = next(k for k, s in enumerate(body) if any(n is heads[0] for n in ast.walk(s)))
    stmt, spec = body[i], _Spec()
    call, spec.scale = (_head_expr(stmt.value) if isinstance(stmt, ast.Assign)
                        else (None, None))
    if (call is None or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name)):
        raise _refuse(cls, f"unrecognised head statement `{ast.unparse(stmt)}`")
    v = stmt.targets[0].id
    for j in range(i + 1, len(body)):
        s = body[j]
        if any(n is losses[0] for n in ast.walk(s)):
            break
        if not _reads(s, v):
            continue
        code = ast.unparse(s)
        if code == _SOFTCAP_BLOCK.format(v=v) and not spec.softcap:
            spec.softcap = True
            continue
        if (isinstance(s, ast.Assign) and len(s.targets) == 1
                and isinstance(s.targets[0], ast.Name) and s.targets[0].id == v
                and isinstance(s.value, ast.BinOp) and isinstance(s.value.op, (ast.Mult, ast.Div))
                and isinstance(s.value.left, ast.Name) and s.value.left.id == v
                and _attr_path(s.value.right) is not None and spec.scale is None
                and not spec.softcap):
            spec.scale = ("mul" if isinstance(s.value.op, ast.Mult) else "div",
                          _attr_path(s.value.right))
            continue
        raise _refuse(cls, f"`{code}` uses the logits between the head and the loss")
    else:
        raise _refuse(cls, "self.loss_function is not called after self.lm_head")
    # The loss: `if labels is not None: loss = self.loss_function(<v>, ...)`, nothing else.
    s, call = body[j], losses[0]
    if not (isinstance(s, ast.If) and ast.unparse(s.test) == "labels is not None"
            and len(s.body) == 1 and isinstance(s.body[0], ast.Assign)
            and s.body[0].value is call and not s.orelse):
        raise _refuse(cls, f"unrecognised loss statement `{ast.unparse(s)}`")
    _check_loss_call(cls, fdef, body[:j], call, v, spec)
    # After the loss, the logits only go into the output: `logits=<v>` keyword arguments.
    allowed = {id(k.value) for s2 in body[j + 1:] for k in ast.walk(s2)
               if isinstance(k, ast.keyword) and k.arg == "logits"}
    for s2 in body[j + 1:]:
        if isinstance(s2, ast.If) and ast.unparse(s2.test) == "not return_dict":
            continue  # (never taken: the fused call passes return_dict=True)
        for n in ast.walk(s2):
            if isinstance(n, ast.Name) and n.id == v and id(n) not in allowed:
                raise _refuse(cls, f"`{ast.unparse(s2)}` uses the logits after the loss")
    return spec


_LOSS_KWARGS = ("shift_labels", "num_items_in_batch", "ignore_index")
_MUTATORS = ("pop", "update", "clear", "setdefault", "popitem", "__setitem__", "__delitem__")


def _check_loss_call(cls, fdef, before, call, v, spec):
    """``self.loss_function(<v>, labels, <vocab>, **kwargs)`` (the first three also as
    keywords), with the forward's own ``labels`` and ``**kwargs`` unchanged before it: the
    fused loss takes the labels and kwargs (shift_labels, num_items_in_batch, ignore_index)
    of the call, so they must be what the loss would have been given."""
    names = ("logits", "labels", "vocab_size")
    args = dict(zip(names, call.args))
    for k in call.keywords:
        if k.arg is None:
            continue
        if k.arg not in names or k.arg in args:
            raise _refuse(cls, f"the loss is called with `{k.arg}=`")
        args[k.arg] = k.value
    var_kw = fdef.args.kwarg.arg if fdef.args.kwarg is not None else None
    star = [k.value for k in call.keywords if k.arg is None]
    if len(call.args) > 3 or set(args) != set(names) or len(star) > 1 or (
            star and not (isinstance(star[0], ast.Name) and star[0].id == var_kw)):
        raise _refuse(cls, f"unrecognised loss call `{ast.unparse(call)}`")
    if not (isinstance(args["logits"], ast.Name) and args["logits"].id == v) or \
            _reads(args["vocab_size"], v):
        raise _refuse(cls, f"the loss is not computed from `{v}` alone")
    if not (isinstance(args["labels"], ast.Name) and args["labels"].id == "labels"):
        raise _refuse(cls, f"the loss's labels are `{ast.unparse(args['labels'])}`")
    params = {a.arg for a in fdef.args.args + fdef.args.kwonlyargs}
    if params & set(_LOSS_KWARGS):
        raise _refuse(cls, f"its forward names {sorted(params & set(_LOSS_KWARGS))} as "
                           "parameters")
    for stmt in before:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and n.id in ("labels", var_kw) and \
                    not isinstance(n.ctx, ast.Load):
                raise _refuse(cls, f"its forward assigns `{n.id}` before the loss")
            if isinstance(n, (ast.Attribute, ast.Subscript)) and \
                    isinstance(n.value, ast.Name) and n.value.id == var_kw and \
                    (not isinstance(n.ctx, ast.Load) or getattr(n, "attr", "") in _MUTATORS):
                raise _refuse(cls, f"its forward changes `{var_kw}` before the loss")
    spec.loss_kwargs = bool(star)


def _resolve(model, path):
    obj = model
    for name in path:
        obj = getattr(obj, name)
    return obj


# ----------------------------------------------------------------------------- patching

class _Request:
    """One training call's loss inputs, from the model's forward to its head and loss."""

    def __init__(self, labels, shift_labels, num_items_in_batch, ignore_index, scale, softcap):
        self.labels, self.shift_labels = labels, shift_labels
        self.num_items_in_batch, self.ignore_index = num_items_in_batch, ignore_index
        self.scale, self.softcap = scale, softcap
        self.trl = None           # a TRL fused-head call: its _TrlHead
        self.per_token = None     # then set by the head: log_probs, entropy, is_top1, mask
        self.loss = None          # set by the head
        self.used = False         # set by the loss function


class _Calls(threading.local):
    """A thread's running call (``request``), None in every thread until one starts. Why not
    ``getattr(local, "request", None)``: Dynamo guards on whether the attribute exists, which
    the first call changes, so a compiled model recompiled at its second call."""

    def __init__(self):
        self.request = None


class _Patch:
    """Stored on the model and on its head (the same object). The patched forwards are
    methods bound to them that find everything here, so ``copy.deepcopy(model)`` gives a
    patched copy that runs on its own weights (a closure would still call the original).

    ``request`` is the calling thread's: threads sharing one model (a training step beside
    an evaluation or generation in another thread) each see their own call's, never another
    thread's labels."""

    def __init__(self, spec, labels_pos, head, old_forward, memory_budget, class_forward):
        self.spec, self.labels_pos, self.head = spec, labels_pos, head
        self.memory_budget = memory_budget
        self.old_forward = old_forward
        self.class_forward = class_forward   # the class's forward that spec was checked on
        self.calls = _Calls()     # .request: the thread's running _Request
        self.trl = None           # TRL's fused LM head, adopted: _TrlHead

    def __getstate__(self):   # (copies and pickles: a thread's running call is not state)
        return {k: v for k, v in vars(self).items() if k != "calls"}

    def __setstate__(self, state):
        vars(self).update(state)
        self.calls = _Calls()

    @property
    def request(self):
        return self.calls.request

    @request.setter
    def request(self, request):
        self.calls.request = request


# ----------------------------------------------------------------------------- TRL

# The per-token fields of TRL's FusedCausalLMOutput computed here (TRL's names).
TRL_OUTPUTS = ("log_probs", "entropy", "is_top1")


class _TrlHead:
    """TRL's fused LM head (``trl.trainer.utils.add_fused_lm_head``, which TRL's trainers put
    on the model): its settings, and the forward it installed (put back by ``revert``)."""

    def __init__(self, temperature, outputs, cast_lm_head_to_fp32, forward, original):
        self.temperature, self.outputs = float(temperature), tuple(outputs)
        self.cast_lm_head_to_fp32 = bool(cast_lm_head_to_fp32)
        self.forward, self.original = forward, original


def _trl_head(model) -> Optional[_TrlHead]:
    """The fused LM head TRL installed on ``model`` (its forward, an instance attribute), or
    None. Its settings are the arguments TRL's trainer passed to ``add_fused_lm_head``: they
    are read from that function's closure, and checked."""
    bound = vars(model).get("forward")
    fn = getattr(bound, "__func__", None)
    code = getattr(fn, "__code__", None)
    if code is None or code.co_name != "_fused_forward" or \
            not fn.__globals__.get("__name__", "").startswith("trl."):
        return None
    cells = dict(zip(code.co_freevars, (c.cell_contents for c in fn.__closure__ or ())))
    need = ("temperature", "outputs", "cast_lm_head_to_fp32", "original_forward")
    if any(k not in cells for k in need) or getattr(bound, "__self__", None) is not model:
        raise ValueError("model.forward is a TRL fused LM head (add_fused_lm_head) of a form "
                         "inductor_ce.transformers does not recognise (TRL version?); tested "
                         "with TRL 1.16")
    outputs = tuple(cells["outputs"])
    unsupported = [o for o in outputs if o not in TRL_OUTPUTS]
    if unsupported:
        raise ValueError(f"TRL's fused LM head on this model asks for {unsupported} "
                         f"(add_fused_lm_head(outputs=...)); inductor_ce.transformers computes "
                         f"{list(TRL_OUTPUTS)}: leave this model to TRL's head (no apply())")
    return _TrlHead(cells["temperature"], outputs, cells["cast_lm_head_to_fp32"], bound,
                    cells["original_forward"])


def _trl_forward(self, patch, forward, args, kwargs):
    """A ``fused_lm_head=True`` call, TRL's protocol (``add_fused_lm_head``): the model's own
    forward with the head and loss function redirected as for a fused training call; returns
    TRL's ``FusedCausalLMOutput`` (per-token fields of shape ``labels[:, 1:]``, or of
    ``shift_labels``; zero where the label is -100; the fields TRL did not ask for None)."""
    from trl.trainer.utils import FusedCausalLMOutput

    labels = kwargs.get("labels")
    if labels is None and patch.labels_pos is not None and len(args) > patch.labels_pos:
        labels = args[patch.labels_pos]
    if labels is None:
        raise ValueError("fused_lm_head=True needs labels")
    # (TRL's head takes these three itself: the model's forward does not see them.)
    shift_labels = kwargs.pop("shift_labels", None)
    num_items_in_batch = kwargs.pop("num_items_in_batch", None)
    kwargs.pop("return_dict", None)
    kwargs["use_cache"] = False
    if getattr(self.config.get_text_config(), "output_router_logits", False):
        kwargs.setdefault("output_router_logits", True)   # (as TRL's head: MoE aux loss)
    request = _Request(labels, shift_labels, num_items_in_batch, -100, *_transforms(self, patch))
    request.trl = patch.trl
    out = _run_request(self, patch, request, forward, args, kwargs)
    log_probs, entropy, is_top1, mask = request.per_token
    return FusedCausalLMOutput(loss=out.loss, log_probs=log_probs, entropy=entropy,
                               is_top1=is_top1, label_mask=mask,
                               aux_loss=getattr(out, "aux_loss", None))


def _trl_per_token(input, weight, bias, request, budget):
    """The head's part of a TRL call: TRL's per-token fields and its loss (the summed
    negative log-likelihood over ``num_items_in_batch``, else over the kept tokens, at least
    1), from the hidden states that predict each label."""
    trl = request.trl
    if request.shift_labels is None:
        input, target = input[:, :-1], request.labels[:, 1:]
    else:
        target = request.shift_labels
    target = target.to(input.device)
    entropy_on, top1_on = "entropy" in trl.outputs, "is_top1" in trl.outputs
    autocast = contextlib.nullcontext()
    if trl.cast_lm_head_to_fp32:   # (TRL's option: the head in float32, outside autocast)
        input, weight = input.float(), weight.float()
        bias = None if bias is None else bias.float()
        autocast = torch.autocast(input.device.type, enabled=False)
    # TRL divides the softcapped logits by the temperature, c tanh(z / c) / T; the op divides
    # before its softcap: c' tanh((z / T) / c'), the same with c' = c / T.
    softcap = None if request.softcap is None else request.softcap / trl.temperature
    with autocast:
        out = linear_cross_entropy(input, weight, target, linear_bias=bias, reduction="none",
                                   softcap=softcap, temperature=trl.temperature,
                                   return_entropy=entropy_on, return_accuracy=top1_on,
                                   memory_budget=budget or _default_budget(weight, input))
    nll = out.loss if entropy_on or top1_on else out
    mask = target != -100
    log_probs = -nll
    entropy = out.entropy.masked_fill(~mask, 0.0) if entropy_on else None
    is_top1 = out.accuracy if top1_on else None
    count = request.num_items_in_batch
    if count is None:
        count = mask.sum().clamp(min=1)
    elif isinstance(count, Tensor):
        count = count.to(nll.device)
    request.per_token = [log_probs, entropy, is_top1, mask]
    return nll.sum() / count


def _connected_zero(loss: Tensor, shape=()) -> Tensor:
    # Exactly 0 whatever the loss (also inf or nan), with the loss in its autograd graph; a
    # new tensor, not a view (FSDP2 warns that an in-place op on a view would drop its hook).
    return torch.where(torch.zeros(shape, dtype=torch.bool, device=loss.device), loss, 0.0)


def _own_forward(module, old):
    # (functools.partial, not type(module).forward.__get__(module): Dynamo of torch 2.11
    # cannot trace a function's __get__.)
    return old if old is not None else functools.partial(type(module).forward, module)


def _fused_model_forward(self, *args, **kwargs):
    patch = self.__dict__[_PATCH_ATTR]
    if patch.request is None and _head_replaced(self):
        # lm_head replaced since apply() (resize_token_embeddings of an untied head): the new
        # head is patched as apply() would, then the call runs as the new patch's.
        if torch.compiler.is_compiling():
            raise RuntimeError(f"{type(self).__name__}.lm_head was replaced after "
                               "inductor_ce.transformers.apply() (resize_token_embeddings?): "
                               "call apply(model) again before compiling the model")
        return apply(self).forward(*args, **kwargs)   # (apply keeps the patch's budget)
    forward = _own_forward(self, patch.old_forward)
    if kwargs.pop("fused_lm_head", False):   # TRL's protocol, whatever the mode
        kwargs.pop("skip_logits", None)
        if patch.trl is None:
            raise ValueError("fused_lm_head=True is the call of TRL's fused LM head "
                             "(add_fused_lm_head), which was not on the model when apply() "
                             "patched it: apply() after creating TRL's trainer")
        hooks = _value_hooks(patch.head)
        why = _hooks_reason(self, hooks) if hooks else \
            _float64_reason(self, patch) or _forward_reason(self, patch)
        if why is not None:      # (TRL's own head serves the call)
            _warn_unfused(self, why)
            return patch.trl.forward(*args, fused_lm_head=True, **kwargs)
        return _trl_forward(self, patch, forward, args, kwargs)
    skip_logits = kwargs.pop("skip_logits", None)
    labels = kwargs.get("labels")
    if labels is None and patch.labels_pos is not None and len(args) > patch.labels_pos:
        labels = args[patch.labels_pos]
    if skip_logits is None:
        skip_logits = self.training and labels is not None
    if not skip_logits or patch.request is not None:
        return forward(*args, **kwargs)
    why = _unfused_because(self, patch)    # (per call: what changed since apply() counts)
    if why is not None:
        _warn_unfused(self, why)
        return forward(*args, **kwargs)
    if labels is None:
        raise ValueError("skip_logits=True needs labels")
    return_dict = kwargs.pop("return_dict", None)
    if return_dict is None:
        return_dict = getattr(self.config, "return_dict", True)
    # The loss's own keyword arguments, when the forward hands its **kwargs to it.
    loss_kw = kwargs if patch.spec.loss_kwargs else {}
    request = _Request(labels, loss_kw.get("shift_labels"), loss_kw.get("num_items_in_batch"),
                       loss_kw.get("ignore_index", -100), *_transforms(self, patch))
    out = _run_request(self, patch, request, forward, args, kwargs)
    # Drop the head's (1, 1, 1) placeholder. Setting a ModelOutput field to None keeps its
    # key, which out["logits"], keys() and to_tuple() read: delete the key as well, by
    # OrderedDict's __delitem__ (ModelOutput's own refuses; its __post_init__ does the same
    # for None fields). The other fields keep their order, as in the unpatched tuple.
    out.logits = None
    if "logits" in out:
        OrderedDict.__delitem__(out, "logits")
    return out if return_dict else out.to_tuple()


def _run_request(model, patch, request, forward, args, kwargs):
    """The model's own forward with ``request`` for its patched head and loss function, which
    must both have run."""
    patch.request = request
    try:
        out = forward(*args, return_dict=True, **kwargs)
    finally:
        patch.request = None
    if not request.used:
        raise RuntimeError(f"{type(model).__name__}.forward did not call its patched head "
                           "and loss_function as inductor_ce.transformers.apply expects (was "
                           "lm_head replaced after apply()? revert(model), then apply again)")
    return out


def _transforms(model, patch):
    """The forward's transforms of the logits: (scale or None, softcap or None)."""
    spec, scale = patch.spec, None
    if spec.scale is not None:
        scale = (spec.scale[0], _resolve(model, spec.scale[1]))
    softcap = model.config.final_logit_softcapping if spec.softcap else None
    return scale, softcap


_HOOK_KINDS = (("_forward_pre_hooks", "forward pre-hook"), ("_forward_hooks", "forward hook"),
               ("_backward_pre_hooks", "backward pre-hook"), ("_backward_hooks", "backward hook"))


def _value_hooks(head) -> list:
    """The hooks of the head (its own, and nn.Module's global ones) that may see or change its
    logits or their gradient, which the fused call never makes: by name. torch.distributed's
    own (FSDP2's all-gather and reshard around the head) move the weight, not the values."""
    found = []
    for attr, kind in _HOOK_KINDS:
        for where, hooks in (("", getattr(head, attr, None)),
                             ("global ", runtime.global_module_hooks(attr))):
            for hook in (hooks or {}).values():
                fn = hook
                while isinstance(fn, functools.partial) or hasattr(fn, "__func__"):
                    fn = fn.func if isinstance(fn, functools.partial) else fn.__func__
                if not getattr(fn, "__module__", "").startswith("torch.distributed."):
                    found.append(f"{where}{kind} {getattr(fn, '__qualname__', repr(fn))}")
    return found


def _unfused_because(model, patch) -> Optional[str]:
    """Why a training call of the patched model runs unfused (None: it fuses): hooks of the
    head that would not see its logits, a loss function set since apply(), which takes
    logits, a model cast to float64 since (apply() refuses one), or a forward replaced on
    the model's class since (not the one checked)."""
    why = _float64_reason(model, patch) or _forward_reason(model, patch)
    if why is not None:
        return why
    hooks = _value_hooks(patch.head)
    if hooks:
        return _hooks_reason(model, hooks)
    loss = vars(model).get("_loss_function")
    if not _is_our_loss(loss):
        return (f"{type(model).__name__}.loss_function was replaced after apply() (by "
                f"{loss!r}); it takes logits, so this call computes them and runs it "
                "(revert(model) to train unfused without this warning)")
    return None


def _float64_reason(model, patch) -> Optional[str]:
    """Why a call runs unfused if the model was cast to float64 after apply(), else None."""
    if patch.head.weight.dtype != torch.float64:
        return None
    return (f"{type(model).__name__}'s lm_head weight is float64 (cast after apply()); "
            "inductor_ce computes in float32, so this call runs unfused (revert(model) to "
            "train unfused without this warning)")


def _forward_reason(model, patch) -> Optional[str]:
    """Why a call runs unfused if the forward it runs is the class's and the class's forward
    was replaced since apply() (a monkeypatch: its source was not checked), else None."""
    cls = type(model)
    if patch.old_forward is not None or cls.forward is patch.class_forward:
        return None
    return (f"{cls.__name__}.forward was replaced after apply() (by "
            f"{getattr(cls.forward, '__qualname__', cls.forward)!r}); its source was not "
            "checked, so this call runs unfused (revert(model), then apply(model) to check "
            "the new forward)")


def _hooks_reason(model, hooks) -> str:
    return (f"{type(model).__name__}'s lm_head has {', '.join(hooks)}; the fused loss would "
            "bypass it, so this call computes the logits and transformers' loss (remove the "
            "hook to fuse)")


def _warn_unfused(model, why: str) -> None:
    if vars(model).get(_WARNED) != why:   # once per reason
        vars(model)[_WARNED] = why
        warnings.warn(f"inductor_ce.transformers: {why}", stacklevel=3)


def _fused_head_forward(self, input, *args, **kwargs):
    patch = self.__dict__[_PATCH_ATTR]
    request = patch.request
    if request is None or request.loss is not None or args or kwargs:
        return _own_forward(self, None)(input, *args, **kwargs)
    # Inside the head's __call__: FSDP2 has all-gathered a sharded weight by now.
    weight, bias = self.weight, self.bias
    if weight.__class__.__name__ == "DTensor":
        raise ValueError("the head's weight is a DTensor inside its forward (tensor "
                         "parallelism?); inductor_ce.transformers supports plain and FSDP2 "
                         "(fully_shard) heads")
    if request.scale is not None:   # (h W^T + b) * s == (h s) W^T + b s; and so for / s
        op, s = request.scale
        input = input * s if op == "mul" else input / s
        if bias is not None:
            bias = bias * s if op == "mul" else bias / s
    if request.trl is not None:
        request.loss = _trl_per_token(input, weight, bias, request, patch.memory_budget)
        return _connected_zero(request.loss, (1, 1, 1))
    loss = ForCausalLMLoss(input, weight, request.labels, input.shape[-1],
                           num_items_in_batch=request.num_items_in_batch,
                           ignore_index=request.ignore_index, shift_labels=request.shift_labels,
                           final_logit_softcapping=request.softcap, bias=bias,
                           memory_budget=patch.memory_budget)
    request.loss = loss
    return _connected_zero(loss, (1, 1, 1))  # the "logits", shape (1, 1, 1)


def _fused_loss_function(self, logits, labels=None, vocab_size=None, **kwargs):
    request = self.__dict__[_PATCH_ATTR].request
    if request is None or request.loss is None or request.used:
        from transformers.loss.loss_utils import ForCausalLMLoss as hf_loss
        return hf_loss(logits, labels, vocab_size, **kwargs)
    if tuple(logits.shape) != (1, 1, 1):
        raise RuntimeError(
            "the head's output was changed between the head and the loss (by a wrapper of "
            "lm_head such as a LoRA adapter, or a forward hook): inductor_ce.transformers "
            "cannot fuse that head; revert(model) to train unfused")
    request.used = True
    # + 0 * (the head's output, through the forward's softcap/scale): keeps the head's output
    # on the backward path, so its backward hooks (FSDP2's re-gather) run.
    zero = _connected_zero(logits.sum()).to(request.loss.dtype)
    if request.per_token is not None:   # (TRL's trainers differentiate these, not the loss)
        for k in (0, 1):
            if request.per_token[k] is not None:
                request.per_token[k] = request.per_token[k] + zero
    return request.loss + zero


def apply(model, *, memory_budget: Optional[int] = None, chunk_size: Optional[int] = None):
    """Makes ``model`` (a transformers causal LM) compute its training loss with
    :func:`inductor_ce.linear_cross_entropy` from the final hidden states and the output
    embedding's weight (and bias), without a logits tensor; returns ``model``.

    A call is fused when ``skip_logits=True`` is passed, or by default when the model is in
    training mode and ``labels`` are given: then the output's ``logits`` is **None**, and the
    loss is transformers' ``ForCausalLMLoss`` (label shift, ``shift_labels``, -100 ignored,
    ``num_items_in_batch``, ``final_logit_softcapping``, ``logits_to_keep``; MoE auxiliary losses
    still added by the model), as a float32 value. Every other call (generation, evaluation,
    no labels) is the unpatched forward. Works under ``torch.compile(model)`` and with FSDP2
    (``fully_shard``), before or after ``apply``; the head's own hooks run around the loss.
    ``copy.deepcopy``, ``torch.save`` and ``pickle`` of a patched model give one patched again,
    independent of it.

    ``memory_budget``: bytes of chunk scratch of the fused loss (``linear_cross_entropy``'s;
    default: ``ForCausalLMLoss``'s, chunks of D / 2 rows eagerly and D rows under
    torch.compile); a smaller budget lowers the step's peak memory, at some speed
    (docs/linear.md#the-memory-budget). ``chunk_size`` (rows per chunk): deprecated, it is
    ``memory_budget=chunk_size * V * element size``.

    TRL: on a model with TRL's fused LM head (``trl.trainer.utils.add_fused_lm_head``, which
    TRL's trainers add at construction: ``apply(trainer.model)``), the ``fused_lm_head=True``
    calls are served here too, with that head's settings (temperature, ``outputs``,
    ``cast_lm_head_to_fp32``), returning TRL's ``FusedCausalLMOutput``; its ``outputs`` must be
    among ``log_probs``, ``entropy`` and ``is_top1`` (ValueError otherwise). On a model already
    patched, TRL's head added since is taken over the same way. :func:`revert` then puts
    TRL's head back.

    Raises ValueError (naming what is supported) for a model it cannot patch exactly, and
    TypeError for float64 weights (inductor_ce computes in float32: use float32/bfloat16).
    Calling it again is a no-op, unless ``lm_head`` was replaced since
    (``resize_token_embeddings`` of an untied head): then the new head is patched, which the
    model's next eager call also does by itself; a new head it cannot fuse (LoRA on
    ``lm_head``) makes that call, and every one after, raise its ValueError until
    :func:`revert`. :func:`revert` undoes it. Patch before wrapping
    the model in anything that replaces ``model.forward`` (``accelerate.prepare``); a PEFT
    model (TRL's with a ``peft_config``) is patched through its base model. Not with
    ``torch.nn.DataParallel`` (its replicas raise a RuntimeError): DDP or FSDP.
    """
    from transformers import PreTrainedModel
    from transformers.loss.loss_utils import ForCausalLMLoss as hf_loss

    if not isinstance(model, PreTrainedModel):
        base = _peft_base(model)
        if base is None:
            raise TypeError(f"model must be a transformers PreTrainedModel (or a PEFT model "
                            f"of one), got {type(model).__name__}{_compiled_hint(model)}")
        apply(base, memory_budget=memory_budget, chunk_size=chunk_size)
        return model
    trl = _trl_head(model)
    if is_applied(model) and _head_replaced(model):   # (resize_token_embeddings, untied)
        problem = _unfusable(model, type(model))
        if problem is not None:   # checked before revert(): the model stays patched
            raise type(problem)(
                "model.lm_head was replaced after inductor_ce.transformers.apply() by a head "
                "it cannot fuse, so the model's calls raise this until "
                f"inductor_ce.transformers.revert(model), which runs it unfused: {problem}")
        budget = vars(model)[_PATCH_ATTR].memory_budget
        return apply(revert(model), memory_budget=budget)
    if is_applied(model):
        patch = vars(model)[_PATCH_ATTR]
        if memory_budget is not None or chunk_size is not None:   # (a new budget replaces)
            check_budget(memory_budget)
            patch.memory_budget = memory_budget if chunk_size is None else \
                deprecated_budget(memory_budget, None, chunk_size, patch.head.weight)
        if trl is not None:   # TRL's head put on top of ours since: ours serves its calls
            if not _is_ours(trl.original):
                raise ValueError("model.forward was replaced after apply() before TRL's "
                                 "fused LM head was added; revert(model) first")
            patch.trl = trl
            model.forward = types.MethodType(_model_forward(type(model)), model)
        return model
    cls = type(model)
    spec = _forward_spec(cls)
    if "_loss_function" in vars(model) or model.loss_function is not hf_loss:
        raise _refuse(cls, f"its loss_function is {model.loss_function!r}, not "
                           "transformers' ForCausalLMLoss")
    problem = _unfusable(model, cls)
    if problem is not None:
        raise problem
    head = model.lm_head

    names = list(inspect.signature(cls.forward).parameters)[1:]
    check_budget(memory_budget)
    if chunk_size is not None:
        memory_budget = deprecated_budget(memory_budget, None, chunk_size, head.weight)
    old_forward = vars(model).get("forward")
    if trl is not None:   # ours replaces TRL's head, and calls what TRL's called
        old_forward = trl.original
        if getattr(old_forward, "__func__", None) is cls.forward and \
                old_forward.__self__ is model:
            old_forward = None   # (the class's: copy.deepcopy then runs the copy's)
    elif old_forward is not None and not _passes_outputs_on(model, old_forward):
        what = getattr(old_forward, "__qualname__", None) or type(old_forward).__qualname__
        raise _refuse(cls, f"model.forward is replaced on the instance ({what}), by a wrapper "
                           "that may read the output's logits, which a fused call never makes "
                           "(apply() before wrapping the forward)")
    patch = _Patch(spec, names.index("labels") if "labels" in names else None, head,
                   old_forward, memory_budget, cls.forward)
    patch.trl = trl
    vars(model)[_PATCH_ATTR] = vars(head)[_PATCH_ATTR] = patch
    model.forward = types.MethodType(_model_forward(cls), model)
    head.forward = types.MethodType(_fused_head_forward, head)
    model.loss_function = types.MethodType(_fused_loss_function, model)
    for obj in (model, head):
        vars(obj)["__reduce_ex__"] = types.MethodType(_reduce_patched, obj)
        vars(obj)["_replicate_for_data_parallel"] = types.MethodType(_no_replicas, obj)
    return model


def _passes_outputs_on(model, forward) -> bool:
    """Whether an instance ``forward`` found by apply() is one known not to read the logits:
    the class's own rebound, torch.compile's wrapper of it, or one of accelerate's wrappers
    (mixed precision: autocast, float32 outputs; device hooks)."""
    for _ in range(32):
        if getattr(forward, "__self__", None) is model and \
                getattr(forward, "__func__", None) is type(model).forward:
            return True
        compiled = getattr(forward, "_torchdynamo_orig_callable", None)
        if compiled is not None:
            forward = compiled
            continue
        fn = getattr(forward, "__func__", None) or getattr(forward, "func", None) or forward
        return getattr(fn, "__module__", None) in ("accelerate.utils.operations",
                                                   "accelerate.hooks")
    return False


def _compiled_hint(model) -> str:
    # torch.compile(model) is a torch._dynamo OptimizedModule around the model
    orig = getattr(model, "_orig_mod", None)
    return "" if orig is None else (
        f" (torch.compile's wrapper of a {type(orig).__name__}: patch the model before "
        "compiling it, e.g. apply(model) then torch.compile(model), or "
        "apply(compiled._orig_mod) and compile again)")


def _no_replicas(module):
    # nn.DataParallel's replicas copy the instance's __dict__: their patched forwards would
    # stay bound to this module (its weights, its device) and share one request among the
    # replicas' threads.
    raise RuntimeError("a model patched by inductor_ce.transformers.apply() cannot be "
                       "replicated by torch.nn.DataParallel (the Trainer's choice on several "
                       "GPUs without a distributed launch): use DistributedDataParallel "
                       "(torchrun) or FSDP, or revert(model) to run it unfused")


def _unfusable(model, cls) -> Optional[Exception]:
    """Why ``model``'s head cannot be fused (a ValueError naming what is supported, or a
    TypeError for float64 weights), or None."""
    try:
        spec = _forward_spec(cls)
    except ValueError as e:   # (a class's forward replaced since a first apply())
        return e
    head = model.get_output_embeddings()
    if head is None or getattr(model, "lm_head", None) is not head:
        return _refuse(cls, "get_output_embeddings() is not the module its forward calls "
                            "as self.lm_head")
    if not isinstance(head, nn.Linear) or type(head).forward is not nn.Linear.forward:
        kind = type(head)
        return _refuse(cls, f"its output embedding is a {kind.__module__}.{kind.__qualname__}"
                            ", not a plain torch.nn.Linear")
    vocab = getattr(model.config.get_text_config(), "vocab_size", None)
    if head.out_features != vocab:
        return _refuse(cls, f"the head has {head.out_features} outputs, the config's "
                            f"vocab_size is {vocab}")
    if head.weight.dtype == torch.float64:
        return TypeError("the head's weight is float64: inductor_ce computes in float32 and "
                         "takes float32, bfloat16 or float16 (cast the model)")
    if spec.scale is not None and not isinstance(_resolve(model, spec.scale[1]), (int, float)):
        return _refuse(cls, f"the logit scale self.{'.'.join(spec.scale[1])} is not a number")
    if _PATCH_ATTR in vars(head):
        return ValueError("the head is patched already (shared with another patched model)")
    own = vars(head).get("forward")
    if own is not None:   # (accelerate's offload or device hooks, any wrapper): bypassed fused
        what = getattr(own, "__qualname__", None) or type(own).__qualname__
        return _refuse(cls, f"its lm_head's forward is replaced on the instance ({what}), "
                            "which the fused loss would bypass (apply() before adding such "
                            "a wrapper, e.g. before accelerate's cpu_offload)")
    return None


def _peft_base(model):
    """The transformers model under a PEFT wrapper (``PeftModel.get_base_model()``), or None."""
    from transformers import PreTrainedModel
    get_base = getattr(model, "get_base_model", None)
    base = get_base() if callable(get_base) else None
    return base if isinstance(base, PreTrainedModel) and base is not model else None


def _head_replaced(model) -> bool:
    """Whether ``model.lm_head`` is no longer the head apply() patched."""
    return getattr(model, "lm_head", None) is not vars(model)[_PATCH_ATTR].head


# Pickling (torch.save(model), pickle, copy.deepcopy). The patched forwards are methods bound
# to functions of this module, which pickle by name as attributes of the model or head (the
# default) and would not load back. A patched model and its head each carry, in their own
# __dict__ (where pickle and copy look first), a __reduce_ex__ that pickles them unpatched;
# the model comes back patched again by apply(), with its memory budget, once its state is
# set; one with TRL's fused LM head adopted, with that head again (TRL's settings).

_OURS = ("forward", "_loss_function", "__reduce_ex__", "_replicate_for_data_parallel",
         _PATCH_ATTR, _WARNED)
_AFTER_APPLY = "_inductor_ce_after_apply"   # (a key of the pickled state only)


def _reduce_patched(obj, protocol):
    patch = vars(obj)[_PATCH_ATTR]
    state = obj.__getstate__()       # (nn.Module's: its __dict__ less what it never pickles)
    # What was set on the model since apply() and is not ours (accelerate's mixed-precision
    # wrapper of our forward, a user's loss function) goes back once the copy is patched.
    after = {k: state[k] for k, ours in (("forward", _is_ours),
                                         ("_loss_function", _is_our_loss))
             if obj is not patch.head and k in state and not ours(state[k])}
    state = {k: v for k, v in state.items() if k not in _OURS}
    old = None if obj is patch.head else patch.old_forward
    if old is not None:
        state["forward"] = old
    if obj is patch.head:
        return copyreg.__newobj__, (type(obj),), state
    if after:
        state[_AFTER_APPLY] = after
    trl = patch.trl and dict(temperature=patch.trl.temperature, outputs=patch.trl.outputs,
                             cast_lm_head_to_fp32=patch.trl.cast_lm_head_to_fp32)
    return _new_patched, (type(obj), patch.memory_budget, trl), state


def _new_patched(cls, memory_budget, trl=None):
    """A bare instance of ``cls`` whose state, once set (by pickle or copy, which look up
    __setstate__ on the instance first), is patched by apply(), with TRL's fused LM head
    of settings ``trl`` adopted, as the original had."""
    obj = cls.__new__(cls)
    vars(obj)["__setstate__"] = functools.partial(_set_state_and_apply, obj, memory_budget,
                                                  trl=trl)
    return obj


def _set_state_and_apply(obj, memory_budget, state, trl=None):
    del vars(obj)["__setstate__"]
    after = state.pop(_AFTER_APPLY, {})
    setstate = getattr(type(obj), "__setstate__", None)   # (nn.Module's)
    if setstate is not None:
        setstate(obj, state)
    else:
        vars(obj).update(state)
    head = getattr(obj, "lm_head", None)
    if head is not None and _PATCH_ATTR in vars(head):
        return   # (copy.copy: the submodules, the patched head among them, are shared)
    apply(obj, memory_budget=memory_budget)
    if trl is not None:   # (TRL's head on the patched model, adopted: as apply() found it)
        from trl.trainer.utils import add_fused_lm_head
        add_fused_lm_head(obj, **trl)
        apply(obj)
    vars(obj).update(after)


def _model_forward(cls):
    def fn(self, *args, **kwargs):
        return _fused_model_forward(self, *args, **kwargs)
    # inspect.signature(model.forward) stays the model's, which generate() and the Trainer
    # read (the argument names, **kwargs for num_items_in_batch). Not functools.wraps: its
    # __wrapped__ would lead past this function to the class's forward, and accelerate's
    # unwrap_model(keep_fp32_wrapper=False) follows __wrapped__ to its end, silently
    # unfusing the model.
    fn.__signature__ = inspect.signature(cls.forward)
    for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(fn, attr, getattr(cls.forward, attr, None))
    fn._inductor_ce_forward = True
    return fn


def _is_ours(forward) -> bool:
    return getattr(getattr(forward, "__func__", None), "_inductor_ce_forward", False)


def _wraps_ours(forward) -> bool:
    """Whether ``forward`` wraps the patched forward (through ``__wrapped__``, or a bound
    method's function: accelerate's mixed-precision wrapper)."""
    for _ in range(32):   # (a bound method reads its function's attributes)
        if forward is None or getattr(forward, "_inductor_ce_forward", False):
            return forward is not None
        forward = getattr(forward, "__wrapped__", None) or getattr(forward, "__func__", None)
    return False


def _is_our_loss(loss_function) -> bool:
    return getattr(loss_function, "__func__", None) is _fused_loss_function


def is_applied(model) -> bool:
    """Whether :func:`apply` patched ``model`` (under a PEFT wrapper: its base model; under
    torch.compile's: the compiled model)."""
    model = getattr(model, "_orig_mod", model)
    return _PATCH_ATTR in vars(_peft_base(model) or model)


def revert(model):
    """Undoes :func:`apply`: the model's and its head's own forward and loss function again
    (and TRL's fused LM head, with its settings, if ``apply`` took one over); returns
    ``model``. A no-op on a model that is not patched."""
    base = _peft_base(model)
    if base is not None:
        revert(base)
        return model
    if getattr(model, "_orig_mod", None) is not None and is_applied(model):
        raise TypeError(f"revert() of torch.compile's wrapper of a patched "
                        f"{type(model._orig_mod).__name__}: revert(compiled._orig_mod), "
                        "then compile it again (the compiled code is the patched model's)")
    if not is_applied(model):
        return model
    patch = vars(model)[_PATCH_ATTR]
    head = patch.head   # (the patched one, also if lm_head was replaced since)
    forward = vars(model).get("forward")
    if not _is_ours(forward):
        if _wraps_ours(forward):
            raise ValueError(
                "model.forward was wrapped after apply() (accelerate's mixed-precision "
                "wrapper, which the Trainer adds with bf16 or fp16): take the wrapper off "
                "first, e.g. model = trainer.accelerator.unwrap_model(model, "
                "keep_fp32_wrapper=False), then revert(model)")
        raise ValueError("model.forward was replaced after apply(); undo that first")
    if getattr(vars(head).get("forward"), "__func__", None) is not _fused_head_forward:
        raise ValueError("the head's forward was replaced after apply(); undo that first")
    for obj, old in ((model, patch.old_forward), (head, None)):
        if old is None:
            del obj.forward
        else:
            obj.forward = old
        del vars(obj)[_PATCH_ATTR]
        vars(obj).pop("__reduce_ex__", None)
        vars(obj).pop("_replicate_for_data_parallel", None)
    vars(model).pop(_WARNED, None)
    if _is_our_loss(vars(model).get("_loss_function")):   # (one set since is the user's)
        del model._loss_function
    if patch.trl is not None:   # TRL's own fused LM head again, with its trainer's settings
        from trl.trainer.utils import add_fused_lm_head
        add_fused_lm_head(model, temperature=patch.trl.temperature,
                          cast_lm_head_to_fp32=patch.trl.cast_lm_head_to_fp32,
                          outputs=patch.trl.outputs)
    return model
