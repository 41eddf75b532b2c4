"""torch 2.x: the device under its own name, its device module and PrivateUse1 hooks.

torch 1.13 has no backend renaming, device modules or PrivateUse1 hooks: there these tests are
skipped with that reason (test_device_runtime checks the 1.13 name)."""

import copy
import pickle

import pytest
import torch

import opweave

from opweave.device_module import TORCH2
pytestmark = pytest.mark.skipif(not TORCH2, reason="needs torch 2.x: torch 1.13 cannot rename "
                                "PrivateUse1 or register a device module and hooks")


def test_device_is_renamed_and_has_a_device_module():
    assert opweave.DEVICE == "opweave"
    assert torch._C._get_privateuse1_backend_name() == "opweave"
    mod = torch.opweave
    assert mod.is_available() and mod.device_count() == 2
    assert torch.device("opweave:1") == opweave.device(1)
    mod.set_device(1)
    try:
        assert mod.current_device() == 1
        assert torch.empty(2, device="opweave").device == torch.device("opweave:1")
        with mod.device(0):
            assert mod.current_device() == 0
        assert mod.current_device() == 1
    finally:
        mod.set_device(0)
    mod.synchronize()


def test_generated_tensor_module_and_storage_methods():
    t = torch.arange(4.0)
    d = t.opweave()
    assert d.is_opweave and not t.is_opweave and d.device == torch.device("opweave:0")
    model = torch.nn.Linear(3, 2).opweave(1)
    assert all(p.device == torch.device("opweave:1") for p in model.parameters())
    s = t.untyped_storage().opweave()
    assert s.device.type == "opweave" and s.nbytes() == t.untyped_storage().nbytes()


def test_torch_manual_seed_seeds_the_device_and_fork_rng_restores_it():
    torch.manual_seed(3)
    a = torch.rand(5, device="opweave")
    torch.manual_seed(3)
    b = torch.rand(5, device="opweave")
    assert torch.equal(a.cpu(), b.cpu())
    state = torch.opweave.get_rng_state()
    assert state.device.type == "cpu" and state.dtype == torch.uint8
    with torch.random.fork_rng(devices=range(torch.opweave.device_count()), device_type="opweave"):
        torch.rand(100, device="opweave")
    assert torch.equal(torch.opweave.get_rng_state(), state)
    torch.opweave.set_rng_state(state)
    c = torch.rand(5, device="opweave")
    torch.opweave.set_rng_state(state)
    assert torch.equal(c.cpu(), torch.rand(5, device="opweave").cpu())


def test_device_generators_are_independent_and_picklable():
    g = torch.Generator(device="opweave")
    assert g.device == torch.device("opweave:0")
    g.manual_seed(7)
    a = torch.rand(6, device="opweave", generator=g)
    g.manual_seed(7)
    assert torch.equal(a.cpu(), torch.rand(6, device="opweave", generator=g).cpu())
    g2 = copy.deepcopy(g)       # pickles the seed and the offset (get_offset / set_offset)
    assert torch.equal(torch.rand(3, device="opweave", generator=g).cpu(),
                       torch.rand(3, device="opweave", generator=g2).cpu())
    assert pickle.loads(pickle.dumps(g)).device == g.device


def test_torch_accelerator_reports_the_device():
    assert torch.accelerator.is_available()
    assert torch.accelerator.device_count() == 2
    assert torch.accelerator.current_accelerator() == torch.device("opweave")
    torch.accelerator.set_device_index(1)
    try:
        assert torch.accelerator.current_device_index() == 1
    finally:
        torch.accelerator.set_device_index(0)
    x = torch.ones(1000, device="opweave") * 2
    torch.accelerator.synchronize()
    assert x.sum().item() == 2000


def test_pinned_memory_and_dataloader_pin_memory():
    t = torch.randn(64)
    p = t.pin_memory()
    assert p.is_pinned() and not t.is_pinned() and torch.equal(p, t)
    d = p.to("opweave", non_blocking=True)
    torch.opweave.synchronize()
    assert torch.equal(d.cpu(), t)
    data = torch.utils.data.TensorDataset(torch.randn(10, 3), torch.arange(10))
    loader = torch.utils.data.DataLoader(data, batch_size=4, pin_memory=True,
                                         pin_memory_device="opweave")
    batches = list(loader)
    assert len(batches) == 3 and all(x.is_pinned() and y.is_pinned() for x, y in batches)


def test_streams_and_timed_events_through_torch_apis():
    s = torch.Stream(device="opweave")
    assert s.device.type == "opweave"
    start, end = torch.Event(device="opweave", enable_timing=True), torch.Event(
        device="opweave", enable_timing=True)
    start.record()
    y = torch.randn(256, 256, device="opweave") @ torch.randn(256, 256, device="opweave")
    end.record()
    end.synchronize()
    assert start.elapsed_time(end) >= 0.0
    assert y.shape == (256, 256)


def test_storage_resize_grows_device_storage():
    t = torch.arange(4.0, device="opweave")
    s = t.untyped_storage()
    s.resize_(64)
    assert s.nbytes() == 64
    assert torch.equal(t.cpu(), torch.arange(4.0))   # the first bytes are kept
