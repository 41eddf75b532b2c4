"""The runner's native half (tests/conformance/diopi_call.cpp): built on demand, loaded once.

It is a small CMake project of its own, built into $OPWEAVE_BUILD_DIR/conformance against
the libopweave.so of that build directory; `cmake --build` is a no-op when it is current.
"""

from __future__ import annotations

import os
import subprocess

import torch

from . import paths

_loaded = False


def build_dir() -> str:
    return os.path.join(paths.build_dir(), "conformance")


def library_path() -> str:
    return os.path.join(build_dir(), "libopweave_conformance.so")


def ensure_built() -> None:
    if os.environ.get("OPWEAVE_CONFORMANCE_NO_BUILD") == "1":
        return
    bdir = build_dir()
    src = os.path.join(paths.repo(), "tests", "conformance")
    steps = []
    if not os.path.isfile(os.path.join(bdir, "build.ninja")):
        import torch.utils
        # torch's CMake package: found by default for Debian's torch, through this prefix for a
        # pip-installed torch (the GPU machine's).
        steps.append(["cmake", "-S", src, "-B", bdir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                      f"-DCMAKE_PREFIX_PATH={torch.utils.cmake_prefix_path}",
                      f"-DOPWEAVE_BUILD_DIR={paths.build_dir()}"])
    steps.append(["cmake", "--build", bdir])
    for cmd in steps:
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"building the conformance runner failed: {' '.join(cmd)}\n"
                               f"{proc.stdout[-4000:]}{proc.stderr[-4000:]}")


def load():
    """torch.ops.opweave_conformance, with the vendor already loaded by `import opweave`."""
    global _loaded
    if not _loaded:
        import opweave  # noqa: F401  (loads libopweave and the vendor first)
        ensure_built()
        torch.ops.load_library(library_path())
        _loaded = True
    return torch.ops.opweave_conformance
