"""opweave.dicp: graph mode, after DeepLink's DICP, on torch 1.13 (and torch 2's torch.compile).

    import torch, opweave
    step = opweave.compile(model, backend="sim")          # or dynamic=True
    loss = step(x, y); loss.backward()

The conversion tables are generated from specs/dicp/<vendor>.yaml (`make gen`) into
generated/dicp/<vendor>_conversions.py. A call is captured as an ATen FX graph (make_fx;
forward and backward when inputs require grad), converted node by node with the vendor's
table (map / decomp / custom handler / unsupported -> eager), fused, shape-inferred, and
for an executable vendor (sim) lowered to C that calls the DIOPI kernels in order with
buffer reuse, compiled by the system compiler, cached on disk and run. Other vendors' tables
(e.g. ascend) run with their vendor ops' CPU references (mode="reference").
"""

from __future__ import annotations

from .backend import CompiledFunction, CompileError, compile  # noqa: F401
from .capture import CaptureError  # noqa: F401
from .compiler import FitError  # noqa: F401
from .convert import ConversionError  # noqa: F401
from .infer import InferenceError, TensorSpec  # noqa: F401
from .table import available_vendors, load_table  # noqa: F401
from . import dynamo as _dynamo  # noqa: F401,E402  (registers the torch.compile backends)


def native_stats() -> dict:
    """Process-wide native build counters: helper builds, C compiles, disk cache hits."""
    from .native import STATS
    return dict(STATS)
