"""Indexed combining, order statistics and the other ops of the coverage group run natively
and match CPU: scatter_reduce / index_reduce / index_add / put with repeated indices (combined
in index order, include_self, mean counts), index_copy / scatter's last write, take / put /
index_fill's negative indices, kthvalue / median / nanmedian's chosen index among ties and
NaNs, renorm's per-slice factor and logspace's two halves. Modes a kernel does not implement
decline to the CPU fallback rather than compute something else.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

import opweave
from op_compare import D, gen, same, to


g = gen(7)
X = torch.randn(4, 6, generator=g)
DUP = torch.tensor([[0, 0, 3, 3, 3, 1], [2, 2, 2, 0, 0, 0]])   # repeated positions per row
SRC = torch.randn(2, 6, generator=g)
IDX1 = torch.tensor([1, 3, 1, 1, 0, 3])                            # repeated rows / columns
SOURCE = torch.randn(6, 6, generator=g)
TIES = torch.tensor([[3.0, 1.0, 3.0, 1.0, 2.0], [float("nan"), 0.5, 0.5, float("nan"), 7.0]])
INTS = torch.tensor([[5, -2, 5, 0, -2, 9], [1, 1, 1, 4, 4, 4]])

FORWARD = {
    **{f"scatter_reduce_{r}_{s}": (lambda x, i, v, r=r, s=s: x.scatter_reduce(1, i, v, r, include_self=s),
                                   X[:2], DUP, SRC)
       for r in ("sum", "prod", "mean", "amax", "amin") for s in (True, False)},
    "scatter_reduce_mean_int_floors": (lambda x, i, v: x.scatter_reduce(1, i, v, "mean"), INTS,
                                       DUP, -INTS * 3),
    "scatter_reduce_amax_nan": (lambda x, i, v: x.scatter_reduce(1, i, v, "amax"), TIES[:, :4],
                                DUP[:, :4], torch.tensor([[1.0, float("nan"), 0.0, 2.0]] * 2)),
    "scatter_reduce_": (lambda x, i, v: x.clone().scatter_reduce_(1, i, v, "prod"), X[:2], DUP, SRC),
    "scatter_add_repeated": (lambda x, i, v: x.scatter_add(1, i, v), X[:2], DUP, SRC),
    "scatter_reduce_kwarg_multiply": (lambda x, i, v: x.scatter(1, i, v, reduce="multiply"), X[:2], DUP, SRC),
    "scatter_value_reduce_add": (lambda x, i: x.scatter(1, i, 1.5, reduce="add"), X[:2], DUP),
    "scatter_last_write_wins": (lambda x, i, v: x.scatter(1, i, v), X[:2], DUP, SRC),
    "index_add_repeated_alpha": (lambda x, i, v: x.index_add(1, i, v, alpha=-2.0), X, IDX1, SOURCE[:4]),
    "index_add_int": (lambda x, i, v: x.index_add(0, i, v), INTS, torch.tensor([1, 1, 0]), INTS[[0, 1, 0]]),
    "index_copy_last_wins": (lambda x, i, v: x.index_copy(1, i, v), X, IDX1, SOURCE[:4]),
    "index_fill_negative": (lambda x, i: x.index_fill(1, i, -7.0), X, torch.tensor([-1, 0, -6])),
    "index_fill_tensor_value_": (lambda x, i: x.clone().index_fill_(0, i, torch.tensor(3.0)), X,
                                 torch.tensor([2])),
    **{f"index_reduce_{r}_{s}": (lambda x, i, v, r=r, s=s: x.index_reduce(1, i, v, r, include_self=s),
                                 X, IDX1, SOURCE[:4])
       for r in ("prod", "mean", "amax", "amin") for s in (True, False)},
    "take_negative": (lambda x, i: x.take(i), X.t(), torch.tensor([[0, -1], [23, -24]])),
    "put_accumulate_repeated": (lambda x, i, v: x.put(i, v, accumulate=True), X,
                                torch.tensor([5, -1, 5, 5]), torch.tensor([1.0, 2.0, 3.0, 4.0])),
    "put_noncontig_": (lambda x, i, v: x.t().clone().t().put_(i, v), X,
                       torch.tensor([0, 7, -3]), torch.tensor([9.0, 8.0, 7.0])),
    "isin_invert": (lambda a, b: torch.isin(a, b, invert=True), INTS, torch.tensor([5, 4, 0])),
    "isin_nan_never_found": (lambda a, b: torch.isin(a, b), TIES, torch.tensor([float("nan"), 0.5])),
    "angle": (lambda x: torch.angle(x), torch.tensor([-1.0, 0.0, -0.0, 2.0, float("nan")])),
    "logcumsumexp_inf": (lambda x: torch.logcumsumexp(x, 1),
                         torch.tensor([[float("-inf"), 0.0, float("inf"), 1.0], [3.0, -2.0, 100.0, -100.0]])),
    "kthvalue_ties_as_quickselect": (lambda x: torch.kthvalue(x, 2, 1), TIES[:1]),
    "kthvalue_int_ties": (lambda x: torch.kthvalue(x, 3, 0), torch.randint(0, 3, (9, 5), generator=g)),
    "kthvalue_nan_largest": (lambda x: torch.kthvalue(x, 5, 1, keepdim=True), TIES),
    "median_dim_nan_first": (lambda x: torch.median(x, 1), TIES),
    "median_dim_ties": (lambda x: torch.median(x, 0), INTS),
    "median_all_nan": (lambda x: torch.median(x), TIES),
    "nanmedian_dim": (lambda x: torch.nanmedian(x, 1), TIES),
    "nanmedian_all": (lambda x: torch.nanmedian(x), TIES),
    "huber_loss_sum": (lambda a, b: F.huber_loss(a, b, reduction="sum", delta=0.5), X, X.flip(0)),
    "bce_weighted_mean": (lambda a, b, w: F.binary_cross_entropy(a, b, w), X.sigmoid(),
                          X.flip(0).sigmoid(), torch.rand(6, generator=g)),
    "bce_unreduced_clamps_log": (lambda a, b: F.binary_cross_entropy(a, b, reduction="none"),
                                 torch.tensor([0.0, 1.0, 0.5]), torch.tensor([1.0, 0.0, 0.25])),
    "renorm_some_slices": (lambda x: torch.renorm(x, 2, 0, 2.0), X * 1.5),
    "renorm_inf_norm_dim1": (lambda x: torch.renorm(x, float("inf"), 1, 0.5), X),
    "logspace_halves": (lambda x: torch.logspace(-3, 1.2, 7, base=2.0, device=x.device), X),
    "max_unpool2d_repeated_index": (lambda x, i: F.max_unpool2d(x, i, 2, output_size=(4, 4)),
                                    torch.randn(1, 2, 2, 2, generator=g),
                                    torch.tensor([[[[0, 5], [5, 15]], [[1, 1], [10, 11]]]])),
}


@pytest.mark.parametrize("name", sorted(FORWARD))
def test_forward_matches_cpu_without_fallback(name):
    f, *args = FORWARD[name]
    opweave.fallback_stats(reset=True)
    same(f(*args), f(*to(D, args)), atol=1e-5)
    assert opweave.fallback_stats() == {}


def test_embedding_renorm_scales_each_named_row_once():
    w = torch.randn(5, 4, generator=gen(3)) * 3
    idx = torch.tensor([[1, 1], [4, 0]])
    ref = w.clone()
    with torch.no_grad():
        torch.embedding_renorm_(ref, idx, 1.5, 2.0)
    dev = w.to(D)
    opweave.fallback_stats(reset=True)
    with torch.no_grad():
        torch.embedding_renorm_(dev, idx.to(D), 1.5, 2.0)
    assert opweave.fallback_stats() == {}
    same(ref, dev, atol=1e-6)
    assert torch.equal(dev.cpu()[[2, 3]], w[[2, 3]])   # rows no index names are untouched


@pytest.mark.parametrize("call, args", [
    (lambda x, i, v: x.to(torch.complex64).scatter_add(1, i, v.to(torch.complex64)), (X[:2], DUP, SRC)),
    (lambda x, i, v: x.to(torch.complex64).index_reduce(1, i, v.to(torch.complex64), "prod"),
     (X, IDX1, SOURCE[:4])),
    (lambda x, i, v: x.bool().index_add(1, i, v.bool()), (X, IDX1, SOURCE[:4])),
])
def test_dtypes_the_kernels_lack_fall_back_to_cpu_and_still_match(call, args):
    opweave.fallback_stats(reset=True)
    same(call(*args), call(*to(D, args)), atol=1e-5)
    assert opweave.fallback_stats() != {}


def test_an_out_of_range_index_raises_naming_the_op():
    with pytest.raises(RuntimeError, match="index_add|index out of"):
        X.to(D).index_add(0, torch.tensor([4]).to(D), SOURCE[:1].to(D))
        torch.zeros(1).to(D).cpu()   # an asynchronous failure surfaces at the next sync
