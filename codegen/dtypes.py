"""The dtype vocabulary: ONE table every dtype list of codegen (and the C++ tolerance slots) is
derived from. Adding a dtype, or letting the catalogue list one, is an edit of this table only.

DIOPI enum values are DIOPI's own. The C++ side (`opweave::ToleranceSlot` and the dtype ->
slot map of autocompare) is generated from this table into generated/aten/tolerance_slots.h.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

KINDS = ("float", "int", "bool", "complex")


@dataclass(frozen=True)
class Dtype:
    name: str          # catalogue spelling, e.g. "float32"
    diopi_value: int   # diopiDtype_t value (DIOPI-compatible numbering)
    torch_name: str    # attribute of the torch module, e.g. "float32"
    kind: str          # one of KINDS
    aten: str = ""     # at::ScalarType constant; "" for dtypes no catalogue entry may list
    # Index into opweave::OpInfo::atol / rtol (the catalogue's per-dtype [atol, rtol]): every
    # floating catalogue dtype has one; integral and bool results compare exactly (None).
    tolerance_slot: Optional[int] = None

    @property
    def is_floating(self) -> bool:
        return self.kind == "float"

    @property
    def in_catalogue(self) -> bool:
        """A catalogue entry may list it (torch 1.13 has no uint16/32/64 tensors; complex,
        tfloat32 and complex32 have no kernels)."""
        return bool(self.aten)

    @property
    def slot_constant(self) -> str:
        """C++ name of its ToleranceSlot enumerator: kTolFloat16, kTolBFloat16, ..."""
        stem = "BFloat" + self.name[6:] if self.name.startswith("bfloat") else self.name.capitalize()
        return "kTol" + stem


# In catalogue order (the order of CATALOGUE_DTYPES and of the generated kCatalogueDtypes),
# then the DIOPI dtypes no catalogue entry may list.
_TABLE: tuple[Dtype, ...] = (
    Dtype("bool", 11, "bool", "bool", "at::kBool"),
    Dtype("int8", 0, "int8", "int", "at::kChar"),
    Dtype("uint8", 1, "uint8", "int", "at::kByte"),
    Dtype("int16", 2, "int16", "int", "at::kShort"),
    Dtype("int32", 4, "int32", "int", "at::kInt"),
    Dtype("int64", 6, "int64", "int", "at::kLong"),
    Dtype("float16", 8, "float16", "float", "at::kHalf", tolerance_slot=0),
    Dtype("bfloat16", 12, "bfloat16", "float", "at::kBFloat16", tolerance_slot=1),
    Dtype("float32", 9, "float32", "float", "at::kFloat", tolerance_slot=2),
    Dtype("float64", 10, "float64", "float", "at::kDouble", tolerance_slot=3),
    Dtype("uint16", 3, "uint16", "int"),
    Dtype("uint32", 5, "uint32", "int"),
    Dtype("uint64", 7, "uint64", "int"),
    Dtype("tfloat32", 13, "float32", "float"),
    Dtype("complex32", 14, "complex32", "complex"),
    Dtype("complex64", 15, "complex64", "complex"),
    Dtype("complex128", 16, "complex128", "complex"),
)


class DtypeTableError(Exception):
    """The table above contradicts itself (raised at import: no emitter runs on a bad table)."""


def _check(table: tuple[Dtype, ...]) -> None:
    problems = []
    for d in table:
        if d.kind not in KINDS:
            problems.append(f"{d.name}: kind '{d.kind}' is not one of {', '.join(KINDS)}")
        if d.in_catalogue and d.is_floating and d.tolerance_slot is None:
            problems.append(f"{d.name}: a floating catalogue dtype needs a tolerance slot")
        if d.tolerance_slot is not None and not (d.in_catalogue and d.is_floating):
            problems.append(f"{d.name}: only floating catalogue dtypes have a tolerance slot")
    slots = sorted(d.tolerance_slot for d in table if d.tolerance_slot is not None)
    if slots != list(range(len(slots))):
        problems.append(f"tolerance slots must be 0..n-1, each once (got {slots})")
    for field in ("name", "diopi_value"):
        values = [getattr(d, field) for d in table]
        if len(set(values)) != len(values):
            problems.append(f"two dtypes share a {field}")
    if problems:
        raise DtypeTableError("codegen/dtypes.py: " + "; ".join(problems))


_check(_TABLE)

# Every DIOPI dtype, in diopiDtype_t order (diopirt.h's enum, the adaptor's tables).
DTYPES: tuple[Dtype, ...] = tuple(sorted(_TABLE, key=lambda d: d.diopi_value))
BY_NAME = {d.name: d for d in DTYPES}

# Dtypes a catalogue entry may list.
CATALOGUE_DTYPES = tuple(d.name for d in _TABLE if d.in_catalogue)
# Floating catalogue dtypes, in opweave::ToleranceSlot order: the dtypes the catalogue's
# `tolerances` must give [atol, rtol] for.
TOLERANCE_DTYPES = tuple(d.name for d in sorted((d for d in _TABLE if d.tolerance_slot is not None),
                                                key=lambda d: d.tolerance_slot))
FLOAT_DTYPES = tuple(d.name for d in _TABLE if d.in_catalogue and d.is_floating)
# What a DICP graph kernel may declare: the catalogue's dtypes, floating first.
KERNEL_DTYPES = FLOAT_DTYPES + tuple(d.name for d in _TABLE if d.in_catalogue and d.kind == "int") \
    + tuple(d.name for d in _TABLE if d.in_catalogue and d.kind == "bool")
# Catalogue dtype -> ATen ScalarType constant.
ATEN_DTYPES = {d.name: d.aten for d in _TABLE if d.in_catalogue}
