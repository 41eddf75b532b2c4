"""Shared set-up for the Python suites.

Puts runtime/python on sys.path so `import opweave` works without PYTHONPATH; the library
comes from $OPWEAVE_BUILD_DIR or <repo>/build. Device suites import opweave at module level:
a missing build is a collection error, never a silent skip (codegen suites do not need it).
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
PYTHON_DIR = REPO / "runtime" / "python"
if str(PYTHON_DIR) not in sys.path:
    sys.path.insert(0, str(PYTHON_DIR))
# ... and for the interpreters tests start (`python3 -m opweave.conformance ...`), so that
# `python3 -m pytest tests/python` works without `make test`'s PYTHONPATH too.
if str(PYTHON_DIR) not in os.environ.get("PYTHONPATH", "").split(os.pathsep):
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(PYTHON_DIR)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []))


@pytest.fixture
def dev0():
    import opweave
    return opweave.device(0)


@pytest.fixture
def dev1():
    import opweave
    assert opweave.device_count() >= 2, "the sim vendor provides two devices"
    return opweave.device(1)


@pytest.fixture
def all_on_cpu():
    """Route every generated wrapper to the CPU fallback while the test runs."""
    import opweave
    opweave.instrument.set_fallback_ops(".*")
    try:
        yield
    finally:
        opweave.instrument.set_fallback_ops(None)


@pytest.fixture
def run_python():
    """Runs code in a fresh interpreter (for settings read once at load, such as the sim's
    OPWEAVE_SIM_* variables): run_python(code, VAR=value) -> CompletedProcess."""

    def run(code: str, **env: str) -> subprocess.CompletedProcess:
        full_env = dict(os.environ)
        full_env["PYTHONPATH"] = os.pathsep.join(
            [str(PYTHON_DIR)] + ([full_env["PYTHONPATH"]] if full_env.get("PYTHONPATH") else []))
        full_env.update(env)
        return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full_env,
                              capture_output=True, text=True, timeout=300)

    return run
