"""What OpInfo itself declares about the PyTorch test a mode stands in for.

An OpInfo entry lists the tests of PyTorch's own suite it is skipped in or expected to fail
(`skips` / `decorators`: DecorateInfo(unittest.expectedFailure, 'TestCommon',
'test_noncontiguous_samples')). Where PyTorch declares the CPU itself wrong or the comparison
meaningless for a test (as_strided's non-contiguous samples view memory outside the tensor,
"inherent to how as_strided works"; as_strided_scatter's gradient with overlapping strides),
the CPU result is no reference for the device either: the op is skipped with PyTorch's reason.
Only an entry named for exactly that test and active on every device counts: an expected
failure, or a skip whose reason says the test fails (as_strided_scatter's non-contiguous
samples: "Works for int64, fails for everything else", the result depending on the layout the
scatter writes through). Other skips' reasons are time ("takes an unreasonably long time") or
blanket ("Skipped!"), and a CUDA-only or a tolerance entry says nothing about the CPU.
"""

from __future__ import annotations

import inspect
import unittest
from typing import Optional

# The PyTorch tests each mode stands in for.
EMULATES = {
    "forward": (("TestCommon", "test_compare_cpu"),),
    "noncontig": (("TestCommon", "test_noncontiguous_samples"),),
    # torch 2.x renamed TestGradients to TestBwdGradients. The gradients are compared with the
    # CPU's, so an op whose CPU comparison PyTorch declares failing (as_strided's partial views:
    # the result depends on the storage around the view, which a copy does not carry) is
    # skipped here too.
    "grad": (("TestGradients", "test_fn_grad"), ("TestBwdGradients", "test_fn_grad"),
             ("TestCommon", "test_compare_cpu")),
}


def _active(info, cls_name, test_name, device_type, dtype) -> bool:
    # torch 2.x added `param_kwargs` (the test's parametrization; these tests have none)
    if "param_kwargs" in inspect.signature(info.is_active).parameters:
        return info.is_active(cls_name, test_name, device_type, dtype, {})
    return info.is_active(cls_name, test_name, device_type, dtype)


def _skip_reason(decorator) -> Optional[str]:
    """The reason of a unittest.skip(reason) decorator (kept in its closure), else None."""
    if getattr(decorator, "__qualname__", "").split(".")[0] != "skip":
        return None
    for cell in getattr(decorator, "__closure__", None) or ():
        if isinstance(cell.cell_contents, str):
            return cell.cell_contents
    return None


def declared_failure(op, mode: str, dtype, device_type: str) -> Optional[str]:
    """Why the op is skipped when its entry expects the test `mode` stands in for to fail on
    every device for `dtype`; else None."""
    for info in getattr(op, "decorators", ()) or ():
        for cls_name, test_name in EMULATES[mode]:
            if (getattr(info, "cls_name", None), getattr(info, "test_name", None)) != \
                    (cls_name, test_name) or getattr(info, "device_type", None) is not None:
                continue
            if not _active(info, cls_name, test_name, device_type, dtype):
                continue
            for d in getattr(info, "decorators", ()):
                if d is unittest.expectedFailure:
                    return f"OpInfo expects {cls_name}.{test_name} to fail for this op"
                reason = _skip_reason(d)
                if reason is not None and "fail" in reason.lower():
                    return f"OpInfo skips {cls_name}.{test_name} for this op: {reason}"
    return None
