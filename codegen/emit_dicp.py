"""Graph-mode (DICP) conversion tables: generated/dicp/<vendor>_conversions.py per vendor.

The vendor catalogues live next to the op catalogue (specs/dicp/<vendor>.yaml, read through
codegen.dicp_catalogue, which validates them against the op model); a spec without a dicp/
directory beside it produces no tables. Each generated module holds the vendor op classes
(ports, typed attributes, inference rule, how the op runs, its CPU reference) and the
conversion table as data; runtime/python/opweave/dicp/ applies it to FX graphs.
"""

from __future__ import annotations

import dataclasses
import os

import jinja2

from . import dicp_catalogue
from .aten_index import default_index
from .model import Catalogue
from .output_set import OutputSet
from .render import render


SKIP_FIELDS = ("index",)


def spec_dir(cat: Catalogue) -> str:
    return os.path.join(os.path.dirname(cat.source) or ".", "dicp")


def py(value) -> str:
    """Deterministic Python literal (tuples stay tuples; floats keep their repr); catalogue
    dataclasses become constructor calls of the runtime's classes, default fields left out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = []
        for f in dataclasses.fields(value):
            if f.name in SKIP_FIELDS or not f.compare:
                continue
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


def emit(cat: Catalogue, env: jinja2.Environment, out: OutputSet) -> None:
    directory = spec_dir(cat)
    if not os.path.isdir(directory):
        return
    vendors = dicp_catalogue.load_all(directory, cat, default_index())
    for v in vendors:
        source = os.path.relpath(v.source) if os.path.isabs(v.source) else v.source
        counts = v.counts
        out.add(f"dicp/{v.vendor}_conversions.py",
                render(env, "dicp/conversions.py.j2", v=v, py=py, counts=counts,
                       source=source.replace(os.sep, "/"),
                       data=counts["map"] + counts["decomp"] + counts["unsupported"]))
    out.add("dicp/__init__.py", render(env, "dicp/index.py.j2", vendors=vendors))
