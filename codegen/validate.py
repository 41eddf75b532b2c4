"""Field checks every spec loader shares (specs/ops.yaml, specs/dicp/*.yaml, kernel_support).

A loader subclasses Checker, reports through `err` and raises SpecErrors with everything it
collected at the end, so one `make gen` run names every problem with its file:line. The
rules here are the union of what any generated artifact needs, so a text that is fine in
one catalogue is fine in every other.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from .errors import SpecError, did_you_mean
from .yaml_loader import LineDict

C_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# YAML reads `{infer: f(a, b)}` as the key 'b)': say why instead of only "unknown field".
FLOW_COMMA_HINT = " (inside a YAML {flow: mapping} a comma ends the value: quote it)"


def bad_text(text: str) -> Optional[str]:
    """Why `text` cannot go into a generated C comment or string, or a generated Python
    literal or docstring (None if fine)."""
    if "*/" in text or "/*" in text:
        return "contains '/*' or '*/', which would break the generated C comment"
    if '"""' in text:
        return "contains triple quotes, which would end the generated Python docstring"
    for ch in text:
        if ch != "\n" and (ord(ch) < 0x20 or ord(ch) == 0x7F):
            return f"contains control character {ch!r}"
    if "\\" in text:
        return "contains a backslash, which would be an escape in a generated C or Python string"
    return None


class Checker:
    """Collects the SpecErrors of one file."""

    def __init__(self, path: str):
        self.path = path
        self.errors: list[SpecError] = []

    def err(self, line: Optional[int], who: Optional[str], reason: str) -> None:
        self.errors.append(SpecError(self.path, line, who, reason))

    def check_keys(self, d: LineDict, allowed: dict[str, bool], who: Optional[str],
                   what: str) -> bool:
        """Every key of `d` is in `allowed` (name -> required) and every required one is there."""
        ok = True
        for key in d:
            if key not in allowed:
                hint = FLOW_COMMA_HINT if ")" in str(key) else did_you_mean(key, list(allowed))
                self.err(d.line_of(key), who, f"unknown field '{key}' in {what}{hint}")
                ok = False
        for key, required in allowed.items():
            if required and key not in d:
                self.err(d.line, who, f"missing required field '{key}' in {what}")
                ok = False
        return ok

    def check_text(self, value: Any, line: int, who: Optional[str], field: str) -> str:
        """A non-empty prose string safe in every artifact, stripped ("" after an error)."""
        if not isinstance(value, str) or not value.strip():
            self.err(line, who, f"'{field}' must be a non-empty string")
            return ""
        why = bad_text(value)
        if why:
            self.err(line, who, f"'{field}' {why}")
            return ""
        return value.strip()
