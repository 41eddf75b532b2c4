"""Graph-mode (DICP) conversion tables: generated/dicp/<vendor>_conversions.py per vendor.

Renders the vendor catalogues the load phase validated (codegen/dicp/, from
specs/dicp/<vendor>.yaml beside the op catalogue; none when there is no such folder). Each
generated module holds the vendor op classes (ports, typed attributes, inference rule, how
the op runs, its CPU reference) and the conversion table as data: constructor calls of the
record classes the runtime shares with the generator (opweave/dicp/records.py), which
runtime/python/opweave/dicp/ applies to FX graphs.
"""

from __future__ import annotations

import dataclasses
import os

import jinja2

from .dicp import VendorCatalogue
from .output_set import OutputSet
from .render import render


def py(value) -> str:
    """Deterministic Python literal (tuples stay tuples; floats keep their repr); records
    become constructor calls, fields at their default left out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = []
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if f.default is not dataclasses.MISSING and v == f.default:
                continue
            parts.append(f"{f.name}={py(v)}")
        return f"{type(value).__name__}({', '.join(parts)})"
    if isinstance(value, tuple):
        inner = ", ".join(py(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(py(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py(k)}: {py(v)}" for k, v in value.items()) + "}"
    return repr(value)


def emit(vendors: tuple[VendorCatalogue, ...], env: jinja2.Environment, out: OutputSet) -> None:
    if not vendors:
        return
    for v in vendors:
        source = os.path.relpath(v.source) if os.path.isabs(v.source) else v.source
        counts = v.counts
        out.add(f"dicp/{v.vendor}_conversions.py",
                render(env, "dicp/conversions.py.j2", v=v, py=py, counts=counts,
                       source=source.replace(os.sep, "/"),
                       data=counts["map"] + counts["decomp"] + counts["unsupported"]))
    out.add("dicp/__init__.py", render(env, "dicp/index.py.j2", vendors=vendors))
