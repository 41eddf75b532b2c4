"""A family's plans and cases: forward cases by shape class, backward cases from the
forward's, each with a stable content-hashed id.

A case id is `<diopi>-<dtype>-<tag>-<hash>`, the hash covering the whole case content, so
ids do not depend on the order cases are generated in and change exactly when a case does.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from ..model import OpFamily
from .backward import backward_cases
from .plan import ConformanceError, FnPlan, plan_function
from .shape_classes import build_cases


def case_id(fn: str, case: dict) -> str:
    content = json.dumps({"fn": fn, **case}, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(content.encode()).hexdigest()[:8]
    return f"{fn}-{case['dtype']}-{case['tag']}-{digest}"


def function_cases(fam: OpFamily, plans: dict[str, FnPlan], p: FnPlan,
                   memo: dict[str, list[dict]]) -> list[dict]:
    if p.fn.name in memo:
        return memo[p.fn.name]
    fwd_name = p.fn.conformance.forward   # resolved in the load phase (conformance_spec.py)
    if fwd_name and fwd_name not in plans:
        raise p.err(f"its forward {fwd_name} has no cases")
    if fwd_name:
        cases = backward_cases(p, plans[fwd_name],
                               function_cases(fam, plans, plans[fwd_name], memo))
    else:
        dtypes = sorted({d for a in p.inputs for d in (a.dtypes or fam.dtypes)} & set(fam.dtypes),
                        key=fam.dtypes.index) or list(fam.dtypes)
        cases = []
        for dtype in dtypes:
            cases += build_cases(p, dtype)
    seen, unique = set(), []
    for c in cases:
        c = dict(c)
        cid = case_id(p.fn.name, c)
        if cid in seen:
            continue
        seen.add(cid)
        unique.append({"id": cid, **c})
    memo[p.fn.name] = unique
    return unique


@dataclass
class FunctionCases:
    plan: FnPlan | None
    cases: list[dict]
    unsupported: str    # why the generator cannot cover the function ("" when it can)


def family_cases(fam: OpFamily, source: str) -> list[FunctionCases]:
    """Every function of `fam`, in catalogue order. A function the generator cannot cover
    gets no cases and says why (the runner reports it), instead of stopping `make gen` for a
    catalogue edit. `source` is the catalogue's path, for those reasons."""
    plans, unsupported = {}, {}
    for fn in fam.functions:
        try:
            plans[fn.name] = plan_function(fam, fn, source)
        except ConformanceError as e:
            unsupported[fn.name] = e.reason
    memo: dict[str, list[dict]] = {}
    out = []
    for fn in fam.functions:
        p = plans.get(fn.name)
        cases = []
        if p is not None:
            try:
                cases = function_cases(fam, plans, p, memo)
            except ConformanceError as e:
                unsupported[fn.name] = e.reason
        out.append(FunctionCases(p, cases, unsupported.get(fn.name, "")))
    return out
