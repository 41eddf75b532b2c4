"""Where OpWeave's built libraries and data are: the one module that knows.

The native side is one CMake build folder (`make build`): lib/ (libopweave.so, the vendor
libraries, libopweave_conformance.so, libopweave_dicp_helper.so), include/ and
opweave_build.json (what opweave._compiler needs to compile graph C at run time). It is found
in this order:

  1. $OPWEAVE_BUILD_DIR, when set (the Makefile sets it; a second build flavour, a test);
  2. the copy `pip install .` placed inside the package (opweave/_built/);
  3. <checkout>/build, when the package runs from a checkout (runtime/python/opweave).

Data the runtime reads (generated/dicp tables, generated/conformance cases, vendors/<name>/
expectations) comes from the checkout when there is one, else from the installed copy, which
mirrors the checkout's layout for those files. Files the user produces (golden/, reports/) go
to the checkout, or to the current directory for an installed package. Nothing here imports
torch: `import opweave` asks it where libopweave.so is before loading anything.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
from typing import Optional

PACKAGE = pathlib.Path(__file__).resolve().parent
# What opweave_packaging.py (pip install .) copies out of the build folder and the checkout when the package is installed.
BUNDLED = PACKAGE / "_built"
BUILD_CONFIG = "opweave_build.json"


class NotBuilt(ImportError):
    """No build folder with the libraries: says where it looked."""


def checkout_root() -> Optional[pathlib.Path]:
    """The source checkout this package runs from, or None (an installed package)."""
    root = PACKAGE.parents[2]
    if PACKAGE.parent == root / "runtime" / "python" and (root / "CMakeLists.txt").is_file():
        return root
    return None


def build_dir() -> pathlib.Path:
    env = os.environ.get("OPWEAVE_BUILD_DIR")
    if env:
        return pathlib.Path(env)
    if (BUNDLED / "lib").is_dir():
        return BUNDLED
    root = checkout_root()
    if root is not None:
        return root / "build"
    raise NotBuilt(f"opweave: no build found: OPWEAVE_BUILD_DIR is not set, {BUNDLED} does not "
                   "exist (install with `pip install .` after `make build`) and the package "
                   "does not run from a checkout")


def lib_dir() -> pathlib.Path:
    return build_dir() / "lib"


def library(name: str) -> pathlib.Path:
    """lib<name>.so of the build (it may not exist: callers say how to build it)."""
    return lib_dir() / f"lib{name}.so"


def built_library(name: str, what: str, error: type = RuntimeError) -> pathlib.Path:
    """lib<name>.so of the build, which must exist: `error` saying how to build `what`."""
    path = library(name)
    if not path.is_file():
        raise error(f"{what} {path} is not built: make build (or set OPWEAVE_BUILD_DIR to a "
                    "build folder that has it)")
    return path


def build_config() -> pathlib.Path:
    return build_dir() / BUILD_CONFIG


def data_root() -> pathlib.Path:
    """The checkout, or the installed copy of the data the runtime reads."""
    return checkout_root() or BUNDLED


def generated_dir() -> pathlib.Path:
    return data_root() / "generated"


def vendors_dir() -> pathlib.Path:
    return data_root() / "vendors"


def work_dir() -> pathlib.Path:
    """Where outputs the user asks for go by default (golden data, reports)."""
    return checkout_root() or pathlib.Path.cwd()


def cache_dir(name: str) -> pathlib.Path:
    """A writable cache folder `name`, created: inside a build folder the user built (it goes
    with `make clean`), in the user's cache for an installed package (site-packages may be
    read-only), one per installed build."""
    build = build_dir()
    if build.resolve() != BUNDLED.resolve():
        d = build / name
    else:
        base = pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache")
        tag = hashlib.sha256(str(BUNDLED).encode()).hexdigest()[:12]
        d = base / "opweave" / f"{name}-{tag}"
    d.mkdir(parents=True, exist_ok=True)
    return d
