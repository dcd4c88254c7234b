"""CUDA graphs of the eager loss's compiled functions at few rows, where the host sets the pace.

At a few rows a training step's kernels take far less GPU time than the host needs to
enqueue them (Inductor's wrapper code, four Triton launches from Python, a dozen
allocations, one ``autograd.Function``). Replayed from a CUDA graph, the same kernels (the
lowering's, compiled by ``kernels.py``) are one launch, which costs the host about what one
kernel launch does (measurements: docs/eager.md).

A graph bakes in the addresses it reads and writes. So graphs are kept per compiled function
(its dtypes, V, layout class and options) and per row count and addresses of a call's
tensors, and a call replays one only when all of them are the same. A training loop's caching
allocator hands out the same addresses step after step, so its calls replay: the first call
at given addresses runs the compiled function, the second captures a graph (and replays it),
later ones replay. What a function keeps is bounded: the graphs of ``MAX_GRAPHS`` keys (a
new one drops the oldest, after a device synchronization) and ``MAX_CAPTURES`` captures over
the process (then calls at new addresses run uncaptured: addresses that never repeat would
otherwise capture every other call); a warning says so, once, when either is first reached.
The keys called once (``seen``) are forgotten past ``4 * MAX_GRAPHS``, silently: that costs
a call whose key comes back one more uncaptured call, nothing else.

Outputs. What a graph allocates lives in its private memory pool and is overwritten by its
next replay, so a caller never gets it. Every output a replay hands out is written by the
graph into memory the caller owns, allocated by the caching allocator for this call, which
therefore nobody else holds (a tensor, a kept ``untyped_storage()``, work another stream
has queued on memory it ``record_stream``-ed: the allocator hands none of it out):
- a function of float32 or bool outputs (the loss's forward: the loss, per-row statistics,
  the accuracy) gets, per call, one fresh buffer (``torch.empty``), into which its graph
  copies the outputs; the replay hands out tensors on that buffer (not views of it: see
  ``_Packing.outputs``). The buffer's address is
  part of the graph's key: a training loop that holds the last step's loss while it
  computes the next one alternates between two addresses, so a key keeps up to ``SLOTS``
  such graphs. A call at a further address (a caller keeping every loss) replays the key's
  own graph, which writes into a buffer it never hands out, and copies that into the
  call's buffer (one more launch);
- a function that writes its result into an argument (the backward: the gradient, into a
  tensor the caller allocates) returns nothing from a replay; the argument is part of the key.

Options. The loss's forward may take, last, a small tensor of option values (label smoothing,
z-loss) that can change every call. It is not part of the key: each graph reads a buffer of
the function's own for its stream, into which a call whose options tensor is not the one last
copied there copies it before replaying (one small copy on the current stream, as the replay;
calls of constant options copy nothing).

Streams and threads. The current stream is part of a call's key: a graph (its memory pool,
its own buffer, its options buffer) is replayed on one stream only, where its replays, and
the copies into its buffers, run in order. (Shared by two streams, a replay still queued on a
busy one would read the options another stream's call copied since, or share intermediates
with a concurrent replay.) A call's bookkeeping, copy and replay hold the object's lock:
another thread's copy cannot land between them.

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
from .kernels import warn_bound

ENABLED = os.environ.get("INDUCTOR_CE_CUDA_GRAPHS", "1") != "0"
MAX_GRAPHS = 16
MAX_CAPTURES = 64
SLOTS = 2

_STREAMS: dict = {}          # device -> the side stream captures run on
_LOCK = threading.Lock()
_capturing = runtime.stream_capturing
_current_stream = runtime.current_raw_stream


class Replays:
    """``fn(*args)`` (tensors or None, the first (rows, V)), replayed from CUDA graphs where
    a call's row count and addresses were seen before (see the module's docstring).
    ``copies``: ``fn`` returns float32 or bool tensors, which a replay writes into a buffer
    of the call's own; otherwise ``fn`` writes into an argument and a replay returns None.
    ``options``: the last argument is an options tensor, not part of the key (see the
    module's docstring)."""

    def __init__(self, fn, copies: bool, options: bool = False):
        self.fn, self.copies, self.options = fn, copies, options
        self.device = None
        # stream -> [its graphs' options buffer, the options tensor last copied into it]
        self.options_buffers: dict = {}
        self.lock = threading.Lock()   # a call's bookkeeping, copy and replay, in one piece
        self.graphs: dict = {}     # (key, output buffer's address or None) -> _Graph; oldest first
        self.seen: dict = {}       # key -> its outputs' _Packing (copies) or None: called once
        self.slots: dict = {}      # key -> how many graphs at the call's buffer it has
        self.own: dict = {}        # key -> the buffer of its own graph (copies)
        self.captures = 0
        self.replayed = 0          # calls served by a replay (tests and benchmarks read it)

    def __call__(self, *args):
        with self.lock:
            return self._call(*args)

    def _call(self, *args):
        # (Which arguments are None is fixed per function: the key leaves them out.)
        # (The stream is part of the key: see "Streams and threads" above.)
        keyed = args[:-1] if self.options else args
        stream = _current_stream(args[0].device.index)
        key = (*[a.data_ptr() for a in keyed if a is not None], stream, args[0].shape[0])
        if key not in self.seen:   # the first call at these addresses runs as it is
            if len(self.seen) >= 4 * MAX_GRAPHS:
                self.seen.clear()
            outs = self.fn(*args)
            self.seen[key] = _Packing.of(outs) if self.copies else None
            return outs
        packing = self.seen[key]
        flat = None if packing is None else packing.empty(args[0].device)
        at = (key, None if flat is None else flat.data_ptr())
        graph, own = self.graphs.get(at), None
        if graph is None and flat is not None and self.slots.get(key, 0) >= SLOTS:
            # Every slot is at another address (the caller keeps the outputs the others
            # handed out): the key's own graph writes into a buffer it never hands out,
            # which the call copies into its own.
            at = (key, "own")
            graph, own = self.graphs.get(at), self.own.get(key)
        if graph is None:
            if self.captures >= MAX_CAPTURES or _capturing():
                if self.captures == MAX_CAPTURES:
                    warn_bound(f"the budget of CUDA-graph captures of an eager loss's "
                               f"function (graphs.MAX_CAPTURES, {MAX_CAPTURES})", "its calls "
                               "come at tensor addresses or row counts new call after call; "
                               "calls at new ones run without CUDA graphs")
                return self.fn(*args)
            with _LOCK:
                self.captures += 1
                try:
                    if at[1] == "own":
                        own = packing.empty(args[0].device)
                    self.device = args[0].device
                    if self.options and stream not in self.options_buffers:
                        # (Made outside inference mode, also for a call under
                        # torch.inference_mode(): a later call outside it copies into it.)
                        with torch.inference_mode(False):
                            self.options_buffers[stream] = [torch.empty_like(args[-1]), None]
                    recorded = (*keyed, self.options_buffers[stream][0]) if self.options \
                        else args
                    graph = self._record(recorded, flat if own is None else own, packing)
                except Exception as e:  # whatever failed: this function runs uncaptured now
                    self.captures = MAX_CAPTURES + 1    # (beyond the budget: no warning of it)
                    warnings.warn(f"inductor_ce: capturing a CUDA graph of the eager loss "
                                  f"failed ({type(e).__name__}: {str(e)[:300]}); it runs "
                                  "without CUDA graphs", RuntimeWarning, stacklevel=3)
                    return self.fn(*args)
                if len(self.graphs) >= MAX_GRAPHS * (SLOTS + 1 if self.copies else 1):
                    warn_bound(f"the cache of CUDA graphs of an eager loss's function "
                               f"(graphs.MAX_GRAPHS, {MAX_GRAPHS} keys)", "its calls come at "
                               "tensor addresses or row counts new call after call; each new "
                               "one drops the oldest graph, after a device synchronization")
                    self._drop(next(iter(self.graphs)), args[0].device)
                self.graphs[at] = graph
                if own is None:
                    self.slots[key] = self.slots.get(key, 0) + 1
                else:
                    self.own[key] = own
        elif _capturing():
            return self.fn(*args)
        if self.options:
            buffer = self.options_buffers[stream]
            if args[-1] is not buffer[1]:
                buffer[0].copy_(args[-1])
                buffer[1] = args[-1]
        graph.replay()
        self.replayed += 1
        if flat is None:
            return None
        if own is not None:
            flat.copy_(own)
        return packing.outputs(flat)

    def release(self) -> None:
        """Drops every graph (after a device synchronization: none may be in flight when its
        memory goes back) and captures no more: what the function still runs, it runs
        uncaptured, so that this object may be freed at any time."""
        with _LOCK:
            self.captures = MAX_CAPTURES + 1
            if self.graphs:
                torch.cuda.synchronize(self.device)
            self.graphs.clear()
            self.seen.clear()
            self.slots.clear()
            self.own.clear()

    def _drop(self, at, device) -> None:
        # A replay of that graph may still be in flight, on any stream: its pool goes back
        # to the allocator only once the device is done with it.
        torch.cuda.synchronize(device)
        self._forget(at)

    def _forget(self, at) -> None:
        del self.graphs[at]
        key = at[0]
        if at[1] == "own":
            del self.own[key]
            return
        self.slots[key] -= 1
        if not self.slots[key]:    # the key starts over: its next call runs as a first one
            del self.slots[key]
            self.seen.pop(key, None)

    def _record(self, args, flat, packing) -> torch.cuda.CUDAGraph:
        """A graph of ``fn(*args)`` (its outputs copied into ``flat`` where ``copies``),
        captured, not run (the caller replays it)."""
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
                if flat is not None:
                    packing.copy_into(flat, outs)
            finally:
                graph.capture_end()
        current.wait_stream(side)
        return graph


class _Packing:
    """Where a function's outputs (float32, or bool: the accuracy) sit in one float32
    buffer: each at a 16-byte aligned offset (as Inductor assumes of its inputs), contiguous,
    a bool one in a byte view of the buffer; ``size`` float32 elements in all."""

    __slots__ = ("size", "layout")

    def __init__(self, size: int, layout: tuple):
        self.size, self.layout = size, layout

    @classmethod
    def of(cls, outs) -> "_Packing":
        layout, offset = [], 0          # (offset in bytes)
        for o in outs:
            if o.dtype not in (torch.float32, torch.bool):
                raise TypeError(f"a copied output must be float32 or bool, got {o.dtype}")
            stride, step = [], 1
            for n in reversed(o.shape):
                stride.insert(0, step)
                step *= n
            item = o.element_size()
            layout.append((o.dtype, tuple(o.shape), tuple(stride), offset // item))
            offset += -(-o.numel() * item // 16) * 16
        return cls(offset // 4, tuple(layout))

    def empty(self, device) -> torch.Tensor:
        return torch.empty(self.size, dtype=torch.float32, device=device)

    def copy_into(self, flat, outs) -> None:
        for o, out in zip(outs, self.outputs(flat)):
            out.copy_(o)

    def outputs(self, flat) -> tuple:
        """The outputs in ``flat``: tensors on its storage, not views of it. (The loss's
        ``autograd.Function`` hands them out, and autograd refuses an in-place change of a
        view made in a Function's forward: a caller's ``loss /= accumulation_steps`` raised.)"""
        storage, device = flat.untyped_storage(), flat.device
        return tuple([torch.empty(0, dtype=dtype, device=device).set_(storage, at, shape, stride)
                      for dtype, shape, stride, at in self.layout])
