"""Closed vocabularies the catalogue may name: output-shaping rules and computed-output helpers.

Each is implemented once, by hand, in runtime/include/opweave/output_rules.h (C++) and
described here so the generator can check names and arity before emitting code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import OutputRule


@dataclass(frozen=True)
class RuleSpec:
    arity: tuple[int, ...]   # accepted argument counts
    doc: str


OUTPUT_RULES = {
    "like": RuleSpec((1,), "same shape and dtype as the argument"),
    "broadcast": RuleSpec((2, 3), "broadcast shape of the arguments, promoted dtype"),
    "compare": RuleSpec((2,), "broadcast shape of the arguments, bool dtype"),
    "select": RuleSpec((3,), "select(condition, a, b): broadcast shape, dtype promoted from a and b"),
    "reduce": RuleSpec((3, 4), "reduce(input, dim, keepdim[, dtype]): reduction over dims"),
    "mm": RuleSpec((2,), "matrix product [n, m] x [m, p] -> [n, p]"),
    "bmm": RuleSpec((2,), "batched matrix product [b, n, m] x [b, m, p] -> [b, n, p]"),
    "scalar": RuleSpec((1,), "0-dim tensor with the argument's dtype"),
    "nll_loss": RuleSpec((3,), "nll_loss(input, target, reduction): [N] or 0-dim"),
    "cast": RuleSpec((2,), "cast(input, dtype): like input with the given dtype"),
}

COMPUTED_HELPERS = {
    "nll_loss_total_weight": RuleSpec((5,), "sum of target weights that nll_loss averages by"),
}

_CALL = re.compile(r"^\s*([A-Za-z_]\w*)\s*\(\s*([^()]*)\)\s*$")


class RuleError(Exception):
    pass


def parse_call(text: object, vocabulary: dict[str, RuleSpec], what: str) -> OutputRule:
    if not isinstance(text, str):
        raise RuleError(f"{what} must be a string like 'broadcast(self, other)', got {text!r}")
    m = _CALL.match(text)
    if not m:
        hint = ""
        if "(" in text and ")" not in text:
            hint = " (inside a YAML {flow: mapping} a comma ends the value: use block style)"
        raise RuleError(f"{what} '{text}' is not of the form name(arg, ...){hint}")
    name = m.group(1)
    args = tuple(a.strip() for a in m.group(2).split(",")) if m.group(2).strip() else ()
    spec = vocabulary.get(name)
    if spec is None:
        raise RuleError(f"unknown {what} '{name}' (known: {', '.join(sorted(vocabulary))})")
    if len(args) not in spec.arity:
        want = " or ".join(str(n) for n in spec.arity)
        raise RuleError(f"{what} '{name}' takes {want} arguments, got {len(args)}")
    return OutputRule(name, args)
