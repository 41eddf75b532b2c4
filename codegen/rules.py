"""Closed vocabularies of hand-written C++ helpers the catalogue may call by name: output-shaping
rules, argument helpers, guard helpers and computed-output helpers.

Each helper is implemented once, by hand, in runtime/include/opweave/output_rules.h or
arg_helpers.h (C++) and described here so the generator can check names and arity before
emitting code; a parsed call is the vocabulary's own model record (codegen/model.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import ArgHelperCall, ComputedHelperCall, GuardHelperCall, HelperCall, OutputRule


@dataclass(frozen=True)
class RuleSpec:
    arity: tuple[int, ...]   # accepted argument counts
    doc: str


class Vocabulary(dict):
    """Helper name -> RuleSpec; `record` is the model type a call of one of them becomes."""

    def __init__(self, record: type, entries: dict[str, RuleSpec]):
        super().__init__(entries)
        self.record = record


OUTPUT_RULES = Vocabulary(OutputRule, {
    "like": RuleSpec((1,), "same shape and dtype as the argument"),
    "like_float": RuleSpec((1,), "same shape; floating dtypes kept, integral and bool become "
                                 "the default float dtype (exp, log, sqrt of an int tensor)"),
    "like_bool": RuleSpec((1,), "same shape, bool dtype"),
    "like_int64": RuleSpec((1,), "same shape, int64 dtype (sort's indices)"),
    "like_int32": RuleSpec((1,), "same shape, int32 dtype (frexp's exponent)"),
    "bool_scalar": RuleSpec((1,), "0-dim bool tensor (any / all over every element)"),
    "reduce_dim_bool": RuleSpec((3,), "reduce_dim_bool(input, dim, keepdim): reduce_dim's shape, "
                                      "bool (any / all along a dim)"),
    "reduce_all": RuleSpec((2,), "reduce_all(input, dtype): 0-dim; integral and bool inputs "
                                 "accumulate in int64 unless dtype is given (prod)"),
    "reduce_one": RuleSpec((4,), "reduce_one(input, dim, keepdim, dtype): reduction over one dim; "
                                 "integral and bool inputs accumulate in int64 unless dtype is "
                                 "given (prod)"),
    "topk": RuleSpec((3,), "topk(input, k, dim): input's shape with dim resized to k"),
    "topk_indices": RuleSpec((3,), "topk_indices(input, k, dim): topk's shape, int64"),
    "randperm": RuleSpec((1,), "randperm(n): [n], int64"),
    "linspace": RuleSpec((1,), "linspace(steps): [steps] (int64, castable to every out dtype but "
                               "bool)"),
    "allocated": RuleSpec((0,), "allocated(): the kernel allocates the output (diopiRequireTensor) "
                                "because its shape depends on the data (nonzero); DIOPI passes "
                                "diopiTensorHandle_t*"),
    "repeat": RuleSpec((2,), "repeat(input, repeats): each dim multiplied by its repeat count "
                             "(leading repeats add dims)"),
    "broadcast": RuleSpec((2, 3), "broadcast shape of the arguments, promoted dtype"),
    "compare": RuleSpec((2,), "broadcast shape of the arguments, bool dtype"),
    "select": RuleSpec((3,), "select(condition, a, b): broadcast shape, dtype promoted from a and b"),
    "reduce": RuleSpec((3, 4), "reduce(input, dim, keepdim[, dtype]): reduction over dims"),
    "mm": RuleSpec((2,), "matrix product [n, m] x [m, p] -> [n, p]"),
    "bmm": RuleSpec((2,), "batched matrix product [b, n, m] x [b, m, p] -> [b, n, p]"),
    "addbmm": RuleSpec((2,), "addbmm(batch1, batch2): the sum of the batched product, [b, n, m] x "
                             "[b, m, p] -> [n, p]"),
    "mv": RuleSpec((2,), "matrix-vector product [n, m] x [m] -> [n]"),
    "dot": RuleSpec((2,), "dot product of two 1-D tensors of one length -> 0-dim"),
    "outer": RuleSpec((2,), "outer product of two 1-D tensors [n] x [m] -> [n, m]"),
    "diag": RuleSpec((2,), "diag(input, diagonal): a 1-D input's square matrix holding it on "
                           "that diagonal, a 2-D input's diagonal as a vector; input's dtype"),
    # dense linear algebra on batches of matrices [*, m, n] (k = min(m, n)); an input with
    # fewer than 2 dims keeps its own shape (the kernel declines it, ATen raises on the CPU)
    "svd_u": RuleSpec((3,), "svd_u(A, full_matrices, compute_uv): [*, m, full ? m : k], "
                            "[0] without compute_uv"),
    "svd_vh": RuleSpec((3,), "svd_vh(A, full_matrices, compute_uv): [*, full ? n : k, n], "
                             "[0] without compute_uv"),
    "matrix_diag": RuleSpec((1,), "matrix_diag(A): [*, k], A's dtype (singular values, "
                                  "eigenvalues)"),
    "qr_q": RuleSpec((2,), "qr_q(A, mode): [*, m, k] reduced, [*, m, m] complete, [0] for 'r'"),
    "qr_r": RuleSpec((2,), "qr_r(A, mode): [*, k, n] reduced and 'r', [*, m, n] complete"),
    "eigh_vectors": RuleSpec((2,), "eigh_vectors(A, compute_v): A's shape, [0] without "
                                   "compute_v"),
    "lu_pivots": RuleSpec((1,), "lu_pivots(A): [*, k], int32 (LAPACK's 1-based row swaps)"),
    "batch": RuleSpec((1,), "batch(A): [*], A's dtype (a determinant per matrix)"),
    "batch_info": RuleSpec((1,), "batch_info(A): [*], int32 (LAPACK's info per matrix)"),
    "lu_solve": RuleSpec((2,), "lu_solve(LU, B): B's matrix [n, k] under the broadcast batch "
                               "dims of LU and B, B's dtype"),
    "eye": RuleSpec((2,), "eye(n, m): [n, m], bool (castable to every out dtype)"),
    "cross": RuleSpec((2,), "cross(self, other): broadcast(self, other) (its cases have size 3 "
                            "along the product's dim)"),
    "solve": RuleSpec((2,), "solve(A, B): lu_solve's shape; a B of A's shape less the last dim "
                            "(or 1-D) is a vector right-hand side and gives a vector per matrix"),
    "scalar": RuleSpec((1,), "0-dim tensor with the argument's dtype"),
    "nll_loss": RuleSpec((3,), "nll_loss(input, target, reduction): [N] or 0-dim"),
    "pointwise_loss": RuleSpec((3,), "pointwise_loss(input, target, reduction): the broadcast "
                                     "shape unreduced (reduction 0), else 0-dim; promoted dtype "
                                     "(mse_loss, smooth_l1_loss)"),
    "cast": RuleSpec((2,), "cast(input, dtype): like input with the given dtype"),
    "embedding": RuleSpec((2,), "embedding(weight, indices): indices' shape + [embedding dim]"),
    "embedding_backward": RuleSpec((2,), "embedding_backward(grad, num_weights): [num_weights, dim]"),
    "index_select": RuleSpec((3,), "index_select(input, dim, index): input with dim resized to "
                                   "index's length"),
    "gather": RuleSpec((2,), "gather(input, index): index's shape, input's dtype"),
    "shape": RuleSpec((2,), "shape(like, sizes or tensor): the given sizes (or the tensor's), like's dtype"),
    "cat": RuleSpec((2,), "cat(tensors, dim): concatenation along dim, promoted dtype"),
    "stack": RuleSpec((2,), "stack(tensors, dim): a new dim of length len(tensors)"),
    "arange": RuleSpec((4,), "arange(start, end, step, out): [ceil((end - start) / step)], in "
                             "int64 arithmetic when out is int64 (as ATen sizes it)"),
    "reduce_dim": RuleSpec((3,), "reduce_dim(input, dim, keepdim): reduction over one dim"),
    "reduce_count": RuleSpec((2,), "reduce_count(input, dim): reduction over dims (all when dim "
                                   "is empty) without keepdim, int64 (count_nonzero)"),
    "trace": RuleSpec((1,), "trace(input): 0-dim sum of a matrix's diagonal; integral inputs "
                            "give int64"),
    "histc": RuleSpec((2,), "histc(input, bins): [bins], input's dtype"),
    "bucket": RuleSpec((2,), "bucket(input, out_int32): input's shape, int32 when out_int32 "
                             "else int64 (searchsorted, bucketize)"),
    "argreduce": RuleSpec((3,), "argreduce(input, dim, keepdim): int64 indices over one dim "
                                "(all dims when dim is None)"),
    "cumsum": RuleSpec((2,), "cumsum(input, dtype): input's shape; integers accumulate in int64"),
    "layer_norm_stats": RuleSpec((2,), "layer_norm_stats(input, normalized_shape): leading dims, "
                                       "1 for each normalized one"),
    "group_norm_stats": RuleSpec((2,), "group_norm_stats(input, group): [N, group], input's "
                                       "dtype"),
    "division": RuleSpec((2, 3), "division(self, other[, rounding_mode]): broadcast(); true "
                                 "division (no rounding mode) of integers, and any op with a "
                                 "float result (atan2, copysign, xlogy), gives the default "
                                 "float dtype"),
    "batch_norm_stats": RuleSpec((1,), "batch_norm_stats(input): [channels] (dim 1)"),
    "batch_norm_saved": RuleSpec((2,), "batch_norm_saved(input, training): [channels] when "
                                       "training, [0] in evaluation (ATen's save_mean / "
                                       "save_invstd); refuses an empty batch with channels"),
    "conv": RuleSpec((5,), "conv(input, weight, stride, padding, dilation): [N, C_out, *spatial]"),
    "channels": RuleSpec((1,), "channels(weight): [weight.size(0)] (a bias gradient)"),
    "pool2d": RuleSpec((5, 6), "pool2d(input, kernel_size, stride, padding[, dilation], "
                               "ceil_mode): pooled H and W"),
    "pool2d_indices": RuleSpec((6,), "pool2d_indices(...): pool2d's shape, int64"),
    "adaptive_pool2d": RuleSpec((2,), "adaptive_pool2d(input, output_size): [..., oH, oW]"),
    "adaptive_pool2d_indices": RuleSpec((2,), "adaptive_pool2d_indices(...): adaptive_pool2d's "
                                              "shape, int64"),
    "pad": RuleSpec((2,), "pad(input, padding): the last len(padding) / 2 dims grown by their "
                          "(left, right) pads, the last dim by the first pair; negative pads crop"),
    "pool3d": RuleSpec((5, 6), "pool3d(input, kernel_size, stride, padding[, dilation], "
                               "ceil_mode): pooled D, H and W"),
    "pool3d_indices": RuleSpec((6,), "pool3d_indices(...): pool3d's shape, int64"),
    "glu": RuleSpec((2,), "glu(input, dim): input with dim halved (it must be even)"),
    "im2col": RuleSpec((5,), "im2col(input, kernel_size, dilation, padding, stride): "
                             "[N, C * kH * kW, blocks] ([C * kH * kW, blocks] unbatched)"),
    "prelu": RuleSpec((2,), "prelu(input, weight): like(input), once weight is one value or "
                            "one per channel (dim 1)"),
    "multi_margin_loss": RuleSpec((3,), "multi_margin_loss(input, target, reduction): [N] "
                                        "unreduced with a 1-D target, else 0-dim"),
    "multilabel_margin_loss": RuleSpec((3,), "multilabel_margin_loss(input, target, "
                                             "reduction): [N] unreduced with a 2-D target, "
                                             "else 0-dim"),
})

COMPUTED_HELPERS = Vocabulary(ComputedHelperCall, {
    "nll_loss_total_weight": RuleSpec((5,), "sum of target weights that nll_loss averages by"),
})

# Helpers computing a DIOPI argument no ATen argument carries (`value: helper(args)`):
# runtime/include/opweave/arg_helpers.h.
ARG_HELPERS = Vocabulary(ArgHelperCall, {
    "conv_bias_sizes": RuleSpec((2,), "conv_bias_sizes(weight, output_mask): &[out_channels] "
                                      "when the bias gradient is wanted, else NULL"),
})

# Helpers deciding whether an ignored ATen argument may be dropped for this call (`ignore:
# {arg: helper(args)}`): the wrapper runs the DIOPI function when the helper returns true and
# falls back to the CPU otherwise; everywhere else the argument counts as unused.
# runtime/include/opweave/arg_helpers.h (namespace opweave::guards).
GUARD_HELPERS = Vocabulary(GuardHelperCall, {
    "nearest_scale_matches": RuleSpec((4,), "nearest_scale_matches(scale, input or input_size, "
                                            "output_size, dim): true when nearest-neighbour "
                                            "resampling of spatial dim `dim` picks the same source "
                                            "indices with `scale` as with input / output size"),
    "group_norm_shape": RuleSpec((4,), "group_norm_shape(input, N, C, HxW): true when input "
                                       "is [N, C, *] with HxW elements per channel, the layout "
                                       "DIOPI's group norm reads from input itself"),
})


def is_unused(value: object) -> bool:
    """An `ignore` value whose ATen argument DIOPI never sees: 'unused' or a guard helper."""
    return value == "unused" or isinstance(value, GuardHelperCall)


_CALL = re.compile(r"^\s*([A-Za-z_]\w*)\s*\(\s*([^()]*)\)\s*$")


class RuleError(Exception):
    pass


def parse_call(text: object, vocabulary: Vocabulary, what: str) -> HelperCall:
    """`name(arg, ...)` of `vocabulary`, as that vocabulary's record type."""
    if not isinstance(text, str):
        raise RuleError(f"{what} must be a string like 'broadcast(self, other)', got {text!r}")
    m = _CALL.match(text)
    if not m:
        hint = ""
        if "(" in text and ")" not in text:
            hint = " (inside a YAML {flow: mapping} a comma ends the value: use block style)"
        raise RuleError(f"{what} '{text}' is not of the form name(arg, ...){hint}")
    name = m.group(1)
    args = tuple(a.strip() for a in m.group(2).split(",")) if m.group(2).strip() else ()
    spec = vocabulary.get(name)
    if spec is None:
        raise RuleError(f"unknown {what} '{name}' (known: {', '.join(sorted(vocabulary))})")
    if len(args) not in spec.arity:
        want = " or ".join(str(n) for n in spec.arity)
        raise RuleError(f"{what} '{name}' takes {want} arguments, got {len(args)}")
    return vocabulary.record(name, args)
