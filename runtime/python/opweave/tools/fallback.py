"""OpFallback: run selected torch-level ops on the CPU from Python.

    with OpFallback(include="linear,cross_entropy"):
        loss = model(x); loss.backward()          # those two run on CPU, the rest on device

The dispatcher-level list (`opweave.instrument.set_fallback_ops(regex)`,
OPWEAVE_FALLBACK_OPS) routes ATen overloads (`aten::addmm`) inside the generated wrappers;
OpFallback works one level up, on whole torch functions (`torch.nn.functional.linear` with
its decomposition and its backward), which is how a model engineer bisects: "does the loss
recover when linear runs on CPU?".

How: device tensors are copied with differentiable `.to("cpu")`, the op runs on CPU, results
come back with `.to(device)`; in-place and out= arguments get the CPU result written back
with `copy_`, and the call returns the caller's own tensor (identity kept). Autograd flows
through the copies, so the op's backward runs on CPU too. 16-bit floats are computed in
float32 on CPU (`upcast`, default on; torch 1.13's CPU lacks many float16 kernels) and cast
back. Views (view, t, reshape, __getitem__, ...) are never moved: a copy is not a view.
Selection: include / exclude or OPWEAVE_TOOLS_FALLBACK_INCLUDE / _EXCLUDE; with no include
list every op falls back.
"""

from __future__ import annotations

import sys

import torch

from ._base import (UNINITIALISED, VIEWS, OpTool, flatten_tensors, map_tensors,
                    map_values, to_cpu_device)
from .compare import UPCAST


class OpFallback(OpTool):
    TOOL = "FALLBACK"
    DEFAULT_EXCLUDE = UNINITIALISED
    NEVER = VIEWS            # a copy is not a view: moving one would break aliasing

    def __init__(self, include=None, exclude=None, upcast: bool = True, verbose: bool = False):
        super().__init__(include, exclude)
        self.upcast = upcast
        self.verbose = verbose
        self.counts: dict[str, int] = {}

    def _on_stop(self) -> None:
        if self.verbose:
            print("[opweave.tools] fallback: " + ", ".join(
                f"{k} x{v}" for k, v in sorted(self.counts.items())), file=sys.stderr)

    def stats(self) -> dict[str, int]:
        """{op name: calls run on CPU}"""
        return dict(self.counts)

    def _op(self, func, name, args, kwargs, device):
        self.counts[name] = self.counts.get(name, 0) + 1
        originals: dict[int, torch.Tensor] = {}
        low = set()

        def to_cpu(t: torch.Tensor):
            if t.device.type == "cpu":
                return t
            c = t.to("cpu")
            if self.upcast and c.dtype in UPCAST:
                low.add(c.dtype)
                c = c.to(UPCAST[c.dtype])
            originals[id(c)] = t
            return c

        def conv(v):
            return to_cpu(v) if isinstance(v, torch.Tensor) else to_cpu_device(v)

        cpu_args = map_values(list(args), conv)
        cpu_kwargs = {k: map_values(v, conv) for k, v in kwargs.items()}
        cpu_inputs = {id(c): c for c in flatten_tensors((cpu_args, cpu_kwargs)) if id(c) in originals}
        versions = {i: c._version for i, c in cpu_inputs.items()}
        out = func(*cpu_args, **cpu_kwargs)
        # write mutated arguments back to the device tensors they came from
        written = {}
        for i, c in cpu_inputs.items():
            if c._version != versions[i]:
                dev = originals[i]
                if dev.shape != c.shape:
                    with torch.no_grad():
                        dev.resize_(c.shape)
                dev.copy_(c)
                written[i] = dev
        single_low = next(iter(low)) if len(low) == 1 else None

        def back(t: torch.Tensor):
            if id(t) in written:
                return written[id(t)]
            if id(t) in originals and t.device.type == "cpu" and id(t) not in written:
                return originals[id(t)]            # an input returned as it was
            if t.device.type != "cpu":
                return t
            if single_low is not None and t.dtype == torch.float32:
                t = t.to(single_low)
            return t.to(device)
        return map_tensors(out, back)
