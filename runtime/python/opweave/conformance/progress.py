"""A one-line progress display: redrawn in place on a terminal, a line every ~10% otherwise."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, label: str, stream=None):
        self.total = max(total, 0)
        self.label = label
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.n = 0
        self.last_draw = 0.0
        self.next_pct = 10
        self.start = time.time()
        self.status = ""

    def set_status(self, text: str) -> None:
        self.status = text

    def step(self, what: str = "") -> None:
        self.n += 1
        if self.tty:
            now = time.time()
            if now - self.last_draw < 0.1 and self.n != self.total:
                return
            self.last_draw = now
            width = 24
            filled = int(width * self.n / self.total) if self.total else width
            bar = "#" * filled + "." * (width - filled)
            line = f"\r{self.label} [{bar}] {self.n}/{self.total} {self.status} {what}"
            self.stream.write(line[:118].ljust(118))
            self.stream.flush()
        elif self.total and self.n * 100 >= self.next_pct * self.total:
            self.stream.write(f"{self.label}: {self.n}/{self.total} ({self.next_pct}%) "
                              f"{self.status}\n")
            self.stream.flush()
            while self.n * 100 >= self.next_pct * self.total:
                self.next_pct += 10

    def done(self, summary: str) -> None:
        if self.tty:
            self.stream.write("\r" + " " * 118 + "\r")
        self.stream.write(f"{self.label}: {summary}\n")
        self.stream.flush()
