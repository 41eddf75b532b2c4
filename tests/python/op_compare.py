"""Shared by the op-by-op suites (test_ops_*.py): the device, a seeded generator and the
CPU-versus-device comparison they all make."""

from __future__ import annotations

import torch

import opweave

D = opweave.device(0)


def gen(seed=0):
    return torch.Generator().manual_seed(seed)


def to(dev, args):
    return [a.to(dev) if isinstance(a, torch.Tensor) else a for a in args]


def same(cpu, dev, atol):
    cs = cpu if isinstance(cpu, (tuple, list)) else (cpu,)
    ds = dev if isinstance(dev, (tuple, list)) else (dev,)
    assert len(cs) == len(ds)
    for c, d in zip(cs, ds):
        d = d.cpu()
        assert c.shape == d.shape and c.dtype == d.dtype, (c.shape, d.shape, c.dtype, d.dtype)
        assert torch.allclose(c.double(), d.double(), atol=atol, rtol=1e-6, equal_nan=True), (c, d)



def standard_inputs(g):
    """The inputs most cases share, drawn from `g` in a fixed order: X [5, 7]; XT, a
    non-contiguous [5, 7]; bool masks [7] and [5, 7]; INT45, small ints [4, 5]; NANX, XT with a
    NaN at [1, 2]."""
    x = torch.randn(5, 7, generator=g)
    xt = torch.randn(7, 5, generator=g).t()
    bool7 = torch.rand(7, generator=g) > 0.5
    bool57 = torch.rand(5, 7, generator=g) > 0.5
    int45 = torch.randint(0, 3, (4, 5), generator=g)
    nanx = xt.clone()
    nanx[1, 2] = float("nan")
    return x, xt, bool7, bool57, int45, nanx


def same_without_fallback(f, args, atol):
    """f(*args) on the device equals it on the CPU, and no ATen overload ran on the CPU."""
    expected = f(*args)
    opweave.fallback_stats(reset=True)
    got = f(*to(D, args))
    assert opweave.fallback_stats() == {}
    same(expected, got, atol=atol)


def same_gradient_without_fallback(f, shape, atol, seed=1):
    """The gradient of f at a random input of `shape` on the device equals the CPU's, and the
    backward ran no ATen overload on the CPU."""
    base = torch.randn(*shape, generator=gen(seed))
    a = base.clone().requires_grad_()
    b = base.to(D).requires_grad_()
    ya, yb = f(a), f(b)
    grad = torch.randn(ya.shape, generator=gen(seed + 1))
    opweave.fallback_stats(reset=True)
    ya.backward(grad)
    yb.backward(grad.to(D))
    assert opweave.fallback_stats() == {}
    same(a.grad, b.grad, atol=atol)
