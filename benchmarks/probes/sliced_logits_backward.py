"""The compiled backward of cross_entropy(logits[:, :-1], target) (shifted logits) against
the same loss over the whole logits with the last target ignored, and stock: the backward
module's kernel count and the fwd+bwd time (bf16, 4 x 2049 x 128256, one CUDA GPU)."""
import torch, inductor_ce, triton
from torch._inductor.utils import run_and_get_code
import torch.nn.functional as F
B, T, V = 4, 2049, 128256
x = (torch.randn(B, T, V, device="cuda") * 2).to(torch.bfloat16).requires_grad_()
t = torch.randint(0, V, (B, T - 1), device="cuda")
def step_slice(x, t):
    return inductor_ce.cross_entropy(x[:, :-1], t)
def step_full(x, t):
    return inductor_ce.cross_entropy(x, torch.nn.functional.pad(t, (0, 1), value=-100))
def stock_slice(x, t):
    return F.cross_entropy(x[:, :-1].float().flatten(0, 1), t.flatten())
for name, fn in [("ours slice", step_slice), ("ours full", step_full),
                 ("stock slice", stock_slice)]:
    torch._dynamo.reset()
    c = torch.compile(fn)
    def run():
        x.grad = None
        c(x, t).backward()
    _, codes = run_and_get_code(run)
    bwd = codes[-1]
    kernels = bwd.count("@triton.jit")
    ms = triton.testing.do_bench(run, warmup=10, rep=100, return_mode="median")
    print(f"{name}: bwd module kernels {kernels}, fwd+bwd {ms:.3f} ms", flush=True)
    if name == "ours slice":
        i = bwd.find("def call(")
        print(bwd[i:i+2500])
