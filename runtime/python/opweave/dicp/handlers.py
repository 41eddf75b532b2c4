"""Hand-written conversion handlers, referenced by dotted name from specs/dicp/<vendor>.yaml.

A handler receives a HandlerContext (opweave.dicp.convert): `cx.args` are the ATen call's
arguments by name (graph values for tensors), `cx.spec(name)` a tensor argument's shape and
dtype, `cx.emit(op, *ports, *attrs)` adds a vendor op (only those the entry lists in `uses`).
It returns the ATen op's result(s). Handlers are for what the table's data cannot say; each
is exercised by tests/python/test_dicp_tables.py.
"""

from __future__ import annotations


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
