"""Advanced indexing on the device (aten::index.Tensor -> diopiIndex, index_put_ ->
diopiIndexPutInp, index_put -> diopiIndexPut): every form Python indexing produces, against
CPU, with no CPU fallback; gradients through index (its backward is an accumulating put); and
bad indices as Python errors.
"""

from __future__ import annotations

import pytest
import torch

import opweave

D = opweave.device(0)

g = torch.Generator().manual_seed(7)
X = torch.randn(5, 6, 4, generator=g)
XT = torch.randn(4, 6, 5, generator=g).permute(2, 1, 0)   # non-contiguous, same shape as X
MASK = torch.rand(5, 6, generator=g) > 0.5
I0 = torch.tensor([4, 0, 0, 2])
I1 = torch.tensor([[1], [4], [-1]])

# name -> function of (tensor, device) that indexes; the index tensors live on `device`
READS = {
    "int_dim0": lambda x, d: x[I0.to(d)],
    "int_dim1": lambda x, d: x[:, I0.to(d)],
    "broadcast_pair": lambda x, d: x[I1.to(d), I0.to(d)],
    "separated": lambda x, d: x[I0.to(d), :, torch.tensor([3, 1, 0, 0]).to(d)],
    "negative": lambda x, d: x[torch.tensor([-1, -5]).to(d)],
    "mask": lambda x, d: x[MASK.to(d)],
    "mask_after_slice": lambda x, d: x[:, MASK[0].to(d)],
    "mask_and_int": lambda x, d: x[MASK[:, 0].to(d), 2],
    "empty": lambda x, d: x[torch.tensor([], dtype=torch.long).to(d)],
    "cpu_index": lambda x, d: x[I0],                 # CPU indices on a device tensor, as CUDA
    "list_index": lambda x, d: x[[0, 3, 3]],
}


@pytest.mark.parametrize("name", sorted(READS))
@pytest.mark.parametrize("layout", ["contiguous", "permuted"])
def test_index_matches_cpu(name, layout):
    x = X if layout == "contiguous" else XT
    fn = READS[name]
    expected = fn(x, "cpu")
    opweave.fallback_stats(reset=True)
    got = fn(x.to(D), D)
    assert got.device == D
    assert opweave.fallback_stats() == {}
    assert got.shape == expected.shape
    assert torch.equal(got.cpu(), expected)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.int32, torch.bool])
def test_index_keeps_the_dtype(dtype):
    x = (X * 3).to(dtype)
    idx = torch.tensor([1, 1, 4])
    got = x.to(D)[idx.to(D), 1:3]
    assert got.dtype == dtype
    assert torch.equal(got.cpu(), x[idx, 1:3])


WRITES = {
    "put_int": lambda x, d: x.__setitem__(I0[[0, 1, 3]].to(d), torch.ones(3, 6, 4).to(d)),
    "put_scalar_mask": lambda x, d: x.__setitem__(MASK.to(d), 2.5),
    "put_broadcast_row": lambda x, d: x.__setitem__((slice(None), I0[[0, 1]].to(d)),
                                                    torch.arange(4.0).to(d)),
    "put_pair": lambda x, d: x.__setitem__((I1.to(d), I0[[0, 1, 3]].to(d)), -1.0),
    "index_put_accumulate": lambda x, d: x.index_put_((I0.to(d),), torch.ones(4, 6, 4).to(d),
                                                      accumulate=True),
}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_index_put_matches_cpu(name):
    expected = X.clone()
    WRITES[name](expected, "cpu")
    got = X.to(D)
    opweave.fallback_stats(reset=True)
    WRITES[name](got, D)
    assert opweave.fallback_stats() == {}
    assert torch.equal(got.cpu(), expected)


def test_functional_index_put_leaves_its_input():
    x = X.to(D)
    y = x.index_put((I0.to(D),), torch.zeros(()).to(D), accumulate=False)
    assert torch.equal(x.cpu(), X)
    assert torch.equal(y.cpu(), X.index_put((I0,), torch.zeros(())))


def test_index_gradient_accumulates_repeated_positions():
    w_cpu = X.clone().requires_grad_()
    w_dev = X.to(D).requires_grad_()
    scale = torch.arange(24.0).reshape(6, 4)
    (w_cpu[I0] * scale).sum().backward()
    scale_dev = scale.to(D)
    opweave.fallback_stats(reset=True)
    (w_dev[I0.to(D)] * scale_dev).sum().backward()
    assert opweave.fallback_stats() == {}
    assert torch.equal(w_dev.grad.cpu(), w_cpu.grad)


def test_bad_indices_raise_python_errors():
    x = X.to(D)
    with pytest.raises((IndexError, RuntimeError), match="out of bounds"):
        x[torch.tensor([5]).to(D)]
    with pytest.raises((IndexError, RuntimeError), match="mask"):
        x[torch.ones(4, dtype=torch.bool).to(D)]
    with pytest.raises((IndexError, RuntimeError), match="too many indices"):
        x[torch.tensor([0]).to(D), torch.tensor([0]).to(D), torch.tensor([0]).to(D),
          torch.tensor([0]).to(D)]
    with pytest.raises(RuntimeError, match="shape mismatch"):
        x[I0.to(D)] = torch.ones(3, 6, 4).to(D)
    # the device is still usable afterwards
    assert torch.equal(x[I0.to(D)].cpu(), X[I0])
