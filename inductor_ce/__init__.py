"""inductor_ce: a fused, collapse-safe cross-entropy that torch.compile lowers natively.

    loss = inductor_ce.cross_entropy(logits, target)        # like F.cross_entropy, class dim last
"""
from . import ops  # noqa: F401  (registers torch.ops.inductor_ce.*)
from .functional import CrossEntropyLoss, cross_entropy

__version__ = "0.1.0"
__all__ = ["cross_entropy", "CrossEntropyLoss", "__version__"]
