"""Runs a scenario of workers.py on N processes (one interpreter each, rendezvous over a
TCPStore on a free port) and collects each rank's JSON result."""

from __future__ import annotations

import json
import os
import pathlib
import socket
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
PYTHON_DIR = HERE.parents[2] / "runtime" / "python"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(scenario: str, nprocs: int, timeout: float = 240, env: dict | None = None,
           args: tuple = (), prefix: list[list[str]] | None = None) -> list[dict]:
    """[{"rc", "out", "err", "result"}] per rank; `prefix[r]` wraps rank r's command (for
    `ip netns exec`)."""
    port = free_port()
    procs = []
    for rank in range(nprocs):
        e = dict(os.environ)
        e.update({"RANK": str(rank), "WORLD_SIZE": str(nprocs), "MASTER_ADDR": "127.0.0.1",
                  "MASTER_PORT": str(port), "USE_LIBUV": "0", "OMP_NUM_THREADS": "1",
                  "PYTHONPATH": os.pathsep.join([str(PYTHON_DIR), e.get("PYTHONPATH", "")])})
        e.update(env or {})
        cmd = [sys.executable, str(HERE / "workers.py"), scenario, *args]
        if prefix:
            cmd = prefix[rank] + cmd
        procs.append(subprocess.Popen(cmd, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True))
    results = []
    for p in procs:
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            out, err = p.communicate()
            err += f"\n[launch] killed after {timeout} s"
        last = [line for line in out.splitlines() if line.startswith("{")]
        results.append({"rc": p.returncode, "out": out, "err": err,
                        "result": json.loads(last[-1]) if last else None})
    return results


def describe(results: list[dict]) -> str:
    return "\n".join(f"--- rank {r}: rc {x['rc']}\n{x['out'][-2000:]}\n{x['err'][-4000:]}"
                     for r, x in enumerate(results))
