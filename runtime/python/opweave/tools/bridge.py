"""Per-op backward: run one op inside a custom autograd Function so that its backward is a
separate, observable step (inputs' gradients of exactly this op, timed on their own).

`run(func, args, kwargs, on_backward)` calls func on detached aliases of the inputs that
require grad, inside `_Bridge.forward` with grad enabled (a local graph), and returns the
results connected to the caller's graph through the bridge node. In backward the bridge
computes the gradients with `torch.autograd.grad` over the local graph and hands
(grad_outputs, grad_inputs, seconds) to `on_backward` before returning them.

Not bridged (run() returns None and the caller runs the op as usual): grad disabled, no
input requiring grad, in-place / out= calls, results without tensors, and views (a view
must stay a view of its base; such results are recomputed normally, views cost nothing).
"""

from __future__ import annotations

import time

import torch

from ._base import VIEWS, flatten_tensors, map_tensors, short_name, sync


class State:
    def __init__(self, tool, func, args, kwargs, grad_inputs, on_backward, device, timed):
        self.tool = tool
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.grad_inputs = grad_inputs
        self.on_backward = on_backward
        self.device = device
        self.timed = timed
        self.out = None
        self.local_inputs: list[torch.Tensor] = []
        self.local_outputs: list[torch.Tensor] = []
        self.view = False
        self.forward_s = 0.0


class _Bridge(torch.autograd.Function):
    @staticmethod
    def forward(ctx, state: State, *tensors):
        local = [t.detach().requires_grad_(True) for t in tensors]
        by_id = {id(t): l for t, l in zip(tensors, local)}
        swap = lambda t: by_id.get(id(t), t)  # noqa: E731
        args = map_tensors(list(state.args), swap)
        kwargs = map_tensors(dict(state.kwargs), swap)
        with torch.enable_grad():
            if state.timed:
                sync(state.device)
                t0 = time.perf_counter()
            out = state.func(*args, **kwargs)
            if state.timed:
                sync(state.device)
                state.forward_s = time.perf_counter() - t0
        flat = flatten_tensors(out)
        state.out = out
        state.local_inputs = local
        state.local_outputs = flat
        local_ids = {id(l) for l in local}
        state.view = any(o._is_view() or id(o) in local_ids for o in flat)
        ctx.state = state
        results = tuple(o.detach() for o in flat)
        frozen = [r for r, o in zip(results, flat) if not o.requires_grad]
        if frozen:
            ctx.mark_non_differentiable(*frozen)
        return results

    @staticmethod
    def backward(ctx, *grads):
        state: State = ctx.state
        with state.tool.busy():
            pairs = [(o, g) for o, g in zip(state.local_outputs, grads) if o.requires_grad]
            if state.timed:
                sync(state.device)
            t0 = time.perf_counter()
            if pairs:
                dev_grads = torch.autograd.grad([o for o, _ in pairs], state.local_inputs,
                                                [g for _, g in pairs], allow_unused=True)
            else:
                dev_grads = tuple(None for _ in state.local_inputs)
            if state.timed:
                sync(state.device)
            seconds = time.perf_counter() - t0
            if state.on_backward is not None:
                state.on_backward(list(grads), list(dev_grads), seconds)
        # the local graph is used once (no double backward through a bridged op)
        state.local_outputs = []
        return (None,) + tuple(dev_grads)


def bridgeable(args, kwargs, mutating: bool, name: str = "") -> list[torch.Tensor]:
    """The inputs a bridge would differentiate; empty when the op cannot be bridged (known
    view ops included: they would run twice, see run())."""
    if mutating or not torch.is_grad_enabled() or short_name(name) in VIEWS:
        return []
    seen, grads = set(), []
    for t in flatten_tensors((args, kwargs)):
        if t.requires_grad and id(t) not in seen and (t.is_floating_point() or t.is_complex()):
            seen.add(id(t))
            grads.append(t)
    return grads


def run(tool, func, args, kwargs, grad_inputs, on_backward, device, timed=False):
    """(result, state) with the result connected through the bridge; (None, state) when the
    op turned out not to be bridgeable (a view), in which case the caller re-runs it."""
    state = State(tool, func, args, kwargs, grad_inputs, on_backward, device, timed)
    results = _Bridge.apply(state, *grad_inputs)
    if state.view or not state.local_outputs:
        return None, state
    results = list(results)
    it = iter(results)
    out = map_tensors(state.out, lambda _t: next(it))
    return out, state
