"""The dispatcher's thread-local key sets: autograd inside a custom op's implementation."""
from __future__ import annotations

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
    check AOTAutograd runs on a compiled graph's first call, does not see those ops). (A
    class, not a generator: the fused head enters it per chunk.)"""
    __slots__ = ("_keys", "_grad")

    def __enter__(self):
        self._keys = torch._C._ForceDispatchKeyGuard(
            torch._C._dispatch_tls_local_include_set(),
            torch._C._dispatch_tls_local_exclude_set() - _ABOVE)
        self._grad = torch.enable_grad()
        self._keys.__enter__()
        self._grad.__enter__()
        return self

    def __exit__(self, *exc):
        try:
            self._grad.__exit__(*exc)
        finally:
            self._keys.__exit__(*exc)
