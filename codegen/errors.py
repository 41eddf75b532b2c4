"""Errors the generator reports to users: always file:line, op name and reason."""

from __future__ import annotations

import difflib


class SpecError(Exception):
    """A problem in the catalogue, located precisely enough to fix without a traceback."""

    def __init__(self, path: str, line: int | None, op: str | None, reason: str):
        self.path = path
        self.line = line
        self.op = op
        self.reason = reason
        super().__init__(self.format())

    def format(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        who = f" {self.op}:" if self.op else ""
        return f"{where}:{who} {self.reason}"


class SpecErrors(Exception):
    """Several SpecErrors collected in one pass, so a user fixes them all at once."""

    def __init__(self, errors: list[SpecError]):
        self.errors = errors
        super().__init__("\n".join(e.format() for e in errors))


def did_you_mean(name: object, known) -> str:
    """The hint appended to an unknown-name error: " (did you mean 'x'?)", or "" when nothing
    in `known` (any iterable of names) is close."""
    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""
