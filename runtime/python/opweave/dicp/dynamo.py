"""torch >= 2: the same backends as torch.compile backends ("opweave_sim", ...).

Registered when torch._dynamo exists (never on torch 1.13, where opweave.compile captures
graphs itself). Also exposed as the entry point `torch_dynamo_backends` = opweave_sim ->
opweave.dicp.dynamo:sim_backend for packaging. The backend receives Dynamo's FX graph and
example inputs and compiles them like opweave.compile does with a function.
"""

from __future__ import annotations

import importlib.util

import torch


def _devices_to_cpu(gm: torch.fx.GraphModule) -> None:
    """Dynamo's graph records the device a tensor is created on (`torch.arange(n,
    device=x.device)` keeps `opweave:0`). Capture traces with CPU stand-ins of the inputs, so
    such a factory would make the one device tensor among CPU ones: the device becomes `cpu`
    here, as a function traced by opweave.compile records it, and the executor puts eager
    factories back on the inputs' device (converted ones have no device)."""
    from .. import device as opweave_device
    own = opweave_device(0).type

    def fix(v):
        if isinstance(v, torch.device) and v.type == own:
            return torch.device("cpu")
        if isinstance(v, (list, tuple)):
            return type(v)(fix(x) for x in v)
        if isinstance(v, dict):
            return {k: fix(x) for k, x in v.items()}
        return v
    for n in gm.graph.nodes:
        n.args, n.kwargs = fix(n.args), fix(n.kwargs)
    gm.recompile()


def make_backend(vendor: str, **options):
    def backend(gm: torch.fx.GraphModule, example_inputs):
        from .backend import compile as dicp_compile
        _devices_to_cpu(gm)
        compiled = dicp_compile(gm, backend=vendor, **options)

        def run(*args):
            return compiled(*args)
        return run
    backend.__name__ = f"opweave_{vendor}"
    return backend


sim_backend = make_backend("sim")


def _register() -> bool:
    if importlib.util.find_spec("torch._dynamo") is None:
        return False
    try:
        from torch._dynamo import register_backend
    except ImportError:
        return False
    try:
        register_backend(name="opweave_sim")(sim_backend)
    except Exception:   # already registered (re-import) or an API change: not fatal
        return False
    return True


REGISTERED = _register()
