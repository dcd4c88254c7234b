"""The three GEMMs of one row chunk of the fused head at a small budget, timed apart, against
the same work done as one chunk of all rows (x rows / R): where a lean budget's step goes.

    python benchmarks/probes/lean_chunk_gemms.py 4096x2048x151936:216 8192x768x50304:632

T x D x V : R (rows per chunk). do_bench medians, bf16: z = h_r W^T; dh_r = dz W; dW += dz^T
h_r (addmm_ into dW: reads and writes V x D once per chunk, what makes many row chunks cost).
"""
import sys

import torch
from triton.testing import do_bench


def main():
    for spec in sys.argv[1:]:
        shape, r = spec.split(":")
        T, D, V = (int(v) for v in shape.split("x"))
        R = int(r)
        bf = dict(device="cuda", dtype=torch.bfloat16)
        h, w = torch.randn(T, D, **bf), torch.randn(V, D, **bf) * 0.02
        dz, dw = torch.randn(T, V, **bf) * 1e-3, torch.zeros(V, D, **bf)
        k = T / R
        full = [do_bench(lambda: h @ w.t()), do_bench(lambda: dz @ w),
                do_bench(lambda: torch.mm(dz.t(), h, out=dw))]
        hr, dzr = h[:R], dz[:R].contiguous()
        part = [do_bench(lambda: hr @ w.t()), do_bench(lambda: dzr @ w),
                do_bench(lambda: dw.addmm_(dzr.t(), hr))]
        names = ("z", "dh", "dW+=")
        print(f"{spec}: " + ", ".join(
            f"{n} {p:.3f} ms x {k:.1f} = {p * k:.2f} (one chunk of all rows {f:.2f})"
            for n, p, f in zip(names, part, full)), flush=True)


if __name__ == "__main__":
    main()
