"""inductor_ce: a fused, collapse-safe cross-entropy that torch.compile lowers natively.

    loss = inductor_ce.cross_entropy(logits, target)        # like F.cross_entropy, class dim last
"""
from . import ops  # noqa: F401  (registers torch.ops.inductor_ce.*)
from .functional import CrossEntropyLoss, cross_entropy
from .linear import LinearCrossEntropyLoss, linear_cross_entropy
from .routing import disable, enable, enabled  # torch.compile any model's loss

__version__ = "0.1.0"
__all__ = ["cross_entropy", "CrossEntropyLoss", "linear_cross_entropy", "LinearCrossEntropyLoss",
           "enable", "disable", "enabled", "__version__"]

from . import lowering as _lowering

LOWERING_ACTIVE = _lowering.register()
