"""The fused linear + cross-entropy (``head``: the LM head's loss without its logits) and
the in-place gradient scaling of its scalar loss's backward (``scaling``)."""
from .head import LEAN_BUDGET, lean_chunk_rows  # noqa: F401  (named in the docs)
