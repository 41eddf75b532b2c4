"""Work objects of the opweave c10d backend.

Every collective returns a `FutureWork` over a torch future. One completion thread per process
group completes those futures in issue order: it blocks (without the GIL) until the vendor's
collective is done on its stream, runs the step that copies results out of staging buffers,
and sets the result -- or the error, a RuntimeError naming the collective and the rank (a dead
peer, a timeout, arguments that differ between ranks), which `wait()` raises. Compute keeps
running meanwhile, so DDP's gradient buckets are reduced while backward goes on.

c10d's C++ callers (DDP's reducer, parameter broadcast and shape checks) reach a Python work's
methods only while the Python object lives (pybind's trampoline), and hold the work beyond
the call that made it; so the process group keeps every work it handed out alive until it has
completed and a few hundred newer ones exist (`Keepalive`). (c10d's own
`_create_work_from_future` would avoid that, but its wait() swallows the future's error.)

Sends and receives are only ever called from Python (dist.isend / irecv / batch_isend_irecv), so
they return a Python work (`DeferredWork`) that submits every pending send/receive of the group
as one vendor group when first waited for.
"""

from __future__ import annotations

import atexit
import collections
import queue
import threading
import weakref

import torch

_C = torch.ops.opweave
Work = torch._C._distributed_c10d.Work


class Completer:
    """The completion thread of one process group (started on first use). Stopped at exit
    before the interpreter finalises: a daemon thread inside a torch call then would be torn
    down mid-C++ (std::terminate)."""

    _live: "weakref.WeakSet[Completer]" = weakref.WeakSet()

    def __init__(self):
        self._queue: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        Completer._live.add(self)

    @staticmethod
    def close_all():
        for c in list(Completer._live):
            c.close()

    def future(self, wait, result, finish=None, device: int | None = None):
        """A future completed with `result` after `wait()` and `finish()` (run on `device`)
        returned, or with the exception either raised."""
        fut = torch.futures.Future()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="opweave-dist", daemon=True)
            self._thread.start()
        self._queue.put((wait, finish, device, result, fut))
        return fut

    def close(self):
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None

    def _run(self):
        while True:
            item = self._queue.get()
            if item is None:
                return
            wait, finish, device, result, fut = item
            try:
                wait()
                if finish is not None:
                    _C.set_device(device)
                    finish()
                    _C.stream_synchronize(device, 0)  # this thread's copies are on stream 0
                fut.set_result(result)
            except Exception as e:  # noqa: BLE001  (handed to whoever waits)
                fut.set_exception(e)


atexit.register(Completer.close_all)


class FutureWork(Work):
    """A c10d Work over a torch future: wait() raises the future's error."""

    def __init__(self, fut):
        super().__init__()
        self._fut = fut

    def wait(self, timeout=None) -> bool:  # the communicator's timeout bounds every wait
        self._fut.wait()
        return True

    def is_completed(self) -> bool:
        return self._fut.done()

    def is_success(self) -> bool:
        return self._fut.done() and self.exception() is None

    def exception(self):
        if not self._fut.done():
            return None
        try:
            self._fut.value()
        except Exception as e:  # noqa: BLE001
            return e
        return None

    def result(self):
        return self._fut.value()

    def get_future(self):
        return self._fut


class Keepalive:
    """Holds the works a process group handed out: all unfinished ones, and the newest
    `depth` finished ones (see the module docstring)."""

    def __init__(self, depth: int = 256):
        self._works: collections.deque = collections.deque()
        self._depth = depth

    def __call__(self, work):
        self._works.append(work)
        while len(self._works) > self._depth and self._works[0].is_completed():
            self._works.popleft()
        return work


class DeferredWork(Work):
    """A send or receive: queued until some work waits, then submitted with every other pending
    send/receive of the group as one vendor group (so isend/irecv pairs in any order cannot
    deadlock). `inner` is the c10d Work of that group once submitted."""

    def __init__(self, flush, result):
        super().__init__()
        self._flush, self._result = flush, result
        self.inner = None

    def _submitted(self):
        if self.inner is None:
            self._flush()
        return self.inner

    def wait(self, timeout=None) -> bool:
        return self._submitted().wait()

    def is_completed(self) -> bool:
        return self._submitted().is_completed()

    def is_success(self) -> bool:
        return self.inner is not None and self.inner.is_success()

    def exception(self):
        return None if self.inner is None else self.inner.exception()

    def result(self):
        return self._result

    def get_future(self):
        return self._submitted().get_future()
