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


@contextlib.contextmanager
def autograd_inside_op():
    """Dispatch as a plain eager call does, with grad mode on: for a small differentiated
    computation inside an op's implementation (the fused linear + cross-entropy takes the
    per-row coefficients of its finish from autograd; a dispatch mode, e.g. the aliasing
    check AOTAutograd runs on a compiled graph's first call, does not see those ops)."""
    include = torch._C._dispatch_tls_local_include_set()
    exclude = torch._C._dispatch_tls_local_exclude_set()
    for name in _ABOVE_THE_BACKEND:
        if hasattr(_K, name):
            exclude = exclude.remove(getattr(_K, name))
    with torch._C._ForceDispatchKeyGuard(include, exclude), torch.enable_grad():
        yield
