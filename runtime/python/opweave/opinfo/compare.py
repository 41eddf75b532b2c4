"""What "the device computed the same as the CPU" means for an OpInfo sample.

Every tensor in the result (nested tuples / lists / dicts are walked) must have the CPU
result's dtype and shape, live on the device, and match its values within the tolerance of
its dtype; Python numbers and other values must be equal. Ops whose output is random
(dropout, bernoulli, empty_like, ...) are compared on dtype, shape and device only: which
ops those are is decided by running the CPU twice with different seeds, not by a name list.
"""

from __future__ import annotations

import torch

# (rtol, atol) per dtype. A device may reduce in another order than the CPU, so float32 is
# looser than torch.testing's defaults; bfloat16 allows 2 ulps (an error of several ulps, as
# from statistics kept in bfloat16, is a mismatch). Integers and bool are exact.
TOLERANCES = {
    torch.float64: (1e-7, 1e-7),
    torch.float32: (1e-4, 1e-5),
    torch.complex64: (1e-4, 1e-5),
    torch.float16: (2e-3, 1e-3),
    torch.bfloat16: (1.6e-2, 1e-3),
}


class Mismatch(Exception):
    pass


def flatten(value, path="out"):
    """[(path, leaf)] of a nested result."""
    if isinstance(value, (tuple, list)):
        return [leaf for i, v in enumerate(value) for leaf in flatten(v, f"{path}[{i}]")]
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in flatten(v, f"{path}[{k!r}]")]
    return [(path, value)]


def to_device(value, device, made_for=None):
    """A copy of a nested sample argument with every tensor moved to `device` (leaves keep
    requires_grad, so gradients can be taken with respect to them). `made_for`, the same
    argument as the sample function made it for another device, keeps on the CPU the
    tensors it made on the CPU there too."""
    if isinstance(made_for, torch.Tensor) and made_for.device.type == "cpu" and \
            isinstance(value, torch.Tensor):
        return value
    if isinstance(value, torch.Tensor):
        if value.layout == torch.strided and not value.is_contiguous():
            # Keep the sample's strides: a non-contiguous sample must reach the device as one.
            moved = torch.empty_strided(value.size(), value.stride(), dtype=value.dtype,
                                        device=device)
            moved.copy_(value.detach())
        else:
            moved = value.detach().to(device)
        return moved.requires_grad_(value.requires_grad)
    if isinstance(value, (tuple, list)):
        same = isinstance(made_for, (tuple, list)) and len(made_for) == len(value)
        items = [to_device(v, device, made_for[i] if same else None) for i, v in enumerate(value)]
        return tuple(items) if isinstance(value, tuple) else items
    if isinstance(value, dict):
        same = isinstance(made_for, dict)
        return {k: to_device(v, device, made_for.get(k) if same else None)
                for k, v in value.items()}
    if _is_cpu(value):      # a device argument (`x.to("cpu")`, `device=`): the samples name the
        return device       # CPU they were made for
    return value


def _is_cpu(value) -> bool:
    if isinstance(value, str):
        return value == "cpu"
    return isinstance(value, torch.device) and value.type == "cpu"


def same(a, b) -> bool:
    """Exact equality of two CPU results (used to tell random ops)."""
    la, lb = flatten(a), flatten(b)
    if len(la) != len(lb):
        return False
    for (_, x), (_, y) in zip(la, lb):
        if isinstance(x, torch.Tensor) != isinstance(y, torch.Tensor):
            return False
        if isinstance(x, torch.Tensor):
            if x.shape != y.shape or x.dtype != y.dtype or not torch.equal(
                    torch.nan_to_num(x.detach()) if x.is_floating_point() else x.detach(),
                    torch.nan_to_num(y.detach()) if y.is_floating_point() else y.detach()):
                return False
        elif x != y and not (x != x and y != y):
            return False
    return True


def check(device_result, cpu_result, device_type: str, random: bool) -> None:
    """Raise Mismatch naming the first leaf that differs."""
    dev, ref = flatten(device_result), flatten(cpu_result)
    if len(dev) != len(ref):
        raise Mismatch(f"{len(dev)} results, CPU gives {len(ref)}")
    for (path, d), (_, r) in zip(dev, ref):
        if isinstance(r, torch.Tensor):
            _check_tensor(path, d, r, device_type, random)
        elif isinstance(d, torch.Tensor):
            raise Mismatch(f"{path}: a tensor where the CPU gives {type(r).__name__}")
        elif not random and d != r and not _close_number(d, r):
            raise Mismatch(f"{path}: {d!r}, CPU gives {r!r}")


def _close_number(d, r) -> bool:
    if isinstance(d, (float, complex)) and isinstance(r, (int, float, complex)):
        return d == r or (d != d and r != r) or abs(d - r) <= 1e-5 + 1e-4 * abs(r)
    return False


def _check_tensor(path, d, r, device_type, random) -> None:
    if not isinstance(d, torch.Tensor):
        raise Mismatch(f"{path}: {type(d).__name__} where the CPU gives a tensor")
    if d.device.type != device_type and r.device.type == "cpu" and d.numel() > 0:
        raise Mismatch(f"{path}: result on {d.device}, expected on the device")
    if d.dtype != r.dtype:
        raise Mismatch(f"{path}: dtype {d.dtype}, CPU gives {r.dtype}")
    if d.shape != r.shape:
        raise Mismatch(f"{path}: shape {list(d.shape)}, CPU gives {list(r.shape)}")
    if random or r.layout != torch.strided:
        return
    got = d.detach().cpu()
    if got.is_conj():
        got = got.resolve_conj()
    if got.is_neg():
        got = got.resolve_neg()
    want = r.detach().resolve_conj().resolve_neg()
    rtol, atol = TOLERANCES.get(r.dtype, (0.0, 0.0))
    try:
        torch.testing.assert_close(got, want, rtol=rtol, atol=atol, equal_nan=True,
                                   check_device=False, check_stride=False)
    except AssertionError as e:
        detail = " ".join(line.strip() for line in str(e).splitlines()[1:4] if line.strip())
        raise Mismatch(f"{path}: {detail}") from None
