"""AOTAutograd's partitioner: our ops fuse their pointwise producers."""
from __future__ import annotations

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
