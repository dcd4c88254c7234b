"""torch's private runtime state and entry points that the eager paths read: functorch
transforms, dispatch modes, forward-mode AD, autograd's running graph task and its C entry
points, CUDA stream capture, nn.Module's global hooks, functional collectives. Each name is
resolved here, once, at import."""
from __future__ import annotations

import torch
import torch.distributed._functional_collectives as funcol  # noqa: F401  (re-exported)
from torch.autograd import forward_ad as _forward_ad

# --- torch.func, dispatch modes, forward AD ------------------------------------------------

is_functorch_wrapped = torch._C._functorch.is_functorch_wrapped_tensor
_TransformType = torch._C._functorch.TransformType
_interpreters = torch._functorch.pyfunctorch.retrieve_all_functorch_interpreters
functorch_transforms_active = torch._C._are_functorch_transforms_active
# The batched tensors of torch.autograd's own vmap (torch._vmap_internals: autograd.grad(
# is_grads_batched=True), jacobian(vectorize=True)), which neither of the above sees.
_is_legacy_batched = getattr(torch._C._functorch, "is_legacy_batchedtensor", lambda t: False)
dispatch_modes = torch._C._len_torch_dispatch_stack     # how many TorchDispatchModes are on
assert_async = torch._assert_async                      # a device-side check, no host sync


def under_vmap(*grads) -> bool:
    """Whether a backward runs under vmap: a transform of torch.func, or batched upstream
    ``grads`` (None: absent; those of torch.autograd's own vmap are plain Tensors to
    everything else)."""
    return functorch_transforms_active() or any(
        g is not None and (is_functorch_wrapped(g) or _is_legacy_batched(g)) for g in grads)


def unwrap_functorch(t: torch.Tensor) -> torch.Tensor:
    """``t`` without its torch.func wrappers (vmap's batched tensor, grad's tracking one)."""
    while is_functorch_wrapped(t):
        t = torch._C._functorch.get_unwrapped(t)
    return t


def derivative_levels() -> int:
    """How many derivatives are being taken of what runs now: torch.func's grad and jvp
    transforms on its stack (vmap's are not derivatives), or 1 for a forward-mode AD level
    alone. (Eager only: under torch.compile the stack is not read.)"""
    if torch.compiler.is_compiling():
        return 0
    kinds = (_TransformType.Grad, _TransformType.Jvp)
    levels = sum(i.key() in kinds for i in _interpreters())
    return levels or int(forward_ad_active())


def forward_ad_active() -> bool:
    """Whether a forward-mode AD level is open (``torch.autograd.forward_ad.dual_level``)."""
    return getattr(_forward_ad, "_current_level", -1) >= 0


# --- autograd ------------------------------------------------------------------------------

def graph_keeps_graph() -> bool:
    """Whether the running backward keeps its graph (retain_graph=True); True where torch
    cannot tell."""
    keeps = getattr(torch._C._autograd, "_get_current_graph_task_keep_graph", None)
    return True if keeps is None else keeps()


def delayed_error(msg: str, inputs: int = 1):
    """A function of ``inputs`` tensors returning them unchanged (one tensor, or a tuple),
    whose gradient raises ``msg``."""
    return torch._C._functions.DelayedError(msg.encode(), inputs)


def function_apply(cls):
    """``cls.apply`` of an autograd.Function without its Python wrapper (the C function)."""
    return torch._C._FunctionBase.__dict__["apply"].__get__(None, cls)


# --- CUDA ----------------------------------------------------------------------------------

# (torch.cuda.is_current_stream_capturing without its Python frame: called twice per step)
stream_capturing = getattr(torch._C, "_cuda_isCurrentStreamCapturing",
                           torch.cuda.is_current_stream_capturing)
# The current CUDA stream of a device index, as an int (no Stream object): None on a build
# without CUDA, where no CUDA tensor exists to ask it for.
current_raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)


# --- nn.Module -----------------------------------------------------------------------------

def global_module_hooks(attr: str):
    """nn.Module's global hooks of kind ``attr`` ("_forward_hooks", ...), a dict or None."""
    from torch.nn.modules import module as nn_module
    return getattr(nn_module, "_global" + attr, None)
