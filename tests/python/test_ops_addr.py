"""addr runs natively (diopiAddr) and matches the CPU: beta / alpha combinations, beta 0
ignoring a NaN input, input broadcast from a row and from a scalar, empty and strided vectors,
the in-place form, the gradient, and integers (int64 arithmetic, wrapping). bfloat16 is computed in double and rounded once (torch 2.x
would otherwise decompose it on the device into outer, mul and add, each rounding)."""

from __future__ import annotations

import pytest
import torch

import opweave
from op_compare import D, gen, same, to

g = gen(11)
M = torch.randn(4, 5, generator=g)
V1 = torch.randn(4, generator=g)
V2 = torch.randn(5, generator=g)

CASES = {
    "plain": (lambda m, a, b: torch.addr(m, a, b), M, V1, V2),
    "beta_alpha": (lambda m, a, b: torch.addr(m, a, b, beta=0.5, alpha=-2), M, V1, V2),
    "beta0_ignores_nan": (lambda m, a, b: torch.addr(m, a, b, beta=0), torch.full((4, 5), float("nan")), V1, V2),
    "row_input": (lambda m, a, b: torch.addr(m, a, b, beta=2), V2, V1, V2),
    "scalar_input": (lambda m, a, b: torch.addr(m, a, b), torch.tensor(1.5), V1, V2),
    "strided": (lambda m, a, b: torch.addr(m, a[::2], b[1::2]), torch.randn(2, 2, generator=g), V1, V2),
    "empty": (lambda m, a, b: torch.addr(m, a[:0], b), torch.randn(0, 5), V1, V2),
    "in_place": (lambda m, a, b: m.clone().addr_(a, b, alpha=3), M, V1, V2),
    "float64": (lambda m, a, b: torch.addr(m.double(), a.double(), b.double()), M, V1, V2),
    "int64": (lambda m, a, b: torch.addr(m, a, b, beta=2, alpha=-3),
              torch.arange(12).reshape(3, 4), torch.arange(-1, 2), torch.arange(4)),
    "int32_wraps": (lambda m, a, b: torch.addr(m, a, b),
                    torch.zeros(2, 2, dtype=torch.int32), torch.tensor([2**20, 3], dtype=torch.int32),
                    torch.tensor([2**12, -5], dtype=torch.int32)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_cpu_without_fallback(name):
    f, *args = CASES[name]
    opweave.fallback_stats(reset=True)
    same(f(*args), f(*to(D, args)), atol=1e-5)
    assert not [k for k in opweave.fallback_stats() if "addr" in k]


def test_bfloat16_is_rounded_once_or_the_cpus_own():
    m, a, b = (t.bfloat16() * 4 for t in (M, V1, V2))
    got = torch.addr(m.to(D), a.to(D), b.to(D), beta=0.5, alpha=1.5).cpu()
    truth = torch.addr(m.double(), a.double(), b.double(), beta=0.5, alpha=1.5)
    assert got.dtype == torch.bfloat16
    rounded_once = torch.allclose(got.double(), truth, rtol=2.0**-8, atol=1e-12)
    assert rounded_once or torch.equal(got, torch.addr(m, a, b, beta=0.5, alpha=1.5))


def test_gradient_matches_cpu():
    args = [t.clone().requires_grad_() for t in (M, V1, V2)]
    dargs = [t.detach().to(D).requires_grad_() for t in (M, V1, V2)]
    torch.addr(*args, beta=0.5, alpha=2).pow(2).sum().backward()
    torch.addr(*dargs, beta=0.5, alpha=2).pow(2).sum().backward()
    for c, d in zip(args, dargs):
        same(c.grad, d.grad, atol=1e-4)


@pytest.mark.parametrize("call", [
    lambda: torch.addr(M.to(D), V1.to(D).reshape(2, 2), V2.to(D)),   # a matrix for vec1
    lambda: torch.addr(M.to(D), V1.to(D), V2.to(D).double()),        # mixed dtypes
    lambda: torch.addr(torch.ones(3, 4, dtype=torch.long, device=D), torch.ones(3, dtype=torch.long, device=D),
                       torch.ones(4, dtype=torch.long, device=D), beta=0.5),   # fractional beta, integers
])
def test_bad_arguments_raise_naming_the_op(call):
    with pytest.raises(RuntimeError, match="addr|vector|dtype|expected|integral"):
        call()
