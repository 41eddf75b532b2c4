"""Shape classes of reductions: over dims (reduce), over one dim with indices (reduce_dim,
argreduce), over one optional dim (reduce_one, reduce_dim_bool), and topk."""

from __future__ import annotations

from .case_builder import LARGE, CaseBuilder
from .values import attr_combos

# (tag, input shape, dims, keepdim, layout)
REDUCE = [
    ("base", [4, 5], [1], False, "contiguous"),
    ("keepdim", [4, 5], [0], True, "contiguous"),
    ("all", [4, 5], [], False, "contiguous"),
    ("negdim", [2, 3, 4], [-1], True, "contiguous"),
    ("multi", [2, 3, 4], [0, 2], False, "contiguous"),
    ("scalar0d", [], [], False, "contiguous"),
    ("empty", [0, 5], [0], False, "contiguous"),
    ("empty_out", [0, 5], [1], False, "contiguous"),
    ("large", LARGE, [1], False, "contiguous"),
    ("large_all", LARGE, [], False, "contiguous"),
    ("transposed", [4, 5], [0], False, "transposed"),
    ("sliced", [4, 5], [1], False, "sliced"),
]


def reduce(b: CaseBuilder) -> None:
    p = b.p
    (src,) = [a for a in p.inputs]
    dim_arg = next(a.name for a in p.attrs if a.kind == "size")
    for tag, shape, dims, keepdim, layout in REDUCE:
        combos = (attr_combos(p, b.dtype, skip=(dim_arg,)) if tag == "base"
                  else [b.first_attrs(skip=(dim_arg,))])
        inputs = {src.name: b.input_spec(src, shape, layout)}
        aten = b.aten_only(keepdim=keepdim)
        for attrs in combos:
            attrs = dict(attrs)
            attrs[dim_arg] = dims
            b.add(tag, inputs, dict(sorted(attrs.items())), aten)
        if tag == "base":
            attrs = b.first_attrs(skip=(dim_arg,))
            attrs[dim_arg] = dims
            b.outstrided(inputs, dict(sorted(attrs.items())), aten)


def reduce_dim(b: CaseBuilder) -> None:
    """max/min over one dim (values + indices), argmax: values distinct along the reduced
    dim (a permutation), so the index of the extreme is unambiguous in every dtype."""
    p = b.p
    (src,) = p.inputs
    dim_arg = next(a for a in p.attrs if a.name == "dim")
    table = [("base", [4, 5], 1, False, "contiguous"), ("keepdim", [4, 5], 0, True, "contiguous"),
             ("3d", [2, 3, 4], -1, False, "contiguous"), ("scalar0d", [], 0, False, "contiguous"),
             ("empty", [0, 5], 1, False, "contiguous"), ("large", [129, 255], -1, False, "contiguous"),
             ("large_dim0", [129, 255], 0, True, "contiguous"),
             ("transposed", [4, 5], 1, False, "transposed"), ("sliced", [4, 5], 0, False, "sliced")]
    if dim_arg.optional:
        table.append(("all", [4, 5], None, False, "contiguous"))
    for tag, shape, dim, keepdim, layout in table:
        along = -1 if dim is None else dim
        values = f"distinct{along}" if shape else "distinct0"
        inputs = {src.name: b.input_spec(src, shape, layout, values)}
        attrs = b.first_attrs(skip=("dim",))
        attrs["dim"] = dim
        attrs = {a.name: attrs[a.name] for a in p.attrs}
        b.add(tag, inputs, attrs, b.aten_only(keepdim=keepdim))


def reduce_one(b: CaseBuilder) -> None:
    """A reduction over one optional dim (prod), keepdim read from out's shape."""
    p = b.p
    (src,) = p.inputs
    table = [("base", [4, 5], 1, False, "contiguous"), ("keepdim", [4, 5], 0, True, "contiguous"),
             ("3d", [2, 3, 4], -1, False, "contiguous"), ("scalar0d", [], 0, False, "contiguous"),
             ("empty", [0, 5], 0, False, "contiguous"), ("empty_out", [0, 5], 1, False, "contiguous"),
             ("large", LARGE, 1, False, "contiguous"),
             ("transposed", [4, 5], 0, False, "transposed"), ("sliced", [4, 5], 1, True, "sliced")]
    for tag, shape, dim, keepdim, layout in table:
        inputs = {src.name: b.input_spec(src, shape, layout)}
        attrs = b.first_attrs(skip=("dim",))
        attrs["dim"] = dim
        attrs = {a.name: attrs[a.name] for a in p.attrs}
        aten = b.aten_only(keepdim=keepdim)
        b.add(tag, inputs, attrs, aten)
        if tag == "base":
            b.outstrided(inputs, attrs, aten)


def topk(b: CaseBuilder) -> None:
    """k of the largest / smallest along dim: values distinct along it (no ties)."""
    p = b.p
    (src,) = p.inputs
    table = [("base", [4, 5], 2, -1, "contiguous"), ("dim0", [4, 5], 3, 0, "contiguous"),
             ("3d", [2, 3, 4], 1, 1, "contiguous"), ("scalar0d", [], 1, 0, "contiguous"),
             ("kzero", [4, 5], 0, -1, "contiguous"), ("all", [4, 5], 5, -1, "contiguous"),
             ("empty", [0, 5], 2, -1, "contiguous"), ("large", [129, 255], 17, -1, "contiguous"),
             ("transposed", [4, 5], 2, 1, "transposed"), ("sliced", [4, 5], 2, 0, "sliced")]
    for tag, shape, k, dim, layout in table:
        values = f"distinct{dim}" if shape else "distinct0"
        inputs = {src.name: b.input_spec(src, shape, layout, values)}
        combos = (attr_combos(p, b.dtype, skip=("k", "dim")) if tag == "base"
                  else [b.first_attrs(skip=("k", "dim"))])
        for attrs in combos:
            attrs = dict(attrs, k=k, dim=dim)
            b.add(tag, inputs, {a.name: attrs[a.name] for a in p.attrs})
