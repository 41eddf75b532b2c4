"""Shape classes of matrix products (mm, bmm, mv, dot) and diag."""

from __future__ import annotations

from .case_builder import LARGE, CaseBuilder
from .values import attr_combos

# (tag, shape of a, shape of b, layout)

MM = [
    ("base", [3, 4], [4, 5], "contiguous"),
    ("one", [1, 1], [1, 1], "contiguous"),
    ("empty", [0, 4], [4, 5], "contiguous"),
    ("kzero", [3, 0], [0, 5], "contiguous"),
    ("large", [65, 129], [129, 67], "contiguous"),
    ("transposed", [3, 4], [4, 5], "transposed"),
    ("sliced", [3, 4], [4, 5], "sliced"),
]
BMM = [
    ("base", [2, 3, 4], [2, 4, 5], "contiguous"),
    ("empty", [0, 3, 4], [0, 4, 5], "contiguous"),
    ("kzero", [2, 3, 0], [2, 0, 5], "contiguous"),
    ("large", [8, 33, 65], [8, 65, 17], "contiguous"),
    ("transposed", [2, 3, 4], [2, 4, 5], "transposed"),
    ("sliced", [2, 3, 4], [2, 4, 5], "sliced"),
]
MV = [
    ("base", [3, 4], [4], "contiguous"),
    ("one", [1, 1], [1], "contiguous"),
    ("empty", [0, 4], [4], "contiguous"),
    ("kzero", [3, 0], [0], "contiguous"),
    ("large", [65, 129], [129], "contiguous"),
    ("sliced", [3, 4], [4], "sliced"),
]
DOT = [
    ("base", [5], [5], "contiguous"),
    ("one", [1], [1], "contiguous"),
    ("empty", [0], [0], "contiguous"),
    ("large", [1031], [1031], "contiguous"),
    ("sliced", [5], [5], "sliced"),
]


def matmul(b: CaseBuilder, table) -> None:
    p = b.p
    a_arg, b_arg = [next(x for x in p.inputs if x.name == n) for n in p.rule_tensors]
    others = [x for x in p.inputs if x.name not in p.rule_tensors]
    for tag, sa, sb, layout in table:
        out_shape = sa[:-1] + (sb[-1:] if len(sb) >= 2 else [])   # a vector b: mv, dot
        inputs = {a_arg.name: b.input_spec(a_arg, sa, layout),
                  b_arg.name: b.input_spec(b_arg, sb, layout)}
        for x in others:
            inputs[x.name] = b.input_spec(x, out_shape, layout)
        ordered = {x.name: inputs[x.name] for x in p.inputs}
        if tag == "base":
            for attrs in attr_combos(p, b.dtype):
                b.add(tag, ordered, attrs)
            b.outstrided(ordered, b.first_attrs())
            for x in others:   # an input broadcast to the product's shape (addmm's bias)
                if x.direction == "inout":   # in place: input is the result
                    continue
                bias = dict(ordered)
                bias[x.name] = b.input_spec(x, out_shape[-1:], layout)
                b.add("bias_bcast", bias, b.first_attrs())
        else:
            b.add(tag, ordered, b.first_attrs())


def diag(b: CaseBuilder) -> None:
    """diag(input, diagonal): vectors (made matrices) and matrices (their diagonals)."""
    p = b.p
    (src,) = p.inputs
    table = [("base", [4, 5], "contiguous"), ("vector", [5], "contiguous"),
             ("square", [4, 4], "contiguous"), ("empty", [0], "contiguous"),
             ("empty2d", [0, 3], "contiguous"), ("large", LARGE, "contiguous"),
             ("transposed", [4, 5], "transposed"), ("sliced", [4, 5], "sliced")]
    for tag, shape, layout in table:
        inputs = {src.name: b.input_spec(src, shape, layout)}
        combos = (attr_combos(p, b.dtype) if tag in ("base", "vector")
                  else [b.first_attrs()])
        for attrs in combos:
            b.add(tag, inputs, attrs)
