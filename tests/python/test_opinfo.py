"""PyTorch's OpInfo database against the device (opweave.opinfo), checked against the expected
outcome of every op kept as data in tests/opinfo/expected/<torch>/<vendor>/<dtype>-<mode>.json.

Each group of configurations runs in its own process tree (a crashing op costs that op, never
the suite; the configurations of a group share its worker, which saves a torch and op_db
import per configuration: 6.6 s on torch 1.13, 13 s on 2.6): an op whose outcome got worse,
or that falls back to the CPU for an ATen op it did not fall back for before, fails the test;
improvements are printed (tighten the data with `python3 -m opweave.opinfo --update ...`, a
reviewed commit).
"""

import os
import re
import subprocess
import sys

import pytest

from conftest import PYTHON_DIR

# Every dtype of a group with every mode of it: float32 in the three modes, the other dtypes
# forward (the ids name them, so that `-k float32` or a test id selects a group).
GROUPS = [("float32", "forward,grad,noncontig"), ("int64,bfloat16,complex64", "forward")]
VENDORS = ["sim", "aten_ref"]


@pytest.mark.timeout(900)
@pytest.mark.parametrize("vendor", VENDORS)
@pytest.mark.parametrize("dtype,mode", GROUPS, ids=["float32", "int64-bfloat16-complex64"])
def test_opinfo(vendor, dtype, mode):
    # Under pytest-xdist every core already runs a test: one OpInfo worker process per group,
    # not two, saves another torch import.
    jobs = "1" if os.environ.get("PYTEST_XDIST_WORKER") else "2"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PYTHON_DIR)] + (
        [env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    proc = subprocess.run(
        [sys.executable, "-m", "opweave.opinfo", "--vendor", vendor, "--dtype", dtype,
         "--mode", mode, "--jobs", jobs, "--check"],
        env=env, capture_output=True, text=True, timeout=890)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    summaries = re.findall(rf"^opinfo {vendor} \S+ \S+: \d+ ops: .*$", proc.stdout, re.M)
    assert len(summaries) == len(dtype.split(",")) * len(mode.split(",")), proc.stdout
    assert all(" 0 crash" in s for s in summaries), "a crash is never an expected outcome"
