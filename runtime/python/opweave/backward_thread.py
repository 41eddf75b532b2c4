"""Which thread runs autograd's backward for the device: the caller's, or the engine's own.

PyTorch's autograd engine runs the backward of every non-CPU device on a thread of its own per
device (CUDA's design: the host thread only queues kernels, and a CPU part of the graph can run
beside the device's). For a vendor whose kernels compute on the host, synchronously
(``OW_SEAM_HOST_SYNCHRONOUS`` in its seam: aten_ref, a freshly scaffolded vendor), that thread
is pure cost: the backward leaves the core whose caches the forward filled, two thread hand-offs
per step, and on torch 2.x, where ATen's kernels use every core through OpenMP, a second
OpenMP team beside the caller's. With more threads than cores libgomp stops spinning, so every
parallel region of the backward wakes a sleeping worker (measured, small ResNet step on
aten_ref, torch 2.6, 2 cores: ~150 voluntary context switches per step against none, 11.3 ms
against 6.8 ms per step).

So on torch 2.x, for such a vendor, importing opweave turns autograd's multithreading off for
the importing thread (``torch.autograd.set_multithreading_enabled(False)``, a per-thread
setting): its backward runs on the calling thread, as native CPU's does. An asynchronous
vendor (sim, cuda) keeps PyTorch's default. ``OPWEAVE_BACKWARD_THREAD=caller|device`` overrides
the choice at import; ``set_backward_thread`` applies one to the thread that calls it (another
thread that runs a backward). torch 1.13 has no such switch: there the device thread is always
used, and asking for ``caller`` only warns.

The setting is the engine's, so it covers every device's backward on that thread: a process
that also trains on CUDA would run CUDA's backward on the calling thread as well; set
``OPWEAVE_BACKWARD_THREAD=device`` there.
"""

from __future__ import annotations

import os
import warnings

import torch

CHOICES = ("caller", "device")
_SWITCH = getattr(torch._C, "_set_multithreading_enabled", None)  # torch >= 2.0


def choose(host_synchronous: bool) -> str:
    """The backward thread for a vendor: OPWEAVE_BACKWARD_THREAD when set, else "caller" for a
    host-synchronous vendor on torch 2.x and "device" otherwise."""
    value = os.environ.get("OPWEAVE_BACKWARD_THREAD", "")
    if value and value not in CHOICES:
        raise ValueError(f"OPWEAVE_BACKWARD_THREAD={value!r}: expected one of {', '.join(CHOICES)}")
    if value == "caller" and _SWITCH is None:
        warnings.warn(f"OPWEAVE_BACKWARD_THREAD=caller: torch {torch.__version__} always runs a "
                      "device's backward on autograd's device thread", stacklevel=3)
        return "device"
    if value:
        return value
    return "caller" if host_synchronous and _SWITCH is not None else "device"


def set_backward_thread(where: str) -> None:
    """Run the backwards this thread starts on this thread ("caller") or on autograd's device
    thread ("device", PyTorch's default). torch 2.x only; "device" is accepted everywhere."""
    if where not in CHOICES:
        raise ValueError(f"set_backward_thread({where!r}): expected one of {', '.join(CHOICES)}")
    if _SWITCH is None:
        if where == "caller":
            raise RuntimeError(f"torch {torch.__version__} has no switch for the backward thread "
                               "(torch.autograd.set_multithreading_enabled needs torch 2.x)")
        return
    _SWITCH(where == "device")
