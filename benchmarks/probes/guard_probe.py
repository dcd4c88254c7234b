"""What Dynamo's guard check costs per call of a compiled function, on the CPU (no GPU needed):
the compiled forward timed with its guards evaluated and skipped
(``torch.compiler.set_stance(skip_guard_eval_unsafe=True)``), ours and stock taking turns, and
the number of guards in each one's tree (NOTES run 29).

    python benchmarks/probes/guard_probe.py [--package DIR]
        ours (DIR: the directory of another inductor_ce) against stock
    python benchmarks/probes/guard_probe.py --synthetic 0 20 40
        a compiled function reading N module constants

Minimum over 30 blocks of 500 calls, 8 x 64 float32 CPU logits; with grad (as in training).
"""
from __future__ import annotations

import argparse
import sys
import time
import types

import torch
import torch.nn.functional as F


def _best_us(fn, args, blocks: int = 30, calls: int = 500) -> float:
    best = float("inf")
    for _ in range(blocks):
        start = time.perf_counter()
        for _ in range(calls):
            fn(*args)
        best = min(best, (time.perf_counter() - start) / calls * 1e6)
    return best


def _guard_tree(fn) -> str:
    # Dynamo's private API, read here directly rather than through inductor_ce._inductor so
    # that --package can point at a version of the package without that helper.
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    return str(_debug_get_cache_entry_list(fn.__code__)[0].guard_manager)


def guard_cost(fns: dict, args) -> dict:
    """name -> (call us with guards, call us without, number of guards)."""
    compiled = {name: torch.compile(fn) for name, fn in fns.items()}
    for c in compiled.values():
        for _ in range(20):
            c(*args)
    out = {}
    for name, c in compiled.items():
        with_guards = _best_us(c, args)
        with torch.compiler.set_stance("default", skip_guard_eval_unsafe=True):
            without = _best_us(c, args)
        tree = _guard_tree(fns[name])
        n = sum(1 for line in tree.splitlines() if "+-" in line and "GuardManager" not in line)
        out[name] = (with_guards, without, n)
    return out


def synthetic(n: int) -> tuple[float, float]:
    """A compiled x * 2 that also reads n float constants of a module."""
    module = types.ModuleType("constants")
    for i in range(n):
        setattr(module, f"c{i}", i + 0.5)
    src = "def fn(x):\n    y = 0.0\n" + "".join(f"    y = y + m.c{i}\n" for i in range(n))
    src += "    return x * 2 + y\n"
    namespace = {"m": module}
    exec(src, namespace)
    c = torch.compile(namespace["fn"])
    x = torch.randn(8)
    for _ in range(10):
        c(x)
    with_guards = _best_us(c, (x,), blocks=15, calls=2000)
    with torch.compiler.set_stance("default", skip_guard_eval_unsafe=True):
        without = _best_us(c, (x,), blocks=15, calls=2000)
    return with_guards, without


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--package", help="directory holding the inductor_ce to measure")
    p.add_argument("--synthetic", nargs="*", type=int)
    args = p.parse_args()
    if args.synthetic is not None:
        for n in args.synthetic:
            w, wo = synthetic(n)
            print(f"{n:3d} module constants read: call {w:.2f} us, guards skipped {wo:.2f} us, "
                  f"guards {w - wo:.2f} us")
        return
    if args.package:
        sys.path.insert(0, args.package)
    import inductor_ce

    def ours(x, t):
        return inductor_ce.cross_entropy(x, t)

    def stock(x, t):
        return F.cross_entropy(x.float(), t)

    x = torch.randn(8, 64, requires_grad=True)
    t = torch.randint(0, 64, (8,))
    print(f"inductor_ce from {inductor_ce.__file__}, torch {torch.__version__}")
    for name, (w, wo, n) in guard_cost({"ours": ours, "stock": stock}, (x, t)).items():
        print(f"{name:5s} forward call {w:.1f} us, guards skipped {wo:.1f} us: guard check "
              f"{w - wo:.1f} us, {n} guards")


if __name__ == "__main__":
    main()
