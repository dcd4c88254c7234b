"""Graphs as Inductor hands them out, freshly compiled or loaded from its caches: which of our
ops they call. A cache hit skips every graph pass (routing among them), so this is the one
place where a loaded graph can be seen.

Inductor calls ``CompiledFxGraph.post_compile`` on every forward and backward graph it hands
to AOTAutograd, on a miss and on a hit; the graph keeps its post-grad graph's text
(``inductor_post_grad_graph_str``, part of its cache entry), where our ops appear as
``torch.ops.inductor_ce.<op>``. ``on_graph`` wraps that method once. Our own compiles (the
eager kernels, ``standalone.py``) run ``unobserved()``: no graph of the user's.
"""
from __future__ import annotations

import contextlib
import functools
import re
import threading
from collections import Counter
from typing import Callable

_OP = re.compile(r"torch\.ops\.inductor_ce\.(\w+)")
_observers: list[Callable[[Counter], None]] = []
_own = threading.local()   # .depth: how many of our own compiles this thread is inside


@contextlib.contextmanager
def unobserved():
    """Graphs compiled inside (in this thread) are not reported."""
    _own.depth = getattr(_own, "depth", 0) + 1
    try:
        yield
    finally:
        _own.depth -= 1


def on_graph(observer: Callable[[Counter], None]) -> None:
    """Call ``observer(Counter of our op names)`` for every forward graph Inductor hands out,
    an empty Counter for one that calls none of our ops (idempotent per observer)."""
    if observer not in _observers:
        _observers.append(observer)
    try:
        from torch._inductor.output_code import CompiledFxGraph
    except ImportError:   # pragma: no cover - depends on the torch build
        return
    original = CompiledFxGraph.post_compile
    if getattr(original, "_inductor_ce", False):
        return

    @functools.wraps(original)
    def post_compile(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        try:
            _report(self)
        except Exception:   # observing must never break a compile
            pass
        return result

    post_compile._inductor_ce = True
    CompiledFxGraph.post_compile = post_compile


def _report(graph) -> None:
    if (getattr(graph, "fx_kwargs", None) or {}).get("is_backward") or \
            getattr(_own, "depth", 0):
        return   # (one report per compiled graph of the user's: its forward)
    ops = Counter(_OP.findall(getattr(graph, "inductor_post_grad_graph_str", "") or ""))
    for observer in list(_observers):
        observer(ops)
