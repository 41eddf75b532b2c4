"""Training-path ops one by one against CPU: optimizers (SGD variants, clip_grad_norm_), the ops
a CNN and a GPT training step need beyond the basics, and bugs fixed along the way."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

import opweave
from op_compare import D, gen, same, standard_inputs, to


g = gen()
X, XT, BOOL7, BOOL57, INT45, NANX = standard_inputs(g)
POS = torch.rand(5, 7, generator=g) * 3 + 0.1


# ---------------------------------------------------------------- fixed bugs

def test_reverse_subtraction_with_a_python_number_allocates_on_the_device():
    x = XT.to(D)
    opweave.fallback_stats(reset=True)
    for f in (lambda t: 2 - t, lambda t: 2.5 / (t + 10), lambda t: torch.tensor(3.0) * t):
        y = f(x)
        assert y.device == D
        same(f(XT), y, atol=1e-5)
    assert opweave.fallback_stats() == {}


@pytest.mark.parametrize("op", ["exp", "log", "sqrt", "rsqrt", "sin", "cos", "reciprocal", "erf",
                                "log2", "log10", "sigmoid", "tanh"])
def test_unary_float_ops_promote_integer_inputs_on_the_device(op):
    x = torch.arange(1, 7, dtype=torch.int32).view(2, 3)
    f = getattr(torch, op)
    opweave.fallback_stats(reset=True)
    y = f(x.to(D))
    assert opweave.fallback_stats() == {}
    assert y.dtype == torch.float32
    same(f(x), y, atol=1e-5)
    with pytest.raises(RuntimeError, match="can't be cast"):
        getattr(x.to(D), op + "_")()


# ---------------------------------------------------------------- clip_grad_norm_

@pytest.mark.parametrize("norm_type", [2.0, 1.0, float("inf")])
def test_clip_grad_norm_runs_on_the_device_like_cpu(norm_type):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(6, 5), torch.nn.Tanh(), torch.nn.Linear(5, 3))
    dev_model = torch.nn.Sequential(torch.nn.Linear(6, 5), torch.nn.Tanh(), torch.nn.Linear(5, 3)).to(D)
    dev_model.load_state_dict(model.state_dict())
    x = torch.randn(8, 6, generator=gen(20)) * 4
    model(x).pow(2).sum().backward()
    dev_model(x.to(D)).pow(2).sum().backward()
    opweave.fallback_stats(reset=True)
    total_dev = torch.nn.utils.clip_grad_norm_(dev_model.parameters(), 0.5, norm_type)
    assert opweave.fallback_stats() == {}
    total_cpu = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type)
    assert total_dev.device == D
    same(total_cpu, total_dev, atol=1e-4)
    for a, b in zip(model.parameters(), dev_model.parameters()):
        same(a.grad, b.grad, atol=1e-5)


SGD = {
    "momentum": dict(lr=0.1, momentum=0.9),
    "nesterov_weight_decay": dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
    "dampening_weight_decay": dict(lr=0.05, momentum=0.5, dampening=0.3, weight_decay=0.1),
    "plain_maximize": dict(lr=0.1, maximize=True),
}


@pytest.mark.parametrize("foreach", [False, True])
@pytest.mark.parametrize("name", sorted(SGD))
def test_sgd_variants_step_like_cpu_with_no_fallback(name, foreach):
    rng = gen(21)
    shapes = [(6, 4), (4,), (3, 2, 5)]
    start = [torch.randn(s, generator=rng) for s in shapes]
    grads = [[torch.randn(s, generator=rng) for s in shapes] for _ in range(5)]
    results = []
    for dev in ("cpu", D):
        params = [torch.nn.Parameter(p.clone().to(dev)) for p in start]
        opt = torch.optim.SGD(params, foreach=foreach and dev != "cpu", **SGD[name])
        opweave.fallback_stats(reset=True)
        for step_grads in grads:
            for p, gr in zip(params, step_grads):
                p.grad = gr.to(dev)
            opt.step()
        if dev != "cpu":
            assert opweave.fallback_stats() == {}
        results.append([p.detach() for p in params])
    for c, d in zip(*results):
        same(c, d, atol=1e-6)


def test_masked_select_gradient_follows_row_major_order_on_non_contiguous_input():
    # The k-th selected element (row-major) gets grad k. ATen 1.13's CPU kernel scatters a
    # transposed zeros_like in memory order instead; the device kernel does not.
    x = XT.to(D).requires_grad_()
    weights = torch.arange(float(BOOL57.sum()))
    (x.masked_select(BOOL57.to(D)) * weights.to(D)).sum().backward()
    expected = torch.zeros(5, 7)
    expected[BOOL57] = weights
    assert torch.equal(x.grad.cpu(), expected)


# ---------------------------------------------------------------- amax / amin, softplus, log1p, elu,
# nearest upsampling

IMG = torch.randn(2, 3, 5, 4, generator=g)
IMG_T = torch.randn(2, 3, 4, 5, generator=g).transpose(2, 3)   # non-contiguous
TRAINING_OPS = {
    "amax_dim": (lambda x: torch.amax(x, 1), XT),
    "amax_dims_keepdim": (lambda x: torch.amax(x, (0, 2), keepdim=True), IMG_T),
    "amax_all": (lambda x: torch.amax(x), XT),
    "amax_nan": (lambda x: torch.amax(x, 0), NANX),
    "amax_int": (lambda x: torch.amax(x, -1), INT45),
    "amin_dim": (lambda x: torch.amin(x, 0), XT),
    "amin_nan_all": (lambda x: torch.amin(x), NANX),
    "logsumexp": (lambda x: torch.logsumexp(x, 1), XT),
    "softplus": (lambda x: F.softplus(x * 10), XT),
    "softplus_beta_threshold": (lambda x: F.softplus(x, beta=2.0, threshold=1.5), XT),
    "log1p": (lambda x: torch.log1p(x), POS.t()),
    "log1p_small": (lambda x: torch.log1p(x * 1e-6), XT),
    "log1p_": (lambda x: x.clone().log1p_(), POS),
    "log1p_int": (lambda x: torch.log1p(x), INT45),
    "elu": (lambda x: F.elu(x), XT),
    "elu_alpha": (lambda x: F.elu(x, alpha=0.3), XT),
    "elu_": (lambda x: F.elu(x.clone(), inplace=True), XT),
    "selu": (lambda x: F.selu(x), XT),
    "celu": (lambda x: F.celu(x, alpha=1.5), XT),
    "upsample_scale2": (lambda x: F.interpolate(x, scale_factor=2), IMG_T),
    "upsample_size": (lambda x: F.interpolate(x, size=(7, 3)), IMG),
    "upsample_scale_exact": (lambda x: F.interpolate(x, scale_factor=1.5), torch.randn(1, 2, 4, 6, generator=g)),
    "mse_loss_mean": (lambda a, b: F.mse_loss(a, b), XT, X),
    "mse_loss_none": (lambda a, b: F.mse_loss(a, b, reduction="none"), XT, X),
    "mse_loss_sum": (lambda a, b: F.mse_loss(a, b, reduction="sum"), XT, X),
    "smooth_l1_loss_mean": (lambda a, b: F.smooth_l1_loss(a * 2, b), XT, X),
    "smooth_l1_loss_none_beta": (lambda a, b: F.smooth_l1_loss(a, b, reduction="none", beta=0.3), XT, X),
    "smooth_l1_loss_sum": (lambda a, b: F.smooth_l1_loss(a, b, reduction="sum", beta=2.0), XT, X),
}


@pytest.mark.parametrize("name", sorted(TRAINING_OPS))
def test_training_ops_match_cpu_with_no_fallback(name):
    f, *args = TRAINING_OPS[name]
    opweave.fallback_stats(reset=True)
    same(f(*args), f(*to(D, args)), atol=1e-5)
    assert opweave.fallback_stats() == {}


TRAINING_GRADS = {
    "amax": (lambda t: torch.amax(t, 1), (4, 6)),
    "amin_keepdim": (lambda t: torch.amin(t, (0, 1), keepdim=True), (3, 4, 2)),
    "logsumexp": (lambda t: torch.logsumexp(t, -1), (4, 6)),
    "softplus": (lambda t: F.softplus(t * 8, beta=0.5, threshold=3.0), (4, 6)),
    "log1p": (lambda t: torch.log1p(t * t), (4, 6)),
    "elu": (lambda t: F.elu(t, alpha=0.7), (4, 6)),
    "elu_inplace_result": (lambda t: F.elu(t * 1.0, inplace=True), (4, 6)),
    "selu": (lambda t: F.selu(t), (4, 6)),
    "upsample_scale2": (lambda t: F.interpolate(t, scale_factor=2), (2, 3, 4, 5)),
    "upsample_size": (lambda t: F.interpolate(t, size=(7, 3)), (1, 2, 5, 4)),
    "mse_loss": (lambda t: F.mse_loss(t, torch.linspace(-1, 1, 24, device=t.device).view(4, 6)), (4, 6)),
    "mse_loss_none": (lambda t: F.mse_loss(t, t.detach().flip(0), reduction="none"), (4, 6)),
    "smooth_l1_loss": (lambda t: F.smooth_l1_loss(t * 2, torch.zeros_like(t)), (4, 6)),
    "smooth_l1_loss_sum_beta": (lambda t: F.smooth_l1_loss(t, t.detach().flip(1), reduction="sum",
                                                           beta=0.5), (4, 6)),
}


@pytest.mark.parametrize("name", sorted(TRAINING_GRADS))
def test_training_op_gradients_match_cpu_with_no_fallback(name):
    f, shape = TRAINING_GRADS[name]
    base = torch.randn(*shape, generator=gen(5))
    a = base.clone().requires_grad_()
    b = base.to(D).requires_grad_()
    opweave.fallback_stats(reset=True)
    ya, yb = f(a), f(b)
    grad = torch.randn(ya.shape, generator=gen(6))
    ya.backward(grad)
    yb.backward(grad.to(D))
    assert opweave.fallback_stats() == {}
    same(a.grad, b.grad, atol=1e-5)


def test_upsample_with_a_scale_the_sizes_do_not_reproduce_falls_back_to_cpu():
    # 5 * 1.3 -> 6 rows: ATen indexes by 1 / 1.3, DIOPI's size-only upsample by 5 / 6
    x = torch.randn(1, 2, 5, 5, generator=gen(7)).requires_grad_()
    xd = x.detach().to(D).requires_grad_()
    opweave.fallback_stats(reset=True)
    y, yd = F.interpolate(x, scale_factor=1.3), F.interpolate(xd, scale_factor=1.3)
    same(y, yd, atol=0)
    grad = torch.randn(y.shape, generator=gen(8))
    y.backward(grad)
    yd.backward(grad.to(D))
    same(x.grad, xd.grad, atol=1e-6)
    stats = opweave.fallback_stats()
    assert any("upsample_nearest2d" in k for k in stats), stats


# nll_loss_forward's second output, which DIOPI's NLLLoss does not produce: the runtime computes
# it from the targets on the device (runtime/aten/op_helpers.cpp), and autograd saves it for the
# backward. A wrong count would scale a mean loss's gradient without any error.
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("reduction", [0, 1, 2])   # none, mean, sum
@pytest.mark.parametrize("case", ["rows", "rows_ignored", "one_row", "weighted", "weighted_ignored",
                                  "all_ignored"])
def test_nll_loss_total_weight_matches_cpu(case, reduction, dtype):
    scores = torch.randn(7, 4, generator=gen(9), dtype=dtype).log_softmax(1)
    target = torch.tensor([0, 3, 1, 1, 2, 3, 0])
    weight, ignore = None, -100
    if case == "rows_ignored":
        target[[1, 4]] = ignore = 2
    elif case == "one_row":
        scores, target = scores[0], target[0]
    elif case.startswith("weighted"):
        weight = torch.tensor([0.5, 2.0, 1.25, 0.75], dtype=dtype)
        ignore = 3 if case == "weighted_ignored" else ignore
    elif case == "all_ignored":
        target.fill_(ignore)
    args = (scores, target, weight, reduction, ignore)
    opweave.fallback_stats(reset=True)
    got = torch.ops.aten.nll_loss_forward(*to(D, args))
    assert opweave.fallback_stats() == {}
    expected = torch.ops.aten.nll_loss_forward(*args)
    same(expected, got, atol=0)
