"""The nn ops of the third coverage round, one by one against CPU: reflection and replication
padding (diopiPad), 3-D max and average pooling, adaptive max pooling, glu, prelu, unfold
(im2col), the margin losses and channel_shuffle. Forward values on contiguous, non-contiguous,
unbatched and empty inputs with no CPU fallback; the pooling gradients; ATen's errors raised
as Python exceptions; a dtype no kernel declares running on the CPU.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

import opweave
from op_compare import D, gen, same_gradient_without_fallback, same_without_fallback

g = gen(11)
X3 = torch.randn(2, 3, 8, generator=g)
X4 = torch.randn(2, 3, 6, 7, generator=g)
X5 = torch.randn(2, 3, 5, 6, 7, generator=g)
X4T = torch.randn(2, 3, 7, 6, generator=g).transpose(-1, -2)   # non-contiguous [2, 3, 6, 7]
X5T = torch.randn(2, 3, 5, 7, 6, generator=g).transpose(-1, -2)
SCORES = torch.randn(6, 5, generator=g)
LABELS = torch.tensor([0, 4, 2, 2, 1, 3])
# multilabel targets: each row's labels up to the first -1
MULTI = torch.tensor([[3, 0, -1, 1, 1], [1, 2, 3, 4, 0], [-1, 0, 0, 0, 0],
                      [4, -1, 2, 2, 2], [2, 2, -1, 0, 0], [0, 1, -1, 3, 3]])

FORWARD = {
    "reflect_1d": (lambda x: F.pad(x, (2, 3), mode="reflect"), X3),
    "reflect_1d_unbatched": (lambda x: F.pad(x, (1, 4), mode="reflect"), X3[0]),
    "reflect_1d_crop": (lambda x: F.pad(x, (-2, 1), mode="reflect"), X3),
    "reflect_2d": (lambda x: F.pad(x, (1, 2, 3, 0), mode="reflect"), X4),
    "reflect_2d_noncontig": (lambda x: F.pad(x, (2, 2, 1, 1), mode="reflect"), X4T),
    "reflect_3d": (lambda x: F.pad(x, (1, 2, 0, 3, 2, 1), mode="reflect"), X5),
    "replicate_1d": (lambda x: F.pad(x, (4, 1), mode="replicate"), X3),
    "replicate_2d": (lambda x: F.pad(x, (3, 0, 5, 2), mode="replicate"), X4),
    "replicate_2d_negative": (lambda x: F.pad(x, (-1, 2, 1, -3), mode="replicate"), X4T),
    "replicate_3d": (lambda x: F.pad(x, (1, 1, 2, 0, 0, 3), mode="replicate"), X5T),
    "replicate_empty_batch": (lambda x: F.pad(x, (2, 1), mode="replicate"), torch.randn(0, 3, 4)),
    "max_pool3d": (lambda x: F.max_pool3d(x, 3, 2, 1), X5),
    "max_pool3d_indices_dilation": (lambda x: F.max_pool3d(x, 2, 1, 0, dilation=2,
                                                           return_indices=True), X5T),
    "max_pool3d_ceil_unbatched": (lambda x: F.max_pool3d(x, 2, ceil_mode=True), X5[0]),
    "avg_pool3d": (lambda x: F.avg_pool3d(x, 3, 2, 1), X5),
    "avg_pool3d_exclude_pad_ceil": (lambda x: F.avg_pool3d(x, (3, 2, 3), (2, 1, 2), 1, ceil_mode=True,
                                                           count_include_pad=False), X5T),
    "avg_pool3d_divisor": (lambda x: F.avg_pool3d(x, 2, divisor_override=3), X5),
    "adaptive_max_pool2d": (lambda x: F.adaptive_max_pool2d(x, (4, 3), return_indices=True), X4T),
    "adaptive_max_pool2d_upsize": (lambda x: F.adaptive_max_pool2d(x, (9, 8)), X4[0]),
    "adaptive_max_pool1d": (lambda x: F.adaptive_max_pool1d(x, 3, return_indices=True), X3),
    "glu_last": (lambda x: F.glu(x), X4[..., :6]),
    "glu_dim1": (lambda x: F.glu(x, 1), torch.randn(2, 4, 3, generator=g)),
    "glu_noncontig": (lambda x: F.glu(x, -2), X4T),
    "glu_empty": (lambda x: F.glu(x), torch.randn(0, 4)),
    "prelu_channels": (lambda x, w: F.prelu(x, w), X4, torch.tensor([0.25, -0.5, 2.0])),
    "prelu_shared": (lambda x, w: F.prelu(x, w), X4T, torch.tensor([0.1])),
    "prelu_1d": (lambda x, w: F.prelu(x, w), X3[0, 0], torch.tensor([0.3])),
    "unfold": (lambda x: F.unfold(x, (2, 3)), X4),
    "unfold_dilated_strided": (lambda x: F.unfold(x, (3, 2), dilation=(1, 2), padding=1,
                                                  stride=(2, 1)), X4T),
    "multi_margin_loss": (lambda x, y: F.multi_margin_loss(x, y), SCORES, LABELS),
    "multi_margin_loss_p2_weight_none": (
        lambda x, y: F.multi_margin_loss(x, y, p=2, margin=0.5, reduction="none",
                                         weight=torch.linspace(0.5, 2, 5, device=x.device)),
        SCORES, LABELS),
    "multi_margin_loss_sum_noncontig": (lambda x, y: F.multi_margin_loss(x, y, reduction="sum"),
                                        SCORES.t().contiguous().t(), LABELS),
    "multilabel_margin_loss": (lambda x, y: F.multilabel_margin_loss(x, y), SCORES, MULTI),
    "multilabel_margin_loss_none": (
        lambda x, y: F.multilabel_margin_loss(x, y, reduction="none"), SCORES, MULTI),
    "multilabel_margin_loss_unbatched": (
        lambda x, y: F.multilabel_margin_loss(x, y, reduction="sum"), SCORES[0], MULTI[0]),
    "channel_shuffle": (lambda x: torch.channel_shuffle(x, 3), torch.randn(2, 6, 4, generator=g)),
    "channel_shuffle_int_noncontig": (lambda x: torch.channel_shuffle(x, 2),
                                      torch.randint(0, 99, (2, 3, 4, 6), generator=g).transpose(1, 3)),
}


@pytest.mark.parametrize("name", sorted(FORWARD))
def test_forward_matches_cpu_without_fallback(name):
    f, *args = FORWARD[name]
    same_without_fallback(f, args, atol=1e-5)


BACKWARD = {
    "max_pool3d": (lambda t: F.max_pool3d(t, 2, 1, 1), (2, 2, 4, 5, 4)),
    "avg_pool3d": (lambda t: F.avg_pool3d(t, 3, 2, 1, count_include_pad=False), (1, 2, 5, 6, 5)),
    "adaptive_max_pool2d": (lambda t: F.adaptive_max_pool2d(t, (3, 2)), (2, 3, 7, 5)),
}


@pytest.mark.parametrize("name", sorted(BACKWARD))
def test_pooling_gradient_matches_cpu_without_fallback(name):
    f, shape = BACKWARD[name]
    same_gradient_without_fallback(f, shape, atol=1e-5)


ERRORS = {
    # the message ATen's CPU kernel gives is not ours to match: that it raises is
    "reflect_pad_too_wide": lambda x: F.pad(x[..., :3], (3, 0), mode="reflect"),
    "replicate_pad_empty_output": lambda x: F.pad(x, (-4, -4), mode="replicate"),
    "glu_odd_dim": lambda x: F.glu(x[..., :5]),
    "prelu_weight_mismatch": lambda x: F.prelu(x, torch.ones(2, device=x.device)),
    # F.multi_margin_loss refuses p=3 in Python; the ATen op itself must refuse it too
    "multi_margin_p3": lambda x: torch.ops.aten.multi_margin_loss(
        x[0], torch.tensor([1], device=x.device), 3),
    "channel_shuffle_groups": lambda x: torch.channel_shuffle(x, 2),
    "unfold_kernel_too_big": lambda x: F.unfold(x.unsqueeze(0), (9, 9)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_bad_input_raises_like_cpu(name):
    f = ERRORS[name]
    with pytest.raises(RuntimeError):
        f(X3.clone())
    with pytest.raises(RuntimeError):
        f(X3.to(D))


def test_reflect_pad_error_names_the_op():
    with pytest.raises(RuntimeError, match="reflection_pad1d|diopiPad|[Pp]adding"):
        F.pad(X3.to(D)[..., :2], (2, 0), mode="reflect")


def test_undeclared_dtype_runs_on_cpu_with_cpu_result():
    # channel_shuffle's kernel moves raw elements of the declared dtypes; complex is not one
    x = torch.randn(2, 4, 3, dtype=torch.complex64, generator=g)
    opweave.fallback_stats(reset=True)
    got = torch.channel_shuffle(x.to(D), 2)
    assert "aten::channel_shuffle" in opweave.fallback_stats()
    assert torch.equal(got.cpu(), torch.channel_shuffle(x, 2))


def test_pad_writes_every_output_element():
    # a kernel leaving the border unwritten would pass where the allocator hands out zeros
    x = torch.arange(12.0).view(1, 3, 4)
    d = torch.full((1, 3, 9), float("nan"), device=D)
    torch._C._nn.reflection_pad1d(x.to(D), [2, 3], out=d)
    assert torch.equal(d.cpu(), F.pad(x, (2, 3), mode="reflect"))
    assert d.cpu()[0, 0].tolist() == [2, 1, 0, 1, 2, 3, 2, 1, 0]
