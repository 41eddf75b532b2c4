"""Emitter: conformance cases (generated/conformance/<family>.yaml) and the C ABI call thunks
of the conformance runner (generated/conformance/diopi_calls.inc).

Every case is derived from the catalogue: the DIOPI signature, the ATen overload the
function binds (its reference on CPU), the output-shaping rule of that binding (which tells
how the input shapes relate: elementwise, broadcast, reduce, mm, ...), the function's
`conformance:` facts, the dtypes and the per-dtype tolerances. Cases carry no values:
`python3 -m opweave.conformance golden` draws the inputs from a seed derived from the case id
and runs the reference. Building them is codegen/conformance/'s job; this module renders.
"""

from __future__ import annotations

from .conformance.cases import family_cases
from .conformance.thunks import call_expr, signature
from .model import Catalogue
from .output_set import OutputSet
from .render import render


def emit(cat: Catalogue, env, out: OutputSet) -> None:
    summary = []
    for fam in cat.families:
        entries = []
        for fn, fc in zip(fam.functions, family_cases(fam, cat.source)):
            entries.append({"fn": fn, "plan": fc.plan, "signature": signature(fn),
                            "cases": fc.cases, "unsupported": fc.unsupported})
            counts: dict[str, int] = {}
            for c in fc.cases:
                counts[c["dtype"]] = counts.get(c["dtype"], 0) + 1
            summary.append({"fn": fn.name, "family": fam.name, "cases": len(fc.cases),
                            "dtypes": counts, "unsupported": fc.unsupported})
        tolerances = {d: [t.atol, t.rtol] for d, t in fam.tolerances}
        out.add(f"conformance/{fam.name}.yaml",
                render(env, "conformance/family.yaml.j2", fam=fam, entries=entries,
                       tolerances=tolerances))
    totals: dict[str, int] = {}
    for s in summary:
        for d, n in s["dtypes"].items():
            totals[d] = totals.get(d, 0) + n
    out.add("conformance/index.yaml",
            render(env, "conformance/index.yaml.j2", summary=summary,
                   total=sum(s["cases"] for s in summary),
                   totals=dict(sorted(totals.items()))))
    calls = [(fn, [call_expr(a, i) for i, a in enumerate(fn.args)]) for fn in cat.functions]
    out.add("conformance/diopi_calls.inc",
            render(env, "conformance/diopi_calls.inc.j2", calls=calls))
