"""Run-time switches of the generated wrappers: forced CPU fallback, argument dump,
autocompare, profiler names. Each call recomputes per-op flags once in C++; the op calls
themselves never read the environment or these settings."""

from __future__ import annotations

import json

import torch


def _ops():
    return torch.ops.opweave


def set_fallback_ops(regex: str | None) -> None:
    """Run ATen ops whose name (e.g. `aten::add.out`) matches `regex` on CPU; None clears."""
    _ops().set_fallback_ops(regex or "")


def set_dump(level: int, ops: str = ".*") -> None:
    """Argument dump as JSON lines (OPWEAVE_DUMP_FILE or stderr): 0 off, 1 op + DIOPI name,
    2 + argument shapes/dtypes/strides, 3 + tensor values."""
    _ops().set_dump(int(level), ops)


def set_autocompare(enabled: bool, ops: str = ".*") -> None:
    """Compare matching ops with CPU as they run (needs `make build AUTOCOMPARE=1`)."""
    _ops().set_autocompare(bool(enabled), ops)


def set_autocompare_reference(mode: str | None) -> None:
    """The autocompare build's float64 referee (opweave/referee.py): "float64" (the default;
    OPWEAVE_AUTOCOMPARE_REFERENCE, read at load) reruns an op whose device and CPU results
    disagree in float64 on the CPU, and a device result closer to that than the CPU's is not a
    failure; "none" (or None) blames every disagreement on the device."""
    _ops().set_autocompare_reference(mode or "none")


def autocompare_reference() -> str:
    """The autocompare build's reference mode: "float64" or "none"."""
    return str(_ops().autocompare_reference())


def autocompare_built() -> bool:
    return bool(_ops().autocompare_built())


def set_profile_names(enabled: bool) -> None:
    """Open a torch.profiler range named after each op's DIOPI function."""
    _ops().set_profile_names(bool(enabled))


def op_table() -> list[dict]:
    """Every routed ATen overload: its DIOPI function, whether the vendor has it, whether forced."""
    return json.loads(_ops().op_table())
