"""The fused linear + cross-entropy (``head``: the LM head's loss without its logits, by row
chunks; ``class_chunks``: by chunks of classes; ``chunks``: what both use; ``plan``: how it
chunks the logits within a memory budget) and the in-place gradient scaling of its scalar
loss's backward (``scaling``)."""
from .plan import LEAN_BUDGET, lean_chunk_rows  # noqa: F401  (named in the docs)
