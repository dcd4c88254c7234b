"""Route a model's cross-entropy through inductor_ce under torch.compile, without touching it.

    inductor_ce.enable()                       # or: with inductor_ce.enabled(): ...
    model = torch.compile(model)               # F.cross_entropy & co. now run our fused op

How: a graph pass in Inductor's ``pre_grad_custom_pass`` slot. Dynamo hands Inductor an FX
graph of torch-level calls (``F.cross_entropy``, ``x.float()``, ``x.view(-1, V)``, ...);
before AOTAutograd differentiates it, the pass replaces every loss call it can express with
one call of ``_fused_cross_entropy`` (our op, whose autograd then supplies the backward).
Recognised calls: ``F.cross_entropy`` (also what ``nn.CrossEntropyLoss`` inlines to),
``torch._C._nn.cross_entropy_loss`` (``_inductor/passes.py``) / ``aten.cross_entropy_loss``
(class indices or probabilities: a floating target of the logits' shape), and ``nll_loss``
of a ``log_softmax`` over the class dimension. Everything else stays stock: legacy
``size_average``/``reduce``, non-constant options, a weight that needs a gradient, and an
N-D input whose class dimension 1 is not its contiguous one (moving it last would need a
copy). Eager code never sees the pass.

Two rewrites of the loss input avoid copies of the logits (the op reads any strided rows):
  * merges of leading dimensions and ``.contiguous()`` are looked through: the op gets
    ``logits[..., :-1, :]`` itself and the target is reshaped to match, not a copy of it;
  * an upcast ``x.float()`` (or ``.to(torch.float32)``) of bf16/fp16 logits is dropped
    from our op's path: the op reads the bf16 logits and computes in float32 anyway. The
    view ops between the upcast and the loss are replayed on the low-precision tensor.
Neither is done when an in-place op sits between the logits and the loss. The result is
cast to the dtype stock PyTorch returns (the input's), so user code sees the same dtype.

Our op saves the logits it reads for its backward (stock saves its own log-softmax), so a
call whose logits, or any tensor sharing their memory (a view, the tensor they view, the
bf16 tensor behind a dropped upcast), are modified in place later in the graph stays stock:
routed, AOTAutograd would fail ("modified by an inplace operation"). Every call kept stock
is counted, ``counters["kept: <why>"]``, and logged at INFO on the ``inductor_ce`` logger.
A cache hit skips the pass (where Inductor looks up its caches first, as 2.13 and later do;
2.11 runs the pass before its lookup, and reports the graph as compiled): every compiled graph
that calls our ops, compiled now or loaded from Inductor's caches, is also reported once
(``counters["graphs"]``, ``["cached_graphs"]``, ``["graph: <op>"]``, ``["cached: <op>"]``, an
INFO line; ``_inductor/observe.py``).

Cache keys: the pass's ``uuid()`` carries inductor_ce's version, a hash of its sources
(``_salt``), whether routing is on and its options, so Inductor's FX-graph and AOTAutograd
caches never hand a graph compiled with routing off to a compile with routing on, or the
reverse. A pass the user installed in the slot keeps running (ours wraps it, runs it first) and
comes back on ``disable()``. Dynamo's own cache of compiled frames is not keyed on it: enable
routing before a function is first compiled, or call ``torch.compiler.reset()``.
"""
from __future__ import annotations

import contextlib
import operator
import threading
import warnings
from collections import Counter
from dataclasses import dataclass
from typing import Hashable, Optional

import torch
import torch.nn.functional as F
from torch import fx
from torch.fx.experimental.symbolic_shapes import statically_known_true
from torch.multiprocessing.reductions import StorageWeakRef

from .. import _log, _salt
from .._inductor import cache, observe, passes
from ..functional import cross_entropy
from ..op.checks import check_budget

_REDUCTIONS = ("none", "mean", "sum")   # aten's reduction enum: 0, 1, 2
_LOW_PRECISION = (torch.bfloat16, torch.float16)
_FLOATS = (torch.float32,) + _LOW_PRECISION


# --- the call the graph gets ----------------------------------------------------------------

def _fused_cross_entropy(input, target, weight, ignore_index: int, reduction: str,
                         label_smoothing: float, class_dim_1: bool, out_dtype: torch.dtype):
    """F.cross_entropy(input, target, ...) through our op. ``input`` has the class dimension
    last (or at 1 when ``class_dim_1``) and any leading shape holding the target's rows: its
    class indices, or its probabilities (a floating target, its class dimension as input's)."""
    soft = target.is_floating_point()
    if class_dim_1:
        input = input.movedim(1, -1)
        target = target.movedim(1, -1) if soft else target
    rows = target.shape[:-1] if soft else target.shape
    loss = cross_entropy(input, target.reshape(input.shape if soft else input.shape[:-1]),
                         weight, ignore_index, reduction, label_smoothing)
    if reduction == "none":
        loss = loss.reshape(rows)
    return loss.to(out_dtype)


def _fused_linear_cross_entropy(input, linear_weight, linear_bias, target, weight,
                                ignore_index: int, reduction: str, label_smoothing: float,
                                out_dtype: torch.dtype, memory_budget=None, logits_dtype=None):
    """F.cross_entropy(linear(input, linear_weight, linear_bias), target, ...) through the fused
    linear + cross-entropy: no logits. ``input`` holds target.numel() rows. ``logits_dtype``:
    the linear's output dtype. The fused call, in the loss's place, runs as the linear ran,
    whatever autocast the loss is under: where that dtype differs from an operand's, the
    linear ran under autocast (``with autocast(): logits = ...``, then the loss of
    ``logits.float()`` after the block), and the fused call runs under that autocast too;
    otherwise without autocast (a float32 head under ``autocast(enabled=False)`` inside an
    autocast region, or a loss alone under autocast: float32 GEMMs, as the linear's)."""
    from ..functional import linear_cross_entropy
    device = input.device.type
    autocast = contextlib.nullcontext()
    if logits_dtype in (torch.bfloat16, torch.float16) and (
            logits_dtype != input.dtype or logits_dtype != linear_weight.dtype):
        autocast = torch.autocast(device, dtype=logits_dtype)
    elif logits_dtype is not None and torch.is_autocast_enabled(device):
        autocast = torch.autocast(device, enabled=False)
    with autocast:
        loss = linear_cross_entropy(input, linear_weight, target.reshape(input.shape[:-1]),
                                    linear_bias=linear_bias, weight=weight, reduction=reduction,
                                    ignore_index=ignore_index, label_smoothing=label_smoothing,
                                    memory_budget=memory_budget)
    if reduction == "none":
        loss = loss.reshape(target.shape)
    return loss.to(out_dtype)


# --- recognising loss calls -------------------------------------------------------------------

@dataclass
class _Call:
    input: fx.Node
    target: fx.Node
    weight: Optional[fx.Node]
    ignore_index: object
    reduction: object
    label_smoothing: object = 0.0
    legacy: tuple = (None, None)       # size_average, reduce
    nll: bool = False                  # nll_loss: ``input`` must be log_softmax(logits)


def _bind(node: fx.Node, names: tuple, defaults: dict) -> dict:
    bound = dict(defaults)
    bound.update(zip(names, node.args))
    bound.update(node.kwargs)
    return bound


_F_CE = ("input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction",
         "label_smoothing")
_F_NLL = _F_CE[:-1]
_ATEN_CE = ("input", "target", "weight", "reduction", "ignore_index", "label_smoothing")
_ATEN_NLL = _ATEN_CE[:-1]
_DEFAULTS = dict(weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction="mean", label_smoothing=0.0)
_ATEN_DEFAULTS = dict(weight=None, reduction=1, ignore_index=-100, label_smoothing=0.0)

_CE_TARGETS = {F.cross_entropy: (_F_CE, _DEFAULTS),
               passes.NN_CROSS_ENTROPY: (_ATEN_CE, _ATEN_DEFAULTS),
               torch.ops.aten.cross_entropy_loss: (_ATEN_CE, _ATEN_DEFAULTS),
               torch.ops.aten.cross_entropy_loss.default: (_ATEN_CE, _ATEN_DEFAULTS)}
_NLL_TARGETS = {F.nll_loss: (_F_NLL, _DEFAULTS),
                passes.NN_NLL_LOSS_ND: (_ATEN_NLL, _ATEN_DEFAULTS),
                torch.ops.aten.nll_loss_nd: (_ATEN_NLL, _ATEN_DEFAULTS),
                torch.ops.aten.nll_loss_nd.default: (_ATEN_NLL, _ATEN_DEFAULTS)}
# log_softmax(input, dim, dtype=None) in its call forms (aten._log_softmax's third argument is
# half_to_float, not a dtype; it is not matched).
_LOG_SOFTMAX = {F.log_softmax, torch.log_softmax, torch.ops.aten.log_softmax,
                torch.ops.aten.log_softmax.int}


def _call_of(node: fx.Node) -> Optional[_Call]:
    if node.op != "call_function" or not isinstance(node.target, Hashable):
        return None
    table = _CE_TARGETS if node.target in _CE_TARGETS else _NLL_TARGETS
    if node.target not in table:
        return None
    names, defaults = table[node.target]
    b = _bind(node, names, defaults)
    if isinstance(b["reduction"], int) and not isinstance(b["reduction"], bool) \
            and 0 <= b["reduction"] < 3:
        b["reduction"] = _REDUCTIONS[b["reduction"]]
    return _Call(b["input"], b["target"], b["weight"], b["ignore_index"], b["reduction"],
                 b.get("label_smoothing", 0.0), (b.get("size_average"), b.get("reduce")),
                 nll=table is _NLL_TARGETS)


def _log_softmax_of(node) -> Optional[tuple]:
    """(x, dim) when ``node`` is log_softmax(x, dim, [dtype=None|float32]), else None."""
    if not isinstance(node, fx.Node) or not node.args:
        return None
    if node.op == "call_function" and node.target in _LOG_SOFTMAX:
        names = ("input", "dim", "_stacklevel", "dtype") if node.target is F.log_softmax \
            else ("input", "dim", "dtype")
    elif node.op == "call_method" and node.target == "log_softmax":
        names = ("input", "dim", "dtype")
    else:
        return None
    b = _bind(node, names, {"dtype": None})
    if b.get("dtype") not in (None, torch.float32) or not isinstance(b.get("dim"), int):
        return None
    return b["input"], b["dim"]


def _logits_of_nll(x: fx.Node, class_dim: int) -> Optional[fx.Node]:
    """The logits y when the nll_loss input ``x`` is log_softmax(y) over the class dimension
    (for a class-last loss, also seen through merges of leading dims), used only there."""
    ls = _strip_row_merges(x) if class_dim == -1 else x
    found = _log_softmax_of(ls)
    if found is None or len(ls.users) != 1:
        return None
    y, dim = found
    ndim = _val(y).dim() if isinstance(_val(y), torch.Tensor) else 0
    want = ndim - 1 if class_dim == -1 else 1
    return y if ndim and dim % ndim == want else None


# --- checks on the call's arguments (their fake example values) -----------------------------

def _val(node):
    return node.meta.get("example_value") if isinstance(node, fx.Node) else None


def _same(a, b) -> bool:
    return statically_known_true(a == b)


def _class_dim(call: _Call, x, logits=None):
    """The class dimension of a call we can express (1 for an N-D input whose class
    dimension 1 is contiguous, else -1), or the reason (a str) to leave the call stock.
    ``logits``: the value whose class dimension must be contiguous where it is not ``x``
    (nll_loss's: the logits under its log_softmax, which is what our op reads)."""
    t, w = _val(call.target), _val(call.weight)
    if not isinstance(x, torch.Tensor) or not isinstance(t, torch.Tensor):
        return "the input or the target is not a tensor"
    if x.dtype not in _FLOATS or x.dim() < 1:
        return "logits that are not float32, bfloat16 or float16 of dimension >= 1"
    soft = t.dtype.is_floating_point     # class probabilities, of the logits' shape
    if not soft and t.dtype != torch.int64:
        return "a target that is neither int64 class indices nor floating probabilities"
    if soft and t.dtype not in (x.dtype, torch.float32):
        return "probability targets of a dtype other than the logits' or float32"
    if soft and not (type(call.ignore_index) is int and call.ignore_index < 0):
        return "probability targets with an ignore_index >= 0 (stock raises)"
    if call.legacy != (None, None):
        return "legacy size_average / reduce arguments"
    if isinstance(call.label_smoothing, fx.Node):
        # (Stock's call reads the float, which specializes it: Dynamo then drops this graph
        # and compiles again with the value constant, and that graph is routed.)
        return ("a label_smoothing Dynamo made symbolic (it compiles again with the value "
                "constant, and routes that graph)")
    if call.reduction not in _REDUCTIONS or type(call.ignore_index) is not int \
            or isinstance(call.label_smoothing, bool) \
            or not isinstance(call.label_smoothing, (int, float)) \
            or not 0.0 <= call.label_smoothing <= 1.0:
        return "an option that is not a constant our op takes"
    if call.weight is not None and not (
            isinstance(w, torch.Tensor) and w.dtype == x.dtype and w.dim() == 1
            and not w.requires_grad and w.device == x.device):
        return "a class weight that needs a gradient or differs from the logits in dtype"
    dim = 1 if x.dim() >= 3 else -1
    num_classes = x.shape[dim]
    rows = x.shape[:dim] + x.shape[dim + 1:] if dim == 1 else x.shape[:-1]
    if soft:
        rows = x.shape    # probabilities: a target of the logits' shape
    if t.dim() != len(rows) or not all(_same(a, b) for a, b in zip(t.shape, rows)):
        return "a target whose shape is not the logits' rows"
    if w is not None and not _same(w.shape[0], num_classes):
        return "a weight whose length is not the number of classes"
    if dim == 1 and not _same((x if logits is None else logits).stride(1), 1):
        return "a class dimension 1 that is not contiguous (moving it last would copy)"
    return dim


# --- looking through views and the upcast -----------------------------------------------------

_VIEW_METHODS = {"view", "reshape", "flatten", "contiguous", "transpose", "permute",
                 "movedim", "narrow", "squeeze", "unsqueeze", "__getitem__"}
_VIEW_FUNCTIONS = {operator.getitem, torch.reshape, torch.flatten, torch.transpose,
                   torch.permute, torch.movedim, torch.narrow, torch.squeeze, torch.unsqueeze}
_CASTS = {"float", "to", "type"}


def _is_view(node) -> bool:
    """A shape-only op on its first argument (a view, or a copy of it: contiguous, reshape)."""
    if not isinstance(node, fx.Node) or not node.args or not isinstance(node.args[0], fx.Node):
        return False
    return ((node.op == "call_method" and node.target in _VIEW_METHODS)
            or (node.op == "call_function" and node.target in _VIEW_FUNCTIONS))


def _is_upcast(node) -> bool:
    """x.float(), x.to(torch.float32) or x.type(torch.float32) (or dtype=) of float x."""
    if not (isinstance(node, fx.Node) and node.op == "call_method" and node.target in _CASTS):
        return False
    rest = (tuple(node.args[1:]), dict(node.kwargs))
    ok = rest == ((), {}) if node.target == "float" \
        else rest in (((torch.float32,), {}), ((), {"dtype": torch.float32}))
    src, out = _val(node.args[0]), _val(node)
    return ok and isinstance(src, torch.Tensor) and src.dtype in _FLOATS \
        and isinstance(out, torch.Tensor) and out.dtype == torch.float32


def _strip_row_merges(x: fx.Node) -> fx.Node:
    """Look through reshapes that only merge or split leading dims (same last dim, same dtype)
    and ``.contiguous()``: the op reads the strided original, and its rows are the same rows
    in the same (row-major) order."""
    while _is_view(x) and (x.target in ("view", "reshape", "flatten", "contiguous")
                           or x.target in (torch.reshape, torch.flatten)):
        src, cur = _val(x.args[0]), _val(x)
        if not (isinstance(src, torch.Tensor) and isinstance(cur, torch.Tensor)
                and src.dim() >= 1 and cur.dim() >= 1 and src.dtype == cur.dtype
                and _same(src.shape[-1], cur.shape[-1])):
            break
        x = x.args[0]
    return x


def _views_to_upcast(x: fx.Node):
    """(upcast node, [view nodes from it to x]) when x = views(upcast(logits)), else None."""
    chain = []
    while _is_view(x) and not any(isinstance(a, torch.dtype) for a in x.args):
        chain.append(x)      # (x.view(dtype) reinterprets bytes: not replayable on bf16)
        x = x.args[0]
    return (x, chain[::-1]) if _is_upcast(x) else None


_INPLACE_OPERATORS = {getattr(operator, n) for n in (
    "iadd", "isub", "imul", "imatmul", "itruediv", "ifloordiv", "imod", "ipow", "iand", "ior",
    "ixor", "ilshift", "irshift", "setitem")}


def _mutates(node: fx.Node) -> bool:
    """Conservatively: may this node write into a tensor (x.add_(..), x[i] = .., x += ..,
    inplace=True, out=..., a mutable aten overload, an opaque module call)?"""
    name = node.target if isinstance(node.target, str) else getattr(node.target, "__name__", "")
    schema = passes.op_schema(node.target)
    return (name.endswith("_") and not name.startswith("_")) or name.startswith("__i") \
        or node.target in _INPLACE_OPERATORS or node.op == "call_module" \
        or bool(node.kwargs.get("inplace")) or "out" in node.kwargs \
        or (schema is not None and schema.is_mutable)


def _storage(value):
    return StorageWeakRef(value.untyped_storage()) if isinstance(value, torch.Tensor) else None


def _mutated_after(x: fx.Node, loss: fx.Node) -> bool:
    """Whether a node after ``loss`` may write into the memory of ``x`` (the tensor our op
    reads, which it saves for its backward when it requires grad): an in-place op (or out=,
    or an opaque module call) with an argument that shares x's storage, that is x, a view of
    it, or a tensor x is a view of. Stock cross-entropy saves its own log-softmax instead, so
    there such an edit is harmless; ours would fail autograd's check that a saved tensor is
    unchanged ("modified by an inplace operation"), when AOTAutograd traces the backward."""
    value = _val(x)
    if not isinstance(value, torch.Tensor) or not value.requires_grad:
        return False      # nothing saved
    storage = _storage(value)
    node = loss.next
    while node.op != "root":
        if _mutates(node):
            tensors = []
            fx.node.map_arg((node.args, node.kwargs), tensors.append)
            if any(isinstance(_val(a), torch.Tensor) and _storage(_val(a)) == storage
                   for a in tensors):
                return True
        node = node.next
    return False


def _no_mutation_between(first: fx.Node, last: fx.Node) -> bool:
    node = first.next
    while node is not last:
        if node.op == "root" or _mutates(node):
            return False
        node = node.next
    return True


# --- the LM head: cross_entropy(linear(h, W)) without the logits ---------------------------------

_LINEAR = {F.linear, passes.NN_LINEAR, torch.ops.aten.linear, torch.ops.aten.linear.default}


_T_OPS = {torch.ops.aten.numpy_T, torch.ops.aten.numpy_T.default, torch.ops.aten.mT,
          torch.ops.aten.mT.default}


def _transposed_weight(node):
    """W when ``node`` is W.T, W.t() or W.transpose(0, 1) of a 2-D W, else None."""
    if not isinstance(node, fx.Node) or not node.args:
        return None
    w = node.args[0]
    if node.op == "call_function" and node.target is getattr and node.args[1:] in (("T",),
                                                                                   ("mT",)):
        pass
    elif node.op == "call_function" and isinstance(node.target, Hashable) and \
            node.target in _T_OPS and len(node.args) == 1:
        pass  # torch 2.14's Dynamo records W.T and W.mT as aten.numpy_T and aten.mT
    elif node.op == "call_method" and node.target == "t" and len(node.args) == 1:
        pass
    elif node.op == "call_method" and node.target == "transpose" and \
            tuple(node.args[1:]) in ((0, 1), (1, 0), (-1, -2), (-2, -1)):
        pass
    else:
        return None
    val = _val(w)
    return w if isinstance(val, torch.Tensor) and val.dim() == 2 else None


def _as_linear(node):
    """(h, W, b) when ``node`` computes linear(h, W, b) = h @ W.T (+ b), else None."""
    if not isinstance(node, fx.Node) or node.op not in ("call_function", "call_method"):
        return None
    if node.op == "call_function" and isinstance(node.target, Hashable) and \
            node.target in _LINEAR:
        b = _bind(node, ("input", "weight", "bias"), dict(bias=None))
        return b["input"], b["weight"], b["bias"]
    matmul = (node.op == "call_function" and node.target in (operator.matmul, torch.matmul)) \
        or (node.op == "call_method" and node.target in ("matmul", "__matmul__"))
    if matmul and len(node.args) == 2 and not node.kwargs:
        w = _transposed_weight(node.args[1])
        return (node.args[0], w, None) if w is not None else None
    return None


def _is_row_slice(node) -> bool:
    """x[..., rows, :] or x[rows]: slices of the row dimensions, the class dimension whole
    (the index's last entry a full slice, or fewer entries than dimensions and no ...)."""
    if not (isinstance(node, fx.Node) and node.op == "call_function"
            and node.target is operator.getitem and isinstance(node.args[0], fx.Node)):
        return False
    index = node.args[1] if isinstance(node.args[1], tuple) else (node.args[1],)
    src, out = _val(node.args[0]), _val(node)
    if not (bool(index) and isinstance(src, torch.Tensor) and isinstance(out, torch.Tensor)
            and src.dim() == out.dim()):
        return False
    classes_whole = index[-1] == slice(None) or (
        len(index) < src.dim() and not any(i is Ellipsis for i in index))
    return classes_whole and \
        not any(isinstance(i, (fx.Node, torch.Tensor)) or i is None for i in index)


def _linear_logits(x: fx.Node):
    """((h, W, b), linear node, [row slices and row merges from the logits to x], None) when
    the loss input ``x`` is the logits of a linear seen through an upcast, row merges and row
    slices, each used by the next alone; (None, None, [], reason) when it is such logits with
    another use; (None, None, [], None) when it is not."""
    chain, node = [], x
    while True:
        merged = _strip_row_merges(node)
        if merged is not node:
            chain += list(_walk(node, merged))
            node = merged
        elif _is_upcast(node) or _is_row_slice(node):
            chain.append(node)
            node = node.args[0]
        else:
            break
    found = _as_linear(node)
    if found is None:
        return None, None, [], None
    h, w, b = found
    hv, wv, bv = _val(h), _val(w), _val(b)
    # (Under autocast the operands may be float32 and the logits bf16, the hidden states
    # bf16 too where an autocast op made them: linear_cross_entropy casts them as autocast
    # does, under the linear's autocast: _fused_linear_cross_entropy.)
    autocast = isinstance(hv, torch.Tensor) and _val(node).dtype != torch.float32 and \
        _val(node).dtype != getattr(wv, "dtype", None)
    if not (isinstance(hv, torch.Tensor) and isinstance(wv, torch.Tensor) and wv.dim() == 2
            and hv.dtype in _FLOATS and (wv.dtype == hv.dtype or autocast)
            and (b is None or isinstance(bv, torch.Tensor) and bv.dim() == 1
                 and (bv.dtype == hv.dtype or autocast))):
        return None, None, [], None
    for n in [node] + chain:
        if len(n.users) != 1:
            return None, None, [], (f"the logits ({n.name}) have another use: "
                                    f"{', '.join(u.name for u in n.users)}")
    return (h, w, b), node, [n for n in reversed(chain) if not _is_upcast(n)], None


def _rows_of(h: fx.Node, graph: fx.Graph, steps):
    """The hidden states' rows as the logits' rows that reach the loss: ``steps`` (row slices
    and row merges, from the linear on) replayed on ``h`` (..., D). A merge matters only
    where a slice follows it (the fused op flattens the rows itself), and is replayed where it
    makes the rows one dimension (``flatten(0, -2)``, whatever the sizes); otherwise, None
    (the loss stays stock). Decided before any node is inserted."""
    replays, merged = [], False     # (None: the flatten)
    for s in steps:
        if not _is_row_slice(s):
            src, out = _val(s.args[0]), _val(s)
            merged = merged or src.dim() != out.dim() or not all(
                _same(a, b) for a, b in zip(src.shape[:-1], out.shape[:-1]))
            continue
        if merged:
            if _val(s.args[0]).dim() != 2:
                return None
            replays.append(None)
            merged = False
        replays.append(s)
    rows = h
    for s in replays:
        if s is None:
            rows = graph.call_method("flatten", (rows, 0, -2))
            rows.meta["example_value"] = _run_fake(rows)
        else:
            rows = _replay(graph, s, rows)
    return rows


def _route_linear(graph: fx.Graph, node: fx.Node, call: _Call) -> Optional[bool]:
    """The loss of an LM head through the fused linear + cross-entropy: True when routed,
    False when the pattern is there but is not fused (logged; the loss alone may still be
    routed), None when it is not there."""
    if call.nll or not isinstance(call.input, fx.Node):
        return None
    x = _val(call.input)
    found, linear, steps, reason = _linear_logits(call.input)
    class_dim = _class_dim(call, x)
    if isinstance(class_dim, str):
        return None     # (the loss stays stock: the unfused routing logs why)
    class_dim_1 = class_dim == 1
    if class_dim_1 or _val(call.target).is_floating_point():
        # The fused head takes class indices, classes last: the loss alone is routed. (Class
        # dimension 1: the logits under the view that moves it, for the log.)
        under = call.input.args[0] if call.input.args else None
        if class_dim_1 and found is None and reason is None and isinstance(under, fx.Node):
            found, _, _, reason = _linear_logits(under)
        if found is None and reason is None:
            return None
        _log.log.info("enable(): the LM head's loss at %s keeps its logits (not fused with "
                      "the linear): %s", _source_line(node),
                      "its class dimension is 1" if class_dim_1 else "probability targets")
        counters["linear_kept"] += 1
        return False
    if found is None:
        if reason is not None:
            _log.log.info("enable(): the LM head's loss at %s keeps its logits (not fused "
                          "with the linear): %s", _source_line(node), reason)
            counters["linear_kept"] += 1
        return None if reason is None else False
    h, w, b = found
    if not _no_mutation_between(linear, node):
        _log.log.info("enable(): the LM head's loss at %s keeps its logits (not fused with "
                      "the linear): an in-place op between the linear and the loss",
                      _source_line(node))
        counters["linear_kept"] += 1
        return False
    with graph.inserting_before(node):
        rows = _rows_of(h, graph, steps)
        if rows is None:
            _log.log.info("enable(): the LM head's loss at %s keeps its logits (not fused with "
                          "the linear): a row slice after a partial merge of the rows",
                          _source_line(node))
            counters["linear_kept"] += 1
            return False
        new = graph.call_function(
            _fused_linear_cross_entropy, (rows, w, b, call.target, call.weight),
            dict(ignore_index=call.ignore_index, reduction=call.reduction,
                 label_smoothing=float(call.label_smoothing), out_dtype=_val(node).dtype,
                 memory_budget=_memory_budget, logits_dtype=_val(linear).dtype))
    new.meta.update(_meta(node))
    try:
        new.meta["example_value"] = _run_fake(new)
    except Exception:  # anything the fused op cannot take: the unfused routing decides
        graph.erase_node(new)
        return None
    node.replace_all_uses_with(new)
    graph.erase_node(node)
    _erase_dead(graph, call.input)
    counters["linear_fused"] += 1
    return True


def _erase_dead(graph, x):
    """Erase x and what fed it, up to and including the linear, as they lose their users."""
    while isinstance(x, fx.Node) and not x.users and x.op != "placeholder":
        nxt = x.args[0] if x.args and isinstance(x.args[0], fx.Node) else None
        is_linear = _as_linear(x) is not None
        transposed = x.args[1] if is_linear and len(x.args) > 1 else None
        graph.erase_node(x)
        if isinstance(transposed, fx.Node) and not transposed.users and \
                transposed.op != "placeholder":
            graph.erase_node(transposed)
        if is_linear:
            return
        x = nxt


# --- the rewrite -------------------------------------------------------------------------------

def _replay(graph: fx.Graph, node: fx.Node, first_arg) -> fx.Node:
    new = graph.create_node(node.op, node.target, (first_arg,) + tuple(node.args[1:]),
                            dict(node.kwargs))
    new.meta.update(_meta(node))
    new.meta["example_value"] = _run_fake(new)
    return new


def _meta(node: fx.Node) -> dict:
    return {k: node.meta[k] for k in ("stack_trace", "nn_module_stack", "source_fn_stack")
            if k in node.meta}


def _run_fake(node: fx.Node):
    """The node's output on the fake example values of its inputs (Dynamo's meta)."""
    args, kwargs = fx.node.map_arg((node.args, node.kwargs), _val)
    leaves = []
    fx.node.map_aggregate(args, leaves.append)
    mode = next(v.fake_mode for v in leaves if hasattr(v, "fake_mode"))
    with mode:
        if node.op == "call_method":
            return getattr(args[0], node.target)(*args[1:], **kwargs)
        return node.target(*args, **kwargs)


def _route(graph: fx.Graph, node: fx.Node, call: _Call):
    """Replaces the loss call ``node``; returns True, or why it stays stock (a str)."""
    if not isinstance(call.input, fx.Node):
        return "the input is not a tensor"
    if _fuse_linear and _route_linear(graph, node, call):
        return True
    x, dead = call.input, []
    if call.nll:
        # (The class dimension from the input's shape, then the logits' own layout.)
        class_dim = 1 if getattr(_val(call.input), "ndim", 0) >= 3 else -1
        x = _logits_of_nll(call.input, class_dim)
        if x is None:
            return "nll_loss of something other than a log_softmax over the classes"
        dead = list(_walk(call.input, x))   # the views and the log_softmax
    class_dim = _class_dim(call, _val(call.input), _val(x) if call.nll else None)
    if isinstance(class_dim, str):
        return class_dim
    out_dtype = _val(node).dtype
    src = _strip_row_merges(x) if class_dim == -1 else x
    found = _views_to_upcast(src)
    if found is not None and _no_mutation_between(found[0], node):
        upcast, views = found
        dead += list(_walk(x, upcast)) + [upcast]
        with graph.inserting_before(node):
            x = upcast.args[0]
            for view in views:
                x = _replay(graph, view, x)
    elif src is not x and _no_mutation_between(src, node):
        dead += list(_walk(x, src))
        x = src
    if _mutated_after(x, node):
        return ("the logits are modified in place after the loss (our op saves them for "
                "its backward)")
    with graph.inserting_before(node):
        new = graph.call_function(
            _fused_cross_entropy, (x, call.target, call.weight),
            dict(ignore_index=call.ignore_index, reduction=call.reduction,
                 label_smoothing=float(call.label_smoothing), class_dim_1=class_dim == 1,
                 out_dtype=out_dtype))
    new.meta.update(_meta(node))
    try:
        new.meta["example_value"] = _run_fake(new)
    except Exception as e:  # anything our op cannot take: keep the stock call
        graph.erase_node(new)
        return f"our op refused its arguments ({type(e).__name__})"
    node.replace_all_uses_with(new)
    graph.erase_node(node)
    for n in dict.fromkeys(dead):       # now-unused log_softmax, views, upcast
        if n.graph is graph and not n.users and n.op != "placeholder":
            graph.erase_node(n)
    return True


def _walk(x: fx.Node, stop: fx.Node):
    """x, x.args[0], ... down to (not including) stop."""
    while x is not stop:
        yield x
        x = x.args[0]


# Loss calls "routed" and "kept" stock by the graphs compiled so far, and "kept: <why>".
counters: Counter = Counter()


def route(graph: fx.Graph) -> int:
    """Replace every expressible loss call of a Dynamo FX graph; returns how many. Each call
    kept stock is counted with its reason and logged (the ``inductor_ce`` logger, INFO)."""
    global _pass_ran
    _pass_ran = True
    routed = 0
    for node in list(graph.nodes):
        call = _call_of(node)
        if call is None:
            continue
        where = _source_line(node)
        outcome = _route(graph, node, call)
        if outcome is True:
            counters["routed"] += 1
            routed += 1
            _note_smoothing(node, call, where)
            continue
        counters["kept"] += 1
        counters[f"kept: {outcome}"] += 1
        _log.log.info("enable(): the cross-entropy at %s stays stock: %s", where, outcome)
    return routed


# The label smoothings routed per call site (its stack trace), up to SMOOTHING_VALUES. At most
# _MAX_SITES sites (then forgotten).
_SMOOTHINGS: dict = {}
SMOOTHING_VALUES = 3
_MAX_SITES = 256


def _note_smoothing(node: fx.Node, call: _Call, where: str) -> None:
    """Warns once per call site whose label smoothing reached SMOOTHING_VALUES distinct values.
    Why: a float passed to stock ``F.cross_entropy`` is specialized by Dynamo (its C
    argument parser reads the value), so each value compiles a graph, and at Dynamo's
    recompile limit the frame runs eagerly, with stock's loss: a schedule of the smoothing
    silently loses our loss after a few steps. Our own ``cross_entropy`` takes it without."""
    if call.nll or isinstance(call.label_smoothing, fx.Node):
        return
    site = node.meta.get("stack_trace") or where
    if len(_SMOOTHINGS) >= _MAX_SITES and site not in _SMOOTHINGS:
        _SMOOTHINGS.clear()
    if _log.nth_value(_SMOOTHINGS.setdefault(site, set()), float(call.label_smoothing),
                      SMOOTHING_VALUES):
        warnings.warn(
            f"enable(): the cross-entropy at {where} was compiled with {SMOOTHING_VALUES} "
            "values of label_smoothing: torch.compile specializes F.cross_entropy on that float, "
            "compiling once per value, and at its recompile limit runs the frame eagerly, "
            "with stock F.cross_entropy's loss. For a smoothing that changes between steps "
            "call inductor_ce.cross_entropy (a float: one recompile in all; a 0-d tensor: "
            "none; docs/eager.md)", RuntimeWarning, stacklevel=2)


# Whether the pass ran since the last graph was reported: a graph handed out without it was
# loaded from Inductor's FX-graph or AOTAutograd cache (torch 2.13 runs the pass after the
# lookup), whose routing the counters above never saw.
_pass_ran = False


def _report_graph(ops: Counter) -> None:
    """Every compiled graph that calls our ops, compiled or loaded from a cache, once (its
    forward): ``counters["graphs"]`` and ``counters["graph: <op>"]``, and for a loaded one
    ``counters["cached_graphs"]`` and ``counters["cached: <op>"]``; an INFO line says which.
    Every other graph (``ops`` empty) only closes the pass's run: else a graph loaded after
    it would read as compiled."""
    global _pass_ran
    loaded, _pass_ran = not _pass_ran, False
    if not _enabled or not ops:
        return
    counters["graphs"] += 1
    counters["cached_graphs"] += loaded
    for op, n in ops.items():
        counters[f"graph: {op}"] += n
        counters[f"cached: {op}"] += n if loaded else 0
    _log.log.info("enable(): a compiled graph %s calls inductor_ce's %s",
                  "loaded from Inductor's cache" if loaded else "compiled now",
                  ", ".join(f"{op} x{n}" for op, n in sorted(ops.items())))


def _source_line(node: fx.Node) -> str:
    """The user's line that made the call (the last frame of Dynamo's stack trace)."""
    lines = [ln.strip() for ln in (node.meta.get("stack_trace") or "").splitlines()
             if ln.strip().startswith("File ")]
    return lines[-1].removeprefix("File ") if lines else str(node.target)


# --- enable / disable ---------------------------------------------------------------------------

_enabled = False
_fuse_linear = True
_memory_budget = None


class _RoutingPass(cache.SaltPass):
    """Our pass in the pre-grad slot. Runs the pass the user had there (``inner``), then
    routes; ``uuid()`` is None when that pass has none (Inductor then bypasses its caches,
    as it would for that pass alone)."""

    def __init__(self, previous):
        super().__init__(_salt.source_salt(), previous)

    def __call__(self, graph: fx.Graph) -> None:
        super().__call__(graph)
        if _enabled:
            route(graph)

    def uuid(self):
        key = super().uuid()
        return None if key is None else (*key, "routing", _enabled, "linear", _fuse_linear,
                                         _memory_budget)


def enable(*, fuse_linear: bool = True, memory_budget: Optional[int] = None) -> None:
    """Route expressible cross-entropy calls through inductor_ce in graphs compiled from now on
    by torch.compile's Inductor backend (see the module docstring). ``fuse_linear``: the loss
    of an LM head whose logits have no other use becomes one fused linear + cross-entropy
    (no logits at all); False keeps the logits and routes the loss only. ``memory_budget``:
    the fused loss's (``linear_cross_entropy``'s), for graphs compiled from now on."""
    global _enabled, _fuse_linear, _memory_budget
    if not isinstance(fuse_linear, bool):
        raise TypeError(f"fuse_linear must be a bool, got {type(fuse_linear).__name__}")
    check_budget(memory_budget)
    if not passes.ROUTING_AVAILABLE:    # (before any state changes: a failed call changes none)
        raise RuntimeError("inductor_ce.enable(): this torch version lacks the Inductor API "
                           f"routing needs: {', '.join(passes.ROUTING_MISSING)}")
    _fuse_linear, _memory_budget = fuse_linear, memory_budget
    _enabled = True
    observe.on_graph(_report_graph)
    if not isinstance(passes.get_pre_grad_pass(), _RoutingPass):
        passes.set_pre_grad_pass(_RoutingPass(passes.get_pre_grad_pass()))
    cache.mark_cacheable(_fused_cross_entropy, _salt.source_salt())
    cache.mark_cacheable(_fused_linear_cross_entropy, _salt.source_salt())


def disable() -> None:
    """Stop routing; the pre-grad pass slot gets back what it held before ``enable()``."""
    global _enabled
    _enabled = False
    current = passes.get_pre_grad_pass() if passes.ROUTING_AVAILABLE else None
    if isinstance(current, _RoutingPass):
        passes.set_pre_grad_pass(current.inner)
    # (Else someone wrapped our pass since: it stays in their chain, as a no-op.)
    if passes.ROUTING_AVAILABLE:
        cache.mark_cacheable(_fused_cross_entropy, None)
        cache.mark_cacheable(_fused_linear_cross_entropy, None)


def is_enabled() -> bool:
    return _enabled


# The enabled() blocks open now, oldest first ((token, fuse_linear, memory_budget)), and the
# state before the first of them. Routing is the process's (torch.compile's pre-grad pass
# slot is), so blocks of several threads overlap: each exit leaves the options of the latest
# block still open, and the last one the state before the first.
_BLOCKS: list = []
_BEFORE: tuple = (False, True, None)
_BLOCKS_LOCK = threading.Lock()


@contextlib.contextmanager
def enabled(*, fuse_linear: bool = True, memory_budget: Optional[int] = None):
    """``with inductor_ce.enabled(): ...``; torch.compile'd code must first run inside. On exit
    the state before it comes back: routing on or off, its ``fuse_linear`` and
    ``memory_budget``. Blocks in several threads may overlap: routing stays on while any is
    open (the options of the latest one open), and the state before the first comes back
    when the last exits."""
    global _BEFORE, _fuse_linear, _memory_budget
    token = object()
    with _BLOCKS_LOCK:
        if not _BLOCKS:
            _BEFORE = (_enabled, _fuse_linear, _memory_budget)
        enable(fuse_linear=fuse_linear, memory_budget=memory_budget)
        _BLOCKS.append((token, fuse_linear, memory_budget))
    try:
        yield
    finally:
        with _BLOCKS_LOCK:
            _BLOCKS[:] = [block for block in _BLOCKS if block[0] is not token]
            if _BLOCKS:
                enable(fuse_linear=_BLOCKS[-1][1], memory_budget=_BLOCKS[-1][2])
            elif _BEFORE[0]:
                enable(fuse_linear=_BEFORE[1], memory_budget=_BEFORE[2])
            else:
                disable()
                _fuse_linear, _memory_budget = _BEFORE[1], _BEFORE[2]
