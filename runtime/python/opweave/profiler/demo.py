"""Profile one training step of the tiny GPT on the device: device kernel times and memory.

    python3 -m opweave.profiler.demo --trace gpt_step.json

Builds the tiny GPT of opweave.demo.gpt on the device, runs warm-up steps (first-call costs,
allocator cache), then profiles one step (forward, backward, AdamW) with
opweave.profiler.profile(profile_memory=True), prints the device table (host vs device time
per DIOPI function, device memory) and torch's own table, and writes the merged Chrome trace
(open it in chrome://tracing or https://ui.perfetto.dev).
"""

from __future__ import annotations

import argparse
import sys

import torch

import opweave
import opweave.profiler
from opweave.demo import gpt


def profile_step(optimizer: str = "single", warmup: int = 2, batch: int = 8, seed: int = 0,
                 profile_memory: bool = True):
    """(profile, loss) of one tiny-GPT training step on opweave:0 after `warmup` steps."""
    device = opweave.device(0)
    x, y = gpt.make_data(64, 16, 64, seed=seed)
    model = gpt.make_model(seed).to(device)
    opt = gpt.make_optimizer(model.parameters(), device, 3e-3, optimizer)

    def step(i: int) -> torch.Tensor:
        xb, yb = x[i * batch:(i + 1) * batch].to(device), y[i * batch:(i + 1) * batch].to(device)
        opt.zero_grad(set_to_none=True)
        loss = model(xb, yb)
        loss.backward()
        opt.step()
        return loss

    for i in range(warmup):
        step(i)
    opweave.synchronize()
    with opweave.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                                  profile_memory=profile_memory) as prof:
        with torch.profiler.record_function("train_step"):
            loss = step(warmup)
    return prof, float(loss.item())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--trace", help="write the merged Chrome trace here")
    p.add_argument("--optimizer", choices=gpt.OPTIMIZERS, default="single")
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--rows", type=int, default=25, help="rows of torch's table")
    args = p.parse_args(argv)
    prof, loss = profile_step(args.optimizer, args.warmup)
    print(f"tiny GPT training step on {opweave.device(0)} (vendor {opweave.report()['vendor']}, "
          f"AdamW {args.optimizer}), loss {loss:.4f}\n")
    print(prof.device_table())
    print()
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=args.rows))
    if args.trace:
        prof.export_chrome_trace(args.trace)
        print(f"Chrome trace: {args.trace} ({len(prof.kernels)} device kernels, "
              f"{len(prof.memory)} device memory events)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
