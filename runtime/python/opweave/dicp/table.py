"""VendorOp, the class generated vendor ops derive from, and loading a vendor's table.

generated/dicp/<vendor>_conversions.py (written by `make gen` from specs/dicp/<vendor>.yaml)
holds one VendorOp subclass per vendor op and the CONVERSIONS tuple. Calling a vendor op
class computes its CPU reference (a "fake" vendor op: the ATen op its DIOPI kernel
implements, a view, or a named Python function), so a converted graph runs on CPU as is;
called with FX proxies it records itself as a graph node instead. The records the table
holds (Port, Attr, Rule, DiopiCall, Reference, Conversion, ...) are records.py's, the classes
the generator validated them into.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pathlib
import sys
from typing import Any, Optional

import torch
import torch.fx

from .. import _paths
from .infer import TensorSpec, infer_specs, spec_of
# The generated tables import the records from here (`from opweave.dicp.table import ...`).
from .records import (Attr, Conversion, DiopiCall, MapSpec, Port, Reference, Rule,  # noqa: F401
                      Step)

def generated_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("OPWEAVE_DICP_TABLES") or _paths.generated_dir() / "dicp")


# ----------------------------------------------------------------------------- ATen lookups
def aten_op(name: str):
    """'add.out' / 'relu' -> torch.ops.aten.add.out / torch.ops.aten.relu.default."""
    base, _, overload = name.partition(".")
    return getattr(getattr(torch.ops.aten, base), overload or "default")


def aten_key(target) -> str:
    """OpOverload -> the catalogue's spelling ('add.Tensor', 't')."""
    schema = target._schema
    base = schema.name.split("::", 1)[1]
    return f"{base}.{schema.overload_name}" if schema.overload_name else base


def call_aten(op, positional: list, named: dict):
    """Calls an OpOverload with arguments given by schema name (positional ones passed
    positionally: `self` cannot be a keyword of OpOverload.__call__)."""
    args, kwargs = call_args(op, positional, named)
    return op(*args, **kwargs)


def call_args(op, positional: list, named: dict) -> tuple:
    """(args, kwargs) for calling `op` with `positional` then arguments by schema name."""
    args = list(positional)
    kwargs = {}
    schema_args = op._schema.arguments
    for i, a in enumerate(schema_args):
        if i < len(positional):
            continue
        if a.kwarg_only:
            if a.name in named:
                kwargs[a.name] = named[a.name]
            continue
        if a.name in named:
            args.append(named[a.name])
        elif any(b.name in named for b in schema_args[i + 1:] if not b.kwarg_only):
            args.append(a.default_value if a.has_default_value() else None)
    return args, kwargs


def resolve(dotted: str):
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


# ------------------------------------------------------------------------------ vendor ops
class VendorOpMeta(type):
    """Calling a vendor op class runs it: records a node when given FX proxies, else
    computes the CPU reference. Arguments: input ports in order, then attributes in order."""

    def __call__(cls, *args):
        if cls is VendorOp:
            raise TypeError("VendorOp is abstract")
        for a in args:
            if isinstance(a, torch.fx.Proxy):
                return a.tracer.create_proxy("call_function", cls, args, {})
        return cls.reference(*args)

    def __repr__(cls) -> str:
        return f"<vendor op {getattr(cls, 'vendor', '?')}.{cls.__name__}>"


class VendorOp(metaclass=VendorOpMeta):
    inputs: tuple = ()
    outputs: tuple = ("out",)
    attrs: tuple = ()
    infer: Rule = None  # type: ignore[assignment]
    diopi: Optional[DiopiCall] = None
    view: str = ""
    ref: Reference = None  # type: ignore[assignment]
    line: int = 0
    vendor: str = ""
    table: "Table" = None  # type: ignore[assignment]

    # -- argument handling ----------------------------------------------------------------
    @classmethod
    def split(cls, args) -> tuple[dict, dict]:
        n = len(cls.inputs)
        if len(args) != n + len(cls.attrs):
            raise TypeError(f"{cls.__name__} takes {n} inputs and {len(cls.attrs)} attributes, "
                            f"got {len(args)} arguments")
        ports = {p.name: a for p, a in zip(cls.inputs, args[:n])}
        attrs = {a.name: v for a, v in zip(cls.attrs, args[n:])}
        return ports, attrs

    @classmethod
    def infer_specs(cls, port_specs: dict, attrs: dict) -> list[TensorSpec]:
        """Output specs from the catalogue's inference rule; raises InferenceError."""
        return infer_specs(cls, port_specs, attrs)

    # -- the CPU reference -----------------------------------------------------------------
    @classmethod
    def reference(cls, *args):
        ports, attrs = cls.split(args)
        ref = cls.ref
        if ref.kind == "custom":
            return resolve(ref.target)(*args)
        values = dict(ports)
        values.update(attrs)
        first = next((t for t in ports.values() if isinstance(t, torch.Tensor)), None)
        outs = {}
        if ref.kind in ("aten_out", "aten_inplace"):
            specs = cls.infer_specs({k: spec_of(v) for k, v in ports.items()}, attrs)
            dev = first.device if first is not None else torch.device("cpu")
            for name, spec in zip(cls.outputs, specs):
                outs[name] = torch.empty(spec.concrete_shape(), dtype=spec.dtype, device=dev)
        positional, keywords = [], {}
        for aname, kind, src in ref.args:
            if kind == "port" or kind == "attr":
                v = values[src]
            elif kind == "output":
                v = outs[src]
            elif kind == "fixed":
                v = src
            else:  # scratch: an out= / unused tensor the DIOPI function does not produce
                v = torch.empty((), dtype=first.dtype, device=first.device)
            if aname:
                keywords[aname] = v
            else:
                positional.append(v)
        result = call_aten(aten_op(ref.target), positional, keywords)
        if ref.kind == "aten":
            results = result if isinstance(result, (tuple, list)) else (result,)
            picked = [results[i] for i in ref.outputs]
        else:
            picked = [outs[name] for name in cls.outputs]
        return picked[0] if len(cls.outputs) == 1 else tuple(picked)


# ------------------------------------------------------------------------------- the table
class Table:
    """A vendor's generated table: vendor ops by name, conversions by ATen op."""

    def __init__(self, module):
        self.module = module
        self.vendor: str = module.VENDOR
        self.source: str = module.SOURCE
        self.executable: bool = module.EXECUTABLE
        self.data_format: str = module.DATA_FORMAT
        self.fusions: tuple = module.FUSIONS
        self.ops: dict = dict(module.VENDOR_OPS)
        self.conversions: tuple = module.CONVERSIONS
        self.by_aten: dict[str, list[tuple[int, Conversion]]] = {}
        for i, c in enumerate(self.conversions):
            self.by_aten.setdefault(c.aten, []).append((i, c))
        for op in self.ops.values():
            op.vendor = self.vendor
            op.table = self
        self.hits: dict[int, int] = {}   # conversion index -> times applied (coverage)
        # vendor kernels outside the DIOPI catalogue (`kernel:` ops), resolved by name
        self.graph_kernels: tuple = tuple(sorted(
            op.diopi.function for op in self.ops.values()
            if op.diopi is not None and op.diopi.graph_kernel))

    def counts(self) -> dict:
        kinds = {"map": 0, "decomp": 0, "custom": 0, "unsupported": 0}
        for c in self.conversions:
            kinds[c.kind] += 1
        kinds["data"] = sum(v for k, v in kinds.items() if k != "custom")
        kinds["total"] = len(self.conversions)
        return kinds

    def __repr__(self) -> str:
        return f"<opweave.dicp table {self.vendor}: {len(self.ops)} ops, " \
               f"{len(self.conversions)} conversions>"


_TABLES: dict[str, Table] = {}


def available_vendors() -> list[str]:
    d = generated_dir()
    return sorted(p.name[: -len("_conversions.py")] for p in d.glob("*_conversions.py"))


def load_table(vendor: str) -> Table:
    """The generated table of `vendor` (imported once)."""
    if vendor in _TABLES:
        return _TABLES[vendor]
    path = generated_dir() / f"{vendor}_conversions.py"
    if not path.is_file():
        raise ValueError(f"opweave.dicp: no conversion table for vendor '{vendor}' "
                         f"({path} missing; known: {', '.join(available_vendors()) or 'none'})")
    name = f"opweave.dicp._tables.{vendor}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    table = Table(module)
    _TABLES[vendor] = table
    return table


def is_vendor_op(target: Any) -> bool:
    return isinstance(target, type) and issubclass(target, VendorOp) and target is not VendorOp
