"""`pip install .` gives a working opweave outside the checkout.

Into a fresh virtual environment (with the system's site packages, for torch), the checkout is
installed the way the README says (after `make build`: pip copies the build's libraries and
the runtime's data into the package). Then, from a folder outside the checkout and with a
clean environment (no PYTHONPATH, no OPWEAVE_BUILD_DIR), opweave must load the vendor library
it carries, run an op on the device, compile a graph (DICP helper + run-time C compiler) and
load the conformance runner.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import textwrap
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

CHECK = textwrap.dedent("""
    import json, torch, opweave
    from opweave import _paths
    from opweave.conformance import native
    x = torch.ones(2, device=opweave.device(0))
    y = (x + x).cpu().tolist()
    f = opweave.compile(lambda a, b: torch.relu(a * b - a))
    z = torch.tensor([[1.0, -2.0], [3.0, 0.5]], device=opweave.device(0))
    native.load()
    print(json.dumps({"package": opweave.__file__, "library": opweave.report()["library"],
                      "build": str(_paths.build_dir()), "device": str(x.device), "sum": y,
                      "fallbacks": opweave.fallback_stats(), "graph": f(z, z).cpu().tolist(),
                      "c_compiles": f.stats["c_compiles"]}))
""")


def _pip_and_venv() -> None:
    """Skips (with the Debian package to install) where pip or venv is missing: a torch 2.x
    root created before the Makefile's package list (which .ci/torch2.sh installs there)
    named python3-pip."""
    for module, package in (("venv", "python3-venv"), ("pip", "python3-pip")):
        proc = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
        if proc.returncode != 0:
            pytest.skip(f"{sys.executable} has no {module} module (Debian: apt-get install "
                        f"{package})")


def test_pip_install_runs_outside_the_checkout(tmp_path):
    _pip_and_venv()
    build = pathlib.Path(os.environ.get("OPWEAVE_BUILD_DIR") or REPO / "build")
    venv = tmp_path / "venv"
    # --without-pip: the system's pip (python3-pip) installs into the environment it runs in.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "LANG": "C.UTF-8", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    start = time.perf_counter()
    proc = subprocess.run([str(python), "-m", "pip", "install", "--no-build-isolation",
                           "--no-deps", "--no-index", "--no-cache-dir", str(REPO)],
                          env=dict(env, OPWEAVE_BUILD_DIR=str(build)), capture_output=True,
                          text=True, timeout=240)
    seconds = time.perf_counter() - start
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    print(f"pip install: {seconds:.1f} s")

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    proc = subprocess.run([str(python), "-c", CHECK], cwd=outside, env=env, capture_output=True,
                          text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    site = venv.resolve()
    bundled = pathlib.Path(got["package"]).parent / "_built"
    assert pathlib.Path(got["package"]).resolve().is_relative_to(site), got["package"]
    assert pathlib.Path(got["build"]) == bundled
    assert pathlib.Path(got["library"]) == bundled / "lib" / "libopweave_vendor_sim.so"
    assert got["device"].endswith(":0") and got["sum"] == [2.0, 2.0]
    assert not any("add" in op for op in got["fallbacks"]), f"add ran on the CPU: {got}"
    assert got["graph"] == [[0.0, 6.0], [6.0, 0.0]] and got["c_compiles"] == 1

    # The generator installs whole (every codegen subpackage): its command line starts.
    proc = subprocess.run([str(venv / "bin" / "opweave-codegen"), "--help"], cwd=outside, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "gen" in proc.stdout, proc.stderr[-3000:]
