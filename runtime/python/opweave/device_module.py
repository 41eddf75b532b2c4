"""torch 2.x: the device under its own name, the way PyTorch's out-of-tree backends do it.

`register(pkg)` (called by `import opweave` on torch >= 2) renames PrivateUse1 to the device
name the vendor declares (default "opweave"), registers `torch.<name>` (this module's
`build()`), and generates the tensor / module / storage methods (`t.opweave()`,
`t.is_opweave`, `model.opweave()`, `storage.opweave()`). torch itself then uses the module:
factories and `.to()` lazily initialise through it, `torch.manual_seed` seeds it,
`torch.random.fork_rng`, `torch.load` (`device` context manager), autocast
(`get_amp_supported_dtype`), checkpointing and the DataLoader's pin-memory thread call into it.

torch 1.13 can neither rename the device type nor import a device module: there the device
stays "privateuseone" and none of this runs.
"""

from __future__ import annotations

import re
import types

import torch

TORCH2 = int(torch.__version__.split(".")[0]) >= 2
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def _index(pkg, device) -> int:
    """Device index of `device`: None / "opweave" -> current, int, "opweave:1", torch.device."""
    if device is None:
        return pkg.current_device()
    if isinstance(device, int):
        return device
    d = torch.device(device)
    if d.type != pkg.DEVICE:
        raise ValueError(f"expected a {pkg.DEVICE} device, got {d}")
    return pkg.current_device() if d.index is None else d.index


def build(pkg, name: str) -> types.ModuleType:
    """The module torch sees as `torch.<name>` (torch.cuda's counterpart)."""
    mod = types.ModuleType(f"torch.{name}", f"The {name} device (OpWeave, vendor "
                                             f"{pkg.report()['vendor']!r}).")

    class device:  # noqa: N801  (torch.cuda.device's name)
        """Context manager making a device current (torch.load restores storages inside it)."""

        def __init__(self, dev):
            self.idx = -1 if dev is None else _index(pkg, dev)
            self.prev = -1

        def __enter__(self):
            self.prev = pkg.current_device()
            if self.idx >= 0 and self.idx != self.prev:
                pkg.set_device(self.idx)
            return self

        def __exit__(self, *exc):
            if self.idx >= 0 and self.idx != self.prev:
                pkg.set_device(self.prev)
            return False

    def get_rng_state(device=name) -> torch.Tensor:
        return pkg._C.get_rng_state(_index(pkg, device))

    def set_rng_state(new_state: torch.Tensor, device=name) -> None:
        pkg._C.set_rng_state(_index(pkg, device), new_state)

    def get_rng_state_all() -> list:
        return [get_rng_state(i) for i in range(pkg.device_count())]

    def set_rng_state_all(states) -> None:
        for i, s in enumerate(states):
            set_rng_state(s, i)

    def initial_seed() -> int:
        return int(pkg.generator_state()["seed"])

    def max_memory_allocated(device=None) -> int:
        return pkg.memory_stats(device)["peak"]

    def synchronize(device=None) -> None:
        pkg.synchronize(device)

    entries = {
        # devices
        "is_available": lambda: pkg.device_count() > 0,
        "device_count": pkg.device_count,
        "current_device": pkg.current_device,
        "set_device": lambda d: pkg.set_device(_index(pkg, d)),
        "device": device,
        "synchronize": synchronize,
        # initialisation: the runtime is up once the library loaded
        "_lazy_init": lambda: None,
        "is_initialized": lambda: True,
        "_initialized": True,
        "_is_in_bad_fork": lambda: False,
        # streams and events
        "Stream": pkg.Stream,
        "Event": pkg.Event,
        "stream": pkg.stream,
        "current_stream": pkg.current_stream,
        "default_stream": pkg.default_stream,
        "set_stream": pkg.set_stream,
        # random numbers
        "manual_seed": pkg.manual_seed,
        "manual_seed_all": pkg.manual_seed,
        "seed": lambda: pkg.manual_seed(torch.seed()),
        "seed_all": lambda: pkg.manual_seed(torch.seed()),
        "initial_seed": initial_seed,
        "get_rng_state": get_rng_state,
        "set_rng_state": set_rng_state,
        "get_rng_state_all": get_rng_state_all,
        "set_rng_state_all": set_rng_state_all,
        # memory
        "memory_stats": pkg.memory_stats,
        "memory_allocated": pkg.memory_allocated,
        "memory_reserved": pkg.memory_reserved,
        "max_memory_allocated": max_memory_allocated,
        "max_memory_reserved": lambda device=None: pkg.memory_stats(device)["peak_reserved"],
        "reset_peak_memory_stats": pkg.reset_peak_memory_stats,
        "empty_cache": pkg.empty_cache,
        "caching_allocator_alloc": pkg.caching_allocator_alloc,
        "caching_allocator_delete": pkg.caching_allocator_delete,
        # autocast: the dtypes the device's kernels compute in lower precision
        "get_amp_supported_dtype": lambda: [torch.float16, torch.bfloat16],
    }
    for key, value in entries.items():
        setattr(mod, key, value)
    return mod


def register(pkg) -> str:
    """Makes the device torch's: returns the device type name ("privateuseone" on 1.13)."""
    if not TORCH2:
        return "privateuseone"
    name = pkg.report()["device_name"]
    if not _NAME.match(name):
        raise ImportError(f"opweave: vendor {pkg.report()['vendor']!r} declares the device "
                          f"name {name!r}; expected lower-case letters, digits and '_'")
    current = torch._C._get_privateuse1_backend_name()
    if current not in ("privateuseone", name):
        raise ImportError(f"opweave: the PrivateUse1 device is already named {current!r} by "
                          f"another backend; torch allows one out-of-tree device per process")
    if current == "privateuseone":
        try:
            torch.utils.rename_privateuse1_backend(name)
        except RuntimeError as e:   # a built-in device type's name, for one
            raise ImportError(f"opweave: vendor {pkg.report()['vendor']!r} declares the device "
                              f"name {name!r}, which torch refuses: {e}") from e
    if not hasattr(torch, name):
        torch._register_device_module(name, build(pkg, name))
        torch.utils.generate_methods_for_privateuse1_backend(
            for_tensor=True, for_module=True, for_packed_sequence=True, for_storage=True)
    return name
