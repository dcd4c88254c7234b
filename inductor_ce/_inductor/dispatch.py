"""The dispatcher's thread-local key sets: autograd inside a custom op's implementation."""
from __future__ import annotations

import contextlib

import torch

_K = torch._C.DispatchKey
# Excluded while a custom op's implementation runs: autograd (below the op's own autograd
# formula) and, when a TorchDispatchMode handles the op, everything above the Python key
# (functorch among it). Names absent from a torch build are skipped.
_ABOVE_THE_BACKEND = ("AutogradFunctionality", "AutogradOther", "AutogradNestedTensor",
                      "ADInplaceOrView", "FuncTorchDynamicLayerBackMode",
                      "FuncTorchDynamicLayerFrontMode", "FuncTorchGradWrapper",
                      "FuncTorchBatched", "FuncTorchVmapMode", "Python", "PythonTLSSnapshot",
                      "PreDispatch")
_ABOVE = torch._C.DispatchKeySet(_K.Undefined)
for _name in _ABOVE_THE_BACKEND:
    if hasattr(_K, _name):
        _ABOVE = _ABOVE | torch._C.DispatchKeySet(getattr(_K, _name))


class autograd_inside_op:
    """Dispatch as a plain eager call does, with grad mode on: for a small differentiated
    computation inside an op's implementation (the fused linear + cross-entropy takes the
    per-row coefficients of its finish from autograd; a dispatch mode, e.g. the aliasing
    check AOTAutograd runs on a compiled graph's first call, does not see those ops). The
    caller's saved-tensor hooks do not see them either: identity hooks stand in for theirs,
    since the small graph is built and differentiated before the op returns (an activation
    checkpoint's hooks would otherwise recompute its region in the middle of the forward, and
    a selective checkpoint's would fail to find this op's output). (A class, not a generator:
    the fused head enters it per chunk.)"""
    __slots__ = ("_keys", "_grad", "_hooks")

    def __enter__(self):
        self._keys = torch._C._ForceDispatchKeyGuard(
            torch._C._dispatch_tls_local_include_set(),
            torch._C._dispatch_tls_local_exclude_set() - _ABOVE)
        self._grad = torch.enable_grad()
        # (Where hooks are disabled, pushing one raises; none of the caller's can run then.)
        self._hooks = (torch.autograd.graph.saved_tensors_hooks(_same, _same)
                       if torch._C._autograd._saved_tensors_hooks_is_enabled() else _NO_HOOKS)
        self._keys.__enter__()
        self._grad.__enter__()
        self._hooks.__enter__()
        return self

    def __exit__(self, *exc):
        try:
            self._hooks.__exit__(*exc)
        finally:
            try:
                self._grad.__exit__(*exc)
            finally:
                self._keys.__exit__(*exc)


def _same(x):
    return x


_NO_HOOKS = contextlib.nullcontext()
