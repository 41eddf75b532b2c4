"""Loading PyTorch's OpInfo database and naming its entries.

torch.testing._internal imports `expecttest` (a PyPI package Debian 13 ships but Debian 12 does
not) only for its TestCase base class and ACCEPT flag; neither matters for running samples, so
a stand-in module is installed when the real one is missing.

On torch 2.x every `sample_inputs()` call looks for the unittest test it runs in
(`extract_test_fn`, to seed and to record the sample being run) through `inspect.stack()`, which
reads the source lines of every frame on the stack: 85% of an OpInfo run's time on torch 2.6
(cProfile of 120 ops, float32 noncontig: 25.5 of 30.1 s). The same search over the frames
without reading any source gives the same answer at none of that cost.
"""

from __future__ import annotations

import sys
import types
import unittest
from typing import Callable, Optional


def _expecttest_stand_in() -> None:
    try:
        import expecttest  # noqa: F401
    except ImportError:
        stand_in = types.ModuleType("expecttest")
        stand_in.TestCase = unittest.TestCase
        stand_in.ACCEPT = False
        sys.modules["expecttest"] = stand_in


def _test_fn_from_frames() -> Optional[Callable]:
    """torch.testing._internal.common_utils.extract_test_fn's answer: the test function of the
    innermost frame whose `self` is a unittest.TestCase (None outside a test, as here)."""
    frame = sys._getframe(1)
    while frame is not None:
        owner = frame.f_locals.get("self")
        if isinstance(owner, unittest.TestCase):
            try:
                return getattr(owner, owner.id().split(".")[2]).__func__
            except Exception:  # noqa: BLE001  (as the original: no test function found)
                return None
        frame = frame.f_back
    return None


def _cheap_test_fn_lookup() -> None:
    from torch.testing._internal import common_utils
    if not hasattr(common_utils, "extract_test_fn"):   # torch 1.13: no lookup at all
        return
    from torch.testing._internal.opinfo import core
    for module in (common_utils, core):
        if hasattr(module, "extract_test_fn"):
            module.extract_test_fn = _test_fn_from_frames


def op_db() -> list:
    _expecttest_stand_in()
    from torch.testing._internal.common_methods_invocations import op_db as db
    _cheap_test_fn_lookup()
    return db


def key(op) -> str:
    """An entry's name: `nn.functional.conv2d`, or `max.binary` where a variant is named."""
    return f"{op.name}.{op.variant_test_name}" if op.variant_test_name else op.name


def by_key() -> dict:
    return {key(op): op for op in op_db()}
