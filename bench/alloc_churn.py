"""Allocator churn: allocate and free one tensor, on the device (OpWeave's caching allocator)
and on native CPU (c10's CPU allocator), sizes from 256 B to 4 MiB, interleaved repetitions.

Prints one JSON object: median nanoseconds per allocate+free pair, per size and side.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time

import torch

import opweave
from benchlib import knob

CALLS = knob("CALLS", 2000, 50)
REPEATS = knob("REPEATS", 15, 2)
SIZES = {"256B": 64, "64KiB": 16 * 1024, "4MiB": 1024 * 1024}   # float32 elements


def per_pair_ns(numel: int, device) -> float:
    start = time.perf_counter_ns()
    for _ in range(CALLS):
        t = torch.empty(numel, device=device)
        del t
    return (time.perf_counter_ns() - start) / CALLS


def main() -> int:
    dev = opweave.device(0)
    samples = {}
    for label, numel in SIZES.items():
        for side, device in (("cpu", "cpu"), ("device", dev)):
            per_pair_ns(numel, device)  # warm-up: the cache holds a block of this size after it
            samples[f"{side}.{label}"] = []
    for _ in range(REPEATS):
        for label, numel in SIZES.items():
            for side, device in (("cpu", "cpu"), ("device", dev)):
                samples[f"{side}.{label}"].append(per_pair_ns(numel, device))
    json.dump({k: statistics.median(v) for k, v in samples.items()}, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
