"""A small GPT-style causal language model in plain PyTorch, and its training loop.

The loss is written the way people write it (the Hugging Face causal-LM idiom): upcast the
logits, shift them against the labels, flatten, sum over the kept tokens with
``F.cross_entropy`` and divide by the number of kept tokens of the whole batch. Nothing here
knows about inductor_ce: ``inductor_ce.enable()`` before ``torch.compile`` routes that call.

Data for the demo (``windows``): random windows of a token stream (``inductor_ce.demo.corpus``:
the standard library's source, BPE-tokenized, ``<|endoftext|>`` after each file). A window
that runs past the end of a file stops there: the rest of the row is padding whose label is
-100 (ignored), the way batches of documents are padded. ``train_steps`` is the demo's loop
(AdamW, warmup + cosine schedule, gradient clipping, bf16 autocast on request, timed steps).

Data for unit tests (``batches``, ``train``): no tokenizer; the bytes of the Zen of Python
(``import this``) cut into sequences of random length and padded the same way; the
vocabulary is the 256 byte values padded up to ``vocab_size``.
"""
from __future__ import annotations

import codecs
import math
import time
from dataclasses import dataclass
from typing import Callable, Optional

import torch
import torch.nn.functional as F
from torch import Tensor, nn

IGNORE_INDEX = -100


@dataclass
class GPTConfig:
    vocab_size: int = 4096
    block_size: int = 64
    n_layer: int = 2
    n_head: int = 4
    n_embd: int = 128


def n_params(cfg: GPTConfig) -> int:
    """The parameter count of ``GPT(cfg)``, without building it: two V x d matrices
    (embedding, untied head), the position embedding, per block 12 d^2 weights and 13 d
    biases and LayerNorm parameters, and the final LayerNorm."""
    v, d = cfg.vocab_size, cfg.n_embd
    return 2 * v * d + cfg.block_size * d + cfg.n_layer * (12 * d * d + 13 * d) + 2 * d


class Block(nn.Module):
    def __init__(self, cfg: GPTConfig):
        super().__init__()
        self.n_head = cfg.n_head
        self.ln_1, self.ln_2 = nn.LayerNorm(cfg.n_embd), nn.LayerNorm(cfg.n_embd)
        self.qkv = nn.Linear(cfg.n_embd, 3 * cfg.n_embd)
        self.proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.mlp = nn.Sequential(nn.Linear(cfg.n_embd, 4 * cfg.n_embd), nn.GELU(),
                                 nn.Linear(4 * cfg.n_embd, cfg.n_embd))

    def forward(self, x: Tensor) -> Tensor:
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln_1(x)).split(c, dim=2)
        q, k, v = (y.view(b, t, self.n_head, c // self.n_head).transpose(1, 2) for y in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, c))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    """Token + position embedding, ``n_layer`` pre-norm blocks, final norm, untied LM head.

    ``model(idx)`` returns the logits; ``model(idx, labels, num_items)`` the training loss
    only (returning the logits too would keep them alive as an output of the compiled graph).
    """

    def __init__(self, cfg: GPTConfig):
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg.vocab_size, cfg.n_embd)
        self.wpe = nn.Embedding(cfg.block_size, cfg.n_embd)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layer))
        self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        for name, p in self.named_parameters():
            if p.dim() == 2:
                std = 0.02 / math.sqrt(2 * cfg.n_layer) if name.endswith("proj.weight") else 0.02
                nn.init.normal_(p, std=std)

    def forward(self, idx: Tensor, labels: Optional[Tensor] = None,
                num_items: Optional[Tensor] = None):
        t = idx.shape[1]
        x = self.wte(idx) + self.wpe(torch.arange(t, device=idx.device))
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        if labels is None:
            return logits
        # The loss code of a typical training script:
        logits = logits.float()
        shift_logits = logits[..., :-1, :].contiguous()
        shift_labels = labels[..., 1:].contiguous()
        loss = F.cross_entropy(shift_logits.view(-1, self.cfg.vocab_size), shift_labels.view(-1),
                               ignore_index=IGNORE_INDEX, reduction="sum")
        return loss / num_items


def text_bytes() -> bytes:
    """The Zen of Python (about 850 bytes), from the standard library's ``this`` module,
    without printing it."""
    import importlib.util
    spec = importlib.util.find_spec("this")
    source = spec.loader.get_source("this")
    encoded = source.split('s = """', 1)[1].split('"""', 1)[0]
    return codecs.decode(encoded, "rot13").encode()


def batches(cfg: GPTConfig, batch_size: int, steps: int, seed: int = 0, device="cpu"):
    """``steps`` batches (input ids, labels): random windows of the text, some cut short and
    padded (padding: token 0, label -100). Labels equal the inputs; the model shifts them."""
    t = cfg.block_size
    text = list(text_bytes())
    data = torch.tensor(text * (2 + 2 * t // len(text)), dtype=torch.long)  # > 2 windows
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(steps):
        start = torch.randint(0, len(data) - t, (batch_size,), generator=g)
        idx = torch.stack([data[s:s + t] for s in start.tolist()])
        length = torch.randint(t // 2, t + 1, (batch_size, 1), generator=g)
        pad = torch.arange(t) >= length
        idx = idx.masked_fill(pad, 0)
        labels = idx.masked_fill(pad, IGNORE_INDEX)
        out.append((idx.to(device), labels.to(device)))
    return out


def train(model: nn.Module, data, lr: float = 3e-3,
          on_step: Optional[Callable] = None) -> list[float]:
    """AdamW over ``data`` (``model`` may be a torch.compile'd module); returns each step's
    loss. ``on_step(loss)`` is called after each step."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    losses = []
    for idx, labels in data:
        num_items = (labels[..., 1:] != IGNORE_INDEX).sum()
        loss = model(idx, labels, num_items)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        losses.append(loss.item())
        if on_step is not None:
            on_step(loss)
    return losses


# --- the demo's data and loop -----------------------------------------------------------------

def windows(tokens: Tensor, eot: int, batch_size: int, block_size: int, seed: int,
            device="cpu") -> tuple[Tensor, Tensor]:
    """One batch (input ids, labels) of ``batch_size`` windows of ``block_size`` tokens at
    random starts in ``tokens`` (a 1-D tensor, on ``device`` for speed), drawn from a
    generator seeded with ``seed``: the same seed gives the same batch on any device. Each
    row is cut after its first ``eot`` (the end of a file, kept as a target): the tokens
    after it become ``eot`` with label -100. Labels equal the inputs; the model shifts them.
    """
    g = torch.Generator().manual_seed(seed)
    starts = torch.randint(0, len(tokens) - block_size + 1, (batch_size, 1), generator=g)
    idx = tokens[(starts + torch.arange(block_size)).to(tokens.device)].long()
    is_eot = idx == eot
    after_first_eot = (is_eot.cumsum(1) - is_eot.long()) > 0
    idx = idx.masked_fill(after_first_eot, eot)
    labels = idx.masked_fill(after_first_eot, IGNORE_INDEX)
    return idx.to(device), labels.to(device)


def lr_at(step: int, steps: int, lr: float, warmup: int) -> float:
    """Linear warmup over ``warmup`` steps, then a cosine decay to lr / 10 at the end."""
    if step < warmup:
        return lr * (step + 1) / warmup
    done = (step - warmup) / max(1, steps - warmup)
    return lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, done))))


def train_steps(model: nn.Module, batch_at: Callable[[int], tuple], steps: int, *,
                lr: float, warmup: int, amp: bool = False, weight_decay: float = 0.1,
                clip: float = 1.0, on_step: Optional[Callable] = None,
                memorize_steps: int = 0, memorize_lr: float = 0.0) -> dict:
    """``steps`` AdamW steps of ``model`` (possibly torch.compile'd) on ``batch_at(step)``.

    AdamW (betas 0.9/0.95, decoupled weight decay on matrices only, fused on CUDA), the
    learning rate of ``lr_at``, the gradient norm clipped at ``clip``, bf16 autocast of the
    forward when ``amp``. Returns ``{"losses": [...], "step_s": [...]}``: each step's loss
    and wall time (forward, backward, optimizer; synchronized on CUDA). ``on_step(step, loss)``
    is called after each step, outside the timed region (the demo evaluates there).

    ``memorize_steps`` more steps follow (steps ``steps`` on, same optimizer and its state):
    weight decay 0 and a learning rate decaying linearly from ``memorize_lr`` to 0, the
    caller's ``batch_at`` giving the same batch each time, to drive the model's margins on it
    up (Adam's updates are about lr whatever the gradient's size, so margins keep growing
    until the loss's gradient itself vanishes)."""
    params = [p for p in model.parameters() if p.requires_grad]
    device = params[0].device
    groups = [dict(params=[p for p in params if p.dim() >= 2], weight_decay=weight_decay),
              dict(params=[p for p in params if p.dim() < 2], weight_decay=0.0)]
    opt = torch.optim.AdamW(groups, lr=lr, betas=(0.9, 0.95), fused=device.type == "cuda")
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    losses, step_s = [], []
    for step in range(steps + memorize_steps):
        for group in opt.param_groups:
            if step < steps:
                group["lr"] = lr_at(step, steps, lr, warmup)
            else:
                group["lr"] = memorize_lr * (1 - (step - steps) / memorize_steps)
                group["weight_decay"] = 0.0
        idx, labels = batch_at(step)
        num_items = (labels[..., 1:] != IGNORE_INDEX).sum()
        sync()
        t0 = time.perf_counter()
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp):
            loss = model(idx, labels, num_items)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, clip)
        opt.step()
        opt.zero_grad(set_to_none=True)
        losses.append(loss.item())
        sync()
        step_s.append(time.perf_counter() - t0)
        if on_step is not None:
            on_step(step, losses[-1])
    return dict(losses=losses, step_s=step_s)
