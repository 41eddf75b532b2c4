"""Emitter: DIOPI C headers (functions.h, its doc-free twin prototypes.h, diopirt.h) and the
runtime's function list."""

from __future__ import annotations

from .dtypes import DTYPES
from .model import Catalogue
from .output_set import OutputSet
from .render import render


def emit(cat: Catalogue, env, out: OutputSet) -> None:
    out.add("diopi/diopirt.h", render(env, "diopi/diopirt.h.j2", dtypes=DTYPES,
                                      diopi_version="1.0.0"))
    out.add("diopi/functions.h", render(env, "diopi/functions.h.j2", families=cat.families,
                                        functions=cat.functions))
    out.add("diopi/prototypes.h", render(env, "diopi/decls.h.j2", functions=cat.functions))
    out.add("aten/diopi_functions.inc", render(env, "aten/diopi_functions.inc.j2",
                                               functions=cat.functions))
