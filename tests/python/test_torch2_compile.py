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
