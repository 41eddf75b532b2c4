"""Small models train on the sim device exactly like on CPU, with no op falling back.

Each test trains the same initial weights on the device and on CPU for 20 steps over the same
batches (float32) and compares the per-step losses; opweave.fallback_stats() must stay empty
for the device run. The models live in opweave.demo (also runnable: python3 -m opweave.demo.gpt).
"""

from __future__ import annotations

import pytest

import opweave
from opweave.demo import cnn, gpt

STEPS = 20
LOSS_RTOL = 1e-4   # per step, relative to the CPU loss


def _max_rel(dev, cpu):
    assert len(dev) == len(cpu) == STEPS
    return max(abs(a - b) / abs(b) for a, b in zip(dev, cpu))


@pytest.mark.parametrize("optimizer", gpt.OPTIMIZERS)
def test_tiny_gpt_trains_with_adamw_like_cpu_with_no_fallback(optimizer):
    # vocab 64, 2 layers, d 32, 2 heads, seq 16, causal mask built on the device; AdamW
    # single-tensor, multi-tensor (foreach) or fused (opweave.optim.AdamW) on the device
    dev, cpu, fallbacks = gpt.compare(steps=STEPS, optimizer=optimizer)
    assert fallbacks == {}
    assert _max_rel(dev, cpu) <= LOSS_RTOL
    assert cpu[-1] < cpu[0] - 0.5   # it does learn (the test cannot pass on a frozen model)


def test_small_resnet_cnn_trains_like_cpu_with_no_fallback():
    # conv (bias and no bias, stride 2, 1x1), batch norm in training mode, max / average /
    # adaptive pooling, ReLU, ReLU6 (hardtanh_), hardswish; SGD with momentum
    dev, cpu, fallbacks, running_stats = cnn.compare(steps=STEPS)
    assert fallbacks == {}
    assert _max_rel(dev, cpu) <= LOSS_RTOL
    assert running_stats <= 1e-3     # batch-norm running mean / var, updated in place
    assert cpu[-1] < cpu[0] - 0.5


def test_tiny_gpt_with_dropout_and_clip_grad_norm_trains_reproducibly_with_no_fallback():
    # dropout (bernoulli_ on the device generator) after each block and clip_grad_norm_ (norm,
    # stack, mul_): two runs from the same opweave.manual_seed give the same losses
    import copy

    import torch
    import torch.nn.functional as F

    x, y = gpt.make_data(128, 16, 64, seed=1)
    base = gpt.make_model(1)
    for block in base.blocks:
        block.register_forward_hook(lambda _m, _i, out: F.dropout(out, 0.1, training=True))

    def run(seed):
        model = copy.deepcopy(base).to(opweave.device(0))
        opt = torch.optim.AdamW(model.parameters(), lr=3e-3, foreach=False)
        opweave.manual_seed(seed)
        losses = []
        for step in range(10):
            i = (step * 8) % x.shape[0]
            loss = model(x[i:i + 8].to(model.head.weight.device), y[i:i + 8].to(model.head.weight.device))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            losses.append(loss.item())
        return losses

    opweave.fallback_stats(reset=True)
    first = run(3)
    assert opweave.fallback_stats() == {}
    assert run(3) == first
    assert run(4) != first        # the dropout masks do come from the seeded generator
    assert first[-1] < first[0] - 0.3
