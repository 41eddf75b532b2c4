"""The validated DICP model of one vendor: what emit_dicp.py renders.

The records inside it (Port, Attr, Rule, DiopiCall, Reference, MapSpec, Step, Conversion)
are the runtime's own classes (records.py); VendorOp and VendorCatalogue are the
generator's view of a whole op and file, rendered as a VendorOp subclass and module
constants of generated/dicp/<vendor>_conversions.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .records import DiopiCall, Reference, Rule
from .vocab import KINDS


@dataclass(frozen=True)
class VendorOp:
    name: str
    doc: str
    inputs: tuple          # of Port
    outputs: tuple         # of str
    attrs: tuple           # of Attr
    infer: Rule
    diopi: Optional[DiopiCall]
    view: str
    ref: Reference
    line: int


@dataclass(frozen=True)
class VendorCatalogue:
    vendor: str
    source: str
    doc: str
    executable: bool
    data_format: str
    fusions: tuple
    ops: tuple             # of VendorOp
    conversions: tuple     # of Conversion

    @property
    def counts(self) -> dict:
        out = {k: 0 for k in KINDS}
        for c in self.conversions:
            out[c.kind] += 1
        return out
