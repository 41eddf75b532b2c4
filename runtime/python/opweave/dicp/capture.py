"""Capturing ATen-level FX graphs on torch 1.13 (make_fx with fake tensors).

Inference: the flattened function is traced once. Training: a joint forward+backward
function (outputs, then torch.autograd.grad of the differentiable outputs with tangent
inputs) is traced, converted, then split into a forward and a backward graph (partition()).
Tracing uses CPU stand-ins of the inputs (fake tensors of the device type cannot run the
meta kernels of torch 1.13), so device arguments recorded in the graph say `cpu`; the
executor puts eager nodes back on the inputs' device.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Callable, Optional

import torch
import torch.fx
from torch.fx.experimental.proxy_tensor import make_fx
from torch.utils._pytree import tree_flatten, tree_unflatten


class CaptureError(RuntimeError):
    pass


@dataclass
class Signature:
    """What the traced function returns, recorded while tracing."""

    out_spec: object = None
    out_requires_grad: list = field(default_factory=list)
    out_count: int = 0


def flat_function(fn: Callable, module, state_names, n_state: int, in_spec, sig: Signature):
    """f(*state, *user_leaves) -> list of output tensors (pytree recorded in `sig`)."""
    try:    # torch 2.x; torch 1.13 has only the (2.x-deprecated) stateless form
        from torch.func import functional_call
    except ImportError:
        from torch.nn.utils.stateless import functional_call

    def flat(*leaves):
        args, kwargs = tree_unflatten(list(leaves[n_state:]), in_spec)
        if module is not None:
            state = dict(zip(state_names, leaves[:n_state]))
            out = functional_call(module, state, tuple(args), kwargs)
        else:
            out = fn(*args, **kwargs)
        outs, spec = tree_flatten(out)
        for o in outs:
            if not isinstance(o, torch.Tensor):
                raise CaptureError(f"compiled functions must return tensors (or nested "
                                   f"tuples/lists/dicts of them), got {type(o).__name__}")
        sig.out_spec = spec
        sig.out_requires_grad = [bool(o.requires_grad) for o in outs]
        sig.out_count = len(outs)
        return outs
    return flat


def standin(t, batch: Optional[int], requires_grad: bool):
    if not isinstance(t, torch.Tensor):
        return t
    shape = list(t.shape)
    if batch is not None:
        shape[0] = batch
    s = torch.empty(shape, dtype=t.dtype)
    if requires_grad:
        s.requires_grad_(True)
    return s


def _explain(e: Exception) -> str:
    import traceback
    text = str(e)
    frames = traceback.extract_tb(e.__traceback__)
    # torch 1.13 words it "non-Fake Tensor", torch 2.x "Please convert all Tensors to FakeTensors"
    marks = ("non-Fake Tensor", "convert all Tensors to FakeTensors")
    if any(m in text for m in marks) or any(m in (f.line or "") for f in frames for m in marks):
        return ("the function reads a tensor that is not an argument (a global or closure "
                "variable, or a module's parameter): pass it as an argument, or compile the "
                "nn.Module itself")
    return f"{type(e).__name__}: {text.splitlines()[0] if text else ''}"


def trace(flat: Callable, standins: list) -> torch.fx.GraphModule:
    try:
        with torch.no_grad():
            return make_fx(flat, tracing_mode="fake")(*standins)
    except CaptureError:
        raise
    except Exception as e:  # data-dependent control flow, .item(), unsupported ops ...
        raise CaptureError(f"opweave.dicp: cannot capture the function as one graph: "
                           f"{_explain(e)}") from e


def trace_joint(flat: Callable, standins: list, sig: Signature) -> tuple:
    """Joint graph (primals..., tangents...) -> (outputs..., grads of differentiable primals).

    Returns (graph module, number of primals, number of tangents)."""
    # forward once (fake) for the outputs' shapes and which of them are differentiable
    with torch.enable_grad():
        fwd = make_fx(flat, tracing_mode="fake")(*standins)
    out_node = next(n for n in fwd.graph.nodes if n.op == "output")
    vals = [a.meta["val"] for a in tree_flatten(out_node.args[0])[0]]
    diff = list(sig.out_requires_grad)
    tangents = [torch.zeros(v.shape, dtype=v.dtype) for v, d in zip(vals, diff) if d]
    if not tangents:
        raise CaptureError("opweave.dicp: no output requires grad; compile under "
                           "torch.no_grad() for inference")
    n_primals = len(standins)
    grad_pos = [i for i, s in enumerate(standins)
                if isinstance(s, torch.Tensor) and s.requires_grad]

    def joint(*leaves):
        primals, tans = leaves[:n_primals], leaves[n_primals:]
        with torch.enable_grad():
            outs = flat(*primals)
            needed = [o for o, d in zip(outs, diff) if d]
            grads = torch.autograd.grad(needed, [primals[i] for i in grad_pos], list(tans),
                                        allow_unused=True)
        return list(outs) + list(grads)
    try:
        gm = make_fx(joint, tracing_mode="fake")(*standins, *tangents)
    except Exception as e:
        raise CaptureError(f"opweave.dicp: cannot capture forward+backward: "
                           f"{_explain(e)}") from e
    return gm, n_primals, len(tangents), grad_pos


# ----------------------------------------------------------------------------- partitioning
def _ancestors(nodes) -> set:
    seen, stack = set(), [n for n in nodes if isinstance(n, torch.fx.Node)]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        stack.extend(n.all_input_nodes)
    return seen


def _copy(graph: torch.fx.Graph, inputs: list, outputs: list, keep: set) -> torch.fx.Graph:
    new = torch.fx.Graph()
    env = {}
    for n in inputs:
        p = new.placeholder(n.name)
        p.meta = dict(n.meta)
        env[n] = p
    for n in graph.nodes:
        if n in env or n not in keep or n.op in ("placeholder", "output"):
            continue
        env[n] = new.node_copy(n, lambda x: env[x])
    new.output([env[o] if isinstance(o, torch.fx.Node) else o for o in outputs])
    return new


def partition(gm: torch.fx.GraphModule, n_primals: int, n_fwd_outputs: int):
    """Splits a converted joint graph into forward and backward graphs, like functorch's
    default partitioner but deterministic (saved values in graph order) and aware of
    multi-output nodes. Returns (forward graph, backward graph, number of saved values)."""
    graph = gm.graph
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    primals, tangents = placeholders[:n_primals], placeholders[n_primals:]
    out = next(n for n in graph.nodes if n.op == "output")
    outs = tree_flatten(out.args[0])[0] if not isinstance(out.args[0], (list, tuple)) else \
        list(out.args[0])
    fwd_outs, bwd_outs = outs[:n_fwd_outputs], outs[n_fwd_outputs:]
    tangent_dep = set(tangents)
    for n in graph.nodes:
        if any(i in tangent_dep for i in n.all_input_nodes):
            tangent_dep.add(n)
    fwd_nodes = _ancestors(fwd_outs)
    if fwd_nodes & tangent_dep:
        raise CaptureError("opweave.dicp: a forward output depends on a tangent")
    bwd_nodes = _ancestors(bwd_outs) - fwd_nodes
    # values crossing from forward to backward; a multi-output node is saved as its items
    saved = []
    order = {n: i for i, n in enumerate(graph.nodes)}
    crossing = {i for n in bwd_nodes for i in n.all_input_nodes if i in fwd_nodes or i in primals}
    for n in sorted(crossing, key=order.get):
        if n.op != "placeholder" and len(n.meta.get("spec", [None])) > 1:
            for u in n.users:
                if u in bwd_nodes:
                    fwd_nodes.add(u)
                    bwd_nodes.discard(u)
                    saved.append(u)
        else:
            saved.append(n)
    saved = sorted(set(saved), key=order.get)
    fw = _copy(graph, primals, fwd_outs + saved, fwd_nodes)
    bw_inputs = saved + tangents
    bw = _copy(graph, bw_inputs, bwd_outs, bwd_nodes | set(saved))
    # drop tangents the backward never reads? keep them: the autograd.Function passes all
    return torch.fx.GraphModule(gm, fw), torch.fx.GraphModule(gm, bw), len(saved)


def is_getitem(n: torch.fx.Node) -> bool:
    return n.op == "call_function" and n.target is operator.getitem
