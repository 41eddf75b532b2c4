"""Device memory checker: which code holds device memory, and bad raw frees.

Turn it on for a whole run with ``OPWEAVE_MEMCHECK=1`` (read once when the library loads), or
from Python at any time::

    opweave.memcheck.enable()
    mark = opweave.memcheck.snapshot()
    train_step()
    opweave.memcheck.since(mark)        # what the step allocated and still holds, by site
    opweave.memcheck.report()           # everything still held (printed, and returned)

Each device allocation made while it is on is recorded with its C++ stack and the Python stack
of the thread that made it (allocations made while it was off are not tracked). A report lists
the memory still held by live allocations (not the caching allocator's free blocks), grouped by
allocation site, with counts and bytes. With the checker on, the report is printed to stderr at
exit. ``opweave.caching_allocator_delete`` of a pointer it never handed out, or a second
delete of one, raises RuntimeError with the stacks of the allocation and of both frees (the
error is kept in the report as well). Off, the allocator pays one flag test per allocation.

Python stacks are read by taking the GIL in the allocating thread (torch releases it around
every op), as ``torch.cuda.memory._record_memory_history`` does; a thread that never ran
Python (autograd's device threads, during ``backward``) has a C++ stack only.
"""

from __future__ import annotations

import atexit
import dataclasses
import json
import os
import sys

import torch

_C = torch.ops.opweave

# Frames in these directories are library code: a site is named by the innermost frame
# outside them (the user's line that created the tensor), the others stay in the stack.
_LIBRARY_DIRS = [os.path.dirname(torch.__file__) + os.sep, os.path.dirname(__file__) + os.sep]
_C.memcheck_library_dirs(":".join(_LIBRARY_DIRS))


@dataclasses.dataclass(frozen=True)
class Frame:
    file: str
    line: int
    function: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line} in {self.function}"


@dataclasses.dataclass(frozen=True)
class Stack:
    site: str                   # "file:line in function" of the innermost user frame
    python: list[Frame]         # innermost first
    cpp: list[str]              # innermost first, up to the Python interpreter

    @staticmethod
    def _from(d: dict | None) -> "Stack | None":
        if d is None:
            return None
        return Stack(d["site"], [Frame(**f) for f in d["python"]], list(d["cpp"]))


@dataclasses.dataclass(frozen=True)
class Site:
    """Live allocations made by one stack."""
    count: int
    bytes: int             # as requested
    block_bytes: int       # as held by the allocator (size-class rounded)
    first_seq: int
    last_seq: int
    devices: list[int]
    streams: list[int]
    stack: Stack


@dataclasses.dataclass(frozen=True)
class FreeError:
    """A bad caching_allocator_delete: "double free" or "foreign pointer"."""
    kind: str
    api: str
    ptr: str
    detail: str
    stack: Stack                     # the offending free
    first_free_stack: Stack | None   # double free: the first one
    alloc_stack: Stack | None        # the allocation the pointer belongs to, when known


@dataclasses.dataclass(frozen=True)
class Report:
    since: int
    live_count: int
    live_bytes: int
    live_block_bytes: int
    sites: list[Site]
    errors: list[FreeError]
    text: str

    def __str__(self) -> str:
        return self.text


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """A point in the allocation sequence: since(snapshot) reports only later allocations."""
    seq: int


_exit_hook = False


def _report_at_exit() -> None:
    # Runs before the interpreter tears modules down, so memory held by module globals is
    # still held (and reported); the library's own exit report then stays quiet.
    if is_enabled():
        sys.stderr.write(_C.memcheck_report_text(0, "at exit", True))
        sys.stderr.flush()


def _register_exit_report() -> None:
    global _exit_hook
    if not _exit_hook:
        atexit.register(_report_at_exit)
        _exit_hook = True


def enable() -> None:
    """Record device allocations from now on (and report what is held at exit)."""
    _C.memcheck_enable(True)
    _register_exit_report()


def disable() -> None:
    """Stop recording and forget the live records (errors are kept)."""
    _C.memcheck_enable(False)


def is_enabled() -> bool:
    return bool(_C.memcheck_enabled())


def snapshot() -> Snapshot:
    return Snapshot(int(_C.memcheck_sequence()))


_STDERR = object()  # sys.stderr when called (pytest and others replace it)


def report(since: Snapshot | int | None = None, file=_STDERR) -> Report:
    """Device memory still held by tracked allocations (made after `since`, if given), grouped
    by allocation site, largest first, and the free errors found meanwhile. Prints the human
    form to `file` (default sys.stderr; None: print nothing) and returns the records."""
    if file is _STDERR:
        file = sys.stderr
    seq = since.seq if isinstance(since, Snapshot) else int(since or 0)
    d = json.loads(_C.memcheck_report(seq))
    text = _C.memcheck_report_text(seq, "", False)
    if file is not None:
        file.write(text)
        file.flush()
    sites = [Site(s["count"], s["bytes"], s["block_bytes"], s["first_seq"], s["last_seq"],
                  s["devices"], s["streams"], Stack._from(s["stack"])) for s in d["sites"]]
    errors = [FreeError(e["kind"], e["api"], e["ptr"], e["detail"], Stack._from(e["stack"]),
                        Stack._from(e["first_free_stack"]), Stack._from(e["alloc_stack"]))
              for e in d["errors"]]
    return Report(seq, d["live_count"], d["live_bytes"], d["live_block_bytes"], sites, errors, text)


def since(mark: Snapshot, file=_STDERR) -> Report:
    """What was allocated after `mark` and is still held: report(since=mark)."""
    return report(since=mark, file=file)


def errors(since: Snapshot | int | None = None) -> list[FreeError]:
    """The free errors found (after `since`, if given), oldest first."""
    return report(since=since, file=None).errors


if is_enabled():  # OPWEAVE_MEMCHECK=1
    _register_exit_report()
