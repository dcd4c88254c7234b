"""GPU time per kernel of an eager "compact" LM-head step, from torch.profiler (NOTES run 49).

    python benchmarks/probes/compact_profile.py [PACKAGE_ROOT]

PACKAGE_ROOT (default: this checkout) is put first on sys.path, so that two copies of the
package can be profiled in turn (an A/B). (8192, 4096, 128256) bf16, every 7th target
ignored; three warm-up steps, then three profiled ones; prints the GPU time per step and the
14 kernels taking the most of it, each with its launches per step.
"""
import os
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else
                os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

import torch  # noqa: E402
from torch.profiler import ProfilerActivity, profile  # noqa: E402

import inductor_ce  # noqa: E402


def main():
    n, d, v = 8192, 4096, 128256
    g = torch.Generator(device="cuda").manual_seed(0)
    h = torch.randn(n, d, device="cuda", generator=g).bfloat16()
    w = (torch.randn(v, d, device="cuda", generator=g) * 0.02).bfloat16()
    t = torch.randint(0, v, (n,), device="cuda", generator=g)
    t[::7] = -100

    def step():
        hh, ww = h.detach().requires_grad_(), w.detach().requires_grad_()
        inductor_ce.linear_cross_entropy(hh, ww, t, policy="compact").backward()

    for _ in range(3):
        step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(3):
            step()
        torch.cuda.synchronize()
    rows = {e.key: (e.device_time_total / 3 / 1000, e.count / 3) for e in p.key_averages()
            if e.device_time_total}
    print(f"{inductor_ce.__file__}: GPU ms per step {sum(r[0] for r in rows.values()):.2f}")
    for key, (ms, count) in sorted(rows.items(), key=lambda kv: -kv[1][0])[:14]:
        print(f"  {ms:8.3f} ms {count:6.1f} x  {key[:110]}")


if __name__ == "__main__":
    main()
