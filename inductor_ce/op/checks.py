"""Input checks shared by every public entry point (``cross_entropy``, the
vocabulary-parallel loss, the fused linear + cross-entropy): errors name the argument.
"""
from __future__ import annotations

import torch
from torch import Tensor

from .._inductor import runtime
from .options import check_options as _check_options

# Under torch.compile Dynamo re-checks, on every call, each module global and builtin that the
# traced path reads, a fraction of a microsecond apiece, and a step of few rows is bound by the
# host (docs/lowering.md#few-static-rows). So the checks below compare literals with the
# tensors' own properties (str(dtype) reads only `str`), not module-level tuples or torch.*.


def probability_target(target) -> bool:
    """Whether ``target`` holds class probabilities (a floating tensor). Here, not in the
    caller: under torch.compile a second module's ``Tensor`` global would be one more guard
    per call (Dynamo checks that both names reach the same class)."""
    return isinstance(target, Tensor) and target.is_floating_point()


def byte_target(target) -> bool:
    """Whether ``target`` holds Byte (uint8) class indices, which F.cross_entropy takes as it
    takes int64 ones (the caller converts them: the kernels take int32 or int64). Here for
    probability_target's reason."""
    return isinstance(target, Tensor) and str(target.dtype) == "torch.uint8"


def check_options(ignore_index, reduction, label_smoothing, z_loss, softcap,
                  return_lse=False):
    """TypeError / ValueError naming the option, as F.cross_entropy where it has one
    (``options.check_options``: the rules, which need no torch). Returns (ignore_index, reduction,
    label_smoothing, z_loss, softcap) as the loss uses them (a numpy scalar as its Python number);
    label_smoothing and z_loss: numbers, or a one-element tensor's value (z_loss's must be
    floating-point), read on the host (on CUDA a sync, as F.cross_entropy's own read of a tensor
    label_smoothing); under torch.compile such a tensor stays a graph input, as a float32 0-d tensor
    (no graph break, no guard on its value) checked on the device: a bad value raises at the next
    synchronization."""
    ignore_index, reduction, label_smoothing, z_loss, softcap = _check_options(
        ignore_index, reduction, label_smoothing, z_loss, softcap, return_lse, Tensor)
    # (A number was checked above; a tensor's value is checked here. No builtin read for a
    # number beyond those above.)
    if not isinstance(label_smoothing, (int, float)):
        label_smoothing = _tensor_option("label_smoothing", label_smoothing, False)
    if not isinstance(z_loss, (int, float)):
        z_loss = _tensor_option("z_loss", z_loss, True)
    return ignore_index, reduction, label_smoothing, z_loss, softcap


# What options.check_options asks of a number, written for a tensor too (`&`, not `and`).
_RULES = {"label_smoothing": ("must be in [0, 1]", lambda v: (v >= 0.0) & (v <= 1.0)),
          "z_loss": ("must be a finite number >= 0",
                     lambda v: (v >= 0.0) & (v < float("inf")))}


def _tensor_option(name, value, floating):
    if value.numel() != 1 or (floating and not value.is_floating_point()):
        kind = "floating-point " if floating else ""
        raise ValueError(f"{name} must be a float or a one-element {kind}tensor, got a "
                         f"{value.dtype} tensor of shape {tuple(value.shape)}")
    if value.requires_grad and torch.is_grad_enabled():   # (never a silently absent gradient)
        raise ValueError(f"{name} is a tensor that requires grad: the loss is not "
                         f"differentiated with respect to it (pass {name}.detach())")
    msg, rule = _RULES[name]
    if torch.compiler.is_compiling():
        value = value.reshape(()).float()
        runtime.assert_async(rule(value), f"inductor_ce: {name} {msg}")
        return value
    number = value.item()
    if not rule(number):
        raise ValueError(f"{name} {msg}, got {number}")
    return number


# torch 2.11 and 2.12's Inductor compiles the gradient of the ATen decomposition that
# torch.func transforms run wrongly at some shapes (a mean loss with label smoothing);
# 2.13 and later compile it right.
_VERSION = tuple(int(v) for v in torch.__version__.split(".")[:2])
TRANSFORMS_COMPILE = _VERSION >= (2, 13)


def exporting() -> bool:
    """Whether torch.export or torch.jit.trace traces this call: a graph that may run later
    with other inputs needing a gradient (the trace's requires_grad flags would be constants
    of it). (torch 2.11's Dynamo reads ``torch.compiler.is_exporting()`` as True under
    torch.compile too: False there.)"""
    return torch.jit.is_tracing() or _VERSION >= (2, 12) and torch.compiler.is_exporting()


def check_compiled_transform(what: str) -> None:
    """Keeps a torch.func transform (or forward-mode AD) of ``what`` out of torch.compile's
    graphs on a torch whose Inductor miscompiles it: traced, the raise makes Dynamo run the
    frame eagerly (the right values; with ``fullgraph=True`` it raises instead)."""
    if not TRANSFORMS_COMPILE and torch.compiler.is_compiling():
        raise NotImplementedError(
            f"{what} under a torch.func transform or forward-mode AD inside torch.compile "
            f"needs torch >= 2.13 (torch {torch.__version__}'s Inductor compiles its gradient "
            "wrongly at some shapes): apply the transform outside torch.compile, or upgrade")


def _kind(x) -> str:
    """What an argument is, for an error: a tensor's dtype, else its class (a numpy array's
    dtype would read as a tensor's)."""
    if isinstance(x, Tensor):
        return str(x.dtype)
    kind = type(x)
    return kind.__name__ if kind.__module__ == "builtins" else \
        f"{kind.__module__}.{kind.__qualname__}"


def check_logits(input) -> None:
    """The logits of every loss: float32, bfloat16 or float16, of shape (..., V), V >= 1."""
    if not isinstance(input, Tensor) or str(input.dtype) not in (
            "torch.float32", "torch.bfloat16", "torch.float16"):
        raise TypeError(f"input must be a float32, bfloat16 or float16 tensor of logits, "
                        f"got {_kind(input)}")
    check_dense(input, "input")
    if input.dim() < 1 or input.shape[-1] < 1:
        raise ValueError(f"input must have shape (..., V) with V >= 1, got {tuple(input.shape)}")


def check_dense(x: Tensor, name: str) -> None:
    """A strided (dense) tensor, not a nested or sparse one, which the kernels cannot read."""
    if x.is_nested:
        raise TypeError(f"{name} must be a dense tensor, got a nested one (for jagged sequences "
                        f"pass their values: x.values() and target.values())")
    if str(x.layout) != "torch.strided":
        raise TypeError(f"{name} must be a dense (strided) tensor, got layout {x.layout}")


def check_tensors(input, target, weight):
    check_logits(input)
    check_target(target, input,
                 " (cross_entropy also takes class probabilities: a floating tensor of input's "
                 "shape)", " (the class dimension is the last one)")
    if weight is not None:  # (a call, and a guard, only with a weight)
        check_weight(weight, input.shape[-1], input.device)


def check_target(target, input, dtype_note: str, shape_note: str = "") -> None:
    """Class indices, one per row of ``input``: int64 or int32 (uint8 is cast before), shape
    ``input.shape[:-1]``, on input's device. The notes end the dtype's and the shape's errors."""
    if not isinstance(target, Tensor) or str(target.dtype) not in ("torch.int64", "torch.int32"):
        raise TypeError(f"target must be an int64, int32 or uint8 tensor of class indices, got "
                        f"{_kind(target)}{dtype_note}")
    check_dense(target, "target")
    if target.shape != input.shape[:-1]:
        raise ValueError(f"target must have shape input.shape[:-1] = {tuple(input.shape[:-1])}"
                         f"{shape_note}, got {tuple(target.shape)}")
    if target.device != input.device:
        raise ValueError(f"input and target are on different devices: {input.device} and "
                         f"{target.device}")


def check_weight(weight, num_classes, device, note: str = "") -> None:
    """A class-weight vector: floating point, shape (num_classes,), on ``device``, no grad."""
    if weight is None:
        return
    if not isinstance(weight, Tensor) or not weight.is_floating_point():
        raise TypeError("weight must be a floating-point tensor")
    check_dense(weight, "weight")
    if tuple(weight.shape) != (num_classes,):
        raise ValueError(f"weight must have shape ({num_classes},){note}, got "
                         f"{tuple(weight.shape)}")
    if weight.device != device:
        raise ValueError(f"weight is on {weight.device}, input on {device}")
    if weight.requires_grad and torch.is_grad_enabled():
        raise ValueError("the gradient with respect to weight is not supported; pass "
                         "weight.detach()")


def check_linear(input, linear_weight, linear_bias, target, weight, memory_budget,
                 wide=False):
    """The arguments of linear_cross_entropy (the options are check_options'). ``wide``:
    the weight may be float32 where the input is not (autocast's: ``functional._autocast``)."""
    if not isinstance(input, Tensor) or str(input.dtype) not in (
            "torch.float32", "torch.bfloat16", "torch.float16"):
        raise TypeError(f"input must be a float32, bfloat16 or float16 tensor of hidden "
                        f"states, got {_kind(input)}")
    check_dense(input, "input")
    if input.dim() < 1 or input.shape[-1] < 1:
        raise ValueError(f"input must have shape (..., D) with D >= 1, got {tuple(input.shape)}")
    if not isinstance(linear_weight, Tensor):
        raise TypeError(f"linear_weight must be a (V, D) tensor, got {_kind(linear_weight)}")
    check_dense(linear_weight, "linear_weight")
    if linear_weight.dim() != 2:
        raise ValueError(f"linear_weight must be a (V, D) tensor, got {tuple(linear_weight.shape)}")
    if linear_weight.shape[1] != input.shape[-1] or linear_weight.shape[0] < 1:
        raise ValueError(f"linear_weight must have shape (V, {input.shape[-1]}) with V >= 1, "
                         f"got {tuple(linear_weight.shape)}")
    if (linear_weight.dtype != input.dtype and not (wide and linear_weight.dtype == torch.float32)
            or linear_weight.device != input.device):
        raise TypeError(f"linear_weight ({linear_weight.dtype} on {linear_weight.device}) must "
                        f"have input's dtype and device ({input.dtype} on {input.device})")
    num_classes = linear_weight.shape[0]
    if linear_bias is not None:
        if not isinstance(linear_bias, Tensor) or tuple(linear_bias.shape) != (num_classes,) \
                or linear_bias.dtype != input.dtype or linear_bias.device != input.device:
            got = (f"{tuple(linear_bias.shape)} {linear_bias.dtype} on {linear_bias.device}"
                   if isinstance(linear_bias, Tensor) else type(linear_bias).__name__)
            raise ValueError(f"linear_bias must be a ({num_classes},) tensor of input's dtype "
                             f"and device ({input.dtype} on {input.device}), got {got}")
    soft = isinstance(target, Tensor) and target.is_floating_point()
    check_target(target, input, " (the fused head takes no probability targets: "
                                "inductor_ce.cross_entropy(F.linear(input, linear_weight, "
                                "linear_bias), target) takes them, with the logits)" if soft
                 else "")
    if weight is not None:
        check_weight(weight, num_classes, input.device)
    check_budget(memory_budget)


MAX_BUDGET = 2**63 - 1   # (the ops' schemas take it as an int64)


def check_budget(memory_budget):
    """linear_cross_entropy's ``memory_budget`` (also LinearCrossEntropyLoss's at
    construction): None or a number of bytes in [1, 2^63)."""
    if memory_budget is None:
        return
    if memory_budget is True or memory_budget is False or not isinstance(memory_budget, int):
        raise TypeError(f"memory_budget must be None or an int >= 1 (bytes), got "
                        f"{type(memory_budget).__name__} {memory_budget!r}")
    if not 1 <= memory_budget <= MAX_BUDGET:
        raise ValueError(f"memory_budget must be None or an int in [1, 2**63) (bytes), got "
                         f"{memory_budget!r}")


def check_deprecated(memory_budget, policy, chunk_size):
    """The deprecated ``policy`` and ``chunk_size``, which stand for a memory_budget."""
    if policy not in (None, "fast", "compact"):
        raise ValueError(f"policy must be 'fast' or 'compact' (deprecated: pass "
                         f"memory_budget), got {policy!r}")
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int)
                                   or chunk_size < 1):
        raise ValueError(f"chunk_size must be None or an int >= 1, got {chunk_size!r}")
    if memory_budget is not None:
        raise ValueError("pass memory_budget alone: policy and chunk_size are its deprecated "
                         "forms")
