"""Per-vendor expectations: vendors/<name>/expectations.yaml.

    skip:                       # cases not run; each needs a reason (shown in the report)
      - op: diopiGelu           # DIOPI name or regex (full match); required
        dtype: bfloat16         # optional: a dtype or a list of them
        case: large             # optional: regex searched in the case id (tag, hash, ...)
        reason: "tanh approximation only; exact gelu is on the roadmap"
    tolerance:                  # looser comparison for matching cases; reason required too
      - op: diopiMm
        dtype: float16
        atol: 2.0e-2
        rtol: 2.0e-2
        reason: "accumulates in float16"

The first matching entry wins. A file with an unknown field, an entry without `op` or
`reason`, a bad regex or a tolerance without numbers is rejected as a whole.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Optional

import yaml

from . import paths


class ExpectationsError(ValueError):
    pass


@dataclass(frozen=True)
class Rule:
    op: str
    dtypes: tuple[str, ...]
    case: str
    reason: str
    atol: Optional[float] = None
    rtol: Optional[float] = None

    def matches(self, case) -> bool:
        if not (case.fn.name == self.op or re.fullmatch(self.op, case.fn.name)):
            return False
        if self.dtypes and case.dtype not in self.dtypes:
            return False
        return not self.case or re.search(self.case, case.id) is not None


@dataclass
class Expectations:
    path: str
    skips: list[Rule]
    tolerances: list[Rule]

    def skip_reason(self, case) -> Optional[str]:
        for r in self.skips:
            if r.matches(case):
                return r.reason
        return None

    def tolerance(self, case) -> Optional[Rule]:
        for r in self.tolerances:
            if r.matches(case):
                return r
        return None


def _rule(entry, where: str, tolerance: bool) -> Rule:
    allowed = {"op", "dtype", "case", "reason"} | ({"atol", "rtol"} if tolerance else set())
    if not isinstance(entry, dict):
        raise ExpectationsError(f"{where}: must be a mapping with op and reason")
    unknown = set(entry) - allowed
    if unknown:
        raise ExpectationsError(f"{where}: unknown field(s) {', '.join(sorted(unknown))} "
                                f"(allowed: {', '.join(sorted(allowed))})")
    op = entry.get("op")
    if not isinstance(op, str) or not op:
        raise ExpectationsError(f"{where}: 'op' (DIOPI name or regex) is required")
    reason = entry.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise ExpectationsError(f"{where}: every entry needs a 'reason'")
    for field_name in ("op", "case"):
        if isinstance(entry.get(field_name), str):
            try:
                re.compile(entry[field_name])
            except re.error as e:
                raise ExpectationsError(f"{where}: bad regex in '{field_name}': {e}") from None
    dtype = entry.get("dtype", [])
    dtypes = (dtype,) if isinstance(dtype, str) else tuple(dtype or ())
    if not all(isinstance(d, str) for d in dtypes):
        raise ExpectationsError(f"{where}: 'dtype' must be a dtype name or a list of them")
    case = entry.get("case", "")
    if not isinstance(case, str):
        raise ExpectationsError(f"{where}: 'case' must be a regex string")
    atol = rtol = None
    if tolerance:
        try:
            atol, rtol = float(entry["atol"]), float(entry["rtol"])
        except (KeyError, TypeError, ValueError):
            raise ExpectationsError(f"{where}: a tolerance needs numeric 'atol' and 'rtol'") from None
        if atol < 0 or rtol < 0:
            raise ExpectationsError(f"{where}: atol and rtol must be >= 0")
    return Rule(op, dtypes, case, reason.strip(), atol, rtol)


def parse(doc, path: str) -> Expectations:
    name = os.path.relpath(path) if os.path.isabs(path) else path
    if doc is None:
        doc = {}
    if not isinstance(doc, dict):
        raise ExpectationsError(f"{name}: must be a mapping with 'skip' and 'tolerance' lists")
    unknown = set(doc) - {"skip", "tolerance"}
    if unknown:
        raise ExpectationsError(f"{name}: unknown top-level field(s) {', '.join(sorted(unknown))}")
    skips, tols = [], []
    for key, out, tolerance in (("skip", skips, False), ("tolerance", tols, True)):
        entries = doc.get(key) or []
        if not isinstance(entries, list):
            raise ExpectationsError(f"{name}: '{key}' must be a list")
        for i, e in enumerate(entries):
            out.append(_rule(e, f"{name}: {key}[{i}]", tolerance))
    return Expectations(path, skips, tols)


def path_for(vendor: str) -> str:
    return os.path.join(paths.vendors_dir(), vendor, "expectations.yaml")


def load(vendor: str) -> Expectations:
    path = path_for(vendor)
    if not os.path.isfile(path):
        return Expectations(path, [], [])
    with open(path, encoding="utf-8") as f:
        try:
            doc = yaml.safe_load(f)
        except yaml.YAMLError as e:
            raise ExpectationsError(f"{path}: not valid YAML: {e}") from None
    return parse(doc, path)
