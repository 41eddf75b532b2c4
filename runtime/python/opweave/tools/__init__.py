"""Op tools for model engineers: find the op that breaks a training run, then hand it to the
vendor as a conformance case.

    import torch, opweave
    from opweave.tools import OpCapture, OpAutoCompare, OpTimeMeasure, OpFallback

    with OpAutoCompare("compare/"):            # every op vs CPU, forward and backward
        train_step()
    with OpCapture("capture/", include="linear"):   # real inputs/outputs/gradients on disk
        train_step()
    with OpTimeMeasure() as t:                 # synchronised per-op times
        train_step()
    t.print_summary()
    with OpFallback(include="linear"):         # those ops on CPU, from Python
        train_step()

    python3 -m opweave.tools.replay capture/ --repeat 20        # re-run on device vs CPU, timed
    python3 -m opweave.tools.to_conformance capture/ -o cases/ --run   # conformance cases

Each tool is a `torch.overrides.TorchFunctionMode`, usable as a context manager or with
start()/stop(). A stopped tool is not on torch's mode stack: nothing is left behind (no
hook, no patched function), so an inactive tool costs nothing. Tools nest (stop them in
reverse order). Selection by name or regex (`include=`, `exclude=`, or the environment:
OPWEAVE_TOOLS_<TOOL>_INCLUDE / _EXCLUDE, TOOL in CAPTURE, AUTOCOMPARE, TIME, FALLBACK, or
OPWEAVE_TOOLS_INCLUDE / _EXCLUDE for all). The mode stack is per thread, like torch's.

Below these, the generated wrappers have dispatcher-level switches of their own
(`opweave.instrument`: ATen-overload fallback list, argument dump, autocompare build).
"""

from __future__ import annotations

from ._base import OpFilter, op_name
from .autocompare import OpAutoCompare, OpMismatch
from .capture import OpCapture
from .fallback import OpFallback
from .timer import OpTimeMeasure

__all__ = ["OpCapture", "OpAutoCompare", "OpTimeMeasure", "OpFallback", "OpFilter",
           "OpMismatch", "op_name"]
