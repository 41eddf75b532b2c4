"""Model-level eager training step on the device against the same step on native CPU.

Run with OPWEAVE_VENDOR=aten_ref, whose kernels are ATen's CPU kernels, so the time ratio is
exactly what OpWeave's wrappers, runtime and allocator add. Each model trains from the same
weights on both sides; steps are timed in interleaved rounds (cpu, device, cpu, ...) and the
medians compared. Prints one JSON object: per model, the median step times, the ratio
cpu_time / device_time (1.0 = native speed) in wall time and in process CPU time (less
sensitive to other processes' load), the ratio of the best rounds (the least disturbed), and
the largest loss difference seen.

aten_ref's seam says its kernels compute on the host (OW_SEAM_HOST_SYNCHRONOUS), so on torch
2.x importing opweave runs its backward on the calling thread, as native CPU's runs
(opweave.backward_thread). Each round there also times the device step on autograd's device
thread (PyTorch's default for a device, torch.autograd.set_multithreading_enabled(True)), which
is what torch 1.13 always does.
"""

from __future__ import annotations

import copy
import json
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

import opweave
from opweave.demo import cnn, gpt, mlp
from benchlib import knob

ROUNDS = knob("ROUNDS", 9, 1)
# The other backward thread, timed beside the default one (torch >= 2.0 and a vendor whose
# backward runs on the calling thread): autograd's device thread.
OTHER_THREAD = getattr(torch.autograd, "set_multithreading_enabled", None) \
    if opweave.BACKWARD_THREAD == "caller" else None
STEPS = knob("STEPS", 20, 2)


def _mlp():
    model = mlp.make_model(256, 512, 10, seed=0)
    x, y = mlp.make_data(64, 256, 10, seed=0)
    return model, (x, y), lambda m, b: F.cross_entropy(m(b[0]), b[1]), \
        lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, foreach=False)


def _cnn():
    model = cnn.make_model(0)
    x, y = cnn.make_data(32, seed=0)
    return model, (x, y), lambda m, b: F.cross_entropy(m(b[0]), b[1]), \
        lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, weight_decay=1e-4, foreach=False)


def _gpt(vocab, d, heads, seq, batch):
    def build():
        model = gpt.make_model(0, vocab=vocab, d=d, layers=2, heads=heads, seq=seq)
        x, y = gpt.make_data(batch, seq, vocab, seed=0)
        return model, (x, y), lambda m, b: m(b[0], b[1]), \
            lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.01, foreach=False)
    return build


MODELS = {
    "mlp_256_512_512_10_b64": _mlp,
    "cnn_small_resnet_b32": _cnn,
    "gpt_d128_seq64_b8": _gpt(256, 128, 4, 64, 8),
    "gpt_d32_seq16_b8": _gpt(64, 32, 2, 16, 8),   # the demo's size: tiny ops, overhead shows
}


class Trainer:
    def __init__(self, build, device):
        model, batch, self.loss_fn, make_opt = build()
        self.device = device
        self.model = copy.deepcopy(model).to(device).train()
        self.batch = tuple(t.to(device) for t in batch)
        self.opt = make_opt(self.model.parameters())
        self.sync = opweave.synchronize if device != "cpu" else (lambda: None)
        self.losses = []

    def step(self) -> None:
        self.opt.zero_grad(set_to_none=True)
        loss = self.loss_fn(self.model, self.batch)
        loss.backward()
        self.opt.step()
        self.losses.append(loss.item())

    def time_steps(self, n: int) -> tuple[float, float]:
        """(wall seconds, process CPU seconds) per step."""
        self.sync()
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(n):
            self.step()
        self.sync()
        return (time.perf_counter() - wall) / n, (time.process_time() - cpu) / n


def main() -> int:
    opweave.fallback_stats(reset=True)
    results = {}
    for name, build in MODELS.items():
        cpu, dev = Trainer(build, "cpu"), Trainer(build, opweave.device(0))
        cpu.time_steps(2), dev.time_steps(2)   # warm-up: allocator caches, first-call setup
        cpu_t, dev_t, other_thread_t = [], [], []
        for _ in range(ROUNDS):
            cpu_t.append(cpu.time_steps(STEPS))
            dev_t.append(dev.time_steps(STEPS))
            if OTHER_THREAD is not None:
                with OTHER_THREAD(True):
                    other_thread_t.append(dev.time_steps(STEPS))
        c, d = (statistics.median(t[0] for t in ts) for ts in (cpu_t, dev_t))
        cc, dc = (statistics.median(t[1] for t in ts) for ts in (cpu_t, dev_t))
        best_c, best_d = (min(t[0] for t in ts) for ts in (cpu_t, dev_t))
        diff = max(abs(a - b) / max(abs(b), 1e-12) for a, b in zip(dev.losses, cpu.losses))
        results[name] = {"cpu_ms": c * 1e3, "device_ms": d * 1e3, "speed_vs_cpu": c / d,
                         "best_speed_vs_cpu": best_c / best_d,
                         "process_cpu_speed_vs_cpu": cc / dc, "max_loss_rel_diff": diff}
        if other_thread_t:
            results[name]["device_thread_speed_vs_cpu"] = \
                c / statistics.median(t[0] for t in other_thread_t)
    results["fallbacks"] = opweave.fallback_stats()
    json.dump(results, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
