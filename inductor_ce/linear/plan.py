"""The fused head's plan: how it cuts the (rows, V) logits within a memory budget (row
chunks or class chunks, and how many rows or classes each), from V, D, the dtype and the
budget alone (never the row count: under torch.compile no guard on it), and the DEBUG line
that says what a call runs. The measurements behind each constant:
docs/linear.md#the-memory-budget; the algorithms that run the plan: ``head.py`` (rows) and
``class_chunks.py``.
"""
from __future__ import annotations

import logging
import warnings
from typing import NamedTuple, Optional

import torch
from torch import Tensor

from .._log import log
from ..op.checks import MAX_BUDGET, check_deprecated
from . import chunks

# The default chunk of rows: D rows of logits (as large as W), kept within [2^28, 2^29]
# logits (512 MiB to 1 GiB of bf16): see fast_chunk_rows.
FAST_CHUNK_ELEMENTS = 1 << 29
FAST_MIN_CHUNK_ELEMENTS = 1 << 28
MIN_CHUNK = 256
# Row chunks are a multiple of this many rows (of float32 statistics: 16 bytes).
ALIGN_ROWS = 4
# A budget of fewer rows of logits than this chunks by classes where D >= CLASSES_MIN_HIDDEN,
# and of fewer than min(ROWS_MIN, ROWS_MIN_NARROW) where D is smaller: each row chunk after
# the first reads and writes dW once more (a share of its three GEMMs' time that goes as
# 1 / R at R rows: the GPU's FLOP rate over its bandwidth), and its GEMMs get narrow; class
# chunks pay a fourth GEMM and the host time of their chunks, which binds where D is small
# (docs/linear.md#the-memory-budget).
ROWS_MIN = 256
ROWS_MIN_NARROW = 64
CLASSES_MIN_HIDDEN = 2048
# Where D x budget >= CLASSES_MIN_WORK (and D >= CLASSES_MIN_HIDDEN) the thresholds rise:
# - a scalar loss chunks by classes below ROWS_MIN_SCALAR rows of logits, where they
#   measured faster than row chunks (and slower above it);
# - a per-row call (its gradient in the backward: 4 GEMMs either way) below ROWS_MIN_PER_ROW:
#   its row chunks' only gain is the kept last chunk, and each reads and writes dW once more,
#   where a block of class chunks holds budget / (8 D) rows, more than a bf16 row chunk's
#   budget / (2 V) wherever V > 4 D.
# Below that product the class chunks' GEMMs are short and their launches set the pace (a
# call's chunk count over its GEMM time goes as 1 / (D x budget), three times that of row
# chunks). docs/linear.md#the-memory-budget has the measurements.
ROWS_MIN_SCALAR = 300
ROWS_MIN_PER_ROW = 768
CLASSES_MIN_WORK = 1 << 37     # (D = 2048 and 64 MiB, D = 8192 and 16 MiB)
# The smallest chunk of classes (a budget too small for it is exceeded: each chunk is a
# block's rows x CLASSES_MIN logits), and the bounds of a block of rows (its float32 input
# gradient takes half the budget). Why a largest block: the statistics' chunks are sized for
# a whole block whatever the row count (their widths are compiles), so a call of fewer rows
# runs narrower chunks than its budget allows; each block after the first reads and writes
# dW once more.
CLASSES_MIN = 64
BLOCK_ROWS_MIN = 16
BLOCK_ROWS_MAX = 4096
# The memory_budget a lean call can start from: 64 MiB of chunk scratch
# (docs/linear.md#the-memory-budget).
LEAN_BUDGET = 64 << 20


def fast_chunk_rows(rows: int, vocab: int, hidden: int) -> int:
    """Rows per chunk without a budget: D (a chunk of logits as large as W, so the step's peak
    stays within twice the unavoidable gradients dh + dW), kept within [2^28, 2^29] logits,
    then evened out over the chunks (no small ragged last one). Why not larger: each chunk
    adds its size to the peak. Why not smaller: each chunk also costs a read and write of dW
    and the host time of its kernels (docs/linear.md#the-memory-budget)."""
    if rows == 0:
        return MIN_CHUNK
    vocab = max(vocab, 1)
    r = min(max(hidden, FAST_MIN_CHUNK_ELEMENTS // vocab), FAST_CHUNK_ELEMENTS // vocab)
    return evened(rows, max(MIN_CHUNK, r))


def lean_chunk_rows(vocab: int, hidden: int) -> int:
    """Rows per chunk where the loss's peak adds to an eager model's (the transformers
    integration's eager default): D / 2 rows (a chunk of logits half as large as W), kept
    within [2^27, 2^28] logits, rounded down to a multiple of 256. In transformers models it
    brings the eager step's peak near Liger's eager patch's for a few percent of step time
    (docs/transformers.md)."""
    vocab = max(vocab, 1)
    r = min(max(hidden // 2, (1 << 27) // vocab), (1 << 28) // vocab)
    return max(MIN_CHUNK, r // MIN_CHUNK * MIN_CHUNK)


def evened(rows: int, r: int) -> int:
    """At most ``r`` rows per chunk, as few chunks as that allows, the same rows in every
    chunk but the last, which is not much smaller; a multiple of ALIGN_ROWS where that
    takes no more chunks (each chunk's slices of the per-row tensors then start 16-byte
    aligned, as the compiled kernels want their inputs: Inductor copies a misaligned one
    first, a launch per input and chunk)."""
    r = max(1, min(rows, r))
    n = -(-rows // r)
    step = -(-rows // n)
    aligned = -(-step // ALIGN_ROWS) * ALIGN_ROWS
    return aligned if n > 1 and aligned <= r else step


def by_classes(vocab: int, hidden: int, itemsize: int, budget: int,
               per_row: bool = False) -> bool:
    """Whether a budget (0: the default) chunks by classes: fewer rows of logits fit in it
    than ``rows_least``. From V, D, the dtype and the budget only: no guard on the row
    count."""
    least = rows_least(hidden, budget, per_row)
    return budget > 0 and budget // (max(vocab, 1) * itemsize) < least


def rows_least(hidden: int, budget: int, per_row: bool = False) -> int:
    """The fewest rows of logits a row chunk may have (the constants above say why)."""
    if hidden < CLASSES_MIN_HIDDEN:
        return min(ROWS_MIN, ROWS_MIN_NARROW)
    if hidden * budget < CLASSES_MIN_WORK:
        return ROWS_MIN
    return ROWS_MIN_PER_ROW if per_row else ROWS_MIN_SCALAR


def chunk_rows(rows: int, vocab: int, hidden: int, itemsize: int, budget: int) -> int:
    """Rows per row chunk: ``fast_chunk_rows`` without a budget, else as many rows of logits
    as the budget holds, evened out."""
    if not budget:
        return fast_chunk_rows(rows, vocab, hidden)
    return evened(rows, budget // (max(vocab, 1) * itemsize)) if rows else MIN_CHUNK


class Blocks(NamedTuple):
    """How the class chunking cuts the logits (all from the budget, none from the rows)."""
    rows: int       # rows per block: its float32 input gradient takes half the budget
    classes: int    # classes per chunk of the statistics' sweep (rows x classes logits)


def _width(classes: int, vocab: int) -> int:
    """A chunk's classes: a multiple of 64, at least CLASSES_MIN, at most V."""
    return min(vocab, max(CLASSES_MIN, classes // 64 * 64))


def class_blocks(hidden: int, vocab: int, itemsize: int, budget: int) -> Blocks:
    """The class chunking's blocks of rows within ``budget`` bytes: as many rows as half the
    budget holds of their float32 (rows, D) input gradient, and fewer where the rest would
    not hold CLASSES_MIN of their logits (a multiple of BLOCK_ROWS_MIN, at least that, at
    most BLOCK_ROWS_MAX); and
    the statistics' chunk of classes that fills the budget at that many rows. Neither
    depends on the row count (each width is a compile of ce_fwd, V static)."""
    row = 4 * max(1, hidden)     # (bytes of a row's float32 input gradient)
    rows = min(BLOCK_ROWS_MAX, budget // 2 // row, budget // (row + CLASSES_MIN * itemsize))
    rows = max(BLOCK_ROWS_MIN, rows // BLOCK_ROWS_MIN * BLOCK_ROWS_MIN)
    return Blocks(rows, _width(budget // (rows * itemsize), vocab))


def grad_classes(rows: int, hidden: int, vocab: int, itemsize: int, budget: int,
                 input_grad: bool) -> int:
    """Classes per chunk of the gradient's sweep over a block of ``rows`` rows: what the
    budget holds beside the block's float32 input gradient (if wanted). V symbolic in its
    ce_bwd (one compile for every width)."""
    left = budget - (4 * rows * hidden if input_grad else 0)
    return _width(max(0, left) // (max(1, rows) * itemsize), vocab)


def deprecated_budget(memory_budget, policy, chunk_size, weight: Tensor,
                      input: Optional[Tensor] = None):
    """The memory_budget that the deprecated ``policy`` / ``chunk_size`` stand for (a
    FutureWarning, but under torch.compile: Dynamo would break the graph on it):
    ``chunk_size`` rows of logits of ``input`` (as the ops make them, under autocast in its
    dtype; without an input, of the weight's dtype), at most the largest budget."""
    check_deprecated(memory_budget, policy, chunk_size)
    if not torch.compiler.is_compiling():
        warnings.warn("linear_cross_entropy's policy and chunk_size are deprecated: pass "
                      "memory_budget (policy='compact' is memory_budget=inductor_ce.linear."
                      "LEAN_BUDGET; chunk_size=R is memory_budget=R * V * "
                      "input.element_size())", FutureWarning, stacklevel=3)
    if chunk_size is not None:
        size = weight.element_size() if input is None else chunks.logits_element_size(input)
        return min(chunk_size * weight.shape[0] * size, MAX_BUDGET)
    return LEAN_BUDGET if policy == "compact" else None


_LOGGED: set = set()      # the (op, shapes, dtype, chunking) already logged
_MAX_LOGGED = 1024        # (then forgotten: a signature may be logged again)


def log_plan(op: str, h: Tensor, weight: Tensor, describe) -> None:
    """One DEBUG line the first time a fused head runs with this op, shape signature and
    chunking (``TORCH_LOGS=+inductor_ce``): ``describe``, a function giving the chunking's
    words, called only when the line is written."""
    if not log.isEnabledFor(logging.DEBUG):
        return
    words = describe()
    key = (op, tuple(h.shape), tuple(weight.shape), h.dtype, h.device.type, words)
    if key in _LOGGED:
        return
    if len(_LOGGED) >= _MAX_LOGGED:
        _LOGGED.clear()
    _LOGGED.add(key)
    log.debug("linear_cross_entropy: %s, %d rows, D %d, V %d, %s on %s; %s", op, h.shape[0],
              h.shape[1], weight.shape[0], str(h.dtype).removeprefix("torch."), h.device, words)


def rows_words(rows: int, step: int, vocab: int, what: str) -> str:
    return f"{-(-rows // step)} chunk(s) of at most {min(step, rows)} rows x {vocab} logits, {what}"


def classes_words(rows: int, blocks: Blocks, vocab: int, what: str) -> str:
    return (f"blocks of {min(blocks.rows, rows)} rows, chunks of {blocks.classes} of {vocab} "
            f"classes, {what}")
