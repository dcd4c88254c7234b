"""Inductor's caches: our salt in the FX-graph cache key, cacheable routed graphs."""
from __future__ import annotations

import contextlib

from torch._inductor import config as inductor_config
from torch._inductor.custom_graph_pass import CustomGraphPass

from .passes import patch_inductor_config


# Inductor's FX graph cache keys a compiled graph on the graph, torch's own sources and the
# config, not on our lowering: after a change to it, a cached graph would run stale kernels.
# A post-grad custom pass whose uuid() is a hash of our sources salts the key. The slot
# holds the user's pass too: ours wraps whatever is there and calls it first, and a plain
# callable there (no uuid) still makes Inductor bypass the cache, as it would without us.

class SaltPass(CustomGraphPass):
    """``salt``: our sources (the same for every graph); ``variant``: what else decides the
    code of one of our own compiles that its graph does not show (the eager path's few-rows
    variant lowers the same graph differently)."""

    def __init__(self, salt: str, inner=None, variant: str = ""):
        self.salt, self.inner, self.variant = salt, inner, variant

    def _inners(self):
        if self.inner is None:
            return ()
        return tuple(self.inner) if isinstance(self.inner, (list, tuple)) else (self.inner,)

    def __call__(self, graph) -> None:
        for p in self._inners():
            p(graph)

    def uuid(self):
        inner = []
        for p in self._inners():
            if not isinstance(p, CustomGraphPass) or not p.uuid():
                return None  # uncacheable user pass: keep Inductor's bypass
            inner.append(p.uuid())
        return ("inductor_ce", self.salt, self.variant, *inner)


def ensure_salt(salt: str) -> None:
    """Make sure Inductor's post-grad custom pass slot carries our salt (idempotent; wraps
    a pass the user installed, also one installed after import). A variant already there
    (one of the eager path's compiles) is kept."""
    current = inductor_config.post_grad_custom_post_pass
    if isinstance(current, SaltPass):
        current.salt = salt
        return
    inductor_config.post_grad_custom_post_pass = SaltPass(salt, current)


def mark_cacheable(function, key) -> None:
    """Let AOTAutograd's cache take graphs that call ``function`` (a Python function, which
    it otherwise refuses), keyed by ``key``; ``key=None`` withdraws it. Needed where the
    pre-grad pass runs before that cache's lookup (torch 2.11; 2.13 looks up first)."""
    table = getattr(inductor_config, "unsafe_marked_cacheable_functions", None)
    if table is None:
        return
    name = f"{function.__module__}.{function.__name__}"
    table = {k: v for k, v in table.items() if k != name}
    inductor_config.unsafe_marked_cacheable_functions = \
        table if key is None else {**table, name: key}


@contextlib.contextmanager
def no_compile_caches():
    """Inductor's FX graph cache and AOTAutograd's cache off: every compile runs the passes
    and the code generator (a hit would skip both)."""
    import torch._functorch.config as functorch_config
    with patch_inductor_config(fx_graph_cache=False), \
            functorch_config.patch(enable_autograd_cache=False):
        yield
