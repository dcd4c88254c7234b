"""The main demo: ``python -m inductor_ce.demo`` (CPU, under 3 minutes on 2 cores).

Part 1, numerics: a confident-target batch (float32 logits, V = 32000, target logit = max of
the others + margin). Our loss and target gradient against a collapse-safe float64 reference,
softplus(logsumexp_{j != t} z_j - z_t), and against stock F.cross_entropy, which returns
exactly 0 from a margin of about 17 on.

Part 2, a real model: a few training steps of a small GPT (``inductor_ce.gpt``) whose loss
is the usual ``F.cross_entropy(logits.float()[..., :-1, :].view(-1, V), ...)``, compiled
twice from the same weights: stock ``torch.compile``, and ``torch.compile`` after
``inductor_ce.enable()``. Shows that the loss curves agree, how many times each forward
reads the logits (counted in the generated code), and with ``--device cuda`` the time of a
training step and its peak memory above the weights and optimizer state. Writes a PNG of the
loss curves when matplotlib is installed.
"""
from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time

import torch
import torch.nn.functional as F

import inductor_ce
from inductor_ce import _codegen, gpt
from inductor_ce._inductor import capture

MARGINS = (0.0, 20.0, 30.0, 50.0)
VOCAB = 32000
RUNS = (("stock torch.compile", False), ("inductor_ce.enable()", True))

# Part 2 sizes: the CPU ones keep the whole demo under 3 minutes on 2 cores (most of it is
# compiling); on a GPU, a GPT-2-small-like width and vocabulary with bf16 autocast.
SIZES = {
    "cpu": dict(cfg=gpt.GPTConfig(vocab_size=8192, block_size=64, n_layer=2, n_head=4,
                                  n_embd=64), batch=8, steps=20, amp=False),
    "cuda": dict(cfg=gpt.GPTConfig(vocab_size=50304, block_size=1024, n_layer=4, n_head=12,
                                   n_embd=768), batch=8, steps=30, amp=True),
}


# --- part 1 -----------------------------------------------------------------------------------

def confident_batch(margins=MARGINS, vocab=VOCAB, seed=0):
    """float32 logits (one row per margin) and targets: z_t = max_{j != t} z_j + margin."""
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(len(margins), vocab, generator=g) * 2
    target = torch.randint(0, vocab, (len(margins),), generator=g)
    rows = torch.arange(len(margins))
    others = logits.clone()
    others[rows, target] = float("-inf")
    logits[rows, target] = others.amax(-1) + torch.tensor(margins)
    return logits, target


def reference64(logits, target):
    """Collapse-safe float64 per-row loss and d loss / d z_t: softplus(lse_nt - z_t) and
    -sigmoid(lse_nt - z_t) (= -(1 - p_t), the non-target mass)."""
    z = logits.double()
    rows = torch.arange(len(target))
    z_t = z[rows, target]
    others = z.clone()
    others[rows, target] = float("-inf")
    d = torch.logsumexp(others, -1) - z_t
    return F.softplus(d), -torch.sigmoid(d)


def loss_and_target_grad(fn, logits, target):
    x = logits.clone().requires_grad_()
    loss = fn(x, target, reduction="none")
    loss.sum().backward()
    return loss.detach(), x.grad[torch.arange(len(target)), target]


def part1(out=print):
    logits, target = confident_batch()
    ref_loss, ref_grad = reference64(logits, target)
    ours = loss_and_target_grad(inductor_ce.cross_entropy, logits, target)
    stock = loss_and_target_grad(F.cross_entropy, logits, target)
    out(f"Part 1: a confident-target batch: float32 logits, V={VOCAB}, target logit = "
        "max of the others + margin.\nfloat64 reference: softplus(logsumexp_{j!=t} z_j - z_t)"
        " and d/dz_t = -(1 - p_t).\n")
    out(f"{'margin':>6} | {'loss: float64':>13} {'inductor_ce':>11} {'rel.err':>7} "
        f"{'F.cross_ent':>11} | {'dL/dz_t: f64':>12} {'inductor_ce':>11} {'rel.err':>7} "
        f"{'F.cross_ent':>11}")
    for i, m in enumerate(MARGINS):
        cells = []
        for ref, a, b in ((ref_loss[i], ours[0][i], stock[0][i]),
                          (ref_grad[i], ours[1][i], stock[1][i])):
            rel = abs(a.double() - ref) / abs(ref)
            cells.append(f"{ref:13.4e} {a:11.4e} {rel:7.1e} {b:11.4e}")
        out(f"{m:6.0f} | {cells[0]} | {cells[1][1:]}")
    return logits, target, ref_loss, ref_grad, ours, stock


# --- part 2 -----------------------------------------------------------------------------------

class Bar:
    """tqdm when installed, else a one-line text bar."""

    def __init__(self, total: int, desc: str):
        try:
            from tqdm import tqdm
            self._tqdm = tqdm(total=total, desc=desc, file=sys.stderr, leave=True)
        except ImportError:
            self._tqdm = None
        self.total, self.desc, self.n = total, desc, 0
        self._draw("compiling")

    def _draw(self, note: str) -> None:
        # Redrawn in place on a terminal; in a log, only the first and the last state.
        tty = sys.stderr.isatty()
        if self._tqdm is None and (tty or self.n in (0, self.total)):
            filled = 24 * self.n // self.total
            line = (f"{self.desc:<22} [{'#' * filled}{'.' * (24 - filled)}] "
                    f"{self.n}/{self.total} {note:<18}")
            sys.stderr.write("\r" + line if tty else line + "\n")
            sys.stderr.flush()

    def update(self, note: str) -> None:
        self.n += 1
        if self._tqdm is not None:
            self._tqdm.set_postfix_str(note, refresh=False)
            self._tqdm.update()
        else:
            self._draw(note)

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
        elif sys.stderr.isatty():
            sys.stderr.write("\n")


def train_compiled(model, data, routed: bool, device: str, amp: bool, desc: str):
    """Compile a copy of ``model`` (routing on or off), train it on ``data``. Returns the
    losses, the generated code (forward first), the step times after compilation and the
    peak memory of steady-state steps above the weights, optimizer state and data (CUDA)."""
    (inductor_ce.enable if routed else inductor_ce.disable)()
    compiled = torch.compile(copy.deepcopy(model))
    bar = Bar(len(data), desc)
    stamps, base = [], [0]

    def on_step(loss):
        if device == "cuda":
            torch.cuda.synchronize()
            if len(stamps) == 1:        # from the 2nd step on: steady state
                base[0] = torch.cuda.memory_allocated()   # weights, optimizer state, data
                torch.cuda.reset_peak_memory_stats()
        stamps.append(time.perf_counter())
        bar.update(f"loss {loss.item():.4f}")

    def run():
        with torch.autocast(device, dtype=torch.bfloat16, enabled=amp):
            return gpt.train(compiled, data, on_step=on_step)

    losses, codes = capture.generated_code(run)
    bar.close()
    inductor_ce.disable()
    steps = [b - a for a, b in zip(stamps[1:], stamps[2:])]
    peak = torch.cuda.max_memory_allocated() - base[0] if device == "cuda" else None
    return dict(losses=losses, codes=codes, step_s=steps, peak=peak)


def triton_forward_code(model, batch, routed: bool) -> str:
    """The Triton code Inductor would generate for the forward (CPU tensors; not run)."""
    (inductor_ce.enable if routed else inductor_ce.disable)()
    idx, labels = batch
    num_items = (labels[..., 1:] != gpt.IGNORE_INDEX).sum()
    try:
        _, codes = capture.generated_code(torch.compile(copy.deepcopy(model)), idx, labels,
                                          num_items, backend="triton")
    finally:
        inductor_ce.disable()
    return codes[0]


def plot(results: dict, path: str, title: str):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for (name, r), style in zip(results.items(), ("-", "--")):
        ax.plot(range(1, len(r["losses"]) + 1), r["losses"], style, label=name)
    ax.set_xlabel("step")
    ax.set_ylabel("training loss")
    ax.set_title(title, fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def part2(device: str, steps: int, png: str, triton: bool, out=print):
    size = SIZES[device]
    cfg, amp = size["cfg"], size["amp"]
    torch.manual_seed(0)
    model = gpt.GPT(cfg).to(device)
    data = gpt.batches(cfg, size["batch"], steps, device=device)
    rows = size["batch"] * (cfg.block_size - 1)
    out(f"\nPart 2: {steps} AdamW steps of a small GPT ({cfg.n_layer} layers, width "
        f"{cfg.n_embd}, V={cfg.vocab_size}; {rows} x {cfg.vocab_size} logits"
        f"{', bf16 autocast' if amp else ', float32'}) on {device}, compiled from the same "
        "weights\nwith stock torch.compile and after inductor_ce.enable(). The loss code: "
        "F.cross_entropy(logits.float()[..., :-1, :].contiguous().view(-1, V), ..., "
        'reduction="sum") / num_items.\n')
    results = {}
    for name, routed in RUNS:
        results[name] = train_compiled(model, data, routed, device, amp, name)
    (stock, ours) = results.values()

    out(f"{'step':>4} | {'stock':>10} | {'inductor_ce':>11} | rel.diff")
    for i, (a, b) in enumerate(zip(stock["losses"], ours["losses"])):
        if i < 3 or i >= steps - 2 or i % max(1, steps // 5) == 0:
            out(f"{i + 1:4d} | {a:10.6f} | {b:11.6f} | {abs(a - b) / abs(a):.1e}")
    worst = max(abs(a - b) / abs(a) for a, b in zip(stock["losses"], ours["losses"]))
    out(f"largest relative difference of the two loss curves: {worst:.1e}")

    backend = "Triton" if device == "cuda" else "C++"
    reads = [_codegen.logits_reads(r["codes"][0], cfg.vocab_size) for r in (stock, ours)]
    out(f"\nreads of the logits in the forward (load instructions in the generated code):\n"
        f"  {backend} code that ran here: stock {reads[0]}, inductor_ce {reads[1]}")
    if device == "cpu" and triton:
        t = [_codegen.logits_reads(triton_forward_code(model, data[0], r), cfg.vocab_size)
             for r in (False, True)]
        out(f"  Triton code (what a GPU runs; generated here, not run): stock {t[0]}, "
            f"inductor_ce {t[1]}")
    if device == "cuda":
        for name, r in results.items():
            out(f"  {name:<22} step {1e3 * statistics.median(r['step_s']):8.2f} ms (median), "
                f"peak memory {r['peak'] / 2**30:6.2f} GiB above weights + optimizer state")
    if png:
        where = plot(results, png, f"small GPT, {device}: stock vs inductor_ce")
        out(f"\nloss curves: {where}" if where else "\n(no PNG: matplotlib is not installed)")
    return results


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m inductor_ce.demo", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    p.add_argument("--steps", type=int, default=None, help="training steps (default: 20 on "
                   "the CPU, 30 on CUDA)")
    p.add_argument("--png", default="inductor_ce_demo.png", help="loss-curve image ('' for none)")
    p.add_argument("--no-triton", action="store_true", help="on the CPU, skip generating the "
                   "Triton code (saves two compiles)")
    args = p.parse_args(argv)
    if args.device == "cuda" and not torch.cuda.is_available():
        p.error("--device cuda: no CUDA device")
    start = time.perf_counter()
    print(f"inductor_ce {inductor_ce.__version__}, torch {torch.__version__}, "
          f"device {args.device}\n")
    part1()
    steps = args.steps or SIZES[args.device]["steps"]
    part2(args.device, max(steps, 3), args.png, not args.no_triton)
    print(f"\n({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
