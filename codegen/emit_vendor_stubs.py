"""Emitter: compilable vendor kernel skeletons, one file per op family (generated/vendor_stubs/)."""

from __future__ import annotations

from .model import Catalogue
from .output_set import OutputSet
from .render import render


def emit(cat: Catalogue, env, out: OutputSet) -> None:
    for fam in cat.families:
        out.add(f"vendor_stubs/{fam.name}.cpp",
                render(env, "vendor_stubs/family.cpp.j2", fam=fam))
