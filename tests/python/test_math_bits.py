"""Conjugate and negative views (`x.conj()`, `x.conj().imag`) of device tensors: copies in
every direction resolve the bit (it once recursed copy_ -> _copy_from -> clone until the stack
overflowed), and ops on such views see their logical values."""

import pytest
import torch

import opweave  # noqa: F401  (registers the device)


@pytest.fixture
def z():
    torch.manual_seed(0)
    return torch.complex(torch.randn(5), torch.randn(5))


def test_conj_view_to_host(dev0, z):
    assert torch.equal(z.to(dev0).conj().cpu(), z.conj())


def test_neg_view_to_host(dev0, z):
    view = z.to(dev0).conj().imag
    assert view.is_neg()
    assert torch.equal(view.cpu(), z.conj().imag)


def test_host_views_to_device(dev0, z):
    assert torch.equal(z.conj().to(dev0).cpu(), z.conj())
    assert torch.equal(z.conj().imag.to(dev0).cpu(), z.conj().imag)


def test_copy_into_a_conj_view(dev0, z):
    d = torch.zeros(5, dtype=torch.complex64, device=dev0)
    d.conj().copy_(z)       # the raw memory receives conj(z)
    assert torch.equal(d.cpu(), z.conj())
    d.conj().imag.copy_(z.imag)   # through a negative view of the imaginary parts
    assert torch.equal(d.cpu().imag, -z.imag)


def test_device_to_device_and_ops_on_views(dev0, z):
    d = z.to(dev0)
    assert torch.equal(d.conj().clone().cpu(), z.conj())
    assert torch.equal((d.conj() * 2).cpu(), z.conj() * 2)
    assert torch.equal(d.conj().imag.clone().cpu(), z.conj().imag)


def test_a_cpu_fallback_reads_views_with_their_bits(dev0, z):
    """The fallback fetches a view's raw bytes to the host: the bits must come along (cov's
    mm(x, x.t().conj()) once ran on unconjugated values, a silently wrong result)."""
    m = torch.complex(torch.randn(3, 4), torch.randn(3, 4))
    d = m.to(dev0)
    assert torch.allclose(torch.mm(d, d.t().conj()).cpu(), torch.mm(m, m.t().conj()))
    assert torch.allclose(torch.cov(d).cpu(), torch.cov(m), atol=1e-6)
    real = torch.randn(8)
    neg = torch._neg_view(real.to(dev0))
    assert neg.is_neg()
    assert torch.allclose(torch.fft.rfft(neg).cpu(), torch.fft.rfft(-real))
