"""Per-vendor data-format hooks, named by `data_format` in specs/dicp/<vendor>.yaml.

A hook runs after conversion and fusion and may annotate or rewrite the vendor-op graph for
the layouts the vendor's kernels want. It returns how many nodes it changed.
"""

from __future__ import annotations

import operator

import torch.fx

from .table import is_vendor_op

FRACTAL = 16   # Ascend's cube unit: FRACTAL_NZ tiles are 16 x 16


def plain_nd(gm: torch.fx.GraphModule, table) -> int:
    """sim: kernels take any strided layout, so every tensor stays plain ND."""
    for n in gm.graph.nodes:
        n.meta["format"] = "ND"
    return 0


def ascend_fractal(gm: torch.fx.GraphModule, table) -> int:
    """Ascend-style: matrix operands whose two trailing dims are multiples of 16 are fed to
    the cube unit in FRACTAL_NZ; a TransData node converts them (and the product back to
    ND), everything else is ND. Shapes are unchanged (TransData is a layout change)."""
    trans = table.ops["TransData"]
    changed = 0
    for n in list(gm.graph.nodes):
        n.meta.setdefault("format", "ND")
        if not (is_vendor_op(n.target) and n.target.__name__ in ("MatMul", "BatchMatMul")):
            continue
        specs = [a.meta["spec"][0] for a in n.args[:2] if isinstance(a, torch.fx.Node)]
        if len(specs) != 2 or not all(len(s.shape) >= 2 and all(
                isinstance(d, int) and d % FRACTAL == 0 for d in s.shape[-2:]) for s in specs):
            continue
        new_args = list(n.args)
        for i in range(2):
            with gm.graph.inserting_before(n):
                t = gm.graph.call_function(trans, (n.args[i], "ND", "FRACTAL_NZ"))
            t.meta["spec"] = list(n.args[i].meta["spec"])
            t.meta["format"] = "FRACTAL_NZ"
            new_args[i] = t
            changed += 1
        n.args = tuple(new_args)
        n.meta["format"] = "FRACTAL_NZ"
        users = [u for u in n.users if u.target is not operator.getitem]
        with gm.graph.inserting_after(n):
            back = gm.graph.call_function(trans, (n, "FRACTAL_NZ", "ND"))
        back.meta["spec"] = list(n.meta["spec"])
        back.meta["format"] = "ND"
        for u in users:
            u.replace_input_with(n, back)
        changed += 1
    return changed
