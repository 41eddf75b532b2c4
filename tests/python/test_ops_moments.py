"""var / std / var_mean / std_mean run natively and match the CPU: every Bessel correction
(none, 0, 1, larger than the count: inf / NaN as ATen), reductions over several dims, keepdim,
0-dim and empty inputs, non-contiguous inputs and 16-bit dtypes (computed in double, rounded
once). `correction` is `int?` on torch 1.13 and `Scalar?` from 2.0 (the catalogue's
`scalar_since`): the same generated wrapper takes either, and a fractional correction on
torch 2.x runs natively too.
"""

from __future__ import annotations

import pytest
import torch

import opweave
from op_compare import D, gen, same, to

TORCH2 = int(torch.__version__.split(".")[0]) >= 2
g = gen(11)
X = torch.randn(3, 5, 4, generator=g) * 3 + 1

CASES = {
    "var_all_default": (lambda x: torch.var(x), X),
    "std_dim_unbiased_false": (lambda x: torch.std(x, 1, unbiased=False), X),
    "var_dims_keepdim": (lambda x: torch.var(x, (0, 2), keepdim=True), X),
    "std_correction_0": (lambda x: torch.std(x, dim=-1, correction=0), X),
    "var_correction_2": (lambda x: torch.var(x, dim=0, correction=2), X),
    "var_correction_beyond_count": (lambda x: torch.var(x, dim=0, correction=5), X),
    "std_one_element_nan": (lambda x: torch.std(x[:1], dim=0), X),
    "var_mean_dims": (lambda x: torch.var_mean(x, (1, 2)), X),
    "std_mean_keepdim": (lambda x: torch.std_mean(x, 0, keepdim=True, correction=0), X),
    "var_noncontig": (lambda x: torch.var(x.transpose(0, 2)[:, ::2], 1), X),
    "std_0dim": (lambda x: torch.std(x[0, 0, 0], dim=None, correction=0), X),
    "var_empty_dim": (lambda x: torch.var(x[:, :0], 1), X),
    "var_out": (lambda x: torch.var(x, 1, out=torch.empty(0, device=x.device)), X),
    "std_bfloat16": (lambda x: torch.std(x.bfloat16(), 2), X),
    "var_mean_float16": (lambda x: torch.var_mean(x.half(), 1), X),
    "std_float64": (lambda x: torch.std(x.double(), (0, 1)), X),
}
if TORCH2:
    CASES["var_fractional_correction"] = (lambda x: torch.var(x, 1, correction=0.5), X)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_cpu_without_fallback(name):
    f, *args = CASES[name]
    opweave.fallback_stats(reset=True)
    same(f(*args), f(*to(D, args)), atol=1e-5)
    assert opweave.fallback_stats() == {}


def test_complex_input_falls_back_and_returns_a_real_variance():
    z = torch.complex(X, X.flip(0))
    opweave.fallback_stats(reset=True)
    got = torch.var(z.to(D), 1)
    assert got.dtype == torch.float32
    same(torch.var(z, 1), got, atol=1e-5)
    assert opweave.fallback_stats() != {}


def test_integer_input_raises_as_on_the_cpu():
    with pytest.raises(RuntimeError, match="floating point"):
        torch.var(torch.arange(6).to(D))


def test_gradient_flows_through_the_native_forward():
    x = X.clone().requires_grad_()
    xd = X.to(D).requires_grad_()
    torch.std(x, 1, correction=0).sum().backward()
    torch.std(xd, 1, correction=0).sum().backward()
    same(x.grad, xd.grad, atol=1e-5)
