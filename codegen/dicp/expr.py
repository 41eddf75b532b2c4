"""Attribute-value expressions of a DICP catalogue: parsing, the names they read, their types.

    self              an ATen argument (or, in a decomposition, an earlier step's result)
    1, 2.5, false, [] literals ('text' for a string literal, null for None)
    list(a, b, ...)   a list of expressions
    dim(d, t[, k])    dim(s) d normalised against the rank of tensor t (+k: unsqueeze)
    dtype(t[, d])     d when it is not None, else the dtype of tensor t

An expression is a tuple (see parse_expr); the runtime evaluates the same tuples
(runtime/python/opweave/dicp/convert.py). Types are strings: tensor, int, ints, float,
bool, scalar, str, dtype, none, other, with '?' when the value may be None.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

from torchgen.model import Argument, BaseTy, BaseType, ListType, OptionalType

from ..errors import did_you_mean
from .records import Attr
from .vocab import ACCEPTS

class ExprError(Exception):
    pass


_TOKEN = re.compile(r"\s*(?:(?P<num>-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)|(?P<str>'[^']*')|"
                    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.\d+)?)|(?P<p>[(),\[\]]))")
FUNCS = {"list": (0, None), "dim": (2, 3), "dtype": (1, 2)}


def parse_expr(value: Any):
    """YAML value -> expression tuple: ("arg", name) ("lit", v) ("list", items) ("dim", e, ref,
    k) ("dtype", ref, override) ("step", name, index)."""
    if value is None or isinstance(value, (bool, int, float)):
        return ("lit", value)
    if isinstance(value, list):
        return ("list", tuple(parse_expr(v) for v in value))
    if not isinstance(value, str):
        raise ExprError(f"{value!r} is not an expression")
    tokens, pos, text = [], 0, value
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ExprError(f"cannot parse '{text}' at '{text[pos:]}'")
        kind = m.lastgroup
        tokens.append((kind, m.group(kind)))
        pos = m.end()
    expr, rest = _parse(tokens, text)
    if rest:
        raise ExprError(f"unexpected '{rest[0][1]}' in '{text}'")
    return expr


def _parse(tokens, text):
    if not tokens:
        raise ExprError(f"incomplete expression '{text}'")
    (kind, tok), rest = tokens[0], tokens[1:]
    if kind == "num":
        return ("lit", float(tok) if any(c in tok for c in ".eE") else int(tok)), rest
    if kind == "str":
        return ("lit", tok[1:-1]), rest
    if kind == "p":
        raise ExprError(f"unexpected '{tok}' in '{text}'")
    if rest and rest[0] == ("p", "("):
        if tok not in FUNCS:
            raise ExprError(f"unknown function '{tok}' in '{text}' (known: {', '.join(FUNCS)})")
        args, rest = [], rest[1:]
        while True:
            if not rest:
                raise ExprError(f"missing ')' in '{text}'")
            if rest[0] == ("p", ")"):
                rest = rest[1:]
                break
            if args:
                if rest[0] != ("p", ","):
                    raise ExprError(f"expected ',' in '{text}'")
                rest = rest[1:]
            arg, rest = _parse(rest, text)
            args.append(arg)
        lo, hi = FUNCS[tok]
        if len(args) < lo or (hi is not None and len(args) > hi):
            raise ExprError(f"{tok}() takes {lo}{'..' + str(hi) if hi != lo else ''} arguments "
                            f"in '{text}'")
        if tok == "list":
            return ("list", tuple(args)), rest
        if tok == "dim":
            ref = args[1]
            if ref[0] != "arg":
                raise ExprError(f"dim()'s second argument must name a tensor in '{text}'")
            k = args[2] if len(args) == 3 else ("lit", 0)
            if k[0] != "lit" or not isinstance(k[1], int) or isinstance(k[1], bool):
                raise ExprError(f"dim()'s third argument must be an integer in '{text}'")
            return ("dim", args[0], ref[1], k[1]), rest
        ref = args[0]
        if ref[0] != "arg":
            raise ExprError(f"dtype()'s first argument must name a tensor in '{text}'")
        return ("dtype", ref[1], args[1] if len(args) == 2 else ("lit", None)), rest
    if tok in ("true", "false", "null", "None"):
        return ("lit", {"true": True, "false": False}.get(tok)), rest
    name, _, idx = tok.partition(".")
    if idx:
        return ("step", name, int(idx)), rest
    return ("arg", name), rest


def expr_names(e) -> list:
    if e[0] in ("arg", "step"):
        return [e[1]]
    if e[0] == "list":
        return [n for x in e[1] for n in expr_names(x)]
    if e[0] == "dim":
        return expr_names(e[1]) + [e[2]]
    if e[0] == "dtype":
        return [e[1]] + expr_names(e[2])
    return []


# ------------------------------------------------------------------------------ ATen types
def aten_type(t) -> str:
    """torchgen type -> expression type (tensor, int, ints, ..., '?' suffix when optional)."""
    if isinstance(t, OptionalType):
        inner = aten_type(t.elem)
        return inner if inner.endswith("?") else inner + "?"
    if isinstance(t, ListType):
        if isinstance(t.elem, BaseType) and t.elem.name in (BaseTy.int, BaseTy.SymInt):
            return "ints"
        if isinstance(t.elem, BaseType) and t.elem.name == BaseTy.Tensor:
            return "tensors"
        return "other"
    if isinstance(t, BaseType):
        return {BaseTy.Tensor: "tensor", BaseTy.int: "int", BaseTy.SymInt: "int",
                BaseTy.float: "float", BaseTy.bool: "bool", BaseTy.Scalar: "scalar",
                BaseTy.str: "str", BaseTy.ScalarType: "dtype"}.get(t.name, "other")
    return "other"


def arg_has_default(a: Argument) -> bool:
    return a.default is not None


# ------------------------------------------------------------------------------ typing
def expr_type(e, env: dict, report: Callable[[str], None]) -> Optional[str]:
    """Type of expression `e` given `env` (name -> type); None after `report`ing why."""
    k = e[0]
    if k == "lit":
        v = e[1]
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "bool"
        if isinstance(v, int):
            return "int"
        if isinstance(v, float):
            return "float"
        return "str"
    if k in ("arg", "step"):
        name = e[1]
        if name not in env:
            report(f"'{name}' is not an argument{did_you_mean(name, list(env))}")
            return None
        return env[name]
    if k == "list":
        types = [expr_type(x, env, report) for x in e[1]]
        if any(t is None for t in types):
            return None
        if all(t == "int" for t in types):
            return "ints"
        report("a list must hold integers")
        return None
    if k == "dim":
        t = expr_type(e[1], env, report)
        if env.get(e[2]) != "tensor":
            report(f"dim() normalises against a tensor; '{e[2]}' is not one")
            return None
        if t in ("int", "ints", "ints?", "int?"):
            return t.rstrip("?")   # None normalises to [] (every dim)
        if t is not None:
            report(f"dim() takes an int or int list, got {t}")
        return None
    if k == "dtype":
        if env.get(e[1]) != "tensor":
            report(f"dtype() reads a tensor; '{e[1]}' is not one")
            return None
        o = expr_type(e[2], env, report)
        if o not in ("none", "dtype", "dtype?"):
            if o is not None:
                report(f"dtype()'s override must be a dtype, got {o}")
            return None
        return "dtype"
    return None


def assign_problem(attr: Attr, etype: str) -> Optional[str]:
    """Why a value of type `etype` cannot go into attribute `attr` (None if it can)."""
    base, opt = etype.rstrip("?"), etype.endswith("?") or etype == "none"
    if etype == "none":
        if not attr.optional and attr.type != "round_mode":
            return f"attribute '{attr.name}' ({attr.spelled}) cannot be null"
        return None
    if base not in ACCEPTS[attr.type]:
        return f"attribute '{attr.name}' is {attr.spelled} but the value is {etype}"
    if opt and not attr.optional and attr.type != "round_mode":
        return (f"the value may be None but attribute '{attr.name}' is not optional (test it "
                f"in 'when' or make it '{attr.type}?')")
    return None
