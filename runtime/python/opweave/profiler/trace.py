"""Device launches next to torch's host events: matching each launch to the host op that
made it, device memory from the profiler's records, and the merged Chrome trace.

Host events come from the profiler's results (``kineto_results.events()``), which both torch
versions provide: start/end in ns on 2.x, in whole µs on 1.13 (no libkineto in Debian's 1.13;
its Chrome trace is written from these events, times relative to ``trace_start_us``). Launch
times come from the same clock (CLOCK_REALTIME), so a launch lies inside its host op.
"""

from __future__ import annotations

import bisect
import os
from collections import defaultdict
from dataclasses import dataclass

import torch

import opweave

MEMORY_EVENT = "[memory]"
# torch 1.13's Python enum does not name PrivateUse1 (c10's value there is 19; 20 on 2.x).
_PRIVATEUSE1 = int(getattr(torch._C._autograd.DeviceType, "PrivateUse1", 19))


@dataclass
class DeviceKernel:
    """One kernel (or memcpy) launched on a device stream while profiling."""
    kernel: str          # DIOPI function ("diopiAddmm") or "Memcpy HtoD" / "DtoH" / "DtoD" / "PtoP"
    aten: str            # ATen op that launched it ("aten::addmm")
    device: int
    stream: int          # stream id on the device (0: default stream)
    start_ns: int        # device start on the host clock (CLOCK_REALTIME ns)
    dur_ns: int          # device duration
    launch_ns: int       # host: when the launch began (start event queued)
    launch_end_ns: int   # host: when it returned (end event queued)
    rf_tid: int          # torch's thread id (RecordFunction::currentThreadId)
    tid: int             # system thread id
    fallback: bool       # the kernel declined and the op ran on the CPU
    self_ns: int = 0     # dur_ns less the kernels nested in it (set by nest())
    nested_in: int = -1  # index of the launch whose events bracket this one, or -1
    host_op: str = ""    # name of the host range its launch opened
    host_id: int = -1    # its correlation id ("External id" in torch 2.x traces)
    host_start_ns: int = 0
    # the name its launch opened the host range with: `kernel`, except where the op ran
    # another kernel (a Python number passed by value: diopiMul's range, diopiMulScalar)
    range_name: str = ""

    @classmethod
    def from_json(cls, d: dict) -> "DeviceKernel":
        return cls(d["kernel"], d["aten"], d["device"], d["stream"], d["start_ns"], d["dur_ns"],
                   d["launch_ns"], d["launch_end_ns"], d["rf_tid"], d["tid"], d["fallback"],
                   range_name=d.get("range", d["kernel"]))

    @property
    def is_memcpy(self) -> bool:
        return self.kernel.startswith("Memcpy")


@dataclass
class HostEvent:
    name: str
    start_ns: int
    end_ns: int
    rf_tid: int
    id: int


@dataclass
class MemoryEvent:
    """A device allocation (bytes > 0) or free (bytes < 0) reported to torch's profiler."""
    device: int
    bytes: int
    ts_ns: int
    rf_tid: int
    allocated: int = 0   # device total after it (allocated at start + running sum)


def _span(e) -> tuple[int, int]:
    if hasattr(e, "start_ns"):  # torch 2.x
        return e.start_ns(), e.end_ns()
    start = e.start_us() * 1000  # torch 1.13: whole µs
    return start, start + e.duration_us() * 1000


def host_and_memory_events(result) -> tuple[list[HostEvent], list[MemoryEvent]]:
    """Host op events and device memory events from torch's profiler results."""
    host, memory = [], []
    if result is None:
        return host, memory
    for e in result.events():
        start, end = _span(e)
        if e.name() == MEMORY_EVENT:
            if int(e.device_type()) == _PRIVATEUSE1:
                memory.append(MemoryEvent(e.device_index(), e.nbytes(), start, e.start_thread_id()))
        elif int(e.device_type()) == 0:  # CPU: host ops and ranges
            host.append(HostEvent(e.name(), start, end, e.start_thread_id(), e.correlation_id()))
    memory.sort(key=lambda m: m.ts_ns)
    return host, memory


def match_launches(kernels: list[DeviceKernel], host: list[HostEvent]) -> None:
    """Sets each kernel's host op: the host range of the kernel's own name that its launch
    opened (the wrappers' instrumented path and the hand-written launch sites open one).

    On one thread those ranges and the launches come in the same order, so they are paired in
    order; times alone are not enough: torch stamps host events with an approximate clock
    converted to wall time (a few µs off ours), and on 1.13 rounds them to whole µs. Where the
    counts differ (a launch from a thread torch did not profile), the nearest range within
    1 ms is taken."""
    ranges: dict[tuple[int, str], list[HostEvent]] = defaultdict(list)
    for h in host:
        ranges[(h.rf_tid, h.name)].append(h)
    launches: dict[tuple[int, str], list[DeviceKernel]] = defaultdict(list)
    for k in kernels:
        launches[(k.rf_tid, k.range_name or k.kernel)].append(k)
    for key, ks in launches.items():
        hs = sorted(ranges.get(key, ()), key=lambda h: h.start_ns)
        ks.sort(key=lambda k: k.launch_ns)
        if len(hs) == len(ks):
            pairs = zip(ks, hs)
        else:
            starts = [h.start_ns for h in hs]
            pairs = []
            for k in ks:
                i = bisect.bisect_left(starts, k.launch_ns)
                near = [h for h in hs[max(i - 1, 0):i + 1] if abs(h.start_ns - k.launch_ns) < 1_000_000]
                if near:
                    pairs.append((k, min(near, key=lambda h: abs(h.start_ns - k.launch_ns))))
        for k, h in pairs:
            k.host_op, k.host_id, k.host_start_ns = h.name, h.id, h.start_ns


def nest(kernels: list[DeviceKernel]) -> None:
    """Self times. A launch's events bracket everything its op queued, so a launch made
    inside another (the wrapped Python number diopiMul stages with diopiFill first, a copy
    inside a CPU fallback) runs within the outer one's interval on the same stream; like
    torch's self time, the outer launch's self time excludes it."""
    for k in kernels:
        k.self_ns, k.nested_in = k.dur_ns, -1
    by_stream: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, k in enumerate(kernels):
        by_stream[(k.device, k.stream)].append(i)
    for ids in by_stream.values():
        ids.sort(key=lambda i: (kernels[i].start_ns, -kernels[i].dur_ns))
        open_: list[int] = []
        for i in ids:
            k = kernels[i]
            while open_ and kernels[open_[-1]].start_ns + kernels[open_[-1]].dur_ns <= k.start_ns:
                open_.pop()
            if open_ and k.start_ns + k.dur_ns <= kernels[open_[-1]].start_ns + kernels[open_[-1]].dur_ns:
                parent = kernels[open_[-1]]
                parent.self_ns -= k.dur_ns
                k.nested_in = open_[-1]
            open_.append(i)


def running_totals(memory: list[MemoryEvent], allocated_at_start: dict[int, int]) -> None:
    totals = dict(allocated_at_start)
    for m in memory:
        totals[m.device] = totals.get(m.device, 0) + m.bytes
        m.allocated = totals[m.device]


def _layout(host_trace, result) -> tuple[dict, int, bool]:
    """(trace as a dict, the ns time its `ts` values count from, whether it uses kineto's
    pid/tid: process id and system thread ids; else torch 1.13's "CPU functions" / torch tids)."""
    if isinstance(host_trace, list):  # torch 1.13 without libkineto: a plain event list
        return ({"traceEvents": host_trace, "displayTimeUnit": "ms"},
                result.trace_start_us() * 1000, False)
    if "baseTimeNanoseconds" in host_trace:
        return host_trace, int(host_trace["baseTimeNanoseconds"]), True
    # A kineto trace without a base: its ts are absolute µs.
    return host_trace, 0, True


def _us(ns: int, origin: int) -> float:
    return round((ns - origin) / 1000.0, 3)


# Flow ids of the launch arrows, clear of the small ids of torch's own flows (kineto's
# forward-backward links) and within JavaScript's exact integers.
FLOW_ID_BASE = 1 << 40


def merge(host_trace, result, kernels, memory, devices) -> dict:
    """torch's Chrome trace plus the device: per device a process with one thread per stream
    holding its kernels, flow arrows from each launching host op, and a memory counter."""
    trace, origin, kineto = _layout(host_trace, result)
    events = trace["traceEvents"]
    host_pid = os.getpid() if kineto else "CPU functions"
    device_pid = {d.index: 1_000_000 + d.index for d in devices}  # clear of real process ids
    used = sorted({(k.device, k.stream) for k in kernels} | {(m.device, -1) for m in memory})
    for d in sorted({d for d, _ in used}):
        pid = device_pid[d]
        events.append({"name": "process_name", "ph": "M", "pid": pid,
                       "args": {"name": f"{opweave.DEVICE}:{d} (device)"}})
        events.append({"name": "process_sort_index", "ph": "M", "pid": pid, "args": {"sort_index": pid}})
    for d, s in used:
        if s >= 0:
            events.append({"name": "thread_name", "ph": "M", "pid": device_pid[d], "tid": s,
                           "args": {"name": f"stream {s}" + (" (default)" if s == 0 else "")}})
    for n, k in enumerate(kernels, 1):
        ts = _us(k.start_ns, origin)
        args = {"device": k.device, "stream": k.stream, "aten op": k.aten,
                "host op": k.host_op, "correlation": n, "launch ts": _us(k.launch_ns, origin),
                "queue delay us": round((k.start_ns - k.launch_ns) / 1000.0, 3)}
        if k.host_op and kineto:  # torch 2.x traces name their host events' ids so
            args["External id"] = k.host_id
        if k.fallback:
            args["fell back to CPU"] = True
        events.append({"ph": "X", "cat": "gpu_memcpy" if k.is_memcpy else "kernel", "name": k.kernel,
                       "pid": device_pid[k.device], "tid": k.stream, "ts": ts,
                       "dur": round(k.dur_ns / 1000.0, 3), "args": args})
        # The arrow starts in the launching range, at its start as torch stamped it (torch's
        # clock may sit a few µs from ours, which would put launch_ns outside the range).
        host_tid = k.tid if kineto else k.rf_tid
        flow_ns = k.host_start_ns if k.host_op else k.launch_ns
        events.append({"ph": "s", "id": FLOW_ID_BASE + n, "pid": host_pid, "tid": host_tid, "cat": "ac2g",
                       "name": "launch", "ts": _us(flow_ns, origin)})
        events.append({"ph": "f", "id": FLOW_ID_BASE + n, "pid": device_pid[k.device], "tid": k.stream,
                       "cat": "ac2g", "name": "launch", "ts": ts, "bp": "e"})
    for m in memory:
        events.append({"ph": "C", "name": "Device memory allocated", "pid": device_pid[m.device],
                       "ts": _us(m.ts_ns, origin), "args": {"bytes": m.allocated}})
        if not kineto:  # torch 1.13 leaves the profiler's memory records out of its trace
            events.append({"ph": "i", "s": "t", "name": MEMORY_EVENT, "pid": host_pid,
                           "tid": m.rf_tid, "ts": _us(m.ts_ns, origin),
                           "args": {"Device Type": _PRIVATEUSE1, "Device Id": m.device,
                                    "Bytes": m.bytes, "Total Allocated": m.allocated}})
    trace["opweave"] = {"devices": [{"index": d.index, "align_window_ns": d.align_window_ns,
                                     "allocated_at_start": d.allocated_at_start} for d in devices],
                        "device_pids": {str(k): v for k, v in device_pid.items()},
                        "host_pid": host_pid, "kernels": len(kernels)}
    return trace
