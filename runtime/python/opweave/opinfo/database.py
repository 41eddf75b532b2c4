"""Loading PyTorch's OpInfo database and naming its entries.

torch.testing._internal imports `expecttest` (a PyPI package Debian 13 ships but Debian 12 does
not) only for its TestCase base class and ACCEPT flag; neither matters for running samples, so
a stand-in module is installed when the real one is missing.
"""

from __future__ import annotations

import sys
import types
import unittest


def _expecttest_stand_in() -> None:
    try:
        import expecttest  # noqa: F401
    except ImportError:
        stand_in = types.ModuleType("expecttest")
        stand_in.TestCase = unittest.TestCase
        stand_in.ACCEPT = False
        sys.modules["expecttest"] = stand_in


def op_db() -> list:
    _expecttest_stand_in()
    from torch.testing._internal.common_methods_invocations import op_db as db
    return db


def key(op) -> str:
    """An entry's name: `nn.functional.conv2d`, or `max.binary` where a variant is named."""
    return f"{op.name}.{op.variant_test_name}" if op.variant_test_name else op.name


def by_key() -> dict:
    return {key(op): op for op in op_db()}
