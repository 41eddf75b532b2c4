"""Random ops on the device generator: reproducible by seed, sane statistics, no CPU fallback,
Python errors for bad arguments."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

import opweave
from op_compare import D, gen


RANDOM = {
    "uniform_": lambda: torch.empty(3000, device=D).uniform_(-2.0, 3.0),
    "normal_": lambda: torch.empty(50, 60, device=D).normal_(1.5, 0.5),
    "rand": lambda: torch.rand(4, 5, device=D),
    "randn": lambda: torch.randn(4, 5, device=D),
    "bernoulli_p": lambda: torch.empty(1000, device=D).bernoulli_(0.3),
    "bernoulli_tensor": lambda: torch.bernoulli(torch.full((1000,), 0.7, device=D)),
    "randperm": lambda: torch.randperm(100, device=D),
    "normal_tensor_mean": lambda: torch.normal(torch.linspace(-3, 3, 500, device=D), 0.5),
    "normal_tensor_std": lambda: torch.normal(2.0, torch.linspace(0, 2, 500, device=D)),
    "normal_tensors": lambda: torch.normal(torch.zeros(4, 1, device=D), torch.ones(1, 300, device=D)),
    "dropout": lambda: F.dropout(torch.ones(2000, device=D), 0.25, training=True),
    "native_dropout": lambda: torch.native_dropout(torch.ones(2000, device=D), 0.25, True),
}


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_random_ops_are_reproducible_by_seed_and_run_on_the_device(name):
    opweave.fallback_stats(reset=True)
    opweave.manual_seed(1234)
    first = RANDOM[name]()
    second = RANDOM[name]()   # the generator advanced: other values
    opweave.manual_seed(1234)
    again = RANDOM[name]()
    assert opweave.fallback_stats() == {}
    firsts = first if isinstance(first, tuple) else (first,)
    agains = again if isinstance(again, tuple) else (again,)
    for a, b in zip(firsts, agains):
        assert a.device == D and torch.equal(a.cpu(), b.cpu())
    f0 = firsts[0].cpu().double()
    s0 = (second[0] if isinstance(second, tuple) else second).cpu().double()
    assert not torch.equal(f0, s0)


def test_random_statistics_are_sane():
    opweave.manual_seed(7)
    u = torch.empty(20000, device=D).uniform_(-2.0, 3.0).cpu()
    assert u.min() >= -2.0 and u.max() < 3.0
    assert abs(u.mean() - 0.5) < 0.05 and abs(u.var() - 25 / 12) < 0.1
    n = torch.empty(20000, device=D, dtype=torch.float64).normal_(1.5, 0.5).cpu()
    assert abs(n.mean() - 1.5) < 0.02 and abs(n.std() - 0.5) < 0.02
    h = torch.empty(4000, device=D, dtype=torch.float16).normal_().cpu().float()
    assert abs(h.mean()) < 0.1 and abs(h.std() - 1) < 0.1
    b = torch.empty(20000, device=D).bernoulli_(0.3).cpu()
    assert set(b.unique().tolist()) <= {0.0, 1.0} and abs(b.mean() - 0.3) < 0.02
    p = torch.linspace(0, 1, 20000, device=D)
    bt = torch.bernoulli(p).cpu()
    assert bt[:100].sum() <= 5 and bt[-100:].sum() >= 95 and abs(bt.mean() - 0.5) < 0.02
    mean = torch.linspace(-3, 3, 20000)
    nm = torch.normal(mean.to(D), 0.5).cpu()
    assert abs((nm - mean).mean()) < 0.02 and abs((nm - mean).std() - 0.5) < 0.02
    std = torch.linspace(0, 2, 20000)
    ns = torch.normal(2.0, std.to(D)).cpu()
    assert ns[0] == 2.0 and abs(((ns - 2) / std.clamp_min(1e-6))[1:].std() - 1) < 0.05
    nt = torch.normal(torch.full((100, 1), 5.0, device=D), torch.full((1, 200), 0.1, device=D))
    assert nt.shape == (100, 200) and abs(nt.cpu().mean() - 5) < 0.01
    perm = torch.randperm(1000, device=D).cpu()
    assert perm.dtype == torch.int64 and torch.equal(perm.sort().values, torch.arange(1000))
    assert not torch.equal(perm, torch.arange(1000))
    assert torch.randperm(0, device=D).numel() == 0
    assert torch.equal(torch.randperm(5, device=D, dtype=torch.int32).cpu().sort().values,
                       torch.arange(5, dtype=torch.int32))


def test_dropout_keeps_about_one_minus_p_and_scales_the_kept():
    opweave.manual_seed(11)
    x = torch.randn(100, 200, generator=gen(19))
    out, mask = torch.native_dropout(x.to(D), 0.2, True)
    out, mask = out.cpu(), mask.cpu()
    assert mask.dtype == torch.bool and abs(mask.float().mean() - 0.8) < 0.01
    assert torch.allclose(out, torch.where(mask, x / 0.8, torch.zeros_like(x)), atol=1e-6)
    y = F.dropout(x.to(D), 0.5, training=True).cpu()
    kept = y != 0
    assert abs(kept.float().mean() - 0.5) < 0.02
    assert torch.allclose(y[kept], x[kept] * 2, atol=1e-6)
    assert torch.equal(F.dropout(x.to(D), 0.5, training=False).cpu(), x)
    # gradient of dropout on the device: the mask times the scale
    xd = x.to(D).requires_grad_()
    opweave.manual_seed(12)
    y = F.dropout(xd, 0.3, training=True)
    y.sum().backward()
    g = xd.grad.cpu()
    assert torch.allclose(g, (y.detach().cpu() != 0).float() / 0.7, atol=1e-6)


def test_dropout_backward_of_an_integral_gradient_has_the_cpu_dtype_and_values():
    # Outside the family's dtypes: torch 1.13 keeps int64, torch 2.x promotes to float. A
    # kernel that computes it (aten_ref) must not truncate into the int64 out the catalogue's
    # rule allocated; it declines and the op runs on CPU.
    grad = torch.arange(-6, 6).reshape(3, 4)
    mask = torch.arange(12).reshape(3, 4) % 3 != 0
    want = torch.ops.aten.native_dropout_backward(grad, mask, 1.5)
    got = torch.ops.aten.native_dropout_backward(grad.to(D), mask.to(D), 1.5)
    assert got.device == D and got.dtype == want.dtype
    assert torch.equal(got.cpu(), want)


def test_random_ops_reject_bad_arguments_with_python_errors():
    with pytest.raises(RuntimeError, match="from"):
        torch.empty(3, device=D).uniform_(2.0, 1.0)
    with pytest.raises(RuntimeError, match=r"\[0, 1\]"):
        torch.empty(3, device=D).bernoulli_(1.5)
    with pytest.raises(RuntimeError, match="std"):
        torch.empty(3, device=D).normal_(0.0, -1.0)
    with pytest.raises(RuntimeError, match="std"):
        torch.normal(0.0, torch.tensor([1.0, -1.0], device=D))
        opweave.synchronize()   # the negative std is found in the data, on the stream
