"""Launch configuration and tiling of the kernels Inductor generates for our ops.

Two hooks, each changing only kernels that compute one of our buffers or ops: a fixed launch
(``pin_launch``: Inductor's ``triton_kernel_kwargs`` choice hook, plus the hardware max) and
row-by-column tiling of a pointwise kernel (``tile_rows_and_columns``).
"""
from __future__ import annotations

import weakref

import torch
from torch._inductor.virtualized import V


# --- a fixed launch configuration for one kernel -------------------------------------------
# Inductor chooses a kernel's launch configuration from heuristics over its sizes, and keeps a
# mask on the programs' range unless it can prove the block divides it: with a symbolic row
# count, every element of the forward's chunk kernel paid for that mask (docs/lowering.md).
# ``InductorChoices.triton_kernel_kwargs`` is Inductor's hook for fixed configurations; the
# active choices handler is wrapped so that only a kernel computing a pinned buffer changes.

_PINS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # graph -> {buffer: config}
try:
    from torch._inductor.codegen.triton import FixedTritonConfig
    PIN_AVAILABLE = hasattr(V, "set_choices_handler")
except Exception:  # pragma: no cover - depends on the torch build
    PIN_AVAILABLE = False
try:  # the kernel asks its features for the index type (2.11-2.15): see _int32_up_to
    from torch._inductor.codegen.simd import SIMDScheduling as _SIMD
    from torch._inductor.codegen.simd_kernel_features import SIMDKernelFeatures as _Features
    INDEX32_AVAILABLE = PIN_AVAILABLE and hasattr(_Features, "select_index_dtype") and \
        hasattr(_SIMD, "can_use_32bit_indexing")
except Exception:  # pragma: no cover - depends on the torch build
    INDEX32_AVAILABLE = False


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
                config, persistent, plain_max, index_bound = pins[name]
                fixed = (_PlainMaxConfig if plain_max else FixedTritonConfig)(dict(config))
                kernel_kwargs = {**kernel_kwargs, "fixed_config": fixed}
                if index_bound is not None and INDEX32_AVAILABLE:
                    _int32_up_to(features, index_bound)
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


def _int32_up_to(features, index_bound) -> None:
    """Index this kernel in int32 where Inductor would choose int64 only because its
    iteration range (programs x block) exceeds 2^31 - 1, while the caller bounds every index
    the kernel computes by ``index_bound`` (a value it has checked fits in int32). Buffers
    larger than 2^31 - 1 elements still force int64 (Inductor's own check)."""
    original = features.select_index_dtype

    def select_index_dtype():
        dtype = original()
        if dtype != torch.int64:
            return dtype
        names = set()
        for node in features.scheduler_nodes():
            names.update(node.get_buffer_names())
            names.update(node.used_buffer_names())
        buffers = [V.graph.get_buffer(n) for n in names]
        return (torch.int32 if _SIMD.can_use_32bit_indexing(index_bound, buffers)
                else dtype)

    features.select_index_dtype = select_index_dtype


def pin_launch(box, config: dict, persistent: bool | None = None,
               plain_max: bool = False, index_bound=None) -> bool:
    """Generate the Triton kernel computing ``box`` (realized here) with this fixed launch
    configuration; ``persistent`` (reductions) forces the reduction to stay in registers;
    ``plain_max`` gives its max reductions the hardware's max (see _plain_max_reductions).
    A mask on the programs' range is dropped when the fixed XBLOCK provably divides it
    (XBLOCK=1 always does). ``index_bound``: see _int32_up_to. Returns False, changing
    nothing, where the torch build lacks the hook."""
    if not PIN_AVAILABLE:
        return False
    box.realize()
    _PINS.setdefault(V.graph, {})[box.get_name()] = (config, persistent, plain_max,
                                                       index_bound)
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
# instructions per element, docs/lowering.md). ``config.triton.prefer_nd_tiling`` tiles by rows
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
        SIMDScheduling.get_tiling_and_scores  # noqa: B018 - (absent: no tiling)
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
