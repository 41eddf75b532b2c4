"""The runner's native half (runtime/conformance/diopi_call.cpp), loaded once.

It is the build's lib/libopweave_conformance.so (`make build`), located like libopweave.so
(opweave._paths).
"""

from __future__ import annotations

import torch

from .. import _paths

_loaded = False


def library_path() -> str:
    return str(_paths.library("opweave_conformance"))


def load():
    """torch.ops.opweave_conformance, with the vendor already loaded by `import opweave`."""
    global _loaded
    if not _loaded:
        import opweave  # noqa: F401  (loads libopweave and the vendor first)
        path = _paths.built_library("opweave_conformance", "the conformance runner")
        torch.ops.load_library(str(path))
        _loaded = True
    return torch.ops.opweave_conformance
