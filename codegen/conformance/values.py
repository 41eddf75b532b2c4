"""Test values of the non-tensor arguments of a case.

A function's own values are catalogue data (`conformance.values` in specs/ops.yaml: the string
values ATen's gelu `approximate` takes, polygamma's orders, ...). What stays here is the
generic vocabulary: argument names many families share with one meaning (`alpha`, `other`,
`reduction`, `eps`, ...), the values every function with such an argument is tested with
unless its catalogue entry says otherwise.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from ..model import DiopiArg
from .aten_facts import dtype_class, parse_default

if TYPE_CHECKING:
    from .plan import FnPlan

# Values of named ATen `int` arguments (a schema default goes first).
INT_VALUES = {
    "reduction": [1, 0, 2],        # at::Reduction: Mean (the functional default), None, Sum
    "diagonal": [0, 1, -1],        # diag, triu, tril: the main diagonal, above, below
}
# Values of named ATen `float` arguments.
FLOAT_VALUES = {
    "eps": [1e-5],
}
# Values of named Scalar arguments: (floating, integral) lists; a schema default goes first.
SCALAR_VALUES = {
    "alpha": ([0.5], [2]),
    "beta": ([0.5], [2]),
    "value": ([0.75, -1.25], [3, -2]),
    "other": ([1.0, -1.5], [3, -2]),   # 1.0: ties with small_int inputs
    "threshold": ([0.1], [1]),
}
DEFAULT_SCALAR = ([0.75], [3])

_GIVE = "give them in its catalogue entry's `conformance: values:` (specs/README.md)"


def attr_values(p: FnPlan, a: DiopiArg, dtype: str) -> list:
    """Candidate values of a non-tensor DIOPI argument for a case of `dtype`, default first."""
    aten = p.aten_args.get(p.diopi_to_aten.get(a.name, ""))
    has_default, default = parse_default(aten.default if aten is not None else None)
    name = aten.name if aten is not None else a.name
    k = a.kind
    cls = dtype_class(dtype)
    given = p.fn.conformance.value_list(a.name)   # the catalogue's, else the generic ones
    if a.name in p.constants:
        return [p.constants[a.name]]
    if p.rule == "optimizer":
        if given is None:
            raise p.err(f"no test values for optimizer argument '{a.name}'; {_GIVE}")
        return given
    if k == "generator":
        return [None]
    if k == "scalar_double":   # a Scalar DIOPI passes as double: the floating test values
        floats, _ints = given or SCALAR_VALUES.get(name, DEFAULT_SCALAR)
        values = [v for v in floats if v is not None]
        return ([default] if has_default else []) + [v for v in values if v != default]
    if k == "scalar":
        if cls == "bool":
            values = [True]
        else:
            floats, ints = given or SCALAR_VALUES.get(name, DEFAULT_SCALAR)
            values = list(floats if cls == "float" else ints)
            if dtype == "uint8":
                values = [v for v in values if v is None or v >= 0]
        if has_default:
            values = [default] + [v for v in values if v != default or type(v) is not type(default)]
        if a.optional and None not in values:
            values.append(None)
        if not a.optional:
            values = [v for v in values if v is not None]
        return values
    if k == "enum" and a.ctype == "diopiRoundMode_t" or k == "str":
        if given is None:
            if has_default:
                return [default]
            raise p.err(f"no test values for str argument '{name}'; {_GIVE}")
        return given
    if k in ("int", "enum", "int_opt"):
        if name == "dim":
            return ([default] if has_default and default not in (-1, 0) else []) + [-1, 0]
        values = given if given is not None else INT_VALUES.get(name)
        if values is not None:
            values = list(values)
            if has_default and default in values:
                values.remove(default)
            return ([default] if has_default else []) + values
        if has_default:
            return [default]
        raise p.err(f"no test values for int argument '{name}'; {_GIVE}")
    if k in ("bool", "bool_opt"):
        if given is not None:
            return given
        return [default, not default] if has_default and default is not None else [False, True]
    if k in ("float", "float_opt"):
        if given is not None:
            return given
        if name in FLOAT_VALUES:
            return list(FLOAT_VALUES[name])
        return [default] if has_default else [0.5]
    if k in ("dtype", "dtype_opt"):
        return [default] if has_default else [dtype]
    if k == "size":
        return given if given is not None else [[]]
    raise p.err(f"no test values for a '{k}' argument ('{a.name}')")


def _together(p: FnPlan, names: list[str], choices: list[list]) -> list[dict]:
    """`conformance.together`: the i-th values of those arguments go into one case (roll's
    shifts and dims), the other arguments at their first value."""
    together = p.fn.conformance.together
    idx = [names.index(n) for n in together]
    lists = [p.fn.conformance.value_list(n) for n in together]   # as listed, of one length
    base = [c[0] for c in choices]
    for i, values in zip(idx, lists):
        base[i] = values[0]
    combos = [dict(zip(names, base))]
    for k in range(1, len(lists[0])):
        combo = dict(combos[0])
        for i, values in zip(idx, lists):
            combo[names[i]] = values[k]
        combos.append(combo)
    return combos


def attr_combos(p: FnPlan, dtype: str, skip: tuple[str, ...] = ()) -> list[dict]:
    """Attribute assignments for the base shape: the cartesian product when small, else the
    defaults plus one argument varied at a time. Never all optional scalars absent at once
    (ATen rejects clamp(min=None, max=None))."""
    names, choices = [], []
    for a in p.attrs:
        if a.name in skip:
            continue
        names.append(a.name)
        choices.append(attr_values(p, a, dtype))
    optional_scalars = [i for i, a in enumerate(a for a in p.attrs if a.name not in skip)
                        if a.kind == "scalar" and a.optional]
    together = p.fn.conformance.together
    if together and all(n in names for n in together):
        return _together(p, names, choices)
    total = 1
    for c in choices:
        total *= len(c)
    if total <= 12:
        combos = [dict(zip(names, vals)) for vals in itertools.product(*choices)]
    else:
        base = [c[0] for c in choices]
        combos = [dict(zip(names, base))]
        for i, c in enumerate(choices):
            for v in c[1:]:
                vals = list(base)
                vals[i] = v
                combos.append(dict(zip(names, vals)))
    if len(optional_scalars) > 1:
        combos = [c for c in combos
                  if any(c[names[i]] is not None for i in optional_scalars)]
    return combos
