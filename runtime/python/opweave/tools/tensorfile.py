"""Tensor files of the op tools: the conformance suite's safe format (the safetensors layout:
8-byte little-endian header length, JSON header {name: {dtype, shape, data_offsets}} plus
`__metadata__` {str: str}, raw little-endian bytes; bfloat16 kept; no pickle anywhere).

The implementation is `opweave.conformance.tensorfile`, so a capture, an autocompare failure
and a conformance golden file are read by the same validating loader.
"""

from __future__ import annotations

from opweave.conformance.tensorfile import (
    CODES, DTYPES, TensorFileError, dumps, load, loads, parse_header, save)

__all__ = ["CODES", "DTYPES", "TensorFileError", "dumps", "load", "loads", "parse_header",
           "save", "read_metadata"]


def read_metadata(path: str) -> dict[str, str]:
    """The `__metadata__` of a tensor file (the whole file is validated, no tensor is built)."""
    with open(path, "rb") as f:
        blob = f.read()
    try:
        return parse_header(blob)[1]
    except TensorFileError as e:
        raise TensorFileError(f"{path}: {e}") from None
