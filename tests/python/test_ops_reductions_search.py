"""The reductions and searches of issue #20's third coverage round run natively and match CPU:
aminmax, count_nonzero, trace, addbmm, mode, cummax / cummin, histc, bucketize / searchsorted,
repeat_interleave and fill_ with a tensor value. Where ATen's CPU kernel picks one of several
equal candidates (mode's index after std::sort, cummax's later index among ties and NaNs,
searchsorted on unsorted or NaN-holding sequences) the device picks the same one. Arguments a
kernel does not implement decline to the CPU fallback; bad arguments raise naming the op.
"""

from __future__ import annotations

import pytest
import torch

import opweave
from op_compare import D, gen, same, to


g = gen(11)
NAN = float("nan")
X = torch.randn(4, 6, generator=g)
XT = torch.randn(6, 4, generator=g).t()                    # non-contiguous [4, 6]
NANS = torch.tensor([[1.0, NAN, 3.0, NAN, -1.0, 2.0], [0.5, 0.5, -2.0, 7.0, 7.0, -2.0]])
SMALL = torch.randint(-2, 3, (5, 40), generator=g)          # many ties, lines past 16 (introsort)
SEQ = torch.tensor([-1.0, 0.0, 0.0, 0.5, 2.0, 2.0, 3.0])    # sorted, with repeated values
BATCH1 = torch.randn(3, 4, 5, generator=g)
BATCH2 = torch.randn(3, 5, 2, generator=g)

FORWARD = {
    # aminmax
    "aminmax_all": (lambda x: torch.aminmax(x), XT),
    "aminmax_dim_keepdim": (lambda x: torch.aminmax(x, dim=0, keepdim=True), XT),
    "aminmax_all_keepdim": (lambda x: torch.aminmax(x, keepdim=True), X),
    "aminmax_nan_propagates": (lambda x: torch.aminmax(x, dim=1), NANS),
    "aminmax_int": (lambda x: torch.aminmax(x, dim=-1), SMALL),
    "aminmax_bool": (lambda x: torch.aminmax(x, dim=0), X > 0),
    "aminmax_0dim": (lambda x: torch.aminmax(x, dim=0), torch.tensor(3.5)),
    "aminmax_0dim_keepdim": (lambda x: torch.aminmax(x, dim=-1, keepdim=True), torch.tensor(3.5)),
    # count_nonzero
    "count_nonzero_all": (lambda x: torch.count_nonzero(x), SMALL),
    "count_nonzero_dims": (lambda x: torch.count_nonzero(x, dim=(0, 2)), SMALL.reshape(5, 4, 10)),
    "count_nonzero_nan_counts": (lambda x: torch.count_nonzero(x, dim=1), NANS),
    "count_nonzero_bool_noncontig": (lambda x: torch.count_nonzero(x, dim=0), (XT > 0)),
    "count_nonzero_empty": (lambda x: torch.count_nonzero(x, dim=1), torch.zeros(0, 3)),
    # trace
    "trace_wide": (lambda x: torch.trace(x), X),
    "trace_noncontig": (lambda x: torch.trace(x), XT),
    "trace_int_is_int64": (lambda x: torch.trace(x), SMALL.to(torch.int32)),
    "trace_empty": (lambda x: torch.trace(x), torch.zeros(0, 3)),
    # addbmm
    "addbmm": (lambda a, b, c: torch.addbmm(a, b, c, beta=0.5, alpha=-2.0), torch.randn(4, 2), BATCH1,
               BATCH2),
    "addbmm_broadcast_input": (lambda a, b, c: torch.addbmm(a, b, c), torch.randn(2), BATCH1, BATCH2),
    "addbmm_beta0_ignores_nan": (lambda a, b, c: torch.addbmm(a, b, c, beta=0), torch.full((4, 2), NAN),
                                 BATCH1, BATCH2),
    "addbmm_no_batches": (lambda a, b, c: torch.addbmm(a, b, c, beta=3), torch.randn(4, 2),
                          BATCH1[:0], BATCH2[:0]),
    "addbmm_": (lambda a, b, c: a.clone().addbmm_(b, c), torch.randn(4, 2), BATCH1, BATCH2),
    # mode: which index of the modal value ATen's std::sort leaves last
    "mode_ties_long_lines": (lambda x: torch.mode(x, 1), SMALL),
    "mode_dim0_keepdim": (lambda x: torch.mode(x, 0, keepdim=True), SMALL),
    "mode_float_nan": (lambda x: torch.mode(x, 1), NANS),
    "mode_noncontig": (lambda x: torch.mode(x.round(), 0), XT * 2),
    "mode_bool": (lambda x: torch.mode(x, 1), SMALL > 0),
    "mode_0dim": (lambda x: torch.mode(x), torch.tensor(2.0)),
    # cummax / cummin: ties take the later index, a NaN is kept and each later NaN takes over
    "cummax_ties": (lambda x: torch.cummax(x, 1), SMALL),
    "cummin_ties_dim0": (lambda x: torch.cummin(x, 0), SMALL),
    "cummax_nan": (lambda x: torch.cummax(x, 1), NANS),
    "cummin_nan": (lambda x: torch.cummin(x, 1), NANS),
    "cummax_noncontig": (lambda x: torch.cummax(x, 0), XT),
    "cummin_bool": (lambda x: torch.cummin(x, 1), SMALL > 0),
    "cummax_0dim": (lambda x: torch.cummax(x, 0), torch.tensor(-1.5)),
    "cummin_empty": (lambda x: torch.cummin(x, 1), torch.zeros(2, 0)),
    # histc
    "histc_data_range": (lambda x: torch.histc(x, bins=7), X),
    "histc_given_range_skips_outside": (lambda x: torch.histc(x, 4, min=-1, max=1), NANS.nan_to_num(5.0)),
    "histc_max_in_last_bin": (lambda x: torch.histc(x, 3, min=0, max=3), torch.tensor([0.0, 1.0, 3.0, 3.0])),
    "histc_one_point_widens": (lambda x: torch.histc(x, 4), torch.full((5,), 2.0)),
    "histc_double_noncontig": (lambda x: torch.histc(x, 10), XT.double()),
    # searchsorted / bucketize
    "bucketize_left": (lambda x, b: torch.bucketize(x, b), X, SEQ),
    "bucketize_right_int32": (lambda x, b: torch.bucketize(x, b, right=True, out_int32=True), X.round(), SEQ),
    "searchsorted_1d": (lambda s, x: torch.searchsorted(s, x), SEQ, XT),
    "searchsorted_side_right": (lambda s, x: torch.searchsorted(s, x, side="right"), SEQ, X.round()),
    "searchsorted_nd": (lambda s, x: torch.searchsorted(s, x, right=True),
                        torch.sort(torch.randn(4, 9, generator=g), 1)[0], X),
    "searchsorted_unsorted_and_nan": (lambda s, x: torch.searchsorted(s, x),
                                      torch.tensor([3.0, NAN, -1.0, 0.0, 5.0]), NANS),
    "searchsorted_int": (lambda s, x: torch.searchsorted(s, x), torch.arange(0, 20, 3), SMALL * 7),
    "searchsorted_sorter": (lambda s, x, o: torch.searchsorted(s, x, sorter=o), SEQ.flip(0), X,
                            torch.arange(6, -1, -1)),
    "searchsorted_nd_sorter_right": (lambda s, x: torch.searchsorted(s, x, side="right", sorter=s.argsort(1)),
                                     torch.randint(0, 5, (4, 9), generator=g).float(), X.round()),
    "searchsorted_0dim_input": (lambda s, x: torch.searchsorted(s, x), SEQ, torch.tensor(0.0)),
    "searchsorted_empty_sequence": (lambda s, x: torch.searchsorted(s, x), SEQ[:0], X),
    # repeat_interleave
    "repeat_interleave_tensor": (lambda r: torch.repeat_interleave(r), torch.tensor([2, 0, 3, 1])),
    "repeat_interleave_int32": (lambda r: torch.repeat_interleave(r), torch.tensor([1, 4], dtype=torch.int32)),
    "repeat_interleave_output_size": (lambda r: torch.repeat_interleave(r, output_size=5), torch.tensor([2, 3])),
    "repeat_interleave_empty": (lambda r: torch.repeat_interleave(r), torch.zeros(0, dtype=torch.long)),
    "repeat_interleave_self_dim": (lambda x, r: x.repeat_interleave(r, dim=0), X, torch.tensor([1, 0, 2, 1])),
    # fill_ with a 0-dim tensor value (on the device, or on the CPU as ATen allows)
    "fill_tensor_value": (lambda x, v: x.clone().fill_(v), XT, torch.tensor(2.5)),
    "fill_tensor_value_int_into_float": (lambda x, v: x.clone().fill_(v), X, torch.tensor(7)),
    "fill_tensor_value_float_into_int": (lambda x, v: x.clone().fill_(v), SMALL, torch.tensor(-2.75)),
}


@pytest.mark.parametrize("name", sorted(FORWARD))
def test_forward_matches_cpu_without_fallback(name):
    f, *args = FORWARD[name]
    opweave.fallback_stats(reset=True)
    same(f(*args), f(*to(D, args)), atol=1e-5)
    assert opweave.fallback_stats() == {}


def test_fill_with_a_cpu_value_stays_native():
    x = X.to(D)
    opweave.fallback_stats(reset=True)
    x.fill_(torch.tensor(-4.0))   # a 0-dim CPU value, as ATen accepts
    assert opweave.fallback_stats() == {}
    assert torch.equal(x.cpu(), torch.full_like(X, -4.0))


def test_histc_bins_as_atens_linear_interpolation():
    # many values close to bin edges: the bin of each is ATen's float arithmetic's
    x = torch.randn(20000, generator=gen(9)) * 2
    opweave.fallback_stats(reset=True)
    got = [torch.histc(x.to(D), b, min=lo, max=hi).cpu() for b, lo, hi in
           [(100, -3, 3), (7, -1, 2.5), (13, 0, 0)]]
    assert opweave.fallback_stats() == {}
    want = [torch.histc(x, b, min=lo, max=hi) for b, lo, hi in [(100, -3, 3), (7, -1, 2.5), (13, 0, 0)]]
    for g_, w in zip(got, want):
        assert torch.equal(g_, w), (g_ - w).nonzero()


def test_mode_picks_atens_index_among_many_ties():
    # every line has several values of the top frequency and runs past 16 elements, so the
    # index depends on std::sort's exact (unstable) permutation
    x = torch.randint(0, 4, (64, 50), generator=gen(5)).float()
    opweave.fallback_stats(reset=True)
    v, i = torch.mode(x.to(D), 1)
    assert opweave.fallback_stats() == {}
    rv, ri = torch.mode(x, 1)
    assert torch.equal(v.cpu(), rv) and torch.equal(i.cpu(), ri)


@pytest.mark.parametrize("call, args", [
    # sequence and input of different dtypes compare in the promoted dtype on the CPU
    (lambda s, x: torch.searchsorted(s, x), (SEQ.double(), X)),
    # dtypes the catalogue does not list for these families
    (lambda x: torch.trace(x), (X.to(torch.complex64),)),
    (lambda a, b, c: torch.addbmm(a, b, c), (torch.ones(4, 2, dtype=torch.long), BATCH1.long(), BATCH2.long())),
    # where a NaN goes differs between torch versions (1.13: the first bin; 2.x: nowhere)
    (lambda x: torch.histc(x, 4, min=-1, max=1), (NANS,)),
])
def test_what_the_kernels_lack_falls_back_to_cpu_and_still_matches(call, args):
    opweave.fallback_stats(reset=True)
    same(call(*args), call(*to(D, args)), atol=1e-2)
    assert opweave.fallback_stats() != {}


@pytest.mark.parametrize("call, match", [
    (lambda: torch.trace(X.to(D)[None]), "trace"),
    (lambda: torch.histc(X.to(D), bins=0), "histc"),
    (lambda: torch.histc(NANS.to(D)), "histc"),   # a NaN in the data's range (on the CPU)
    (lambda: torch.histc(X.to(D), 4, min=1, max=-1), "histc"),
    (lambda: torch.repeat_interleave(torch.tensor([1, -1]).to(D)), "repeat_interleave|negative"),
    (lambda: torch.repeat_interleave(torch.tensor([[1]]).to(D)), "repeat_interleave"),
    (lambda: torch.searchsorted(SEQ.to(D), X.to(D), right=True, side="left"), "searchsorted|side"),
    (lambda: torch.bucketize(X.to(D), torch.ones(2, 2).to(D)), "bucketize|boundaries"),
    (lambda: torch.aminmax(torch.zeros(0, 3).to(D)), "empty"),
    (lambda: torch.searchsorted(SEQ.to(D), X.to(D), sorter=torch.arange(7).flip(0).add(1).to(D)),
     "searchsorted|sorter"),
    (lambda: torch.mode(torch.zeros(2, 0).to(D), 1), "reduce over dim"),
    (lambda: X.to(D).fill_(torch.ones(2).to(D)), "fill_"),
])
def test_bad_arguments_raise_naming_the_op(call, match):
    with pytest.raises(RuntimeError, match=match):
        call()
        torch.zeros(1).to(D).cpu()   # an asynchronous failure surfaces at the next sync
