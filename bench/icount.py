"""Instruction counts per call of 1-element device ops and three small training steps, per
vendor, under callgrind; the CI gate against a baseline kept in the repo.

Times on a shared machine drift by tens of percent; instruction counts of the same binaries
repeat to a fraction of a percent, so a per-op regression of a few percent is caught before it
lands. build/bin/opweave_icount (bench/icount.cpp) runs a fixed batch of cases; callgrind
counts each case's loop on every thread (sim's stream worker that runs the kernels, autograd's
device thread that runs the backward). Native CPU runs the same cases as the yardstick for the
ratios.

  python3 bench/icount.py            print instructions per call and ratios to native CPU
  python3 bench/icount.py --check    also fail (exit 1) when a case costs more than its
                                     baseline by more than the margin
  python3 bench/icount.py --update   rewrite the baseline for this torch version (a reviewed
                                     commit: say why the counts moved)
  --quick                            accepted for bench/run.py --quick; the same run (counts
                                     repeat, so one short run is the measurement)
  --against BUILD                    also count sim and aten_ref in BUILD (the flavour with the
                                     instrumentation compiled out, -DOPWEAVE_STRIP_INSTRUMENTATION)
                                     and print this build's per-op cost against it: what the
                                     switched-off instrumentation costs, without the timing noise
                                     that hides a 2% difference on a shared machine

The baseline (bench/baselines/icount.json) is keyed by torch version: the dispatcher's own
cost differs between 1.13 and 2.6. Its torch 2.6 sim counts are CI's configuration: the 2.6
lane runs the sim binary the 1.13 lane compiled with GCC 12 (OPWEAVE_SIM_PREBUILT, .ci/run),
which counts 0-2.8% more per case than a sim compiled by the 2.6 root's GCC 14 (add_out 3,874
against 3,768). A local torch 2.6 build that compiles its own sim is thus measured against a
baseline up to 2.8% above its own count; CI, the reference, has the full 3% margin.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(REPO, "bench", "baselines", "icount.json")
TARGETS = ("cpu", "sim", "aten_ref")  # cpu: native ATen, the yardstick
MARGIN = 0.03  # a case may cost 3% more than its baseline (measured spread: < 0.6%)
# sim runs alone (count_targets): beside a second valgrind process its counts move
# (torch 2.6, three runs each: add 5182 alone, 5374 beside native CPU's run; +3.7%, over the
# margin), as valgrind hands its lock between the host thread and the worker by the OS's
# scheduling. Native CPU and aten_ref run synchronously and repeat exactly. sim's 1-element op
# cases run with its stream worker held while the host queues them (bench/icount.cpp,
# vendors/sim/seam/sim_hold.cpp) and repeat too (3763 per add_out in six runs, three of them
# beside two busy loops). Before, the worker fell asleep between ops or not as the OS scheduled
# it, ~300 instructions per op either way (mul_number: 3445-3881 in twelve runs), and the gate
# failed on a loaded machine with nothing changed. The cases that synchronise inside (the CPU
# fallback's copies, the MLP step's loss) cannot be held: the host waits on the worker in every
# fallback call, asleep or not as the threads are scheduled. The MLP step moves by < 0.6%; the
# fallback by 2% on torch 1.13 (29469-29996) and 4% on 2.6 (26660-27698, one clean-clone CI run
# failed the 3% margin at 27696), so it has its own.
CASE_MARGIN = {("sim", "add_out_fallback"): 0.08}
RETRY_RUNS = 3  # further runs of a timing-dependent target that came out over its baseline
TIMING_DEPENDENT = {"sim"}
COUNT_TIMEOUT_S = 600  # one target's run under callgrind; a hang fails the gate, not CI's clock


def torch_version() -> str:
    import torch
    return ".".join(torch.__version__.split("+")[0].split(".")[:2])


def count(binary: str, target: str) -> dict[str, float]:
    """Instructions per call of each case, for one target."""
    with tempfile.TemporaryDirectory() as tmp:
        # sim's worker and syncs must sleep rather than spin: a spin loop's length varies.
        env = dict(os.environ, OPWEAVE_VENDOR="sim" if target == "cpu" else target,
                   OPWEAVE_SIM_SPIN_US="0")
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
               f"--callgrind-out-file={tmp}/cg.out", binary, "1"]
        if target == "cpu":
            cmd.append("cpu")
        try:
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                  timeout=COUNT_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            sys.exit(f"icount: {target} did not finish in {COUNT_TIMEOUT_S} s (a run takes ~20 s;"
                     " a sim case that synchronises while its stream is held waits forever: "
                     "bench/icount.cpp)")
        if proc.returncode != 0:
            sys.exit(f"icount: {target} failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
        counts = {}
        dumps = glob.glob(f"{tmp}/cg.out.*")
        for path in sorted(dumps, key=lambda p: int(p.rsplit(".", 1)[1])):  # in case order
            text = open(path).read()
            desc = re.search(r"^desc: Trigger: Client Request: (\S+) calls=(\d+)$", text, re.M)
            total = re.search(r"^totals: (\d+)", text, re.M)
            if desc and total:
                counts[desc.group(1)] = int(total.group(1)) / int(desc.group(2))
        if not counts:
            sys.exit(f"icount: {target}: callgrind wrote no per-case counts")
        return counts


def count_targets(binary: str) -> dict[str, dict[str, float]]:
    """Every target's counts: the synchronous ones side by side (beside another process their
    1-element cases repeat exactly and their steps within 0.2%, four runs), then each
    timing-dependent one alone: 55.5 s instead of 77.7 s one after the other (2 cores)."""
    steady = [t for t in TARGETS if t not in TIMING_DEPENDENT]
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(steady)) as pool:
        results = dict(zip(steady, pool.map(lambda t: count(binary, t), steady)))
    for t in TARGETS:
        if t in TIMING_DEPENDENT:
            results[t] = count(binary, t)
    return {t: results[t] for t in TARGETS}


# The 1-element ops: the cases whose count is mostly the per-op path the instrumentation sits on.
OP_CASES = ("add_out", "add", "mul_", "relu", "sum")


def against(build: str, results: dict) -> None:
    binary = os.path.join(build, "bin", "opweave_icount")
    if not os.path.exists(binary):
        sys.exit(f"icount: {binary} is missing (build {build} first)")
    for t in TARGETS[1:]:  # the op cases repeat run to run: one count of each build compares
        mine, base = results[t], count(binary, t)
        ratios = {case: mine[case] / base[case] for case in OP_CASES}
        for case, r in ratios.items():
            print(f"instrumentation.{t}.off_vs_compiled_out_instructions.{case}: {r:.4f} "
                  f"({mine[case]:.0f} vs {base[case]:.0f})")
        worst = max(ratios.values())
        print(f"target.instrumentation_off_vs_compiled_out.{t}: "
              f"{'met' if worst <= 1.02 else 'NOT met'} ({worst:.4f}, goal <= 1.02, worst op, "
              f"instructions per call)")


def regressions(results: dict, base: dict) -> dict[str, list[str]]:
    """Per target, its cases over their baseline by more than the margin."""
    failed: dict[str, list[str]] = {}
    for t in TARGETS[1:]:  # native CPU is torch's own cost, not ours to gate
        for case, now in results[t].items():
            was = base.get(t, {}).get(case)
            margin = CASE_MARGIN.get((t, case), MARGIN)
            if was is None:
                failed.setdefault(t, []).append(f"{t}.{case}: no baseline (run with --update)")
            elif now > was * (1 + margin):
                failed.setdefault(t, []).append(
                    f"{t}.{case}: {now:.0f} instructions per call, baseline {was} "
                    f"(+{100 * (now / was - 1):.1f}%, margin {100 * margin:.0f}%)")
    return failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--against", metavar="BUILD")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("icount: valgrind is not installed (make setup installs it)")
    build = os.environ.get("OPWEAVE_BUILD_DIR", os.path.join(REPO, "build"))
    binary = os.path.join(build, "bin", "opweave_icount")
    if not os.path.exists(binary):
        sys.exit(f"icount: {binary} is missing (make build)")
    results = count_targets(binary)
    version = torch_version()
    print(f"icount: torch {version}, instructions per call (all threads)")
    cases = list(results["cpu"])
    print(f"{'case':<18}" + "".join(f"{t:>12}" for t in TARGETS) + "   sim/cpu  aten_ref/cpu")
    for case in cases:
        row = "".join(f"{results[t][case]:>12.0f}" for t in TARGETS)
        ratios = "".join(f"{results[t][case] / results['cpu'][case]:>10.2f}" for t in TARGETS[1:])
        print(f"{case:<18}{row}{ratios}")
    if args.against:
        against(args.against, results)
    baselines = json.load(open(BASELINE)) if os.path.exists(BASELINE) else {}
    if args.update:
        baselines[version] = {t: {c: round(v) for c, v in results[t].items()} for t in TARGETS}
        os.makedirs(os.path.dirname(BASELINE), exist_ok=True)
        with open(BASELINE, "w") as f:
            json.dump(baselines, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"icount: baseline for torch {version} written to {os.path.relpath(BASELINE, REPO)}")
        return 0
    if not args.check:
        return 0
    base = baselines.get(version)
    if base is None:
        sys.exit(f"icount: no baseline for torch {version} in {BASELINE} (run with --update)")
    failed = regressions(results, base)
    # sim's cases that synchronise inside still depend a little on thread timing: a target
    # over its baseline is counted again before the gate fails. A real regression is over in
    # every run.
    for t in sorted(t for t in failed if t in TIMING_DEPENDENT):
        print(f"icount: {t} over its baseline; counting {RETRY_RUNS} more runs, the least kept")
        for _ in range(RETRY_RUNS):
            again = count(binary, t)
            results[t] = {case: min(v, again[case]) for case, v in results[t].items()}
        failed = regressions(results, base)
    for t in TARGETS[1:]:
        for case, now in results[t].items():
            was = base.get(t, {}).get(case)
            if was is not None and now < was * (1 - MARGIN):
                print(f"icount: {t}.{case} improved to {now:.0f} from {was}: "
                      f"update the baseline (--update) so the gain is kept")
    if failed:
        lines = [line for t in failed for line in failed[t]]
        print("icount: REGRESSION against bench/baselines/icount.json:\n  " + "\n  ".join(lines))
        return 1
    print(f"icount: every case within {100 * MARGIN:.0f}% of the torch {version} baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
