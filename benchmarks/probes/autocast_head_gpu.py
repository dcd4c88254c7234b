"""The fused head under bf16 autocast with float32 parameters (a Trainer's bf16=True): step
time, peak memory and dW's error, for the version of the package on PYTHONPATH (run it for
two versions in turns, as linear_ab.py), beside the unfused autocast step.

    PYTHONPATH=old python benchmarks/probes/autocast_head_gpu.py old 8192x4096x151936 ...
    python benchmarks/probes/autocast_head_gpu.py new 8192x4096x151936 ...

Per shape TxDxV (float32 h and W, every 7th target ignored): forward + backward of the mean
loss and of per-token losses (``.sum()``), do_bench medians, x the three bf16 GEMMs; the peak
of the step beyond its inputs (GiB); and, at 2048 x D x V (``--errors``), dW's relative error
against float64 of the bf16-rounded operands at the default budget and at 64 row chunks, with
the unfused step's (``F.cross_entropy(F.linear(h, W), t)`` under the same autocast).
"""
import sys

import torch
import torch.nn.functional as F
from triton.testing import do_bench

import inductor_ce   # the version on PYTHONPATH


def data(T, D, V, seed=0):
    g = torch.Generator(device="cuda").manual_seed(seed)
    h = torch.randn(T, D, device="cuda", generator=g).requires_grad_()
    w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).requires_grad_()
    y = torch.randint(0, V, (T,), device="cuda", generator=g)
    y[::7] = -100
    return h, w, y


def step(fn, h, w):
    h.grad = w.grad = None
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = fn()
    loss.sum().backward()


def gemms_ms(T, D, V):
    a = torch.randn(T, D, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(V, D, device="cuda", dtype=torch.bfloat16)
    z = torch.randn(T, V, device="cuda", dtype=torch.bfloat16)
    return (do_bench(lambda: a @ b.t()) + do_bench(lambda: z @ b)
            + do_bench(lambda: z.t() @ a))


def dw_error(fn, h, w, ref):
    step(fn, h, w)
    return ((w.grad.double() - ref).norm() / ref.norm()).item()


def main():
    label, shapes = sys.argv[1], [s for s in sys.argv[2:] if "x" in s]
    for shape in shapes:
        T, D, V = map(int, shape.split("x"))
        h, w, y = data(T, D, V)
        three = gemms_ms(T, D, V)
        out = [f"{label} {shape}: 3 GEMMs {three:.3f} ms"]
        for name, red in (("mean", "mean"), ("none", "none")):
            fn = (lambda red=red: inductor_ce.linear_cross_entropy(h, w, y, reduction=red))
            step(fn, h, w)
            torch.cuda.synchronize()
            base = torch.cuda.memory_allocated()
            torch.cuda.reset_peak_memory_stats()
            step(fn, h, w)
            peak = (torch.cuda.max_memory_allocated() - base) / 2**30
            ms = do_bench(lambda: step(fn, h, w))
            out.append(f"{name} {ms:.3f} ms ({ms / three:.3f}x) peak +{peak:.2f} GiB")
        print("  ".join(out), flush=True)
        del h, w, y
        torch.cuda.empty_cache()
        # dW's error at 2048 rows: one chunk (the default) and 64 chunks of 32 rows
        h, w, y = data(2048, D, V, seed=1)
        h64, w64 = (x.detach().bfloat16().double().requires_grad_() for x in (h, w))
        F.cross_entropy(F.linear(h64, w64), y).backward()
        ref = w64.grad
        del h64, w64
        errs = [dw_error(lambda: F.cross_entropy(F.linear(h, w), y), h, w, ref)]
        for budget in (None, 32 * V * 2):
            errs.append(dw_error(lambda b=budget: inductor_ce.linear_cross_entropy(
                h, w, y, memory_budget=b), h, w, ref))
        print(f"{label} {shape}: dW rel. error at 2048 rows: unfused {errs[0]:.3e}, "
              f"one chunk {errs[1]:.3e}, 64 chunks {errs[2]:.3e}", flush=True)
        del h, w, y, ref
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
