"""Train a tiny GPT (causal self-attention, layer norm, GELU MLP, AdamW) on the device next to
the same model on CPU.

    python3 -m opweave.demo.gpt --steps 20

Vocabulary 64, 2 layers, width 32, 2 heads, sequence 16. Both runs start from the same
weights and see the same batches (a fixed random "language": each token is followed by one of
a few tokens); the table shows each run's loss, their relative difference, and the ATen ops
that fell back to CPU.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import math
import sys

import torch
import torch.nn.functional as F

import opweave


class CausalSelfAttention(torch.nn.Module):
    def __init__(self, d: int, heads: int):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.proj = torch.nn.Linear(d, d)

    def forward(self, x):
        b, t, c = x.shape
        hd = c // self.heads
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, self.heads, hd).transpose(1, 2)   # [b, h, t, hd]
        k = k.view(b, t, self.heads, hd).transpose(1, 2)
        v = v.view(b, t, self.heads, hd).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        # The causal mask is built on the device: ones -> triu(1) -> bool -> masked_fill.
        future = torch.ones(t, t, device=x.device).triu(1) != 0
        att = att.masked_fill(future, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        return self.proj(y)


class Block(torch.nn.Module):
    def __init__(self, d: int, heads: int):
        super().__init__()
        self.ln1 = torch.nn.LayerNorm(d)
        self.attn = CausalSelfAttention(d, heads)
        self.ln2 = torch.nn.LayerNorm(d)
        self.fc = torch.nn.Linear(d, 4 * d)
        self.out = torch.nn.Linear(4 * d, d)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


class TinyGPT(torch.nn.Module):
    def __init__(self, vocab: int = 64, d: int = 32, layers: int = 2, heads: int = 2,
                 seq: int = 16):
        super().__init__()
        self.tok = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Embedding(seq, d)
        self.blocks = torch.nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.ln_f = torch.nn.LayerNorm(d)
        self.head = torch.nn.Linear(d, vocab, bias=False)

    def forward(self, idx, targets=None):
        b, t = idx.shape
        pos = torch.arange(t, device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln_f(x))
        if targets is None:
            return logits
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def make_model(seed: int, **kw) -> TinyGPT:
    torch.manual_seed(seed)
    return TinyGPT(**kw)


def make_data(n: int, seq: int, vocab: int, seed: int):
    """n sequences of seq+1 tokens from a random sparse bigram table."""
    g = torch.Generator().manual_seed(seed)
    nxt = torch.randint(0, vocab, (vocab, 3), generator=g)
    tokens = torch.empty(n, seq + 1, dtype=torch.long)
    tokens[:, 0] = torch.randint(0, vocab, (n,), generator=g)
    for i in range(seq):
        choice = torch.randint(0, 3, (n,), generator=g)
        tokens[:, i + 1] = nxt[tokens[:, i], choice]
    return tokens[:, :-1].contiguous(), tokens[:, 1:].contiguous()


# How the device run steps AdamW: torch's single-tensor or multi-tensor (foreach) form, op by
# op, or opweave.optim.AdamW (one fused diopiAdamW call per parameter). CPU runs always use
# torch's single-tensor form, the reference.
OPTIMIZERS = ("single", "foreach", "fused")


def make_optimizer(params, device, lr: float, optimizer: str):
    if optimizer == "fused" and str(device) != "cpu":
        return opweave.optim.AdamW(params, lr=lr, weight_decay=0.01)
    foreach = optimizer == "foreach" and str(device) != "cpu"
    return torch.optim.AdamW(params, lr=lr, weight_decay=0.01, foreach=foreach)


def train(model, x, y, device, steps: int, batch: int, lr: float,
          optimizer: str = "single", autocast: torch.dtype | None = None,
          dtype: torch.dtype | None = None) -> list[float]:
    """`autocast`: run the forward under torch.autocast(device type, dtype) (torch 2.x on the
    device; CPU autocast for the CPU reference). `dtype`: parameters and activations in this
    dtype throughout (pure bfloat16 or float64 training)."""
    model = model.to(device=device, dtype=dtype)
    opt = make_optimizer(model.parameters(), device, lr, optimizer)
    device_type = torch.device(device).type
    losses = []
    for step in range(steps):
        i = (step * batch) % x.shape[0]
        xb, yb = x[i:i + batch].to(device), y[i:i + batch].to(device)
        opt.zero_grad(set_to_none=True)
        # (torch 1.13's autocast rejects the device type even when disabled: no context then)
        region = (torch.autocast(device_type=device_type, dtype=autocast) if autocast is not None
                  else contextlib.nullcontext())
        with region:
            loss = model(xb, yb)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def compare(steps: int = 20, batch: int = 8, lr: float = 3e-3, seed: int = 0, device=None,
            optimizer: str = "single", autocast: torch.dtype | None = None,
            dtype: torch.dtype | None = None):
    """(device losses, cpu losses, fallback stats of the device run)."""
    device = device or opweave.device(0)
    x, y = make_data(256, 16, 64, seed=seed)
    model = make_model(seed)
    opweave.fallback_stats(reset=True)
    opweave.adaptor_stats(reset=True)
    dev = train(copy.deepcopy(model), x, y, device, steps, batch, lr, optimizer, autocast, dtype)
    fallbacks = opweave.fallback_stats()
    cpu = train(copy.deepcopy(model), x, y, "cpu", steps, batch, lr, autocast=autocast,
                dtype=dtype)
    return dev, cpu, fallbacks


def report(title: str, dev, cpu, fallbacks, every: int = 1) -> float:
    print(title)
    print(f"{'step':>6} {'device loss':>14} {'cpu loss':>14} {'rel diff':>10}")
    worst = 0.0
    for step, (a, b) in enumerate(zip(dev, cpu)):
        rel = abs(a - b) / max(abs(b), 1e-12)
        worst = max(worst, rel)
        if step % every == 0 or step == len(dev) - 1:
            print(f"{step:>6} {a:>14.6f} {b:>14.6f} {rel:>10.2e}")
    print(f"max per-step relative loss difference: {worst:.3e}")
    print(f"ops that fell back to CPU: {len(fallbacks)}"
          + ("" if not fallbacks else " (" + ", ".join(f"{k} x{v}" for k, v in sorted(fallbacks.items())) + ")"))
    adapted = {name: sum(f["converted"].values())
               for name, f in opweave.adaptor_stats()["functions"].items() if f["converted"]}
    if adapted:
        print(f"tensors the adaptor converted on the device: {sum(adapted.values())} in "
              f"{len(adapted)} functions (" + ", ".join(f"{k} x{v}" for k, v in
                                                        sorted(adapted.items())) + ")")
    return worst


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--optimizer", choices=OPTIMIZERS, default="single",
                   help="the device run's AdamW form (CPU: torch's single-tensor form)")
    p.add_argument("--autocast", choices=("bfloat16", "float16"),
                   help="forward under torch.autocast in this dtype, CPU too (torch 2.x)")
    p.add_argument("--dtype", choices=("bfloat16", "float16", "float64"),
                   help="train with parameters and activations in this dtype, CPU too")
    args = p.parse_args(argv)
    autocast = getattr(torch, args.autocast) if args.autocast else None
    dtype = getattr(torch, args.dtype) if args.dtype else None
    dev, cpu, fallbacks = compare(args.steps, args.batch, args.lr, optimizer=args.optimizer,
                                  autocast=autocast, dtype=dtype)
    report(f"tiny GPT (vocab 64, 2 layers, d 32, 2 heads, seq 16), AdamW ({args.optimizer}), "
           f"batch {args.batch}, {'autocast ' + args.autocast + ', ' if autocast else ''}"
           f"{args.dtype + ', ' if dtype else ''}"
           f"{args.steps} steps on {opweave.device(0)} vs cpu", dev, cpu, fallbacks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
