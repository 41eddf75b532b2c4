"""`import opweave.cuda_compat`: training scripts written for CUDA run unchanged on the OpWeave
device (torch 2.x).

Nothing changes until this module is imported. Then:

- every torch call that takes a device (factories' `device=`, `.to(...)`, `.cuda()`,
  `Module.cuda()`, `tensor.is_cuda`) sees "cuda" / "cuda:N" / torch.device("cuda") as the
  OpWeave device: one torch function mode (torch.overrides.TorchFunctionMode, PyTorch's
  extension point for this), pushed at import;
- the `torch.cuda` functions scripts call (is_available, device_count, current_device,
  set_device, synchronize, Stream / Event / stream, manual_seed(_all), rng state, memory
  statistics, empty_cache) are those of the device module `torch.<device>`;
- `torch.autocast("cuda")`, `torch.cuda.amp.autocast()`, `torch.amp.GradScaler("cuda")` and
  `torch.cuda.amp.GradScaler()` use the device: the two base classes' constructors map the
  device type (the only replacements of torch code besides `torch.cuda`'s attributes;
  `REPLACED` lists every one);
- `torch.backends.cudnn.benchmark` / `deterministic` are flags torch already accepts: no
  effect here. `DataLoader(pin_memory=True)` pins through the device's hooks.

What the device cannot honour fails clearly instead of running on the CPU: the CUDA-only
queries (`get_device_capability`, `get_device_properties`) raise, naming this module. Devices
keep their own name: `str(t.device)` is "opweave:0" and `t.device == torch.device("cuda")` is
False. `init_process_group("nccl")` is not mapped yet (OpWeave has no c10d backend).

`OPWEAVE_CUDA_COMPAT_TARGET=cpu` maps CUDA to the CPU instead: the same unchanged script as the
CPU reference run. `disable()` undoes everything.
"""

from __future__ import annotations

import os
import time

import torch
from torch.overrides import TorchFunctionMode

import opweave
from opweave.device_module import TORCH2

if not TORCH2:
    raise ImportError("opweave.cuda_compat needs torch 2.x (device module, autocast and hooks "
                      "for out-of-tree devices); on torch 1.13 address the device as "
                      "opweave.DEVICE")

TARGET = os.environ.get("OPWEAVE_CUDA_COMPAT_TARGET") or opweave.DEVICE
if TARGET not in (opweave.DEVICE, "cpu"):
    raise ImportError(f"OPWEAVE_CUDA_COMPAT_TARGET={TARGET!r}: expected {opweave.DEVICE!r} "
                      "or 'cpu'")


def target_device(device=None) -> torch.device:
    """The device a CUDA device spec (None, index, "cuda:1", torch.device) stands for."""
    if TARGET == "cpu":
        return torch.device("cpu")
    if device is None:
        return torch.device(TARGET, opweave.current_device())
    if isinstance(device, int):
        return torch.device(TARGET, device)
    d = torch.device(device)
    if d.type == "cuda":
        return torch.device(TARGET, opweave.current_device() if d.index is None else d.index)
    return d


def _is_cuda_spec(value) -> bool:
    if isinstance(value, torch.device):
        return value.type == "cuda"
    return isinstance(value, str) and (value == "cuda" or value.startswith("cuda:"))


def _map(value):
    return target_device(value) if _is_cuda_spec(value) else value


_TENSOR_CUDA = torch.Tensor.cuda
_IS_CUDA_GET = torch.Tensor.is_cuda.__get__


class _CudaAsDevice(TorchFunctionMode):
    """Rewrites CUDA device arguments of every torch call to the target device."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func == _IS_CUDA_GET:   # a fresh method-wrapper each access: equal, not identical
            return args[0].device.type == TARGET
        if func is _TENSOR_CUDA:
            device = args[1] if len(args) > 1 else kwargs.get("device")
            return args[0].to(target_device(device),
                              non_blocking=kwargs.get("non_blocking", False),
                              memory_format=kwargs.get("memory_format", torch.preserve_format))
        if any(_is_cuda_spec(a) for a in args):
            args = tuple(_map(a) for a in args)
        if "device" in kwargs and _is_cuda_spec(kwargs["device"]):
            kwargs = dict(kwargs, device=target_device(kwargs["device"]))
        return func(*args, **kwargs)


# ---- torch.cuda's functions ----------------------------------------------------------------

class _HostEvent:
    """torch.cuda.Event for the CPU reference run: host time stamps."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        self.t = None

    def record(self, stream=None):
        self.t = time.perf_counter()

    def synchronize(self):
        pass

    def wait(self, stream=None):
        pass

    def query(self):
        return True

    def elapsed_time(self, end) -> float:
        return (end.t - self.t) * 1e3


def _device_functions() -> dict:
    if TARGET == "cpu":
        return {
            "is_available": lambda: True, "device_count": lambda: 1,
            "current_device": lambda: 0, "set_device": lambda d: None,
            "synchronize": lambda device=None: None, "Event": _HostEvent,
            # the CUDA generator does not exist here: seeding it leaves the CPU's alone, as on
            # a GPU (torch.manual_seed itself calls torch.cuda.manual_seed_all)
            "manual_seed": lambda seed: None, "manual_seed_all": lambda seed: None,
            "memory_allocated": lambda device=None: 0, "max_memory_allocated": lambda device=None: 0,
            "memory_reserved": lambda device=None: 0, "max_memory_reserved": lambda device=None: 0,
            "reset_peak_memory_stats": lambda device=None: None, "empty_cache": lambda: None,
            "get_rng_state": lambda device=None: torch.get_rng_state(),
            "set_rng_state": lambda state, device=None: torch.set_rng_state(state),
            "is_bf16_supported": lambda including_emulation=True: True,
            "get_device_name": lambda device=None: "CPU (opweave.cuda_compat reference run)",
        }
    mod = getattr(torch, opweave.DEVICE)

    class Event(opweave.Event):
        """torch.cuda.Event(enable_timing=..., ...): device events always carry time stamps."""

        def __init__(self, enable_timing=False, blocking=False, interprocess=False):
            if interprocess:
                raise RuntimeError("opweave.cuda_compat: interprocess events are not supported")
            super().__init__()

    class Stream(opweave.Stream):
        def __init__(self, device=None, priority=0, **kwargs):
            super().__init__(target_device(device).index)

    names = ("is_available", "device_count", "current_device", "synchronize", "stream",
             "current_stream", "default_stream", "set_stream", "manual_seed", "manual_seed_all",
             "seed", "seed_all", "initial_seed", "get_rng_state", "set_rng_state",
             "get_rng_state_all", "set_rng_state_all", "memory_stats", "memory_allocated",
             "max_memory_allocated", "memory_reserved", "max_memory_reserved",
             "reset_peak_memory_stats", "empty_cache", "is_initialized", "_lazy_init")
    found = {n: getattr(mod, n) for n in names}
    found.update({
        "set_device": lambda device: mod.set_device(target_device(device).index),
        "device": lambda device: mod.device(target_device(device)),
        "Event": Event, "Stream": Stream,
        "is_bf16_supported": lambda including_emulation=True: True,
        "get_device_name": lambda device=None: f"OpWeave {opweave.report()['vendor']} "
                                               f"({target_device(device)})",
    })
    return found


def _cuda_only(name):
    def refuse(*args, **kwargs):
        raise RuntimeError(f"opweave.cuda_compat: torch.cuda.{name} describes NVIDIA hardware "
                           f"and has no meaning for the {TARGET} device")
    return refuse


# ---- autocast and GradScaler: the device type their constructors take ----------------------

def _mapping_init(init, position: int, name: str):
    def __init__(self, *args, **kwargs):
        if name in kwargs and kwargs[name] == "cuda":
            kwargs[name] = TARGET
        elif len(args) > position and args[position] == "cuda":
            args = args[:position] + (TARGET,) + args[position + 1:]
        init(self, *args, **kwargs)
    __init__.__wrapped__ = init
    return __init__


# ---- switching on and off -------------------------------------------------------------------

REPLACED: list[str] = []   # every torch attribute this module replaced, for the README / users
_saved: list[tuple[object, str, object]] = []
_mode: _CudaAsDevice | None = None


def _replace(owner, attr: str, value, label: str) -> None:
    _saved.append((owner, attr, getattr(owner, attr, None)))
    setattr(owner, attr, value)
    REPLACED.append(label)


def enable() -> None:
    global _mode
    if _mode is not None:
        return
    for name, fn in _device_functions().items():
        _replace(torch.cuda, name, fn, f"torch.cuda.{name}")
    for name in ("get_device_capability", "get_device_properties"):
        _replace(torch.cuda, name, _cuda_only(name), f"torch.cuda.{name} (raises)")
    autocast = torch.amp.autocast_mode.autocast
    _replace(autocast, "__init__", _mapping_init(autocast.__init__, 0, "device_type"),
             "torch.amp.autocast.__init__ (device_type 'cuda')")
    scaler = torch.amp.GradScaler
    _replace(scaler, "__init__", _mapping_init(scaler.__init__, 0, "device"),
             "torch.amp.GradScaler.__init__ (device 'cuda')")
    _mode = _CudaAsDevice()
    _mode.__enter__()


def disable() -> None:
    """Undoes enable(): torch.cuda, autocast and GradScaler as they were, the mode popped."""
    global _mode
    if _mode is None:
        return
    _mode.__exit__(None, None, None)
    _mode = None
    while _saved:
        owner, attr, value = _saved.pop()
        setattr(owner, attr, value)
    REPLACED.clear()


enable()
