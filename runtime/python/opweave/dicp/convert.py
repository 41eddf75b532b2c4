"""ATen-level FX graph -> vendor-op graph, node by node, from a generated conversion table.

Passes, in order:
  functionalize_inplace  in-place ATen ops on graph intermediates become their functional
                         variants (make_fx records e.g. fill_/sub_ inside decompositions);
  Converter              an fx.Transformer applying the table: for each ATen node the first
                         entry whose `when` holds is applied (map / decomp / custom handler /
                         unsupported); executable vendors decline entries whose kernel is
                         missing or whose dtypes the kernel does not take, and the node stays
                         an ATen node that runs eagerly on the device;
  every emitted vendor node gets meta["spec"] from the catalogue's inference rule, and the
  results are checked against the shapes/dtypes the ATen op produced while tracing: a
  disagreement is a ConversionError naming the catalogue line (never swallowed).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Optional

import torch
import torch.fx
from torch.fx import Proxy

from .infer import InferenceError, TensorSpec, meta, run_on_meta, spec_of
from .table import Conversion, Table, aten_key, aten_op, call_args, is_vendor_op, resolve


class ConversionError(RuntimeError):
    pass


class _Dropped:
    """An ATen result the conversion does not produce (map `outputs: [.., null]`)."""

    def __init__(self, where: str):
        self.where = where

    def __repr__(self) -> str:
        return f"<not produced: {self.where}>"


class Declined(Exception):
    """An entry cannot be used for this call (kernel missing, dtype not supported)."""


def is_view_op(target) -> bool:
    if not isinstance(target, torch._ops.OpOverload):
        return False
    s = target._schema
    return not s.is_mutable and any(r.alias_info is not None for r in s.returns)


def bind(target, args, kwargs) -> dict:
    """All arguments of an ATen call by schema name, defaults filled in."""
    out = {}
    for i, a in enumerate(target._schema.arguments):
        if i < len(args) and not a.kwarg_only:
            out[a.name] = args[i]
        elif a.name in kwargs:
            out[a.name] = kwargs[a.name]
        elif a.has_default_value():
            out[a.name] = a.default_value
        else:
            out[a.name] = None
    return out


def node_specs(node: torch.fx.Node) -> list:
    val = node.meta.get("val")
    if isinstance(val, (tuple, list)):
        return [spec_of(v) for v in val]
    return [spec_of(val)]


# ------------------------------------------------------------- Python numbers -> .Scalar
def _scalar_twin(target, positions: set):
    """The overload of the same op taking Scalar where `target` takes Tensor at
    `positions` (add.Tensor(x, 2) -> add.Scalar(x, 2)), or None."""
    packet = getattr(torch.ops.aten, target._schema.name.split("::", 1)[1], None)
    if packet is None:
        return None
    want = target._schema.arguments
    for name in packet.overloads():
        other = getattr(packet, name)
        args = other._schema.arguments
        if other is target or len(args) != len(want) or other._schema.is_mutable:
            continue
        ok = True
        for i, (a, b) in enumerate(zip(want, args)):
            if a.name != b.name:
                ok = False
            elif i in positions:
                ok = ok and str(b.type) in ("Scalar", "number")
            else:
                ok = ok and str(a.type) == str(b.type)
        if ok:
            return other
    return None


def normalize_scalars(gm: torch.fx.GraphModule) -> int:
    """make_fx records `x + 2` as add.Tensor(x, 2): use the .Scalar overload instead."""
    changed = 0
    for n in gm.graph.nodes:
        if n.op != "call_function" or not isinstance(n.target, torch._ops.OpOverload):
            continue
        schema = n.target._schema
        positions = {i for i, (a, v) in enumerate(zip(schema.arguments, n.args))
                     if str(a.type) == "Tensor" and isinstance(v, (int, float)) and
                     not isinstance(v, bool)}
        if not positions:
            continue
        twin = _scalar_twin(n.target, positions)
        if twin is not None:
            n.target = twin
            changed += 1
    if changed:
        gm.recompile()
    return changed


# --------------------------------------------------------------------- in-place -> functional
def functionalize_inplace(gm: torch.fx.GraphModule) -> int:
    """Replaces `x.op_(...)` on intermediates nobody else aliases by `y = x.op(...)`, later
    uses of x reading y. Returns how many nodes were rewritten; mutations of graph inputs
    or of views stay (they run eagerly, in order)."""
    graph = gm.graph
    order = {n: i for i, n in enumerate(graph.nodes)}
    changed = 0
    for n in list(graph.nodes):
        if n.op != "call_function" or not isinstance(n.target, torch._ops.OpOverload):
            continue
        schema = n.target._schema
        if not schema.is_mutable or not schema.arguments:
            continue
        writes = [a for a in schema.arguments if a.alias_info is not None and a.alias_info.is_write]
        if len(writes) != 1 or writes[0] is not schema.arguments[0]:
            continue
        base = schema.name.split("::", 1)[1]
        if not base.endswith("_"):
            continue
        functional = getattr(getattr(torch.ops.aten, base[:-1], None), schema.overload_name or
                             "default", None)
        src = n.args[0]
        if functional is None or not isinstance(src, torch.fx.Node) or src.op == "placeholder":
            continue
        if is_view_op(src.target) or any(is_view_op(u.target) for u in src.users if u is not n):
            continue
        with graph.inserting_after(n):
            new = graph.call_function(functional, n.args, n.kwargs)
        new.meta = dict(n.meta)
        n.replace_all_uses_with(new)
        for u in list(src.users):
            if u is not n and u is not new and order.get(u, 1 << 60) > order[n]:
                u.replace_input_with(src, new)
        graph.erase_node(n)
        changed += 1
    graph.lint()
    gm.recompile()
    return changed


# --------------------------------------------------------------------------- the converter
@dataclass
class EagerRecord:
    node: str
    aten: str
    reason: str


class HandlerContext:
    """What a custom handler sees: the ATen call's arguments (graph values for tensors,
    constants otherwise), their specs, and `emit` to add vendor op nodes."""

    def __init__(self, conv: "Converter", target, args: dict, entry: Conversion):
        self.converter = conv
        self.target = target
        self.args = args
        self.entry = entry
        self.table = conv.table

    def spec(self, name: str) -> TensorSpec:
        return self.converter.spec(self.args[name])

    def emit(self, op: str, *args):
        return self.converter.emit(op, args, self.entry)


class Converter(torch.fx.Transformer):
    def __init__(self, gm: torch.fx.GraphModule, table: Table, *, kernels=None, strict=False):
        super().__init__(gm)
        self.table = table
        self.kernels = kernels          # resolved DIOPI functions (executable vendors)
        self.strict = strict
        self.eager: list[EagerRecord] = []
        self.applied: list[int] = []
        self._created: list[torch.fx.Node] = []
        self.current: Optional[torch.fx.Node] = None

    # -- plumbing -------------------------------------------------------------------------
    def run_node(self, n):
        self.current = n
        return super().run_node(n)

    def _new(self, kind, target, args, kwargs=None) -> Proxy:
        p = self.tracer.create_proxy(kind, target, args, kwargs or {})
        self._created.append(p.node)
        return p

    def placeholder(self, target, args, kwargs):
        p = super().placeholder(target, args, kwargs)
        p.node.meta["spec"] = node_specs(self.current)
        p.node.meta["val"] = self.current.meta.get("val")
        return p

    def get_attr(self, target, args, kwargs):
        p = super().get_attr(target, args, kwargs)
        p.node.meta["spec"] = node_specs(self.current)
        return p

    def spec(self, value) -> TensorSpec:
        if isinstance(value, Proxy):
            s = value.node.meta["spec"]
            return s[0]
        raise ConversionError(f"expected a tensor, got {value!r}")

    def call_function(self, target, args, kwargs):
        n = self.current
        if target is operator.getitem and isinstance(args[0], (tuple, list)):
            return args[0][args[1]]
        if isinstance(target, torch._ops.OpOverload):
            expected = node_specs(n)
            return self.convert(target, args, kwargs, expected, n.name, 0)
        p = super().call_function(target, args, kwargs)
        p.node.meta["spec"] = node_specs(n)
        return p

    # -- conversion -----------------------------------------------------------------------
    def convert(self, target, args, kwargs, expected, name, depth):
        if depth > 8:
            raise ConversionError(f"{self.table.source}: decompositions of aten::"
                                  f"{aten_key(target)} recurse more than 8 levels")
        key = aten_key(target)
        bound = bind(target, args, kwargs)
        reasons = []
        for index, entry in self.table.by_aten.get(key, []):
            failed = [(k, v) for k, v in entry.when if not _same(bound.get(k), v)]
            if failed:
                reasons.append(f"line {entry.line}: when {failed[0][0]}={failed[0][1]!r} "
                               f"(got {bound.get(failed[0][0])!r})")
                continue
            if entry.kind == "unsupported":
                self.table.hits[index] = self.table.hits.get(index, 0) + 1
                self.applied.append(index)
                return self.keep_eager(target, args, kwargs, expected, name, key,
                                       f"{entry.reason} ({self.table.source}:{entry.line})")
            mark = len(self._created)
            try:
                result = self.apply(entry, target, bound, expected, depth)
            except Declined as d:
                self.rollback(mark)
                reasons.append(f"line {entry.line}: {d}")
                continue
            results = result if isinstance(result, (tuple, list)) else (result,)
            self.check(entry, key, results, expected)
            self.table.hits[index] = self.table.hits.get(index, 0) + 1
            self.applied.append(index)
            return result
        if key not in self.table.by_aten:
            reason = f"no conversion for aten::{key} in {self.table.source}"
        else:
            reason = "; ".join(reasons)
        if self.strict:
            raise ConversionError(f"{name}: {reason} (strict mode)")
        return self.keep_eager(target, args, kwargs, expected, name, key, reason)

    def keep_eager(self, target, args, kwargs, expected, name, key, reason):
        flat, _ = torch.utils._pytree.tree_flatten((args, kwargs))
        for a in flat:
            if isinstance(a, _Dropped):
                raise ConversionError(f"{name} (aten::{key}, run eagerly) uses {a.where}")
        self.eager.append(EagerRecord(name, key, reason))
        n_out = len(target._schema.returns)
        if len(expected) < n_out or None in expected:
            # the trace left no value on the node (torch 1.13's fake-tensor fallback for
            # native_layer_norm): the op run on meta tensors of its inputs says the results
            expected = self.specs_by_running(target, args, kwargs, expected)
        p = self._new("call_function", target, args, kwargs)
        p.node.meta["spec"] = expected
        p.node.meta["eager_reason"] = reason
        if len(target._schema.returns) > 1:
            outs = []
            for i, s in enumerate(expected):
                g = self._new("call_function", operator.getitem, (p, i))
                g.node.meta["spec"] = [s]
                outs.append(g)
            return tuple(outs)
        return p

    def specs_by_running(self, target, args, kwargs, expected) -> list:
        def on_meta(v):
            if isinstance(v, Proxy):
                spec = v.node.meta.get("spec", [None])[0]
                return meta(spec) if spec is not None else None
            return v
        m_args, m_kwargs = torch.utils._pytree.tree_map(on_meta, (args, kwargs))
        try:
            result = run_on_meta(target, m_args, m_kwargs)
        except (RuntimeError, TypeError, NotImplementedError):
            return expected       # no better answer: the specs stay unknown
        results = result if isinstance(result, (tuple, list)) else (result,)
        return [spec_of(r) for r in results]

    def rollback(self, mark: int) -> None:
        for node in reversed(self._created[mark:]):
            self.new_graph.erase_node(node)
        del self._created[mark:]

    def check(self, entry, key, results, expected) -> None:
        """The converted results must have the shapes/dtypes the ATen op had."""
        for i, (r, e) in enumerate(zip(results, expected)):
            if isinstance(r, _Dropped) or e is None:
                continue
            got = self.spec(r)
            if tuple(got.shape) != tuple(e.shape) or got.dtype != e.dtype:
                raise ConversionError(
                    f"{self.table.source}:{entry.line}: aten::{key} result {i} converts to "
                    f"{got} but the ATen op produced {e}")

    def value(self, expr, bound: dict, steps: dict):
        k = expr[0]
        if k == "lit":
            return expr[1]
        if k == "arg":
            if expr[1] in steps:
                r = steps[expr[1]]
                return r[0] if isinstance(r, (tuple, list)) else r
            return bound[expr[1]]
        if k == "step":
            r = steps[expr[1]]
            return r[expr[2]] if isinstance(r, (tuple, list)) else r
        if k == "list":
            return [self.value(e, bound, steps) for e in expr[1]]
        if k == "dim":
            v = self.value(expr[1], bound, steps)
            rank = len(self.spec(self.value(("arg", expr[2]), bound, steps)).shape) + expr[3]
            n = max(rank, 1)

            def norm(d):
                if not -n <= d < n:
                    raise ConversionError(f"dim {d} out of range for rank {rank}")
                return d % n
            if v is None:
                return []
            return [norm(d) for d in v] if isinstance(v, (list, tuple)) else norm(v)
        if k == "dtype":
            o = self.value(expr[2], bound, steps)
            return o if o is not None else self.spec(self.value(("arg", expr[1]), bound,
                                                                steps)).dtype
        raise ConversionError(f"unknown expression {expr!r}")

    def apply(self, entry: Conversion, target, bound, expected, depth):
        if entry.kind == "map":
            m = entry.map
            ports = [self.value(e, bound, {}) for _, e in m.inputs]
            attrs = [self.value(e, bound, {}) for _, e in m.attrs]
            result = self.emit(m.op, tuple(ports) + tuple(attrs), entry)
            op = self.table.ops[m.op]
            outs = dict(zip(op.outputs, result if isinstance(result, tuple) else (result,)))
            picked = [outs[o] if o is not None else
                      _Dropped(f"result {i} of aten::{entry.aten} (not produced by "
                               f"{self.table.vendor}.{m.op}, {self.table.source}:{entry.line})")
                      for i, o in enumerate(m.outputs)]
            return picked[0] if len(picked) == 1 else tuple(picked)
        if entry.kind == "decomp":
            steps: dict = {}
            result = None
            for i, s in enumerate(entry.steps):
                if s.op:
                    ports = [self.value(e, bound, steps) for _, e in s.inputs]
                    attrs = [self.value(e, bound, steps) for _, e in s.attrs]
                    result = self.emit(s.op, tuple(ports) + tuple(attrs), entry)
                else:
                    sub = aten_op(s.aten)
                    kw = {k: self.value(e, bound, steps) for k, e in s.inputs}
                    sub_args, sub_kwargs = call_args(sub, [], kw)
                    sub_expected = self.fake_run(sub, sub_args, sub_kwargs)
                    result = self.convert(sub, tuple(sub_args), sub_kwargs, sub_expected,
                                          f"{entry.aten}/step{i + 1}", depth + 1)
                if s.name:
                    steps[s.name] = result
            return result
        if entry.kind == "custom":
            handler = resolve(entry.custom)
            return handler(HandlerContext(self, target, bound, entry))
        raise ConversionError(f"unknown conversion kind {entry.kind}")

    def fake_run(self, target, args, kwargs) -> list:
        def conv(v):
            return meta(self.spec(v)) if isinstance(v, Proxy) else v
        out = target(*[conv(v) for v in args], **{k: conv(v) for k, v in kwargs.items()})
        outs = out if isinstance(out, (tuple, list)) else (out,)
        return [spec_of(o) for o in outs]

    def emit(self, opname: str, args: tuple, entry: Conversion):
        op = self.table.ops.get(opname)
        if op is None:
            raise ConversionError(f"{self.table.source}:{entry.line}: unknown vendor op {opname}")
        if entry.kind == "custom" and opname not in entry.uses:
            raise ConversionError(f"{entry.custom} emitted {opname}, which its entry's 'uses' "
                                  f"({self.table.source}:{entry.line}) does not list")
        ports, attrs = op.split(args)
        for p in op.inputs:
            v = ports[p.name]
            if isinstance(v, _Dropped):
                raise ConversionError(f"{self.table.vendor}.{opname} (from aten::{entry.aten}) "
                                      f"reads {v.where}")
            if v is None and not p.optional:
                raise ConversionError(f"{self.table.vendor}.{opname}: input '{p.name}' is None")
        specs_in = {k: (self.spec(v) if v is not None else None) for k, v in ports.items()}
        try:
            out_specs = op.infer_specs(specs_in, attrs)
        except InferenceError as e:
            raise ConversionError(f"{self.table.source}:{entry.line}: aten::{entry.aten} -> "
                                  f"{e}") from None
        if self.kernels is not None and op.diopi is not None:
            if op.diopi.function not in self.kernels:
                raise Declined(f"the vendor library has no {op.diopi.function}")
            named = dict(specs_in)
            named.update(zip(op.outputs, out_specs))
            for pname, dtypes in op.diopi.dtypes:
                s = named.get(pname)
                if s is not None and str(s.dtype).replace("torch.", "") not in dtypes:
                    raise Declined(f"{op.diopi.function} does not take {s.dtype} for '{pname}'")
        p = self._new("call_function", op, tuple(args))
        p.node.meta["spec"] = out_specs
        p.node.meta["entry"] = entry.line
        if len(op.outputs) == 1:
            return p
        outs = []
        for i, s in enumerate(out_specs):
            g = self._new("call_function", operator.getitem, (p, i))
            g.node.meta["spec"] = [s]
            outs.append(g)
        return tuple(outs)

    def output(self, target, args, kwargs):
        flat, _ = torch.utils._pytree.tree_flatten(args)
        for a in flat:
            if isinstance(a, _Dropped):
                raise ConversionError(f"the graph returns {a.where}")
        return super().output(target, args, kwargs)


def _same(value, literal) -> bool:
    if literal is None or value is None:
        return value is literal
    if isinstance(literal, bool) or isinstance(value, bool):
        return value is literal or (type(value) is bool and value == literal)
    return value == literal


def convert(gm: torch.fx.GraphModule, table: Table, *, kernels=None, strict=False):
    """Returns (converted GraphModule, Converter with eager records)."""
    eliminate_dead_code(gm.graph)      # e.g. is_same_size checks autograd leaves behind
    normalize_scalars(gm)
    functionalize_inplace(gm)
    conv = Converter(gm, table, kernels=kernels, strict=strict)
    out = conv.transform()
    eliminate_dead_code(out.graph)
    out.recompile()
    return out, conv


def eliminate_dead_code(graph: torch.fx.Graph) -> None:
    """Removes unused nodes, keeping ATen ops that mutate their arguments."""
    for n in reversed(list(graph.nodes)):
        if n.op in ("placeholder", "output") or n.users:
            continue
        if isinstance(n.target, torch._ops.OpOverload) and n.target._schema.is_mutable:
            continue
        graph.erase_node(n)


def infer_graph(gm: torch.fx.GraphModule) -> None:
    """(Re)computes meta['spec'] of every vendor node from its inputs (after rewrites)."""
    for n in gm.graph.nodes:
        if n.op != "call_function":
            continue
        if is_vendor_op(n.target):
            op = n.target
            ports, attrs = op.split(n.args)
            specs = {k: (v.meta["spec"][0] if isinstance(v, torch.fx.Node) else None)
                     for k, v in ports.items()}
            n.meta["spec"] = op.infer_specs(specs, attrs)
        elif n.target is operator.getitem and isinstance(n.args[0], torch.fx.Node):
            n.meta["spec"] = [n.args[0].meta["spec"][n.args[1]]]
