"""Per-call latency of a 1-element add, measured with interleaved repetitions.

Prints one JSON object of median nanoseconds per variant. Run by bench/run.py, which also
runs it against other builds (OPWEAVE_BUILD_DIR) so build flavours are compared side by side.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time

import torch

import opweave

CALLS = int(os.environ.get("OPWEAVE_BENCH_CALLS", "2000"))
REPEATS = int(os.environ.get("OPWEAVE_BENCH_REPEATS", "15"))


def _load_bare_kernel() -> bool:
    lib = os.path.join(os.environ.get("OPWEAVE_BUILD_DIR", "build"), "lib", "libopweave_bench.so")
    if not os.path.exists(lib):
        return False
    torch.ops.load_library(lib)
    return True


def per_call_ns(fn, sync) -> float:
    sync()
    start = time.perf_counter_ns()
    for _ in range(CALLS):
        fn()
    sync()
    return (time.perf_counter_ns() - start) / CALLS


def main() -> int:
    dev = opweave.device(0)
    a, b, o = (torch.ones(1, device=dev) for _ in range(3))
    ac, bc, oc = (torch.ones(1) for _ in range(3))
    variants = {
        "cpu_native": (lambda: torch.add(ac, bc, out=oc), lambda: None),
        "device_add_out": (lambda: torch.add(a, b, out=o), opweave.synchronize),
        "device_add": (lambda: torch.add(a, b), opweave.synchronize),
        "device_relu": (lambda: torch.relu(a), opweave.synchronize),
        "device_sum": (lambda: torch.sum(a), opweave.synchronize),
    }
    if _load_bare_kernel():
        bare = torch.ops.opweave_bench.add_out
        variants["device_bare_kernel"] = (lambda: bare(a, b, out=o), opweave.synchronize)
    samples = {name: [] for name in variants}
    for name, (fn, sync) in variants.items():  # warm-up
        per_call_ns(fn, sync)
    for _ in range(REPEATS):
        for name, (fn, sync) in variants.items():
            samples[name].append(per_call_ns(fn, sync))
    json.dump({name: statistics.median(v) for name, v in samples.items()}, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
