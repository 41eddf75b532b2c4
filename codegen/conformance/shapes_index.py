"""Shape classes of indexing ops: index_select, gather, embedding, advanced indexing (a
Tensor?[] of indices), cat / stack and repeat. Index tensors hold indices in range."""

from __future__ import annotations

from .case_builder import LARGE, CaseBuilder, broadcast_shape, tensor
from .values import attr_combos


def _indexed_shape(shape, entries):
    """The shape of input[entries] for ADVANCED_INDEX entries, a mask standing for [1] per dim it
    covers (values of that shape broadcast to whatever count the mask selects)."""
    dims, index_shapes, pos = [], [], 0
    for e in entries:
        if e is None:
            pos += 1
            continue
        covers = len(e[1]) if e[0] == "mask" else 1
        index_shapes.append([1] if e[0] == "mask" else e[1])
        dims.extend(range(pos, pos + covers))
        pos += covers
    b = broadcast_shape(*index_shapes)
    adjacent = dims == list(range(dims[0], dims[0] + len(dims)))
    kept = [d for d in range(len(shape)) if d not in dims]
    at = dims[0] if adjacent else 0
    before = [shape[d] for d in kept if d < at]
    return before + b + [shape[d] for d in kept if d >= at]


def index(b: CaseBuilder, rule: str) -> None:
    """index_select(input, dim, index) and gather(input, dim, index): indices in range."""
    p = b.p
    src = next(a for a in p.inputs if a.name in ("input", "self") or a.direction == "inout")
    index = next(a for a in p.inputs if a is not src)
    table = [("base", [4, 5], 0, "contiguous"), ("dim1", [4, 5], 1, "contiguous"),
             ("negdim", [2, 3, 4], -1, "contiguous"), ("empty", [4, 5], 0, "contiguous"),
             ("large", LARGE, 1, "contiguous"), ("transposed", [4, 5], 1, "transposed"),
             ("sliced", [4, 5], 0, "sliced")]
    for tag, shape, dim, layout in table:
        size = shape[dim]
        if rule == "index_select":
            ish = [0] if tag == "empty" else [max(size // 2, 1) + 2]
        else:
            ish = list(shape)
            ish[dim] = 0 if tag == "empty" else max(size // 2, 1) + 1
            if len(ish) > 1:
                other = (dim + 1) % len(ish)
                ish[other] = max(ish[other] - 1, 1)
        index_dtypes = index.dtypes[:2] if tag == "base" else index.dtypes[:1]
        for idt in index_dtypes:
            inputs = {src.name: b.input_spec(src, shape, layout),
                      index.name: tensor(ish, idt, "contiguous", f"index{size}")}
            inputs = {a.name: inputs[a.name] for a in p.inputs}
            attrs = b.first_attrs(skip=("dim",))
            attrs["dim"] = dim
            attrs = {a.name: attrs[a.name] for a in p.attrs}
            b.add(tag, inputs, attrs)


def embedding(b: CaseBuilder) -> None:
    p = b.p
    names = {a.name: a for a in p.inputs}
    weight, indices = names[p.rule_tensors[0]], names[p.rule_tensors[1]]
    table = [("base", [10, 4], [5], "contiguous"), ("2d", [10, 4], [2, 3], "contiguous"),
             ("scalar0d", [10, 4], [], "contiguous"), ("empty", [10, 4], [0], "contiguous"),
             ("large", [517, 65], [257], "contiguous"),
             ("transposed", [10, 4], [5], "transposed"), ("sliced", [10, 4], [5], "sliced")]
    for tag, ws, ish, layout in table:
        index_dtypes = indices.dtypes[:2] if tag == "base" else indices.dtypes[:1]
        for idt in index_dtypes:
            spec = tensor(ish, idt, "contiguous", f"index{ws[0]}")
            inputs = {weight.name: b.input_spec(weight, ws, layout), indices.name: spec}
            inputs = {a.name: inputs[a.name] for a in p.inputs}
            combos = attr_combos(p, b.dtype) if tag == "base" else [b.first_attrs()]
            for attrs in combos:
                b.add(tag, inputs, attrs)


# input[indices] and input[indices] (+)= values: (tag, input shape, layout, index entries).
# An entry is None (the whole dim), ("int", shape, values) or ("mask", shape); "unique"
# values name each position once, so a put without accumulate has one answer.
ADVANCED_INDEX = [
    ("base", [5, 4], "contiguous", [("int", [3], "unique_index5")]),
    ("two", [5, 6], "contiguous",
     [("int", [2, 1], "unique_index5"), ("int", [3], "unique_index6")]),
    ("null_first", [4, 5, 3], "contiguous", [None, ("int", [2], "unique_index5")]),
    ("separated", [4, 5, 3], "contiguous",
     [("int", [2], "unique_index4"), None, ("int", [2], "unique_index3")]),
    ("negative", [5, 4], "contiguous", [("int", [2, 2], "unique_signed_index5")]),
    ("mask", [4, 5], "contiguous", [("mask", [4, 5])]),
    ("mask_rows", [4, 5, 2], "contiguous", [("mask", [4])]),
    ("mask_after_null", [3, 4, 5], "contiguous", [None, ("mask", [4, 5])]),
    ("empty", [5, 4], "contiguous", [("int", [0], "index5")]),
    ("large", LARGE, "contiguous", [None, ("int", [700], "unique_index1031")]),
    ("transposed", [6, 5], "transposed", [("int", [3], "unique_index5")]),
    ("sliced", [4, 5], "sliced", [None, ("int", [2], "unique_index5")]),
]


def advanced_index(b: CaseBuilder) -> None:
    p = b.p
    (lst,) = [a for a in p.inputs if a.kind == "tensor_list"]
    src = next(a for a in p.inputs if a.name == "input")
    values = next((a for a in p.inputs if a.name == "values"), None)
    int_dtype = next(d for d in lst.dtypes if d != "bool")
    for tag, shape, layout, entries in ADVANCED_INDEX:
        items = [None if e is None else
                 tensor(e[1], "bool", "contiguous", "bool") if e[0] == "mask" else
                 tensor(e[1], int_dtype, "contiguous", e[2]) for e in entries]
        inputs = {src.name: b.input_spec(src, shape, layout), lst.name: {"list": items}}
        if values is None:
            b.add(tag, {a.name: inputs[a.name] for a in p.inputs}, {})
            continue
        # values broadcast to the indexed shape; a mask's shape is data-dependent, so its
        # cases take a single value per row
        probe = _indexed_shape(shape, entries)
        for accumulate in (False, True):
            inputs[values.name] = b.input_spec(values, probe, "contiguous")
            attrs = {"accumulate": accumulate}
            b.add(tag, {a.name: inputs[a.name] for a in p.inputs},
                  {a.name: attrs[a.name] for a in p.attrs})
    if values is not None:   # repeated positions add up
        inputs = {src.name: b.input_spec(src, [5, 3], "contiguous"),
                  lst.name: {"list": [tensor([8], int_dtype, "contiguous", "index3")]},
                  values.name: b.input_spec(values, [8, 3], "contiguous")}
        b.add("repeated_accumulate", {a.name: inputs[a.name] for a in p.inputs},
              {a.name: {"accumulate": True}[a.name] for a in p.attrs})


def concat(b: CaseBuilder, rule: str) -> None:
    p = b.p
    (lst,) = [a for a in p.inputs if a.kind == "tensor_list"]
    if rule == "cat":
        table = [("base", [[2, 3], [4, 3], [1, 3]], 0, "contiguous"),
                 ("dim1", [[2, 3], [2, 1], [2, 4]], 1, "contiguous"),
                 ("negdim", [[2, 3, 2], [2, 3, 1]], -1, "contiguous"),
                 ("single", [[3, 4]], 0, "contiguous"),
                 ("skip_empty_1d", [[2, 3], [0], [1, 3]], 0, "contiguous"),
                 ("empty", [[0, 3], [0, 3]], 0, "contiguous"),
                 ("scalar_rows", [[1], [1], [1]], 0, "contiguous"),
                 ("large", [LARGE, [17, LARGE[1]]], 0, "contiguous"),
                 ("transposed", [[3, 4], [3, 2]], 1, "transposed"),
                 ("sliced", [[2, 5], [3, 5]], 0, "sliced")]
    else:
        table = [("base", [[2, 3]] * 3, 0, "contiguous"), ("dim1", [[2, 3]] * 2, 1, "contiguous"),
                 ("negdim", [[2, 3]] * 2, -1, "contiguous"), ("scalar0d", [[]] * 3, 0, "contiguous"),
                 ("single", [[4]], 0, "contiguous"), ("empty", [[0, 3]] * 2, 1, "contiguous"),
                 ("large", [LARGE] * 2, 0, "contiguous"),
                 ("transposed", [[3, 4]] * 2, 1, "transposed"),
                 ("sliced", [[2, 5]] * 3, 2, "sliced")]
    for tag, shapes, dim, layout in table:
        inputs = {lst.name: {"list": [b.input_spec(lst, sh, layout) for sh in shapes]}}
        attrs = b.first_attrs(skip=("dim",))
        attrs["dim"] = dim
        attrs = {a.name: attrs[a.name] for a in p.attrs}
        b.add(tag, inputs, attrs)
        if tag == "base":
            b.outstrided(inputs, attrs)


def repeat(b: CaseBuilder) -> None:
    p = b.p
    (src,) = p.inputs
    size_arg = next(a.name for a in p.attrs if a.kind == "size")
    table = [("base", [2, 3], [2, 2], "contiguous"), ("lead", [2, 3], [2, 1, 3], "contiguous"),
             ("ones", [4, 5], [1, 1], "contiguous"), ("scalar0d", [], [3], "contiguous"),
             ("scalar0d_none", [], [], "contiguous"), ("zero", [2, 3], [0, 2], "contiguous"),
             ("empty", [0, 3], [2, 2], "contiguous"), ("3d", [2, 3, 4], [1, 2, 1], "contiguous"),
             ("large", LARGE, [2, 1], "contiguous"), ("transposed", [4, 5], [2, 3], "transposed"),
             ("sliced", [4, 5], [3, 1], "sliced")]
    for tag, shape, repeats, layout in table:
        inputs = {src.name: b.input_spec(src, shape, layout)}
        attrs = b.first_attrs(skip=(size_arg,))
        attrs[size_arg] = repeats
        b.add(tag, inputs, {a.name: attrs[a.name] for a in p.attrs})


def bucket(b: CaseBuilder) -> None:
    """searchsorted / bucketize: the input (the rule's tensor) searched in the other tensor, 1-D
    or, for searchsorted, with the input's leading dims. The sequence is drawn like any input:
    ATen's binary search is defined on unsorted data too, and a kernel must follow it."""
    p = b.p
    (src,) = [x for x in p.inputs if x.name in p.rule_tensors]
    (seq,) = [x for x in p.inputs if x.name not in p.rule_tensors and not x.optional]
    sorter = next((x for x in p.inputs if x.optional), None)   # searchsorted's
    nd = seq.name == "sorted_sequence"   # bucketize's boundaries are 1-D only
    table = [("base", [7], [3, 4], "contiguous"), ("one", [1], [5], "contiguous"),
             ("scalar0d", [6], [], "contiguous"), ("empty", [5], [0, 3], "contiguous"),
             ("empty_seq", [0], [4], "contiguous"), ("large", [1031], [33, 65], "contiguous"),
             ("sliced", [6], [4, 5], "sliced")]
    if nd:
        table += [("nd", [3, 6], [3, 4], "contiguous"), ("nd_sliced", [4, 6], [4, 5], "sliced")]
    for tag, seq_shape, shape, layout in table:
        inputs = {seq.name: b.input_spec(seq, seq_shape, layout),
                  src.name: b.input_spec(src, shape, layout)}
        if sorter is not None:
            inputs[sorter.name] = None   # left out here, given by the sorter cases below
        ordered = {x.name: inputs[x.name] for x in p.inputs}
        combos = attr_combos(p, b.dtype) if tag == "base" else [b.first_attrs()]
        for attrs in combos:
            b.add(tag, ordered, attrs)
        if tag == "base":
            b.outstrided(ordered, b.first_attrs())
    if sorter is not None:   # any in-range indices are legal: a permutation, or repeats per row
        for tag, seq_shape, values in (("sorter", [7], "unique_index7"),
                                       ("sorter_nd", [3, 6], "index6")):
            inputs = {seq.name: b.input_spec(seq, seq_shape),
                      src.name: b.input_spec(src, seq_shape[:-1] + [4]),
                      sorter.name: b.input_spec(sorter, seq_shape, values=values)}
            b.add(tag, {x.name: inputs[x.name] for x in p.inputs}, b.first_attrs())
