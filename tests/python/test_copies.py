"""Copies host<->device and device<->device: contiguous, strided, dtype-converting,
broadcasting, overlapping, cross-device, non-blocking; .item() and resize_."""

import pytest
import torch

import opweave

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
          torch.int16, torch.int8, torch.uint8, torch.bool, torch.complex64]


def sample(*shape, dtype=torch.float32):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(*shape, generator=g) * 10
    return x.to(dtype) if not dtype.is_complex else torch.complex(x, -x).to(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_roundtrip_contiguous(dev0, dtype):
    x = sample(4, 5, dtype=dtype)
    d = x.to(dev0)
    assert d.device == dev0 and d.dtype == dtype
    assert torch.equal(d.cpu(), x)


@pytest.mark.parametrize("view", [
    lambda t: t[:, 1::2], lambda t: t.t(), lambda t: t[2:4], lambda t: t[::2, ::3],
    lambda t: t.unsqueeze(1).expand(6, 3, 7), lambda t: t.permute(1, 0)[1:5]],
    ids=["step", "transpose", "narrow", "2d-step", "expand", "permute-slice"])
def test_strided_device_to_host(dev0, view):
    x = sample(6, 7)
    assert torch.equal(view(x.to(dev0)).cpu(), view(x))


def test_strided_host_to_device_leaves_gaps_untouched(dev0):
    d = torch.zeros(5, 6, device=dev0)
    d[:, 1::2] = torch.ones(5, 3)
    expected = torch.zeros(5, 6)
    expected[:, 1::2] = 1
    assert torch.equal(d.cpu(), expected)
    d.t()[2].copy_(torch.arange(5.0))  # a column, through a transposed view
    expected.t()[2] = torch.arange(5.0)
    assert torch.equal(d.cpu(), expected)


def test_strided_device_to_device(dev0):
    x = sample(5, 6)
    z = torch.zeros(6, 5, device=dev0)
    z.t().copy_(x.to(dev0))
    assert torch.equal(z.t().cpu(), x)
    assert torch.equal(x.to(dev0).t().contiguous().cpu(), x.t().contiguous())


@pytest.mark.parametrize("src,dst", [(torch.float32, torch.int32), (torch.float32, torch.float16),
                                     (torch.int64, torch.float64), (torch.bfloat16, torch.float32),
                                     (torch.float32, torch.bool)], ids=str)
def test_dtype_converting_copies(dev0, src, dst):
    x = sample(3, 4, dtype=src)
    want = x.to(dst)
    assert torch.equal(x.to(dev0, dtype=dst).cpu(), want)        # host -> device
    assert torch.equal(x.to(dev0).to("cpu", dtype=dst), want)    # device -> host
    assert torch.equal(x.to(dev0).to(dst).cpu(), want)           # device -> device
    assert torch.equal(x.to(dev0).t().to(dst).cpu(), want.t())   # strided, converting


def test_cross_device_copies(dev0, dev1):
    x = sample(4, 6)
    d1 = x.to(dev0).to(dev1)
    assert d1.device == dev1 and torch.equal(d1.cpu(), x)
    back = d1.to(dev0)
    assert back.device == dev0 and torch.equal(back.cpu(), x)
    strided = x.to(dev1)[:, ::2].to(dev0)
    assert torch.equal(strided.cpu(), x[:, ::2])
    converted = x.to(dev0).to(dev1, dtype=torch.float64)
    assert converted.dtype == torch.float64 and torch.equal(converted.cpu(), x.double())
    target = torch.zeros(6, 4, device=dev1)
    target.t().copy_(x.to(dev0))
    assert torch.equal(target.t().cpu(), x)


def test_broadcasting_copy(dev0):
    d = torch.zeros(4, 3, device=dev0)
    d.copy_(torch.tensor([1.0, 2.0, 3.0]))
    assert torch.equal(d.cpu(), torch.tensor([1.0, 2.0, 3.0]).expand(4, 3))
    d.copy_(torch.tensor([7.0]).to(dev0))
    assert torch.equal(d.cpu(), torch.full((4, 3), 7.0))


def test_overlapping_copy_reads_before_writing(dev0):
    x = torch.arange(10.0)
    d = x.to(dev0)
    d[1:].copy_(d[:-1])
    x[1:] = x[:-1].clone()
    assert torch.equal(d.cpu(), x)


def test_non_blocking_copy_is_complete_after_synchronize(dev0):
    x = sample(1000)
    d = x.to(dev0, non_blocking=True)
    out = torch.empty(1000)
    out.copy_(d, non_blocking=True)
    opweave.synchronize()
    assert torch.equal(out, x)


@pytest.mark.parametrize("value,dtype", [(3.5, torch.float32), (-7, torch.int64), (True, torch.bool),
                                         (0.25, torch.float16), (2 + 1j, torch.complex64)], ids=str)
def test_item(dev0, value, dtype):
    assert torch.tensor([value], dtype=dtype).to(dev0).item() == value


def test_item_of_a_view(dev0):
    x = sample(3, 4)
    assert x.to(dev0)[2, 1].item() == x[2, 1].item()


def test_item_needs_one_element(dev0):
    with pytest.raises(RuntimeError, match="_local_scalar_dense"):
        torch.ops.aten._local_scalar_dense(torch.ones(2, device=dev0))


def test_resize_grows_and_keeps_data(dev0):
    d = torch.arange(4.0).to(dev0)
    d.resize_(2, 5)
    assert d.shape == (2, 5)
    assert d.cpu().flatten()[:4].tolist() == [0.0, 1.0, 2.0, 3.0]
    d.resize_(3)
    assert d.cpu().tolist() == [0.0, 1.0, 2.0]
