"""Generated code, guards and counters of compiled functions (tests, inspect, demo)."""
from __future__ import annotations

import contextlib

import torch
from torch._inductor.graph import GraphLowering as _GraphLowering
from torch._inductor.utils import run_and_get_code

from .cache import no_compile_caches
from .cpu_triton import triton_on_cpu
from .passes import patch_inductor_config


def guards_of(fn) -> str:
    """The guard tree Dynamo checks on every call of ``fn``'s first compiled entry, as text
    (``fn`` is the function given to torch.compile)."""
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    return str(_debug_get_cache_entry_list(fn.__code__)[0].guard_manager)


def compile_counters():
    """Dynamo's event counters (e.g. ["aot_autograd"]["autograd_cache_hit"])."""
    from torch._dynamo.utils import counters
    return counters


def generated_code(fn, *args, backend: str = "default", **kwargs) -> tuple[object, list[str]]:
    """(result, [wrapper+kernel source of each graph Inductor compiled while running fn]).

    ``backend="default"`` compiles and runs (``run_and_get_code``: forward, then backward
    code when fn runs a backward). ``backend="triton"`` on a machine without a GPU generates
    the Triton code Inductor would emit for the CPU tensors without running it
    (``codegen_only``: forward first): result is None."""
    if backend == "default":
        return run_and_get_code(fn, *args, **kwargs)
    if backend != "triton":
        raise ValueError(f"backend must be 'default' or 'triton', got {backend!r}")
    return None, codegen_only(fn, *args, triton_on_cpu_tensors=True, pin_machine=False,
                              **kwargs)


def _exception_chain(e):
    seen = []
    while e is not None and e not in seen:
        seen.append(e)
        e = getattr(e, "inner_exception", None) or e.__cause__ or e.__context__
    return seen


# === Generated code without compiling or running it (codegen_snapshots/, inductor_ce.codegen) ===
# AOTAutograd normally compiles the backward graph lazily, at the first backward call;
# ``torch._functorch.config.force_non_lazy_backward_lowering`` (present in 2.11 and 2.13)
# compiles it right after the forward. With ``GraphLowering.compile_to_module`` replaced by
# "generate the code, keep it, return a module whose call() stops", one call of a compiled
# function yields the code of both graphs; no kernel is compiled and nothing runs, so the
# inputs may be uninitialized (``torch.empty``) and as large as a real model's.

class _NotRun(Exception):
    pass


@contextlib.contextmanager
def _pinned_codegen_machine():
    """What the code generator reads from the host, pinned so that the code does not depend
    on the machine that generates it: the CPU "SM count" (used by Inductor's reduction-split
    heuristic for CPU tensors under cpu_backend="triton"), the C++ SIMD width (AVX2) and the
    C++ thread count (``dynamic_threads``: per-thread arrays sized at run time)."""
    from unittest import mock
    from torch._dynamo.device_interface import CpuInterface, CpuDeviceProperties
    with mock.patch.object(CpuInterface.Worker, "get_device_properties",
                           staticmethod(lambda device=None: CpuDeviceProperties(8))), \
            patch_inductor_config(**{"cpp.simdlen": 256, "cpp.dynamic_threads": True}):
        yield


def cpp_vec_isa() -> str:
    """The SIMD instruction set the C++ backend generates for (with the pinned width)."""
    from torch._inductor import cpu_vec_isa
    with _pinned_codegen_machine():
        return str(cpu_vec_isa.pick_vec_isa())


def codegen_only(fn, *args, triton_on_cpu_tensors: bool = False, pin_machine: bool = True,
                 **kwargs) -> list[str]:
    """[wrapper + kernel source of each graph Inductor generates when fn calls a compiled
    function]: forward, then backward when an input requires grad. Kernels are neither
    compiled nor run; fn stops at its first call of a compiled graph. Dynamo is reset before
    and after; caches are off (a hit would skip the code generator). ``pin_machine``: see
    ``_pinned_codegen_machine`` (off: the code this machine gets)."""
    from unittest import mock
    import torch._functorch.config as functorch_config

    codes: list[str] = []

    class _Stop:
        def call(self, *a, **k):
            raise _NotRun

    def generate(graph):
        wrapper, kernels = graph.codegen_with_cpp_wrapper() if graph.cpp_wrapper \
            else graph.codegen()
        codes.append(wrapper.value + ("\n" + kernels.value if kernels else ""))
        return _Stop()

    stack = contextlib.ExitStack()
    with stack:
        if triton_on_cpu_tensors:
            stack.enter_context(triton_on_cpu())
        stack.enter_context(no_compile_caches())
        # Nothing is compiled: no pool of compile worker processes to start.
        stack.enter_context(patch_inductor_config(compile_threads=1))
        stack.enter_context(functorch_config.patch(force_non_lazy_backward_lowering=True))
        if pin_machine:
            stack.enter_context(_pinned_codegen_machine())
        stack.enter_context(mock.patch.object(_GraphLowering, "compile_to_module", generate))
        torch.compiler.reset()
        try:
            fn(*args, **kwargs)
        except Exception as e:
            if not any(isinstance(x, _NotRun) for x in _exception_chain(e)):
                raise
        finally:
            torch.compiler.reset()
    if not codes:
        raise RuntimeError("codegen_only: fn compiled no graph with Inductor")
    return codes
