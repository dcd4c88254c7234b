"""Triton code for CPU tensors on a machine without a GPU, and Triton's interpreter."""
from __future__ import annotations

import contextlib
import os


class _InterpreterLibdevice:
    """Stand-in for ``triton_helpers.libdevice`` under Triton's interpreter, which does not
    patch libdevice: names resolve to ``triton.language.math``; tanh (absent there) is
    2 * sigmoid(2x) - 1, isnan x != x and isinf |x| == inf."""

    def __getattr__(self, name):
        import triton.language as tl
        if name == "tanh":
            return lambda x: 2.0 * tl.sigmoid(2.0 * x) - 1.0
        if name == "isnan":
            return lambda x: x != x
        if name == "isinf":
            return lambda x: tl.abs(x) == float("inf")
        if name == "log1p":  # Goldberg: log(u) * x / (u - 1), exact to rounding for tiny x
            def log1p(x):
                u = 1.0 + x
                return tl.where(u == 1.0, x, tl.log(u) * (x / (u - 1.0)))
            return log1p
        return getattr(tl.math, name)


@contextlib.contextmanager
def triton_on_cpu(run: bool = False):
    """Make Inductor emit Triton kernels for CPU tensors (``cpu_backend="triton"``).

    Code generation stops at ``triton_hash_with_backend`` ("0 active drivers") on a machine
    without a GPU: it is patched to a constant. With ``run=True`` the kernels also execute,
    in Triton's interpreter (TRITON_INTERPRET=1, caches off, libdevice stand-in)."""
    import torch._inductor.config as inductor_config
    import torch.utils._triton as utils_triton
    from torch._inductor.runtime import triton_helpers

    saved_hash, saved_libdevice = utils_triton.triton_hash_with_backend, triton_helpers.libdevice
    saved_env = os.environ.get("TRITON_INTERPRET")
    patches = {"cpu_backend": "triton"}
    if run:
        patches["force_disable_caches"] = True
    try:
        utils_triton.triton_hash_with_backend = lambda: "INDUCTOR_CE_CPU_TRITON"
        if run:
            os.environ["TRITON_INTERPRET"] = "1"
            triton_helpers.libdevice = _InterpreterLibdevice()
        with inductor_config.patch(patches):
            yield
    finally:
        utils_triton.triton_hash_with_backend = saved_hash
        triton_helpers.libdevice = saved_libdevice
        if saved_env is None:
            os.environ.pop("TRITON_INTERPRET", None)
        else:
            os.environ["TRITON_INTERPRET"] = saved_env
