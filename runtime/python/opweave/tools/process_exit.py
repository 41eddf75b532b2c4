"""Ending an op tool's process: its exit status is its verdict, so nothing after it may fail.

Under load, torch 2.6's teardown at interpreter exit aborted about one replay in three to one in
eighty-five ("terminate called without an active exception", exit 134 instead of the verdict;
2026-12-07, `opweave-replay` with planted faulty kernels on the sim, two at a time): the JSON
report was already written, so it is the process teardown, not the tool's work (most likely
autograd's device threads still leaving while the libraries' static objects are destroyed).
The commands therefore finish as Python's `sys.exit` would (atexit handlers, such as the
memory checker's report, and flushed output) and then leave without the C++ teardown.
"""

from __future__ import annotations

import atexit
import os
import sys


def exit_now(status: int | None) -> None:
    """What `sys.exit(status)` does at the end of a command, without the C++ teardown."""
    if status is None:
        status = 0
    elif not isinstance(status, int):  # a message, as sys.exit prints it
        print(status, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed or broken pipe: nothing more to say
            pass
    os._exit(status)
