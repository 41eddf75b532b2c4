"""Progress display of long captures and replays, on stderr.

`Progress` (known total: replay, conversion) is the conformance suite's bar: redrawn in
place on a terminal, a line every 10% otherwise. `Ticker` (open-ended: a capture) redraws a
count on a terminal and prints a line every `every_s` seconds otherwise. Both are silent
when OPWEAVE_TOOLS_PROGRESS=0; a Ticker also stays silent for sessions shorter than
`every_s` unless it writes to a terminal.
"""

from __future__ import annotations

import os
import sys
import time

from opweave.conformance.progress import Progress

__all__ = ["Progress", "Ticker", "enabled"]


def enabled(flag: bool | None = None) -> bool:
    if flag is not None:
        return flag
    return os.environ.get("OPWEAVE_TOOLS_PROGRESS", "1") != "0"


class Ticker:
    def __init__(self, label: str, enabled: bool | None = None, stream=None, every_s: float = 5.0):
        self.label = label
        self.on = globals()["enabled"](enabled)
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.every_s = every_s
        self.n = 0
        self.start = time.time()
        self.last = self.start
        self.drawn = False

    def tick(self, what: str = "") -> None:
        self.n += 1
        if not self.on:
            return
        now = time.time()
        if self.tty:
            if now - self.last >= 0.1:
                self.last = now
                self.stream.write(f"\r{self.label}: {self.n} calls {what}"[:118].ljust(118))
                self.stream.flush()
                self.drawn = True
        elif now - self.last >= self.every_s:
            self.last = now
            self.stream.write(f"{self.label}: {self.n} calls, {now - self.start:.0f} s {what}\n")
            self.stream.flush()
            self.drawn = True

    def done(self, summary: str) -> None:
        if not self.on:
            return
        if self.tty and self.drawn:
            self.stream.write("\r" + " " * 118 + "\r")
        self.stream.write(f"{self.label}: {summary}\n")
        self.stream.flush()
