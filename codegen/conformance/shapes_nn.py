"""Shape classes of neural-network ops on [N, C, ...] activations: nll_loss, convolution,
pooling, adaptive pooling and nearest upsampling, batch norm and layer norm."""

from __future__ import annotations

from .case_builder import LARGE, CaseBuilder
from .values import attr_combos

# (tag, input shape [N, C] or [C], layout)
NLL = [
    ("base", [6, 5], "contiguous"),
    ("single", [5], "contiguous"),
    ("empty", [0, 5], "contiguous"),
    ("large", [257, 33], "contiguous"),
    ("transposed", [6, 5], "transposed"),
    ("sliced", [6, 5], "sliced"),
]


def nll(b: CaseBuilder) -> None:
    p = b.p
    names = {a.name: a for a in p.inputs}
    score = names[p.rule_tensors[0]]
    target = names[p.rule_tensors[1]]
    weights = [a for a in p.inputs if a.name not in p.rule_tensors]
    for tag, shape, layout in NLL:
        classes = shape[-1]
        inputs = {score.name: b.input_spec(score, shape, layout),
                  target.name: b.input_spec(target, shape[:-1], "contiguous",
                                            f"index{classes}")}
        combos = attr_combos(p, b.dtype) if tag == "base" else [b.first_attrs()]
        for attrs in combos:
            for with_weight in ((False, True) if tag == "base" else (False,)):
                case_inputs = dict(inputs)
                case_attrs = dict(attrs)
                for w in weights:
                    case_inputs[w.name] = (b.input_spec(w, [classes], "contiguous",
                                                        "positive")
                                           if with_weight else None)
                ordered = {a.name: case_inputs[a.name] for a in p.inputs}
                b.add(tag, ordered, case_attrs)


def add_nchw(b: CaseBuilder, tag: str, tensors: dict, layout: str, attrs: dict) -> None:
    """tensors: DIOPI input name -> shape (None: absent); the first is the activation and
    takes `layout`, the others are parameters (contiguous)."""
    p = b.p
    inputs, first = {}, True
    for a in p.inputs:
        shape = tensors.get(a.name)
        # (batch norm's running_var is drawn positive by the catalogue's `conformance.inputs`)
        inputs[a.name] = None if shape is None else b.input_spec(
            a, shape, layout if first else "contiguous")
        first = False
    b.add(tag, inputs, b.attrs_with(**attrs))


# (tag, input, weight, bias?, stride, padding, dilation, groups, layout)
CONV = [
    ("base", [2, 3, 8, 9], [4, 3, 3, 3], True, [1, 1], [1, 1], [1, 1], 1, "contiguous"),
    ("stride2", [2, 3, 9, 8], [5, 3, 3, 2], True, [2, 2], [0, 1], [1, 1], 1, "contiguous"),
    ("dilation", [1, 2, 9, 9], [3, 2, 3, 3], True, [1, 2], [2, 2], [2, 2], 1, "contiguous"),
    ("groups", [2, 4, 6, 7], [6, 2, 3, 3], True, [1, 1], [1, 1], [1, 1], 2, "contiguous"),
    ("depthwise", [1, 4, 6, 6], [4, 1, 3, 3], False, [1, 1], [1, 1], [1, 1], 4, "contiguous"),
    ("no_bias_1x1", [2, 5, 4, 4], [3, 5, 1, 1], False, [1, 1], [0, 0], [1, 1], 1,
     "contiguous"),
    ("large", [2, 8, 33, 35], [16, 8, 3, 3], True, [1, 1], [1, 1], [1, 1], 1, "contiguous"),
    ("transposed", [2, 3, 7, 6], [4, 3, 3, 3], True, [1, 1], [1, 1], [1, 1], 1, "transposed"),
    ("sliced", [2, 3, 7, 6], [4, 3, 2, 2], True, [2, 1], [0, 0], [1, 1], 1, "sliced"),
]


def conv(b: CaseBuilder) -> None:
    for tag, x, w, bias, stride, padding, dilation, groups, layout in CONV:
        add_nchw(b, tag, {"input": x, "weight": w, "bias": [w[0]] if bias else None},
                 layout, {"stride": stride, "padding": padding,
                          "dilation": dilation, "groups": groups})


# (tag, input, kernel, stride, padding, dilation, ceil_mode, layout): padding <= kernel / 2
POOL = [
    ("base", [2, 3, 8, 9], [3, 3], [2, 2], [1, 1], [1, 1], False, "contiguous"),
    ("default_stride", [1, 2, 8, 8], [2, 2], [], [0, 0], [1, 1], False, "contiguous"),
    ("ceil", [1, 2, 7, 7], [2, 2], [2, 2], [0, 0], [1, 1], True, "contiguous"),
    ("rect", [2, 2, 9, 7], [3, 2], [2, 1], [1, 0], [1, 1], False, "contiguous"),
    ("dilation", [1, 3, 9, 9], [2, 2], [1, 1], [0, 0], [2, 2], False, "contiguous"),
    ("no_batch", [3, 6, 6], [2, 2], [2, 2], [0, 0], [1, 1], False, "contiguous"),
    ("large", [2, 4, 33, 35], [3, 3], [2, 2], [1, 1], [1, 1], True, "contiguous"),
    ("transposed", [2, 3, 6, 7], [2, 2], [2, 2], [1, 1], [1, 1], False, "transposed"),
    ("sliced", [2, 3, 6, 7], [3, 3], [1, 1], [1, 1], [1, 1], False, "sliced"),
]


# The same for 3-D pooling ([N, C, D, H, W] or [C, D, H, W] inputs)
POOL3D = [
    ("base", [2, 3, 5, 6, 7], [3, 3, 3], [2, 2, 2], [1, 1, 1], [1, 1, 1], False, "contiguous"),
    ("default_stride", [1, 2, 4, 4, 4], [2, 2, 2], [], [0, 0, 0], [1, 1, 1], False,
     "contiguous"),
    ("ceil", [1, 2, 5, 5, 5], [2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1], True, "contiguous"),
    ("rect", [2, 2, 5, 7, 6], [3, 2, 1], [2, 1, 1], [1, 0, 0], [1, 1, 1], False, "contiguous"),
    ("dilation", [1, 2, 7, 7, 7], [2, 2, 2], [1, 1, 1], [0, 0, 0], [2, 2, 2], False,
     "contiguous"),
    ("no_batch", [3, 4, 4, 4], [2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1], False, "contiguous"),
    ("large", [2, 4, 9, 17, 19], [3, 3, 3], [2, 2, 2], [1, 1, 1], [1, 1, 1], True,
     "contiguous"),
    ("transposed", [2, 3, 4, 6, 7], [2, 2, 2], [2, 2, 2], [1, 1, 1], [1, 1, 1], False,
     "transposed"),
    ("sliced", [2, 3, 4, 6, 7], [3, 3, 3], [1, 1, 1], [1, 1, 1], [1, 1, 1], False, "sliced"),
]


def pool2d(b: CaseBuilder, table=POOL) -> None:
    """Max and average pooling over the table's windows (pool3d: the POOL3D table)."""
    names = {a.name for a in b.p.attrs}
    for tag, x, kernel, stride, padding, dilation, ceil, layout in table:
        if "dilation" not in names and any(d != 1 for d in dilation):
            continue
        attrs = {"kernel_size": kernel, "stride": stride, "padding": padding,
                 "dilation": dilation, "ceil_mode": ceil}
        add_nchw(b, tag, {"input": x}, layout, attrs)
        if tag == "base" and "count_include_pad" in names:   # avg pooling's divisors
            add_nchw(b, "exclude_pad", {"input": x}, layout,
                     {**attrs, "count_include_pad": False})
            add_nchw(b, "divisor", {"input": x}, layout, {**attrs, "divisor_override": 5})


def adaptive_pool2d(b: CaseBuilder) -> None:
    """[..., oH, oW] from an output size: adaptive pooling, nearest upsampling (whose DIOPI
    argument is `size`)."""
    key = next((d for d, a in b.p.diopi_to_aten.items() if a == "output_size"),
               "output_size")
    table = [("base", [2, 3, 7, 9], [3, 4]), ("global", [2, 4, 5, 5], [1, 1]),
             ("identity", [1, 2, 4, 4], [4, 4]), ("upsample", [1, 2, 3, 4], [5, 6]),
             ("no_batch", [3, 8, 8], [2, 2]), ("large", [2, 4, 33, 35], [7, 7])]
    if key != "output_size":   # upsampling: 4-D only; the x2 fast path, a large map
        table = [t for t in table if t[0] != "no_batch"] + [
            ("double", [2, 3, 4, 5], [8, 10]), ("large_up", [2, 4, 17, 19], [40, 45])]
    for tag, x, size in table:
        add_nchw(b, tag, {"input": x}, "contiguous", {key: size})
    add_nchw(b, "transposed", {"input": [2, 3, 7, 9]}, "transposed", {key: [2, 3]})


# (tag, input, affine, running stats, training, layout)
BATCH_NORM = [
    ("base", [4, 3, 5, 5], True, True, True, "contiguous"),
    ("eval", [4, 3, 5, 5], True, True, False, "contiguous"),
    ("no_affine", [4, 3, 5, 5], False, True, True, "contiguous"),
    ("no_running", [4, 3, 5, 5], True, False, True, "contiguous"),
    ("flat", [6, 4], True, True, True, "contiguous"),
    ("seq", [2, 3, 7], True, True, False, "contiguous"),
    ("large", [8, 16, 17, 19], True, True, True, "contiguous"),
    ("transposed", [4, 3, 5, 6], True, True, True, "transposed"),
]


def batch_norm(b: CaseBuilder) -> None:
    for tag, x, affine, running, training, layout in BATCH_NORM:
        c = [x[1]]
        tensors = {"input": x, "weight": c if affine else None, "bias": c if affine else None,
                   "running_mean": c if running else None,
                   "running_var": c if running else None}
        add_nchw(b, tag, tensors, layout,
                 {"training": training, "momentum": 0.1, "eps": 1e-5})


def layer_norm(b: CaseBuilder) -> None:
    p = b.p
    names = {a.name: a for a in p.inputs}
    stats_rule = next(r for r in p.rules.values() if r.rule == "layer_norm_stats")
    aten_to_diopi = {v: k for k, v in p.diopi_to_aten.items()}
    src = names[aten_to_diopi[stats_rule.args[0]]]
    size_arg = aten_to_diopi[stats_rule.args[1]]
    affine = [a for a in p.inputs if a is not src]
    table = [("base", [4, 5], 1, "contiguous"), ("2dims", [2, 3, 4], 2, "contiguous"),
             ("vec", [7], 1, "contiguous"), ("empty", [0, 5], 1, "contiguous"),
             ("large", LARGE, 1, "contiguous"), ("transposed", [4, 5], 1, "transposed"),
             ("sliced", [4, 5], 1, "sliced")]
    for tag, shape, nnorm, layout in table:
        normalized = shape[len(shape) - nnorm:]
        for with_affine in ((True, False) if tag == "base" else (True,)):
            inputs = {src.name: b.input_spec(src, shape, layout)}
            for a in affine:
                inputs[a.name] = b.input_spec(a, normalized) if with_affine else None
            inputs = {a.name: inputs[a.name] for a in p.inputs}
            attrs = b.first_attrs(skip=(size_arg,))
            attrs[size_arg] = normalized
            attrs = {a.name: attrs[a.name] for a in p.attrs}
            b.add(tag, inputs, attrs)
