"""The records a DICP conversion table is made of, shared by the generator and the runtime.

codegen (codegen/dicp/) validates specs/dicp/<vendor>.yaml into these classes and writes
them as constructor calls into generated/dicp/<vendor>_conversions.py; the runtime
(table.py) gives those calls these very classes back, so what the generator checked is what
the runtime reads, field for field. This module imports nothing but the standard library:
codegen loads it by path (codegen/dicp/records.py says why) without importing the `opweave`
package, which needs torch and the built library.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Port:
    name: str
    optional: bool


@dataclass(frozen=True)
class Attr:
    name: str
    type: str          # int ints float bool scalar str dtype reduction round_mode
    optional: bool

    @property
    def spelled(self) -> str:
        return self.type + ("?" if self.optional else "")


@dataclass(frozen=True)
class Rule:
    """A shape/dtype inference rule (runtime: infer.py)."""

    name: str
    args: tuple        # port / attribute names; for aten: (overload, arg, ..., "kw=name")

    def __str__(self) -> str:
        return f"{self.name}({', '.join(self.args)})"


@dataclass(frozen=True)
class DiopiCall:
    """How an executable vendor op calls its kernel (argument order of the C call)."""

    function: str
    args: tuple        # (diopi arg, role port|output|attr, vendor name, C type, kind)
    dtypes: tuple      # (port or output name, supported dtypes)
    graph_kernel: bool = False  # a vendor kernel outside specs/ops.yaml (`kernel:`), e.g. a fusion


@dataclass(frozen=True)
class Reference:
    """The vendor op's CPU reference (fake vendor op): how its result is computed on CPU.

    kind "aten_out" / "aten_inplace": call ATen overload `target` with `args` (out= tensors
    allocated from the inference rule); "aten": call `target` and take its results in order;
    "custom": call the Python function named `target`."""

    kind: str
    target: str
    args: tuple = ()       # (aten arg, source kind, value): port|attr|output|fixed|scratch
    outputs: tuple = ()    # aten_out: (vendor output, aten out arg) ; aten: result indices


@dataclass(frozen=True)
class MapSpec:
    op: str
    inputs: tuple          # (port, expr)
    attrs: tuple           # (attr, expr)
    outputs: tuple         # vendor output (or None) per ATen result


@dataclass(frozen=True)
class Step:
    name: str              # "" for the last step
    op: str                # vendor op, or "" for an ATen step
    aten: str              # ATen overload of an ATen step
    inputs: tuple          # (port, expr) ; ATen step: (aten arg, expr)
    attrs: tuple


@dataclass(frozen=True)
class Conversion:
    """One entry of a vendor's conversion table; its position in the table is its identity
    (coverage counts by position), so it is not a field."""

    aten: str
    kind: str              # map | decomp | custom | unsupported
    doc: str
    when: tuple            # (aten arg, literal)
    ignore: tuple
    map: Optional[MapSpec] = None
    steps: tuple = ()
    custom: str = ""
    uses: tuple = ()
    reason: str = ""
    line: int = 0

    @property
    def is_data(self) -> bool:
        return self.kind != "custom"
