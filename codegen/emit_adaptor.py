"""Emitter: the adaptor between the catalogue's dtypes and what each vendor's kernels accept.

- generated/aten/adaptor_thunks.cpp (in libopweave): one thunk per DIOPI function, in slot
  order. The runtime puts a function's thunk in front of the vendor's kernel when the vendor
  restricts that function; the thunk hands each tensor argument to opweave::Adaptation
  (runtime/device/adaptor.cpp), which converts on the device what the vendor does not accept.
  Arguments whose dtypes are the family's are subject to the vendor's dtype rule; arguments
  with dtypes of their own in the catalogue (indices, masks) only to its contiguity rule.
- generated/kernel_support/<library>.cpp (in the vendor's library): the table of
  vendors/<name>/kernel_support*.yaml that the library exports (owGetKernelSupport).
"""

from __future__ import annotations

from .dtypes import BY_NAME, DTYPES
from .model import Catalogue
from .output_set import OutputSet
from .render import render


def _mask(dtypes) -> str:
    bits = 0
    for d in dtypes:
        bits |= 1 << BY_NAME[d].diopi_value
    return f"0x{bits:x}ULL"


def emit(cat: Catalogue, env, out: OutputSet) -> None:
    fam_of = {fam.name: fam for fam in cat.families}
    functions = [(fn, fam_of[fn.family]) for fn in cat.functions]
    out.add("aten/adaptor_thunks.cpp", render(env, "adaptor/thunk.cpp.j2", functions=functions,
                                              mask=_mask,
                                              dtypes=DTYPES))
    for support in cat.vendor_support:
        out.add(f"kernel_support/{support.library}.cpp",
                render(env, "adaptor/table.cpp.j2", support=support, mask=_mask))
