"""The coverage group "random, equal and element-wise" on the device: the samplers cauchy_,
exponential_, geometric_, log_normal_ and random_(from, to) (randint) on the device generator,
torch.equal (a host bool the kernel produces before returning), floor_divide, frexp and the
incomplete gamma functions igamma / igammac, against CPU. They run natively (no fallback);
parameters a kernel declines (where torch 1.13 and 2.x disagree, or bounds beyond a dtype's
exact integers) run on the CPU and give its answer or its error."""

from __future__ import annotations

import math

import pytest
import torch

import opweave
from op_compare import D, gen, same

INF, NAN = math.inf, math.nan
# What only the sim's kernels do (decline a parameter, compute in double, take floating dtypes
# only); the reference vendor runs ATen's CPU kernels, which take everything.
sim_only = pytest.mark.skipif(opweave.report()["vendor"] != "sim",
                              reason="checks the sim's own kernels")


def fallbacks() -> dict:
    return {k: v for k, v in opweave.fallback_stats().items() if v}


# ---------------------------------------------------------------- samplers

SAMPLERS = {
    "cauchy_": lambda t: t.cauchy_(1.0, 2.0),
    "exponential_": lambda t: t.exponential_(1.5),
    "geometric_": lambda t: t.geometric_(0.3),
    "log_normal_": lambda t: t.log_normal_(0.5, 0.25),
    "random_from_to": lambda t: t.random_(-3, 7),
    "random_from": lambda t: t.random_(5, None),
}


@pytest.mark.parametrize("name", sorted(SAMPLERS))
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64])
def test_samplers_are_reproducible_by_seed_and_run_on_the_device(name, dtype):
    opweave.fallback_stats(reset=True)
    opweave.manual_seed(99)
    first = SAMPLERS[name](torch.empty(40, 50, device=D, dtype=dtype)).cpu()
    second = SAMPLERS[name](torch.empty(40, 50, device=D, dtype=dtype)).cpu()
    opweave.manual_seed(99)
    again = SAMPLERS[name](torch.empty(40, 50, device=D, dtype=dtype)).cpu()
    assert fallbacks() == {}
    assert first.dtype == dtype and torch.equal(first, again) and not torch.equal(first, second)


def test_sampler_statistics_and_ranges():
    opweave.manual_seed(5)
    n = 40000
    c = torch.empty(n, device=D, dtype=torch.float64).cauchy_(1.0, 2.0).cpu()
    # median 1 and quartiles at median -+ sigma
    q = torch.quantile(c, torch.tensor([0.25, 0.5, 0.75], dtype=torch.float64))
    assert abs(q[1] - 1.0) < 0.06 and abs(q[0] + 1.0) < 0.1 and abs(q[2] - 3.0) < 0.1
    e = torch.empty(n, device=D).exponential_(2.0).cpu()
    assert e.min() >= 0 and abs(e.mean() - 0.5) < 0.01 and abs(e.std() - 0.5) < 0.015
    g = torch.empty(n, device=D).geometric_(0.25).cpu()
    assert g.min() == 1 and torch.equal(g, g.round())
    assert abs(g.mean() - 4.0) < 0.08 and abs((g == 1).double().mean() - 0.25) < 0.01
    ln = torch.empty(n, device=D, dtype=torch.float64).log_normal_(0.5, 0.25).cpu()
    assert ln.min() > 0 and abs(ln.log().mean() - 0.5) < 0.01 and abs(ln.log().std() - 0.25) < 0.01
    r = torch.empty(n, device=D).random_(-3, 7).cpu()
    assert torch.equal(r.unique(), torch.arange(-3.0, 7.0))   # every integer of [-3, 7) drawn
    assert abs(r.mean() - 1.5) < 0.05


@pytest.mark.parametrize("dtype,lo,hi", [
    (torch.int8, -128, 127), (torch.uint8, 0, 255), (torch.int16, -5, 5), (torch.int32, 0, 1),
    (torch.int64, -2**62, 2**62), (torch.float16, -2048, 2048), (torch.bfloat16, -256, 256)])
def test_random_from_to_covers_the_range_of_every_dtype(dtype, lo, hi):
    opweave.fallback_stats(reset=True)
    opweave.manual_seed(3)
    r = torch.empty(5000, device=D, dtype=dtype).random_(lo, hi + 1 if hi < 2**62 else hi).cpu()
    assert fallbacks() == {} and r.dtype == dtype
    assert int(r.min()) >= lo and int(r.max()) <= hi
    if hi - lo < 600:
        assert int(r.min()) == lo and int(r.max()) == hi   # both ends drawn


def test_random_without_to_reaches_the_dtype_maximum_and_randint_runs_natively():
    opweave.fallback_stats(reset=True)
    opweave.manual_seed(4)
    r = torch.empty(4000, device=D, dtype=torch.int8).random_(100, None).cpu()
    assert int(r.min()) == 100 and int(r.max()) == 127
    f = torch.empty(4000, device=D, dtype=torch.bfloat16).random_(0, None).cpu()
    assert f.min() >= 0 and f.max() <= 256 and torch.equal(f, f.round())
    full = torch.empty(4000, device=D, dtype=torch.int64).random_(-2**63, None).cpu()
    assert full.min() < -2**62 and full.max() > 2**62   # the whole 64-bit range
    ri = torch.randint(2, 9, (3, 400), device=D)
    rl = torch.randint_like(torch.empty(3, 400, device=D), 4)
    assert fallbacks() == {}
    assert ri.dtype == torch.int64 and torch.equal(ri.cpu().unique(), torch.arange(2, 9))
    assert torch.equal(rl.cpu().unique(), torch.arange(4.0))


def test_samplers_on_empty_zero_dim_and_non_contiguous_tensors():
    opweave.fallback_stats(reset=True)
    empty = torch.empty(0, 3, device=D).exponential_()
    scalar = torch.empty((), device=D).geometric_(0.5)
    base = torch.zeros(6, 8, device=D)
    view = base.t()[::2]            # non-contiguous: every other row of the transpose
    view.random_(1, 3)
    assert fallbacks() == {}
    assert empty.shape == (0, 3) and scalar.shape == () and scalar.item() >= 1
    b = base.cpu()
    assert set(b[:, ::2].unique().tolist()) <= {1.0, 2.0} and b[:, 1::2].eq(0).all()


@sim_only
def test_declined_sampler_parameters_run_on_the_cpu():
    # torch 2.x raises for sigma <= 0 and lambd <= 0, torch 1.13 samples with them: the sim
    # declines, the CPU answers as the installed torch does.
    t = torch.empty(4, device=D)
    for call in (lambda: t.cauchy_(0.0, 0.0), lambda: t.exponential_(0.0)):
        opweave.fallback_stats(reset=True)
        try:
            call()                      # torch 1.13: values
        except RuntimeError as e:       # torch 2.x: its check
            assert "expects" in str(e)
        assert list(fallbacks()) and all(k in ("aten::cauchy_", "aten::exponential_")
                                         for k in fallbacks())
    # bounds beyond float16's exact integers: ATen warns and moves them; the CPU does it
    opweave.fallback_stats(reset=True)
    with pytest.warns(UserWarning):
        h = torch.empty(100, device=D, dtype=torch.float16).random_(0, 5000).cpu()
    assert "aten::random_.from" in fallbacks() and h.max() < 5000 and h.min() >= 0
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch.empty(3, device=D, dtype=torch.int8).random_(-200, 0)


def test_samplers_reject_bad_arguments_with_python_errors():
    with pytest.raises(RuntimeError, match="geometric_ expects p"):
        torch.empty(3, device=D).geometric_(1.0)
    with pytest.raises(RuntimeError, match="std"):
        torch.empty(3, device=D).log_normal_(0.0, 0.0)
    with pytest.raises(RuntimeError, match="from"):
        torch.empty(3, device=D).random_(5, 5)


# ---------------------------------------------------------------- equal

def _equal_cases():
    g = gen(1)
    x = torch.randn(5, 7, generator=g)
    nan = x.clone()
    nan[2, 3] = NAN
    return {
        "same": (x, x.clone()),
        "one_differs": (x, torch.where(torch.arange(35).view(5, 7) == 34, x + 1, x)),
        "non_contiguous": (x.t().contiguous().t(), x),
        "transposed_values": (torch.randn(4, 4, generator=g).t(), torch.randn(4, 4, generator=g)),
        "sizes_differ": (torch.zeros(2), torch.zeros(3)),
        "no_broadcast": (torch.zeros(1), torch.zeros(2)),
        "zero_dim_vs_one": (torch.tensor(1.0), torch.tensor([1.0])),
        "zero_dim": (torch.tensor(2.5), torch.tensor(2.5)),
        "empty": (torch.zeros(0, 3), torch.zeros(0, 3)),
        "nan": (nan, nan.clone()),
        "minus_zero": (torch.tensor([0.0]), torch.tensor([-0.0])),
        "int_vs_float_equal": (torch.tensor([1, 2]), torch.tensor([1.0, 2.0])),
        "int_vs_float_fraction": (torch.tensor([1]), torch.tensor([1.5])),
        "int64_rounds_to_float32": (torch.tensor([2**53 + 1]), torch.tensor([2.0**53])),
        "int64_exact": (torch.tensor([2**53 + 1]), torch.tensor([2**53])),
        "uint8_vs_int8": (torch.tensor([255], dtype=torch.uint8),
                          torch.tensor([-1], dtype=torch.int8)),
        "half_vs_float": (torch.tensor([0.1]), torch.tensor([0.1], dtype=torch.float16)),
        "bool": (torch.tensor([True, False]), torch.tensor([True, False])),
        "bool_vs_int": (torch.tensor([True]), torch.tensor([2])),
        "bfloat16": (x.bfloat16(), x.bfloat16()),
    }


@pytest.mark.parametrize("name", sorted(_equal_cases()))
def test_equal_matches_the_cpu_without_fallback(name):
    a, b = _equal_cases()[name]
    opweave.fallback_stats(reset=True)
    got = torch.equal(a.to(D), b.to(D))
    assert fallbacks() == {}
    assert isinstance(got, bool) and got == torch.equal(a, b)


def test_equal_waits_for_the_kernels_writing_its_inputs():
    # The inputs are still being computed on the stream when equal is called: the answer must
    # be complete when it returns, on both sides of the comparison.
    a = torch.zeros(1 << 20, device=D)
    for _ in range(3):
        b = ((a + 1) * 3 - 3) / 3
        c = b.clone()
        c[-1] = 5.0
        assert torch.equal(b, a) and not torch.equal(c, a) and not torch.equal(a, c)
        a = b


def test_equal_unblocks_cov_and_corrcoef():
    x = torch.randn(3, 20, generator=gen(2))
    opweave.fallback_stats(reset=True)
    cov, corr = torch.cov(x.to(D)), torch.corrcoef(x.to(D))
    assert "aten::equal" not in fallbacks()
    same(torch.cov(x), cov, 1e-5)
    same(torch.corrcoef(x), corr, 1e-5)


# ---------------------------------------------------------------- floor_divide

def test_floor_divide_matches_the_cpu():
    a = torch.tensor([-7.0, 7.0, 5.3, -0.0, 1.0, -1.0, 0.0, INF, -INF, NAN, 1e30, -3.0])
    b = torch.tensor([2.0, -2.0, 0.1, 3.0, 0.0, 0.0, 0.0, 2.0, 3.0, 1.0, 1e-30, INF])
    x, y = torch.randn(6, 1, generator=gen(3)) * 10, torch.randn(1, 5, generator=gen(4))
    xt = (torch.randn(5, 6, generator=gen(5)) * 10).t()
    opweave.fallback_stats(reset=True)
    cases = [(a, b), (x, y), (xt, y), (x.half(), y.half()), (x.bfloat16(), y.double()),
             (x.double(), y.double()), (torch.randn(0, 5), y), (torch.tensor(7.5), torch.tensor(-2.0))]
    for p, q in cases:
        got = torch.floor_divide(p.to(D), q.to(D))
        want = torch.floor_divide(p, q)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert torch.equal(got.cpu().isnan(), want.isnan())
        assert torch.allclose(got.cpu().double(), want.double(), rtol=0, atol=0, equal_nan=True), (p, q)
    inplace = xt.clone().to(D)
    inplace.floor_divide_(y.to(D))   # non-contiguous self, written in place
    assert torch.equal(inplace.cpu(), xt.floor_divide(y))
    assert fallbacks() == {}


def test_floor_divide_of_integers_matches_the_cpu_and_rejects_a_zero_divisor():
    a = torch.tensor([-7, 7, 9, -9, 0, 5, -128, 127], dtype=torch.int8)
    b = torch.tensor([2, -2, 4, -4, 3, 7, -1, -1], dtype=torch.int8)
    # (not int64's lowest // -1: ATen's own CPU kernel traps on it)
    big = torch.tensor([-2**63 + 1, 2**62 + 1, -5]), torch.tensor([-1, -3, 2])
    opweave.fallback_stats(reset=True)
    for p, q in [(a, b), big, (a.long(), b), (a.to(torch.uint8), b.abs().to(torch.uint8)),
                 (a.short().view(2, 4).t(), b.short().view(2, 4).t()), (a, b.float())]:
        got = torch.floor_divide(p.to(D), q.to(D)).cpu()
        want = torch.floor_divide(p, q)
        assert got.dtype == want.dtype and torch.equal(got, want), (p, q, got, want)
    assert fallbacks() == {}
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        torch.floor_divide(a.to(D), torch.zeros(8, dtype=torch.int8, device=D))
        opweave.synchronize()   # found in the data, on the stream


# ---------------------------------------------------------------- frexp

@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
def test_frexp_matches_the_cpu(dtype):
    edge = torch.tensor([0.0, -0.0, 1.0, -1.0, 3.5, 0.75, INF, -INF, NAN, 1e-40, -2.5e-39, 6e4],
                        dtype=torch.float64).to(dtype)
    x = (torch.randn(6, 9, generator=gen(6), dtype=torch.float64) * 100).to(dtype).t()
    opweave.fallback_stats(reset=True)
    for t in (edge, x, torch.empty(0, dtype=dtype), torch.tensor(12.0, dtype=dtype)):
        m, e = torch.frexp(t.to(D))
        wm, we = torch.frexp(t)
        assert m.dtype == dtype and e.dtype == torch.int32
        assert torch.equal(e.cpu(), we)
        assert torch.allclose(m.cpu().double(), wm.double(), rtol=0, atol=0, equal_nan=True)
        assert torch.equal(m.cpu().signbit(), wm.signbit())   # -0 keeps its sign
    assert fallbacks() == {}


def test_frexp_out_with_a_wrong_exponent_dtype_raises_as_on_cpu():
    x = torch.tensor([1.0, 3.0])
    m, e = torch.empty(2, device=D), torch.empty(2, device=D, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="exponent"):
        torch.frexp(x.to(D), out=(m, e))


# ---------------------------------------------------------------- igamma / igammac

@pytest.mark.parametrize("fn", [torch.igamma, torch.igammac])
def test_incomplete_gamma_matches_the_cpu(fn):
    g = gen(7)
    a = torch.cat([torch.rand(200, generator=g, dtype=torch.float64) * 30,
                   torch.rand(50, generator=g, dtype=torch.float64) * 1e-2,
                   torch.rand(50, generator=g, dtype=torch.float64) * 300])
    x = torch.cat([torch.rand(200, generator=g, dtype=torch.float64) * 40,
                   torch.rand(50, generator=g, dtype=torch.float64) * 2,
                   torch.rand(50, generator=g, dtype=torch.float64) * 600])
    edge_a = torch.tensor([0.0, 0.0, 1.0, -1.0, 1.0, INF, INF, 2.0, NAN, 3.0, 0.5, 25.0])
    edge_x = torch.tensor([1.0, 0.0, 0.0, 1.0, -1.0, 1.0, INF, INF, 1.0, NAN, 0.3, 25.5])
    opweave.fallback_stats(reset=True)
    got = fn(a.to(D), x.to(D)).cpu()
    # ATen's float64 asymptotic series (a ~ x, a > 20) is itself off by up to ~2e-9 relative:
    # igamma(22.745947497565574, 16.226046886164056) is 0.0730681416374834 (mpmath, and the
    # sim), ATen 0.0730681415059662
    assert torch.allclose(got, fn(a, x), rtol=1e-8, atol=1e-12)
    got32 = fn(a.float().to(D), x.float().to(D)).cpu()
    want32 = fn(a.float(), x.float())
    assert torch.allclose(got32, want32, rtol=1e-4, atol=1e-6)
    if opweave.report()["vendor"] == "sim":   # it computes in double and rounds once
        assert torch.allclose(got32.double(), fn(a.float().double(), x.float().double()),
                              rtol=1e-6, atol=1e-7)
    e = fn(edge_a.to(D), edge_x.to(D)).cpu()
    assert torch.allclose(e, fn(edge_a, edge_x), rtol=1e-6, atol=1e-7, equal_nan=True), e
    col, row = torch.rand(4, 1, generator=g) * 5, torch.rand(1, 3, generator=g) * 5
    b = fn(col.to(D).half(), row.to(D).half()).cpu()   # broadcast, float16
    assert b.dtype == torch.float16
    assert torch.allclose(b.float(), fn(col.half().float(), row.half().float()), atol=2e-3)
    assert fallbacks() == {}
