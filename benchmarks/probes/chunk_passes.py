"""Two questions about the CE work on a fused head's chunk of logits (R x V bf16), which runs
between the chunk's GEMMs and costs the scalar loss its last 5-20% over them:

1. Does it overlap a cuBLAS GEMM issued on another stream? "gemm" and "ce" alone, then
   both issued on two streams at once ("both"): both ~ max(gemm, ce) means the GPU runs
   them side by side; ~ gemm + ce means one waits for the other.
2. What does a chunk cost whose forward and backward are one kernel per row block, the
   backward's second read of the row served by L2 (two passes over HBM instead of three)?
   "ours" is ``eager/loss.py``'s ``loss_chunk`` (the chunk's loss and its gradient over z:
   ce_fwd's kernels, the finish, ce_bwd); "stock2" is torch.compile of the plain loss and
   its gradient written out by hand (logsumexp, then exp(z - lse) - onehot into z), which
   Inductor lowers as looped reductions (its kernels are counted). Both against the time of
   two and of three passes over the chunk at the copy bandwidth measured in the same run.

    python benchmarks/probes/chunk_passes.py 4096x50304 2048x151936 1024x151936

do_bench medians (ms); chunks as the default budget cuts 8192 x 768 x 50304 and 4096 x 2048 x
151936 (and a smaller one).
"""
import sys

import torch
from triton.testing import do_bench

import inductor_ce  # noqa: F401  (the ops)
from inductor_ce.eager import loss as eager_loss


def stock_two_pass(z, t):
    zf = z.float()
    lse = torch.logsumexp(zf, -1)
    loss = (lse - zf.gather(1, t[:, None]).squeeze(1)).sum()
    p = torch.exp(zf - lse[:, None])
    cols = torch.arange(z.shape[1], device=z.device)
    z.copy_(torch.where(cols[None, :] == t[:, None], p - 1.0, p).to(z.dtype))
    return loss


def main():
    shapes = [tuple(int(v) for v in s.split("x")) for s in sys.argv[1:]] or \
        [(4096, 50304), (2048, 151936)]
    g = torch.ones((), device="cuda")
    compiled = torch.compile(stock_two_pass, dynamic=False)
    for R, V in shapes:
        D = 2048 if V > 100000 else 768
        torch.manual_seed(0)
        z0 = (torch.randn(R, V, device="cuda") * 2).bfloat16()
        z = z0.clone()
        t = torch.randint(0, V, (R,), device="cuda")
        h = torch.randn(R, D, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(V, D, device="cuda", dtype=torch.bfloat16) * 0.02
        out = torch.empty(R, V, device="cuda", dtype=torch.bfloat16)
        copy_ms = do_bench(lambda: out.copy_(z0))      # one read + one write: 2 passes
        pass_ms = copy_ms / 2

        def ours():
            eager_loss.loss_chunk(z, t, None, -100, 0.0, 0.0, None, g)

        def stock2():
            compiled(z, t)

        def gemm():
            torch.mm(h, w.t(), out=out)

        ours(), stock2()
        # exactness of the hand-written one against ours (the same loss, dz within bf16)
        za, zb = z0.clone(), z0.clone()
        la = eager_loss.loss_chunk(za, t, None, -100, 0.0, 0.0, None, g)[0]
        lb = compiled(zb, t)
        err = ((za.float() - zb.float()).abs().max().item(), abs(la.item() - lb.item()))
        from torch._inductor.utils import run_and_get_code
        _, codes = run_and_get_code(compiled, z0.clone(), t)
        kernels = sum(c.count("@triton.jit") for c in codes)

        s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()

        def both():
            cur = torch.cuda.current_stream()
            s1.wait_stream(cur)
            s2.wait_stream(cur)
            with torch.cuda.stream(s1):
                gemm()
            with torch.cuda.stream(s2):
                ours()
            cur.wait_stream(s1)
            cur.wait_stream(s2)

        res = {name: do_bench(fn) for name, fn in
               (("gemm", gemm), ("ours", ours), ("stock2", stock2), ("both", both))}
        print(f"{R}x{V} (D {D}): pass {pass_ms:.3f} ms; ours {res['ours']:.3f} "
              f"({res['ours'] / pass_ms:.2f} passes), stock2 {res['stock2']:.3f} "
              f"({res['stock2'] / pass_ms:.2f} passes, {kernels} kernels; max |dz| diff "
              f"{err[0]:.3g}, loss diff {err[1]:.3g}); gemm {res['gemm']:.3f}, ours on a "
              f"second stream beside it {res['both']:.3f} (sum {res['gemm'] + res['ours']:.3f},"
              f" max {max(res['gemm'], res['ours']):.3f})", flush=True)


if __name__ == "__main__":
    main()
