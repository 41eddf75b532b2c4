"""The ops the small GPT and CNN need, one by one against CPU: forward results (shape, dtype,
values) on contiguous and non-contiguous inputs, gradients through autograd, and no CPU
fallback for any of them.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

import opweave
from op_compare import D, gen, same, standard_inputs, to


g = gen()
X, XT, BOOL7, BOOL57, INT45, NANX = standard_inputs(g)

FORWARD = {
    "embedding": (lambda w, i: F.embedding(i, w), torch.randn(10, 4), torch.tensor([[1, 3, 9], [0, 0, 2]])),
    "embedding_noncontig_weight": (lambda w, i: F.embedding(i, w), torch.randn(4, 10).t(), torch.tensor([2, 2, 7])),
    "index_select_dim1": (lambda x, i: x.index_select(1, i), XT, torch.tensor([4, 0, 0, 2])),
    "index_select_dim0": (lambda x, i: x.index_select(0, i), XT, torch.tensor([4, 0, 0, 2])),
    "gather": (lambda x, i: x.gather(1, i), XT, torch.randint(0, 5, (5, 3), generator=g)),
    "masked_fill_scalar": (lambda x, m: x.masked_fill(m, -1.5), XT, BOOL7),
    "masked_fill_tensor": (lambda x, m: x.masked_fill(m, torch.tensor(2.0)), XT, BOOL57),
    "masked_fill_inplace_inf": (lambda x, m: x.clone().masked_fill_(m, float("-inf")), XT, BOOL57),
    "masked_fill_int": (lambda x, m: x.masked_fill(m, 7), INT45, torch.rand(4, 5, generator=g) > 0.5),
    "triu": (lambda x: x.triu(1), XT),
    "triu_batched_negative": (lambda x: x.triu(-2), torch.randn(2, 3, 6, 4)),
    "triu_": (lambda x: x.clone().triu_(1), XT),
    "tril": (lambda x: x.tril(), XT),
    "tril_": (lambda x: x.clone().tril_(1), XT),
    "cat": (lambda a, b: torch.cat([a, b], 1), XT, torch.randn(5, 3)),
    "cat_legacy_empty": (lambda a, b: torch.cat([a, b, a.new_empty(0)], 0), XT, torch.randn(2, 7)),
    "cat_promotes": (lambda a, b: torch.cat([a, b], 0), XT, torch.randint(0, 4, (2, 7))),
    "stack": (lambda a, b: torch.stack([a, b], 1), XT, X),
    "ne": (lambda a, b: a != b, INT45, torch.randint(0, 3, (5,))),
    "le_scalar": (lambda a: a <= 0.1, XT),
    "ge": (lambda a, b: a >= b, XT, X),
    "ne_inplace": (lambda a, b: a.clone().ne_(b), XT, X),
    "eq_inplace_scalar": (lambda a: a.clone().eq_(0), INT45),
    "lt_inplace": (lambda a, b: a.clone().lt_(b), XT, X),
    "max_dim": (lambda a: a.max(1), XT),
    "max_dim_keepdim": (lambda a: a.max(0, keepdim=True), XT),
    "max_dim_nan": (lambda a: a.max(1), NANX),
    "min_dim_int": (lambda a: a.min(-1), INT45),
    "max_all": (lambda a: a.max(), XT),
    "min_all": (lambda a: a.min(), XT),
    "argmax_flat": (lambda a: a.argmax(), XT),
    "argmax_dim": (lambda a: a.argmax(1, keepdim=True), XT),
    "cumsum": (lambda a: a.cumsum(1), XT),
    "cumsum_int32_to_int64": (lambda a: a.cumsum(0), torch.randint(0, 9, (4, 5), dtype=torch.int32)),
    "zero_": (lambda a: a.clone().zero_(), XT),
    "arange_int": (lambda a: torch.arange(3, 17, 2, device=a.device), X),
    "arange_float": (lambda a: torch.arange(3.0, 17, 0.5, device=a.device), X),
}


@pytest.mark.parametrize("name", sorted(FORWARD))
def test_forward_matches_cpu(name):
    f, *args = FORWARD[name]
    opweave.fallback_stats(reset=True)
    same(f(*args), f(*to(D, args)), atol=1e-5)
    assert opweave.fallback_stats() == {}


def _idx(t, values):
    return torch.tensor(values, device=t.device)


BACKWARD = {
    "gather": (lambda t: t.gather(1, _idx(t, [[0, 1, 1], [2, 2, 0]])), (2, 4)),
    "index_select": (lambda t: t.index_select(0, _idx(t, [1, 1, 0])), (3, 4)),
    "embedding_padding_idx": (lambda t: F.embedding(_idx(t, [[1, 2, 1]]), t, padding_idx=2), (5, 3)),
    "embedding_scale_grad_by_freq": (lambda t: F.embedding(_idx(t, [[1, 2, 1]]), t, scale_grad_by_freq=True), (5, 3)),
    "cat": (lambda t: torch.cat([t, t * 2], 1), (2, 3)),
    "layer_norm": (lambda t: F.layer_norm(t, (7,), torch.linspace(0.5, 2, 7, device=t.device),
                                          torch.linspace(-1, 1, 7, device=t.device)), (3, 5, 7)),
    "layer_norm_no_affine": (lambda t: F.layer_norm(t, (5, 7)), (3, 5, 7)),
    "masked_fill": (lambda t: t.masked_fill(t > 0.5, 0.0), (4, 6)),
    "triu": (lambda t: t.triu(), (4, 4)),
    # cross_entropy = log_softmax + nll_loss (+ the smoothing term) on the device
    "abs_sgn": (lambda t: (t * 3 - 1).abs(), (3, 4)),   # abs's gradient is sgn (diopiSign)
    "cross_entropy_label_smoothing": (lambda t: F.cross_entropy(t, _idx(t, [0, 3, 1, 2]),
                                                                label_smoothing=0.1), (4, 5)),
    "cross_entropy_ignore_index": (lambda t: F.cross_entropy(t, _idx(t, [0, -100, 1, 2])), (4, 5)),
    "cross_entropy_smoothing_ignore_sum": (
        lambda t: F.cross_entropy(t, _idx(t, [0, 2, 2, 1]), ignore_index=2, label_smoothing=0.2,
                                  reduction="sum"), (4, 5)),
    "cross_entropy_weight_none": (
        lambda t: F.cross_entropy(t, _idx(t, [4, 0, 1]), torch.linspace(0.5, 2, 5, device=t.device),
                                  reduction="none"), (3, 5)),
}


@pytest.mark.parametrize("name", sorted(BACKWARD))
def test_gradient_matches_cpu(name):
    f, shape = BACKWARD[name]
    base = torch.randn(*shape, generator=gen(1))
    a = base.clone().requires_grad_()
    b = base.to(D).requires_grad_()
    ya, yb = f(a), f(b)
    grad = torch.randn(ya.shape, generator=gen(2))
    opweave.fallback_stats(reset=True)
    ya.backward(grad)
    yb.backward(grad.to(D))
    assert opweave.fallback_stats() == {}
    same(a.grad, b.grad, atol=1e-5)


def test_layer_norm_parameter_gradients_match_cpu():
    ln = torch.nn.LayerNorm(7)
    with torch.no_grad():
        ln.weight.normal_(generator=gen(3))
        ln.bias.normal_(generator=gen(4))
    lnd = torch.nn.LayerNorm(7).to(D)
    lnd.load_state_dict(ln.state_dict())
    x = torch.randn(3, 5, 7, generator=gen(5))
    grad = torch.randn(3, 5, 7, generator=gen(6))
    ln(x).backward(grad)
    lnd(x.to(D)).backward(grad.to(D))
    same(ln.weight.grad, lnd.weight.grad, atol=1e-5)
    same(ln.bias.grad, lnd.bias.grad, atol=1e-5)


def test_composite_backward_ops_keep_autograd_for_double_backward():
    # index_select_backward is CompositeImplicitAutograd: with a graph requested, its device
    # autograd kernel decomposes (so the second derivative exists) instead of failing.
    base = torch.randn(3, 4, generator=gen(7))
    for dev in ("cpu", D):
        t = base.to(dev).requires_grad_()
        y = (t.index_select(0, _idx(t, [2, 0])) ** 2).sum()
        (g,) = torch.autograd.grad(y, t, create_graph=True)
        (gg,) = torch.autograd.grad(g.sum(), t)
        if dev == "cpu":
            expected = gg
        else:
            same(expected, gg, atol=1e-6)


# ---------------------------------------------------------------- CNN ops

CNN_FORWARD = {
    "conv2d": (lambda x, w, b: F.conv2d(x, w, b, stride=1, padding=1), (2, 3, 7, 6), (4, 3, 3, 3), (4,)),
    "conv2d_stride_dilation": (lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=2, dilation=2),
                               (2, 3, 9, 8), (4, 3, 3, 3), (4,)),
    "conv2d_groups_no_bias": (lambda x, w, b: F.conv2d(x, w, None, padding=(1, 0), groups=2),
                              (2, 4, 5, 6), (6, 2, 3, 2), None),
    "conv2d_noncontig_input": (lambda x, w, b: F.conv2d(x.transpose(2, 3), w, b), (1, 3, 6, 7), (2, 3, 2, 2), (2,)),
    "max_pool2d": (lambda x: F.max_pool2d(x, 2), (2, 3, 7, 6)),
    "max_pool2d_pad_ceil_dilation": (lambda x: F.max_pool2d(x, 3, stride=2, padding=1, dilation=2, ceil_mode=True),
                                     (2, 3, 9, 8)),
    "max_pool2d_with_indices": (lambda x: F.max_pool2d(x, 3, stride=2, return_indices=True), (3, 9, 8)),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, 2), (2, 3, 7, 6)),
    "avg_pool2d_pad_exclude": (lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False,
                                                      ceil_mode=True), (2, 3, 7, 6)),
    "avg_pool2d_divisor": (lambda x: F.avg_pool2d(x, 2, divisor_override=3), (2, 3, 6, 6)),
    "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (3, 2)), (2, 3, 7, 5)),
    "hardtanh": (lambda x: F.hardtanh(x * 2, -0.5, 1.5), (4, 5)),
    "relu6_inplace": (lambda x: F.relu6(x * 4, inplace=True), (4, 5)),
    "hardswish": (lambda x: F.hardswish(x * 4), (4, 5)),
}


@pytest.mark.parametrize("name", sorted(CNN_FORWARD))
def test_cnn_forward_and_gradients_match_cpu(name):
    f, *shapes = CNN_FORWARD[name]
    rng = gen(8)
    args = [None if s is None else torch.randn(*s, generator=rng) for s in shapes]
    cpu_args = [None if a is None else a.clone().requires_grad_() for a in args]
    dev_args = [None if a is None else a.to(D).requires_grad_() for a in args]
    opweave.fallback_stats(reset=True)
    yc, yd = f(*cpu_args), f(*dev_args)
    same(yc, yd, atol=1e-5)
    out_c = yc[0] if isinstance(yc, tuple) else yc
    out_d = yd[0] if isinstance(yd, tuple) else yd
    grad = torch.randn(out_c.shape, generator=rng)
    out_c.backward(grad)
    out_d.backward(grad.to(D))
    assert opweave.fallback_stats() == {}
    for a, b in zip(cpu_args, dev_args):
        if a is not None:
            same(a.grad, b.grad, atol=1e-4)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_matches_cpu_and_updates_running_stats(training):
    bn = torch.nn.BatchNorm2d(3, momentum=0.3)
    with torch.no_grad():
        bn.weight.uniform_(0.5, 1.5, generator=gen(9))
        bn.bias.normal_(generator=gen(10))
        bn.running_mean.normal_(generator=gen(11))
        bn.running_var.uniform_(0.5, 2.0, generator=gen(12))
    bnd = torch.nn.BatchNorm2d(3, momentum=0.3).to(D)
    bnd.load_state_dict(bn.state_dict())
    bn.train(training)
    bnd.train(training)
    x = torch.randn(4, 3, 5, 6, generator=gen(13))
    xc, xd = x.clone().requires_grad_(), x.to(D).requires_grad_()
    grad = torch.randn(4, 3, 5, 6, generator=gen(14))
    opweave.fallback_stats(reset=True)
    yc, yd = bn(xc), bnd(xd)
    yc.backward(grad)
    yd.backward(grad.to(D))
    assert opweave.fallback_stats() == {}
    same(yc, yd, atol=1e-5)
    same(xc.grad, xd.grad, atol=1e-5)
    same(bn.weight.grad, bnd.weight.grad, atol=1e-4)
    same(bn.bias.grad, bnd.bias.grad, atol=1e-4)
    same(bn.running_mean, bnd.running_mean, atol=1e-6)
    same(bn.running_var, bnd.running_var, atol=1e-6)


def test_conv1d_runs_as_conv2d_and_conv3d_falls_back_to_cpu():
    # ATen views 1-D convolutions as 2-D ones before choosing a backend. 3-D ones reach the 2-D
    # kernel, which declines them (diopiNoImplement); the CPU fallback then runs them as
    # aten::convolution (ATen's CPU convolution_overrideable is only a stub) and says so.
    rng = gen(15)
    x, w = torch.randn(2, 3, 9, generator=rng), torch.randn(4, 3, 3, generator=rng)
    opweave.fallback_stats(reset=True)
    same(F.conv1d(x, w, padding=1), F.conv1d(x.to(D), w.to(D), padding=1), atol=1e-5)
    assert opweave.fallback_stats() == {}
    x, w = torch.randn(1, 2, 4, 5, 6, generator=rng), torch.randn(3, 2, 2, 2, 2, generator=rng)
    same(F.conv3d(x, w), F.conv3d(x.to(D), w.to(D)), atol=1e-5)
    assert "aten::convolution_overrideable" in opweave.fallback_stats()


@pytest.mark.parametrize("groups", [1, 2])
def test_transposed_convolution_and_its_gradients_fall_back_to_cpu(groups):
    # DIOPI's convolution is not transposed: the wrapper routes transposed=True to the CPU,
    # where the overrideable hooks run as aten::convolution / convolution_backward.
    rng = gen(16)
    x = torch.randn(2, 4, 4, 5, generator=rng)
    w = torch.randn(4, 6 // groups, 3, 3, generator=rng)
    b = torch.randn(6, generator=rng)
    results = []
    for dev in ("cpu", D):
        xs = [t.clone().to(dev).requires_grad_() for t in (x, w, b)]
        y = F.conv_transpose2d(*xs, stride=2, padding=1, output_padding=1, groups=groups)
        y.square().sum().backward()
        results.append([y.detach()] + [t.grad for t in xs])
    for c, d in zip(*results):
        same(c, d, atol=1e-4)


# ---------------------------------------------------------------- more element-wise ops, scatter

POS = torch.rand(5, 7, generator=g) * 3 + 0.1
MORE = {
    "floor": (lambda x: torch.floor(x * 3), XT),
    "ceil_": (lambda x: (x * 3).ceil_(), XT),
    "erf": (lambda x: torch.erf(x), XT),
    "erf_": (lambda x: x.clone().erf_(), XT),
    "log2": (lambda x: torch.log2(x), POS.t()),
    "log10_": (lambda x: x.clone().log10_(), POS),
    "sign": (lambda x: torch.sign(x), NANX),
    "sign_int": (lambda x: torch.sign(x - 1), INT45),
    "minimum": (lambda a, b: torch.minimum(a, b), NANX, torch.randn(7)),
    "lerp_scalar": (lambda a, b: torch.lerp(a, b, 0.3), XT, X),
    "lerp_tensor": (lambda a, b, w: torch.lerp(a, b, w), XT, X, torch.linspace(-0.5, 1.5, 7)),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.2), XT),
    "leaky_relu_": (lambda x: F.leaky_relu(x.clone(), 0.1, inplace=True), XT),
    "clamp_min": (lambda x: torch.clamp_min(x, -0.25), NANX),
    "clamp_max_": (lambda x: x.clone().clamp_max_(0.5), XT),
    "clamp_": (lambda x: x.clone().clamp_(-0.5, 0.5), XT),
    "abs_": (lambda x: x.clone().abs_(), XT),
    "rsqrt_": (lambda x: x.clone().rsqrt_(), POS),
    "sin_": (lambda x: x.clone().sin_(), XT),
    "cos_": (lambda x: x.clone().cos_(), XT),
    "reciprocal_": (lambda x: x.clone().reciprocal_(), POS),
    "sigmoid_": (lambda x: x.clone().sigmoid_(), XT),
    "tanh_": (lambda x: x.clone().tanh_(), XT),
    "silu_": (lambda x: F.silu(x.clone(), inplace=True), XT),
    "scatter_src": (lambda x, i, s: x.scatter(1, i, s), XT, torch.tensor([[0, 4], [1, 1], [3, 2], [0, 0], [2, 4]]),
                    torch.randn(5, 3)),
    "scatter_value_": (lambda x, i: x.clone().scatter_(0, i, 2.5), XT, torch.tensor([[4, 0, 1, 3, 2, 0, 1]])),
    "scatter_src_": (lambda x, i, s: x.clone().scatter_(1, i, s), XT, torch.tensor([[0, 4], [1, 3], [3, 2], [0, 1], [2, 4]]),
                     torch.randn(5, 2).t().contiguous().t()),
}


@pytest.mark.parametrize("name", sorted(MORE))
def test_more_elementwise_and_scatter_match_cpu(name):
    f, *args = MORE[name]
    opweave.fallback_stats(reset=True)
    same(f(*args), f(*to(D, args)), atol=1e-5)
    assert opweave.fallback_stats() == {}


def test_max_and_leaky_relu_gradients_run_on_the_device():
    base = torch.randn(4, 6, generator=gen(17))
    for f in (lambda t: t.max(1)[0], lambda t: F.leaky_relu(t, 0.3)):
        a, b = base.clone().requires_grad_(), base.to(D).requires_grad_()
        opweave.fallback_stats(reset=True)
        f(a).sum().backward()
        f(b).sum().backward()
        assert opweave.fallback_stats() == {}
        same(a.grad, b.grad, atol=1e-6)


# ---------------------------------------------------------------- sort / select / logical / shape

TIES = torch.tensor([[3.0, 1.0, 3.0, float("nan"), 1.0, 2.0], [0.5, 0.5, -1.0, 0.5, 2.0, -1.0]])
SELECT = {
    "sort": (lambda x: x.sort(1), XT),
    "sort_descending_dim0": (lambda x: x.sort(0, descending=True), XT),
    "sort_stable_ties_nan": (lambda x: torch.sort(x, dim=1, stable=True), TIES),
    "sort_stable_ties_descending": (lambda x: torch.sort(x, dim=1, descending=True, stable=True), TIES),
    "sort_int": (lambda x: x.sort(stable=True, dim=0), INT45),
    "argsort": (lambda x: x.argsort(1), XT),
    "topk": (lambda x: x.topk(3), XT),
    "topk_smallest_dim0": (lambda x: x.topk(2, 0, largest=False), XT),
    "any": (lambda b: b.any(), BOOL57),
    "all_float": (lambda x: (x > -5).float().all(), XT),
    "any_none": (lambda x: (x > 50).any(), XT),
    "any_dim": (lambda x: (x > 1).any(1), XT),
    "all_dim_keepdim_int": (lambda x: x.all(0, keepdim=True), INT45),
    "prod_all": (lambda x: x.prod(), XT),
    "prod_all_int32_to_int64": (lambda x: x.prod(), INT45.int() + 1),
    "isnan": (lambda x: torch.isnan(x), NANX),
    # DIOPI has no isinf: ATen's composite (abs(x) == inf) runs on the device's kernels
    "isinf": (lambda x: torch.isinf(x), torch.tensor([1.0, float("inf"), -float("inf"), float("nan")])),
    "isinf_half": (lambda x: torch.isinf(x), torch.tensor([1.0, float("inf"), -7.0]).half()),
    "isinf_int": (lambda x: torch.isinf(x), INT45),
    "cross_entropy_smoothing_ignore": (lambda x, t: F.cross_entropy(x, t, ignore_index=2, label_smoothing=0.1),
                                       XT, torch.tensor([0, 2, 6, 2, 1])),
    "bitwise_not_bool": (lambda m: ~m, BOOL57),
    "bitwise_not_int_": (lambda x: x.clone().bitwise_not_(), INT45),
    "masked_scatter": (lambda x, m, s: x.masked_scatter(m, s), XT, BOOL57, torch.arange(40.0).reshape(5, 8)),
    "masked_scatter_bcast_mask": (lambda x, m, s: x.clone().masked_scatter_(m, s), XT, BOOL7, X * 10),
    # contiguous input: ATen 1.13's CPU masked_scatter_ walks a transposed self in memory order,
    # so its gradient for XT would be wrong (test_masked_select_gradient_follows_row_major_order)
    "masked_select_backward": (lambda x, m: torch.autograd.grad(
        (x.masked_select(m) * torch.arange(float(m.sum()), device=x.device)).sum(), x)[0],
        X.clone().requires_grad_(), BOOL57),
    "argmin_dim": (lambda x: x.argmin(1), XT),
    "argmin_keepdim_first_of_ties": (lambda x: x.argmin(0, keepdim=True), INT45),
    "argmin_flat": (lambda x: x.argmin(), NANX),
    "clamp_tensor_bounds": (lambda x, lo, hi: x.clamp(lo, hi), XT, -X[:, :1].abs(), X[0].abs()),
    "clamp_tensor_min_only_nan": (lambda x, lo: torch.clamp(x, min=lo), NANX, X[:, 0:1] * 0),
    "clamp_tensor_max_inplace": (lambda x, hi: x.clone().clamp_(max=hi), XT, X[1]),
    "clamp_min_tensor_int_float": (lambda x, lo: torch.clamp_min(x, lo), INT45, torch.full((5,), 0.5)),
    "clamp_max_tensor_": (lambda x, hi: x.clone().clamp_max_(hi), XT, X[2]),
    "baddbmm": (lambda c, a, b: torch.baddbmm(c, a, b, beta=0.5, alpha=2), torch.randn(2, 3, 5, generator=g),
                torch.randn(2, 3, 4, generator=g), torch.randn(2, 5, 4, generator=g).transpose(1, 2)),
    "baddbmm_bcast_input": (lambda c, a, b: torch.baddbmm(c, a, b), torch.randn(5, generator=g),
                            torch.randn(2, 3, 4, generator=g), torch.randn(2, 4, 5, generator=g)),
    "baddbmm_": (lambda c, a, b: c.clone().baddbmm_(a, b, alpha=-1), torch.randn(2, 3, 5, generator=g),
                 torch.randn(2, 3, 4, generator=g), torch.randn(2, 4, 5, generator=g)),
    "logical_and": (lambda a, b: torch.logical_and(a, b), BOOL57, BOOL7),
    "logical_and_float": (lambda a, b: torch.logical_and(a, b), XT.round(), INT45.float().t()[:, :4].t().repeat(2, 2)[:5, :7]),
    "logical_or_": (lambda a, b: a.clone().logical_or_(b), BOOL57, BOOL7),
    "logical_not": (lambda a: torch.logical_not(a), INT45),
    "logical_not_": (lambda a: a.clone().logical_not_(), BOOL57),
    "prod_dim": (lambda x: x.prod(1), XT),
    "prod_dim_keepdim_int": (lambda x: x.prod(0, keepdim=True), INT45),
    "norm": (lambda x: torch.norm(x), XT),
    "norm_dim": (lambda x: x.norm(dim=1), XT),
    "norm_inf_keepdim": (lambda x: x.norm(float("inf"), dim=0, keepdim=True), XT),
    "norm_p1": (lambda x: torch.norm(x, 1), X),
    "flip": (lambda x: x.flip(0, 1), XT),
    "flip_int": (lambda x: x.flip(-1), INT45),
    "roll": (lambda x: x.roll((1, -2), (0, 1)), XT),
    "roll_flat": (lambda x: x.roll(4), XT),
    "repeat": (lambda x: x.repeat(2, 1, 3), XT),
    "repeat_bool": (lambda b: b.repeat(2), BOOL7),
    "nonzero": (lambda x: torch.nonzero(x), INT45),
    "nonzero_nan_3d": (lambda x: (x.view(5, 7, 1) * (x.view(5, 7, 1) > 0)).nonzero(), NANX),
    "nonzero_none": (lambda x: (x > 100).nonzero(), XT),
    "nonzero_0d": (lambda x: x[0, 0].nonzero(), XT),
    "masked_select": (lambda x, m: torch.masked_select(x, m), XT, BOOL57),
    "masked_select_broadcast_int": (lambda x, m: x.masked_select(m), INT45, torch.tensor([True, False, False, True, True])),
    "masked_select_none": (lambda x, m: x.masked_select(m), XT, BOOL7 & False),
    "linspace": (lambda x: torch.linspace(-1.5, 2, 9, device=x.device), X),
    "linspace_int": (lambda x: torch.linspace(10, -10, 11, dtype=torch.int64, device=x.device), X),
    "linspace_one": (lambda x: torch.linspace(3, 7, 1, device=x.device), X),
}


@pytest.mark.parametrize("name", sorted(SELECT))
def test_sort_select_logical_shape_ops_match_cpu(name):
    f, *args = SELECT[name]
    opweave.fallback_stats(reset=True)
    same(f(*args), f(*to(D, args)), atol=1e-5)
    assert opweave.fallback_stats() == {}


def test_sort_topk_flip_roll_repeat_gradients_run_on_the_device():
    base = torch.randn(4, 6, generator=gen(18))
    for f in (lambda t: t.sort(1)[0] * torch.arange(6.0, device=t.device),
              lambda t: t.topk(2, 0)[0], lambda t: t.flip(1).roll(1, 0), lambda t: t.repeat(2, 1),
              lambda t: t.norm(dim=1), lambda t: t.prod(1)):
        a, b = base.clone().requires_grad_(), base.to(D).requires_grad_()
        f(a).sum().backward()
        opweave.fallback_stats(reset=True)
        f(b).sum().backward()
        assert opweave.fallback_stats() == {}
        same(a.grad, b.grad, atol=1e-5)


def test_topk_rejects_a_k_larger_than_the_dim():
    with pytest.raises(RuntimeError, match="out of range"):
        XT.to(D).topk(8, 1)
