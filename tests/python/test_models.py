"""Small models train on the sim device exactly like on CPU, with no op falling back.

Each test trains the same initial weights on the device and on CPU for 20 steps over the same
batches (float32) and compares the per-step losses; opweave.fallback_stats() must stay empty
for the device run. The models live in opweave.demo (also runnable: python3 -m opweave.demo.gpt).
"""

from __future__ import annotations

import opweave
from opweave.demo import cnn, gpt

STEPS = 20
LOSS_RTOL = 1e-4   # per step, relative to the CPU loss


def _max_rel(dev, cpu):
    assert len(dev) == len(cpu) == STEPS
    return max(abs(a - b) / abs(b) for a, b in zip(dev, cpu))


def test_tiny_gpt_trains_with_adamw_like_cpu_with_no_fallback():
    # vocab 64, 2 layers, d 32, 2 heads, seq 16, causal mask built on the device
    dev, cpu, fallbacks = gpt.compare(steps=STEPS)
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
