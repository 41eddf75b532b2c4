"""From a converted FX graph to something that runs: rewrites, shape fitting, execution plans.

  post_convert   the vendor's fusion rewrites and data-format hook (dotted names from its
                 catalogue), then shape/dtype inference of every vendor node again;
  fit            dynamic shapes: graphs converted at several batch sizes must agree node for
                 node; integers that differ (view sizes, shapes) become affine Syms a*s0+c
                 and a third sample checks the fit (else FitError: the graph is not affine
                 in the batch size);
  Executor       splits the graph into runs of vendor ops (segments, compiled to C and run by
                 one helper call each) and ATen nodes left unconverted (run eagerly on the
                 device, in order); or, in reference mode, runs vendor ops' CPU references.
"""

from __future__ import annotations

import operator
from typing import Optional

import torch
import torch.fx

from . import native
from .codegen_c import Segment, Sym, evaluate, generate
from .convert import infer_graph
from .infer import TensorSpec
from .table import Table, is_vendor_op, resolve


class FitError(RuntimeError):
    pass


# ------------------------------------------------------------------------------ rewrites
def post_convert(gm: torch.fx.GraphModule, table: Table) -> dict:
    """Runs the vendor's fusions and data-format hook; returns {pass name: rewrites}."""
    done = {}
    for name in table.fusions:
        done[name] = int(resolve(name)(gm, table) or 0)
    done[table.data_format] = int(resolve(table.data_format)(gm, table) or 0)
    done["fold_transposes"] = fold_transposes(gm)
    gm.graph.lint()
    infer_graph(gm)
    gm.recompile()
    return done


def fold_transposes(gm: torch.fx.GraphModule) -> int:
    """Transpose(Transpose(x, a, b), a, b) -> x for runtime views (executable vendors): the
    backward of a linear layer transposes a product back and forth; each view the graph
    makes at run time is a tensor the helper creates. A graph input is not returned in place
    of a view of it (the caller would get the input itself)."""
    folded = 0
    outputs = {n for n in gm.graph.nodes if n.op == "output"}
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or not is_vendor_op(n.target) or n.target.view != "transpose":
            continue
        inner = n.args[0]
        if not (isinstance(inner, torch.fx.Node) and inner.op == "call_function" and
                inner.target is n.target):
            continue
        if {n.args[1], n.args[2]} != {inner.args[1], inner.args[2]}:
            continue
        src = inner.args[0]
        if isinstance(src, torch.fx.Node) and src.op == "placeholder" and \
                any(u in outputs for u in n.users):
            continue
        n.replace_all_uses_with(src)
        gm.graph.erase_node(n)
        if not inner.users:
            gm.graph.erase_node(inner)
        folded += 1
    if folded:
        gm.recompile()
    return folded


# ------------------------------------------------------------------------- dynamic shapes
def fit(gms: list, batches: list) -> torch.fx.GraphModule:
    """The first graph, with integers that vary with the batch size replaced by Syms."""
    lists = [list(g.graph.nodes) for g in gms]
    if len({len(x) for x in lists}) != 1:
        raise FitError(f"the graph has {', '.join(str(len(x)) for x in lists)} nodes at batch "
                       f"sizes {batches}")
    positions = [{n: i for i, n in enumerate(x)} for x in lists]

    def same_node(vals):
        i0 = positions[0].get(vals[0])
        return all(isinstance(v, torch.fx.Node) and positions[k].get(v) == i0
                   for k, v in enumerate(vals))

    def fit_value(vals, where):
        v0 = vals[0]
        if isinstance(v0, torch.fx.Node):
            if not same_node(vals):
                raise FitError(f"{where}: inputs differ between batch sizes")
            return v0
        if isinstance(v0, (list, tuple)):
            if any(not isinstance(v, type(v0)) or len(v) != len(v0) for v in vals):
                raise FitError(f"{where}: {vals} differ in length")
            out = [fit_value([v[i] for v in vals], where) for i in range(len(v0))]
            return type(v0)(out) if isinstance(v0, list) else tuple(out)
        if isinstance(v0, int) and not isinstance(v0, bool) and all(
                isinstance(v, int) and not isinstance(v, bool) for v in vals):
            if all(v == v0 for v in vals):
                return v0
            (b0, b1), (x0, x1) = batches[:2], vals[:2]
            if (x1 - x0) % (b1 - b0):
                raise FitError(f"{where}: {vals} is not affine in the batch size {batches}")
            a = (x1 - x0) // (b1 - b0)
            s = Sym(a, x0 - a * b0)
            for b, x in zip(batches[2:], vals[2:]):
                if s.eval(b) != x:
                    raise FitError(f"{where}: {vals} is not affine in the batch size {batches}")
            return s
        if any(v != v0 for v in vals[1:]):
            raise FitError(f"{where}: {vals} differ between batch sizes {batches}")
        return v0

    for nodes in zip(*lists):
        n0 = nodes[0]
        where = f"node {n0.name} ({n0.target})"
        if any(n.op != n0.op or n.target != n0.target for n in nodes):
            raise FitError(f"{where}: the graph's structure depends on the batch size")
        n0.args = fit_value([n.args for n in nodes], where)
        n0.kwargs = fit_value([n.kwargs for n in nodes], where)
        specs = [n.meta.get("spec") for n in nodes]
        if specs[0] is not None:
            fitted = []
            for j, s0 in enumerate(specs[0]):
                if s0 is None:
                    fitted.append(None)
                    continue
                ss = [s[j] for s in specs]
                if any(s.dtype != s0.dtype for s in ss):
                    raise FitError(f"{where}: dtype depends on the batch size")
                fitted.append(TensorSpec(fit_value([tuple(s.shape) for s in ss], where), s0.dtype))
            n0.meta["spec"] = fitted
    return gms[0]


# ------------------------------------------------------------------------------ execution
def _materialize(value, env, s0, device):
    if isinstance(value, torch.fx.Node):
        return env[value]
    if isinstance(value, Sym):
        return value.eval(s0)
    if isinstance(value, (list, tuple)):
        out = [_materialize(v, env, s0, device) for v in value]
        return out if isinstance(value, list) else tuple(out)
    if isinstance(value, dict):
        return {k: _materialize(v, env, s0, device) for k, v in value.items()}
    if isinstance(value, torch.device) and device is not None and value.type == "cpu":
        return device   # traced with CPU stand-ins: factory ops belong on the inputs' device
    return value


def _is_constant(n: torch.fx.Node) -> bool:
    """A node that reads no graph value and draws no random numbers: a module constant or a
    factory (`arange`, `ones`, ...), whose value does not depend on where it runs."""
    if n.op == "get_attr":
        return True
    target = n.target
    return (n.op == "call_function" and isinstance(target, torch._ops.OpOverload) and
            not n.all_input_nodes and
            torch.Tag.nondeterministic_seeded not in getattr(target, "tags", ()))


def hoist_constants(nodes: list) -> list:
    """Graph order with the constants first (their relative order kept). An eager node ends
    a compiled segment; the tiny GPT builds its causal mask with `ones` in every attention
    layer and its positions with `arange`, which split the forward into a segment per layer
    where they stand, but into one after them when they run first."""
    first = [n for n in nodes if n.op in ("call_function", "get_attr") and _is_constant(n)]
    chosen = set(first)
    return [n for n in nodes if n.op == "placeholder"] + first + \
        [n for n in nodes if n.op != "placeholder" and n not in chosen]


class Executor:
    """Runs one converted graph (inference, forward or backward)."""

    def __init__(self, gm: torch.fx.GraphModule, table: Table, *, native_code: bool,
                 label: str, stats: Optional[dict] = None):
        self.gm = gm
        self.table = table
        self.label = label
        nodes = list(gm.graph.nodes)
        self.placeholders = [n for n in nodes if n.op == "placeholder"]
        out = next(n for n in nodes if n.op == "output")
        self.outputs = list(out.args[0]) if isinstance(out.args[0], (list, tuple)) else [out.args[0]]
        self.native = native_code
        self.steps: list = []
        self.segments: list[Segment] = []
        self.eager_nodes = [n for n in nodes if n.op == "call_function" and not is_vendor_op(
            n.target) and n.target is not operator.getitem]
        if native_code:
            self._plan(hoist_constants(nodes))
            for k, seg in enumerate(self.segments):
                seg.source, _kernels = generate(seg, f"{label} segment {k}")
                seg.graph_id, seg.disk_hit = native.load_graph(seg.source)
                if stats is not None:
                    stats["segments"] = stats.get("segments", 0) + 1
                    stats["disk_hits" if seg.disk_hit else "c_compiles"] = \
                        stats.get("disk_hits" if seg.disk_hit else "c_compiles", 0) + 1
            self._ops = native.load_helper()
            self._fast = (len(self.steps) == 1 and self.steps[0][0] == "seg" and
                          self.steps[0][1].inputs == self.placeholders and
                          self.steps[0][1].outputs == self.outputs)
        else:
            self.steps = [("node", n) for n in nodes if n.op in ("call_function", "get_attr")]
            self._fast = False
        self._consts: dict = {}

    def _plan(self, nodes) -> None:
        current: list = []
        in_seg: set = set()

        def close():
            if current:
                seg = Segment(list(current), [], [])
                self.segments.append(seg)
                self.steps.append(("seg", seg))
                current.clear()
        for n in nodes:
            if n.op not in ("call_function", "get_attr"):
                continue
            vendor = n.op == "call_function" and is_vendor_op(n.target) or (n.target is operator.getitem and
                                                n.args[0] in in_seg)
            if vendor:
                current.append(n)
                in_seg.add(n)
            else:
                close()
                self.steps.append(("node", n))
        close()
        used_later: dict = {}
        order = {n: i for i, n in enumerate(nodes)}
        for seg in self.segments:
            members = set(seg.nodes)
            for n in seg.nodes:
                for i in n.all_input_nodes:
                    if i not in members and i not in seg.inputs:
                        seg.inputs.append(i)
            seg.inputs.sort(key=order.get)   # graph order: placeholders first, in order
            last = max(order[n] for n in seg.nodes)
            outs = set(self.outputs)
            for n in seg.nodes:
                if n in outs or any(order[u] > last for u in n.users):
                    if len(n.meta["spec"]) == 1:
                        seg.outputs.append(n)
            used_later[id(seg)] = seg.outputs

    def native_map(self) -> Optional[tuple]:
        """(graph id, input map, output map) when the whole graph is one compiled segment
        (no eager node): graph input k is executor input in_map[k]; executor output j is
        graph output out_map[j] (>= 0) or executor input -out_map[j]-1 (passed through).
        None otherwise (the graph runs step by step through run())."""
        if not self.native or len(self.steps) != 1 or self.steps[0][0] != "seg":
            return None
        seg = self.steps[0][1]
        ph = {n: i for i, n in enumerate(self.placeholders)}
        if any(i not in ph for i in seg.inputs):
            return None
        outs = {n: j for j, n in enumerate(seg.outputs)}
        out_map = []
        for o in self.outputs:
            if o in outs:
                out_map.append(outs[o])
            elif o in ph:
                out_map.append(-ph[o] - 1)
            else:
                return None
        return seg.graph_id, [ph[i] for i in seg.inputs], out_map

    def run(self, inputs: list, s0: int = 0) -> list:
        if self._fast:
            return self._ops.run(self.steps[0][1].graph_id, list(inputs), [s0])
        env = dict(zip(self.placeholders, inputs))
        device = next((t.device for t in inputs if isinstance(t, torch.Tensor)), None)
        for kind, item in self.steps:
            if kind == "seg":
                outs = self._ops.run(item.graph_id, [env[i] for i in item.inputs], [s0])
                env.update(zip(item.outputs, outs))
            elif item.op == "get_attr":   # a constant tensor the function created
                key = (item, device)
                if key not in self._consts:
                    value = getattr(self.gm, item.target)
                    self._consts[key] = value.to(device) if device is not None else value
                env[item] = self._consts[key]
            else:
                args = _materialize(item.args, env, s0, device)
                kwargs = _materialize(item.kwargs, env, s0, device)
                env[item] = item.target(*args, **kwargs)
        return [env[o] if isinstance(o, torch.fx.Node) else o for o in self.outputs]

    def describe(self) -> str:
        lines = [f"{self.label}: {len(self.segments)} compiled segment(s), "
                 f"{len(self.eager_nodes)} eager node(s)"]
        for n in self.eager_nodes:
            lines.append(f"  eager {n.name}: {n.target} ({n.meta.get('eager_reason', '')})")
        return "\n".join(lines)
