"""torch 2.x: autocast on the device (CUDA's policy lists, registered for AutocastPrivateUse1)
and GradScaler. torch 1.13 has no autocast for PrivateUse1: skipped there with that reason."""

import pytest
import torch

import opweave
from opweave.demo import gpt

from opweave.device_module import TORCH2
pytestmark = pytest.mark.skipif(not TORCH2, reason="needs torch 2.x: torch 1.13 has no "
                                "autocast for PrivateUse1 devices")


def test_autocast_policy_lower_precision_matmul_float32_softmax():
    a = torch.randn(8, 8, device="opweave")
    with torch.autocast(device_type="opweave", dtype=torch.bfloat16):
        assert torch.opweave.get_amp_supported_dtype() == [torch.float16, torch.bfloat16]
        mm = a @ a
        lin = torch.nn.functional.linear(a, a)
        sm = torch.softmax(mm, dim=-1)          # fp32 list: computed in float32
        ln = torch.nn.functional.layer_norm(mm, (8,))
        s = a + a                               # not listed: falls through unchanged
    assert mm.dtype == lin.dtype == torch.bfloat16
    assert sm.dtype == ln.dtype == torch.float32 and s.dtype == torch.float32
    with torch.autocast(device_type="opweave", dtype=torch.float16):
        assert (a @ a).dtype == torch.float16
    assert (a @ a).dtype == torch.float32        # off again outside the region


def test_tiny_gpt_trains_under_bf16_autocast_like_cpu_autocast():
    dev, cpu, fallbacks = gpt.compare(steps=8, autocast=torch.bfloat16)
    assert fallbacks == {}
    # bfloat16 matmuls on both sides; CPU autocast casts a slightly different op list
    worst = max(abs(a - b) / abs(b) for a, b in zip(dev, cpu))
    assert worst < 2e-2, (dev, cpu)
    assert dev[-1] < dev[0]


def test_grad_scaler_float16_training_step():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    model.to("opweave")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("opweave", init_scale=2.0 ** 10)
    x, y = torch.randn(32, 16, device="opweave"), torch.randint(0, 4, (32,), device="opweave")
    losses = []
    for _ in range(5):
        opt.zero_grad()
        with torch.autocast(device_type="opweave", dtype=torch.float16):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        losses.append(loss.item())
    assert scaler.get_scale() == 2.0 ** 10        # no inf/nan step: the scale is unchanged
    assert losses[-1] < losses[0]
    assert all(p.dtype == torch.float32 for p in model.parameters())
