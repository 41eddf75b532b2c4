"""Fusion rewrites on vendor-op graphs, named by `fusions` in specs/dicp/<vendor>.yaml.

Patterns and replacements are written with the vendor's op classes and matched with
torch.fx's subgraph rewriter. On torch >= 2 `replace_pattern_with_filters` checks each match;
torch 1.13 has only `replace_pattern`, so there the same matcher (SubgraphMatcher, which
replace_pattern uses) finds the matches, the filter drops the ones whose shapes/dtypes do
not allow the fused op, and the survivors are replaced exactly as replace_pattern does.
Each fusion returns how many matches it rewrote.
"""

from __future__ import annotations

from typing import Callable, Optional

import torch.fx
from torch.fx import subgraph_rewriter


def rewrite(gm: torch.fx.GraphModule, pattern: Callable, replacement: Callable,
            keep: Optional[Callable] = None) -> int:
    """Replaces every match of `pattern` that `keep(nodes_map)` accepts (pattern node ->
    graph node) by `replacement`; returns the number of replacements."""
    pattern_graph = torch.fx.symbolic_trace(pattern).graph
    targets = {n.target for n in gm.graph.nodes if n.op == "call_function"}
    if any(n.op == "call_function" and n.target not in targets for n in pattern_graph.nodes):
        return 0   # (torch 1.13's matcher fails on a pattern with no candidate at all)
    with_filters = getattr(subgraph_rewriter, "replace_pattern_with_filters", None)
    if keep is None:
        return len(subgraph_rewriter.replace_pattern(gm, pattern, replacement))
    if with_filters is not None:  # torch >= 2
        return len(with_filters(gm, pattern, replacement,
                                [lambda m, g, p: keep(m.nodes_map)]))
    from torch.fx.passes.utils.matcher_utils import SubgraphMatcher
    replacement_graph = torch.fx.symbolic_trace(replacement).graph
    matcher = SubgraphMatcher(pattern_graph, match_output=False, match_placeholder=False,
                              remove_overlapping_matches=True)
    matches = [m for m in matcher.match(gm.graph) if keep(m.nodes_map)]
    graph = gm.graph
    repl_ph = [n for n in replacement_graph.nodes if n.op == "placeholder"]
    for m in matches:
        val_map = dict(zip(repl_ph, m.placeholder_nodes))
        users = {u for n in m.returning_nodes for u in n.users}
        first = next(n for n in graph.nodes if n in users)
        with graph.inserting_before(first):
            copied = graph.graph_copy(replacement_graph, val_map)
        copied = (copied,) if isinstance(copied, torch.fx.Node) else tuple(copied)
        for old, new in zip(m.returning_nodes, copied):
            old.replace_all_uses_with(new)
        for pn in reversed(pattern_graph.nodes):
            if pn.op not in ("placeholder", "output"):
                graph.erase_node(m.nodes_map[pn])
    gm.recompile()
    return len(matches)


def _node(nodes_map, target):
    return next(g for p, g in nodes_map.items() if p.op == "call_function" and p.target is target)


def _spec(value):
    return value.meta["spec"][0] if isinstance(value, torch.fx.Node) else None


# ------------------------------------------------------------------------------------ sim
def mm_add_to_addmm(gm: torch.fx.GraphModule, table) -> int:
    """Add(Mm(a, b), bias, alpha=1) -> Addmm(bias, a, b, beta=1, alpha=1): matmul + bias in
    one kernel, when the bias broadcasts to the product and has its dtype."""
    Mm, Add, Addmm = table.ops["Mm"], table.ops["Add"], table.ops["Addmm"]

    def pattern(a, b, bias):
        return Add(Mm(a, b), bias, 1)

    def replacement(a, b, bias):
        return Addmm(bias, a, b, 1, 1)

    def keep(nodes_map) -> bool:
        add, mm = _node(nodes_map, Add), _node(nodes_map, Mm)
        bias = add.args[1]
        prod, b = _spec(mm), _spec(bias)
        if b is None or b.dtype != prod.dtype or len(b.shape) > 2:
            return False
        return _spec(add).shape == prod.shape
    return rewrite(gm, pattern, replacement, keep)


def addmm_activation(gm: torch.fx.GraphModule, table) -> int:
    """Relu(Addmm(...)) / Gelu(Addmm(...)) -> AddmmAct(..., activation): a linear layer and its
    activation in one kernel, when the product's dtype is one the fused kernel takes and the
    pre-activation value is read by nothing else (a GeluBackward reading it keeps them apart)."""
    Addmm, AddmmAct = table.ops["Addmm"], table.ops["AddmmAct"]
    Relu, Gelu = table.ops["Relu"], table.ops["Gelu"]
    dtypes = {d for _, ds in AddmmAct.diopi.dtypes for d in ds}

    def keep(nodes_map) -> bool:
        addmm = _node(nodes_map, Addmm)   # (its dtype is mat1's: an Addmm made by an earlier
        mat1 = _spec(addmm.args[1])         # fusion has no spec yet)
        return len(addmm.users) == 1 and mat1 is not None and \
            str(mat1.dtype).replace("torch.", "") in dtypes

    def fuse(activation, wrap):   # (the matcher compares constants: beta = alpha = 1)
        def pattern(bias, a, b):
            return wrap(Addmm(bias, a, b, 1, 1))

        def replacement(bias, a, b):
            return AddmmAct(bias, a, b, 1, 1, activation)
        return rewrite(gm, pattern, replacement, keep)

    return (fuse("relu", lambda y: Relu(y)) +
            fuse("gelu", lambda y: Gelu(y, "none")) +
            fuse("gelu_tanh", lambda y: Gelu(y, "tanh")))


def mul_sigmoid_to_silu(gm: torch.fx.GraphModule, table) -> int:
    """Mul(x, Sigmoid(x)) -> Silu(x): one kernel instead of two (and no intermediate)."""
    Mul, Sigmoid, Silu = table.ops["Mul"], table.ops["Sigmoid"], table.ops["Silu"]

    def pattern(x):
        return Mul(x, Sigmoid(x))

    def replacement(x):
        return Silu(x)
    return rewrite(gm, pattern, replacement)


# --------------------------------------------------------------------------------- ascend
def matmul_add_to_biased_matmul(gm: torch.fx.GraphModule, table) -> int:
    """Ascend-style: Add(MatMul(a, b), bias) -> MatMulV2(a, b, bias): the cube unit adds a
    1-D bias for free."""
    MatMul, Add, MatMulV2 = table.ops["MatMul"], table.ops["Add"], table.ops["MatMulV2"]

    def pattern(a, b, bias):
        return Add(MatMul(a, b, False, False), bias)

    def replacement(a, b, bias):
        return MatMulV2(a, b, bias, False, False)

    def keep(nodes_map) -> bool:
        add, mm = _node(nodes_map, Add), _node(nodes_map, MatMul)
        b = _spec(add.args[1])
        return b is not None and len(b.shape) == 1 and b.dtype == _spec(mm).dtype and \
            _spec(add).shape == _spec(mm).shape
    return rewrite(gm, pattern, replacement, keep)
