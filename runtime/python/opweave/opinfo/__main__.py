"""python3 -m opweave.opinfo [--vendor V] [--dtype D[,D...]] [--mode M[,M...]] [--ops REGEX]
                            [--jobs N] [--json FILE] [--check | --update] [--verbose]

Runs PyTorch's OpInfo entries on the device and prints a summary per configuration (every
dtype with every mode given; several in one run share the worker processes and their torch
import). With --check, compares every op's outcome with the data in tests/opinfo/expected/
(exit 1 on a regression in any configuration); --update rewrites that data from this run (a
reviewed commit, like a golden-file update). --json writes {"DTYPE-MODE": {op: result}}.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time

from . import OUTCOMES
from .worker import MODES


def summary(results: dict) -> str:
    counts = {o: 0 for o in OUTCOMES}
    for r in results.values():
        counts[r["outcome"]] += 1
    passing = counts["pass"] + counts["fallback"]
    share = 100.0 * counts["fallback"] / passing if passing else 0.0
    overloads = {name for r in results.values() for name in r.get("fallback", [])}
    parts = [f"{counts[o]} {o}" for o in OUTCOMES if counts[o] or o in ("pass", "crash")]
    return (f"{len(results)} ops: " + ", ".join(parts)
            + f"; passing with a CPU fallback: {counts['fallback']}/{passing} ({share:.0f}%),"
            f" {len(overloads)} distinct ATen overloads")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m opweave.opinfo")
    p.add_argument("--vendor", help="vendor library (default: OPWEAVE_VENDOR, else sim)")
    p.add_argument("--dtype", default="float32", help="a dtype, or several: float32,int64")
    p.add_argument("--mode", default="forward", help=f"one of {', '.join(MODES)}, or several")
    p.add_argument("--ops", help="regex (full match) on OpInfo names")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--json", help="write the per-op results here")
    p.add_argument("--verbose", action="store_true", help="print every op that does not pass")
    p.add_argument("--check", action="store_true", help="compare with tests/opinfo/expected")
    p.add_argument("--update", action="store_true", help="rewrite tests/opinfo/expected")
    args = p.parse_args(argv)
    dtypes, modes = args.dtype.split(","), args.mode.split(",")
    for mode in modes:
        if mode not in MODES:
            p.error(f"--mode: {mode!r} is not one of {', '.join(MODES)}")

    import torch
    for dtype in dtypes:  # checked here: in the worker a bad name would be a crash per op
        if not isinstance(getattr(torch, dtype, None), torch.dtype):
            p.error(f"--dtype: {dtype!r} is not a torch dtype")

    from . import driver, expected
    from .database import by_key
    names = sorted(by_key())
    if args.ops:
        names = [n for n in names if re.fullmatch(args.ops, n)]
    vendor = args.vendor or expected.current_vendor()
    configs = [(dtype, mode) for dtype in dtypes for mode in modes]
    start = time.monotonic()
    runs = driver.run(names, configs, vendor, args.jobs)
    print(f"opinfo {vendor}: {len(configs)} configuration(s) [{time.monotonic() - start:.0f} s]")
    failed = False
    for (dtype, mode), results in runs.items():
        print(f"opinfo {vendor} {dtype} {mode}: {summary(results)}")
        if args.verbose:
            for name, r in results.items():
                if r["outcome"] not in ("pass", "fallback", "skip"):
                    print(f"  {r['outcome']:<8} {name}: {r.get('detail', '')}")
        config = expected.Config(vendor, dtype, mode)
        if args.update:
            expected.update(config, results, partial=bool(args.ops))
        elif args.check:
            report = expected.compare(config, results, partial=bool(args.ops))
            print(report.text())
            failed |= bool(report.regressions)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({f"{d}-{m}": r for (d, m), r in runs.items()}, f, indent=1, sort_keys=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
