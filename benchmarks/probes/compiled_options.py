"""What torch.compile does with a ``label_smoothing``, ``z_loss`` or ``softcap`` new every
call, passed as a Python float and as a 0-d tensor: graphs compiled (recompiles), graph
breaks, each loss against ``F.cross_entropy`` in float64 (label_smoothing only), on the CPU.

    python benchmarks/probes/compiled_options.py [inductor|eager] [label_smoothing|z_loss|softcap] [dynamic]

The first argument is the backend (default ``eager``: Dynamo alone, fast; ``inductor``
lowers each graph, seconds per compile); ``dynamic``: ``torch.compile(dynamic=True)``. Five
calls per kind, 8 x 64 float32 logits (a tensor softcap is refused: the op takes a float).
"""
from __future__ import annotations

import os
import sys
import time

import torch
import torch.nn.functional as F
from torch._dynamo.utils import counters

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import inductor_ce  # noqa: E402


def main():
    backend_name = sys.argv[1] if len(sys.argv) > 1 else "eager"
    option = sys.argv[2] if len(sys.argv) > 2 else "label_smoothing"
    dynamic = True if sys.argv[3:] == ["dynamic"] else None
    graphs = 0

    def backend(gm, example_inputs):
        nonlocal graphs
        graphs += 1
        if backend_name == "eager":
            return gm.forward
        from torch._inductor.compile_fx import compile_fx
        return compile_fx(gm, example_inputs)

    x = torch.randn(8, 64, requires_grad=True)
    t = torch.randint(0, 64, (8,))
    print(torch.__version__, backend_name, option, "dynamic=True" if dynamic else "")
    for kind in ("float", "tensor"):
        torch._dynamo.reset()
        graphs = 0
        counters.clear()
        fn = torch.compile(lambda x, t, s: inductor_ce.cross_entropy(x, t, **{option: s}),
                           backend=backend, dynamic=dynamic)
        print(kind)
        for i in range(5):
            value = {"label_smoothing": 0.1 * (i + 1) / 5, "z_loss": 1e-3 * (i + 1),
                     "softcap": 2.0 + i}[option]
            s = value if kind == "float" else torch.tensor(value)
            start = time.perf_counter()
            try:
                loss = fn(x, t, s)
                loss.backward()
                err = ""
                if option == "label_smoothing":
                    ref = F.cross_entropy(x.double(), t, label_smoothing=value)
                    err = f" err {abs(loss.item() - ref.item()):.1e}"
                print(f"  call {i}: graphs so far {graphs}{err} "
                      f"{time.perf_counter() - start:.2f}s")
            except Exception as e:  # noqa: BLE001 - reported
                print(f"  call {i}: {type(e).__name__}: {str(e)[:200]}")
        print(f"  graph breaks: {sum(counters['graph_break'].values())}")


if __name__ == "__main__":
    main()
