"""The softcap's chain rule in the backward kernel, sech^2(y) = 4 e / (1 + e)^2 against
1 - tanh^2 (from the rounded z = cap tanh(y)): the compiled step's time with each, in turns,
in one process (Inductor's caches off, Dynamo reset between them).

    TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 python benchmarks/probes/softcap_slope.py

Prints per shape (bf16 logits, softcap 30) the fwd+bwd median of each variant over rounds.
"""
from __future__ import annotations

import os
import statistics
import sys

import torch
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402
from inductor_ce import lowering  # noqa: E402
from inductor_ce._inductor.ir import ops  # noqa: E402

NEW = lowering.softcap_slope


def old(x_load, softcap, temperature=1.0):
    u = ops.mul(lowering._logit(x_load, softcap, temperature),
                lowering._f32(1.0 / softcap))
    return ops.sub(lowering._f32(1.0), ops.mul(u, u))


def step_time(rows, vocab, slope):
    lowering.softcap_slope = slope
    torch._dynamo.reset()
    g = torch.Generator(device="cuda").manual_seed(0)
    x = (torch.randn(rows, vocab, device="cuda", generator=g) * 40).bfloat16()
    x.requires_grad_()
    t = torch.randint(0, vocab, (rows,), device="cuda", generator=g)
    fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t, softcap=30.0))
    fn(x, t).backward()
    return do_bench(lambda: fn(x, t).backward(), warmup=25, rep=200)


def main():
    print(torch.cuda.get_device_name(), torch.__version__)
    for rows, vocab in ((16384, 128256), (8192, 256000)):
        times = {"sech2": [], "1-tanh2": []}
        for _ in range(2):
            for name, slope in (("sech2", NEW), ("1-tanh2", old)):
                times[name].append(step_time(rows, vocab, slope))
        floor = 3 * rows * vocab * 2 / 3.0e12 * 1e3   # (at 3 TB/s, for scale only)
        print(f"{rows}x{vocab}: " + ", ".join(
            f"{k} {statistics.median(v):.3f} ms ({v})" for k, v in times.items())
              + f"; 3 passes at 3 TB/s {floor:.3f} ms")
    lowering.softcap_slope = NEW


if __name__ == "__main__":
    main()
