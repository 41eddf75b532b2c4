"""torch.profiler that shows the device: kernel times on the device's own time line, device
memory, and one Chrome trace with host ops and device kernels side by side.

    import opweave.profiler
    with opweave.profiler.profile(profile_memory=True) as prof:    # torch.profiler.profile's arguments
        loss = model(x, y); loss.backward(); opt.step()
    print(prof.device_table())                 # host vs device time per DIOPI function
    prof.export_chrome_trace("trace.json")     # host ops + one track per device stream + memory
    print(prof.key_averages().table())         # torch's own tables work as usual

While the block runs, every kernel launch is bracketed by two events on the stream it is queued
on (runtime/device/profiler.cpp); when it ends the device is synchronised and the durations are
read back, so they are device time, not host time. Device starts are placed on the host
clock of torch's profiler through a reference event recorded at start (never earlier than the
truth, at most `align_window_ns` later). `prof.kernels` holds one DeviceKernel per launch, each
matched to the host op that launched it.

Memory: while a session runs, or the profiler switch is on (``OPWEAVE_PROFILE_NAMES=1`` /
``opweave.instrument.set_profile_names(True)``, which plain ``torch.profiler.profile`` then
needs), the caching allocator reports every device allocation and free to torch's profiler,
so ``profile_memory=True`` records them as it records CUDA's (``"[memory]"`` events); the
merged trace adds a counter track of allocated device memory.

Cost: outside a session nothing beyond the per-op flag test (the device-timing check sits
behind the per-op profiler flag the wrappers already test). Inside it every op takes the
instrumented path (a RecordFunction named after its DIOPI function) plus two event records
on its stream: about 1.5-2.5 µs of host time per op more than plain torch.profiler on the sim
(README, Profiling). Sessions do not nest.

torch 2.x's own hook, the PrivateUse1 profiler stubs (runtime/aten/profiler_stubs.cpp), is
registered too: ``torch.autograd.profiler.profile(use_device="opweave")`` records device events
around every op through it (see README: torch 2.6 drops those times from its tables).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field

import torch

import opweave
from opweave.device_module import TORCH2

from . import table as _table
from . import trace as _trace
from .trace import DeviceKernel, HostEvent, MemoryEvent

__all__ = ["profile", "DeviceKernel", "MemoryEvent", "HostEvent"]


def _ops():
    return torch.ops.opweave


@dataclass
class DeviceInfo:
    index: int
    ref_host_ns: int      # host time (CLOCK_REALTIME ns) given to the reference event
    align_window_ns: int  # how much later than the truth a device time may be placed
    allocated_at_start: int = 0
    stats_at_start: dict = field(default_factory=dict)
    stats_at_end: dict = field(default_factory=dict)


class profile:
    """``torch.profiler.profile`` (same arguments) that also times kernels on the device.

    Attributes after the block: ``kernels`` (DeviceKernel, in launch order), ``memory``
    (MemoryEvent of device allocations/frees, with ``profile_memory=True``), ``devices``
    (DeviceInfo). Anything else (``key_averages``, ``events``, ``export_stacks``, ...) is the
    wrapped torch profiler's, available as ``torch_profiler``."""

    def __init__(self, *args, **kwargs):
        self.torch_profiler = torch.profiler.profile(*args, **kwargs)
        self.kernels: list[DeviceKernel] = []
        self.memory: list[MemoryEvent] = []
        self.devices: list[DeviceInfo] = []
        self.unresolved = 0
        self._host: list[HostEvent] = []
        self._running = False

    # -- control ------------------------------------------------------------------------------
    def start(self) -> None:
        stats = [opweave.memory_stats(d) for d in range(opweave.device_count())]
        _ops().device_timing_start()  # synchronises the devices and records the references
        try:
            self.torch_profiler.start()
        except BaseException:
            _ops().device_timing_stop()
            raise
        self._running = True
        self._stats_at_start = stats

    def stop(self) -> None:
        if not self._running:
            return
        self._running = False
        # torch's profiler first: the device synchronisation and the read-back of the launch
        # events are not the profiled program's work.
        try:
            self.torch_profiler.stop()
        finally:
            raw = json.loads(_ops().device_timing_stop())
        self._collect(raw)

    def step(self) -> None:
        self.torch_profiler.step()

    def __enter__(self) -> "profile":
        self.start()
        return self

    def __exit__(self, *exc) -> bool:
        self.stop()
        return False

    def __getattr__(self, name):
        # Only reached for names this class lacks: torch's profiler API.
        if name == "torch_profiler":
            raise AttributeError(name)
        return getattr(self.torch_profiler, name)

    # -- results ------------------------------------------------------------------------------
    def _collect(self, raw: dict) -> None:
        self.devices = []
        for d in raw["devices"]:
            info = DeviceInfo(d["index"], d["ref_host_ns"], d["align_window_ns"])
            if d["index"] < len(self._stats_at_start):
                info.stats_at_start = self._stats_at_start[d["index"]]
                info.allocated_at_start = info.stats_at_start["allocated"]
            info.stats_at_end = opweave.memory_stats(d["index"])
            self.devices.append(info)
        self.unresolved = raw["unresolved"]
        self.kernels = [DeviceKernel.from_json(k) for k in raw["kernels"]]
        result = getattr(self.torch_profiler.profiler, "kineto_results", None)
        self._host, self.memory = _trace.host_and_memory_events(result)
        _trace.match_launches(self.kernels, self._host)
        _trace.nest(self.kernels)
        _trace.running_totals(self.memory, {d.index: d.allocated_at_start for d in self.devices})
        if TORCH2 and result is not None:
            self._attach_to_torch_events()

    def _attach_to_torch_events(self) -> None:
        """torch 2.x: each launch's device time becomes a kernel of the host range that
        launched it, and the events name the device, so torch's own tables
        (key_averages().table()) show `Self OPWEAVE` / `OPWEAVE total` time per op, and its
        `OPWEAVE Mem` columns. (torch 1.13's tables call any kernel time CUDA time: there the
        device table is the one to read.)"""
        events = self.torch_profiler.profiler.function_events
        by_id = {e.id: e for e in events}
        for k in self.kernels:
            fe = by_id.get(k.host_id) if k.host_op else None
            if fe is not None:
                # What torch does with the stubs' times (profiler.py, _parse_kineto_results):
                # a "legacy" event holds its own device time, its whole interval; torch's
                # self time then subtracts the launches nested in it.
                fe.append_kernel(k.kernel, k.device, k.dur_ns / 1000.0)
                fe.is_legacy = True
        for e in events:
            e.use_device = opweave.DEVICE

    def device_table(self, sort_by: str = "device_total", row_limit: int | None = None) -> str:
        """Per kernel (DIOPI function, or memcpy): calls, host launch time, device time, the
        ATen ops that launched it; then device busy time and device memory per device."""
        return _table.device_table(self.kernels, self.memory, self.devices, sort_by, row_limit)

    def export_chrome_trace(self, path: str) -> None:
        """torch's Chrome trace of the host plus, per device, one track per stream with the
        kernels (flow arrows from the host op that launched each), and a memory counter."""
        fd, tmp = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        try:
            self.torch_profiler.export_chrome_trace(tmp)
            with open(tmp) as f:
                host_trace = json.load(f)
        finally:
            os.unlink(tmp)
        result = self.torch_profiler.profiler.kineto_results
        merged = _trace.merge(host_trace, result, self.kernels, self.memory, self.devices)
        with open(path, "w") as f:
            json.dump(merged, f)
