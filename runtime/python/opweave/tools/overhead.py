"""What the op tools cost when inactive (must be nothing) and when active, on a tiny device
op (`x + x`, 1 element) and on a training step of the MLP demo (20-64-64-5, batch 64).

    python3 -m opweave.tools.overhead [--ops 20000] [--steps 40] [--rounds 5]

Every measurement runs in a fresh interpreter, and the interpreters alternate between the
configurations round after round (base, inactive, base, inactive, ...), so a drift of the
machine hits all configurations alike; the median over rounds is reported.

    base       `import torch, opweave` only: opweave.tools is never imported
    inactive   opweave.tools imported, each of the four tools created, started and stopped;
               the child checks that torch's function-mode stack is empty again
    <Tool>     that tool active for the whole measurement (for scale; fewer iterations)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TOOLS = ("OpCapture", "OpAutoCompare", "OpTimeMeasure", "OpFallback")


def _child(config: str, ops: int, steps: int) -> dict:
    import copy

    import torch

    import opweave
    from opweave.demo import mlp

    x = torch.ones(1, device=opweave.device(0))
    data = mlp.make_data(4096, 20, 5, seed=0)
    model = mlp.make_model(20, 64, 5, seed=0)

    def tiny(n):
        t0 = time.perf_counter()
        for _ in range(n):
            x + x
        opweave.synchronize()
        return (time.perf_counter() - t0) / n * 1e6

    def step(n):
        t0 = time.perf_counter()
        mlp.train(copy.deepcopy(model), data[0], data[1], opweave.device(0), n, 64, 0.02)
        opweave.synchronize()
        return (time.perf_counter() - t0) / n * 1e6

    tool = None
    if config != "base":
        from opweave import tools
        from opweave.tools._base import _get_current_function_mode
        tmp = tempfile.mkdtemp(prefix="opweave-overhead-")
        make = {
            "OpCapture": lambda: tools.OpCapture(f"{tmp}/capture", max_bytes="256M", progress=False),
            "OpAutoCompare": lambda: tools.OpAutoCompare(f"{tmp}/compare", verbose=False),
            "OpTimeMeasure": lambda: tools.OpTimeMeasure(),
            "OpFallback": lambda: tools.OpFallback(include="relu"),
        }
        for name in TOOLS:
            t = make[name]()
            t.start()
            t.stop()
        if _get_current_function_mode() is not None or torch._C._is_torch_function_mode_enabled():
            raise SystemExit("a stopped tool left a torch function mode installed")
        if config != "inactive":
            tool = make[config]()
            ops, steps = max(ops // 20, 200), max(steps // 8, 3)
    tiny(200)
    step(2)
    if tool is not None:
        tool.start()
    try:
        result = {"tiny_us": tiny(ops), "step_us": step(steps)}
    finally:
        if tool is not None:
            tool.stop()
    return result


def measure(ops: int, steps: int, rounds: int, active: bool) -> dict[str, list[dict]]:
    configs = ["base", "inactive"] + (list(TOOLS) if active else [])
    env = dict(os.environ, OPWEAVE_TOOLS_PROGRESS="0")
    samples: dict[str, list[dict]] = {c: [] for c in configs}
    for r in range(rounds):
        for c in configs:
            if c in TOOLS and r >= 2:          # two rounds of each active tool are plenty
                continue
            proc = subprocess.run([sys.executable, "-m", "opweave.tools.overhead", "--child", c,
                                   "--ops", str(ops), "--steps", str(steps)],
                                  capture_output=True, text=True, env=env)
            if proc.returncode != 0:
                raise RuntimeError(f"overhead child {c} failed:\n{proc.stderr[-3000:]}")
            samples[c].append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return samples


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ops", type=int, default=20000, help="tiny ops per measurement")
    p.add_argument("--steps", type=int, default=40, help="MLP training steps per measurement")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--no-active", action="store_true", help="only base vs inactive")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child, args.ops, args.steps)))
        return 0
    samples = measure(args.ops, args.steps, args.rounds, not args.no_active)
    import torch
    print(f"op tools overhead, sim device, torch {torch.__version__}: median over rounds "
          f"(tiny: {args.ops} ops of x + x, 1 element; step: {args.steps} MLP training steps)")
    base_t = statistics.median(s["tiny_us"] for s in samples["base"])
    base_s = statistics.median(s["step_us"] for s in samples["base"])
    print(f"{'configuration':<15} {'x+x us/op':>10} {'vs base':>8} {'MLP step us':>12} "
          f"{'vs base':>8} {'rounds':>6}   per-round x+x us/op")
    for c, s in samples.items():
        t = statistics.median(v["tiny_us"] for v in s)
        st = statistics.median(v["step_us"] for v in s)
        spread = " ".join(f"{v['tiny_us']:.2f}" for v in s)
        print(f"{c:<15} {t:>10.2f} {(t / base_t - 1) * 100:>+7.1f}% {st:>12.1f} "
              f"{(st / base_s - 1) * 100:>+7.1f}% {len(s):>6}   {spread}")
    return 0


if __name__ == "__main__":
    from opweave.tools.process_exit import exit_now

    exit_now(main())
