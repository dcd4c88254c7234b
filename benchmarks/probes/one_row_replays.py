"""Whether a one-row and a three-row eager call on CUDA replay their CUDA graphs (the
replay counters after 10 steps), and their time per step (200 steps back to back, and
do_bench).

    python benchmarks/probes/one_row_replays.py
"""
import torch, inductor_ce, time
from inductor_ce.eager import loss as L
from triton.testing import do_bench
V=128256
for rows in (1,3):
    x=(torch.randn(rows,V,device="cuda")*2).bfloat16().requires_grad_(); t=torch.randint(0,V,(rows,),device="cuda")
    def step():
        inductor_ce.cross_entropy(x,t).backward(); x.grad=None
    for _ in range(5): step()
    r0={id(k):(v.replayed, v.copies) for k,v in L._REPLAYS.items()}
    for _ in range(10): step()
    torch.cuda.synchronize()
    print(rows, "replays after 10 steps:", [(v.copies, v.replayed - r0.get(id(k),(0,))[0]) for k,v in L._REPLAYS.items()])
    torch.cuda.synchronize(); t0=time.perf_counter()
    for _ in range(200): step()
    torch.cuda.synchronize(); print(rows, "host+gpu per step us", (time.perf_counter()-t0)/200*1e6, "do_bench", do_bench(step))
