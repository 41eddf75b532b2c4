"""Training-step time on OpWeave's CUDA vendor against native torch CUDA, same GPU, one run.

    OPWEAVE_VENDOR=cuda python3 bench/cuda_training.py            # on a GPU machine
    python3 bench/cuda_training.py --quick                         # anywhere: sim device vs CPU

Two models train from the same weights on both sides: a GPT-style decoder at a size where the
kernels dominate the step (d 768, 6 layers, 12 heads, 256 tokens, batch 16) and the small
ResNet of opweave.demo.cnn at batch 256. Steps run in interleaved rounds (native, opweave,
native, ...) after a warm-up, each round synchronised on its device, and the medians are
compared: ratio = native step time / OpWeave step time (1.0 = native speed; the goal is >= 0.97,
DIPU publishes 0.73-0.79 on resnet18 / llama). The ops that fell back to CPU on the OpWeave side
are listed with their counts, so a slow figure says where the time went.

--quick runs tiny models for one round and compares whatever is there (the CUDA vendor against
torch.cuda on a GPU machine; otherwise the loaded vendor against CPU), so CI exercises every
code path of this script without a GPU and it cannot rot unnoticed. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import time

import torch
import torch.nn.functional as F

import opweave
from opweave.demo import cnn, gpt


def _gpt(quick: bool):
    cfg = dict(vocab=128, d=32, layers=1, heads=2, seq=16) if quick else \
        dict(vocab=4096, d=768, layers=6, heads=12, seq=256)
    batch = 4 if quick else 16
    model = gpt.make_model(0, **cfg)
    x, y = gpt.make_data(batch * 2, cfg["seq"], cfg["vocab"], seed=0)
    return model, (x[:batch], y[:batch]), lambda m, b: m(b[0], b[1])


def _resnet(quick: bool):
    batch = 8 if quick else 256
    model = cnn.make_model(0)
    x, y = cnn.make_data(batch, seed=0)
    return model, (x, y), lambda m, b: F.cross_entropy(m(b[0]), b[1])


MODELS = {"gpt": _gpt, "resnet": _resnet}


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    elif device.type != "cpu":
        opweave.synchronize(device)


class Side:
    """One model trained on one device with AdamW (torch's foreach form on both sides, so the
    optimizer does the same work)."""

    def __init__(self, make, device: torch.device, quick: bool):
        model, batch, self.loss_fn = make(quick)
        self.device = device
        self.model = copy.deepcopy(model).to(device)
        self.batch = tuple(t.to(device) for t in batch)
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=1e-4, foreach=True)
        self.losses: list[float] = []

    def step(self) -> torch.Tensor:
        self.opt.zero_grad(set_to_none=True)
        loss = self.loss_fn(self.model, self.batch)
        loss.backward()
        self.opt.step()
        return loss

    def timed_round(self, steps: int) -> float:
        _sync(self.device)
        start = time.perf_counter()
        for _ in range(steps):
            loss = self.step()
        _sync(self.device)
        elapsed = (time.perf_counter() - start) / steps
        self.losses.append(float(loss.detach().cpu()))
        return elapsed


def measure(name: str, native: torch.device, device: torch.device, rounds: int, steps: int,
            warmup: int, quick: bool) -> dict:
    make = MODELS[name]
    a, b = Side(make, native, quick), Side(make, device, quick)
    for _ in range(warmup):
        a.step()
        b.step()
    _sync(native)
    _sync(device)
    opweave.fallback_stats(reset=True)
    times_a, times_b = [], []
    for _ in range(rounds):
        times_a.append(a.timed_round(steps))
        times_b.append(b.timed_round(steps))
    fallbacks = opweave.fallback_stats()
    ta, tb = statistics.median(times_a), statistics.median(times_b)
    return {
        "native_ms": round(ta * 1e3, 3),
        "opweave_ms": round(tb * 1e3, 3),
        "ratio_native_over_opweave": round(ta / tb, 4),
        "last_loss": {"native": a.losses[-1], "opweave": b.losses[-1]},
        "fallbacks": {op: n for op, n in sorted(fallbacks.items(), key=lambda kv: -kv[1])},
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="tiny models, one round (CI)")
    p.add_argument("--models", default="gpt,resnet")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--warmup", type=int, default=5)
    args = p.parse_args(argv)
    if args.quick:
        args.rounds, args.steps, args.warmup = 1, 2, 1
    native = torch.device("cuda:0") if torch.cuda.is_available() else torch.device("cpu")
    # Full float32 on both sides: OpWeave's kernels do not use TF32, so neither may torch's
    # (cuDNN convolutions allow it by default).
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    device = opweave.device(0)
    result = {"vendor": opweave.report().get("vendor"), "native": str(native),
              "device": str(device), "torch": torch.__version__,
              "rounds": args.rounds, "steps_per_round": args.steps, "models": {}}
    for name in args.models.split(","):
        result["models"][name] = measure(name, native, device, args.rounds, args.steps,
                                         args.warmup, args.quick)
    json.dump(result, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
