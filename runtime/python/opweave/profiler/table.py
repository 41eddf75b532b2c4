"""The device table: host vs device time per kernel, device busy time, device memory.

Device times are self times: a launch made inside another's (the wrapped Python number that
diopiMul stages with diopiFill) counts for itself only, so the rows add up to the device's
work. Host times are the launch windows: from the launch's start event to its end event,
what the host spent in the op between them (argument checks, output allocation, the call)."""

from __future__ import annotations

from collections import defaultdict

import opweave

_SORT_KEYS = ("device_total", "device_avg", "host_total", "calls", "name")


def _us(ns: float) -> str:
    return f"{ns / 1000.0:.1f}us" if ns < 10_000_000 else f"{ns / 1e6:.2f}ms"


def _mb(n: int) -> str:
    return f"{n / 2**20:.2f} MB"


def _busy_ns(kernels) -> int:
    """Time at least one kernel ran, per device: overlapping streams are counted once."""
    spans = sorted((k.start_ns, k.start_ns + k.dur_ns) for k in kernels)
    busy, end = 0, None
    for s, e in spans:
        if end is None or s > end:
            busy += e - s
            end = e
        elif e > end:
            busy += e - end
            end = e
    return busy


def device_table(kernels, memory, devices, sort_by: str = "device_total",
                 row_limit: int | None = None) -> str:
    if sort_by not in _SORT_KEYS:
        raise ValueError(f"device_table: sort_by must be one of {', '.join(_SORT_KEYS)}, got {sort_by!r}")
    rows: dict[str, dict] = defaultdict(lambda: {"calls": 0, "host": 0, "device": 0, "min": None,
                                                 "max": 0, "aten": defaultdict(int), "fallback": 0})
    for k in kernels:
        r = rows[k.kernel]
        r["calls"] += 1
        r["host"] += k.launch_end_ns - k.launch_ns
        r["device"] += k.self_ns
        r["min"] = k.self_ns if r["min"] is None else min(r["min"], k.self_ns)
        r["max"] = max(r["max"], k.self_ns)
        r["aten"][k.aten] += 1
        r["fallback"] += k.fallback
    total_device = sum(r["device"] for r in rows.values()) or 1
    key = {"device_total": lambda kv: -kv[1]["device"],
           "device_avg": lambda kv: -kv[1]["device"] / kv[1]["calls"],
           "host_total": lambda kv: -kv[1]["host"], "calls": lambda kv: -kv[1]["calls"],
           "name": lambda kv: kv[0]}[sort_by]
    ordered = sorted(rows.items(), key=key)[:row_limit]
    name_w = max([len("Kernel")] + [len(n) for n, _ in ordered]) + 2
    head = (f"{'Kernel':<{name_w}}{'Calls':>7}{'Host total':>13}{'Host avg':>11}"
            f"{'Device total':>14}{'Device %':>10}{'Device avg':>12}{'Device min':>12}"
            f"{'Device max':>12}  ATen ops")
    line = "-" * len(head)
    out = [line, head, line]
    for name, r in ordered:
        aten = ", ".join(f"{a} x{c}" if len(r["aten"]) > 1 else a
                         for a, c in sorted(r["aten"].items(), key=lambda x: -x[1]))
        if r["fallback"]:
            aten += f" ({r['fallback']} fell back to CPU)"
        out.append(f"{name:<{name_w}}{r['calls']:>7}{_us(r['host']):>13}{_us(r['host'] / r['calls']):>11}"
                   f"{_us(r['device']):>14}{100.0 * r['device'] / total_device:>9.1f}%"
                   f"{_us(r['device'] / r['calls']):>12}{_us(r['min']):>12}{_us(r['max']):>12}  {aten}")
    out.append(line)
    calls = sum(r["calls"] for r in rows.values())
    host = sum(r["host"] for r in rows.values())
    out.append(f"{'Total':<{name_w}}{calls:>7}{_us(host):>13}{'':>11}{_us(total_device if rows else 0):>14}")
    for d in devices:
        mine = [k for k in kernels if k.device == d.index]
        if mine:
            first = min(k.launch_ns for k in mine)
            last = max(k.start_ns + k.dur_ns for k in mine)
            busy = _busy_ns(mine)
            streams = sorted({k.stream for k in mine})
            out.append(f"{opweave.DEVICE}:{d.index}: {len(mine)} launches on stream(s) "
                       f"{', '.join(map(str, streams))}; device busy {_us(busy)} of the "
                       f"{_us(last - first)} from first launch to last kernel end "
                       f"({100.0 * busy / max(last - first, 1):.0f}%); clock alignment window "
                       f"{_us(d.align_window_ns)}")
        mem = [m for m in memory if m.device == d.index]
        if mem:
            allocs = [m.bytes for m in mem if m.bytes > 0]
            frees = [-m.bytes for m in mem if m.bytes < 0]
            peak = max(m.allocated for m in mem)
            out.append(f"{opweave.DEVICE}:{d.index} memory: {len(allocs)} allocations "
                       f"({_mb(sum(allocs))}), {len(frees)} frees ({_mb(sum(frees))}); allocated "
                       f"{_mb(d.allocated_at_start)} at start, {_mb(mem[-1].allocated)} at end, "
                       f"peak {_mb(peak)}")
    if not kernels:
        out.append("no device kernels were launched while profiling")
    return "\n".join(out)
