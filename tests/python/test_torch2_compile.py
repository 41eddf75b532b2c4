"""torch 2.x: torch.compile(model, backend="opweave_sim") trains through dynamo with OpWeave's
graph backend, and the device's guards do not recompile every step. torch 1.13 has no dynamo
(opweave.compile captures graphs itself there): skipped with that reason."""

import pytest
import torch

import opweave

from opweave.device_module import TORCH2
pytestmark = pytest.mark.skipif(not TORCH2, reason="needs torch 2.x: torch.compile / dynamo")


def test_compiled_mlp_trains_like_eager_without_recompiling():
    from opweave.demo import torch2
    compiled, eager, compilations = torch2.compiled_vs_eager(6)
    assert compilations == 1, f"recompiled: {compilations} compilations"
    torch.testing.assert_close(compiled, eager, rtol=1e-5, atol=1e-6)
    assert compiled[-1] < compiled[0]


def test_the_entry_point_backend_name_is_registered():
    from opweave.dicp import dynamo
    assert dynamo.REGISTERED
    assert "opweave_sim" in torch._dynamo.list_backends()


def test_a_model_that_makes_tensors_on_its_inputs_device_compiles():
    # The tiny GPT builds its positions and causal mask with device=x.device: Dynamo's graph
    # records opweave:0 there, which capture (CPU stand-ins) must read as the inputs' device
    import opweave.dicp.dynamo  # noqa: F401  (registers the backend without the entry point)
    from opweave.demo import gpt
    dev = opweave.device(0)
    models = [gpt.make_model(0, vocab=64, d=32, layers=2, heads=2, seq=16).to(dev)
              for _ in range(2)]
    x, y = (t.to(dev) for t in gpt.make_data(8, 16, 64, seed=0))
    compiled = torch.compile(models[0], backend="opweave_sim")
    for _ in range(2):
        for m in models:
            m.zero_grad(set_to_none=True)
        loss, ref = compiled(x, y), models[1](x, y)
        loss.backward()
        ref.backward()
        torch.testing.assert_close(loss.detach().cpu(), ref.detach().cpu(), atol=1e-6, rtol=1e-6)
        for a, b in zip(*(m.parameters() for m in models)):
            torch.testing.assert_close(a.grad.cpu(), b.grad.cpu(), atol=1e-6, rtol=1e-6)
