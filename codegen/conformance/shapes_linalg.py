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


def matmul(b: CaseBuilder, table, batch_summed: bool = False) -> None:
    """`batch_summed`: the batched products are added up (addbmm): the result has no batch dim."""
    p = b.p
    a_arg, b_arg = [next(x for x in p.inputs if x.name == n) for n in p.rule_tensors]
    others = [x for x in p.inputs if x.name not in p.rule_tensors]
    for tag, sa, sb, layout in table:
        out_shape = sa[:-1] + (sb[-1:] if len(sb) >= 2 else [])   # a vector b: mv, dot
        if batch_summed:
            out_shape = out_shape[1:]
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


OUTER = [
    ("base", [3], [4], "contiguous"),
    ("one", [1], [1], "contiguous"),
    ("empty", [0], [4], "contiguous"),
    ("large", [129], [67], "contiguous"),
    ("sliced", [3], [4], "sliced"),
]


def outer(b: CaseBuilder) -> None:
    """addr: vectors [n] and [m], the added input [n, m], broadcast from [m] and from a scalar."""
    p = b.p
    a_arg, b_arg = [next(x for x in p.inputs if x.name == n) for n in p.rule_tensors]
    others = [x for x in p.inputs if x.name not in p.rule_tensors]
    for tag, sa, sb, layout in OUTER:
        out_shape = sa + sb
        inputs = {a_arg.name: b.input_spec(a_arg, sa, layout),
                  b_arg.name: b.input_spec(b_arg, sb, layout)}
        for x in others:
            inputs[x.name] = b.input_spec(x, out_shape, layout)
        ordered = {x.name: inputs[x.name] for x in p.inputs}
        if tag != "base":
            b.add(tag, ordered, b.first_attrs())
            continue
        for attrs in attr_combos(p, b.dtype):
            b.add(tag, ordered, attrs)
        b.outstrided(ordered, b.first_attrs())
        for x in others:
            for bcast_tag, shape in (("bias_row", sb), ("bias_scalar", [])):
                bias = dict(ordered)
                bias[x.name] = b.input_spec(x, shape, layout)
                b.add(bcast_tag, bias, b.first_attrs())


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


def trace(b: CaseBuilder) -> None:
    """trace(input): the diagonal sum of matrices, wide, tall, empty and strided."""
    p = b.p
    (src,) = p.inputs
    table = [("base", [4, 5], "contiguous"), ("tall", [5, 3], "contiguous"),
             ("one", [1, 1], "contiguous"), ("empty", [0, 3], "contiguous"),
             ("large", [129, 130], "contiguous"), ("transposed", [4, 5], "transposed"),
             ("sliced", [4, 5], "sliced")]
    for tag, shape, layout in table:
        b.add(tag, {src.name: b.input_spec(src, shape, layout)}, b.first_attrs())


# Factorizations of batches of matrices (svd, qr, eigh, inv, lu, det, cholesky): square
# matrices, batched, empty and strided; rectangular ones where the function takes them.
FACTOR = [
    ("base", [4, 4], "contiguous"),
    ("one", [1, 1], "contiguous"),
    ("batched", [2, 3, 3, 3], "contiguous"),
    ("empty_batch", [0, 3, 3], "contiguous"),
    ("empty", [0, 0], "contiguous"),
    ("large", [33, 33], "contiguous"),
    ("transposed", [5, 5], "transposed"),
    ("sliced", [2, 5, 5], "sliced"),
]
FACTOR_RECT = [
    ("tall", [5, 3], "contiguous"),
    ("wide", [3, 5], "contiguous"),
    ("batched_wide", [2, 2, 4], "contiguous"),
    ("empty_cols", [3, 0], "contiguous"),
]


def _lu_of_transpose(p) -> bool:
    """det, slogdet and solve_ex factor A^T when A is contiguous (as ATen): their LU and pivots
    depend on A's layout, which the reference (contiguous copies) does not reproduce, so their
    cases keep A contiguous."""
    rules = {r.rule for r in p.rules.values()}
    return "lu_pivots" in rules and bool(rules & {"batch", "solve"})


def factor(b: CaseBuilder, rectangular: bool) -> None:
    """One matrix input: every attribute combination on the base shape, the first elsewhere."""
    p = b.p
    (src,) = p.inputs
    table = FACTOR + (FACTOR_RECT if rectangular else [])
    if _lu_of_transpose(p):
        table = [row for row in table if row[2] == "contiguous"]
    for tag, shape, layout in table:
        inputs = {src.name: b.input_spec(src, shape, layout)}
        combos = attr_combos(p, b.dtype) if tag in ("base", "tall", "wide") else [b.first_attrs()]
        for attrs in combos:
            b.add(tag, inputs, attrs)
        if tag == "base":
            b.outstrided(inputs, b.first_attrs())


# (tag, A's shape, B's shape, layout): square systems, batch broadcasting, vector right-hand sides
SOLVE = [
    ("base", [4, 4], [4, 3], "contiguous"),
    ("vector", [4, 4], [4], "contiguous"),
    ("batched", [2, 3, 3], [2, 3, 2], "contiguous"),
    ("batched_vector", [2, 3, 3], [2, 3], "contiguous"),
    ("bcast", [2, 1, 3, 3], [4, 3, 1], "contiguous"),
    ("empty", [0, 3, 3], [0, 3, 2], "contiguous"),
    ("large", [33, 33], [33, 5], "contiguous"),
    ("transposed", [4, 4], [4, 4], "transposed"),
    ("sliced", [4, 4], [4, 3], "sliced"),
]


def solve(b: CaseBuilder) -> None:
    """solve(A, B): A's systems with B's right-hand sides; left=False transposes the roles, so
    its cases take square B."""
    p = b.p
    a_arg, b_arg = [next(x for x in p.inputs if x.name == n) for n in p.rule_tensors]
    table = [row for row in SOLVE if row[3] == "contiguous" or not _lu_of_transpose(p)]
    for tag, sa, sb, layout in table:
        inputs = {a_arg.name: b.input_spec(a_arg, sa, layout),
                  b_arg.name: b.input_spec(b_arg, sb, layout)}
        if tag == "base":
            b.add(tag, inputs, b.first_attrs())
            b.outstrided(inputs, b.first_attrs())
            square = {a_arg.name: inputs[a_arg.name], b_arg.name: b.input_spec(b_arg, sa, layout)}
            for attrs in attr_combos(p, b.dtype):
                b.add("square", square, attrs)
        else:
            b.add(tag, inputs, b.first_attrs())


# (tag, shape of self, shape of other, dim, layout): size 3 along dim, the rest broadcast
CROSS = [
    ("base", [4, 3], [4, 3], -1, "contiguous"),
    ("vector", [3], [3], 0, "contiguous"),
    ("dim0", [3, 5], [3, 5], 0, "contiguous"),
    ("bcast", [2, 1, 3], [1, 4, 3], -1, "contiguous"),
    ("empty", [0, 3], [0, 3], 1, "contiguous"),
    ("large", [1031, 3], [1031, 3], 1, "contiguous"),
    ("transposed", [3, 4], [3, 4], 0, "transposed"),
    ("sliced", [4, 3], [4, 3], -1, "sliced"),
]


def cross(b: CaseBuilder) -> None:
    p = b.p
    a_arg, b_arg = [next(x for x in p.inputs if x.name == n) for n in p.rule_tensors]
    for tag, sa, sb, dim, layout in CROSS:
        inputs = {a_arg.name: b.input_spec(a_arg, sa, layout),
                  b_arg.name: b.input_spec(b_arg, sb, layout)}
        b.add(tag, inputs, b.attrs_with(dim=dim))
        if tag == "base":
            b.outstrided(inputs, b.attrs_with(dim=dim))


# (tag, A's shape, B's shape, layout): systems with a given factor (lu_solve's LU and pivots) or
# triangle (triangular_solve, solve_triangular); A's batch broadcast against B's
TRIANGULAR = [
    ("base", [4, 4], [4, 3], "contiguous"),
    ("batched", [2, 3, 3], [2, 3, 2], "contiguous"),
    ("bcast", [3, 3], [2, 3, 2], "contiguous"),
    ("empty", [0, 3, 3], [0, 3, 2], "contiguous"),
    ("large", [17, 17], [17, 5], "contiguous"),
    ("transposed", [4, 4], [4, 4], "transposed"),
    ("sliced", [4, 4], [4, 3], "sliced"),
]


def lu_solve(b: CaseBuilder) -> None:
    """lu_solve(A, B): A square (a pivots input gets valid 1-based row interchanges), B its
    right-hand sides; the attribute combinations run on square systems, so left=False fits."""
    p = b.p
    a_arg, b_arg = [next(x for x in p.inputs if x.name == n) for n in p.rule_tensors]
    others = [x for x in p.inputs if x.name not in p.rule_tensors]

    def inputs(sa, sb, layout):
        specs = {a_arg.name: b.input_spec(a_arg, sa, layout),
                 b_arg.name: b.input_spec(b_arg, sb, layout)}
        for x in others:   # LU's pivots [*, n]
            specs[x.name] = b.input_spec(x, sa[:-1], "contiguous", f"pivots{sa[-1]}")
        return {x.name: specs[x.name] for x in p.inputs}

    for tag, sa, sb, layout in TRIANGULAR:
        case = inputs(sa, sb, layout)
        b.add(tag, case, b.first_attrs())
        if tag == "base":
            b.outstrided(case, b.first_attrs())
            for attrs in attr_combos(p, b.dtype):
                b.add("square", inputs(sa, sa, layout), attrs)
