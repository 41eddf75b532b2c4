"""Cases that leave each optional DIOPI argument out and that give it, and that use every test
value of a mode argument.

A shape class builds its cases from the function's test values, and for an optional argument
those are often only one of the two forms: diopiAny's `dim` was always given, so aten_ref
passed all of its cases while failing every call with a null `dim` (the form torch's
`t.any()` takes). After the shape class has run, each missing form is added as a variant of
the dtype's first case with that one argument changed.

Leaving an argument out needs a reference that takes the call without it: the function's
other overload that the wrapper calls without it (`any.all_out`, `sort.values`), else the
bound ATen overload when its argument is optional (`Tensor? min`, `float? eps`). An argument neither
covers is reported in the case file as `uncovered`, with the reason, rather than skipped
silently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..model import DiopiArg
from .values import attr_values

if TYPE_CHECKING:
    from .case_builder import CaseBuilder
    from .plan import FnPlan

# A value for an optional argument whose test values are all "absent" (nan_to_num's
# replacements): any legal value exercises the non-null path.
PRESENT = {"float_opt": 0.25, "bool_opt": True}
# Arguments no case can give: a generator handle is the runner's to make, and a random
# kernel's output is compared by its distribution, which a seed does not change.
NEVER_GIVEN = ("generator",)


def _nullable(p: FnPlan, name: str) -> bool:
    aten = p.aten_args.get(p.diopi_to_aten.get(name, ""))
    return aten is not None and aten.type.is_nullable()


def _absent_plan(p: FnPlan, name: str) -> Optional[FnPlan]:
    """The plan whose reference takes a call without `name`, if the function has one."""
    from .plan import ConformanceError, plan_function

    # the overload the wrapper calls without it first: that is the call vendors receive (and
    # torch 1.13's sort.values_stable asserts on a null `stable` it declares optional)
    for b in p.fn.bindings:
        if b is p.binding or b.derived:
            continue
        if any(n == name and s.kind == "absent" for n, s in b.sources):
            try:
                return plan_function(p.fam, p.fn, p.source, binding=b)
            except ConformanceError:
                return None
    return p if _nullable(p, name) else None


def _variant(b: CaseBuilder, base: dict, tag: str, plan: FnPlan, **change) -> Optional[str]:
    """Adds `base` with the attributes / inputs in `change` replaced, judged by `plan`'s
    reference; returns why it cannot, or None."""
    from .case_builder import CaseBuilder as Builder
    from .plan import ConformanceError

    case = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base.items()}
    for name, value in change.items():
        where = "inputs" if name in case["inputs"] else "attrs"
        case[where][name] = value
    case["tag"] = tag
    if plan is not b.p:
        try:
            aten = Builder(plan, b.dtype).aten_only()
        except ConformanceError as e:
            return e.reason
        case.pop("aten", None)
        if aten:
            case["aten"] = aten
        case["reference"] = plan.reference
    b.cases.append(case)
    return None


def _given(b: CaseBuilder, a: DiopiArg):
    values = [v for v in attr_values(b.p, a, b.dtype) if v is not None]
    return values[0] if values else PRESENT.get(a.kind)


def cover_optionals(b: CaseBuilder) -> dict[str, str]:
    """Adds the missing forms to `b.cases`; returns {argument: why it stays uncovered}."""
    p = b.p
    uncovered: dict[str, str] = {}
    if p.binding is None or not b.cases:
        return uncovered   # runtime-only functions: their references take no null
    base = b.cases[0]
    for a in p.fn.args:
        if not a.optional or a.kind in NEVER_GIVEN or a.direction == "out":
            continue
        if a.is_tensor and a.kind != "tensor":
            continue       # Tensor?[] indices: the advanced-index class places its nulls
        where = "inputs" if a.is_tensor else "attrs"
        values = [c[where].get(a.name) for c in b.cases if a.name in c[where]]
        if values and all(v is not None for v in values):
            plan = _absent_plan(p, a.name)
            why = ("neither its ATen overload nor another the function binds takes the call "
                   "without it") if plan is None else None
            why = why or _variant(b, base, f"{base['tag']}_no_{a.name}", plan, **{a.name: None})
            if why:
                uncovered[a.name] = f"never left out: {why}"
        if not a.is_tensor and values and all(v is None for v in values):
            value = _given(b, a)
            if value is None:
                uncovered[a.name] = ("never given: no test value (give it in the function's "
                                     "`conformance: values:`)")
            else:
                _variant(b, base, f"{base['tag']}_{a.name}_given", p, **{a.name: value})
    for a in p.attrs:
        if a.kind not in ("enum", "str") or a.name in p.constants:
            continue
        seen = [c["attrs"].get(a.name) for c in b.cases]
        for value in attr_values(p, a, b.dtype):
            if value not in seen:
                _variant(b, base, f"{base['tag']}_{a.name}_{value}", p, **{a.name: value})
    return uncovered
