"""The salt of every cache key we add to Inductor's: a hash of the package's version and
sources.

Inductor's FX-graph and AOTAutograd caches key a compiled graph on the graph, torch's sources
and the config, not on our code: after a change to the lowering, a formula of a custom op's
autograd or the routing, a cached graph would run the old code. Every file of the package is
hashed (rather than a hand-kept list of modules that matter): a file that does not affect
the generated code costs at most a recompile after an upgrade. Imports nothing of ours.
"""
from __future__ import annotations

import functools
import hashlib
import os

ROOT = os.path.dirname(os.path.abspath(__file__))


def files() -> list:
    """The package's source files, relative to its folder, in a fixed order."""
    out = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        out += [os.path.relpath(os.path.join(folder, n), ROOT) for n in sorted(names)
                if n.endswith(".py")]
    return out


@functools.lru_cache(maxsize=None)
def source_salt() -> str:
    """16 hex digits of sha256 over the version and every source file (path and bytes)."""
    from ._version import __version__
    digest = hashlib.sha256(__version__.encode())
    for rel in files():
        with open(os.path.join(ROOT, rel), "rb") as f:
            digest.update(rel.encode() + b"\0" + f.read())
    return digest.hexdigest()[:16]
