"""opweave.compile(...).train_step: forward and backward as one compiled call, gradients
accumulated into .grad without the autograd engine, checked against loss.backward() on the
same device."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

import opweave
from test_dicp_tables import I, R

DEV = opweave.device(0)


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 10)

    def forward(self, x, y):
        return F.cross_entropy(self.fc2(torch.relu(self.fc1(x))), y)


def pair():
    torch.manual_seed(0)
    model, ref = MLP().to(DEV), MLP().to(DEV)
    ref.load_state_dict(model.state_dict())
    return model, ref


def assert_same_grads(model, ref):
    for (name, p), r in zip(model.named_parameters(), ref.parameters()):
        torch.testing.assert_close(p.grad.cpu(), r.grad.cpu(), atol=1e-5, rtol=1e-5, msg=name)


def test_train_step_matches_backward_and_trains():
    model, ref = pair()
    step = opweave.compile(model, backend="sim")
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    ref_opt = torch.optim.SGD(ref.parameters(), lr=0.1, momentum=0.9)
    x, y = torch.randn(8, 16, device=DEV), torch.randint(0, 10, (8,), device=DEV)
    losses = []
    for _ in range(5):
        opt.zero_grad(set_to_none=True)
        ref_opt.zero_grad(set_to_none=True)
        loss = step.train_step(x, y)
        ref_loss = ref(x, y)
        ref_loss.backward()
        assert loss.device == DEV and loss.dim() == 0 and not loss.requires_grad
        torch.testing.assert_close(loss.cpu(), ref_loss.detach().cpu(), atol=1e-5, rtol=1e-5)
        assert_same_grads(model, ref)
        opt.step()
        ref_opt.step()
        losses.append(float(loss))
    assert losses[-1] < losses[0]
    assert step.stats["compiles"] == 1 and step.last.plan is not None and not step.last.eager


def test_gradients_accumulate_like_backward_and_zero_grads_are_kept():
    model, ref = pair()
    step = opweave.compile(model, backend="sim")
    x, y = torch.randn(8, 16, device=DEV), torch.randint(0, 10, (8,), device=DEV)
    step.train_step(x, y)
    step.train_step(x, y)          # no zero_grad: .grad += the second step's
    ref(x, y).backward()
    ref(x, y).backward()
    assert_same_grads(model, ref)
    model.zero_grad(set_to_none=False)   # zeroed, not None: added into
    ref.zero_grad(set_to_none=False)
    grad_before = model.fc1.weight.grad
    step.train_step(x, y)
    ref(x, y).backward()
    assert_same_grads(model, ref)
    assert model.fc1.weight.grad is grad_before


def test_the_same_step_through_autograd_still_works_between_train_steps():
    model, ref = pair()
    step = opweave.compile(model, backend="sim")
    x, y = torch.randn(8, 16, device=DEV), torch.randint(0, 10, (8,), device=DEV)
    step.train_step(x, y)
    step(x, y).backward()
    ref(x, y).backward()
    ref(x, y).backward()
    assert_same_grads(model, ref)


def test_two_gradients_never_share_memory():
    # both gradients are views of the one seed d(loss) = 1: each .grad gets its own memory, or
    # an optimizer's in-place update of one would change the other
    step = opweave.compile(lambda a, b: a.view(()) + b.view(()), backend="sim")
    a = torch.ones(1, device=DEV, requires_grad=True)
    b = torch.ones(1, device=DEV, requires_grad=True)
    step.train_step(a, b)
    a.grad.add_(1.0)
    assert a.grad.tolist() == [2.0] and b.grad.tolist() == [1.0]
    step.train_step(a, b)
    assert a.grad.tolist() == [3.0] and b.grad.tolist() == [2.0]


def test_a_gradient_never_aliases_an_input():
    # d/dw sum(w * x) is x itself: .grad must get its own memory, or SGD's update of w.grad
    # (or the next accumulation) would write into the caller's x
    step = opweave.compile(lambda w, x: (w * x).sum(), backend="sim")
    w = torch.zeros(4, 3, device=DEV, requires_grad=True)
    x = R(4, 3).to(DEV)
    x_before = x.cpu().clone()
    step.train_step(w, x)
    torch.testing.assert_close(w.grad.cpu(), x_before)
    w.grad.add_(1.0)
    torch.testing.assert_close(x.cpu(), x_before)
    step.train_step(w, x)
    torch.testing.assert_close(w.grad.cpu(), 2 * x_before + 1)
    torch.testing.assert_close(x.cpu(), x_before)


def test_the_tiny_gpt_trains_as_one_compiled_call():
    # embedding, layer norm, split / cat of q, k, v, the causal mask (ones, triu, masked_fill)
    # and positions (arange) all convert: no eager node, so train_step is one helper call
    from opweave.demo import gpt
    models = [gpt.make_model(0, vocab=64, d=32, layers=2, heads=2, seq=16).to(DEV)
              for _ in range(2)]
    x, y = (t.to(DEV) for t in gpt.make_data(8, 16, 64, seed=0))
    step = opweave.compile(models[0], backend="sim")
    for _ in range(2):   # the second step reuses the compiled plan
        for m in models:
            m.zero_grad(set_to_none=True)
        loss = step.train_step(x, y)
        ref = models[1](x, y)
        ref.backward()
        assert step.last.eager == [] and step.last.plan is not None
        torch.testing.assert_close(loss.cpu(), ref.detach().cpu(), atol=1e-6, rtol=1e-6)
        assert_same_grads(*models)


def test_a_graph_with_eager_nodes_takes_the_autograd_path():
    def fn(a, b, w):
        return torch.relu(torch.cat([a, b, b, a], 1) @ w).sum()   # cat of 4: eager on sim
    a, b, w = R(6, 3), R(6, 1), R(8, 2)
    a_d, b_d = a.to(DEV).requires_grad_(), b.to(DEV).requires_grad_()
    w_d = w.to(DEV).requires_grad_()
    step = opweave.compile(fn, backend="sim")
    loss = step.train_step(a_d, b_d, w_d)
    assert step.last.eager and step.last.plan is None and not loss.requires_grad
    a_c, b_c, w_c = (t.clone().requires_grad_() for t in (a, b, w))
    ref = fn(a_c, b_c, w_c)
    ref.backward()
    torch.testing.assert_close(loss.cpu(), ref.detach(), atol=1e-5, rtol=1e-5)
    for dev, cpu in ((a_d, a_c), (b_d, b_c), (w_d, w_c)):
        torch.testing.assert_close(dev.grad.cpu(), cpu.grad, atol=1e-5, rtol=1e-5)


def test_what_train_step_refuses_is_said():
    w = torch.ones(3, device=DEV, requires_grad=True)
    two = opweave.compile(lambda a: (a.sum(), (a * 2).sum()), backend="sim")
    with pytest.raises(RuntimeError, match="one value"):
        two.train_step(w)
    vec = opweave.compile(lambda a: a * 2, backend="sim")
    with pytest.raises(RuntimeError, match="loss must be one value"):
        vec.train_step(w)
    plain = opweave.compile(lambda a: (a * 2).sum(), backend="sim")
    with pytest.raises(RuntimeError, match="requires grad"):
        plain.train_step(torch.ones(3, device=DEV))
    with torch.no_grad(), pytest.raises(RuntimeError, match="requires grad"):
        plain.train_step(w)
    non_leaf = w * 1.0
    with pytest.raises(RuntimeError, match="not a leaf"):
        plain.train_step(non_leaf)
    assert w.grad is None          # nothing was accumulated by the refused calls
