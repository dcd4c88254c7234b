"""inductor_ce: a fused, collapse-safe cross-entropy that torch.compile lowers natively.

    loss = inductor_ce.cross_entropy(logits, target)        # like F.cross_entropy, class dim last
"""
import sys as _sys

from ._version import __version__
__all__ = ["cross_entropy", "CrossEntropyLoss", "linear_cross_entropy", "LinearCrossEntropyLoss",
           "linear_log_probs", "LossOutput", "enable", "disable", "enabled", "__version__"]


def _load() -> None:
    """Import the torch-side modules: registers torch.ops.inductor_ce.* and the lowering."""
    global CrossEntropyLoss, LinearCrossEntropyLoss, cross_entropy, linear_cross_entropy
    global LossOutput, linear_log_probs
    global disable, enable, enabled, LOWERING_ACTIVE
    # The layers bottom-up: the op (registers torch.ops.inductor_ce.ce_*), its lowering, the
    # eager backend (registers itself on the op), the fused head (torch.ops.inductor_ce.
    # linear_ce_*), the public API, the routing of torch.compile'd models.
    from .op import ce  # noqa: F401
    from . import lowering, lowering_soft
    from .eager import kernels  # noqa: F401
    from .linear import head  # noqa: F401
    from .functional import (CrossEntropyLoss, LinearCrossEntropyLoss, LossOutput,
                             cross_entropy, linear_cross_entropy, linear_log_probs)
    from .integrations.routing import disable, enable, enabled
    LOWERING_ACTIVE = lowering.ACTIVE = lowering.register()
    if LOWERING_ACTIVE:
        lowering_soft.register()


def _command_line_first() -> bool:
    """Whether this process is ``python -m inductor_ce.codegen``: it checks its arguments
    before torch is imported, so that ``--help`` and a bad argument answer at once; the
    package's names then load on first use (``__getattr__``)."""
    argv = getattr(_sys, "orig_argv", [])
    return "-m" in argv and argv[argv.index("-m") + 1:][:1] == ["inductor_ce.codegen"]


# Submodules a user reaches as attributes (``inductor_ce.parallel.vocab_parallel_...``,
# ``inductor_ce.transformers.apply``), imported on first use: torch.distributed and
# transformers are not needed to import the package.
_LAZY_SUBMODULES = ("parallel", "transformers")
_loading = False


def __getattr__(name: str):
    """The package's names where their load was deferred (``_command_line_first``), and the
    lazy submodules."""
    global _loading
    # (While loading, `from . import lowering` asks for its submodules here first: they
    # are not loaded yet, and the import system then imports them.)
    if "LOWERING_ACTIVE" not in globals() and not name.startswith("__") and not _loading:
        _loading = True
        try:
            _load()
        finally:
            _loading = False
        if name in globals():
            return globals()[name]
    if name in _LAZY_SUBMODULES:
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'inductor_ce' has no attribute {name!r}")


if not _command_line_first():
    _load()
