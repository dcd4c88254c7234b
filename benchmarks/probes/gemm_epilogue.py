"""What the CE statistics in a GEMM's epilogue would cost: the no-gradient fused head
(per-row lse and target logit of h @ W.T) as one Triton GEMM that never writes the logits,
against cuBLAS's GEMM and the same Triton GEMM writing them.

    python benchmarks/probes/gemm_epilogue.py [--shapes 8192x768x50304 4096x2048x151936]
        [--check]   (on the CPU, in Triton's interpreter: small shapes, against float64)

Per shape (bf16 h (T, D), W (V, D)), do_bench medians in one process, each x cuBLAS's
``h @ W.T``:
- ``triton gemm``: the kernel below writing z (bf16), the best of a few tile configs: what
  Triton's own GEMM reaches against cuBLAS on this GPU;
- ``triton gemm+stats``: the same tiles, z never written; the epilogue takes each row's
  max and sum of exp over the tile's columns (the target's column left out, as ce_fwd's
  lse_nt) and the target logit: per (row, column tile) partials, combined afterwards by a
  few torch ops (timed with it). This is the no-gradient call with the CE math in the GEMM;
- ``ours nograd``: ``linear_cross_entropy(reduction="none")`` under no_grad (cuBLAS GEMMs by
  row chunks, then ce_fwd's pass over each chunk).

The epilogue is not overlapped with the next tile's main loop (no warp specialization):
it adds its exp and compare work to each tile. Why that matters (sm_90 issue rates): a
logit costs the GEMM 2D flops at ~4096 dense bf16 flops per SM per clock, D / 2048 clocks
per SM; its exp costs 1/16 clock per SM (16 MUFU ex2 per SM per clock) and ~10 other
instructions 10/128: ~0.14 clocks, 37% of the GEMM at D = 768 and 14% at D = 2048 unless
they overlap with the tensor cores.
"""
from __future__ import annotations

import argparse
import os
import sys

import torch

if "--check" in sys.argv and not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")   # (read as the kernels below are made)
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

@triton.jit
def _stats(acc, rm, rn, pid_n, t_ptr, m_ptr, s_ptr, zt_ptr, M, N, n_tiles_n,
           BN: tl.constexpr):
    """The epilogue: the tile's (rows BM, columns BN) float32 logits ``acc`` reduced to each
    row's max m and sum of exp(z - m) over the tile's columns but the target's (ce_fwd's
    lse_nt, by tiles that combine like chunks), and the target logit, stored by the one tile
    holding it."""
    t = tl.load(t_ptr + rm, mask=rm < M, other=-1)
    is_t = rn[None, :] == t[:, None]
    zt = tl.sum(tl.where(is_t, acc, 0.0), 1)
    here = (t >= pid_n * BN) & (t < pid_n * BN + BN) & (rm < M)
    tl.store(zt_ptr + rm, zt, mask=here)
    x = tl.where(is_t | (rn[None, :] >= N), float("-inf"), acc)
    m = tl.max(x, 1)
    m_safe = tl.where(m == float("-inf"), 0.0, m)
    s = tl.sum(tl.exp2((x - m_safe[:, None]) * 1.4426950408889634), 1)
    out = rm.to(tl.int64) * n_tiles_n + pid_n
    tl.store(m_ptr + out, m, mask=rm < M)
    tl.store(s_ptr + out, s, mask=rm < M)


@triton.jit
def _gemm(h_ptr, w_ptr, t_ptr, z_ptr, m_ptr, s_ptr, zt_ptr, M, N, K, n_tiles_n,
          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
          STATS: tl.constexpr):
    pid = tl.program_id(0)
    n_tiles_m = tl.cdiv(M, BM)
    per_group = GROUP_M * n_tiles_n
    group = pid // per_group
    first_m = group * GROUP_M
    size_m = min(n_tiles_m - first_m, GROUP_M)
    pid_m = first_m + (pid % per_group) % size_m
    pid_n = (pid % per_group) // size_m
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = h_ptr + rm[:, None].to(tl.int64) * K + rk[None, :]
    b_ptrs = w_ptr + rn[:, None].to(tl.int64) * K + rk[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kmask = rk[None, :] < K - k * BK
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & kmask, other=0.0)
        b = tl.load(b_ptrs, mask=(rn[:, None] < N) & kmask, other=0.0)
        acc = tl.dot(a, tl.trans(b), acc)
        a_ptrs += BK
        b_ptrs += BK
    if STATS:
        _stats(acc, rm, rn, pid_n, t_ptr, m_ptr, s_ptr, zt_ptr, M, N, n_tiles_n, BN)
    else:
        z_ptrs = z_ptr + rm[:, None].to(tl.int64) * N + rn[None, :]
        tl.store(z_ptrs, acc.to(z_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def _gemm_tma(a_desc, b_desc, z_desc, t_ptr, m_ptr, s_ptr, zt_ptr, M, N, K, n_tiles_n,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
              STATS: tl.constexpr, NUM_SMS: tl.constexpr):
    """``_gemm`` persistent (one program per SM, tiles in turn) with TMA loads (tensor
    descriptors), as Triton's Hopper matmul tutorial: the loads Hopper's tensor cores want."""
    start = tl.program_id(0)
    n_tiles_m = tl.cdiv(M, BM)
    n_tiles = n_tiles_m * n_tiles_n
    k_tiles = tl.cdiv(K, BK)
    per_group = GROUP_M * n_tiles_n
    for tile in tl.range(start, n_tiles, NUM_SMS, flatten=True):
        group = tile // per_group
        first_m = group * GROUP_M
        size_m = min(n_tiles_m - first_m, GROUP_M)
        pid_m = first_m + (tile % per_group) % size_m
        pid_n = (tile % per_group) // size_m
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([pid_m * BM, ki * BK])
            b = b_desc.load([pid_n * BN, ki * BK])
            acc = tl.dot(a, b.T, acc)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        if STATS:
            _stats(acc, rm, rn, pid_n, t_ptr, m_ptr, s_ptr, zt_ptr, M, N, n_tiles_n, BN)
        else:
            z_desc.store([pid_m * BM, pid_n * BN], acc.to(z_desc.dtype))


# (BM, BN, BK, stages, warps): Hopper wgmma tiles of the kind Triton's tutorials use
CONFIGS = [(128, 256, 64, 3, 8), (128, 128, 64, 4, 4), (128, 128, 64, 4, 8), (256, 128, 64, 3, 8),
           (128, 256, 64, 4, 8)]


def run(h, w, t, config, stats: bool, tma: bool = False):
    """(z) or (lse_nt, z_t) per row, by the kernel with ``config`` (``tma``: ``_gemm_tma``)."""
    BM, BN, BK, stages, warps = config
    M, K = h.shape
    N = w.shape[0]
    tiles_n = triton.cdiv(N, BN)
    z = h.new_empty(0) if stats else torch.empty(M, N, device=h.device, dtype=h.dtype)
    m = torch.empty(M, tiles_n if stats else 0, device=h.device, dtype=torch.float32)
    s = torch.empty_like(m)
    zt = torch.full((M if stats else 0,), float("nan"), device=h.device, dtype=torch.float32)
    if tma:
        from triton.tools.tensor_descriptor import TensorDescriptor
        sms = torch.cuda.get_device_properties(h.device).multi_processor_count \
            if h.is_cuda else 4
        z_desc = TensorDescriptor.from_tensor(h if stats else z, [BM, BN])
        grid = (min(sms, triton.cdiv(M, BM) * tiles_n),)
        _gemm_tma[grid](TensorDescriptor.from_tensor(h, [BM, BK]),
                        TensorDescriptor.from_tensor(w, [BN, BK]), z_desc, t, m, s, zt, M, N,
                        K, tiles_n, BM=BM, BN=BN, BK=BK, GROUP_M=8, STATS=stats,
                        NUM_SMS=grid[0], num_stages=stages, num_warps=warps)
    else:
        grid = (triton.cdiv(M, BM) * tiles_n,)
        _gemm[grid](h, w, t, z, m, s, zt, M, N, K, tiles_n, BM=BM, BN=BN, BK=BK, GROUP_M=8,
                    STATS=stats, num_stages=stages, num_warps=warps)
    if not stats:
        return z
    top = m.amax(1, keepdim=True)
    top = torch.where(top == float("-inf"), 0.0, top)
    lse_nt = top.squeeze(1) + torch.log((s * torch.exp(m - top)).sum(1))
    return lse_nt, zt


def reference(h, w, t):
    z = h.double() @ w.double().t()
    zt = z.gather(1, t[:, None]).squeeze(1)
    lse_nt = z.scatter(1, t[:, None], float("-inf")).logsumexp(1)
    return z, lse_nt, zt


def check():
    """Small shapes (ragged tiles, K not a multiple of BK) against float64, in float32 (the
    interpreter's tl.dot of bf16 returns garbage; the kernel is the same for any dtype)."""
    torch.manual_seed(0)
    for M, K, N in ((70, 40, 300), (129, 64, 260)):   # (TMA: rows of 16-byte multiples)
        h = torch.randn(M, K)
        w = torch.randn(N, K) * 0.3
        t = torch.randint(0, N, (M,))
        z64, lse64, zt64 = reference(h, w, t)
        config = (32, 64, 16, 1, 4)
        for tma in (False, True):
            z = run(h, w, t, config, False, tma)
            lse_nt, zt = run(h, w, t, config, True, tma)
            torch.testing.assert_close(z.double(), z64, rtol=1e-5, atol=1e-5)
            torch.testing.assert_close(lse_nt.double(), lse64, rtol=1e-5, atol=1e-5)
            torch.testing.assert_close(zt.double(), zt64, rtol=1e-5, atol=1e-5)
            print(f"check {M}x{K}x{N}{' tma' if tma else ''}: z, lse_nt, z_t as float64's")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shapes", nargs="+", default=["8192x768x50304", "4096x2048x151936"])
    p.add_argument("--check", action="store_true")
    args = p.parse_args()
    if args.check:
        check()
        return
    from triton.testing import do_bench
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    import inductor_ce
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton "
          f"{triton.__version__}; do_bench medians, x cuBLAS h @ W.T")
    for spec in args.shapes:
        T, D, V = (int(v) for v in spec.split("x"))
        g = torch.Generator(device="cuda").manual_seed(0)
        h = torch.randn(T, D, device="cuda", generator=g).to(torch.bfloat16)
        w = (torch.randn(V, D, device="cuda", generator=g) * 0.02).to(torch.bfloat16)
        t = torch.randint(0, V, (T,), device="cuda", generator=g)
        cublas = do_bench(lambda: h @ w.t(), warmup=25, rep=200, return_mode="median")
        z_ref = (h @ w.t()).float()
        lse_ref = z_ref.scatter(1, t[:, None], float("-inf")).logsumexp(1)
        del z_ref
        best = {}
        for config, tma, stats in ((c, tma, st) for c in CONFIGS for tma in (False, True)
                                   for st in (False, True)):
            name = f"triton{' tma' if tma else ''} gemm{'+stats' if stats else ''}"
            try:
                out = run(h, w, t, config, stats, tma)
                if stats:
                    err = ((out[0] - lse_ref).abs() / lse_ref.abs()).max().item()
                    assert err < 1e-3, err
                del out
                ms = do_bench(lambda: run(h, w, t, config, stats, tma), warmup=25, rep=200,
                              return_mode="median")
            except Exception as e:  # noqa: BLE001  (a config out of shared memory)
                print(f"  {spec} {config} {name}: {type(e).__name__} {str(e)[:80]}")
                continue
            print(f"  {spec} {config} {name}: {ms:.3f} ms ({ms / cublas:.3f}x)")
            if name not in best or ms < best[name][0]:
                best[name] = (ms, config)

        def ours():
            with torch.no_grad():
                inductor_ce.linear_cross_entropy(h, w, t, reduction="none")
        ours_ms = do_bench(ours, warmup=25, rep=200, return_mode="median")
        print(f"{spec}: cuBLAS {cublas:.3f} ms; " + "; ".join(
            f"{k} {ms:.3f} ms ({ms / cublas:.3f}x, {c})" for k, (ms, c) in best.items()) +
            f"; ours nograd {ours_ms:.3f} ms ({ours_ms / cublas:.3f}x)")


if __name__ == "__main__":
    main()
