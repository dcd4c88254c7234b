"""CUDA graphs of the eager loss's compiled functions at few rows, where the host sets the pace.

At 256 x 128256 (bf16, one H200) a training step's kernels take 0.06 ms of GPU time, and the
host 0.3-0.7 ms to enqueue them: Inductor's wrapper code, four Triton launches from Python, a
dozen allocations, around one ``autograd.Function`` (benchmarks/NOTES.md, runs 37 and 51).
Replayed from a CUDA graph, the same kernels (the lowering's, compiled by ``eager.py``) are one
launch: 0.410 ms per step against 0.634 in one process on that host (bf16 F.cross_entropy:
0.190; a replay costs the host about what one launch does, 15 us there; NOTES run 51).

A graph bakes in the addresses it reads and writes. So graphs are kept per compiled function
(its dtypes, V, layout class and options) and per row count and addresses of a call's
tensors, and a call replays one only when all of them are the same. A training loop's caching
allocator hands out the same addresses step after step, so its calls replay: the first call
at given addresses runs the compiled function, the second captures a graph (and replays it),
later ones replay. What a function keeps is bounded: the graphs of ``MAX_GRAPHS`` keys (a
new one drops the oldest) and ``MAX_CAPTURES`` captures over the process (then calls at new
addresses run uncaptured: addresses that never repeat would otherwise capture every other
call).

Outputs. What a graph allocates lives in its private memory pool and is overwritten by its
next replay, so a caller never gets it:
- a function of float32 outputs (the loss's forward: the loss and per-row statistics) has
  them copied, inside the graph, into one buffer of its own, and a replay hands out views of
  that buffer. Before a replay overwrites a buffer, nothing but its graph may hold it (its
  storage's use count): a training loop holds the last step's loss while it computes the
  next one, so a key keeps up to ``SLOTS`` such graphs and replays one whose buffer is free.
  When every one is held (a caller keeping its losses), one more graph's buffer stays
  private and its replays return fresh copies of it (an allocation and a copy: 11 us of
  host time alone on the H200's, a third of the loss's forward in a step, NOTES run 53);
- a function that writes its result into an argument (the backward: the gradient, into a
  tensor the caller allocates) returns nothing from a replay; the argument is part of the key.

Not replayed (the compiled function runs as it is): a call while the caller captures a CUDA
graph of its own (theirs records our kernels), and every call of a function whose capture
failed (a warning, once). ``INDUCTOR_CE_CUDA_GRAPHS=0`` turns graphs off.
"""
from __future__ import annotations

import os
import threading
import warnings

import torch

from .._inductor import runtime

ENABLED = os.environ.get("INDUCTOR_CE_CUDA_GRAPHS", "1") != "0"
MAX_GRAPHS = 16
MAX_CAPTURES = 64
SLOTS = 2

_STREAMS: dict = {}          # device -> the side stream captures run on
_LOCK = threading.Lock()
_capturing = runtime.stream_capturing
_use_count = runtime.storage_use_count       # of a StorageImpl, by its address
_HELD = object()                             # a replay's answer when every buffer is held


class Replays:
    """``fn(*args)`` (tensors or None, the first (rows, V)), replayed from CUDA graphs where
    a call's row count and addresses were seen before (see the module's docstring).
    ``copies``: ``fn`` returns float32 tensors, which a replay hands out in a buffer nobody
    else holds; otherwise ``fn`` writes into an argument and a replay returns None."""

    def __init__(self, fn, copies: bool):
        self.fn, self.copies = fn, copies
        self.graphs: dict = {}     # key -> _Graph, or (copies) _Slots; oldest first
        self.seen: dict = {}       # keys called once, not captured yet
        self.captures = 0
        self.replayed = 0          # calls served by a replay (tests and benchmarks read it)

    def __call__(self, *args):
        # (Which arguments are None is fixed per function: the key leaves them out.)
        key = (*[a.data_ptr() for a in args if a is not None], args[0].shape[0])
        graph = self.graphs.get(key)
        if graph is not None and not _capturing():
            out = graph.replay()
            if out is not _HELD:
                self.replayed += 1
                return out
        if graph is None and key not in self.seen:
            if len(self.seen) >= 4 * MAX_GRAPHS:
                self.seen.clear()
            self.seen[key] = True
            return self.fn(*args)
        if self.captures >= MAX_CAPTURES or _capturing():
            return self.fn(*args)
        self.seen.pop(key, None)
        with _LOCK:
            self.captures += 1
            try:
                new = self._record(args, private=graph is not None
                                   and len(graph.slots) >= SLOTS)
            except Exception as e:  # whatever failed: this function runs uncaptured from now on
                self.captures = MAX_CAPTURES
                warnings.warn(f"inductor_ce: capturing a CUDA graph of the eager loss failed "
                              f"({type(e).__name__}: {str(e)[:300]}); it runs without CUDA "
                              "graphs", RuntimeWarning, stacklevel=3)
                return self.fn(*args)
            if graph is None:
                if len(self.graphs) >= MAX_GRAPHS:
                    self._drop(next(iter(self.graphs)), args[0].device)
                graph = self.graphs[key] = _Slots() if self.copies else new
            if self.copies:
                graph.add(new)
        self.replayed += 1
        return new.replay()

    def _drop(self, key, device) -> None:
        # A replay of that graph may still be in flight, on any stream: its pool goes back
        # to the allocator only once the device is done with it.
        torch.cuda.synchronize(device)
        del self.graphs[key]

    def _record(self, args, private: bool = False) -> "_Graph":
        """A graph of ``fn(*args)``, captured, not run (the caller replays it); ``private``:
        its outputs' buffer is never handed out (its replays return copies)."""
        device = args[0].device
        current = torch.cuda.current_stream(device)
        side = _STREAMS.get(device)
        if side is None:
            side = _STREAMS[device] = torch.cuda.Stream(device)
        side.wait_stream(current)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.stream(side):
            # thread_local: CUDA work of other threads (a data loader's copies) during the
            # capture is neither recorded nor an error.
            graph.capture_begin(capture_error_mode="thread_local")
            try:
                outs = self.fn(*args)
                flat, views = _packed(outs) if self.copies else (None, None)
            finally:
                graph.capture_end()
        current.wait_stream(side)
        return _Graph(graph, flat, views, private)


class _Slots:
    """The graphs of a function of copied outputs at one key: ``slots`` hand out their
    buffers, ``private`` (made once every slot was found held) copies its own."""

    __slots__ = ("slots", "private")

    def __init__(self):
        self.slots, self.private = [], None

    def add(self, graph: "_Graph") -> None:
        if graph.private:
            self.private = graph
        else:
            self.slots.append(graph)

    def replay(self):
        for graph in self.slots:
            if _use_count(graph.storage) <= graph.unheld:
                return graph.replay()
        return _HELD if self.private is None else self.private.replay()


def _packed(outs):
    """One float32 buffer holding copies of ``outs`` (each at a 16-byte aligned offset, as
    Inductor assumes of its inputs), and each one's (shape, stride, offset) in it."""
    views, offset = [], 0
    for o in outs:
        if o.dtype != torch.float32:
            raise TypeError(f"a copied output must be float32, got {o.dtype}")
        stride, step = [], 1
        for n in reversed(o.shape):
            stride.insert(0, step)
            step *= n
        views.append((tuple(o.shape), tuple(stride), offset))
        offset += -(-o.numel() // 4) * 4
    flat = torch.empty(offset, dtype=torch.float32, device=outs[0].device)
    for o, (shape, stride, at) in zip(outs, views):
        flat.as_strided(shape, stride, at).copy_(o)
    return flat, tuple(views)


class _Graph:
    """A captured graph; with copied outputs, their buffer ``flat`` and its views. A buffer
    handed out is free again when its storage's use count is back to ``unheld``, what it
    is with only this object holding it (the count includes references of the storage's
    Python object, once made). A tensor holds it, whatever view of it, saved or not; a caller
    keeping only an output's ``untyped_storage()`` object does not, nor does work another
    stream still has queued on an output already dropped (``record_stream`` tells the
    allocator, not this count)."""

    __slots__ = ("graph", "flat", "views", "private", "storage", "unheld")

    def __init__(self, graph, flat, views, private=False):
        self.graph, self.flat, self.views, self.private = graph, flat, views, private
        if flat is not None:
            self.storage = runtime.storage_handle(flat)
            self.unheld = _use_count(self.storage)

    def replay(self):
        self.graph.replay()
        if self.flat is None:
            return None
        flat = self.flat.clone() if self.private else self.flat
        return tuple([flat.as_strided(shape, stride, at) for shape, stride, at in self.views])
