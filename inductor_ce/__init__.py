"""inductor_ce: a fused, collapse-safe cross-entropy that torch.compile lowers natively.

    loss = inductor_ce.cross_entropy(logits, target)        # like F.cross_entropy, class dim last
"""
import sys as _sys

__version__ = "0.1.0"
__all__ = ["cross_entropy", "CrossEntropyLoss", "linear_cross_entropy", "LinearCrossEntropyLoss",
           "enable", "disable", "enabled", "__version__"]


def _load() -> None:
    """Import the torch-side modules: registers torch.ops.inductor_ce.* and the lowering."""
    global CrossEntropyLoss, LinearCrossEntropyLoss, cross_entropy, linear_cross_entropy
    global disable, enable, enabled, LOWERING_ACTIVE
    from . import ops  # noqa: F401  (registers torch.ops.inductor_ce.*)
    from .functional import (CrossEntropyLoss, LinearCrossEntropyLoss, cross_entropy,
                             linear_cross_entropy)
    from . import linear  # noqa: F401  (registers torch.ops.inductor_ce.linear_ce_*)
    from .routing import disable, enable, enabled  # torch.compile any model's loss
    from . import lowering
    LOWERING_ACTIVE = lowering.register()


def _command_line_first() -> bool:
    """Whether this process is ``python -m inductor_ce.inspect``: it checks its arguments
    before torch is imported, so that ``--help`` and a bad argument answer at once; the
    package's names then load on first use (``__getattr__``)."""
    argv = getattr(_sys, "orig_argv", [])
    return "-m" in argv and argv[argv.index("-m") + 1:][:1] == ["inductor_ce.inspect"]


if _command_line_first():
    def __getattr__(name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        _load()
        if name in globals():
            return globals()[name]
        raise AttributeError(f"module 'inductor_ce' has no attribute {name!r}")
else:
    _load()
