"""spec file -> model -> every emitter's output, in memory (nothing written here)."""

from __future__ import annotations

import os

from . import emit_aten, emit_aten_ref, emit_conformance, emit_dicp, emit_diopi, emit_vendor_stubs
from .aten_index import AtenIndex, default_index
from .build_model import build_catalogue
from .model import Catalogue
from .output_set import OutputSet
from .render import clang_format_all, environment
from .yaml_loader import load_yaml

EMITTERS = (emit_diopi.emit, emit_aten.emit, emit_vendor_stubs.emit, emit_conformance.emit,
            emit_dicp.emit, emit_aten_ref.emit)


def load_catalogue(spec_path: str, index: AtenIndex | None = None) -> Catalogue:
    display = os.path.relpath(spec_path) if not os.path.isabs(spec_path) else spec_path
    doc = load_yaml(spec_path, display)
    return build_catalogue(doc, display, index or default_index())


def generate(cat: Catalogue) -> OutputSet:
    env = environment()
    out = OutputSet()
    for emit in EMITTERS:
        emit(cat, env, out)
    out.files = clang_format_all(out.files)
    return out
