"""Hand-written conversion handlers, referenced by dotted name from specs/dicp/<vendor>.yaml.

A handler receives a HandlerContext (opweave.dicp.convert): `cx.args` are the ATen call's
arguments by name (graph values for tensors), `cx.spec(name)` a tensor argument's shape and
dtype, `cx.emit(op, *ports, *attrs)` adds a vendor op (only those the entry lists in `uses`).
It returns the ATen op's result(s). Handlers are for what the table's data cannot say; each
is exercised by tests/python/test_dicp_tables.py.
"""

from __future__ import annotations

import torch

from .convert import Declined


def _dims(dims, rank):
    if dims is None:
        return []
    n = max(rank, 1)
    return [d % n for d in dims]


# ------------------------------------------------------------------------------------ sim
def t_as_transpose(cx):
    """aten::t: the identity (an alias) for 0-D and 1-D tensors, else Transpose(0, 1)."""
    x = cx.args["self"]
    if len(cx.spec("self").shape) < 2:
        return cx.emit("Alias", x)
    return cx.emit("Transpose", x, 0, 1)


def reduce_with_dtype(cx):
    """aten::sum.dim_IntList with dtype=...: Cast to the accumulation dtype, then Sum."""
    x = cx.args["self"]
    rank = len(cx.spec("self").shape)
    cast = cx.emit("Cast", x, cx.args["dtype"]) if cx.args["dtype"] is not None else x
    return cx.emit("Sum", cast, _dims(cx.args["dim"], rank), bool(cx.args["keepdim"]))


def split_as_slices(cx):
    """aten::split.Tensor: chunks of split_size along dim (the last one shorter; one empty
    chunk for an empty dim, as ATen gives), each a Slice view of the input."""
    shape = cx.spec("self").shape
    size, rank = int(cx.args["split_size"]), len(shape)
    if rank == 0 or size <= 0:   # ATen's error, raised by the eager op
        raise Declined(f"split_size {size} of a {rank}-D tensor")
    dim = cx.args["dim"] % rank
    length = int(shape[dim])
    starts = range(0, length, size) if length else [0]
    return [cx.emit("Slice", cx.args["self"], dim, s, min(s + size, length)) for s in starts]


def layer_norm_backward_all_grads(cx):
    """aten::native_layer_norm_backward -> LayerNormBackward when output_mask asks for all
    three gradients (the sim's op computes all three); any other mask runs eagerly."""
    a = cx.args
    if list(a["output_mask"]) != [True, True, True] or a["weight"] is None or a["bias"] is None:
        raise Declined(f"output_mask {list(a['output_mask'])}: the op computes all three")
    return cx.emit("LayerNormBackward", a["grad_out"], a["input"], a["weight"], a["bias"],
                   a["mean"], a["rstd"], list(a["normalized_shape"]))


def cat_of_two_or_three(cx):
    """aten::cat of two or three tensors -> Concat2 / Concat3; other counts run eagerly."""
    xs = list(cx.args["tensors"])
    if len(xs) not in (2, 3):
        raise Declined(f"{len(xs)} tensors: the sim's graph kernels join two or three")
    dim = cx.args["dim"] % max(len(cx.converter.spec(xs[0]).shape), 1)
    return cx.emit(f"Concat{len(xs)}", *xs, dim)


def ones_as_full(cx):
    """aten::ones -> Full(size, 1) in the requested dtype (torch's default when none)."""
    dtype = cx.args["dtype"] if cx.args["dtype"] is not None else torch.get_default_dtype()
    return cx.emit("Full", list(cx.args["size"]), 1, dtype)


def arange_from_zero(cx):
    """aten::arange(end) with an integer end -> Arange(0, end, 1), int64 unless a dtype is
    requested. A floating end runs eagerly: torch 1.13's trace records int64 for
    arange(4.0), which computes float32, so no converted result could match both."""
    end = cx.args["end"]
    if isinstance(end, bool) or not isinstance(end, int):
        raise Declined(f"end {end!r} is not an integer")
    dtype = cx.args["dtype"] if cx.args["dtype"] is not None else torch.int64
    return cx.emit("Arange", 0, end, 1, dtype)


# --------------------------------------------------------------------------------- ascend
def ascend_transpose(cx):
    """aten::transpose.int -> Transpose with the full permutation Ascend's op takes."""
    rank = len(cx.spec("self").shape)
    perm = list(range(rank))
    a, b = (d % max(rank, 1) for d in (cx.args["dim0"], cx.args["dim1"]))
    perm[a], perm[b] = perm[b], perm[a]
    return cx.emit("Transpose", cx.args["self"], perm)


def ascend_t(cx):
    """aten::t -> Identity (rank < 2) or Transpose(perm=[1, 0])."""
    if len(cx.spec("self").shape) < 2:
        return cx.emit("Identity", cx.args["self"])
    return cx.emit("Transpose", cx.args["self"], [1, 0])


_REDUCTION = {0: "none", 1: "mean", 2: "sum"}


def ascend_nll_loss(cx):
    """aten::nll_loss_forward -> NLLLoss, whose reduction is a string attribute."""
    return cx.emit("NLLLoss", cx.args["self"], cx.args["target"], cx.args["weight"],
                   _REDUCTION[cx.args["reduction"]], cx.args["ignore_index"])


def ascend_nll_loss_grad(cx):
    """aten::nll_loss_backward -> NLLLossGrad (string reduction, reads total_weight)."""
    return cx.emit("NLLLossGrad", cx.args["self"], cx.args["grad_output"], cx.args["target"],
                   cx.args["weight"], cx.args["total_weight"], _REDUCTION[cx.args["reduction"]],
                   cx.args["ignore_index"])
