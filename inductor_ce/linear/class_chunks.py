"""The fused head by chunks of classes, for budgets too small for row chunks (``plan.py`` says
which): per block of rows, the statistics, then the gradient (the ops are ``head.py``'s).

Blocks of B rows: as many as half the budget holds of their float32 input gradient
(``plan.class_blocks``). The statistics of chunk c of C classes combine like the shards of
the vocabulary-parallel loss:

    z_c = h_B W_c^T + b_c;   (lse_nt_c, z_t_c, sum_wz_c) = ce_fwd(z_c, target's column in c)
    lse_nt = logaddexp_c lse_nt_c,   z_t = max_c z_t_c,   sum_wz = sum_c sum_wz_c

so they equal ``ce_fwd``'s of the whole row, and autograd of the finish hands the backward the
same (a, b, c). The gradient then sweeps the classes again, in one scratch buffer:

    z_c recomputed;  dz_c = ce_bwd(z_c, ...) in place;  dW_c = dz_c^T h_B;  db_c = sum dz_c
    dh_B += dz_c W_c    (float32, cuBLAS's float32 output: one rounding at the end)

4 GEMMs, for the fast op too (all in its forward), none of them narrow: a chunk has B rows and
C classes. dW_c is written once where the rows fit one block (without an input gradient a
block holds as many rows as a chunk of CLASSES_MIN classes fits in the budget) and
accumulates over the blocks otherwise.
A forward without gradient computes the statistics alone, a frozen input skips dh, a frozen
W the dW_c.
"""
from __future__ import annotations

import torch
from torch import Tensor

from ..eager import kernels as eager
from . import chunks
from .plan import CLASSES_MIN, Blocks, class_blocks, classes_words, grad_classes, log_plan

_CE_FWD = torch.ops.inductor_ce.ce_fwd.default


class ChunkTargets:
    """Each row's target column in each chunk of ``step`` classes (-1 where it is not in
    the chunk), made for GROUP chunks at a time: ``of(v0)`` is then a view (each a row of
    a table padded to 16 bytes: the compiled kernels' aligned loads), one launch per group
    of chunks where a column per chunk costs two (the chunk loops are host-bound where D is
    small); a group of a block's rows is at most 4096 x 64 x 4 bytes."""

    GROUP = 64

    def __init__(self, keep_t: Tensor, step: int, vocab: int):
        """``keep_t``: the target's index in this weight, -1 for ignored rows."""
        here = (keep_t >= 0) & (keep_t < vocab)
        self.chunk = torch.where(here, torch.div(keep_t, step, rounding_mode="floor"), -1)
        self.col = (keep_t - self.chunk * step).int()
        self.step, self.chunks = step, -(-vocab // step)
        self.first, self.table = 0, None

    def of(self, v0: int) -> Tensor:
        k = v0 // self.step
        if self.table is None or not self.first <= k < self.first + self.GROUP:
            self.first = k
            ks = torch.arange(k, min(self.chunks, k + self.GROUP), device=self.col.device)
            table = torch.where(self.chunk == ks.unsqueeze(1), self.col, -1)
            pad = -self.col.shape[0] % 4
            self.table = torch.nn.functional.pad(table, (0, pad), value=-1) if pad else table
        return self.table[k - self.first, :self.col.shape[0]]


class Scratch:
    """One buffer for a class chunking's chunks of logits and a block's float32 input
    gradient, in turns: a statistics chunk may take all of it; a gradient chunk its start
    and the float32 gradient its end (``grad_classes`` leaves the room). Each chunk is a
    view at offset 0 (the compiled kernels' aligned loads), the gradient 16-byte aligned."""

    def __init__(self, like: Tensor, nbytes: int):
        self.raw = torch.empty(-(-nbytes // 16) * 16 + 16, dtype=torch.uint8,
                               device=like.device)
        self.dtype, self.itemsize = like.dtype, like.element_size()

    @classmethod
    def for_block(cls, h: Tensor, rows: int, vocab: int, stats: int = 0, grad: int = 0,
                  input_grad: bool = False) -> "Scratch":
        """The scratch of blocks of ``rows`` rows: chunks of ``stats`` classes for the
        statistics' sweep, or of ``grad`` classes beside the float32 input gradient (if
        wanted) for the gradient's, whichever needs more."""
        size = h.element_size()
        grad_bytes = rows * (min(grad, vocab) * size + (4 * h.shape[1] if input_grad else 0))
        return cls(h, max(rows * min(stats, vocab) * size, grad_bytes if grad else 0))

    def logits(self, rows: int, cols: int) -> Tensor:
        return self.raw[:rows * cols * self.itemsize].view(self.dtype).view(rows, cols)

    def grad32(self, rows: int, hidden: int) -> Tensor:
        n = rows * hidden * 4
        start = (self.raw.numel() - n) // 16 * 16
        return self.raw[start:start + n].view(torch.float32).view(rows, hidden)


def block_statistics(h_b, weight, bias, keep_b, class_weight, softcap, smooth, classes,
                     scratch, out=None):
    """ce_fwd's statistics (lse_nt, z_t, sum_wz) of a block of rows, by chunks of
    ``classes`` classes (one GEMM each), combined over the chunks as shards combine (module
    doc); the chunks in ``scratch`` (a ``Scratch``); into ``out`` (three float32 vectors
    of the block's rows) if given."""
    rows, vocab = h_b.shape[0], weight.shape[0]
    lse_nt, z_t, sum_wz = out if out is not None else \
        [h_b.new_empty(rows, dtype=torch.float32) for _ in range(3)]
    lse_nt.fill_(float("-inf"))
    z_t.fill_(float("-inf"))
    sum_wz.zero_()
    targets = ChunkTargets(keep_b, classes, vocab)
    for v0 in range(0, vocab, classes):
        v1 = min(vocab, v0 + classes)
        z = chunks.logits(h_b, weight[v0:v1], None if bias is None else bias[v0:v1],
                          out=scratch.logits(rows, v1 - v0))
        cw = None if class_weight is None or not smooth else class_weight[v0:v1]
        local = targets.of(v0)
        if not eager.ce_fwd_into(z, local, cw, -1, softcap, smooth, (lse_nt, z_t, sum_wz)):
            eager.combine_statistics((lse_nt, z_t, sum_wz),
                                     _CE_FWD(z, local, cw, -1, softcap, smooth))
        del z    # (before the next chunk's: one chunk alive at a time)
    return lse_nt, z_t, sum_wz


def block_grads(h_b, weight, bias, keep_b, class_weight, lse_nt, a, b, c, softcap, classes,
                scratch, dh_b, dw, db, first):
    """A block's share of the gradients from ce_bwd's per-row coefficients, by chunks of
    ``classes`` classes in ``scratch`` (a ``Scratch``, shared by the blocks): each chunk's
    logits recomputed and turned into dz in place; dW_c = dz^T h_b (written by the
    ``first`` block, accumulated by the others), db_c += sum_rows dz; dh_b = sum_c dz W_c,
    accumulated in float32 over the chunks (in the scratch's end) and rounded once. None
    (dh_b, dw, db): not wanted."""
    rows, vocab = h_b.shape[0], weight.shape[0]
    dh32 = None if dh_b is None else scratch.grad32(rows, h_b.shape[1]).zero_()
    targets = ChunkTargets(keep_b, classes, vocab)
    # (A float32 dW of low-precision rows off CUDA: add_product's float32 operands, the
    # block's rows made once, not once per chunk.)
    h_dw = h_b.float() if dw is not None and dw.dtype != h_b.dtype and not h_b.is_cuda \
        else h_b
    for v0 in range(0, vocab, classes):
        v1 = min(vocab, v0 + classes)
        w_c = weight[v0:v1]
        z = scratch.logits(rows, v1 - v0)
        chunks.logits(h_b, w_c, None if bias is None else bias[v0:v1], out=z)
        cw = None if class_weight is None or c is None else class_weight[v0:v1]
        # V symbolic (columns=True): one compile for the chunk widths of every row count.
        eager.ce_bwd_(z, targets.of(v0), cw, lse_nt, a, b, c, -1, softcap, columns=True)
        if dw is not None:
            chunks.add_product(dw[v0:v1], z.t(), h_dw, first)
        if db is not None:
            db[v0:v1] += z.sum(0, dtype=torch.float32)
        if dh32 is not None:
            chunks.add_product(dh32, z, w_c)
    if dh_b is not None:
        dh_b.copy_(dh32)


def grads_by_classes(input, weight, bias, keep_t, class_weight, per_row, c, softcap, budget,
                     input_grad, weight_grad):
    """``linear_ce_bwd`` by class chunks: blocks of rows (all rows in one block where no
    input gradient is wanted and the budget holds CLASSES_MIN of their logits: dW then
    exact, written once), each swept by ``block_grads``."""
    h = chunks.flat(input)
    rows, vocab, hidden, size = h.shape[0], weight.shape[0], h.shape[1], h.element_size()
    if input_grad:
        block = class_blocks(hidden, vocab, size, budget).rows
    else:   # (a block's chunk is at least CLASSES_MIN classes wide: its rows within budget)
        block = max(1, min(rows, budget // (CLASSES_MIN * size) if budget > 0 else rows))
    classes = grad_classes(min(block, rows), hidden, vocab, size, budget, input_grad)
    log_plan("linear_ce_bwd", h, weight, lambda: classes_words(
        rows, Blocks(block, classes), vocab, "recomputed"))
    dh, dw, db = chunks.grad_outputs(input, weight, bias, input_grad, weight_grad)
    weight = chunks.operand(weight, h)
    cw = class_weight if c is not None else None
    scratch = Scratch.for_block(h, min(block, rows), vocab, grad=classes,
                                input_grad=input_grad)
    for r0 in range(0, rows, block):
        r = slice(r0, min(rows, r0 + block))
        block_grads(h[r], weight, bias, keep_t[r], cw, per_row[0][r], per_row[1][r],
                    per_row[2][r], None if c is None else c[r], softcap, classes, scratch,
                    dh.view(h.shape)[r] if input_grad else None,
                    dw if weight_grad else None, db if db.numel() else None, r0 == 0)
    if weight_grad and rows == 0:
        dw.zero_()
    return dh, dw, db
