"""What the NaN-propagating max costs our forward: the same compiled forward timed with
Inductor's ``triton_helpers.max2`` as shipped (NaN-propagating: compare, NaN test, select per
element) and replaced by ``tl.max`` (hardware max, one instruction). This measured run 8
(benchmarks/NOTES.md). Since run 15 the chunk kernel emits ``tl.max`` itself (a nan still
reaches the loss through the sum of exps), so the patch now changes only the combine kernel.

    python benchmarks/probe_max.py 16384 128256
"""
import os
import sys

import torch
import triton
import triton.language as tl
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import inductor_ce  # noqa: E402
import torch._inductor.config as inductor_config  # noqa: E402
from torch._inductor.runtime import triton_helpers  # noqa: E402


@triton.jit
def _plain_max2(a, dim: tl.constexpr):
    return tl.max(a, dim)


def forward_ms(x, t):
    torch._dynamo.reset()
    # a recompile of the same source would reuse the loaded module and its compiled binary
    from torch._inductor import async_compile, codecache
    for cache in (getattr(codecache, "PyCodeCache", None),
                  getattr(async_compile, "CompiledTritonKernels", None)):
        if cache is not None and hasattr(cache, "cache_clear"):
            cache.cache_clear()
    fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t))
    fn(x, t)
    return do_bench(lambda: fn(x, t), warmup=25, rep=200, return_mode="median")


def main():
    T, V = int(sys.argv[1]), int(sys.argv[2])
    x = (torch.randn(T, V, device="cuda") * 2).to(torch.bfloat16)
    t = torch.randint(0, V, (T,), device="cuda")
    # in-process compiles and no caches, so the patched helper is what gets compiled
    inductor_config.compile_threads = 1
    inductor_config.fx_graph_cache = False
    shipped = triton_helpers.max2
    a = forward_ms(x, t)
    triton_helpers.max2 = _plain_max2
    try:
        b = forward_ms(x, t)
    finally:
        triton_helpers.max2 = shipped
    c = forward_ms(x, t)
    print(f"{T}x{V} bf16 forward: NaN-propagating max {a:.3f} ms, plain max {b:.3f} ms, "
          f"shipped again {c:.3f} ms")


if __name__ == "__main__":
    main()
