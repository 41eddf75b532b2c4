"""CPU references of vendor ops that are not a single ATen call ("fake" vendor ops).

Named by `ref:` in specs/dicp/<vendor>.yaml. A reference takes the op's input ports, then
its attributes, in catalogue order, and returns its output(s); it is built from ATen ops so
it also runs on meta tensors (the `reference()` inference rule).
"""

from __future__ import annotations

import torch

aten = torch.ops.aten
_REDUCTION = {"none": 0, "mean": 1, "sum": 2}


def _axes(axes, rank):
    return list(range(rank)) if not axes else [a % max(rank, 1) for a in axes]


def power(x, power, scale, shift):
    return aten.pow.Tensor_Scalar(aten.add.Scalar(aten.mul.Scalar(x, scale), shift), power)


def swish(x, scale):
    return aten.mul.Tensor(x, aten.sigmoid.default(aten.mul.Scalar(x, scale)))


def gelu_grad(dy, x, y):
    return aten.gelu_backward.default(dy, x)


def reduce_sum(x, axes, keep_dims):
    return aten.sum.dim_IntList(x, _axes(axes, x.dim()), keep_dims)


def reduce_mean(x, axes, keep_dims):
    return aten.mean.dim(x, _axes(axes, x.dim()), keep_dims)


def _t(x, flag):
    return aten.transpose.int(x, -1, -2) if flag else x


def matmul(x1, x2, transpose_x1, transpose_x2):
    return aten.mm.default(_t(x1, transpose_x1), _t(x2, transpose_x2))


def matmul_bias(x1, x2, bias, transpose_x1, transpose_x2):
    out = matmul(x1, x2, transpose_x1, transpose_x2)
    return out if bias is None else aten.add.Tensor(out, bias)


def batch_matmul(x1, x2, adj_x1, adj_x2):
    return aten.bmm.default(_t(x1, adj_x1), _t(x2, adj_x2))


def softmax(x, axes):
    (axis,) = axes
    return aten._softmax.default(x, axis, False)


def softmax_grad(softmax, grad_softmax, axes):
    (axis,) = axes
    return aten._softmax_backward_data.default(grad_softmax, softmax, axis, softmax.dtype)


def log_softmax(logits, axes):
    (axis,) = axes
    return aten._log_softmax.default(logits, axis, False)


def log_softmax_grad(grad, x, axis):
    (a,) = axis
    return aten._log_softmax_backward_data.default(grad, x, a, x.dtype)


def nll_loss(x, target, weight, reduction, ignore_index):
    return aten.nll_loss_forward.default(x, target, weight, _REDUCTION[reduction], ignore_index)


def nll_loss_grad(x, y_grad, target, weight, total_weight, reduction, ignore_index):
    return aten.nll_loss_backward.default(y_grad, x, target, weight, _REDUCTION[reduction],
                                          ignore_index, total_weight)


def trans_data(x, src_format, dst_format):
    return aten.clone.default(x)


def nll_loss_backward_recomputing_total_weight(grad_output, input, target, weight, reduction,
                                               ignore_index):
    """sim's NLLLossBackward: like diopiNLLLossBackward, it recomputes the total weight the
    forward averaged by (ATen's nll_loss_backward takes it as an input)."""
    valid = aten.ne.Scalar(target, ignore_index)
    if weight is not None:
        safe = aten.where.self(valid, target, aten.zeros_like.default(target))
        w = aten.mul.Tensor(aten.index.Tensor(weight, [safe]), valid)
    else:
        w = aten._to_copy.default(valid, dtype=input.dtype)
    total = aten.sum.default(w)
    return aten.nll_loss_backward.default(grad_output, input, target, weight, reduction,
                                          ignore_index, total)


def addmm_activation(input, mat1, mat2, beta, alpha, activation):
    """sim AddmmAct: act(beta * input + alpha * mat1 @ mat2)."""
    y = aten.addmm.default(input, mat1, mat2, beta=beta, alpha=alpha)
    if activation == "relu":
        return aten.relu.default(y)
    if activation in ("gelu", "gelu_tanh"):
        return aten.gelu.default(y, approximate="tanh" if activation == "gelu_tanh" else "none")
    raise ValueError(f"AddmmAct: unknown activation {activation!r}")


def layer_norm_backward_all_grads(grad_output, input, weight, bias, mean, rstd,
                                  normalized_shape):
    """The sim's LayerNormBackward: all three gradients (DIOPI's function has no mask)."""
    return aten.native_layer_norm_backward.default(grad_output, input, normalized_shape, mean,
                                                   rstd, weight, bias, [True, True, True])


def concat(*tensors_then_dim):
    """The sim's Concat2 / Concat3: its ports joined along its dim attribute."""
    *tensors, dim = tensors_then_dim
    return aten.cat.default(list(tensors), dim)
