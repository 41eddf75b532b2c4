"""torch 2.x: torch.save / torch.load of device tensors and of a model's state_dict.

torch.load restores a device storage through the device module (torch.<name>.device and the
renamed backend's location tag), which torch 1.13 cannot have: skipped there with the reason."""

import io

import pytest
import torch

import opweave

from opweave.device_module import TORCH2
pytestmark = pytest.mark.skipif(not TORCH2, reason="needs torch 2.x: torch 1.13 has no device "
                                "module to restore a privateuseone storage through")


def roundtrip(obj, **load_kwargs):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **load_kwargs)


def test_device_tensors_come_back_on_their_device():
    x = torch.randn(3, 4)
    obj = {"a": x.to("opweave:0"), "b": x.to("opweave:1"), "view": x.to("opweave")[1:, ::2]}
    back = roundtrip(obj)
    assert back["a"].device == torch.device("opweave:0")
    assert back["b"].device == torch.device("opweave:1")
    assert torch.equal(back["a"].cpu(), x) and torch.equal(back["b"].cpu(), x)
    assert torch.equal(back["view"].cpu(), x[1:, ::2])


def test_map_location_moves_between_cpu_and_device():
    x = torch.randn(5)
    on_cpu = roundtrip(x.to("opweave"), map_location="cpu")
    assert on_cpu.device.type == "cpu" and torch.equal(on_cpu, x)
    on_dev = roundtrip(x, map_location="opweave:1")
    assert on_dev.device == torch.device("opweave:1") and torch.equal(on_dev.cpu(), x)


def test_model_state_dict_round_trip_restores_the_model():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    model.to("opweave")
    state = roundtrip(model.state_dict())
    assert all(t.device.type == "opweave" for t in state.values())
    fresh = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    fresh.load_state_dict(roundtrip(model.state_dict(), map_location="cpu"))
    x = torch.randn(3, 4)
    torch.testing.assert_close(fresh(x), model(x.to("opweave")).cpu(), rtol=1e-6, atol=1e-6)
