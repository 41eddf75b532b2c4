"""A vendor library is built against the DIOPI runtime's C functions (libopweave.so), not
against torch: sim's binary depends on no torch library, so one build of it loads under every
torch version, as a vendor's shipped binary must. CI's torch 2.6 lane runs the very binary its
torch 1.13 lane built (OPWEAVE_SIM_PREBUILT, vendors/sim/CMakeLists.txt), so this suite there
is the proof that it works, not only that it links."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from opweave import _paths

TORCH_LIBRARY = re.compile(r"^lib(torch|c10|caffe2|shm)")


def needed(path) -> list[str]:
    out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True, check=True)
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out.stdout)


@pytest.mark.skipif(shutil.which("readelf") is None, reason="binutils' readelf is not installed")
@pytest.mark.parametrize("vendor", ["sim", "sim_fp32"])
def test_sim_depends_on_the_diopi_runtime_and_on_no_torch_library(vendor):
    deps = needed(_paths.library(f"opweave_vendor_{vendor}"))
    assert "libopweave.so" in deps, deps
    assert not [d for d in deps if TORCH_LIBRARY.match(d)], deps
