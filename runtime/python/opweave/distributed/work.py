"""Work objects of the opweave c10d backend.

A device collective runs asynchronously on its communicator's stream; `wait()` blocks the host
until it is done (like NCCL with blocking wait) and raises what failed -- a dead peer, a
timeout, arguments that differ between ranks -- as a RuntimeError naming the collective and the
rank. Then `finish` runs: copies out of the staging buffers a collective needed (non-contiguous
tensors, lists of outputs). `get_future()` (what DDP's reducer uses) waits the same way and
returns a completed future holding the result tensors.
"""

from __future__ import annotations

import torch

_C = torch.ops.opweave
Work = torch._C._distributed_c10d.Work


def _completed_future(value):
    fut = torch.futures.Future()
    fut.set_result(value)
    return fut


class DeviceWork(Work):
    """One operation on a communicator (`comm`, `work` ids of torch.ops.opweave.comm_*)."""

    def __init__(self, comm: int, work: int, result, finish=None):
        super().__init__()
        self._comm, self._work = comm, work
        self._result, self._finish = result, finish
        self._state = "pending"  # -> "done" | "failed"
        self._error: Exception | None = None

    def _complete(self):
        if self._state == "done":
            return
        if self._state == "failed":
            raise self._error
        try:
            _C.comm_wait(self._comm, self._work)
        except RuntimeError as e:
            self._state, self._error = "failed", e
            raise
        self._state = "done"
        if self._finish is not None:
            self._finish()

    def wait(self, timeout=None) -> bool:  # the communicator's timeout bounds every wait
        self._complete()
        return True

    def is_completed(self) -> bool:
        return self._state != "pending" or _C.comm_query(self._comm, self._work)

    def is_success(self) -> bool:
        return self._state == "done"

    def exception(self):
        return self._error

    def result(self):
        return self._result

    def get_future(self):
        self._complete()
        return _completed_future(self._result)

    def __del__(self):
        if self._state == "pending":
            try:
                _C.comm_release(self._comm, self._work)
            except Exception:  # interpreter shutdown: the library may be gone
                pass


class DeferredWork(Work):
    """A send or receive: queued until some work waits, then submitted with every other
    pending send/receive of the group as one vendor group (so isend/irecv pairs in any order
    cannot deadlock)."""

    def __init__(self, flush, result):
        super().__init__()
        self._flush, self._result = flush, result
        self.inner: DeviceWork | None = None

    def wait(self, timeout=None) -> bool:
        if self.inner is None:
            self._flush()
        return self.inner.wait()

    def is_completed(self) -> bool:
        if self.inner is None:
            self._flush()
        return self.inner.is_completed()

    def is_success(self) -> bool:
        return self.inner is not None and self.inner.is_success()

    def exception(self):
        return None if self.inner is None else self.inner.exception()

    def result(self):
        return self._result

    def get_future(self):
        self.wait()
        return _completed_future(self._result)


class HostWork(Work):
    """Another work (a Gloo one on host copies of device tensors, or a device one) followed by
    `finish`, which copies the results where they belong."""

    def __init__(self, inner, result, finish=None):
        super().__init__()
        self._inner, self._result, self._finish = inner, result, finish
        self._done = False

    def wait(self, timeout=None) -> bool:
        if not self._done:
            self._inner.wait()
            self._done = True
            if self._finish is not None:
                self._finish()
        return True

    def is_completed(self) -> bool:
        return self._done or self._inner.is_completed()

    def is_success(self) -> bool:
        return self._done

    def exception(self):
        return None

    def result(self):
        return self._result

    def get_future(self):
        self.wait()
        return _completed_future(self._result)


class ListWork(Work):
    """Several works waited as one (coalesced collectives)."""

    def __init__(self, works, result):
        super().__init__()
        self._works, self._result = works, result

    def wait(self, timeout=None) -> bool:
        for w in self._works:
            w.wait()
        return True

    def is_completed(self) -> bool:
        return all(w.is_completed() for w in self._works)

    def is_success(self) -> bool:
        return all(w.is_success() for w in self._works)

    def exception(self):
        return None

    def result(self):
        return self._result

    def get_future(self):
        self.wait()
        return _completed_future(self._result)
