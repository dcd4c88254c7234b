"""One compiled forward of inductor_ce and of the hand-written reference, for Nsight Compute.

    ncu --clock-control none --kernel-name regex:'triton_unk_fused_ce_fwd|_chunk_stats' \
        --launch-skip 2 --launch-count 2 --section SpeedOfLight \
        python benchmarks/probes/profile_fwd.py 16384 128256

(the chunk kernel has a fixed launch, hence Inductor's ``triton_unk_`` prefix)
"""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))  # benchmarks/, for bench_ce
sys.path.insert(0, os.path.join(HERE, "..", ".."))  # the repository, for inductor_ce
import inductor_ce  # noqa: E402
from bench_ce import triton_ref_forward  # noqa: E402

T, V = int(sys.argv[1]), int(sys.argv[2])
x = (torch.randn(T, V, device="cuda") * 2).to(torch.bfloat16)
t = torch.randint(0, V, (T,), device="cuda")
fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t))
for _ in range(3):  # compile + autotune, then the launches ncu profiles
    fn(x, t)
    triton_ref_forward(x, t)
torch.cuda.synchronize()
