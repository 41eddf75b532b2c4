"""What the bench scripts share: the quick mode and the size knobs.

`--quick` (or OPWEAVE_BENCH_QUICK=1, which bench/run.py --quick passes to the scripts it runs)
makes a script finish in seconds with every figure still printed: CI runs it so no benchmark
can break unnoticed; the values it prints are not judged. OPWEAVE_BENCH_<NAME> overrides a
knob in either mode.
"""

from __future__ import annotations

import os
import sys

QUICK = "--quick" in sys.argv[1:] or os.environ.get("OPWEAVE_BENCH_QUICK") == "1"


def knob(name: str, full: int, quick: int) -> int:
    """OPWEAVE_BENCH_<name>, else `quick` in quick mode, else `full`."""
    return int(os.environ.get(f"OPWEAVE_BENCH_{name}", quick if QUICK else full))
