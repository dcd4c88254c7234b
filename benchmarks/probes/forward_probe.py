"""The compiled forward, four ways, ours and stock: do_bench of the call, the host's time per
call (wall clock, no synchronization), the profiler's GPU time of its kernels, and do_bench of
a CUDA-graph replay of the same compiled forward (what the GPU alone takes, launch gaps
included). Tells a host-bound forward from a GPU-bound one.

    python benchmarks/probes/forward_probe.py 4096x151936 16384x128256
"""
import os
import sys
import time

import torch
from triton.testing import do_bench

# benchmarks/, for bench_ce and kernel_times
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from bench_ce import benchmark_data, copy_bandwidth, ours, stock  # noqa: E402
from kernel_times import gpu_times  # noqa: E402


def probe(fn, x, t, floor: float) -> str:
    xg = x.clone().requires_grad_()
    fn(xg, t).backward()  # compile
    xg.grad = None
    fwd = do_bench(lambda: fn(xg, t), warmup=25, rep=200, return_mode="median")
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(200):
        fn(xg, t)
    host = (time.perf_counter() - start) / 200 * 1e3
    kernels = gpu_times(lambda: fn(xg, t), 20)
    gpu = sum(kernels.values())
    graph = torch.cuda.CUDAGraph()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm on a side stream before capture, as CUDA graphs need
        for _ in range(3):
            fn(xg, t)
    torch.cuda.current_stream().wait_stream(side)
    with torch.cuda.graph(graph):
        fn(xg, t)
    replay = do_bench(graph.replay, warmup=25, rep=200, return_mode="median")
    short = {k[:40]: round(v, 4) for k, v in kernels.items()}
    return (f"fwd do_bench {fwd:.4f} ms ({fwd / floor:.3f}x the read floor {floor:.4f}); host "
            f"{host:.4f} ms/call; GPU kernels {gpu:.4f} ms ({gpu / floor:.3f}x) {short}; "
            f"graph replay {replay:.4f} ms ({replay / floor:.3f}x)")


def main():
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw / 1e12:.3f} TB/s")
    for spec in sys.argv[1:]:
        T, V = map(int, spec.split("x"))
        x, t = benchmark_data(T, V)
        for name, loss in (("ours", ours), ("stock", stock)):
            torch._dynamo.reset()
            print(f"{spec} {name:5s} {probe(torch.compile(loss), x, t, T * V * 2 / bw * 1e3)}")


if __name__ == "__main__":
    main()
