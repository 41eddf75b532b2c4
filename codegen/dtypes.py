"""The dtype vocabulary shared by every artifact (DIOPI enum values are DIOPI's own)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Dtype:
    name: str          # catalogue spelling, e.g. "float32"
    diopi_value: int   # diopiDtype_t value (DIOPI-compatible numbering)
    torch_name: str    # attribute of the torch module, e.g. "float32"
    is_floating: bool


DTYPES: tuple[Dtype, ...] = (
    Dtype("int8", 0, "int8", False),
    Dtype("uint8", 1, "uint8", False),
    Dtype("int16", 2, "int16", False),
    Dtype("uint16", 3, "uint16", False),
    Dtype("int32", 4, "int32", False),
    Dtype("uint32", 5, "uint32", False),
    Dtype("int64", 6, "int64", False),
    Dtype("uint64", 7, "uint64", False),
    Dtype("float16", 8, "float16", True),
    Dtype("float32", 9, "float32", True),
    Dtype("float64", 10, "float64", True),
    Dtype("bool", 11, "bool", False),
    Dtype("bfloat16", 12, "bfloat16", True),
    Dtype("tfloat32", 13, "float32", True),
    Dtype("complex32", 14, "complex32", False),
    Dtype("complex64", 15, "complex64", False),
    Dtype("complex128", 16, "complex128", False),
)

BY_NAME = {d.name: d for d in DTYPES}

# Dtypes a catalogue entry may list (torch 1.13 has no uint16/32/64 tensors).
CATALOGUE_DTYPES = ("bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16",
                    "float32", "float64")
