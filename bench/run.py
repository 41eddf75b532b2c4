"""`make bench`: overhead figures, one `name: value` line each, ratios measured in one run.

Builds the instrumentation-stripped flavour next to the default one if it is missing, then
alternates runs of bench/tiny_op.py between the two builds and reports medians.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BUILD = os.environ.get("OPWEAVE_BUILD_DIR", os.path.join(REPO, "build"))
STRIPPED_BUILD = os.path.join(REPO, "build-stripped")
ROUNDS = int(os.environ.get("OPWEAVE_BENCH_ROUNDS", "3"))


def ensure_stripped_build() -> None:
    if not os.path.exists(os.path.join(STRIPPED_BUILD, "build.ninja")):
        subprocess.run(["cmake", "-S", REPO, "-B", STRIPPED_BUILD, "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Release", "-DOPWEAVE_BUILD_TESTS=OFF",
                        "-DOPWEAVE_STRIP_INSTRUMENTATION=ON"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", STRIPPED_BUILD], check=True, stdout=subprocess.DEVNULL)


def run_tiny(build: str) -> dict:
    env = dict(os.environ, OPWEAVE_BUILD_DIR=build)
    out = subprocess.run([sys.executable, os.path.join(REPO, "bench", "tiny_op.py")], env=env,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    ensure_stripped_build()
    default, stripped = [], []
    for _ in range(ROUNDS):  # interleaved: default, stripped, default, ...
        default.append(run_tiny(DEFAULT_BUILD))
        stripped.append(run_tiny(STRIPPED_BUILD))
    med = lambda runs, key: statistics.median(r[key] for r in runs)  # noqa: E731
    for key in default[0]:
        print(f"latency_ns.{key}: {med(default, key):.0f}")
    cpu = med(default, "cpu_native")
    add_out = med(default, "device_add_out")
    print(f"ratio.device_add_out_vs_cpu_native: {add_out / cpu:.3f}")
    if "device_bare_kernel" in default[0]:
        print(f"ratio.device_add_out_vs_bare_kernel: {add_out / med(default, 'device_bare_kernel'):.3f}")
    print(f"ratio.default_vs_stripped_add_out: {add_out / med(stripped, 'device_add_out'):.3f}")
    print(f"ratio.default_vs_stripped_add: "
          f"{med(default, 'device_add') / med(stripped, 'device_add'):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
