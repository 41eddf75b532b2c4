"""Train a small MLP classifier on the sim device next to the same model on CPU.

    make demo                       # or: python3 -m opweave.demo.mlp --steps 300
    make demo AUTOCOMPARE=1         # same, every device op compared with CPU as it runs

Both runs start from the same weights and see the same batches; the table shows the loss of
each and their relative difference, then how many ops fell back to CPU.
"""

from __future__ import annotations

import argparse
import copy
import sys

import torch

import opweave


def make_data(n: int, features: int, classes: int, seed: int):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(classes, features, generator=g) * 0.6
    labels = torch.randint(0, classes, (n,), generator=g)
    x = centers[labels] + torch.randn(n, features, generator=g) * 1.5
    return x, labels


def make_model(features: int, hidden: int, classes: int, seed: int) -> torch.nn.Module:
    torch.manual_seed(seed)
    return torch.nn.Sequential(
        torch.nn.Linear(features, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, classes))


def train(model, x, y, device, steps: int, batch: int, lr: float) -> list[float]:
    model = model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, foreach=False)
    losses = []
    for step in range(steps):
        i = (step * batch) % x.shape[0]
        xb, yb = x[i:i + batch].to(device), y[i:i + batch].to(device)
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--lr", type=float, default=0.02)
    p.add_argument("--every", type=int, default=25, help="print every N steps")
    args = p.parse_args(argv)

    x, y = make_data(4096, 20, 5, seed=0)
    model = make_model(20, 64, 5, seed=0)
    opweave.fallback_stats(reset=True)
    device_losses = train(copy.deepcopy(model), x, y, opweave.device(0), args.steps, args.batch, args.lr)
    fallbacks = opweave.fallback_stats()
    cpu_losses = train(copy.deepcopy(model), x, y, "cpu", args.steps, args.batch, args.lr)

    print(f"MLP 20-64-64-5, SGD momentum, batch {args.batch}, {args.steps} steps "
          f"on {opweave.device(0)} (vendor {opweave.report()['vendor']}) vs cpu")
    print(f"{'step':>6} {'device loss':>14} {'cpu loss':>14} {'rel diff':>10}")
    worst = 0.0
    for step, (a, b) in enumerate(zip(device_losses, cpu_losses)):
        rel = abs(a - b) / max(abs(b), 1e-12)
        worst = max(worst, rel)
        if step % args.every == 0 or step == args.steps - 1:
            print(f"{step:>6} {a:>14.6f} {b:>14.6f} {rel:>10.2e}")
    print(f"max per-step relative loss difference: {worst:.3e}")
    print(f"ops that fell back to CPU: {len(fallbacks)}"
          + ("" if not fallbacks else " (" + ", ".join(f"{k} x{v}" for k, v in sorted(fallbacks.items())) + ")"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
