"""The benchmarks cannot rot: `bench/run.py --quick` runs every bench script in its quick mode
and must print every figure family (values are not judged: CI never gates on a time), and the
instruction-count gate (bench/icount.py --check, which `make bench` runs from bench/run.py)
must hold against the baseline in bench/baselines/icount.json.

The two run apart: the gate alone on the machine, after the parallel part of `make test`
(sim's counts depend on its stream worker's timing, which a busy machine changes); the rest
of the quick run, whose values nobody judges, beside the other tests (~55 s a lane that no
longer waits for a quiet machine)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

REPO = Path(__file__).resolve().parents[2]

# One pattern per figure family `make bench` reports (bench/run.py's docstring lists them).
FIGURES = [
    r"^tiny\.(sim|aten_ref)\.ratio_device_vs_cpu\.add_out: [\d.]+$",
    r"^tiny\.(sim|aten_ref)\.ratio_wrapper_vs_bare_kernel\.add_out: [\d.]+$",
    r"^fallback\.sim\.add_out_extra_ns_per_call: -?\d+$",
    r"^fallback\.aten_ref\.add_out_extra_ns_per_call: -?\d+$",
    r"^autocompare\.sim\.on_vs_off: [\d.]+$",
    r"^alloc\.device_vs_cpu\.4MiB: [\d.]+$",
    r"^model\.mlp_256_512_512_10_b64\.speed_vs_cpu: [\d.]+$",
    r"^model\.cnn_small_resnet_b32\.speed_vs_cpu: [\d.]+$",
    r"^model\.gpt_d128_seq64_b8\.speed_vs_cpu: [\d.]+$",
    r"^model\.gpt_d32_seq16_b8\.speed_vs_cpu: [\d.]+$",
    r"^model\.cnn_small_resnet_b32\.speed_vs_cpu_one_core: [\d.]+ \(per process: [\d., ]+\)$",
    r"^optim\.adamw\.fused_vs_single: [\d.]+$",
    r"^graph\.mlp_train_step_speedup: [\d.]+$",
    r"^target\.graph_mode_mlp_train_step: (met|NOT met)",
    r"^allreduce\.1048576B: device [\d.]+ \| gloo_cpu [\d.]+ \| ratio [\d.]+$",
    r"^training\.sim\.gpt\.native_over_opweave: [\d.]+",
    r"^gen\.gen_seconds\.x2: [\d.]+",
    r"^gen\.gen_noop_files_written: 0$",
    r"^build\.one_op_edit_gen_seconds: [\d.]+ +\(1 files: generated/aten/wrappers_\d+\.cpp\)$",
]
# torch 2.x only: aten_ref's backward runs on the calling thread there, and the step is also
# timed on autograd's device thread (1.13 has no switch: the device thread is all it has).
if int(torch.__version__.split(".")[0]) >= 2:
    FIGURES.append(r"^model\.cnn_small_resnet_b32\.speed_vs_cpu_backward_on_device_thread: "
                   r"[\d.]+ \(per process: [\d., ]+\)$")


def run_bench(script: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.setdefault("OPWEAVE_BUILD_DIR", str(REPO / "build"))
    return subprocess.run([sys.executable, str(REPO / "bench" / script), *args], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=900)


def test_quick_bench_prints_every_figure():
    proc = run_bench("run.py", "--quick", "--no-icount")
    out = proc.stdout
    assert proc.returncode == 0, f"bench/run.py --quick failed:\n{out[-3000:]}\n{proc.stderr[-3000:]}"
    missing = [p for p in FIGURES if not re.search(p, out, re.M)]
    assert not missing, f"figures missing from `bench/run.py --quick`: {missing}\n{out}"


# Alone on the machine (`make test` runs it after the parallel part): sim's instruction counts
# depend on whether its stream worker sleeps when a task arrives, which a busy machine changes.
@pytest.mark.serial
def test_instruction_counts_hold_the_gate():
    proc = run_bench("icount.py", "--check")
    assert proc.returncode == 0, \
        f"bench/icount.py --check failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    for line in (r"^add_out_fallback +\d+ +\d+ +\d+",  # a case of every target counted
                 r"^icount: every case within \d+% of the torch [\d.]+ baseline$"):
        assert re.search(line, proc.stdout, re.M), proc.stdout
