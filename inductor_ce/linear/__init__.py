"""The fused linear + cross-entropy (``head``: the LM head's loss without its logits) and
the in-place gradient scaling its fast policy uses (``scaling``)."""
from .head import lean_chunk_rows  # noqa: F401  (named in docs/transformers.md)
