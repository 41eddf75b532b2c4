"""OpTimeMeasure: synchronised wall time of every selected op, forward and backward.

    with OpTimeMeasure() as t:
        loss = model(x); loss.backward()
    t.print_summary()

Forward: the device is synchronised before and after the op, so the time is the op's own
(host overhead of the wrapper + queueing + the kernel), not the time to enqueue it.
Backward (`backward=True`): each op that takes inputs requiring grad runs through a bridge
(bridge.py); its backward — all autograd nodes of this op, e.g. the two matrix products of
`linear` — is synchronised and timed on its own. Synchronising after every op removes the
overlap of host and device, so a measured run is slower than an unmeasured one; the shares
between ops are what the table is for.

Per call lines (`path=` or OPWEAVE_TOOLS_TIME_FILE): JSONL {"seq", "op", "pass", "us",
"shapes"}. The summary: per op and pass, calls, total ms, mean / median / min / max us, share
of all measured time; sorted by total time.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time

from . import bridge
from ._base import OpTool, flatten_tensors, is_mutating, sync


class OpTimeMeasure(OpTool):
    TOOL = "TIME"

    def __init__(self, include=None, exclude=None, backward: bool = True, path: str | None = None,
                 verbose: bool = False):
        super().__init__(include, exclude)
        self.backward = backward
        self.path = path or os.environ.get("OPWEAVE_TOOLS_TIME_FILE") or None
        self.verbose = verbose
        self.seq = 0
        self.times: dict[tuple[str, str], list[float]] = {}

    def _on_start(self) -> None:
        if self.path:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            open(self.path, "w").close()

    def _on_stop(self) -> None:
        if self.verbose:
            self.print_summary()

    def _add(self, seq: int, name: str, which: str, seconds: float, shapes) -> None:
        self.times.setdefault((name, which), []).append(seconds)
        if self.path:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps({"seq": seq, "op": name, "pass": which,
                                    "us": round(seconds * 1e6, 3), "shapes": shapes}) + "\n")

    def _op(self, func, name, args, kwargs, device):
        self.seq += 1
        seq = self.seq
        shapes = [list(t.shape) for t in flatten_tensors((args, kwargs))]
        grad_inputs = (bridge.bridgeable(args, kwargs, is_mutating(name, kwargs), name)
                       if self.backward else [])
        if grad_inputs:
            def on_backward(_grads, _dev_grads, seconds):
                self._add(seq, name, "backward", seconds, shapes)
            out, state = bridge.run(self, func, args, kwargs, grad_inputs, on_backward, device,
                                    timed=True)
            if out is not None:
                self._add(seq, name, "forward", state.forward_s, shapes)
                return out
        sync(device)
        t0 = time.perf_counter()
        out = func(*args, **kwargs)
        sync(device)
        self._add(seq, name, "forward", time.perf_counter() - t0, shapes)
        return out

    def summary(self) -> list[dict]:
        """Rows sorted by total time: op, pass, calls, total_ms, mean_us, median_us, min_us,
        max_us, share (of all measured time)."""
        total = sum(sum(v) for v in self.times.values()) or 1.0
        rows = []
        for (name, which), v in self.times.items():
            rows.append({"op": name, "pass": which, "calls": len(v),
                         "total_ms": sum(v) * 1e3, "mean_us": sum(v) / len(v) * 1e6,
                         "median_us": statistics.median(v) * 1e6,
                         "min_us": min(v) * 1e6, "max_us": max(v) * 1e6,
                         "share": sum(v) / total})
        rows.sort(key=lambda r: -r["total_ms"])
        return rows

    def table(self, top: int | None = None) -> str:
        rows = self.summary()[:top] if top else self.summary()
        width = max([len(r["op"]) for r in rows] + [2])
        lines = [f"{'op':<{width}} {'pass':<8} {'calls':>6} {'total ms':>10} {'mean us':>10} "
                 f"{'median us':>10} {'min us':>10} {'max us':>10} {'share':>6}"]
        for r in rows:
            lines.append(f"{r['op']:<{width}} {r['pass']:<8} {r['calls']:>6} {r['total_ms']:>10.3f} "
                         f"{r['mean_us']:>10.1f} {r['median_us']:>10.1f} {r['min_us']:>10.1f} "
                         f"{r['max_us']:>10.1f} {r['share'] * 100:>5.1f}%")
        return "\n".join(lines)

    def print_summary(self, top: int | None = None, file=None) -> None:
        print(self.table(top), file=file or sys.stderr)
