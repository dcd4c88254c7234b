"""The softcap's cost on the GPU, fwd+bwd, eager and compiled, at a few shapes: a probe for
the softcap as a value the kernels read (a 0-d tensor, a scalar argument) against a constant
of their code (the package as it was: run this script with that package first on the path).

    python benchmarks/probes/softcap_value.py [--label after] [--shapes 16384x128256 ...]

bf16 logits of randn * 2, uniform targets, softcap 30; ``triton.testing.do_bench`` medians;
the floor is three passes over the logits at the device-to-device copy bandwidth measured in
the same process. Prints one line per (shape, path).
"""
from __future__ import annotations

import argparse

import torch


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--label", default="")
    p.add_argument("--shapes", nargs="+", default=["16384x128256", "4096x256000", "1024x151936"])
    p.add_argument("--softcap", type=float, default=30.0)
    args = p.parse_args()
    import inductor_ce
    from triton.testing import do_bench
    big = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
    copy_ms = do_bench(lambda: big.clone())
    bandwidth = 2 * big.numel() / copy_ms / 1e9     # TB/s (read + write)
    del big
    print(f"{args.label}: {inductor_ce.__file__}, torch {torch.__version__}, "
          f"{torch.cuda.get_device_name()}, copy {bandwidth:.2f} TB/s")
    for shape in args.shapes:
        rows, vocab = (int(v) for v in shape.split("x"))
        x = (torch.randn(rows, vocab, device="cuda") * 2).bfloat16().requires_grad_()
        t = torch.randint(0, vocab, (rows,), device="cuda")
        floor = 3 * x.numel() * 2 / bandwidth / 1e9
        compiled = torch.compile(lambda x, t: inductor_ce.cross_entropy(x, t,
                                                                        softcap=args.softcap))
        for name, fn in (("eager", lambda: inductor_ce.cross_entropy(x, t, softcap=args.softcap)),
                         ("compiled", lambda: compiled(x, t))):
            def step():
                x.grad = None
                fn().backward()
            step()
            ms = do_bench(step)
            print(f"{args.label} {shape} {name}: {ms:.3f} ms, {ms / floor:.3f}x the floor")
        del x, t


if __name__ == "__main__":
    main()
