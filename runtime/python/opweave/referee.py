"""The float64 referee: when the device and the CPU disagree, which side is wrong?

Every compare path (OpAutoCompare, replay, the conformance runner, the OpInfo runner; the C++
twin in runtime/aten/referee.cpp for the autocompare build) checks the device against the CPU
in the same dtype. A float32 / float16 / bfloat16 CPU kernel rounds too, often more than the
device does (a device that accumulates in a wider type, or normalises in two passes), so a
difference alone does not say the device is wrong. Where the two disagree, the same op is
run again on the CPU with its floating inputs (and floating dtype arguments) in float64, and
both results are measured against that reference, rounded to the result's dtype (the best a
kernel in that dtype can return):

    device_cpu      device vs CPU (the check every path makes first)
    device_float64  device vs the float64 reference
    cpu_float64     CPU vs the float64 reference

each in units of the tolerance: max over elements of |a - b| / (atol + rtol * |b|), so a
value <= 1 is "within tolerance" (NaN against a number, or unequal infinities: inf).

Verdicts (worst first):

    fail            the device is farther from float64 than the CPU and out of tolerance of
                    it -- or no reference could be made (integer / bool results, random ops,
                    no float64 kernel, the mode is off): the device is blamed, as before
    device_closer   the device is closer to float64 than the CPU: the CPU is the less
                    accurate side; not a failure
    within_float64  the CPU is closer, but the device is within tolerance of float64 too;
                    not a failure
    pass            device and CPU agree within tolerance (no reference is computed)

The reference costs nothing while the device and the CPU agree: it is computed for a
disagreement only.
"""

from __future__ import annotations

import math
import os

import torch

PASS, WITHIN, CLOSER, FAIL = "pass", "within_float64", "device_closer", "fail"
VERDICTS = (PASS, WITHIN, CLOSER, FAIL)                 # best to worst
_RANK = {v: i for i, v in enumerate(VERDICTS)}
# Result dtypes a float64 rerun can referee (float64 results have no wider reference).
REFEREED = (torch.float32, torch.float16, torch.bfloat16)
MODES = ("float64", "none")
ENV = "OPWEAVE_REFERENCE"


def mode(value=None) -> str | None:
    """'float64' or None from an argument (None: $OPWEAVE_REFERENCE, default 'float64');
    accepts 'float64', 'none' / 'off' / '' / False."""
    if value is None:
        value = os.environ.get(ENV, "float64")
    if value is False or str(value).strip().lower() in ("none", "off", "0", ""):
        return None
    if str(value).strip().lower() in ("float64", "double", "1") or value is True:
        return "float64"
    raise ValueError(f"reference mode {value!r}: expected one of {', '.join(MODES)}")


def refereeable(t) -> bool:
    return isinstance(t, torch.Tensor) and t.dtype in REFEREED


def _storage_numel(t: torch.Tensor) -> int:
    if hasattr(t, "untyped_storage"):                  # torch 2.x
        return t.untyped_storage().nbytes() // t.element_size()
    return t.storage().size()                          # torch 1.13


def _float64_view(t: torch.Tensor) -> torch.Tensor:
    """`t` in float64, the same view of a float64 copy of its whole storage where it is not a
    plain tensor: what as_strided and friends read is the storage, gaps included, so a compact
    copy would give the rerun other inputs than the CPU's (and a meaningless reference)."""
    t = t.detach()
    if t.layout != torch.strided or (t.is_contiguous() and t.storage_offset() == 0
                                     and t.numel() == _storage_numel(t)):
        return t.double()
    storage = t.as_strided((_storage_numel(t),), (1,), 0).double()
    return storage.as_strided(t.size(), t.stride(), t.storage_offset())


def to_float64(value):
    """A call argument for the float64 rerun: floating tensors as float64 CPU copies (detached;
    a view keeps its strides and offset over a float64 copy of its storage), floating dtype
    arguments (`dtype=torch.float32`) as torch.float64; containers walked, the rest unchanged."""
    if isinstance(value, torch.Tensor):
        return _float64_view(value) if value.is_floating_point() else value
    if isinstance(value, torch.dtype):
        return torch.float64 if value.is_floating_point else value
    if isinstance(value, (tuple, list)) and not isinstance(value, torch.Size):
        items = [to_float64(v) for v in value]
        if isinstance(value, list):
            return items
        try:
            return type(value)(items) if type(value) is not tuple else tuple(items)
        except TypeError:
            return tuple(items)
    if isinstance(value, dict):
        return {k: to_float64(v) for k, v in value.items()}
    return value


def distance(a: torch.Tensor, b: torch.Tensor, atol: float, rtol: float) -> float:
    """max |a - b| / (atol + rtol * |b|) over the elements (b is the reference): <= 1 means
    allclose(a, b). NaN on one side only, or unequal infinities: inf."""
    if a.shape != b.shape:
        return math.inf
    if a.numel() == 0:
        return 0.0
    x = a.detach().cpu().double()
    y = b.detach().cpu().double()
    nan_x, nan_y = torch.isnan(x), torch.isnan(y)
    finite = torch.isfinite(x) & torch.isfinite(y)
    if bool(((nan_x != nan_y) | (~finite & ~(nan_x & nan_y) & (x != y))).any()):
        return math.inf
    diff = torch.where(finite, (x - y).abs(), torch.zeros_like(x))
    scale = atol + rtol * torch.where(finite, y.abs(), torch.zeros_like(y))
    # exactly allclose's test where the tolerance is zero (or negative: nothing is close)
    units = torch.where(scale > 0, diff / scale.clamp_min(1e-300),
                        torch.where(diff <= scale, torch.zeros_like(diff),
                                    torch.full_like(diff, math.inf)))
    return float(units.max())


def judge(device: torch.Tensor, cpu: torch.Tensor, exact: torch.Tensor | None, atol: float,
          rtol: float) -> dict:
    """The verdict on one result tensor: device and CPU results (the CPU one may be wider: a
    16-bit op computed in float32), `exact` the float64 rerun's (None: no reference)."""
    dtype = device.dtype
    out = {"verdict": PASS, "device_cpu": distance(device, cpu, atol, rtol),
           "device_float64": None, "cpu_float64": None}
    if out["device_cpu"] <= 1.0:
        return out
    if exact is None or dtype not in REFEREED or not exact.is_floating_point():
        out["verdict"] = FAIL
        return out
    # Both sides are judged in the result's dtype: the reference rounded to it (the best a
    # kernel in that dtype can return), the CPU result too (a float32 CPU result for a 16-bit
    # op is the CPU's answer only once rounded).
    ref = exact.detach().cpu().to(dtype)
    cpu_r = cpu.detach().cpu().to(dtype)
    dev64, cpu64 = distance(device, ref, atol, rtol), distance(cpu_r, ref, atol, rtol)
    out.update(device_float64=dev64, cpu_float64=cpu64)
    out["verdict"] = CLOSER if dev64 < cpu64 else (WITHIN if dev64 <= 1.0 else FAIL)
    return out


def worst(verdicts) -> str:
    """The combined verdict of several tensors (PASS for none)."""
    return max(verdicts, key=_RANK.__getitem__, default=PASS)


def combine(judged: list[dict]) -> dict:
    """One check's verdict and distances from those of its tensors: the worst verdict, the
    largest of each distance (None where no tensor has one)."""
    out = {"verdict": worst(j["verdict"] for j in judged)}
    for key in ("device_cpu", "device_float64", "cpu_float64"):
        values = [j[key] for j in judged if j.get(key) is not None]
        out[key] = max(values) if values else None
    return out


def failing(verdict: str) -> bool:
    return verdict == FAIL


def fmt(judged: dict) -> str:
    """'device_closer (device-cpu 31.2, device-float64 0.02, cpu-float64 31.2 x tolerance)'"""
    def f(v):
        return "-" if v is None else ("inf" if math.isinf(v) else f"{v:.3g}")
    return (f"{judged['verdict']} (device-cpu {f(judged.get('device_cpu'))}, device-float64 "
            f"{f(judged.get('device_float64'))}, cpu-float64 {f(judged.get('cpu_float64'))} "
            "x tolerance)")
