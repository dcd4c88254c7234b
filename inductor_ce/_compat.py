"""Every use of private Inductor / Dynamo API in inductor_ce lives in this module.

torch 2.11 through 2.13 are supported. Each private name is resolved here, once, at import;
if one is missing, ``AVAILABLE`` is False, ``MISSING`` says what, and the ops fall back to
their ATen decomposition under torch.compile (``lowering.register()`` warns once).
"""
from __future__ import annotations

import contextlib
import os
import warnings
import weakref

import torch

MISSING: list[str] = []

try:  # --- lowering API -------------------------------------------------------------------
    from torch._inductor import ir
    from torch._inductor.virtualized import V, ops  # noqa: F401  (ops: used by lowering.py)
    from torch._inductor.lowering import register_lowering
    from torch._inductor.utils import expr_fits_within_32bit, sympy_dot, sympy_product
    from torch._inductor.custom_graph_pass import CustomGraphPass

    for _name in ("Pointwise", "Reduction", "TensorBox", "ReductionHint", "is_triton"):
        if not hasattr(ir, _name):
            MISSING.append(f"torch._inductor.ir.{_name}")
except Exception as e:  # pragma: no cover - depends on the torch build
    MISSING.append(f"torch._inductor lowering API ({type(e).__name__}: {e})")

AVAILABLE = not MISSING


F32 = torch.float32


def size(box) -> list:
    """Sizes of a lowering argument (sympy expressions; Symbols under dynamic shapes)."""
    return list(box.get_size())


def numel(sizes):
    """Product of sizes (a sympy expression; an int once static_int resolves it)."""
    return sympy_product(sizes)


def indexed_in_int64(box) -> bool:
    """Whether Inductor's kernels over ``box`` will index in int64: more than 2^31 - 1
    elements (by the size hints; the int32 case guards on them as Inductor does)."""
    return not expr_fits_within_32bit(numel(size(box)))


def realized_loader(box):
    """Loader of ``box`` computed once into its own buffer: per-row values that feed a
    per-element kernel are not recomputed for every element."""
    box.realize()
    return box.make_loader()


def loader(box):
    """index list -> value; unrealized pointwise producers (casts, scales, tanh) inline here,
    which is how prologue fusion happens."""
    return box.make_loader()


def static_int(expr):
    """The int value of a size, or None when it is symbolic."""
    try:
        return int(expr)
    except TypeError:
        return None


def specialize_int(expr):
    """The int value of a size, guarding on it when it is symbolic: the compiled code is then
    reused only while the size keeps that value (a different one recompiles)."""
    value = static_int(expr)
    if value is None:
        sizevars = V.graph.sizevars
        guard = getattr(sizevars, "guard_int", None) or sizevars.evaluate_static_shape
        value = int(guard(expr))
    return value


def device_of(box) -> torch.device:
    return box.get_device()


def is_triton(device: torch.device) -> bool:
    return ir.is_triton(device)


def reduction(device, inner_fn, ranges, reduction_ranges, reduction_type: str, dtype=F32):
    """A realized reduction (float32 unless told) over ``reduction_ranges`` for every index
    of ``ranges``.

    Constructed directly rather than through ``Reduction.create``: create() may split a
    reduction into layers or unroll it, and a split would re-read the logits."""
    node = ir.Reduction(device=device, dtype=dtype, inner_fn=inner_fn, ranges=list(ranges),
                        reduction_ranges=list(reduction_ranges),
                        reduction_type=reduction_type, src_dtype=dtype,
                        reduction_hint=ir.ReductionHint.INNER)
    box = ir.TensorBox.create(node)
    box.realize()
    return box


# --- a fixed launch configuration for one kernel -------------------------------------------
# Inductor chooses a kernel's launch configuration from heuristics over its sizes, and keeps a
# mask on the programs' range unless it can prove the block divides it: with a symbolic row
# count, every element of the forward's chunk kernel paid for that mask (~20%, NOTES run 5).
# ``InductorChoices.triton_kernel_kwargs`` is Inductor's hook for fixed configurations; the
# active choices handler is wrapped so that only a kernel computing a pinned buffer changes.

_PINS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # graph -> {buffer: config}
try:
    from torch._inductor.codegen.triton import FixedTritonConfig
    PIN_AVAILABLE = hasattr(V, "set_choices_handler")
except Exception:  # pragma: no cover - depends on the torch build
    PIN_AVAILABLE = False


class _PinnedChoices:
    """Delegates everything to the handler it wraps (Inductor's, or the user's), except the
    kernel kwargs of a kernel that contains a pinned buffer."""

    def __init__(self, inner):
        self._inner = inner

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def triton_kernel_kwargs(self, kernel_cls, features, groups, kernel_kwargs):
        kernel_kwargs = self._inner.triton_kernel_kwargs(kernel_cls, features, groups,
                                                         kernel_kwargs)
        pins = _PINS.get(V.graph, {})
        for node in features.scheduler_nodes() if pins else ():
            for name in node.get_buffer_names() & pins.keys():
                config, persistent, plain_max = pins[name]
                fixed = (_PlainMaxConfig if plain_max else FixedTritonConfig)(dict(config))
                kernel_kwargs = {**kernel_kwargs, "fixed_config": fixed}
                if persistent is not None:
                    kernel_kwargs["override_persistent_reduction"] = persistent
                return kernel_kwargs
        return kernel_kwargs


def _replace_once(owner, name: str, wrap, method: bool = False) -> None:
    """Replace ``owner.name`` (a classmethod if ``method``) by ``wrap(original)``, marked so
    that a second call leaves it alone."""
    original = getattr(owner, name)
    original = original.__func__ if method else original
    if getattr(original, "_inductor_ce", False):
        return
    replacement = wrap(original)
    replacement._inductor_ce = True
    setattr(owner, name, classmethod(replacement) if method else replacement)


if PIN_AVAILABLE:
    class _PlainMaxConfig(FixedTritonConfig):
        """A fixed configuration whose kernel's max reductions use Triton's ``tl.max``."""


def _plain_max_reductions() -> None:
    """Inductor reduces "max" with ``triton_helpers.max2``, whose NaN-propagating combine
    costs three instructions per element (two compares and a select); ``tl.max`` is the
    hardware's one max instruction, with an unspecified result when a NaN is among the
    inputs. Only kernels built with a ``_PlainMaxConfig`` get it: the caller guarantees that
    a NaN reaches the result anyway (the forward's chunk max only shifts a sum of exps,
    and a NaN logit makes that sum NaN)."""
    from torch._inductor.codegen import triton as triton_codegen

    def wrap(original):
        def get_triton_reduction_function(reduction_type):
            if reduction_type == "max" and isinstance(getattr(V.kernel, "fixed_config", None),
                                                      _PlainMaxConfig):
                return "tl.max"
            return original(reduction_type)
        return get_triton_reduction_function

    _replace_once(triton_codegen, "get_triton_reduction_function", wrap)


def _scalar_x_in_block_shapes() -> None:
    """torch 2.11 fails to generate a load whose index involves the row variable of a kernel
    without an x dimension (a pinned XBLOCK=1 persistent reduction): ``get_block_shape``
    indexes a list with that tree's tensor_dim, which is None there (TypeError). torch 2.13
    treats the variable as a scalar; on a torch whose function lacks that case, x variables
    are dropped from the expression before it is called, which gives the same shape."""
    import inspect
    from torch._inductor.codegen.triton import TritonSymbols
    from torch.utils._sympy.symbol import SymT, symbol_is_type

    if "tensor_dim is None" in inspect.getsource(TritonSymbols.get_block_shape):
        return

    def wrap(original):
        def get_block_shape(cls, expr):
            if getattr(V.kernel, "no_x_dim", False):
                xs = {s: 0 for s in expr.free_symbols if symbol_is_type(s, SymT.XBLOCK)}
                expr = expr.subs(xs) if xs else expr
            return original(cls, expr)
        return get_block_shape

    _replace_once(TritonSymbols, "get_block_shape", wrap, method=True)


def pin_launch(box, config: dict, persistent: bool | None = None,
               plain_max: bool = False) -> bool:
    """Generate the Triton kernel computing ``box`` (realized here) with this fixed launch
    configuration; ``persistent`` (reductions) forces the reduction to stay in registers;
    ``plain_max`` gives its max reductions the hardware's max (see _plain_max_reductions).
    A mask on the programs' range is dropped when the fixed XBLOCK provably divides it
    (XBLOCK=1 always does). Returns False, changing nothing, where the torch build lacks
    the hook."""
    if not PIN_AVAILABLE:
        return False
    box.realize()
    _PINS.setdefault(V.graph, {})[box.get_name()] = (config, persistent, plain_max)
    _scalar_x_in_block_shapes()
    if plain_max:
        _plain_max_reductions()
    if not isinstance(V.choices, _PinnedChoices):
        # Stays installed on this thread; it changes nothing for kernels without pins.
        V.set_choices_handler(_PinnedChoices(V.choices))
    return True


# --- rows and columns as the tiles of a pointwise kernel --------------------------------------
# Inductor flattens a contiguous (rows, V) pointwise kernel to one dimension and finds a row as
# xindex // V. Unless its block provably divides rows x V (never with a symbolic row count),
# every element is then masked by the total, and a thread's 8 elements no longer share their
# per-row loads: ptxas merges identical loads, but not predicated ones (33 instead of 18
# instructions per element, NOTES runs 16-17). ``config.triton.prefer_nd_tiling`` tiles by rows
# and columns (per-row loads of shape [YBLOCK, 1], one row mask per row), but it is global:
# it is set here only while Inductor picks the tiling of a kernel computing one of our ops.

_ND_OPS: set = set()


def _tiles_an_nd_op(node_schedule) -> bool:
    for node in node_schedule:
        origins = getattr(getattr(node, "node", None), "origins", None) or ()
        if any(getattr(origin, "target", None) in _ND_OPS for origin in origins):
            return True
    return False


def tile_rows_and_columns(op) -> bool:
    """Pointwise kernels computing ``op`` (its FX node among their origins) get one tile
    dimension per range. Returns False, changing nothing, where the torch build lacks it."""
    try:
        from torch._inductor.codegen.simd import SIMDScheduling
        SIMDScheduling.get_tiling_and_scores  # noqa: B018 - present in 2.11-2.13
        from torch._inductor import config as inductor_config
        inductor_config.triton.prefer_nd_tiling  # noqa: B018
    except (ImportError, AttributeError):  # pragma: no cover - depends on the torch build
        return False
    _ND_OPS.add(op)

    def wrap(original):
        def get_tiling_and_scores(cls, node_schedule, numel, reduction_numel=1, *args,
                                  **kwargs):
            if reduction_numel == 1 and _tiles_an_nd_op(node_schedule):
                with inductor_config.patch({"triton.prefer_nd_tiling": True}):
                    return original(cls, node_schedule, numel, reduction_numel, *args,
                                    **kwargs)
            return original(cls, node_schedule, numel, reduction_numel, *args, **kwargs)
        return get_tiling_and_scores

    _replace_once(SIMDScheduling, "get_tiling_and_scores", wrap, method=True)
    return True


def pointwise(device, dtype, inner_fn, ranges):
    return ir.Pointwise.create(device=device, dtype=dtype, inner_fn=inner_fn,
                               ranges=list(ranges))


def device_assert(device, cond_fn, ranges, msg: str) -> None:
    """Assert ``cond_fn(index)`` on the device for every index of ``ranges`` (Triton's
    ``tl.device_assert``, C++'s throw), as Inductor's own ``_assert_async`` lowering does: a
    node whose only effect is the assertion, which the scheduler keeps (it has a side effect)
    and fuses like any pointwise node over ``ranges``.

    Inductor emits the assert unmasked, and the lanes of a Triton program past the end of
    ``ranges`` load nothing (their values are undefined): the condition holds by definition
    there, as in Inductor's own bounds checks (``cond | ~mask``)."""
    strides = ir.FlexibleLayout.contiguous_strides(ranges)

    def inner_fn(index):
        flat = ops.index_expr(sympy_dot(index, strides), torch.int64)
        outside = ops.ge(flat, ops.index_expr(numel(ranges), torch.int64))
        return ops.device_assert_async(ops.logical_or(outside, cond_fn(index)), msg)

    pointwise(device, torch.bool, inner_fn, ranges).realize()


def register(op, fn) -> None:
    register_lowering(op, type_promotion_kind=None)(fn)


def warn_fallback() -> None:
    warnings.warn(
        "inductor_ce: this torch version lacks the Inductor API our lowering needs "
        f"({', '.join(MISSING)}); under torch.compile the ops run their ATen decomposition "
        "(correct, but not fused into one read of the logits).", RuntimeWarning, stacklevel=3)


# --- AOTAutograd's partitioner -----------------------------------------------------------
# The min-cut partitioner decides what the forward saves for the backward. It treats an op
# it does not know as a fusion barrier, so a cast, temperature or softcap feeding our ops
# looked "materialized" and was saved as a float32 T x V copy. Our lowerings do fuse such
# producers into their loads: telling the partitioner so lets it recompute them in the
# backward from the (bf16) input, which is what it then saves.

_FUSIBLE_PACKETS: list = []


def declare_fusible(*packets) -> bool:
    try:
        from torch._functorch import partitioners
    except Exception:  # pragma: no cover
        return False
    if not hasattr(partitioners, "get_default_op_list"):
        return False
    _FUSIBLE_PACKETS.extend(p for p in packets if p not in _FUSIBLE_PACKETS)
    original = partitioners.get_default_op_list
    if getattr(original, "_inductor_ce", False):
        return True

    def get_default_op_list():
        op_types = original()
        op_types.fusible_ops.update(_FUSIBLE_PACKETS)
        return op_types

    get_default_op_list._inductor_ce = True
    partitioners.get_default_op_list = get_default_op_list
    return True


# --- cache safety -----------------------------------------------------------------------
# Inductor's FX graph cache keys a compiled graph on the graph, torch's own sources and the
# config, not on our lowering: after a change to it, a cached graph would run stale kernels.
# A post-grad custom pass whose uuid() is a hash of our sources salts the key. The slot
# holds the user's pass too: ours wraps whatever is there and calls it first, and a plain
# callable there (no uuid) still makes Inductor bypass the cache, as it would without us.

class SaltPass(CustomGraphPass if AVAILABLE else object):
    def __init__(self, salt: str, inner=None):
        self.salt, self.inner = salt, inner

    def _inners(self):
        if self.inner is None:
            return ()
        return tuple(self.inner) if isinstance(self.inner, (list, tuple)) else (self.inner,)

    def __call__(self, graph) -> None:
        for p in self._inners():
            p(graph)

    def uuid(self):
        inner = []
        for p in self._inners():
            if not isinstance(p, CustomGraphPass) or not p.uuid():
                return None  # uncacheable user pass: keep Inductor's bypass
            inner.append(p.uuid())
        return ("inductor_ce", self.salt, *inner)


def ensure_salt(salt: str) -> None:
    """Make sure Inductor's post-grad custom pass slot carries our salt (idempotent; wraps
    a pass the user installed, also one installed after import)."""
    import torch._inductor.config as inductor_config

    current = inductor_config.post_grad_custom_post_pass
    if isinstance(current, SaltPass):
        if current.salt != salt:
            current.salt = salt
        return
    inductor_config.post_grad_custom_post_pass = SaltPass(salt, current)


# --- Triton code on a machine without a GPU -----------------------------------------------

class _InterpreterLibdevice:
    """Stand-in for ``triton_helpers.libdevice`` under Triton's interpreter, which does not
    patch libdevice: names resolve to ``triton.language.math``; tanh (absent there) is
    2 * sigmoid(2x) - 1."""

    def __getattr__(self, name):
        import triton.language as tl
        if name == "tanh":
            return lambda x: 2.0 * tl.sigmoid(2.0 * x) - 1.0
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


# --- graph passes (routing F.cross_entropy to inductor_ce; see routing.py) -----------------

ROUTING_MISSING: list[str] = []
try:
    from torch._inductor import config as inductor_config
    from torch._inductor.graph import GraphLowering as _GraphLowering
    from torch._inductor.utils import run_and_get_code

    if not hasattr(inductor_config, "pre_grad_custom_pass"):
        ROUTING_MISSING.append("torch._inductor.config.pre_grad_custom_pass")
except Exception as e:  # pragma: no cover - depends on the torch build
    ROUTING_MISSING.append(f"torch._inductor graph-pass API ({type(e).__name__}: {e})")

ROUTING_AVAILABLE = not ROUTING_MISSING


def get_pre_grad_pass():
    """Inductor's pre-grad custom pass slot: runs on Dynamo's torch-level FX graph before
    AOTAutograd. A pass with a uuid (see SaltPass) enters the FX-graph and AOTAutograd cache
    keys; torch 2.13 then runs it after the cache lookup ("late" pre_grad_pass_timing)."""
    return inductor_config.pre_grad_custom_pass


def set_pre_grad_pass(graph_pass) -> None:
    inductor_config.pre_grad_custom_pass = graph_pass


def mark_cacheable(function, key) -> None:
    """Let AOTAutograd's cache take graphs that call ``function`` (a Python function, which
    it otherwise refuses), keyed by ``key``; ``key=None`` withdraws it. Needed where the
    pre-grad pass runs before that cache's lookup (torch 2.11; 2.13 looks up first)."""
    table = getattr(inductor_config, "unsafe_marked_cacheable_functions", None)
    if table is None:
        return
    name = f"{function.__module__}.{function.__name__}"
    table = {k: v for k, v in table.items() if k != name}
    inductor_config.unsafe_marked_cacheable_functions = \
        table if key is None else {**table, name: key}


def patch_inductor_config(**changes):
    """``torch._inductor.config.patch`` (a context manager and decorator)."""
    return inductor_config.patch(changes)


def guards_of(fn) -> str:
    """The guard tree Dynamo checks on every call of ``fn``'s first compiled entry, as text
    (``fn`` is the function given to torch.compile)."""
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    return str(_debug_get_cache_entry_list(fn.__code__)[0].guard_manager)


def compile_counters():
    """Dynamo's event counters (e.g. ["aot_autograd"]["autograd_cache_hit"])."""
    from torch._dynamo.utils import counters
    return counters


@contextlib.contextmanager
def no_compile_caches():
    """Inductor's FX graph cache and AOTAutograd's cache off: every compile runs the passes
    and the code generator (a hit would skip both)."""
    import torch._functorch.config as functorch_config
    with patch_inductor_config(fx_graph_cache=False), \
            functorch_config.patch(enable_autograd_cache=False):
        yield


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


# === Generated code without compiling or running it (codegen_snapshots/, inductor_ce.inspect) ===
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


def fused_producers(box) -> list[str]:
    """Names of the FX nodes computing an unrealized lowering argument: the pointwise
    producers that our loads inline (e.g. ``convert_element_type``, ``div``); [] when the
    argument is a buffer (a graph input or a realized result)."""
    try:
        data = box
        while isinstance(data, (ir.TensorBox, ir.StorageBox, ir.BaseView)):
            data = data.data  # a realized StorageBox holds a Buffer: the walk stops there
        if not isinstance(data, ir.Pointwise):
            return []
        return sorted({str(n.name) for n in data.origins})
    except Exception:  # a shape of IR we did not foresee: report nothing rather than fail
        return []
