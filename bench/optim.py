"""Time of one AdamW step on the device for the tiny GPT's parameters (opweave.demo.gpt), in
the three forms side by side: torch's single-tensor update (foreach=False, ~12 device ops per
parameter), torch's multi-tensor update (foreach=True, the catalogue's `foreach:` loops) and
opweave.optim.AdamW (one opweave::fused_adamw_ call -> one diopiAdamW kernel per parameter).

Rounds interleave the forms; each times STEPS steps (with a device synchronize) and the
median per step is reported, with the number of ATen ops the dispatcher saw per step (from
the profiler) and the CPU fallbacks (must be none). Prints one JSON object.

    OPWEAVE_VENDOR=sim /usr/bin/python3 bench/optim.py [--d 32 --layers 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import torch

import opweave
from opweave.demo import gpt
from benchlib import QUICK


def make_opt(form: str, params, amsgrad: bool):
    kw = dict(lr=1e-3, weight_decay=0.01, amsgrad=amsgrad)
    if form == "fused":
        return opweave.optim.AdamW(params, **kw)
    return torch.optim.AdamW(params, foreach=(form == "foreach"), **kw)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--d", type=int, default=32)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--amsgrad", action="store_true")
    ap.add_argument("--quick", action="store_true", help="one round of two steps (CI)")
    args = ap.parse_args(argv)
    if args.quick or QUICK:
        args.steps, args.rounds = 2, 1
    dev = opweave.device(0)
    model = gpt.make_model(0, d=args.d, layers=args.layers)
    base = [p.detach() for p in model.parameters()]
    forms = ("single", "foreach", "fused")
    setups = {}
    for form in forms:
        params = [torch.nn.Parameter(p.clone().to(dev)) for p in base]
        for p in params:
            p.grad = torch.randn_like(p)
        opt = make_opt(form, params, args.amsgrad)
        opt.step()  # state allocated outside the timing
        setups[form] = (params, opt)
    opweave.synchronize()
    opweave.fallback_stats(reset=True)
    times = {f: [] for f in forms}
    for _ in range(args.rounds):
        for form in forms:
            _, opt = setups[form]
            opweave.synchronize()
            t0 = time.perf_counter()
            for _ in range(args.steps):
                opt.step()
            opweave.synchronize()
            times[form].append((time.perf_counter() - t0) / args.steps)
    fallbacks = opweave.fallback_stats()
    ops = {}
    for form in forms:
        _, opt = setups[form]
        with torch.autograd.profiler.profile() as prof:
            opt.step()
            opweave.synchronize()
        ops[form] = sum(1 for e in prof.function_events if e.name.startswith(("aten::", "opweave::")))
    result = {
        "vendor": opweave.report()["vendor"],
        "params": len(base), "elements": sum(p.numel() for p in base),
        "amsgrad": args.amsgrad,
        "ms_per_step": {f: round(statistics.median(times[f]) * 1e3, 3) for f in forms},
        "speedup_vs_single": {f: round(statistics.median(times["single"]) /
                                       statistics.median(times[f]), 2) for f in forms},
        "dispatched_ops_per_step": ops,
        "fallbacks": fallbacks,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
