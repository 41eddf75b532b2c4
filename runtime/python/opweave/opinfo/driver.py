"""Spreads OpInfo entries over worker processes and survives the ones that die.

An item is one op in one configuration (dtype, mode); a run may hold several configurations,
whose items share the worker processes (each pays torch's and op_db's import once, 3-7 s). A
worker announces each item before running it. When a worker exits before reporting an item
(a signal, an abort), that item is recorded as `crash` with the signal and the tail of the
worker's stderr, and a new worker goes on with the items after it; when it reports nothing for
HANG_SECONDS, it is killed and the item recorded as `hang`. One bad op costs one op, not the run.
"""

from __future__ import annotations

import json
import os
import pathlib
import queue
import signal
import subprocess
import sys
import tempfile
import threading

HANG_SECONDS = 120
_PACKAGE_ROOT = pathlib.Path(__file__).resolve().parents[2]   # runtime/python


def _env(vendor: str | None) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(_PACKAGE_ROOT)] + (
        [env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    if vendor:
        env["OPWEAVE_VENDOR"] = vendor
    return env


def _reader(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with status {code}"


Item = tuple  # (dtype, mode, op name)


def _run_shard(items: list[Item], env: dict, results: dict) -> None:
    pending = list(items)
    while pending:
        with tempfile.NamedTemporaryFile("w", suffix=".items", delete=False) as f:
            f.write("\n".join(" ".join(item) for item in pending))
        with tempfile.TemporaryFile("w+") as err:
            proc = subprocess.Popen(
                [sys.executable, "-m", "opweave.opinfo.worker", f.name],
                stdout=subprocess.PIPE, stderr=err, text=True, env=env)
            lines: queue.Queue = queue.Queue()
            threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
            in_flight, outcome = None, None
            while True:
                try:
                    line = lines.get(timeout=HANG_SECONDS)
                except queue.Empty:
                    proc.kill()
                    outcome = ("hang", f"no result after {HANG_SECONDS} s")
                    break
                if line is None:
                    break
                msg = json.loads(line)
                if "start" in msg:
                    in_flight = tuple(msg["start"])
                else:
                    item = (msg["dtype"], msg["mode"], msg["op"])
                    results[item] = msg
                    pending.remove(item)
                    in_flight = None
            code = proc.wait()
            os.unlink(f.name)
            if in_flight is None and not pending:
                return
            if outcome is None:
                err.seek(0)
                tail = [ln for ln in err.read().splitlines() if ln.strip()][-3:]
                outcome = ("crash", "; ".join([_describe_exit(code)] + tail)[:500])
            if in_flight is None:   # died between ops (at start-up): nothing to pin it on
                in_flight = pending[0]
            results[in_flight] = {"op": in_flight[2], "outcome": outcome[0],
                                  "detail": outcome[1], "fallback": []}
            pending.remove(in_flight)


def run(names: list[str], configs: list[tuple[str, str]], vendor: str | None = None,
        jobs: int = 2) -> dict:
    """{(dtype, mode): {op: {"outcome", "detail", "fallback", ...}}} for every name in every
    configuration, in `jobs` processes."""
    env = _env(vendor)
    results: dict = {}
    items = [(dtype, mode, name) for dtype, mode in configs for name in names]
    shards = [items[i::jobs] for i in range(max(1, jobs))]
    threads = [threading.Thread(target=_run_shard, args=(s, env, results)) for s in shards if s]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {(dtype, mode): {name: results[(dtype, mode, name)] for name in names}
            for dtype, mode in configs}
