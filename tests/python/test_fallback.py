"""The CPU fallback: autograd through it, statistics, the one-time log line, fp16/bf16
upcast, in-place and out= semantics."""

import pytest
import torch

import opweave


def mlp(x, w1, b1, w2):
    return (torch.relu(x @ w1 + b1) @ w2).sum()


def test_mlp_autograd_through_the_fallback_matches_cpu(dev0, all_on_cpu):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(8, 5, generator=g)
    params = [torch.randn(5, 16, generator=g), torch.randn(16, generator=g),
              torch.randn(16, 3, generator=g)]
    cpu = [p.clone().requires_grad_() for p in params]
    loss = mlp(x, *cpu)
    loss.backward()

    opweave.fallback_stats(reset=True)
    dev = [p.to(dev0).requires_grad_() for p in params]
    dloss = mlp(x.to(dev0), *dev)
    dloss.backward()
    assert dloss.device == dev0
    assert dloss.item() == pytest.approx(loss.item(), rel=1e-5)
    for d, c in zip(dev, cpu):
        assert d.grad.device == dev0
        torch.testing.assert_close(d.grad.cpu(), c.grad)
    stats = opweave.fallback_stats()
    assert {"aten::mm", "aten::relu", "aten::threshold_backward"} <= set(stats)
    assert stats["aten::mm"] >= 3  # forward x2 plus the weight gradients


def test_fallback_stats_count_and_reset(dev0):
    opweave.fallback_stats(reset=True)
    a = torch.ones(4, device=dev0)
    edges = torch.tensor([0.0, 1.0, 2.0], device=dev0)
    for _ in range(3):
        torch.histogram(a, edges)  # no device kernel in the catalogue
    assert opweave.fallback_stats()["aten::histogram.bins_tensor"] == 3
    assert "no PrivateUse1 kernel" in opweave.fallback_reasons()["aten::histogram.bins_tensor"]
    assert opweave.fallback_stats(reset=True)["aten::histogram.bins_tensor"] == 3
    assert opweave.fallback_stats() == {}


def test_counts_stay_exact_with_ops_alternating_on_several_threads(dev0):
    # Each thread keeps its last op's entry: alternating ops and threads must not lose a count.
    import threading
    opweave.fallback_stats(reset=True)
    a = torch.ones(4, device=dev0)
    edges = torch.tensor([0.0, 1.0, 2.0], device=dev0)

    def work():
        for _ in range(20):
            torch.histogram(a, edges)
            torch.cdist(a[None], a[None])

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stats = opweave.fallback_stats(reset=True)
    assert stats["aten::histogram.bins_tensor"] == 60
    assert stats["aten::_cdist_forward"] == 60
    torch.cdist(a[None], a[None])  # a reset op counts from zero and keeps its reason
    assert opweave.fallback_stats() == {"aten::_cdist_forward": 1}
    assert opweave.fallback_reasons() == {"aten::_cdist_forward": "no PrivateUse1 kernel"}


def test_each_op_is_logged_once(run_python):
    r = run_python("""
        import torch, opweave
        a = torch.ones(4, device=opweave.DEVICE)
        for _ in range(5):
            torch.cdist(a[None], a[None])
    """)
    assert r.returncode == 0, r.stderr
    lines = [l for l in r.stderr.splitlines() if "aten::_cdist_forward" in l]
    assert lines == ["[opweave] fallback to CPU: aten::_cdist_forward (no PrivateUse1 kernel)"]


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_low_precision_upcast_when_cpu_lacks_the_dtype(dev0, dtype, all_on_cpu):
    a = torch.randn(4, 4).to(dtype)
    with pytest.raises(RuntimeError, match="not implemented for"):
        torch.trace(a)  # neither torch 1.13's nor 2.6's CPU has a float16 / bfloat16 trace
    r = torch.trace(a.to(dev0))
    assert r.dtype == dtype and r.device == dev0
    torch.testing.assert_close(r.cpu().float(), torch.trace(a.float()).to(dtype).float(),
                               rtol=1e-2, atol=1e-2)


def test_in_place_fallback_keeps_the_tensor(dev0):
    d = torch.arange(6.0).to(dev0)
    ptr = d.data_ptr()
    r = d.floor_divide_(torch.full((6,), 4.0, device=dev0))  # no device kernel
    assert r is d and d.data_ptr() == ptr
    torch.testing.assert_close(d.cpu(), torch.arange(6.0).floor_divide(torch.full((6,), 4.0)))


def test_factory_with_device_argument_falls_back(dev1):
    r = torch.randperm(5, device=dev1)  # no device kernel: runs on CPU, result on dev1
    assert r.device == dev1 and sorted(r.cpu().tolist()) == [0, 1, 2, 3, 4]


def test_cpu_scalar_tensor_is_accepted(dev0):
    d = torch.arange(4.0).to(dev0)
    r = torch.floor_divide(d, torch.tensor(2.0))  # in the CPU fallback
    torch.testing.assert_close(r.cpu(), torch.arange(4.0).floor_divide(torch.tensor(2.0)))
