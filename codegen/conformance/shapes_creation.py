"""Shape classes of creation ops: arange, linspace, randperm, eye (no tensor inputs)."""

from __future__ import annotations

from .aten_facts import dtype_class
from .case_builder import CaseBuilder
from .values import attr_values


def arange(b: CaseBuilder) -> None:
    cls = dtype_class(b.dtype)
    table = [("base", 0, 10, 1), ("step", -3, 7, 2), ("negstep", 10, 0, -3),
             ("empty", 5, 5, 1), ("large", 0, 34000 if cls == "int" else 2000, 1)]
    if cls == "float":
        table += [("fraction", 0.0, 1.0, 0.125), ("fraction_neg", 1.5, -2.0, -0.25)]
    for tag, start, end, step in table:
        attrs = {"start": start, "end": end, "step": step}
        attrs = {a.name: attrs.get(a.name, attr_values(b.p, a, b.dtype)[0])
                 for a in b.p.attrs}
        b.add(tag, {}, attrs)


def linspace(b: CaseBuilder) -> None:
    cls = dtype_class(b.dtype)
    table = [("base", 0, 10, 6), ("reverse", 5, -5, 11), ("one", 2, 7, 1), ("empty", 0, 1, 0),
             ("large", -1000, 1000, 2001)]
    if cls == "float":
        table += [("fraction", -3.5, 2.25, 8), ("odd", 0.0, 1.0, 7)]
    for tag, start, end, steps in table:
        attrs = {"start": start, "end": end, "steps": steps}
        # logspace's base: its first test value (the schema default)
        b.add(tag, {}, {a.name: attrs[a.name] if a.name in attrs else
                        attr_values(b.p, a, b.dtype)[0] for a in b.p.attrs})


def randperm(b: CaseBuilder) -> None:
    for tag, n in (("base", 10), ("one", 1), ("empty", 0), ("large", 3000)):
        attrs = {a.name: (n if a.name == "n" else attr_values(b.p, a, b.dtype)[0])
                 for a in b.p.attrs}
        b.add(tag, {}, attrs)


def eye(b: CaseBuilder) -> None:
    for tag, n, m in (("base", 4, 4), ("wide", 2, 5), ("tall", 5, 3), ("one", 1, 1),
                      ("empty", 0, 3), ("empty_cols", 3, 0), ("large", 129, 65)):
        b.add(tag, {}, {"n": n, "m": m})
