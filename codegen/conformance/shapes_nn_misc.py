"""Shape classes of the nn ops whose arguments fit no pooling or loss table: reflection and
replication padding, glu, prelu, im2col and the margin losses."""

from __future__ import annotations

from .case_builder import CaseBuilder
from .shapes_nn import add_nchw
from .values import attr_combos

# (tag, input, pad, layout) for the function's first overload (1-D padding: one (left, right)
# pair; negative pads crop, a pad up to size - 1 is the furthest a reflection reaches)
PAD = [
    ("base", [2, 3, 8], [2, 3], "contiguous"),
    ("no_batch", [3, 7], [1, 2], "contiguous"),
    ("crop", [2, 3, 8], [-2, 1], "contiguous"),
    ("zero", [2, 2, 5], [0, 0], "contiguous"),
    ("widest", [1, 2, 4], [3, 3], "contiguous"),
    ("large", [4, 8, 300], [5, 7], "contiguous"),
    ("transposed", [2, 5, 6], [1, 2], "transposed"),
    ("sliced", [2, 5, 6], [2, 1], "sliced"),
]


def pad(b: CaseBuilder) -> None:
    key = next(d for d, a in b.p.diopi_to_aten.items() if a == "padding")
    for tag, x, widths, layout in PAD:
        add_nchw(b, tag, {"input": x}, layout, {key: widths})


# (tag, input, dim, layout): the halved dim even
GLU = [("base", [4, 6], -1, "contiguous"), ("dim0", [6, 3], 0, "contiguous"),
       ("3d", [2, 4, 6], 1, "contiguous"), ("empty", [0, 4], -1, "contiguous"),
       ("large", [33, 1032], -1, "contiguous"), ("transposed", [4, 6], 0, "transposed"),
       ("sliced", [4, 6], -1, "sliced")]


def glu(b: CaseBuilder) -> None:
    for tag, x, dim, layout in GLU:
        add_nchw(b, tag, {"input": x}, layout, {"dim": dim})
    x = b.p.inputs[0]
    b.outstrided({x.name: b.input_spec(x, [4, 6])}, b.attrs_with(dim=-1))


# (tag, input, weight shape, layout): one weight, or one per channel (dim 1)
PRELU = [("base", [4, 3, 5], [3], "contiguous"), ("shared", [4, 3, 5], [1], "contiguous"),
         ("flat", [6, 4], [4], "contiguous"), ("vec", [7], [1], "contiguous"),
         ("empty", [0, 3], [3], "contiguous"), ("large", [8, 16, 17, 19], [16], "contiguous"),
         ("transposed", [4, 3, 5], [3], "transposed")]


def prelu(b: CaseBuilder) -> None:
    for tag, x, w, layout in PRELU:
        add_nchw(b, tag, {"input": x, "weight": w}, layout, {})


# (tag, input, kernel_size, dilation, padding, stride, layout)
IM2COL = [
    ("base", [2, 3, 6, 7], [2, 2], [1, 1], [0, 0], [1, 1], "contiguous"),
    ("strided", [1, 2, 8, 9], [3, 2], [1, 2], [1, 0], [2, 1], "contiguous"),
    ("no_batch", [3, 5, 5], [2, 3], [1, 1], [1, 1], [1, 1], "contiguous"),
    ("large", [2, 4, 33, 35], [3, 3], [1, 1], [1, 1], [2, 2], "contiguous"),
    ("transposed", [2, 3, 6, 7], [2, 2], [1, 1], [1, 1], [1, 1], "transposed"),
]


def im2col(b: CaseBuilder) -> None:
    for tag, x, kernel, dilation, padding, stride, layout in IM2COL:
        add_nchw(b, tag, {"input": x}, layout, {"kernel_size": kernel, "dilation": dilation,
                                                 "padding": padding, "stride": stride})


# (tag, input [N, C] or [C], layout)
MARGIN = [("base", [6, 5], "contiguous"), ("single", [5], "contiguous"),
          ("large", [257, 33], "contiguous"), ("transposed", [6, 5], "transposed"),
          ("sliced", [6, 5], "sliced")]


def margin_loss(b: CaseBuilder, multilabel: bool = False) -> None:
    """Class scores and targets: a class index per sample (multi_margin_loss), or a row of
    class indices per sample (multilabel_margin_loss; every entry a label, no -1 terminator)."""
    p = b.p
    for tag, shape, layout in MARGIN:
        classes = shape[-1]
        target_shape = shape if multilabel else shape[:-1]
        combos = attr_combos(p, b.dtype) if tag == "base" else [b.first_attrs()]
        for attrs in combos:
            for with_weight in ((False, True) if tag == "base" else (False,)):
                inputs = {}
                for a in p.inputs:
                    if a.name == "input":
                        inputs[a.name] = b.input_spec(a, shape, layout)
                    elif a.name == "target":
                        inputs[a.name] = b.input_spec(a, target_shape, "contiguous",
                                                      f"index{classes}")
                    else:   # the optional class weights
                        inputs[a.name] = (b.input_spec(a, [classes], "contiguous", "positive")
                                          if with_weight else None)
                b.add(tag, inputs, dict(attrs))
