"""First-call latency of the eager path, cold and warm, and no recompilation across rows.

    python benchmarks/eager_latency.py [--shape 16384x128256] [--device cuda]

Runs the same child process twice with one fresh Inductor cache directory: the first child
compiles everything (cold: Inductor's FX-graph and kernel caches empty), the second finds
them on disk (warm: a new process, as after a restart). Each child times its first eager
``cross_entropy(x, t).backward()`` (imports excluded), then calls it at other row counts and
reports how many graphs the eager path compiled.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import json, sys, time, torch
import inductor_ce
from inductor_ce.eager import kernels as eager
T, V, device = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
dtype = torch.bfloat16 if device == "cuda" else torch.float32
x = (torch.randn(T, V, device=device) * 2).to(dtype).requires_grad_()
t = torch.randint(0, V, (T,), device=device)
sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
start = time.perf_counter()
inductor_ce.cross_entropy(x, t).backward()
sync()
first = time.perf_counter() - start
after_first = eager.compiles
for rows in (T // 2 + 1, T // 4 + 3, T):
    inductor_ce.cross_entropy(x[:rows], t[:rows]).backward()
sync()
print(json.dumps(dict(first_call_s=first, compiles_first=after_first,
                      compiles_after_other_rows=eager.compiles - after_first)))
"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shape", default="16384x128256")
    p.add_argument("--device", default="cuda")
    args = p.parse_args()
    T, V = args.shape.split("x")
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache, PYTHONPATH=root,
                   TRITON_CACHE_DIR=os.path.join(cache, "triton"))
        out = {}
        for run in ("cold", "warm"):
            res = subprocess.run([sys.executable, "-c", CHILD, T, V, args.device], env=env,
                                 capture_output=True, text=True, timeout=600)
            if res.returncode:
                raise SystemExit(res.stderr[-3000:])
            out[run] = json.loads(res.stdout.strip().splitlines()[-1])
    print(json.dumps(dict(shape=args.shape, device=args.device, **out), indent=1))


if __name__ == "__main__":
    main()
