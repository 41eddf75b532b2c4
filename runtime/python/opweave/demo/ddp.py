"""Data-parallel training on the device with torch.distributed: DDP over the opweave backend.

    torchrun --nproc-per-node=2 -m opweave.demo.ddp          # each rank on its own device
    python3 -m opweave.distributed.run --nproc-per-node=opweave -m opweave.demo.ddp   # torch 2.x:
                                                             # one rank per device, counted

Trains the MLP and the tiny GPT of the other demos with DistributedDataParallel, each rank on
a slice of every global batch; then rank 0 trains the same models in one process (no DDP) on the
whole global batches, and prints both loss curves with their relative difference. The global
loss of a DDP step is the average of the ranks' losses (equal slices). Exit status 1 when the
difference exceeds --tolerance.
(Debian's torch 2.6 is built without libuv: run torchrun with USE_LIBUV=0 there.)
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

import opweave
from opweave.demo import gpt, mlp


def _models():
    """name -> (model, x, y, loss(model, xb, yb), optimizer factory)."""
    x, y = mlp.make_data(4096, 20, 5, seed=0)
    tx, ty = gpt.make_data(256, 16, 64, seed=0)
    return {
        "mlp": (mlp.make_model(20, 64, 5, seed=0), x, y,
                lambda m, xb, yb: torch.nn.functional.cross_entropy(m(xb), yb),
                lambda p: torch.optim.SGD(p, lr=0.02, momentum=0.9, foreach=False)),
        "gpt": (gpt.make_model(0), tx, ty, lambda m, xb, yb: m(xb, yb),
                lambda p: torch.optim.AdamW(p, lr=3e-3, weight_decay=0.01, foreach=False)),
    }


def _train(model, x, y, loss_fn, make_opt, device, steps, batch, rank=0, world=1, ddp=False):
    """Per-step loss over the global batch (the average of the ranks' losses under DDP)."""
    model = model.to(device)
    if ddp:
        model = DistributedDataParallel(model)
    opt = make_opt(model.parameters())
    local = batch // world
    losses = []
    for step in range(steps):
        i = (step * batch) % x.shape[0] + rank * local
        xb, yb = x[i:i + local].to(device), y[i:i + local].to(device)
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model, xb, yb)
        loss.backward()
        opt.step()
        value = loss.detach()
        if ddp:
            dist.all_reduce(value, op=dist.ReduceOp.AVG)
        losses.append(value.item())
    return losses


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--batch", type=int, default=64, help="global batch (split over the ranks)")
    p.add_argument("--models", default="mlp,gpt")
    p.add_argument("--tolerance", type=float, default=1e-5)
    p.add_argument("--json", help="rank 0 writes the losses here")
    args = p.parse_args(argv)

    dist.init_process_group("opweave")
    rank, world = dist.get_rank(), dist.get_world_size()
    local_rank = int(os.environ.get("LOCAL_RANK", rank))
    device = opweave.device(local_rank % opweave.device_count())
    opweave.set_device(device.index)
    if args.batch % world:
        raise SystemExit(f"--batch {args.batch} is not divisible by {world} ranks")

    results, worst = {}, 0.0
    for name in args.models.split(","):
        model, x, y, loss_fn, make_opt = _models()[name]
        ddp = _train(copy.deepcopy(model), x, y, loss_fn, make_opt, device, args.steps,
                     args.batch, rank, world, ddp=True)
        if rank == 0:
            single = _train(copy.deepcopy(model), x, y, loss_fn, make_opt, device, args.steps,
                            args.batch)
            rel = [abs(a - b) / max(abs(b), 1e-12) for a, b in zip(ddp, single)]
            worst = max(worst, max(rel))
            results[name] = {"ddp": ddp, "single": single, "max_rel": max(rel)}
            print(f"{name}: DDP on {world} ranks ({dist.get_backend()} backend, transport "
                  f"{dist.group.WORLD.transport}) vs one process, global batch {args.batch}")
            print(f"{'step':>6} {'DDP loss':>12} {'single loss':>12} {'rel diff':>10}")
            for step, (a, b, r) in enumerate(zip(ddp, single, rel)):
                print(f"{step:>6} {a:>12.6f} {b:>12.6f} {r:>10.2e}")
            print(f"{name}: max relative difference {max(rel):.2e}")
    if rank == 0 and args.json:
        with open(args.json, "w") as f:
            json.dump({"world": world, "transport": dist.group.WORLD.transport, **results}, f)
    dist.barrier()
    dist.destroy_process_group()
    return 1 if worst > args.tolerance else 0


if __name__ == "__main__":
    sys.exit(main())
