"""Allreduce bus bandwidth: the sim's collectives on device tensors next to Gloo on CPU tensors,
measured side by side in one run (2 processes; the repetitions of the two alternate).

    python3 bench/allreduce.py            # 1 KiB .. 64 MiB, float32
    python3 bench/allreduce.py --quick    # two sizes, two repetitions (CI: the figures exist)

Bus bandwidth = bytes * 2 (n - 1) / n / time (NCCL's definition). The `target` line checks the
issue's bound: the device path is not slower than Gloo on CPU tensors by more than 2x at 64 MiB.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def worker(sizes: list[int], reps: int) -> None:
    import torch
    import torch.distributed as dist

    import opweave

    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    dev = opweave.device(rank % opweave.device_count())
    opweave.set_device(dev.index)
    dist.init_process_group("opweave")  # device tensors: the vendor; CPU tensors: its Gloo group
    rows = []
    for nbytes in sizes:
        n = max(1, nbytes // 4)
        tensors = {"device": torch.ones(n, device=dev), "gloo_cpu": torch.ones(n)}
        times = {k: [] for k in tensors}
        for k, t in tensors.items():  # warm-up (communicator creation, first touch)
            dist.all_reduce(t)
        for _ in range(reps):
            for k, t in tensors.items():
                dist.barrier()
                t0 = time.perf_counter()
                dist.all_reduce(t)
                if k == "device":
                    t.view(-1)[:1].cpu()  # the result is on the host's side
                times[k].append(time.perf_counter() - t0)
        factor = 2 * (world - 1) / world
        rows.append({"bytes": nbytes, **{f"{k}_gbps": n * 4 * factor / statistics.median(v) / 1e9
                                         for k, v in times.items()}})
    if rank == 0:
        print(json.dumps(rows))
    dist.destroy_process_group()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args()
    sizes = [1 << 10, 1 << 20] if args.quick else [1 << k for k in range(10, 27, 2)]
    reps = 2 if args.quick else 7
    if args.worker:
        worker(sizes, reps)
        return 0
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), WORLD_SIZE="2",
               USE_LIBUV="0", OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join([os.path.join(REPO, "runtime", "python"),
                                           os.environ.get("PYTHONPATH", "")]))
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", "1"] + (["--quick"] if args.quick else [])
    procs = [subprocess.Popen(cmd, env=dict(env, RANK=str(r)), stdout=subprocess.PIPE, text=True)
             for r in range(2)]
    outs = [pr.communicate(timeout=900)[0] for pr in procs]
    if any(pr.returncode for pr in procs):
        sys.exit(f"allreduce workers failed: {[pr.returncode for pr in procs]}")
    rows = json.loads(outs[0].strip().splitlines()[-1])
    print("allreduce float32, 2 processes: bus bandwidth GB/s (sim device | Gloo on CPU tensors)")
    for r in rows:
        ratio = r["device_gbps"] / r["gloo_cpu_gbps"]
        print(f"allreduce.{r['bytes']}B: device {r['device_gbps']:.3f} | gloo_cpu "
              f"{r['gloo_cpu_gbps']:.3f} | ratio {ratio:.2f}")
    last = rows[-1]
    if last["bytes"] == 1 << 26:
        ratio = last["device_gbps"] / last["gloo_cpu_gbps"]
        print(f"target.allreduce_64MiB: {'met' if ratio >= 0.5 else 'NOT met'} ({ratio:.2f}x Gloo, goal >= 0.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
