"""Output rule -> shape class: how the cases of a function whose output that rule shapes are
built (the input shapes, layouts and attribute values that exercise it).

Beside the rules vocabulary (codegen/rules.py OUTPUT_RULES): every rule has a shape class
here or is listed in NO_SHAPE_CLASS with the reason (tests/python/test_conformance_cases.py
checks the two cover OUTPUT_RULES). The classes themselves are in shapes_*.py.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Callable

from . import shapes_creation as creation
from . import shapes_index as index
from . import shapes_linalg as linalg
from . import shapes_nn as nn
from . import shapes_nn_misc as nn_misc
from . import shapes_pointwise as pointwise
from . import shapes_reduce as reduce
from .case_builder import CaseBuilder
from .optional_cover import cover_optionals

if TYPE_CHECKING:
    from .plan import FnPlan

# Output rules that pick the shape class even when another output comes first (the
# statistics of a normalization: its first output is `like(input)`).
SPECIAL_CLASSES = ("layer_norm_stats", "batch_norm_stats", "batch_norm_saved",
                   # solve_ex's result, ahead of its pivots; a factorization's info, pivots or
                   # diagonal, whose first output is `like(A)` (inv, LU, geqrf's a)
                   "svd_u", "solve", "batch_info", "lu_pivots", "matrix_diag")


def _operands(b: CaseBuilder) -> None:
    """A rule over two or three tensors broadcasts them; with one tensor (the others Scalars:
    add.Scalar) it is element-wise."""
    if len(b.p.rule_tensors) >= 2:
        pointwise.broadcast(b)
    else:
        pointwise.elementwise(b)


SHAPE_CLASSES: dict[str, Callable[[CaseBuilder], None]] = {
    # the plan's own rules for runtime-only functions (plan.py)
    "convert": pointwise.convert,
    "optimizer": pointwise.optimizer,
    # one output shaped like an input
    **dict.fromkeys(("like", "like_float", "like_bool", "like_int64", "like_int32",
                     "bool_scalar",
                     "allocated", "cast", "cumsum"), pointwise.elementwise),
    "scalar": partial(pointwise.elementwise, skip_empty=True),   # max of nothing is an error
    **dict.fromkeys(("broadcast", "division", "compare", "select"), _operands),
    "pointwise_loss": pointwise.pointwise_loss,
    "reduce": reduce.reduce,
    "reduce_dim": reduce.reduce_dim,
    "argreduce": reduce.reduce_dim,
    "reduce_one": reduce.reduce_one,
    "reduce_dim_bool": reduce.reduce_one,
    "topk": reduce.topk,
    "mm": partial(linalg.matmul, table=linalg.MM),
    "bmm": partial(linalg.matmul, table=linalg.BMM),
    "addbmm": partial(linalg.matmul, table=linalg.BMM, batch_summed=True),
    "trace": linalg.trace,
    "reduce_count": reduce.reduce,
    "bucket": index.bucket,
    "histc": pointwise.elementwise,
    "mv": partial(linalg.matmul, table=linalg.MV),
    "dot": partial(linalg.matmul, table=linalg.DOT),
    "outer": linalg.outer,
    "diag": linalg.diag,
    **dict.fromkeys(("svd_u", "qr_q"), partial(linalg.factor, rectangular=True)),
    "solve": linalg.solve,
    "lu_solve": linalg.lu_solve,
    "cross": linalg.cross,
    **dict.fromkeys(("matrix_diag", "batch", "batch_info", "lu_pivots"),
                    partial(linalg.factor, rectangular=False)),
    "embedding": index.embedding,
    "index_select": partial(index.index, rule="index_select"),
    "gather": partial(index.index, rule="gather"),
    "cat": partial(index.concat, rule="cat"),
    "stack": partial(index.concat, rule="stack"),
    "repeat": index.repeat,
    "nll_loss": nn.nll,
    "conv": nn.conv,
    "pool2d": nn.pool2d,
    "adaptive_pool2d": nn.adaptive_pool2d,
    "pool3d": partial(nn.pool2d, table=nn.POOL3D),
    "pad": nn_misc.pad,
    "glu": nn_misc.glu,
    "prelu": nn_misc.prelu,
    "im2col": nn_misc.im2col,
    "multi_margin_loss": nn_misc.margin_loss,
    "multilabel_margin_loss": partial(nn_misc.margin_loss, multilabel=True),
    "layer_norm_stats": nn.layer_norm,
    "batch_norm_stats": nn.batch_norm,
    "batch_norm_saved": nn.batch_norm,
    "arange": creation.arange,
    "randperm": creation.randperm,
    "linspace": creation.linspace,
    "eye": creation.eye,
}

# Output rules that never choose a shape class, and why.
NO_SHAPE_CLASS = {
    "topk_indices": "topk's second output: the topk class builds the cases",
    "pool2d_indices": "max pooling's second output: the pool2d class builds the cases",
    "pool3d_indices": "3-D max pooling's second output: the pool3d class builds the cases",
    "adaptive_pool2d_indices": "adaptive max pooling's second output: the adaptive_pool2d "
                               "class builds the cases",
    "channels": "a bias gradient, never a first output: convolution backward's cases are "
                "derived from the forward's",
    "reduce_all": "the full reduction of a function whose first overload reduces over one dim "
                  "(prod): that overload's rule picks the class",
    "svd_vh": "svd's third output: svd_u's class builds the cases",
    "qr_r": "qr's second output: qr_q's class builds the cases",
    "eigh_vectors": "eigh's second output: matrix_diag's class builds the cases",
    "embedding_backward": "a backward: its cases are derived from the forward's",
    "group_norm_stats": "native_group_norm, the CPU reference, takes N, C and HxW, which DIOPI's "
                        "group norm reads from input's shape: no case can call it "
                        "(tests/python/test_ops_group_norm.py compares with the CPU instead)",
    "shape": "backwards sized by an argument (index_select_backward, gather_backward, "
             "upsampling's): their cases are derived from the forward's",
}


def build_cases(p: FnPlan, dtype: str) -> list[dict]:
    """The cases of one function in one dtype, by the shape class of its output rule."""
    b = CaseBuilder(p, dtype)
    try:
        if any(a.kind == "tensor_list" and a.optional for a in p.inputs):
            index.advanced_index(b)   # Tensor?[] indices, whatever shapes the output
        elif p.rule in SHAPE_CLASSES:
            SHAPE_CLASSES[p.rule](b)
        else:
            raise p.err(f"no shape class for output rule '{p.rule}' yet")
    except (ValueError, StopIteration, KeyError, IndexError) as e:
        raise p.err(f"the '{p.rule}' shape class does not fit the arguments "
                    f"({type(e).__name__}: {e})") from None
    p.uncovered.update(cover_optionals(b))
    return b.cases
