"""CUDA subset: bf16 logits at LM scale, every option, against float64; and the structure of
the generated CUDA code. Skipped without a GPU (conftest marks ``gpu`` tests).

    INDUCTOR_CE_GPU_ROWS=4096 python -m pytest -q -m gpu tests/test_gpu.py

``INDUCTOR_CE_GPU_DEVICE=cpu`` (with small ``INDUCTOR_CE_GPU_ROWS``/``_VOCAB``) dry-runs the
eager checks on the CPU before spending GPU time.
"""
from __future__ import annotations

import os

import pytest
import torch

import inductor_ce
from _reference import assert_grad_close, assert_loss_close, reference
from _codegen_checks import _logits_kernel

pytestmark = pytest.mark.gpu

T = int(os.environ.get("INDUCTOR_CE_GPU_ROWS", "4096"))
V = int(os.environ.get("INDUCTOR_CE_GPU_VOCAB", "128256"))
DEV = os.environ.get("INDUCTOR_CE_GPU_DEVICE", "cuda")
OPTIONS = {
    "plain": dict(),
    "sum_ignore": dict(reduction="sum", ignore_index=3),
    "weight_smoothing": dict(weight="w", label_smoothing=0.1),
    "zloss_softcap": dict(z_loss=1e-4, softcap=30.0),
    "everything_none": dict(weight="w", ignore_index=3, label_smoothing=0.1, z_loss=1e-4,
                            softcap=30.0, reduction="none"),
}


@pytest.fixture(scope="module")
def data():
    gen = torch.Generator(device=DEV).manual_seed(0)
    x = (torch.randn(T, V, device=DEV, generator=gen) * 2).to(torch.bfloat16)
    t = torch.randint(0, V, (T,), device=DEV, generator=gen)
    t[::7] = -100
    w = torch.rand(V, device=DEV, generator=gen) + 0.5
    return x, t, w


def _opts(name, w, t):
    """The option dict and the targets for it (ignored rows use the option's ignore_index)."""
    opts = {k: (w if v == "w" else v) for k, v in OPTIONS[name].items()}
    ignore = opts.get("ignore_index", -100)
    return opts, torch.where(t == -100, ignore, t)


def _check(loss, grad, x, t, opts, g):
    xr = x.double().requires_grad_()
    ref = reference(xr, t, **opts)
    (ref if g is None else ref * g.double()).sum().backward()
    assert_loss_close(loss, ref)
    assert_grad_close(grad, xr.grad)  # float32 math, one correct rounding to bf16


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
@pytest.mark.parametrize("name", list(OPTIONS))
def test_bf16_lm_scale_against_float64(data, name, compiled):
    x, t, w = data
    opts, t = _opts(name, w, t)
    fn = lambda x, t: inductor_ce.cross_entropy(x, t, **opts)  # noqa: E731
    if compiled:
        torch._dynamo.reset()
        fn = torch.compile(fn, fullgraph=True)
    xg = x.clone().requires_grad_()
    loss = fn(xg, t)
    g = torch.randn_like(loss) if loss.dim() else None
    (loss if g is None else loss * g).sum().backward()
    _check(loss.detach(), xg.grad, x, t, opts, g)


@pytest.mark.parametrize("name", ["plain", "everything_none"])
def test_cuda_code_structure(data, name):
    from torch._inductor.utils import run_and_get_code
    x, t, w = data
    opts, t = _opts(name, w, t)
    torch._dynamo.reset()
    fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, **opts), fullgraph=True)
    xg = x.clone().requires_grad_()
    _, (fwd, bwd) = run_and_get_code(lambda: fn(xg, t).sum().backward())
    # asserts: exactly one kernel makes one pass over the logits; the forward also gathers
    # one target logit per row
    _logits_kernel(name, fwd, V, gather=True)
    _logits_kernel(name, bwd, V)


def test_nan_logit_reaches_its_row_only():
    """The chunk kernel's max is the hardware's max instruction, which ignores a nan on the
    GPU: the nan must still reach its row's loss and gradient (as in F.cross_entropy), also
    from a chunk whose other logits are all -inf; a chunk of -inf alone holds no mass."""
    gen = torch.Generator(device=DEV).manual_seed(1)
    x = (torch.randn(4, V, device=DEV, generator=gen) * 2).to(torch.bfloat16)
    t = torch.full((4,), 3, device=DEV)
    x[0, 10] = float("nan")
    x[1, V // 2:] = float("-inf")
    x[1, V - 1] = float("nan")
    x[2, V // 2:] = float("-inf")
    torch._dynamo.reset()
    fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, reduction="none"),
                       fullgraph=True)
    xg = x.clone().requires_grad_()
    loss = fn(xg, t)
    loss.sum().backward()
    xr = x.double().requires_grad_()
    ref = torch.nn.functional.cross_entropy(xr, t, reduction="none")
    ref.sum().backward()
    assert loss.isnan().tolist() == [True, True, False, False]
    assert_loss_close(loss.detach(), ref.detach())
    assert xg.grad.isnan().any(-1).tolist() == [True, True, False, False]
    assert_grad_close(xg.grad[2:], xr.grad[2:])
