"""inductor_ce: a fused, collapse-safe cross-entropy that torch.compile lowers natively.

    loss = inductor_ce.cross_entropy(logits, target)        # like F.cross_entropy, class dim last
"""
from . import ops  # noqa: F401  (registers torch.ops.inductor_ce.*)
from .functional import (CrossEntropyLoss, LinearCrossEntropyLoss, cross_entropy,
                         linear_cross_entropy)
from . import linear  # noqa: F401  (registers torch.ops.inductor_ce.linear_ce_*)
from .routing import disable, enable, enabled  # torch.compile any model's loss

__version__ = "0.1.0"
__all__ = ["cross_entropy", "CrossEntropyLoss", "linear_cross_entropy", "LinearCrossEntropyLoss",
           "enable", "disable", "enabled", "__version__"]

from . import lowering as _lowering

LOWERING_ACTIVE = _lowering.register()
