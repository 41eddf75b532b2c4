"""Per-call latency of 1-element ops on the device and on native CPU, interleaved.

Prints one JSON object: median nanoseconds per variant. bench/run.py runs it once per vendor
(OPWEAVE_VENDOR) and build flavour (OPWEAVE_BUILD_DIR), alternating, so every ratio it prints
comes from runs side by side. With OPWEAVE_BENCH_AUTOCOMPARE=1 (the autocompare build) it
times add.out with autocompare off and on; with OPWEAVE_BENCH_FALLBACK=1, add.out natively
and forced onto the CPU fallback.
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


def _load_bare_kernel() -> bool:
    lib = os.path.join(os.environ.get("OPWEAVE_BUILD_DIR", "build"), "lib", "libopweave_bench.so")
    if not os.path.exists(lib):
        return False
    torch.ops.load_library(lib)
    return True


def per_call_ns(fn, sync, before=None) -> float:
    if before:
        before()
    sync()
    start = time.perf_counter_ns()
    for _ in range(CALLS):
        fn()
    sync()
    return (time.perf_counter_ns() - start) / CALLS


def op_variants(dev) -> dict:
    a, b, o = (torch.ones(1, device=dev) for _ in range(3))
    ac, bc, oc = (torch.ones(1) for _ in range(3))
    sync = opweave.synchronize
    nosync = lambda: None  # noqa: E731
    v = {}
    for name, cpu_fn, dev_fn in (
            ("add_out", lambda: torch.add(ac, bc, out=oc), lambda: torch.add(a, b, out=o)),
            ("add", lambda: torch.add(ac, bc), lambda: torch.add(a, b)),
            ("mul_out", lambda: torch.mul(ac, bc, out=oc), lambda: torch.mul(a, b, out=o)),
            ("mul", lambda: torch.mul(ac, bc), lambda: torch.mul(a, b)),
            ("relu", lambda: torch.relu(ac), lambda: torch.relu(a)),
            ("sum", lambda: torch.sum(ac), lambda: torch.sum(a))):
        v[f"cpu.{name}"] = (cpu_fn, nosync, None)
        v[f"device.{name}"] = (dev_fn, sync, None)
    if _load_bare_kernel():
        bare = torch.ops.opweave_bench.add_out
        v["device.bare_kernel_add_out"] = (lambda: bare(a, b, out=o), sync, None)
    if os.environ.get("OPWEAVE_BENCH_AUTOCOMPARE") == "1":
        ins = opweave.instrument
        v["device.add_out_autocompare_on"] = (lambda: torch.add(a, b, out=o), sync,
                                              lambda: ins.set_autocompare(True, "aten::add.out"))
        v["device.add_out_autocompare_off"] = (lambda: torch.add(a, b, out=o), sync,
                                               lambda: ins.set_autocompare(False))
    if os.environ.get("OPWEAVE_BENCH_FALLBACK") == "1":
        ins = opweave.instrument
        v["device.add_out_fallback"] = (lambda: torch.add(a, b, out=o), sync,
                                        lambda: ins.set_fallback_ops("aten::add.out"))
        v["device.add_out_native"] = (lambda: torch.add(a, b, out=o), sync,
                                      lambda: ins.set_fallback_ops(None))
    return v


def main() -> int:
    variants = op_variants(opweave.device(0))
    samples = {name: [] for name in variants}
    for name, (fn, sync, before) in variants.items():  # warm-up
        per_call_ns(fn, sync, before)
    for _ in range(REPEATS):
        for name, (fn, sync, before) in variants.items():
            samples[name].append(per_call_ns(fn, sync, before))
    if os.environ.get("OPWEAVE_BENCH_AUTOCOMPARE") == "1":
        opweave.instrument.set_autocompare(False)
    json.dump({name: statistics.median(v) for name, v in samples.items()}, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
