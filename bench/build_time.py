"""Build times on this machine: a clean build, then one op edit rebuilt.

Clones the committed tree into a temporary directory (your working tree and build dirs are
left alone), builds it from scratch with ccache disabled (`cmake --build`, as `make build`
does), then edits one op family in the clone's specs/ops.yaml the way a user would (its
output rule), regenerates and rebuilds. Prints `name: value` lines (run by
`make bench-build`, or OPWEAVE_BENCH_BUILD=1 make bench). --quick (CI) configures, edits and
regenerates in the clone but compiles nothing: the edit, the regeneration and the reporting
are checked, the build times are not measured.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time

from benchlib import QUICK

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The edit: the `leaky_relu` out= wrapper's output rule, spelled another (equivalent) way,
# so the regenerated wrapper differs and must be recompiled but behaves the same.
EDIT_FAMILY = "leaky_relu"
EDIT_FROM = "out: like(self)"
EDIT_TO = "out: broadcast(self, negative_slope)"


def timed(cmd: list[str], cwd: str, env: dict) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return time.perf_counter() - start, proc.stdout


def edit_one_op(spec: str) -> None:
    text = open(spec).read()
    start = text.index(f"- name: {EDIT_FAMILY}\n")
    end = text.find("\n  - name: ", start + 1)
    block = text[start:end]
    if EDIT_FROM not in block:
        sys.exit(f"bench/build_time.py: '{EDIT_FROM}' not found in family {EDIT_FAMILY}")
    with open(spec, "w") as f:
        f.write(text[:start] + block.replace(EDIT_FROM, EDIT_TO, 1) + text[end:])


def main() -> int:
    # --source DIR: time a fresh clone you made (kept afterwards, with the edit reverted)
    if len(sys.argv) == 3 and sys.argv[1] == "--source":
        measure(os.path.abspath(sys.argv[2]))
        subprocess.run(["git", "checkout", "-q", "--", "specs", "generated"], cwd=sys.argv[2],
                       check=True)
        return 0
    with tempfile.TemporaryDirectory(prefix="opweave-build-time-") as tmp:
        src = os.path.join(tmp, "src")
        subprocess.run(["git", "clone", "-q", REPO, src], check=True)
        measure(src)
    return 0


def measure(src: str) -> None:
    env = dict(os.environ, CCACHE_DISABLE="1")
    build = os.path.join(src, "build")
    configure, _ = timed(["cmake", "-S", src, "-B", build, "-G", "Ninja",
                          "-DCMAKE_BUILD_TYPE=Release", f"-DPython3_EXECUTABLE={sys.executable}"],
                         src, env)
    print(f"configure_seconds: {configure:.1f}")
    if QUICK:
        edit_one_op(os.path.join(src, "specs", "ops.yaml"))
        gen, gen_out = timed([sys.executable, "-m", "codegen", "gen"], src, env)
        changed = re.findall(r"wrote (\S+)", gen_out)
        print(f"one_op_edit_gen_seconds: {gen:.1f}  ({len(changed)} files: {' '.join(changed)})")
        print("clean_build_seconds: not measured (--quick)")
        return
    clean, out = timed(["cmake", "--build", build, "-j", str(os.cpu_count())], src, env)
    steps = len(re.findall(r"^\[\d+/\d+\]", out, re.M))
    print(f"clean_build_seconds: {clean:.1f}  ({steps} build steps, {os.cpu_count()} cores)")
    edit_one_op(os.path.join(src, "specs", "ops.yaml"))
    gen, gen_out = timed([sys.executable, "-m", "codegen", "gen"], src, env)
    rebuilt, out = timed(["cmake", "--build", build, "-j", str(os.cpu_count())], src, env)
    changed = re.findall(r"wrote (\S+)", gen_out)
    compiled = re.findall(r"Building CXX object (\S+)", out)
    print(f"one_op_edit_gen_seconds: {gen:.1f}  ({len(changed)} files: {' '.join(changed)})")
    print(f"one_op_edit_rebuild_seconds: {rebuilt:.1f}  ({len(compiled)} objects)")
    print(f"one_op_edit_total_seconds: {gen + rebuilt:.1f}")
    print(f"target.clean_build: {'met' if clean <= 360 else 'NOT met'} ({clean:.0f} s, goal <= 360 s)")
    print(f"target.one_op_edit: {'met' if gen + rebuilt <= 40 else 'NOT met'} "
          f"({gen + rebuilt:.0f} s, goal <= 40 s)")


if __name__ == "__main__":
    sys.exit(main())
