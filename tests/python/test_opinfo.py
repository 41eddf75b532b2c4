"""PyTorch's OpInfo database against the device (opweave.opinfo), checked against the expected
outcome of every op kept as data in tests/opinfo/expected/<torch>/<vendor>/<dtype>-<mode>.json.

Each configuration runs in its own process tree (a crashing op costs that op, never the
suite): an op whose outcome got worse, or that falls back to the CPU for an ATen op it did not
fall back for before, fails the test; improvements are printed (tighten the data with
`python3 -m opweave.opinfo --update ...`, a reviewed commit).
"""

import os
import subprocess
import sys

import pytest

from conftest import PYTHON_DIR

CONFIGS = [("float32", "forward"), ("float32", "grad"), ("float32", "noncontig"),
           ("int64", "forward"), ("bfloat16", "forward"), ("complex64", "forward")]
VENDORS = ["sim", "aten_ref"]


@pytest.mark.timeout(600)
@pytest.mark.parametrize("vendor", VENDORS)
@pytest.mark.parametrize("dtype,mode", CONFIGS)
def test_opinfo(vendor, dtype, mode):
    # Under pytest-xdist every core already runs a test: one OpInfo worker process per
    # configuration, not two, saves a torch import (5 s on torch 2.6) per configuration.
    jobs = "1" if os.environ.get("PYTEST_XDIST_WORKER") else "2"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PYTHON_DIR)] + (
        [env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    proc = subprocess.run(
        [sys.executable, "-m", "opweave.opinfo", "--vendor", vendor, "--dtype", dtype,
         "--mode", mode, "--jobs", jobs, "--check"],
        env=env, capture_output=True, text=True, timeout=590)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    assert " 0 crash" in proc.stdout, "a crash is never an expected outcome"
