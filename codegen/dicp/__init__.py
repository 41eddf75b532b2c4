"""Graph-mode (DICP) vendor catalogues, specs/dicp/<vendor>.yaml: load phase and model.

    vocab.py        the closed vocabularies (fields, types, rules, views)
    records.py      the record classes, shared with the runtime (opweave/dicp/records.py)
    model.py        VendorOp and VendorCatalogue: what emit_dicp.py renders
    expr.py         attribute-value expressions: parse, names, types
    base.py, ops.py, conversions.py, load.py
                    the loader, one class split by job; load.py is the entry point
"""

from .load import load_all, load_vendor  # noqa: F401
from .model import VendorCatalogue, VendorOp  # noqa: F401
