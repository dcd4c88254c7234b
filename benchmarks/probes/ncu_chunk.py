"""Run our compiled forward a few times at one shape, for Nsight Compute to profile its chunk
kernel (the kernel that reads the logits once):

    python benchmarks/probes/ncu_chunk.py 16384 151936            # compile, fill Inductor's cache
    ncu --clock-control none --kernel-name regex:triton_unk_fused_ce_fwd_0 --launch-skip 2 \\
        --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \\
        --section Occupancy --section WarpStateStats --section LaunchStats \\
        python benchmarks/probes/ncu_chunk.py 16384 151936
"""
import os
import sys

import torch

# benchmarks/, for bench_ce and kernel_times
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from bench_ce import benchmark_data, ours  # noqa: E402

rows, vocab = int(sys.argv[1]), int(sys.argv[2])
x, t = benchmark_data(rows, vocab)
xg = x.requires_grad_()
fn = torch.compile(ours)
for _ in range(4):
    fn(xg, t)
torch.cuda.synchronize()
