"""Errors the generator reports to users: always file:line, op name and reason."""

from __future__ import annotations


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
