"""Emitter: compilable vendor kernel skeletons, one file per op family (generated/vendor_stubs/).

`make new-vendor` (new_vendor.py) scaffolds a vendor's kernels from the same pieces.
"""

from __future__ import annotations

from .model import Catalogue, OpFamily
from .output_set import OutputSet
from .render import render


def family_stubs(env, fam: OpFamily) -> tuple[str, list[tuple[str, str]]]:
    """(preamble, [(DIOPI function, stub)]) of `fam`, not yet clang-formatted: the pieces its
    file under generated/vendor_stubs/ is made of (templates/vendor_stubs/family.cpp.j2)."""
    return (render(env, "vendor_stubs/preamble.cpp.j2", fam=fam),
            [(fn.name, render(env, "vendor_stubs/stub.cpp.j2", fn=fn, fam=fam))
             for fn in fam.functions])


def emit(cat: Catalogue, env, out: OutputSet) -> None:
    for fam in cat.families:
        out.add(f"vendor_stubs/{fam.name}.cpp",
                render(env, "vendor_stubs/family.cpp.j2", fam=fam))
