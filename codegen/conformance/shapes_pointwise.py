"""Shape classes of element-wise ops: one shape (like, like_float, scalar, cumsum, ...), two or
three broadcast operands (broadcast, division, compare, select), pointwise losses, the fused
optimizers (a parameter and its state) and runtime conversions."""

from __future__ import annotations

from ..dtypes import FLOAT_DTYPES
from .case_builder import LARGE, CaseBuilder, broadcast_shape
from .values import attr_combos, attr_values

# (tag, shapes of the rule's tensors, layout)
BROADCAST_2 = [
    ("base", [[4, 5], [4, 5]], "contiguous"),
    ("bcast", [[4, 5], [5]], "contiguous"),
    ("bcast_lead", [[5], [4, 5]], "contiguous"),
    ("bcast_both", [[4, 1], [1, 5]], "contiguous"),
    ("bcast_3d", [[2, 3, 5], [3, 1]], "contiguous"),
    ("scalar0d", [[], []], "contiguous"),
    ("mixed0d", [[4, 5], []], "contiguous"),
    ("empty", [[0, 5], [5]], "contiguous"),
    ("large", [LARGE, LARGE], "contiguous"),
    ("transposed", [[4, 5], [4, 5]], "transposed"),
    ("sliced", [[4, 5], [4, 5]], "sliced"),
]
BROADCAST_3 = [
    ("base", [[4, 5], [4, 5], [4, 5]], "contiguous"),
    ("bcast", [[4, 5], [5], [4, 1]], "contiguous"),
    ("bcast_lead", [[5], [4, 5], [4, 1]], "contiguous"),
    ("bcast_3d", [[2, 3, 5], [3, 1], [5]], "contiguous"),
    ("scalar0d", [[], [], []], "contiguous"),
    ("mixed0d", [[4, 5], [], [5]], "contiguous"),
    ("empty", [[0, 5], [5], [0, 1]], "contiguous"),
    ("large", [LARGE, LARGE, LARGE], "contiguous"),
    ("transposed", [[4, 5], [4, 5], [4, 5]], "transposed"),
    ("sliced", [[4, 5], [4, 5], [4, 5]], "sliced"),
]
ELEMENTWISE = [
    ("base", [4, 5], "contiguous"),
    ("scalar0d", [], "contiguous"),
    ("empty", [0, 3], "contiguous"),
    ("vec", [7], "contiguous"),
    ("3d", [2, 3, 4], "contiguous"),
    ("large", LARGE, "contiguous"),
    ("transposed", [4, 5], "transposed"),
    ("sliced", [4, 5], "sliced"),
]


def elementwise(b: CaseBuilder, skip_empty: bool = False) -> None:
    p = b.p
    has_dim = any(a.name == "dim" for a in p.attrs)
    min_ndim = p.fn.conformance.min_ndim
    for tag, shape, layout in ELEMENTWISE:
        if skip_empty and tag == "empty":
            continue   # a full reduction of nothing (max of an empty tensor) is an error
        if len(shape) < min_ndim:
            continue   # triu/tril: matrices (and batches of them) only
        inputs = {a.name: b.input_spec(a, shape, layout) for a in p.inputs}
        if tag == "base":
            for attrs in attr_combos(p, b.dtype):
                b.add(tag, inputs, attrs)
            if b.dtype in FLOAT_DTYPES and b.values == "normal":
                pos = {a.name: b.input_spec(a, shape, layout, "positive") for a in p.inputs}
                b.add("positive", pos, b.first_attrs())
            b.outstrided(inputs, b.first_attrs())
        else:
            attrs = b.first_attrs()
            if has_dim and not shape:
                attrs["dim"] = 0
            b.add(tag, inputs, attrs)


def broadcast(b: CaseBuilder) -> None:
    p = b.p
    rule_args = [next(a for a in p.inputs if a.name == n) for n in p.rule_tensors]
    others = [a for a in p.inputs if a.name not in p.rule_tensors]
    inout = [a.name for a in p.inputs if a.direction == "inout"]
    table = BROADCAST_2 if len(rule_args) == 2 else BROADCAST_3
    for tag, shapes, layout in table:
        shapes = shapes[:len(rule_args)]
        out_shape = broadcast_shape(*shapes)
        if any(shapes[p.rule_tensors.index(n)] != out_shape for n in inout):
            continue  # in-place: self must already have the broadcast shape
        inputs = {a.name: b.input_spec(a, s, layout) for a, s in zip(rule_args, shapes)}
        for a in others:   # a tensor outside the rule acts as a scalar (masked_fill's value)
            inputs[a.name] = b.input_spec(a, [], "contiguous")
        inputs = {a.name: inputs.get(a.name) for a in p.inputs}   # an optional weight: absent
        if tag == "base":
            for attrs in attr_combos(p, b.dtype):
                b.add(tag, inputs, attrs)
            b.outstrided(inputs, b.first_attrs())
        else:
            b.add(tag, inputs, b.first_attrs())


def pointwise_loss(b: CaseBuilder) -> None:
    """mse_loss / smooth_l1_loss / binary_cross_entropy (without its weight): the two-operand
    broadcast table, every attribute combination (each reduction) on the base shapes, each
    reduction elsewhere; out_strided unreduced."""
    p = b.p
    names = {a.name: a for a in p.inputs}
    rule_args = [names[n] for n in p.rule_tensors]
    reductions = [a for a in p.attrs if a.name == "reduction"]
    for tag, shapes, layout in BROADCAST_2:
        shapes = shapes[:2]
        inputs = {a.name: b.input_spec(a, s, layout) for a, s in zip(rule_args, shapes)}
        inputs = {a.name: inputs.get(a.name) for a in p.inputs}   # an optional weight: absent
        if tag == "base":
            for attrs in attr_combos(p, b.dtype):
                b.add(tag, inputs, attrs)
            if reductions:
                b.outstrided(inputs, b.attrs_with(reduction=0))
            continue
        for r in attr_values(p, reductions[0], b.dtype) if reductions else [None]:
            b.add(tag, inputs, b.attrs_with(**({"reduction": r} if reductions else {})))


def optimizer(b: CaseBuilder) -> None:
    """A parameter and its state, all of one shape and layout (every shape class of
    an element-wise op); the hyper-parameters' product on the base shape."""
    p = b.p
    for tag, shape, layout in ELEMENTWISE:
        # the state that must be non-negative (exp_avg_sq) is drawn so by the catalogue's
        # `conformance.inputs`
        inputs = {a.name: b.input_spec(a, shape, layout) for a in p.inputs}
        combos = attr_combos(p, b.dtype) if tag == "base" else [b.first_attrs()]
        for attrs in combos:
            b.add(tag, inputs, attrs)


def convert(b: CaseBuilder) -> None:
    p = b.p
    (src,) = p.inputs
    out_name = p.reference["output"]
    dtypes = src.dtypes or p.fam.dtypes
    for tag, shape, layout in ELEMENTWISE:
        out_layout = "sliced" if layout == "sliced" else "contiguous"
        in_layout = "transposed" if layout == "transposed" else "contiguous"
        b.add(tag, {src.name: b.input_spec(src, shape, in_layout)}, {},
              out_layout=out_layout, extra={"out_dtypes": {out_name: b.dtype}})
    # conversions from this dtype into every other one
    for other in dtypes:
        if other != b.dtype:
            b.add("to_" + other, {src.name: b.input_spec(src, [4, 5])}, {},
                  extra={"out_dtypes": {out_name: other}})
