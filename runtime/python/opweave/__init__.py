"""OpWeave: PyTorch on an OpWeave accelerator.

Import it next to torch; that is all the set-up there is::

    import torch, opweave

    x = torch.randn(4, 4, device="opweave")           # the current device (0 by default)
    y = torch.ones(4, device="opweave:1")             # an explicit device index
    z = x.to(opweave.device(1))                       # opweave.device(i) == torch.device(...)
    model.to(opweave.DEVICE)                          # "opweave" ("privateuseone" on 1.13)
    print(z.cpu())

Addressing the device: on torch 2.x the device type is the name the vendor declares
(default ``"opweave"``: ``torch.device("opweave:1")``, ``torch.opweave.device_count()``,
``tensor.opweave()``; see opweave.device_module). PyTorch 1.13 names out-of-tree
accelerators by their dispatch key, so there the device type is ``"privateuseone"``.
``opweave.DEVICE`` holds the name in use and ``opweave.device(i)`` the i-th device. Which
accelerator that is depends on the vendor library loaded at import: ``OPWEAVE_VENDOR``
(default ``sim``, the simulated accelerator). ``opweave.print_report()`` shows the vendor, its devices and
which DIOPI kernels it has; every op without a device kernel runs on the CPU (see
``opweave.fallback_stats()``).

Like CUDA, work is asynchronous: ops are queued on the current stream of a device and
``opweave.synchronize()`` waits for them. Copies to the CPU wait for the data unless
``non_blocking=True`` is passed, in which case call ``synchronize()`` before reading.

The library is found in ``$OPWEAVE_BUILD_DIR/lib``, else in the copy ``pip install .`` put
inside the package, else in ``<checkout>/build/lib`` (opweave._paths).
"""

from __future__ import annotations

import json
import sys
import pathlib

import torch

from . import _paths


def _library_path() -> pathlib.Path:
    return _paths.library("opweave")


def _load() -> None:
    lib = _library_path()
    if not lib.is_file():
        raise ImportError(f"opweave: {lib} not found; build it first (make build) or set "
                          "OPWEAVE_BUILD_DIR to the build directory")
    torch.ops.load_library(str(lib))
    error = json.loads(torch.ops.opweave.report())["load_error"]
    if error:
        raise ImportError(f"opweave: {error}")


_load()
_C = torch.ops.opweave

# The device type name: "opweave" (or the vendor's) on torch 2.x, set at the end of this file.
DEVICE = "privateuseone"

from .backward_thread import choose as _choose_backward_thread  # noqa: E402
from .backward_thread import set_backward_thread  # noqa: E402,F401

# "caller" or "device": where the importing thread runs the device's backward (see
# opweave.backward_thread; "caller" for a host-synchronous vendor on torch 2.x).
BACKWARD_THREAD = _choose_backward_thread(json.loads(_C.report())["host_synchronous"])
if BACKWARD_THREAD == "caller":
    set_backward_thread("caller")

from . import instrument  # noqa: E402  (needs the library loaded)
from . import optim  # noqa: E402  (Adam / AdamW with one fused call per parameter group)
from . import memcheck  # noqa: E402  (device memory checker; OPWEAVE_MEMCHECK=1)


def _index(device) -> int:
    """Device index of `device` (None: the current device; int, str or torch.device)."""
    if device is None:
        return -1
    if isinstance(device, int):
        return device
    device = torch.device(device)
    if device.type != DEVICE:
        raise ValueError(f"expected a {DEVICE} device, got {device}")
    return -1 if device.index is None else device.index


def device(i: int = 0) -> torch.device:
    """torch.device of the i-th opweave device."""
    return torch.device(DEVICE, i)


def device_count() -> int:
    return int(_C.device_count())


def current_device() -> int:
    """Current device of the calling thread (used for "privateuseone" without an index)."""
    return int(_C.current_device())


def set_device(i) -> None:
    _C.set_device(_index(i))


def synchronize(device=None) -> None:
    """Wait for all work queued on `device` (default: the current device)."""
    _C.synchronize(_index(device))


class Stream:
    """A stream of an opweave device. `Stream(device)` takes one from the device's pool
    (round robin, as torch.cuda.Stream does); use it with `with opweave.stream(s):`."""

    def __init__(self, device=None, *, _info: dict | None = None):
        info = _info if _info is not None else json.loads(_C.stream_from_pool(_index(device)))
        self.device_index = int(info["device"])
        self.id = int(info["id"])
        self.handle = info["handle"]

    @property
    def device(self) -> torch.device:
        return globals()["device"](self.device_index)

    def synchronize(self) -> None:
        _C.stream_synchronize(self.device_index, self.id)

    def query(self) -> bool:
        """True when all work queued on the stream has completed."""
        return bool(_C.stream_query(self.device_index, self.id))

    def wait_event(self, event: "Event") -> None:
        event.wait(self)

    def __eq__(self, other) -> bool:
        return isinstance(other, Stream) and (self.device_index, self.id) == (other.device_index, other.id)

    def __hash__(self) -> int:
        return hash((self.device_index, self.id))

    def __repr__(self) -> str:
        return f"opweave.Stream(device={DEVICE}:{self.device_index}, id={self.id}, handle={self.handle})"


def current_stream(device=None) -> Stream:
    return Stream(_info=json.loads(_C.current_stream(_index(device))))


def default_stream(device=None) -> Stream:
    return Stream(_info=json.loads(_C.default_stream(_index(device))))


def set_stream(stream: Stream) -> None:
    """Make `stream` current for its device on the calling thread."""
    _C.set_stream(stream.device_index, stream.id)


class stream:
    """Context manager: `with opweave.stream(s): ...` queues work on `s`."""

    def __init__(self, s: Stream | None):
        self.stream = s
        self.previous = None

    def __enter__(self):
        if self.stream is not None:
            self.previous = current_stream(self.stream.device_index)
            set_stream(self.stream)
        return self.stream

    def __exit__(self, *exc):
        if self.previous is not None:
            set_stream(self.previous)
        return False


class Event:
    """A device event: record it on a stream, wait for it from another stream or the host."""

    def __init__(self):
        self._id = int(_C.event_create())

    def record(self, stream: Stream | None = None) -> None:
        stream = stream or current_stream()
        _C.event_record(self._id, stream.device_index, stream.id)

    def wait(self, stream: Stream | None = None) -> None:
        """Make `stream` (default: current) wait for the work recorded before this event."""
        stream = stream or current_stream()
        _C.event_wait(self._id, stream.device_index, stream.id)

    def query(self) -> bool:
        return bool(_C.event_query(self._id))

    def synchronize(self) -> None:
        _C.event_synchronize(self._id)

    def elapsed_time(self, end: "Event") -> float:
        """Milliseconds between this event and `end` (both completed)."""
        return float(_C.event_elapsed_time(self._id, end._id))

    def __del__(self):
        try:
            _C.event_destroy(self._id)
        except Exception:  # interpreter shutdown
            pass


def memory_stats(device=None) -> dict:
    """Caching allocator statistics of `device` in bytes: allocated (handed out), reserved
    (obtained from the vendor, including the cache), peak (high-water mark of allocated),
    plus counters (num_allocs, cache_hits, device_mallocs, num_ooms, ...)."""
    return json.loads(_C.memory_stats(_index(device)))


def memory_allocated(device=None) -> int:
    return memory_stats(device)["allocated"]


def memory_reserved(device=None) -> int:
    return memory_stats(device)["reserved"]


def reset_peak_memory_stats(device=None) -> None:
    _C.reset_peak_memory_stats(_index(device))


def empty_cache() -> None:
    """Return all cached, unused device memory to the vendor."""
    _C.empty_cache()


def caching_allocator_alloc(size: int, device=None, stream: Stream | None = None) -> int:
    """`size` bytes of device memory from the caching allocator, as an integer address
    (torch.cuda.caching_allocator_alloc), for code that manages device pointers itself; reused
    on `stream` (default: the device's current stream). Free it with caching_allocator_delete."""
    if stream is None:
        return int(_C.caching_allocator_alloc(int(size), _index(device)))
    with globals()["stream"](stream):
        return int(_C.caching_allocator_alloc(int(size), stream.device_index))


def caching_allocator_delete(ptr: int) -> None:
    """Free memory from caching_allocator_alloc. A pointer it did not hand out, or one freed
    already, raises RuntimeError and frees nothing (opweave.memcheck says where it came from)."""
    _C.caching_allocator_delete(int(ptr))


def manual_seed(seed: int) -> None:
    """Seed the random generator of every opweave device (device kernels of random ops).
    Ops that fall back to CPU use torch's CPU generator: seed it with torch.manual_seed."""
    _C.manual_seed(int(seed))


def generator_state(device=None) -> dict:
    """{"seed", "offset"} of the default generator of `device`."""
    return json.loads(_C.generator_state(_index(device)))


def report() -> dict:
    """What was loaded: vendor name and library, seam version, device count, whether its
    kernels compute on the host synchronously (host_synchronous), optional seam
    capabilities present/absent, the collective seam's scope ("host", "network" or "absent"),
    and the DIOPI functions the vendor resolved or lacks."""
    return json.loads(_C.report())


def print_report() -> None:
    r = report()
    d = r["diopi"]
    print(f"opweave vendor '{r['vendor']}' ({r['library']})")
    print(f"  seam version {r['seam_version']}, {r['device_count']} device(s) as {DEVICE}:0..{r['device_count'] - 1}")
    print(f"  kernels compute {'on the host, synchronously' if r['host_synchronous'] else 'on the device'};"
          f" backward on the {'calling' if BACKWARD_THREAD == 'caller' else 'device'} thread")
    print(f"  capabilities present: {', '.join(r['capabilities']['present']) or '-'}")
    print(f"  capabilities absent:  {', '.join(r['capabilities']['absent']) or '-'}")
    c = r["collectives"]
    scope = {"host": "present, ranks on one host", "network": "present, ranks on any host"}
    print(f"  collectives: {scope.get(c['scope'], 'absent')}" + (f" ({c['error']})" if c["error"] else ""))
    print(f"  DIOPI functions: {len(d['resolved'])} of {d['total']} resolved")
    if d["missing"]:
        print(f"  missing (run on CPU): {', '.join(d['missing'])}")
    a = adaptor_stats()
    if a["error"]:
        print(f"  adaptor: {a['error']}")
    if a["functions"]:
        print(f"  adapted on the device ({len(a['functions'])} functions"
              f"{', narrowing allowed' if a['narrowing'] else ''}):")
        for name, f in a["functions"].items():
            conv = ", ".join(f"{k}->{v or 'CPU'}" for k, v in f["conversions"].items())
            calls = ", ".join(f"{k} {n}" for k, n in f["converted"].items()) or "none converted yet"
            dense = "; contiguous" if f["contiguous"] else ""
            print(f"    {name}: {conv}{dense} ({calls})")


def adaptor_stats(reset: bool = False) -> dict:
    """What the adaptor does for this vendor (its vendors/<name>/kernel_support*.yaml):
    {"narrowing": bool, "error": str, "functions": {diopi name: {"contiguous": bool,
    "conversions": {from dtype: dtype computed in ("" = declined, runs on the CPU)},
    "converted": {from dtype or "strided": tensors converted since start (or the last
    reset)}}}}."""
    return json.loads(_C.adaptor_stats(bool(reset)))


def fallback_stats(reset: bool = False) -> dict:
    """{aten op name: number of calls that ran on CPU} since start (or the last reset)."""
    return {name: rec["count"] for name, rec in json.loads(_C.fallback_stats(bool(reset))).items()}


def fallback_reasons() -> dict:
    """{aten op name: why its first call fell back to CPU}."""
    return {name: rec["reason"] for name, rec in json.loads(_C.fallback_stats(False)).items()}


def compile(fn, *args, **kwargs):  # noqa: A001  (mirrors torch.compile)
    """Graph mode: see opweave.dicp.compile (imported on first use)."""
    from .dicp import compile as dicp_compile
    return dicp_compile(fn, *args, **kwargs)


# Last, once every function above exists: on torch 2.x the device takes its own name and
# torch.<name> becomes this package's device module (opweave.device_module).
from . import device_module as _device_module  # noqa: E402

DEVICE = _device_module.register(sys.modules[__name__])

# torch.distributed's "opweave" backend (opweave.distributed), for the device name just set.
from .distributed import register as _register_distributed  # noqa: E402

_register_distributed()
