"""The ``inductor_ce`` logger: one line per lowering of our ops under torch.compile.

    TORCH_LOGS="+inductor_ce" python train.py     # torch routes it like its own loggers

(``TORCH_LOGS`` accepts the name of an importable module; ``inductor_ce`` and
``+inductor_ce`` both show these INFO lines.) Or ``logging.getLogger("inductor_ce")``.
"""
from __future__ import annotations

import logging

from ._inductor import ir

log = logging.getLogger("inductor_ce")


def nth_value(seen: set, value, n: int) -> bool:
    """Adds ``value`` to ``seen`` while it holds fewer than ``n`` values; True once: when the
    n-th distinct value arrives (the moment to warn that a value changes call after call)."""
    if value in seen or len(seen) >= n:
        return False
    seen.add(value)
    return len(seen) == n


def _tensor(box) -> str:
    dtype = str(box.get_dtype()).removeprefix("torch.")
    return f"{dtype}[{', '.join(str(s) for s in ir.size(box))}]"


def lowering(op: str, logits, target, weight, options: dict, strategy: str) -> None:
    """Shapes, dtype, device, options, strategy, and the pointwise producers of the logits
    that our loads inline (the prologue: a cast, a temperature, a user-written softcap)."""
    if not log.isEnabledFor(logging.INFO):
        return
    fused = ir.fused_producers(logits)
    opts = " ".join(f"{k}={v}" for k, v in options.items())
    log.info("%s lowered: logits %s on %s, target %s, weight %s; %s; strategy: %s; "
             "fused into the logits load: %s", op, _tensor(logits), ir.device_of(logits),
             _tensor(target), "none" if weight is None else _tensor(weight), opts, strategy,
             ", ".join(fused) if fused else "nothing (the logits are a buffer)")
