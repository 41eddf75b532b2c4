"""Train a small ResNet-style CNN (convolution, batch norm, max / average / adaptive pooling,
ReLU, ReLU6, hardswish) on the device next to the same model on CPU.

    python3 -m opweave.demo.cnn --steps 20

3x16x16 images of 10 classes (a fixed random template per class plus noise). Both runs start
from the same weights and see the same batches; the table shows each run's loss, their
relative difference, and the ATen ops that fell back to CPU. Batch-norm running statistics are
compared at the end (they are updated in place by the device kernel).
"""

from __future__ import annotations

import argparse
import copy
import sys

import torch
import torch.nn.functional as F

import opweave
from opweave.demo.gpt import report


class BasicBlock(torch.nn.Module):
    def __init__(self, cin: int, cout: int, stride: int, act):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = torch.nn.BatchNorm2d(cout)
        self.conv2 = torch.nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = torch.nn.BatchNorm2d(cout)
        self.act = act
        self.down = None
        if stride != 1 or cin != cout:   # average-pool then 1x1 conv (ResNet-D style)
            self.down = torch.nn.Sequential(torch.nn.AvgPool2d(stride), torch.nn.Conv2d(cin, cout, 1),
                                            torch.nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.act(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return self.act(y + (x if self.down is None else self.down(x)))


class SmallResNet(torch.nn.Module):
    def __init__(self, classes: int = 10):
        super().__init__()
        self.stem = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8),
                                        torch.nn.ReLU6(inplace=True))
        self.pool = torch.nn.MaxPool2d(2)
        self.layer1 = BasicBlock(8, 8, 1, torch.nn.ReLU())
        self.layer2 = BasicBlock(8, 16, 2, torch.nn.Hardswish())
        self.head = torch.nn.Linear(16 * 2 * 2, classes)

    def forward(self, x):
        x = self.pool(self.stem(x))
        x = self.layer2(self.layer1(x))
        x = F.adaptive_avg_pool2d(x, (2, 2))
        return self.head(torch.flatten(x, 1))


def make_model(seed: int) -> SmallResNet:
    torch.manual_seed(seed)
    return SmallResNet()


def make_data(n: int, seed: int):
    g = torch.Generator().manual_seed(seed)
    templates = torch.randn(10, 3, 16, 16, generator=g)
    labels = torch.randint(0, 10, (n,), generator=g)
    x = templates[labels] + torch.randn(n, 3, 16, 16, generator=g)
    return x, labels


def train(model, x, y, device, steps: int, batch: int, lr: float) -> list[float]:
    model = model.to(device).train()
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-4, foreach=False)
    losses = []
    for step in range(steps):
        i = (step * batch) % x.shape[0]
        xb, yb = x[i:i + batch].to(device), y[i:i + batch].to(device)
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, model


def compare(steps: int = 20, batch: int = 32, lr: float = 0.05, seed: int = 0, device=None):
    """(device losses, cpu losses, fallback stats, max difference of the running stats)."""
    device = device or opweave.device(0)
    x, y = make_data(512, seed=seed)
    model = make_model(seed)
    opweave.fallback_stats(reset=True)
    dev, dev_model = train(copy.deepcopy(model), x, y, device, steps, batch, lr)
    fallbacks = opweave.fallback_stats()
    cpu, cpu_model = train(copy.deepcopy(model), x, y, "cpu", steps, batch, lr)
    stats = 0.0
    dev_buffers = dict(dev_model.named_buffers())
    for name, b in cpu_model.named_buffers():
        if b.is_floating_point():
            d = dev_buffers[name].cpu()
            stats = max(stats, ((d - b).abs() / (b.abs() + 1e-3)).max().item())
    return dev, cpu, fallbacks, stats


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--lr", type=float, default=0.05)
    args = p.parse_args(argv)
    dev, cpu, fallbacks, stats = compare(args.steps, args.batch, args.lr)
    report(f"small ResNet-style CNN (3x16x16, 10 classes), SGD momentum, batch {args.batch}, "
           f"{args.steps} steps on {opweave.device(0)} vs cpu", dev, cpu, fallbacks)
    print(f"max relative difference of the batch-norm running statistics: {stats:.3e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
