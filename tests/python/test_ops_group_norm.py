"""Group norm runs natively (diopiGroupNorm) and matches the CPU: with and without the affine,
one group and one channel per group, 3-D and 5-D inputs, an empty batch, non-contiguous input,
float64 and bfloat16 (statistics in double, rounded once: torch 2.x would otherwise decompose
it into batch norm and elementwise ops on the device, each rounding in bfloat16). A call whose
N / C / HxW do not describe input's own shape, and mixed dtypes, take the CPU fallback
(bfloat16 is judged against the float64 truth: CPU torch's own rounding differs by version).
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

import opweave
from op_compare import D, gen, same, to

g = gen(5)
X = torch.randn(3, 6, 4, 5, generator=g) * 2 + 0.5
W = torch.randn(6, generator=g)
B = torch.randn(6, generator=g)

CASES = {
    "affine": (lambda x, w, b: F.group_norm(x, 3, w, b), X, W, B),
    "no_affine": (lambda x: F.group_norm(x, 2), X),
    "one_group": (lambda x, w, b: F.group_norm(x, 1, w, b, eps=1e-3), X, W, B),
    "group_per_channel": (lambda x, w, b: F.group_norm(x, 6, w, b), X, W, B),
    "seq_3d": (lambda x, w, b: F.group_norm(x.flatten(2), 3, w, b), X, W, B),
    "vol_5d": (lambda x, w, b: F.group_norm(x.unsqueeze(-1), 2, w, b), X, W, B),
    "noncontig": (lambda x, w, b: F.group_norm(x.transpose(2, 3), 3, w, b), X, W, B),
    "float64": (lambda x, w, b: F.group_norm(x.double(), 3, w.double(), b.double()), X, W, B),
    "saved_stats": (lambda x, w, b: torch.native_group_norm(x, w, b, 3, 6, 20, 2, 1e-5), X, W, B),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_cpu_without_fallback(name):
    f, *args = CASES[name]
    opweave.fallback_stats(reset=True)
    same(f(*args), f(*to(D, args)), atol=2e-5 if "bfloat16" not in name else 1e-2)
    assert "aten::native_group_norm" not in opweave.fallback_stats()


def test_bfloat16_is_rounded_once_or_the_cpus_own():
    # CPU torch's bfloat16 kernel rounds differently between versions. A vendor either runs
    # it (aten_ref: the CPU's very bits) or computes in double and rounds once (sim: within
    # half a bfloat16 ulp, 2^-8 relative, of the float64 truth).
    x, w, b = X.bfloat16(), W.bfloat16(), B.bfloat16()
    opweave.fallback_stats(reset=True)
    got = F.group_norm(x.to(D), 3, w.to(D), b.to(D)).cpu()
    assert "aten::native_group_norm" not in opweave.fallback_stats()
    truth = F.group_norm(x.double(), 3, w.double(), b.double())
    assert got.dtype == torch.bfloat16 and got.shape == truth.shape
    rounded_once = torch.allclose(got.double(), truth, rtol=2.0**-8, atol=1e-12)
    assert rounded_once or torch.equal(got, F.group_norm(x, 3, w, b))


def test_an_empty_batch_gives_empty_results():
    x = torch.zeros(0, 6, 4)
    out = F.group_norm(x.to(D), 3, W.to(D), B.to(D))
    assert out.shape == (0, 6, 4)


@pytest.mark.parametrize("call", [
    # N, C, HxW that regroup the input differently from its own [N, C, *] shape
    lambda x, w, b: torch.native_group_norm(x, None, None, 6, 3, 20, 3, 1e-5),
])
def test_calls_the_kernel_does_not_describe_fall_back_and_match(call):
    opweave.fallback_stats(reset=True)
    same(call(X, W, B), call(*to(D, (X, W, B))), atol=2e-5)
    assert "aten::native_group_norm" in opweave.fallback_stats()


def test_mixed_dtypes_are_declined_and_behave_as_on_cpu():
    # bfloat16 input with float parameters: torch 2.x's CPU keeps float statistics, torch
    # 1.13's refuses. The kernel declines mixed dtypes, so the device does what the CPU does.
    x = X.bfloat16()
    try:
        want = F.group_norm(x, 3, W, B)
    except RuntimeError:
        with pytest.raises(RuntimeError):
            F.group_norm(x.to(D), 3, W.to(D), B.to(D))
        return
    opweave.fallback_stats(reset=True)
    same(want, F.group_norm(x.to(D), 3, W.to(D), B.to(D)), atol=1e-2)
    assert "aten::native_group_norm" in opweave.fallback_stats()


def test_channels_not_divisible_by_groups_raise_naming_the_op():
    with pytest.raises(RuntimeError, match="group"):
        F.group_norm(X.to(D), 4)
