"""spec file -> model -> every emitter's output, in memory (nothing written here)."""

from __future__ import annotations

import dataclasses
import os

from . import (dicp, emit_adaptor, emit_aten, emit_aten_ref, emit_conformance, emit_dicp,
               emit_diopi, emit_vendor_stubs, vendor_support)
from .aten_index import AtenIndex, default_index
from .build_model import build_catalogue
from .model import Catalogue
from .output_set import OutputSet
from .render import clang_format_all, environment
from .yaml_loader import load_yaml

EMITTERS = (emit_diopi.emit, emit_aten.emit, emit_vendor_stubs.emit, emit_conformance.emit,
            emit_aten_ref.emit, emit_adaptor.emit)


def load_catalogue(spec_path: str, index: AtenIndex | None = None,
                   vendors_dir: str | None = None) -> Catalogue:
    """The op model; with `vendors_dir`, also what each vendor's kernels accept."""
    display = os.path.relpath(spec_path) if not os.path.isabs(spec_path) else spec_path
    doc = load_yaml(spec_path, display)
    cat = build_catalogue(doc, display, index or default_index())
    if vendors_dir:
        cat = dataclasses.replace(cat, vendor_support=vendor_support.load_all(vendors_dir, cat))
    return cat


def load_dicp(cat: Catalogue, index: AtenIndex | None = None) -> tuple:
    """The graph-mode vendor catalogues beside the op catalogue (<spec dir>/dicp/*.yaml),
    validated against it; () when there is no such folder (a test's or bench's own spec)."""
    directory = os.path.join(os.path.dirname(cat.source) or ".", "dicp")
    if not os.path.isdir(directory):
        return ()
    return tuple(dicp.load_all(directory, cat, index or default_index()))


def generate(cat: Catalogue, dicp_vendors: tuple = ()) -> OutputSet:
    """Every artifact of the op model `cat` and the DICP model `dicp_vendors` (load_dicp)."""
    env = environment()
    out = OutputSet()
    for emit in EMITTERS:
        emit(cat, env, out)
    emit_dicp.emit(dicp_vendors, env, out)
    out.files = clang_format_all(out.files)
    return out
