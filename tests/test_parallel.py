"""Vocabulary-parallel cross-entropy (inductor_ce.parallel) against single-process float64.

Each test group launches 2 or 4 gloo processes (this file run as a script, see ``_launch``);
every rank builds the same full logits from a seed, runs the parallel loss on its shard, and
checks the loss, lse and its shard's gradient against a float64 reference of the full logits.
Every case of a group runs in one launch; the ranks report per-case results back to pytest.

CUDA: ``INDUCTOR_CE_TEST_CUDA=1`` (and a visible GPU) runs the same checks on CUDA tensors,
still over gloo; ranks share GPUs round-robin.

Tolerances: "1e-5 relative". The loss and lse are compared elementwise. The margin-grid
gradients are compared elementwise too (they have no cancellation; entries below float32's
normal range, 1.2e-38, cannot carry a relative error and get that absolute floor). The other
gradients are compared to 1e-5 of their largest entry: label smoothing (p_j - eps/V w_j) and
softcap (1 - tanh^2 of a saturated logit) lose relative precision to cancellation in float32
in any implementation, while staying accurate at the gradient's scale. bfloat16 gradients
are rounded to bfloat16 (relative 2^-9), so get rtol 2^-8.
"""
from __future__ import annotations

import functools
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from datetime import timedelta

import pytest
import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CUDA = os.environ.get("INDUCTOR_CE_TEST_CUDA") == "1" and torch.cuda.is_available()
MARGINS = (0.0, 10.0, 20.0, 30.0, 50.0, 80.0)
TINY = torch.finfo(torch.float32).tiny


# ----------------------------------------------------------------------------- reference

def reference(x, target, weight=None, ignore_index=-100, reduction="mean",
              label_smoothing=0.0, z_loss=0.0, softcap=None):
    """Float64 (loss, lse), written independently of inductor_ce. The NLL is
    softplus(logsumexp_{j != t} z_j - z_t): lse - z_t collapses to 0 in float64 too once the
    target leads by ~37, so F.cross_entropy cannot be the reference on the margin grid."""
    z = x.double()
    if softcap is not None:
        z = softcap * torch.tanh(z / softcap)
    v = z.shape[-1]
    z, t = z.reshape(-1, v), target.reshape(-1).long()
    keep = t != ignore_index
    w = torch.ones(v, dtype=torch.float64) if weight is None else weight.double()
    w = w.to(z.device)
    zk, tk = z[keep], t[keep]  # the loss of kept rows only: ignored rows get exactly 0
    z_t = zk.gather(1, tk[:, None])[:, 0]
    lse_nt = torch.logsumexp(zk.masked_fill(F.one_hot(tk, v).bool(), float("-inf")), 1)
    w_t = w[tk]
    row = (1 - label_smoothing) * w_t * F.softplus(lse_nt - z_t)
    if label_smoothing:
        row = row - label_smoothing / v * (w * torch.log_softmax(zk, 1)).sum(1)
    if z_loss:
        row = row + z_loss * w_t * torch.logsumexp(zk, 1) ** 2
    loss = z.new_zeros(t.shape).index_put((keep.nonzero()[:, 0],), row)
    lse = torch.logsumexp(z, 1).reshape(target.shape)
    if reduction == "none":
        return loss.reshape(target.shape), lse
    return (loss.sum() if reduction == "sum" else loss.sum() / w_t.sum()), lse


def close(got, ref, what, rtol=1e-5, atol=0.0):
    torch.testing.assert_close(got.double(), ref.double(), rtol=rtol, atol=atol, equal_nan=True,
                               msg=lambda m: f"{what}: {m}")


def grad_close(got, ref, what, rtol=1e-5):
    close(got, ref, what, rtol=rtol, atol=1e-5 * ref.abs().max().item())


# ----------------------------------------------------------------------------- data

def shards(v, world, sizes=None):
    """(start, size) of every rank's shard of v classes; default torch.chunk's split, as
    DTensor's Shard(-1) (even when world divides v)."""
    if sizes is None:
        step = -(-v // world)
        sizes = [max(0, min(step, v - k * step)) for k in range(world)]
    assert sum(sizes) == v and len(sizes) == world
    return [(sum(sizes[:k]), sizes[k]) for k in range(world)]


def make_data(world, v=40, rows=(3, 5), seed=0, sizes=None, ignore_index=-100):
    """Logits (*rows, v); row i's target is a random class of shard i % world; rows 3 and 11
    are ignored; a positive class weight."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(*rows, v, generator=g) * 2.0
    spans = shards(v, world, sizes)
    t = torch.tensor([spans[i % world][0] + int(torch.randint(spans[i % world][1], (),
                                                              generator=g))
                      for i in range(x[..., 0].numel())])
    t[[3, 11]] = ignore_index
    return x, t.reshape(rows), torch.rand(v, generator=g) + 0.5


def margin_grid(world, v=4096, seed=1):
    """Float32 logits: for every (owner rank, margin) one row whose target, a random column of
    that rank's shard, is set to max(other logits) + margin; then two ignored rows."""
    g = torch.Generator().manual_seed(seed)
    rows = [(k, m) for k in range(world) for m in MARGINS]
    x = torch.randn(len(rows) + 2, v, generator=g) * 2.0
    t = torch.full((len(rows) + 2,), -100, dtype=torch.int64)
    for i, (k, m) in enumerate(rows):
        s, size = shards(v, world)[k]
        t[i] = s + int(torch.randint(size, (), generator=g))
        x[i, t[i]] = torch.cat([x[i, :t[i]], x[i, t[i] + 1:]]).max() + m
    return x, t


# ----------------------------------------------------------------------------- one check

class Ctx:
    def __init__(self, rank, world, device):
        self.rank, self.world, self.device = rank, world, torch.device(device)


class Check:
    """One comparison: this rank's shard of x as a leaf (``local``), the keyword arguments of
    the parallel call (``kw``), and the float64 reference of the full x.

        c = Check(ctx, x, target, weight, **opts)
        loss, lse = vocab_parallel_cross_entropy(c.local, c.target, **c.kw)
        c.objective(loss, lse).backward(); c.verify()

    ``upstream``: backpropagate random weights of the per-row loss and of the lse, not just
    the loss. ``sizes``: uneven shards, passed as explicit vocab_start / num_classes."""

    def __init__(self, ctx, x, target, weight=None, *, sizes=None, dtype=None, upstream=False,
                 elementwise_grad=False, **opts):
        self.ctx, self.opts, self.upstream = ctx, opts, upstream
        self.elementwise_grad = elementwise_grad
        x = x if dtype is None else x.to(dtype)
        self.start, size = shards(x.shape[-1], ctx.world, sizes)[ctx.rank]
        self.stop = self.start + size
        self.local = x[..., self.start:self.stop].to(ctx.device).clone().requires_grad_()
        self.target = target.to(ctx.device)
        self.weight = None if weight is None else weight.to(ctx.device)
        self.kw = dict(opts, weight=self.weight, return_lse=True)
        if sizes is not None:
            self.kw.update(vocab_start=self.start, num_classes=x.shape[-1])
        self.xr = x.double().requires_grad_()
        self.ref_loss, self.ref_lse = reference(self.xr, target, weight, **opts)

    def objective(self, loss, lse):
        self.loss, self.lse = loss, lse
        if not self.upstream:
            self.ref_loss.sum().backward()
            return loss.sum()
        g = torch.Generator().manual_seed(7)
        g_loss = torch.rand(self.ref_loss.shape, generator=g, dtype=torch.float64)
        g_lse = torch.rand(self.ref_lse.shape, generator=g, dtype=torch.float64)
        ((self.ref_loss * g_loss).sum() + (self.ref_lse * g_lse).sum()).backward()
        dev = self.ctx.device
        return (loss.double() * g_loss.to(dev)).sum() + (lse.double() * g_lse.to(dev)).sum()

    def verify(self):
        # Every rank holds the very same loss (gathered first: a failed check on one rank
        # must not leave the others waiting in this collective).
        loss = self.loss.detach()
        losses = [torch.empty_like(loss) for _ in range(self.ctx.world)]
        torch.distributed.all_gather(losses, loss.contiguous())
        close(loss.cpu(), self.ref_loss, "loss")
        close(self.lse.cpu(), self.ref_lse, "lse")
        assert all(torch.equal(l.nan_to_num(), loss.nan_to_num()) for l in losses), \
            "the ranks' losses differ"
        grad, ref_grad = self.local.grad, self.xr.grad[..., self.start:self.stop]
        assert grad.dtype == self.local.dtype and grad.shape == self.local.shape
        if self.elementwise_grad:
            close(grad.cpu(), ref_grad, "grad", atol=TINY)
        else:
            rtol = 2.0 ** -8 if grad.dtype == torch.bfloat16 else 1e-5
            close(grad.cpu(), ref_grad, "grad", rtol=rtol,
                  atol=1e-5 * self.xr.grad.abs().max().item())
        return loss


def check(ctx, x, target, weight=None, **kw):
    from inductor_ce.parallel import vocab_parallel_cross_entropy
    c = Check(ctx, x, target, weight, **kw)
    loss, lse = vocab_parallel_cross_entropy(c.local, c.target, **c.kw)
    c.objective(loss, lse).backward()
    return c.verify()


# ----------------------------------------------------------------------------- eager cases

EAGER = {}  # name -> (function(ctx), world sizes)


def case(*worlds, cuda=True):
    def register(f):
        if cuda or not CUDA:
            EAGER[f.__name__.removeprefix("case_")] = (f, worlds)
        return f
    return register


def _options_case(name, weight=False, **opts):
    def f(ctx):
        x, t, w = make_data(ctx.world)
        check(ctx, x, t, w if weight else None, **opts)
    EAGER[name] = (f, (2, 4))


_options_case("mean")
_options_case("sum", reduction="sum")
_options_case("none", reduction="none", upstream=True)
_options_case("weight", weight=True)
_options_case("weight_sum", weight=True, reduction="sum")
_options_case("label_smoothing", label_smoothing=0.1)
_options_case("weight_label_smoothing", weight=True, label_smoothing=0.2)
_options_case("z_loss", z_loss=1e-2)
_options_case("softcap", softcap=1.5)
_options_case("all_options_mean", weight=True, label_smoothing=0.1, z_loss=1e-2, softcap=4.0,
              upstream=True)
_options_case("all_options_none", weight=True, label_smoothing=0.1, z_loss=1e-2, softcap=4.0,
              reduction="none", upstream=True)
_options_case("bfloat16", dtype=torch.bfloat16, weight=True, label_smoothing=0.1)


@case(2, 3)
def case_full_form(ctx):
    """temperature, entropy and accuracy of the whole row: every rank's equal to float64's of
    the gathered logits, and the gradient of loss + 0.3 entropy (per-row upstream weights)."""
    from inductor_ce.parallel import vocab_parallel_cross_entropy
    from _reference import full_reference
    x, t, w = make_data(ctx.world)
    t[0] = int(x.reshape(-1, 40)[0].argmax())     # a target that is the largest logit
    start, size = shards(40, ctx.world)[ctx.rank]
    local = x[..., start:start + size].to(ctx.device).clone().requires_grad_()
    out = vocab_parallel_cross_entropy(local, t.to(ctx.device), reduction="none",
                                       vocab_start=start, num_classes=40, temperature=0.7,
                                       softcap=4.0, return_entropy=True, return_accuracy=True)
    g = torch.rand(t.shape, generator=torch.Generator().manual_seed(3), dtype=torch.float64)
    ((out.loss.double() * g.to(ctx.device)).sum()
     + 0.3 * (out.entropy.double() * g.flip(0).to(ctx.device)).sum()).backward()
    xr = x.double().requires_grad_()
    loss, entropy, accuracy = full_reference(xr, t, temperature=0.7, softcap=4.0)
    ((loss * g).sum() + 0.3 * (entropy * g.flip(0)).sum()).backward()
    close(out.loss.detach().cpu(), loss, "loss")
    close(out.entropy.detach().cpu(), entropy, "entropy", atol=1e-6)
    assert torch.equal(out.accuracy.cpu(), accuracy) and bool(accuracy.reshape(-1)[0])
    grad_close(local.grad.cpu(), xr.grad[..., start:start + size], "grad")


@case(2)
def case_temperature_alone(ctx):
    """A temperature without the entropy or the accuracy: the plain return form (a tensor of
    the target's shape, or a scalar), the loss and its gradient as float64's (the entropy's
    absent gradient reaches the shards' backward as None)."""
    from inductor_ce.parallel import vocab_parallel_cross_entropy
    from _reference import full_reference
    x, t, _ = make_data(ctx.world)
    start, size = shards(40, ctx.world)[ctx.rank]
    for reduction in ("none", "mean"):
        local = x[..., start:start + size].to(ctx.device).clone().requires_grad_()
        out = vocab_parallel_cross_entropy(local, t.to(ctx.device), reduction=reduction,
                                           vocab_start=start, num_classes=40, temperature=0.7)
        assert isinstance(out, torch.Tensor)
        assert out.shape == (t.shape if reduction == "none" else ()), out.shape
        out.double().sum().backward()
        xr = x.double().requires_grad_()
        loss = full_reference(xr, t, temperature=0.7)[0]
        loss = loss if reduction == "none" else loss.sum() / (t != -100).sum()
        loss.sum().backward()
        close(out.detach().cpu(), loss, "loss")
        grad_close(local.grad.cpu(), xr.grad[..., start:start + size], "grad")


@case(2, 3)
def case_full_form_margin_grid(ctx):
    """The entropy over the collapse grid (targets on every shard, margins 0-80): relative
    to its own size, however small."""
    from inductor_ce.parallel import vocab_parallel_cross_entropy
    from _reference import full_reference
    x, t = margin_grid(ctx.world)
    start, size = shards(x.shape[-1], ctx.world)[ctx.rank]
    local = x[..., start:start + size].to(ctx.device)
    out = vocab_parallel_cross_entropy(local, t.to(ctx.device), reduction="none",
                                       vocab_start=start, num_classes=x.shape[-1],
                                       return_entropy=True, return_accuracy=True)
    loss, entropy, accuracy = full_reference(x.double(), t)
    close(out.loss.cpu(), loss, "loss")
    close(out.entropy.cpu(), entropy, "entropy")
    assert torch.equal(out.accuracy.cpu(), accuracy)


@case(2, 4)
def case_ignore_index_in_vocabulary(ctx):
    # A non-default ignore_index that is a class id of the last shard.
    x, t, w = make_data(ctx.world, ignore_index=37)
    check(ctx, x, t, w, ignore_index=37, label_smoothing=0.1, upstream=True)


@case(2, 4)
def case_int32_target(ctx):
    x, t, w = make_data(ctx.world)
    check(ctx, x, t.int(), w, z_loss=1e-2)


@case(2, 4)
def case_uneven_shards(ctx):
    # Explicit vocab_start / num_classes. On 4 ranks rank 0 holds a single column, the target
    # of some rows: its non-target logsumexp is then -inf.
    sizes = [13, 27] if ctx.world == 2 else [1, 15, 17, 7]
    x, t, w = make_data(ctx.world, sizes=sizes)
    t[0, 0] = t[1, 1] = 0
    check(ctx, x, t, w, sizes=sizes, label_smoothing=0.1, z_loss=1e-2, upstream=True)


@case(2, 4)
def case_padded_vocabulary(ctx):
    # A vocabulary padded with -inf logits: the last shard is all -inf (lse_nt_k = -inf
    # there); one ignored row is -inf everywhere.
    x, t, w = make_data(ctx.world)
    x[..., 25:] = float("-inf")
    t = torch.where(t >= 25, t % 25, t)
    x[0, 3] = float("-inf")
    check(ctx, x, t, w, z_loss=1e-2)


@case(2, 4)
def case_all_ignored(ctx):
    x, t, w = make_data(ctx.world)
    t.fill_(-100)
    check(ctx, x, t, w, reduction="sum")
    assert check(ctx, x, t, w, reduction="mean").isnan()  # 0 / 0, as in PyTorch


@case(2, 4)
def case_margin_grid(ctx):
    x, t = margin_grid(ctx.world)
    loss = check(ctx, x, t, reduction="none", upstream=True, elementwise_grad=True)
    assert (loss[:-2] > 0).all()  # no collapse: every kept row's loss is positive


@case(2, 4)
def case_margin_grid_mean(ctx):
    x, t = margin_grid(ctx.world)
    check(ctx, x, t, reduction="mean", elementwise_grad=True)


@case(2, 4, cuda=False)  # a failed device-side assert would poison the CUDA context
def case_rejects_target_out_of_range(ctx):
    from inductor_ce.parallel import vocab_parallel_cross_entropy
    x, t, _ = make_data(ctx.world)
    t[0, 0] = 40
    # (Eagerly a ValueError from the ranks' exchange of checks, on every rank, before the
    # op's own assert, a RuntimeError, would fail on the rank alone.)
    with pytest.raises(ValueError, match="out of range"):
        vocab_parallel_cross_entropy(x[..., :40 // ctx.world].to(ctx.device), t.to(ctx.device))


@case(2, 4)
def case_rejects_bad_arguments(ctx):
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    x, t, w = make_data(ctx.world)
    local, t, w = x[..., :40 // ctx.world].to(ctx.device), t.to(ctx.device), w.to(ctx.device)
    with pytest.raises(ValueError, match=r"weight must have shape \(40,\)"):
        vpce(local, t, weight=w[:local.shape[-1]])  # a local weight: must be the global one
    with pytest.raises(ValueError, match="num_classes"):
        vpce(local, t, vocab_start=0)
    with pytest.raises(ValueError, match="uneven"):
        vpce(local, t, num_classes=41)
    with pytest.raises(ValueError, match="not inside"):
        vpce(local, t, vocab_start=40 - local.shape[-1] + 1, num_classes=40)
    with pytest.raises(ValueError, match="reduction"):
        vpce(local, t, reduction="avg")
    with pytest.raises(TypeError, match="group must be a torch.distributed ProcessGroup"):
        vpce(local, t, group=123)


# DTensor: inductor_ce.cross_entropy of logits sharded over a 1-D mesh.

def _mesh(ctx):
    from torch.distributed.device_mesh import init_device_mesh
    return init_device_mesh(ctx.device.type, (ctx.world,))


def _grad_shard(grad, v, start, size):
    """This rank's columns of a Shard(-1) logits DTensor's gradient, which is Shard(-1). (torch
    2.11's DTensor hands back the gradient of an uneven split's ``to_local()`` replicated,
    whole, on every rank, its own doing: also without inductor_ce.)"""
    from torch.distributed.tensor import Replicate, Shard
    (p,) = grad.placements
    if isinstance(p, Replicate) and v % grad.device_mesh.size() and torch.__version__ < "2.12":
        return grad.to_local().cpu()[..., start:start + size]
    assert isinstance(p, Shard) and p.dim in (-1, grad.ndim - 1), p
    return grad.to_local().cpu()


def dtensor_check(ctx, v, dtensor_target, backend=None):
    """inductor_ce.cross_entropy of a Shard(-1) DTensor (eager, or compiled with ``backend``):
    a replicated loss and lse, a Shard(-1) gradient, all equal to the float64 reference."""
    import inductor_ce
    from torch.distributed.tensor import Replicate, Shard, distribute_tensor
    mesh = _mesh(ctx)
    x, t, w = make_data(ctx.world, v)
    logits = distribute_tensor(x.to(ctx.device), mesh, [Shard(-1)]).requires_grad_()
    target = t.to(ctx.device)
    if dtensor_target:
        target = distribute_tensor(target, mesh, [Replicate()])

    def fn(logits, target, weight):
        return inductor_ce.cross_entropy(logits, target, weight, label_smoothing=0.1,
                                         z_loss=1e-2, return_lse=True)

    if backend is not None:
        fn = torch.compile(fn, fullgraph=True, backend=backend)
    loss, lse = fn(logits, target, w.to(ctx.device))
    assert list(loss.placements) == [Replicate()] == list(lse.placements)
    (loss + lse.mean() / 8).backward()  # (under compile, every DTensor output needs a grad)
    xr = x.double().requires_grad_()
    ref_loss, ref_lse = reference(xr, t, w, label_smoothing=0.1, z_loss=1e-2)
    (ref_loss + ref_lse.mean() / 8).backward()
    close(loss.to_local().cpu(), ref_loss, "loss")
    close(lse.to_local().cpu(), ref_lse, "lse")
    start, size = shards(v, ctx.world)[ctx.rank]
    close(_grad_shard(logits.grad, v, start, size), xr.grad[..., start:start + size], "grad",
          atol=1e-5 * xr.grad.abs().max().item())


@case(2, 3, cuda=False)
def case_dtensor_full_form(ctx):
    """cross_entropy of a Shard(-1) DTensor with a temperature, the entropy and the accuracy:
    replicated outputs equal to float64's, a Shard(-1) gradient of loss + 0.3 mean entropy."""
    import inductor_ce
    from _reference import full_reference
    from torch.distributed.tensor import Replicate, Shard, distribute_tensor
    x, t, _ = make_data(ctx.world)
    logits = distribute_tensor(x.to(ctx.device), _mesh(ctx), [Shard(-1)]).requires_grad_()
    out = inductor_ce.cross_entropy(logits, t.to(ctx.device), temperature=0.8,
                                    return_entropy=True, return_accuracy=True)
    assert list(out.entropy.placements) == [Replicate()] and out.lse is None
    (out.loss + 0.3 * out.entropy.mean()).backward()
    xr = x.double().requires_grad_()
    loss, entropy, accuracy = full_reference(xr, t, temperature=0.8)
    (loss[t != -100].mean() + 0.3 * entropy.mean()).backward()
    close(out.loss.to_local().cpu(), loss[t != -100].mean(), "loss")
    close(out.entropy.to_local().cpu(), entropy, "entropy", atol=1e-6)
    assert torch.equal(out.accuracy.to_local().cpu(), accuracy)
    start, size = shards(40, ctx.world)[ctx.rank]
    close(_grad_shard(logits.grad, 40, start, size), xr.grad[..., start:start + size], "grad",
          atol=1e-5 * xr.grad.abs().max().item())


def _replicate(x, mesh):
    """``x``, the same on every rank, as a DTensor replicated on ``mesh`` (its gradient
    comes back to ``x``)."""
    from torch.distributed.tensor import DTensor, Replicate
    return DTensor.from_local(x, mesh, [Replicate()], run_check=False)


def _linear_full_form(ctx, dtensor):
    """The fused head's vocabulary-parallel full form (temperature, entropy, accuracy), the
    explicit call or a Shard(0) weight DTensor: loss, entropy and accuracy equal to float64's
    on every rank, the full gradient of h and each rank's slice of W's."""
    import inductor_ce
    from inductor_ce.parallel import vocab_parallel_linear_cross_entropy
    from _reference import full_reference
    g = torch.Generator().manual_seed(12)
    _, t, _ = make_data(ctx.world)
    h, W = torch.randn(3, 5, 8, generator=g), torch.randn(40, 8, generator=g) * 0.7
    start, size = shards(40, ctx.world)[ctx.rank]
    hl = h.clone().requires_grad_()
    kw = dict(reduction="none", temperature=0.8, return_entropy=True, return_accuracy=True)
    if dtensor:
        from torch.distributed.tensor import Shard, distribute_tensor
        wd = distribute_tensor(W, _mesh(ctx), [Shard(0)]).requires_grad_()
        out = inductor_ce.linear_cross_entropy(_replicate(hl, _mesh(ctx)), wd, t, **kw)
        out = inductor_ce.LossOutput(*(None if o is None else o.to_local() for o in out))
    else:
        wd = W[start:start + size].clone().requires_grad_()
        out = vocab_parallel_linear_cross_entropy(hl, wd, t, vocab_start=start, num_classes=40,
                                                  **kw)
    up = torch.rand(t.shape, generator=g, dtype=torch.float64)
    ((out.loss.double() * up).sum() + 0.3 * (out.entropy.double() * up.flip(0)).sum()).backward()
    h64, W64 = h.double().requires_grad_(), W.double().requires_grad_()
    loss, entropy, accuracy = full_reference(h64 @ W64.T, t, temperature=0.8)
    ((loss * up).sum() + 0.3 * (entropy * up.flip(0)).sum()).backward()
    close(out.loss.detach(), loss, "loss")
    close(out.entropy.detach(), entropy, "entropy", atol=1e-6)
    assert torch.equal(out.accuracy, accuracy)
    grad_close(hl.grad, h64.grad, "dh")
    w_grad = wd.grad.to_local() if dtensor else wd.grad
    grad_close(w_grad, W64.grad[start:start + size], "dW")


@case(2, 3, cuda=False)
def case_linear_full_form(ctx):
    _linear_full_form(ctx, dtensor=False)


@case(2, 3, cuda=False)
def case_dtensor_linear_full_form(ctx):
    _linear_full_form(ctx, dtensor=True)


# Not on CUDA over gloo: seen on the H200 (torch 2.11), the process dies with SIGSEGV in the
# first DTensor case (gloo with CUDA tensors is no configuration DTensor supports). DTensor on
# CUDA is checked over NCCL by benchmarks/bench_parallel.py (check_dtensor).
@case(2, 4, cuda=False)
def case_dtensor(ctx):
    dtensor_check(ctx, 40, dtensor_target=False)
    dtensor_check(ctx, 41, dtensor_target=True)  # uneven (torch.chunk) shards


@case(2, 4, cuda=False)
def case_dtensor_rejects_other_placements(ctx):
    import inductor_ce
    from torch.distributed.tensor import Replicate, Shard, distribute_tensor
    mesh = _mesh(ctx)
    x, t, _ = make_data(ctx.world)
    x, t = x.to(ctx.device), t.to(ctx.device)
    for placement in (Replicate(), Shard(0)):
        with pytest.raises(ValueError, match=r"Shard\(-1\)"):
            inductor_ce.cross_entropy(distribute_tensor(x, mesh, [placement]), t)
    logits = distribute_tensor(x, mesh, [Shard(-1)])
    with pytest.raises(ValueError, match="replicated"):
        inductor_ce.cross_entropy(logits, distribute_tensor(t, mesh, [Shard(0)]))


# The fused linear + cross-entropy with its weight sharded over the vocabulary.

def linear_check(ctx, v=40, d=8, rows=(3, 5), bias=True, sizes=None, upstream=True,
                 fn=None, dtensor=False, **opts):
    """vocab_parallel_linear_cross_entropy (or ``fn``) of the full h against float64: the same
    loss and lse on every rank, the full gradient of h on every rank, and each rank's slice of
    the gradients of W and the bias."""
    import inductor_ce
    from inductor_ce.parallel import vocab_parallel_linear_cross_entropy
    x, t, w = make_data(ctx.world, v, rows, sizes=sizes)
    g = torch.Generator().manual_seed(11)
    h = torch.randn(*rows, d, generator=g)
    W = torch.randn(v, d, generator=g) * 0.7
    b = torch.randn(v, generator=g) * 0.2 if bias else None
    weight = w if opts.pop("weighted", False) else None
    budget = opts.pop("memory_budget", None)
    start, size = shards(v, ctx.world, sizes)[ctx.rank]
    dev = ctx.device
    hl = h.to(dev).clone().requires_grad_()
    wl = W[start:start + size].to(dev).clone().requires_grad_()
    bl = None if b is None else b[start:start + size].to(dev).clone().requires_grad_()
    kw = dict(opts, weight=None if weight is None else weight.to(dev), return_lse=True,
              linear_bias=bl, memory_budget=budget)
    if dtensor:
        from torch.distributed.tensor import Shard, distribute_tensor
        mesh = _mesh(ctx)
        wd = distribute_tensor(W.to(dev), mesh, [Shard(0)]).requires_grad_()
        bd = None if b is None else distribute_tensor(b.to(dev), mesh, [Shard(0)]
                                                      ).requires_grad_()
        call = fn or inductor_ce.linear_cross_entropy
        loss, lse = call(_replicate(hl, mesh), wd, t.to(dev), **dict(kw, linear_bias=bd))
        loss, lse = loss.to_local(), lse.to_local()
    else:
        if sizes is not None:
            kw.update(vocab_start=start, num_classes=v)
        call = fn or vocab_parallel_linear_cross_entropy
        loss, lse = call(hl, wl, t.to(dev), **kw)
    h64, W64 = h.double().requires_grad_(), W.double().requires_grad_()
    b64 = None if b is None else b.double().requires_grad_()
    ref_loss, ref_lse = reference(F.linear(h64, W64, b64), t, weight, **opts)
    gl = torch.rand(ref_loss.shape, generator=g, dtype=torch.float64) if upstream else \
        torch.ones(ref_loss.shape, dtype=torch.float64)
    ge = torch.rand(ref_lse.shape, generator=g, dtype=torch.float64) if upstream else \
        torch.zeros(ref_lse.shape, dtype=torch.float64)
    ((ref_loss * gl).sum() + (ref_lse * ge).sum()).backward()
    ((loss.double() * gl.to(dev)).sum() + (lse.double() * ge.to(dev)).sum()).backward()
    close(loss.detach().cpu(), ref_loss, "loss")
    close(lse.detach().cpu(), ref_lse, "lse")
    grad_close(hl.grad.cpu(), h64.grad, "grad of h (summed over the ranks)")
    if dtensor:
        gw, gb = wd.grad.to_local(), None if b is None else bd.grad.to_local()
    else:
        gw, gb = wl.grad, None if b is None else bl.grad
    grad_close(gw.cpu(), W64.grad[start:start + size], "grad of the weight shard")
    if b is not None:
        grad_close(gb.cpu(), b64.grad[start:start + size], "grad of the bias shard")
    return loss


def _linear_case(name, **opts):
    EAGER[f"linear_{name}"] = (lambda ctx: linear_check(ctx, **opts), (2, 4))


_linear_case("mean", upstream=False)
_linear_case("sum_no_bias", reduction="sum", bias=False, upstream=False)
_linear_case("none_all_options", reduction="none", weighted=True, label_smoothing=0.1,
             z_loss=1e-2, softcap=4.0)
_linear_case("uneven_shards", sizes=None, label_smoothing=0.1, ignore_index=-100)
_linear_case("chunked_by_classes", memory_budget=64, weighted=True, label_smoothing=0.2)


@case(2, 4)
def case_linear_uneven(ctx):
    sizes = [13, 27] if ctx.world == 2 else [1, 15, 17, 7]
    linear_check(ctx, sizes=sizes, z_loss=1e-2)


@case(2, 3)
def case_nan_target_logit(ctx):
    """A nan target logit gives a nan loss, as the single-device loss and F.cross_entropy (so
    that a GradScaler skips the step), whichever rank owns it (a MAX all-reduce of nan and
    -inf dropped it: an inf loss with finite gradients)."""
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    v = 6 * ctx.world
    for owner in range(ctx.world):
        x = torch.randn(2, v, generator=torch.Generator().manual_seed(owner))
        t = torch.tensor([6 * owner + 1, 0])
        x[0, t[0]] = float("nan")
        local = x[:, 6 * ctx.rank:6 * ctx.rank + 6].to(ctx.device)
        for kw in ({}, dict(return_entropy=True)):
            out = vpce(local, t.to(ctx.device), reduction="none", **kw)
            loss = (out.loss if kw else out).cpu()
            assert loss[0].isnan() and loss[1].isfinite(), (owner, kw, loss)


@case(2, 3, cuda=False)  # (DTensor over gloo on CUDA: see case_dtensor)
def case_linear_dtensor_plain_bias(ctx):
    """A Shard(0) weight DTensor with a plain (replicated) bias: every rank's bias.grad is the
    whole gradient, float64's (each rank's own slice's alone, before)."""
    import inductor_ce
    from torch.distributed.tensor import Shard, distribute_tensor
    g = torch.Generator().manual_seed(0)
    h, w, b = (torch.randn(6, 4, generator=g), torch.randn(8, 4, generator=g),
               torch.randn(8, generator=g))
    t = torch.randint(8, (6,), generator=g)
    wd = distribute_tensor(w.to(ctx.device), _mesh(ctx), [Shard(0)]).requires_grad_()
    bias = b.to(ctx.device).requires_grad_()
    inductor_ce.linear_cross_entropy(_replicate(h.to(ctx.device), _mesh(ctx)), wd,
                                     t.to(ctx.device), linear_bias=bias).backward()
    b64 = b.detach().double().requires_grad_()
    F.cross_entropy(F.linear(h.double(), w.double(), b64), t).backward()
    close(bias.grad.cpu(), b64.grad, "bias.grad", atol=1e-6)


@case(2, 3, cuda=False)  # (DTensor over gloo on CUDA: see case_dtensor)
def case_linear_under_autocast(ctx):
    """Under bf16 autocast with float32 h and W, the vocabulary-parallel head (a Shard(0)
    DTensor weight, and the function on a local shard) follows autocast as F.linear does
    (it ran its GEMMs in float32): the loss of the unfused autocast step's bf16 logits, and
    each rank's float32 weight gradient, its slice of float64's of the bf16-rounded
    operands, within 1.5x the unfused step's distance from it (both round dz to bf16; the
    unfused step also rounds dW to bf16)."""
    import inductor_ce
    from inductor_ce.parallel import vocab_parallel_linear_cross_entropy as vplce
    from torch.distributed.tensor import Shard, distribute_tensor
    g = torch.Generator().manual_seed(2)
    v = 64 * ctx.world
    h, w = torch.randn(256, 32, generator=g), torch.randn(v, 32, generator=g) * 0.3
    t = torch.randint(v, (256,), generator=g)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        bf16_logits = F.linear(h, w)
    ref = F.cross_entropy(bf16_logits.double(), t, reduction="none")
    h64, w64 = (x.bfloat16().double().requires_grad_() for x in (h, w))
    F.cross_entropy(F.linear(h64, w64), t, reduction="sum").backward()
    ws = w.clone().requires_grad_()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        F.cross_entropy(F.linear(h, ws), t, reduction="sum").backward()
    mine = slice(64 * ctx.rank, 64 * ctx.rank + 64)
    stock_err = (ws.grad[mine].double() - w64.grad[mine]).norm()
    local = w[mine].clone().to(ctx.device).requires_grad_()
    wd = distribute_tensor(w.to(ctx.device), _mesh(ctx), [Shard(0)]).requires_grad_()
    for name, call, grad in (
            ("local shard", lambda: vplce(h.to(ctx.device), local, t.to(ctx.device),
                                          reduction="none"),
             lambda: local.grad),
            ("dtensor", lambda: inductor_ce.linear_cross_entropy(
                _replicate(h.to(ctx.device), _mesh(ctx)), wd, t.to(ctx.device),
                reduction="none"),
             lambda: wd.grad.to_local())):
        with torch.autocast(ctx.device.type, dtype=torch.bfloat16):
            loss = call()
        loss = loss.full_tensor() if hasattr(loss, "full_tensor") else loss
        loss.sum().backward()
        close(loss.detach().cpu(), ref, f"{name} loss")
        got = grad().cpu()
        assert got.dtype == torch.float32, (name, got.dtype)
        assert (got.double() - w64.grad[mine]).norm() <= stock_err * 1.5, name


@case(2, 4, cuda=False)  # DTensor over gloo on CUDA: see case_dtensor
def case_linear_dtensor(ctx):
    linear_check(ctx, dtensor=True, label_smoothing=0.1)
    linear_check(ctx, v=41, dtensor=True, bias=False)   # uneven (torch.chunk) shards


# ----------------------------------------------------------------------------- misuse

# A misuse that one rank sees must raise on every rank, never leave the others waiting in a
# collective: these run on 2 and 3 ranks under a 60 s process-group timeout (a hang fails).
# After each case the harness's barrier shows the ranks still in step.
MISUSE = {}


def misuse(f):
    MISUSE[f.__name__.removeprefix("misuse_")] = (f, (2, 3))
    return f


def _raises_everywhere(ctx, call, match, error=ValueError):
    with pytest.raises(error, match=match):
        call()
    # and the group still works: the next, correct call gives the reference
    x, t, w = make_data(ctx.world, v=6 * ctx.world)
    check(ctx, x, t, w)


@misuse
def misuse_zero_rows_everywhere(ctx):
    # 0 rows on every rank is a legal batch: stock's values (nan mean, 0 sum, empty none),
    # empty gradients, every rank through the same collectives.
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    from inductor_ce.parallel import vocab_parallel_linear_cross_entropy as vplce
    x, t = torch.randn(0, 6 * ctx.world), torch.zeros(0, dtype=torch.int64)
    for reduction in ("mean", "sum", "none"):
        local = x[:, :6].clone().requires_grad_()
        loss = vpce(local, t, reduction=reduction)
        ref = F.cross_entropy(x.double(), t, reduction=reduction)
        close(loss.detach(), ref, reduction)
        loss.sum().backward()
        assert local.grad.shape == (0, 6) and local.grad.dtype == torch.float32
        h, w = torch.randn(0, 4, requires_grad=True), torch.randn(6, 4, requires_grad=True)
        loss = vplce(h, w, t, reduction=reduction)
        close(loss.detach(), ref, f"linear {reduction}")
        loss.sum().backward()
        assert h.grad.shape == (0, 4) and not w.grad.any()


@misuse
def misuse_a_plain_input_beside_a_sharded_weight(ctx):
    # A [Shard(0)] weight DTensor beside a plain input (an FSDP2 head's weight outside its
    # module's forward, each rank's rows its own): a ValueError naming input on every rank,
    # eagerly and under torch.compile (every rank a wrong loss before, inf compiled).
    import inductor_ce
    from torch.distributed.tensor import Shard, distribute_tensor
    w = distribute_tensor(torch.randn(6 * ctx.world, 4), _mesh(ctx), [Shard(0)])
    h, t = torch.randn(5, 4) + ctx.rank, torch.randint(0, 6 * ctx.world, (5,))
    for fn in (inductor_ce.linear_cross_entropy,
               torch.compile(inductor_ce.linear_cross_entropy, backend="eager")):
        _raises_everywhere(ctx, lambda: fn(h, w, t), r"input a plain tensor.*FSDP2")
    rows = distribute_tensor(torch.randn(6, 4), _mesh(ctx), [Shard(0)])   # (not replicated)
    _raises_everywhere(ctx, lambda: inductor_ce.linear_cross_entropy(rows, w, t[:1].repeat(6)),
                       r"input a DTensor of placements \[Shard\(dim=0\)\]")


@misuse
def misuse_zero_rows_on_one_rank(ctx):
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    rows = 0 if ctx.rank == 0 else 4
    local, t = torch.randn(rows, 6), torch.zeros(rows, dtype=torch.int64)
    _raises_everywhere(ctx, lambda: vpce(local, t), r"the ranks hold \[0, 4")


@misuse
def misuse_zero_classes_on_the_last_rank(ctx):
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    from inductor_ce.parallel import vocab_parallel_linear_cross_entropy as vplce
    last = ctx.rank == ctx.world - 1
    v = 0 if last else 6
    t = torch.zeros(4, dtype=torch.int64)
    match = "V >= 1" if last else r"rank\(s\) \[%d\]" % (ctx.world - 1)
    _raises_everywhere(ctx, lambda: vpce(torch.randn(4, v), t, vocab_start=6 * ctx.rank,
                                         num_classes=6 * (ctx.world - 1)), match)
    _raises_everywhere(ctx, lambda: vplce(torch.randn(4, 3), torch.randn(v, 3), t,
                                          vocab_start=6 * ctx.rank,
                                          num_classes=6 * (ctx.world - 1)), match)


@misuse
def misuse_shards_that_do_not_tile_the_vocabulary(ctx):
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    t = torch.zeros(4, dtype=torch.int64)
    # every rank claims the first 6 classes of 6 * world: a silently wrong loss before
    _raises_everywhere(ctx, lambda: vpce(torch.randn(4, 6), t, vocab_start=0,
                                         num_classes=6 * ctx.world), "do not tile")
    # the ranks disagree on the vocabulary size
    _raises_everywhere(ctx, lambda: vpce(torch.randn(4, 6), t, vocab_start=6 * ctx.rank,
                                         num_classes=6 * ctx.world + ctx.rank),
                       "disagree|do not tile|not inside")


@misuse
def misuse_ranks_that_differ_in_the_size_of_the_collectives(ctx):
    # The full form (entropy, accuracy, temperature) combines five statistics, the plain loss
    # three; the fused head's backward all-reduces the input's gradient in its dtype: ranks
    # differing there would abort in the collective (gloo: a size mismatch ends the process).
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    from inductor_ce.parallel import vocab_parallel_linear_cross_entropy as vplce
    first = ctx.rank == 0
    x, t, _ = make_data(ctx.world, v=6 * ctx.world)
    local = x[..., 6 * ctx.rank:6 * ctx.rank + 6]
    _raises_everywhere(ctx, lambda: vpce(local, t, return_entropy=first),
                       r"disagree on the full form \(temperature")
    _raises_everywhere(ctx, lambda: vpce(local, t, temperature=0.5 if first else 1.0),
                       "disagree on the full form")
    dtype = torch.bfloat16 if first else torch.float32
    _raises_everywhere(ctx, lambda: vplce(torch.randn(3, 5, 4, dtype=dtype),
                                          torch.randn(6, 4, dtype=dtype), t),
                       r"disagree on the input's dtype")
    # Probability targets (cross_entropy's other form) are not taken here: a TypeError
    # that says so, on every rank.
    with pytest.raises(TypeError, match="probability targets are not supported"):
        vpce(local, torch.softmax(x, -1))


def _raises_for_target(ctx, rank, change, match, linear_match):
    """The loss and the fused head, every rank the same target but ``rank``, where
    ``change(t)`` alters it: a ValueError on every rank."""
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    from inductor_ce.parallel import vocab_parallel_linear_cross_entropy as vplce
    x, t, _ = make_data(ctx.world, v=6 * ctx.world)
    t = t.clone()
    if ctx.rank == rank:
        change(t)
    local = x[..., 6 * ctx.rank:6 * ctx.rank + 6]
    _raises_everywhere(ctx, lambda: vpce(local, t), match)
    _raises_everywhere(ctx, lambda: vplce(torch.randn(3, 5, 4), torch.randn(6, 4), t),
                       linear_match)


@misuse
def misuse_a_target_out_of_range_on_one_rank(ctx):
    # The op asserts the range on each rank; a target bad on one rank only left the others
    # waiting in the all-reduce until the group's timeout.
    def change(t):
        t[1, 2] = 6 * ctx.world + 5
    _raises_for_target(ctx, 0, change, r"out of range.*rank\(s\) \[0\]", r"outside \[0, ")


@misuse
def misuse_targets_that_differ_between_ranks(ctx):
    # In range everywhere, but not the same: the loss of no rank's target (inf where no
    # rank owned its row's), silently.
    def change(t):
        t[0, 0] = (t[0, 0] + 1) % (6 * ctx.world)
    _raises_for_target(ctx, 1, change, "targets differ", "targets differ")


@misuse
def misuse_targets_that_differ_by_a_rearrangement(ctx):
    # [3, 0] against [0, 1]: equal under a position-weighted sum (1 * 3 + 3 * 0 = 1 * 0 + 3 * 1),
    # which the ranks' target fingerprint was: rank 0's loss returned on every rank, silently.
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    x, t, _ = make_data(ctx.world, v=6 * ctx.world)
    t = t.clone()
    t.view(-1)[:2] = torch.tensor([3, 0] if ctx.rank == 1 else [0, 1])
    _raises_everywhere(ctx, lambda: vpce(x[..., 6 * ctx.rank:6 * ctx.rank + 6], t),
                       "targets differ")


@misuse
def misuse_class_weights_that_differ_between_ranks(ctx):
    # Each rank would finish its loss with its own weights: different losses, silently.
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    from inductor_ce.parallel import vocab_parallel_linear_cross_entropy as vplce
    first = ctx.rank == 0
    x, t, w = make_data(ctx.world, v=6 * ctx.world)
    local = x[..., 6 * ctx.rank:6 * ctx.rank + 6]
    _raises_everywhere(ctx, lambda: vpce(local, t, weight=w if first else None),
                       r"disagree on whether a class weight is given \(\[1, 0")
    other = w * 2 if first else w
    _raises_everywhere(ctx, lambda: vpce(local, t, weight=other, label_smoothing=0.1),
                       "disagree on the class weight's values")
    _raises_everywhere(ctx, lambda: vplce(torch.randn(3, 5, 4), torch.randn(6, 4), t,
                                          weight=other), "disagree on the class weight's")


@misuse
def misuse_arguments_that_fail_another_way_on_one_rank(ctx):
    # Errors other than TypeError / ValueError skipped the exchange (a 0-d weight with an
    # explicit vocab_start: an IndexError on that rank, the others waiting); they now name
    # the argument, and raise everywhere.
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    x, t, w = make_data(ctx.world, v=6 * ctx.world)
    local = x[..., 6 * ctx.rank:6 * ctx.rank + 6]
    bad = torch.tensor(1.0) if ctx.rank == 0 else w
    match = "weight must be a 1-D tensor" if ctx.rank == 0 else r"rank\(s\) \[0\]"
    _raises_everywhere(ctx, lambda: vpce(local, t, vocab_start=6 * ctx.rank, weight=bad), match)
    with pytest.raises(TypeError, match="vocab_start must be an int"):
        vpce(local, t, vocab_start="0", num_classes=6 * ctx.world)


@misuse
def misuse_dtensor_shards_that_refuse_on_one_rank(ctx):
    # A DTensor whose local widths are not torch.chunk's, and a weight DTensor that leaves a
    # rank no classes: refused on the ranks that saw it, the others waiting (until the
    # group's timeout) in the exchange of the checks.
    import inductor_ce
    from torch.distributed.tensor import DTensor, Shard, distribute_tensor
    mesh = _mesh(ctx)
    widths = [3, 2, 4] if ctx.world == 3 else [2, 5]
    v, start = sum(widths), sum(widths[:ctx.rank])
    x = torch.randn(4, v, generator=torch.Generator().manual_seed(0))
    t = torch.arange(4) % v
    logits = DTensor.from_local(x[:, start:start + widths[ctx.rank]], mesh, [Shard(1)],
                                shape=x.shape, stride=x.stride())
    _raises_everywhere(ctx, lambda: inductor_ce.cross_entropy(logits, t),
                       "refused their arguments|not inside")
    v = 4 if ctx.world == 3 else 1
    w = distribute_tensor(torch.randn(v, 4), mesh, [Shard(0)])
    h = _replicate(torch.ones(4, 4), mesh)
    _raises_everywhere(ctx, lambda: inductor_ce.linear_cross_entropy(h, w,
                                                                      torch.zeros(4).long()),
                       "leave a rank with no classes")
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    with pytest.raises(TypeError, match="local_logits is a DTensor.*to_local"):
        vpce(logits, t)


@misuse
def misuse_arguments_checked_before_the_exchange_on_one_rank(ctx):
    # The fused head's deprecated chunk_size and a DTensor where a shard belongs, refused on
    # one rank: checked with the other arguments, so every rank raises (before, the rank that
    # refused it raised alone and its peers waited in the exchange until the timeout).
    import warnings
    from torch.distributed.tensor import Shard, distribute_tensor
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    from inductor_ce.parallel import vocab_parallel_linear_cross_entropy as vplce
    last = ctx.rank == ctx.world - 1
    others = r"rank\(s\) \[%d\]" % (ctx.world - 1)
    h, w, t = torch.randn(4, 3), torch.randn(6, 3), torch.zeros(4, dtype=torch.int64)
    span = dict(vocab_start=6 * ctx.rank, num_classes=6 * ctx.world)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)     # (chunk_size is deprecated)
        _raises_everywhere(ctx, lambda: vplce(h, w, t, chunk_size=0 if last else 4, **span),
                           "chunk_size must be" if last else others)
    mesh = _mesh(ctx)
    whole_w = distribute_tensor(torch.randn(6 * ctx.world, 3), mesh, [Shard(0)])
    whole_x = distribute_tensor(torch.randn(4, 6 * ctx.world), mesh, [Shard(1)])
    _raises_everywhere(ctx, lambda: vplce(h, whole_w if last else w, t, **span),
                       "local_weight is a DTensor" if last else others,
                       TypeError if last else ValueError)
    _raises_everywhere(ctx, lambda: vpce(whole_x if last else torch.randn(4, 6), t, **span),
                       "local_logits is a DTensor" if last else others,
                       TypeError if last else ValueError)


@misuse
def misuse_options_that_differ_between_ranks(ctx):
    # Each rank would finish its own loss: a softcap, z-loss, reduction or ignore_index of
    # its own gave every rank another number, silently.
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    from inductor_ce.parallel import vocab_parallel_linear_cross_entropy as vplce
    first = ctx.rank == 0
    x, t, _ = make_data(ctx.world, v=6 * ctx.world)
    local = x[..., 6 * ctx.rank:6 * ctx.rank + 6]
    _raises_everywhere(ctx, lambda: vpce(local, t, softcap=5.0 if first else None),
                       r"disagree on softcap \(\[5.0, nan")
    _raises_everywhere(ctx, lambda: vpce(local, t, z_loss=1e-4 if first else 0.0),
                       "disagree on z_loss")
    _raises_everywhere(ctx, lambda: vpce(local, t, reduction="sum" if first else "mean"),
                       "disagree on reduction")
    _raises_everywhere(ctx, lambda: vplce(torch.randn(3, 5, 4), torch.randn(6, 4), t,
                                          ignore_index=0 if first else -100),
                       "disagree on ignore_index")


@misuse
def misuse_fused_heads_that_differ_in_the_input(ctx):
    # The backward all-reduces the input's gradient: a hidden size or a requires_grad that
    # differs between ranks aborted the process there (gloo), or left a rank waiting.
    from inductor_ce.parallel import vocab_parallel_linear_cross_entropy as vplce
    first = ctx.rank == 0
    _, t, _ = make_data(ctx.world, v=6 * ctx.world)
    d = 5 if first else 4
    _raises_everywhere(ctx, lambda: vplce(torch.randn(3, 5, d, requires_grad=True),
                                          torch.randn(6, d), t), r"the hidden size")
    _raises_everywhere(ctx, lambda: vplce(torch.randn(3, 5, 4, requires_grad=first),
                                          torch.randn(6, 4), t), "needs a gradient")


@misuse
def misuse_double_backward_raises(ctx):
    # The backward is local to a rank; its own derivative would need the other ranks: an
    # error, never a silently local second derivative.
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce
    from inductor_ce.parallel import vocab_parallel_linear_cross_entropy as vplce
    x, t, _ = make_data(ctx.world, v=6 * ctx.world)
    twice = "differentiate twice|not differentiable"
    local = x[..., :6].clone().requires_grad_()
    (g,) = torch.autograd.grad(vpce(local, t), local, create_graph=True)
    with pytest.raises(RuntimeError, match=twice):
        g.square().sum().backward()
    h, w = torch.randn(3, 5, 4, requires_grad=True), torch.randn(6, 4)
    (g,) = torch.autograd.grad(vplce(h, w, t), h, create_graph=True)
    with pytest.raises(RuntimeError, match=twice):
        g.square().sum().backward()


# ----------------------------------------------------------------------------- compiled

def run_compiled(ctx, backend):
    """One torch.compile(fullgraph=True) graph of two losses: the margin grid (reduction
    "none") and every option at once (reduction "mean"); then the forward and backward graphs
    that AOTAutograd hands to a backend: two all-reduces in the forward, none in the backward;
    then a DTensor input."""
    from torch._dynamo.backends.common import aot_autograd
    from torch._functorch.partitioners import min_cut_rematerialization_partition
    from inductor_ce.parallel import vocab_parallel_cross_entropy as vpce

    x, t = margin_grid(ctx.world)
    grid = Check(ctx, x, t, reduction="none", upstream=True, elementwise_grad=True)
    x, t, w = make_data(ctx.world)
    opts = Check(ctx, x, t, w, label_smoothing=0.1, z_loss=1e-2, softcap=4.0, upstream=True)
    opts_kw = {k: v for k, v in opts.kw.items() if k != "weight"}

    def fn(grid_local, grid_target, opts_local, opts_target, weight):
        return (vpce(grid_local, grid_target, **grid.kw),
                vpce(opts_local, opts_target, weight=weight, **opts_kw))

    compiled = torch.compile(fn, fullgraph=True, backend=backend)
    out_grid, out_opts = compiled(grid.local, grid.target, opts.local, opts.target, opts.weight)
    (grid.objective(*out_grid) + opts.objective(*out_opts)).backward()
    grid.verify()
    opts.verify()

    graphs = {}

    def record(kind):
        def compiler(gm, example_inputs):
            graphs[kind] = str(gm.graph)
            return gm
        return compiler

    # The min-cut partitioner, as Inductor and aot_eager use. (AOTAutograd's default
    # partitioner copies the forward's ce_fwd -> all_reduce -> wait_tensor chain into the
    # backward graph, where DCE keeps it because wait_tensor counts as side-effectful.)
    capture = aot_autograd(fw_compiler=record("fw"), bw_compiler=record("bw"),
                           partition_fn=min_cut_rematerialization_partition)
    local = opts.local.detach().clone().requires_grad_()
    torch.compile(lambda a, b, c: vpce(a, b, weight=c, label_smoothing=0.1), fullgraph=True,
                  backend=capture)(local, opts.target, opts.weight).backward()
    assert graphs["fw"].count("_c10d_functional.all_reduce") == 2, graphs["fw"]
    assert "_c10d_functional" not in graphs["bw"], graphs["bw"]

    # The vocabulary-parallel fused linear + cross-entropy, one graph with its collectives.
    import inductor_ce.parallel as parallel
    torch._dynamo.reset()
    linear_check(ctx, fn=torch.compile(parallel.vocab_parallel_linear_cross_entropy,
                                       fullgraph=True, backend=backend),
                 label_smoothing=0.1, z_loss=1e-2)

    # Without a gradient (an evaluation step): the values of the eager calls, for both
    # functions, the plain loss and the full form; label_smoothing and z_loss as 0-d tensors,
    # graph inputs (as cross_entropy takes them under torch.compile), against floats. (Inductor
    # had run the first all-reduce in place over lse_nt_k: a loss of 1.13 for 5.37.)
    torch._dynamo.reset()
    tensors = dict(label_smoothing=torch.tensor(0.1), z_loss=torch.tensor(1e-2))
    floats = dict(label_smoothing=0.1, z_loss=1e-2)
    x, t, _ = make_data(ctx.world)
    start, size = shards(x.shape[-1], ctx.world)[ctx.rank]
    local = x[..., start:start + size]
    got = torch.compile(vpce, fullgraph=True, backend=backend)(local, t, vocab_start=start,
                                                               num_classes=40, **tensors)
    torch.testing.assert_close(got, vpce(local, t, vocab_start=start, num_classes=40,
                                         **floats))
    h, W = torch.randn(3, 5, 4), torch.randn(size, 4)
    got = torch.compile(parallel.vocab_parallel_linear_cross_entropy, fullgraph=True,
                        backend=backend)(h, W, t, vocab_start=start, num_classes=40, **tensors)
    torch.testing.assert_close(got, parallel.vocab_parallel_linear_cross_entropy(
        h, W, t, vocab_start=start, num_classes=40, **floats))
    for f in (vpce, parallel.vocab_parallel_linear_cross_entropy):
        args = (local, t) if f is vpce else (h, W, t)
        torch._dynamo.reset()
        got = torch.compile(f, fullgraph=True, backend=backend)(
            *args, vocab_start=start, num_classes=40, return_entropy=True)
        want = f(*args, vocab_start=start, num_classes=40, return_entropy=True)
        torch.testing.assert_close((got.loss, got.entropy), (want.loss, want.entropy))

    # A DTensor input compiles too (aot_eager: the ops are the same as above). Not over gloo
    # on CUDA (see case_dtensor).
    if ctx.device.type == "cpu":
        torch._dynamo.reset()
        dtensor_check(ctx, 41, dtensor_target=True, backend="aot_eager")


# ----------------------------------------------------------------------------- launcher

def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@functools.lru_cache(maxsize=None)
def _launch(suite, world):
    """Runs ``suite`` ("eager", or "compiled:<backend>") on ``world`` gloo processes;
    returns {case: error text or None} (a case failed if it failed on any rank)."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=ROOT + os.pathsep
                   + os.environ.get("PYTHONPATH", ""))
        procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), suite, str(r),
                                   str(world), str(port), out], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True) for r in range(world)]
        logs = []
        for p in procs:
            try:
                logs.append(p.communicate(timeout=900)[0])
            except subprocess.TimeoutExpired:
                for q in procs:
                    q.kill()
                raise
        results = {}
        for r, p in enumerate(procs):
            path = os.path.join(out, f"rank{r}.json")
            if p.returncode != 0 or not os.path.exists(path):
                raise RuntimeError(f"rank {r} exited with {p.returncode}:\n{logs[r][-5000:]}")
            with open(path) as f:
                for name, err in json.load(f).items():
                    if err is not None:
                        results[name] = (results.get(name) or "") + f"[rank {r}] {err}\n"
                    else:
                        results.setdefault(name, None)
        return results


def _worker(suite, rank, world, port, out):
    import faulthandler
    import torch.distributed as dist
    faulthandler.enable()  # a crash in native code still names the case it happened in
    device = "cpu"
    if CUDA:
        device = f"cuda:{rank % torch.cuda.device_count()}"
        torch.cuda.set_device(device)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world,
                            timeout=timedelta(seconds=60 if suite == "misuse" else 300))
    ctx = Ctx(rank, world, device)
    results = {}
    if suite in ("eager", "misuse"):
        cases = EAGER if suite == "eager" else MISUSE
        todo = [(n, f) for n, (f, worlds) in cases.items() if world in worlds]
    else:
        backend = suite.split(":")[1]
        todo = [(suite, lambda c: run_compiled(c, backend))]
    for name, f in todo:
        try:
            t0 = time.perf_counter()
            f(ctx)
            results[name] = None
            print(f"{name}: {time.perf_counter() - t0:.2f} s", flush=True)
        except Exception:
            results[name] = traceback.format_exc()
        dist.barrier()
    with open(os.path.join(out, f"rank{rank}.json"), "w") as fh:
        json.dump(results, fh)
    dist.destroy_process_group()


# ----------------------------------------------------------------------------- pytest

def _result(suite, world, name):
    err = _launch(suite, world).get(name, "case did not run")
    if err:
        pytest.fail(err, pytrace=False)


@pytest.mark.parametrize("world,name", [(w, n) for n, (_, ws) in EAGER.items() for w in ws])
def test_eager(world, name):
    _result("eager", world, name)


@pytest.mark.parametrize("world,name", [(w, n) for n, (_, ws) in MISUSE.items() for w in ws])
def test_misuse(world, name):
    _result("misuse", world, name)


@pytest.mark.slow
@pytest.mark.parametrize("world,backend", [(2, "inductor"), (4, "aot_eager")])
def test_compiled(world, backend):
    _result(f"compiled:{backend}", world, f"compiled:{backend}")


def test_reference_matches_f_cross_entropy():
    # The float64 reference is F.cross_entropy (+ the z-loss) wherever float64 does not
    # collapse, for every option.
    for reduction in ("none", "mean", "sum"):
        for weighted in (False, True):
            for ii, eps in ((-100, 0.0), (-100, 0.2), (5, 0.1)):
                x, t, w = make_data(2, ignore_index=ii)
                weight = w.double() if weighted else None
                kw = dict(weight=weight, ignore_index=ii, reduction=reduction,
                          label_smoothing=eps)
                got, lse = reference(x, t, **kw)
                want = F.cross_entropy(x.double().reshape(-1, 40), t.reshape(-1), **kw)
                close(got, want.reshape(got.shape), "loss", rtol=1e-12)
                zl, _ = reference(x, t, z_loss=0.5, **kw)
                keep = t != ii
                wt = torch.where(keep, (torch.ones(40) if weight is None else weight)[
                    torch.where(keep, t, 0)].double(), 0.0)
                zrow = 0.5 * wt * lse ** 2
                zred = {"none": zrow, "sum": zrow.sum(), "mean": zrow.sum() / wt.sum()}
                close(zl - got, zred[reduction], "z-loss", rtol=1e-12)
    close(reference(x, t, softcap=2.0)[0], reference(2.0 * torch.tanh(x.double() / 2.0), t)[0],
          "softcap", rtol=1e-12)


def test_margin_grid_collapses_naively():
    # The margin grid is a real test: the plain lse - z_t loss is exactly 0 at margins >= 50
    # even in float64, while the reference keeps the non-target mass; at small margins, where
    # float64 lse - z_t is still accurate, the two agree.
    x, t = margin_grid(2)
    naive = F.cross_entropy(x.double(), t, reduction="none")[:-2]
    ref = reference(x, t, reduction="none")[0][:-2]
    margin = torch.tensor(MARGINS * 2)
    assert (naive[margin >= 50] == 0).all() and (ref > 0).all()
    close(ref[margin <= 10], naive[margin <= 10], "small margins", rtol=1e-9)


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    _worker(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
