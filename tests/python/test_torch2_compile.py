"""torch 2.x: torch.compile(model, backend="opweave_sim") trains through dynamo with OpWeave's
graph backend, and the device's guards do not recompile every step. torch 1.13 has no dynamo
(opweave.compile captures graphs itself there): skipped with that reason."""

import copy

import pytest
import torch

import opweave

TORCH2 = int(torch.__version__.split(".")[0]) >= 2
pytestmark = pytest.mark.skipif(not TORCH2, reason="needs torch 2.x: torch.compile / dynamo")


def test_compiled_mlp_trains_like_eager_without_recompiling():
    import torch._dynamo
    from opweave.dicp import dynamo  # noqa: F401  (registers the opweave_* backends)

    torch._dynamo.reset()
    calls = []

    def counting(gm, example_inputs):
        calls.append(len(gm.graph.nodes))
        return dynamo.sim_backend(gm, example_inputs)

    torch.manual_seed(0)
    base = torch.nn.Sequential(torch.nn.Linear(20, 64), torch.nn.ReLU(), torch.nn.Linear(64, 5))
    x, y = torch.randn(64, 20), torch.randint(0, 5, (64,))

    def run(model, device, compile_it):
        model = model.to(device)
        fwd = torch.compile(model, backend=counting) if compile_it else model
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
        losses = []
        for _ in range(6):
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(fwd(x.to(device)), y.to(device))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses

    compiled = run(copy.deepcopy(base), "opweave", True)
    eager = run(copy.deepcopy(base), "opweave", False)
    assert len(calls) == 1, f"recompiled: {len(calls)} compilations"
    torch.testing.assert_close(compiled, eager, rtol=1e-5, atol=1e-6)
    assert compiled[-1] < compiled[0]


def test_the_entry_point_backend_name_is_registered():
    from opweave.dicp import dynamo
    assert dynamo.REGISTERED
    assert "opweave_sim" in torch._dynamo.list_backends()
