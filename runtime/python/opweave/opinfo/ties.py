"""Index results defined only up to the order of equal elements.

torch.sort / argsort without `stable=True` and torch.topk leave the order of equal elements
unspecified (their documentation says so), so where the input has ties a device may return
other indices than the CPU and still be right. Such a result is accepted when, along the
sorted dim, its indices are distinct and pick exactly the values the CPU's indices pick; the
values themselves are compared as usual. A stable sort is compared index for index.
"""

from __future__ import annotations

import torch

from .compare import Mismatch, check


def _dim(name: str, sample) -> int:
    args, kwargs = list(sample.args), sample.kwargs
    if name == "topk":      # topk(input, k, dim=-1, largest=True, sorted=True)
        return args[1] if len(args) > 1 else kwargs.get("dim", -1)
    return args[0] if args and isinstance(args[0], int) else kwargs.get("dim", -1)


def _picks(values: torch.Tensor, index: torch.Tensor, dim: int) -> torch.Tensor:
    return values.gather(dim, index) if values.dim() else values.reshape(()).expand(index.shape)


def _distinct(index: torch.Tensor, dim: int) -> bool:
    if index.dim() == 0 or index.numel() == 0:
        return True
    s = index.sort(dim).values
    return bool((s.narrow(dim, 1, s.size(dim) - 1) != s.narrow(dim, 0, s.size(dim) - 1)).all())


def tie_equivalent(name: str, sample, actual, expected) -> bool:
    """Whether a mismatching sort / argsort / topk result differs from the CPU's only in the
    order of equal elements."""
    if name not in ("sort", "argsort", "topk") or sample.kwargs.get("stable"):
        return False
    single = isinstance(expected, torch.Tensor)     # argsort: the indices alone
    dev = [actual] if single else list(actual)
    cpu = [expected] if single else list(expected)
    if len(dev) != len(cpu) or not all(isinstance(t, torch.Tensor) for t in dev):
        return False
    try:
        if not single:
            check(dev[0], cpu[0], dev[0].device.type, False)   # the values agree
        d_idx, c_idx = dev[-1].detach().cpu(), cpu[-1]
        if d_idx.dtype != c_idx.dtype or d_idx.shape != c_idx.shape:
            return False
        dim = _dim(name, sample)
        values = sample.input.detach()
        if not _distinct(d_idx, dim):
            return False
        torch.testing.assert_close(_picks(values, d_idx, dim), _picks(values, c_idx, dim),
                                   rtol=0, atol=0, equal_nan=True)
    except (Mismatch, AssertionError, IndexError, RuntimeError):
        return False
    return True
