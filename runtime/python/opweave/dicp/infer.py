"""Shape/dtype inference of vendor ops from the catalogue's rules (fails loudly).

Rules (closed vocabulary, validated by codegen): same_as, broadcast, compare, reduce, matmul,
cast, and aten(overload, ...), which runs the ATen op on meta tensors (fake tensors when the
op has no meta kernel). Shapes are concrete: a dynamic graph is inferred at several batch
sizes and the results are fitted (see opweave.dicp.compiler).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


class InferenceError(RuntimeError):
    """A vendor op's inputs do not satisfy its inference rule, or the rule disagrees with
    what the ATen op it replaces produced."""


@dataclass(frozen=True)
class TensorSpec:
    shape: tuple
    dtype: torch.dtype

    def concrete_shape(self) -> tuple:
        return tuple(int(s) for s in self.shape)

    @property
    def numel(self) -> int:
        n = 1
        for s in self.shape:
            n *= int(s)
        return n

    def __str__(self) -> str:
        return f"{str(self.dtype).replace('torch.', '')}[{', '.join(str(s) for s in self.shape)}]"


def spec_of(value) -> "TensorSpec | None":
    if isinstance(value, torch.Tensor):
        return TensorSpec(tuple(int(s) for s in value.shape), value.dtype)
    return None


def meta(spec: TensorSpec) -> torch.Tensor:
    return torch.empty(spec.concrete_shape(), dtype=spec.dtype, device="meta")


def _promote(values) -> torch.dtype:
    try:
        from torch._prims_common import ELEMENTWISE_TYPE_PROMOTION_KIND, elementwise_dtypes
        return elementwise_dtypes(*values, type_promotion_kind=ELEMENTWISE_TYPE_PROMOTION_KIND.DEFAULT)[1]
    except ImportError:  # older/newer torch without the helper: fold torch.result_type
        result = values[0]
        for v in values[1:]:
            result = torch.empty((), dtype=torch.result_type(result, v), device="meta")
        return result.dtype


def _broadcast(shapes, who) -> tuple:
    try:
        return tuple(torch.broadcast_shapes(*shapes))
    except RuntimeError as e:
        raise InferenceError(f"{who}: shapes {', '.join(str(list(s)) for s in shapes)} do not "
                             f"broadcast ({e})") from None


def _dims(dims, rank, who) -> list:
    if dims is None or len(dims) == 0:
        return list(range(rank))
    out = []
    for d in dims:
        if not -max(rank, 1) <= d < max(rank, 1):
            raise InferenceError(f"{who}: dim {d} out of range for rank {rank}")
        out.append(d % max(rank, 1))
    return out


def infer_specs(op, ports: dict, attrs: dict) -> list:
    rule = op.infer
    who = f"{op.vendor}.{op.__name__} ({rule.name})"

    def port(name) -> TensorSpec:
        s = ports.get(name)
        if s is None:
            raise InferenceError(f"{who}: input '{name}' is missing")
        return s

    args = rule.args
    if rule.name == "same_as":
        return [port(a) for a in args]
    if rule.name in ("broadcast", "compare"):
        shapes, values = [], []
        for a in args:
            if a in ports:
                s = port(a)
                shapes.append(s.shape)
                values.append(meta(s))
            else:
                values.append(attrs[a])
        shape = _broadcast(shapes, who)
        dtype = torch.bool if rule.name == "compare" else _promote(values)
        return [TensorSpec(shape, dtype)]
    if rule.name == "reduce":
        x = port(args[0])
        dims = _dims(attrs[args[1]], len(x.shape), who)
        keep = bool(attrs[args[2]])
        shape = tuple((1 if i in dims else s) for i, s in enumerate(x.shape) if keep or i not in dims)
        return [TensorSpec(shape, x.dtype)]
    if rule.name == "matmul":
        a, b = port(args[0]), port(args[1])
        if len(a.shape) < 2 or len(a.shape) != len(b.shape) or len(a.shape) > 3:
            raise InferenceError(f"{who}: operands must both be 2-D or 3-D, got {a} and {b}")
        if a.shape[-1] != b.shape[-2] or a.shape[:-2] != b.shape[:-2]:
            raise InferenceError(f"{who}: shapes {list(a.shape)} and {list(b.shape)} cannot be "
                                 "multiplied")
        if a.dtype != b.dtype:
            raise InferenceError(f"{who}: operand dtypes differ ({a.dtype} and {b.dtype})")
        shape = tuple(a.shape[:-1]) + (b.shape[-1],)
        if len(args) == 3:
            bias = port(args[2])
            if _broadcast([bias.shape, shape], who) != shape:
                raise InferenceError(f"{who}: bias {list(bias.shape)} does not broadcast to the "
                                     f"product's shape {list(shape)}")
        return [TensorSpec(shape, a.dtype)]
    if rule.name == "cast":
        return [TensorSpec(port(args[0]).shape, attrs[args[1]])]
    if rule.name == "cat":
        try:
            joined = torch.cat([meta(port(a)) for a in args[1:]], attrs[args[0]])
        except (RuntimeError, IndexError) as e:
            raise InferenceError(f"{who}: {str(e).splitlines()[0]}") from None
        return [spec_of(joined)]
    if rule.name == "aten":
        from .table import aten_op
        target = aten_op(args[0])
        positional, keywords = [], {}
        for a in args[1:]:
            key, eq, name = a.partition("=")
            src = name.strip() if eq else a
            if src in ports:
                v = meta(port(src)) if ports[src] is not None else None
            elif src in attrs:
                v = attrs[src]
            else:   # a number literal
                v = float(src) if any(c in src for c in ".eE") else int(src)
            if eq:
                keywords[key.strip()] = v
            else:
                positional.append(v)
        if "device" in [a.name for a in target._schema.arguments] and "device" not in keywords:
            keywords["device"] = "meta"   # a factory: its shape, not its memory
        try:
            result = run_on_meta(target, positional, keywords)
        except RuntimeError as e:
            raise InferenceError(f"{who}: aten::{args[0]} rejects these inputs: "
                                 f"{str(e).splitlines()[0]}") from None
        results = result if isinstance(result, (tuple, list)) else (result,)
        return [spec_of(r) for r in results[: len(op.outputs)]]
    if rule.name == "reference":   # the op's CPU reference, on meta tensors
        args = [meta(ports[p.name]) if ports.get(p.name) is not None else None
                for p in op.inputs] + [attrs[a.name] for a in op.attrs]
        try:
            result = op.reference(*args)
        except RuntimeError as e:
            raise InferenceError(f"{who}: the reference rejects these inputs: "
                                 f"{str(e).splitlines()[0]}") from None
        results = result if isinstance(result, (tuple, list)) else (result,)
        return [spec_of(r) for r in results]
    raise InferenceError(f"{who}: unknown rule")


def run_on_meta(target, positional, keywords):
    """The ATen op on meta tensors (on fake tensors when it has no meta kernel)."""
    try:
        return target(*positional, **keywords)
    except NotImplementedError:
        return _run_fake(target, positional, keywords)


def _run_fake(target, positional, keywords):
    from torch._subclasses import FakeTensorMode
    mode = FakeTensorMode()

    def conv(v):
        if isinstance(v, torch.Tensor):
            return mode.from_tensor(torch.empty(v.shape, dtype=v.dtype))
        return v
    with mode:
        return target(*[conv(v) for v in positional], **{k: conv(v) for k, v in keywords.items()})
