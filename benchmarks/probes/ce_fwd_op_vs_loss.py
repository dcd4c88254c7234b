"""The ce_fwd op alone on a chunk of logits (as the fused head's per-row path called it)
against the whole eager loss on the same logits, do_bench medians: the op's graph runs four
kernels (the target logit's gather, the chunk kernel, the combine, a fill of the zero
sum_wz), the loss's two. With ``TORCH_LOGS=output_code`` the kernels of each: an entry's
first call compiles it (its code printed on stderr), then its ``=== MARK name`` line follows.

    TORCH_LOGS=output_code python benchmarks/probes/ce_fwd_op_vs_loss.py 2> code.txt
"""
import os
import sys

import torch
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402


def bench(name, fn):
    fn()
    torch.cuda.synchronize()
    print(f"=== MARK {name}", file=sys.stderr, flush=True)
    ms = do_bench(fn, warmup=25, rep=200, return_mode="median")
    print(f"{name:40s} {ms:.3f} ms", flush=True)


def main():
    T, V = 2048, 151936
    g = torch.Generator(device="cuda").manual_seed(0)
    z = (torch.randn(T, V, device="cuda", generator=g) * 2).to(torch.bfloat16)
    y = torch.randint(0, V, (T,), device="cuda", generator=g)
    fwd = torch.ops.inductor_ce.ce_fwd
    bench("ce_fwd op ignore -1", lambda: fwd(z, y, None, -1, None, False))
    bench("ce_fwd op ignore -100", lambda: fwd(z, y, None, -100, None, False))
    bench("ce_fwd op int32 target", lambda: fwd(z, y.int(), None, -1, None, False))
    bench("cross_entropy none", lambda: inductor_ce.cross_entropy(z, y, reduction="none"))
    bench("cross_entropy mean", lambda: inductor_ce.cross_entropy(z, y))
    z2, y2 = z[:1024], y[:1024]
    bench("ce_fwd op 1024 rows", lambda: fwd(z2, y2, None, -1, None, False))
    z3 = (torch.randn(4096, 50304, device="cuda", generator=g) * 2).to(torch.bfloat16)
    y3 = torch.randint(0, 50304, (4096,), device="cuda")
    bench("ce_fwd op 4096x50304", lambda: fwd(z3, y3, None, -1, None, False))
    bench("cross_entropy none 4096x50304",
          lambda: inductor_ce.cross_entropy(z3, y3, reduction="none"))


if __name__ == "__main__":
    main()
