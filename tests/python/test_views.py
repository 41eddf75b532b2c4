"""Views share device storage: view/reshape/as_strided/unfold/set_, in-place ops through views,
out= arguments resized in place."""

import torch

import opweave


def test_views_share_storage(dev0):
    d = torch.zeros(4, 6, device=dev0)
    views = [d.view(24), d.reshape(2, 12), d.as_strided((3, 2), (6, 1), 1), d.t(), d[1:3],
             d.unfold(1, 2, 2), d.permute(1, 0), d.narrow(0, 1, 2)]
    for v in views:
        assert v.device == dev0
        assert v.storage().data_ptr() == d.storage().data_ptr()
    d.view(24)[5] = 9.0
    assert d.cpu()[0, 5].item() == 9.0
    assert d.as_strided((3, 2), (6, 1), 4).cpu()[0, 1].item() == 9.0
    assert d.unfold(1, 2, 2).cpu()[0, 2, 1].item() == 9.0


def test_in_place_op_on_a_view_updates_the_base(dev0):
    x = torch.arange(24.0).reshape(4, 6)
    d = x.to(dev0)
    d[1:3, ::2].mul_(10)
    x[1:3, ::2].mul_(10)
    assert torch.equal(d.cpu(), x)
    d.t()[0].add_(1)
    x.t()[0].add_(1)
    assert torch.equal(d.cpu(), x)


def test_out_argument_is_resized_in_place(dev0, all_on_cpu):
    a = torch.arange(6.0).to(dev0)
    out = torch.empty(0, device=dev0)
    ident = id(out)
    r = torch.add(a, 1.0, out=out)
    assert r is out and id(out) == ident
    assert out.device == dev0 and out.shape == (6,)
    assert torch.equal(out.cpu(), torch.arange(6.0) + 1)


def test_set_shares_storage(dev0, dev1):
    src = torch.arange(6.0).to(dev0)
    t = torch.empty(0, device=dev0)
    t.set_(src)
    assert t.storage().data_ptr() == src.storage().data_ptr() and t.shape == (6,)
    u = torch.empty(0, device=dev0)
    u.set_(src, 2, (2, 2), (1, 2))  # storage of src, offset 2, strided
    assert torch.equal(u.cpu(), torch.tensor([[2.0, 4.0], [3.0, 5.0]]))
    v = torch.empty(3, device=dev1)
    v.set_()
    assert v.numel() == 0 and v.device == dev1


def test_complex_views(dev0):
    x = torch.randn(3, 2)
    c = torch.view_as_complex(x.to(dev0))
    assert c.dtype == torch.complex64 and torch.equal(torch.view_as_real(c).cpu(), x)
