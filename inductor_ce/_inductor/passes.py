"""Inductor's graph-pass slots and config, and what a pass matches in a graph (routing, see
``integrations/routing.py``)."""
from __future__ import annotations

import torch

# The C entry points of F.cross_entropy, F.nll_loss and F.linear, as Dynamo's graphs may
# call them.
NN_CROSS_ENTROPY = torch._C._nn.cross_entropy_loss
NN_NLL_LOSS_ND = torch._C._nn.nll_loss_nd
NN_LINEAR = torch._C._nn.linear


def op_schema(target):
    """The schema of an OpOverload (None for any other call target)."""
    return getattr(target, "_schema", None)

ROUTING_MISSING: list[str] = []
try:
    from torch._inductor import config as inductor_config

    if not hasattr(inductor_config, "pre_grad_custom_pass"):
        ROUTING_MISSING.append("torch._inductor.config.pre_grad_custom_pass")
except Exception as e:  # pragma: no cover - depends on the torch build
    ROUTING_MISSING.append(f"torch._inductor graph-pass API ({type(e).__name__}: {e})")

ROUTING_AVAILABLE = not ROUTING_MISSING


def get_pre_grad_pass():
    """Inductor's pre-grad custom pass slot: runs on Dynamo's torch-level FX graph before
    AOTAutograd. A pass with a uuid (see SaltPass) enters the FX-graph and AOTAutograd cache
    keys; torch 2.13 then runs it after the cache lookup ("late" pre_grad_pass_timing)."""
    return inductor_config.pre_grad_custom_pass


def set_pre_grad_pass(graph_pass) -> None:
    inductor_config.pre_grad_custom_pass = graph_pass


def patch_inductor_config(**changes):
    """``torch._inductor.config.patch`` (a context manager and decorator)."""
    return inductor_config.patch(changes)
