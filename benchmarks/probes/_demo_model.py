"""What the main job's probes share (demo_phases, demo_profile, demo_backward_host): the
demo's preset model on one batch of random tokens, and a compiled copy of it per contender."""
from __future__ import annotations

import copy
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from inductor_ce.demo import gpt  # noqa: E402
from inductor_ce.demo import job as demo  # noqa: E402

CONTENDERS = (("stock", False), ("ours", True))   # (name, routed by enable())


def model_and_batch(preset: str = "cuda", device: str = "cuda"):
    """(the preset, its GPT seeded 0 on ``device``, input ids, labels equal to them)."""
    p = demo.PRESETS[preset]
    torch.manual_seed(0)
    base = gpt.GPT(demo.model_config(p)).to(device)
    idx = torch.randint(0, p.vocab, (p.batch, p.block), device=device)
    return p, base, idx, idx.clone()


def compiled(base, routed: bool):
    """``torch.compile`` of a copy of ``base``, its graphs routed by enable() or not (routing
    stays as set until the caller's ``inductor_ce.disable()``)."""
    torch.compiler.reset()
    (inductor_ce.enable if routed else inductor_ce.disable)()
    return torch.compile(copy.deepcopy(base))
