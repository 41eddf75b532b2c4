"""The `opweave` c10d backend: torch.distributed collectives on OpWeave device tensors.

`ProcessGroupOpWeave` is a torch.distributed ProcessGroup written in Python (c10d's PyProcessGroup
trampoline lets DDP's C++ reducer call it). Device tensors go to the vendor's collective seam
(runtime/include/opweave/collective_seam.h) through one communicator per device, created on
first use from a unique id that rank 0 puts in the c10d store; CPU tensors go to a Gloo group the
backend owns (so `init_process_group("opweave")` serves both, and the mixed
"cpu:gloo,<device>:opweave" spelling works too).

Device tensors take the host-staged path -- copied to the host, reduced by Gloo, copied back --
when the vendor has no collectives, when its transport only reaches one host
(scope "host") and the group spans several (hostname and network namespace differ), or when
OPWEAVE_DIST_TRANSPORT=host asks for it; OPWEAVE_DIST_TRANSPORT=vendor makes those cases an error
instead. `pg.transport` says which path device tensors take.
"""

from __future__ import annotations

import datetime
import os
import socket

import torch
import torch.distributed as dist

from .work import Completer, DeferredWork, FutureWork, Keepalive

_C = torch.ops.opweave
NAME = "opweave"

_REDUCE_CODES = [
    (dist.ReduceOp.SUM, 0),
    (dist.ReduceOp.PRODUCT, 1),
    (dist.ReduceOp.MIN, 2),
    (dist.ReduceOp.MAX, 3),
    (dist.ReduceOp.AVG, 4),
]


def _reduce_code(op, what: str, dtype: torch.dtype) -> int:
    for known, code in _REDUCE_CODES:
        if op == known:
            if known == dist.ReduceOp.AVG and not dtype.is_floating_point:
                raise ValueError(f"opweave {what}: average of {dtype} is not defined "
                                 "(integral dtype)")
            return code
    raise ValueError(f"opweave {what}: reduce op {op} is not supported "
                     "(SUM, PRODUCT, MIN, MAX and AVG are)")


_GLOO_WIDER = {torch.bfloat16: torch.float32, torch.int16: torch.int32, torch.bool: torch.uint8}


def _host_copy(t: torch.Tensor) -> torch.Tensor:
    """What the host-staged path hands Gloo for device tensor `t` (dtypes it lacks widened)."""
    return t.detach().to("cpu", _GLOO_WIDER.get(t.dtype, t.dtype)).contiguous()


def _opt(opts, name, default):
    return default if opts is None else getattr(opts, name, default)


def _host_id() -> str:
    """What makes two ranks one host for a host-scope transport: the hostname and the network
    namespace (two namespaces are two hosts to torch.distributed: different addresses)."""
    try:
        netns = os.stat("/proc/self/ns/net").st_ino
    except OSError:
        netns = 0
    return f"{socket.gethostname()}/{netns}"


def _flat(t: torch.Tensor) -> torch.Tensor:
    return t if t.is_contiguous() else t.contiguous()


def _out_buffer(t: torch.Tensor):
    """(contiguous buffer holding `t`'s values, the step copying it back into `t` or None)."""
    buf = _flat(t)
    return buf, (None if buf is t else (lambda: t.copy_(buf)))


class ProcessGroupOpWeave(dist.ProcessGroup):
    def __init__(self, store, rank: int, size: int, timeout: datetime.timedelta):
        super().__init__(rank, size)
        self._store = store
        self._timeout_ms = int(timeout.total_seconds() * 1000)
        self._gloo = dist.ProcessGroupGloo(dist.PrefixStore("gloo", store), rank, size, timeout)
        self._comms: dict[int, int] = {}
        self._p2p: list = []  # (buffer, tensor, peer, is_send, DeferredWork) not yet submitted
        self._completer = Completer()
        self._keep = Keepalive()
        self.transport = self._choose_transport()

    # ---- setup ----------------------------------------------------------------------------
    def _choose_transport(self) -> str:
        want = os.environ.get("OPWEAVE_DIST_TRANSPORT", "")
        if want not in ("", "host", "vendor"):
            raise ValueError(f"OPWEAVE_DIST_TRANSPORT={want!r}: expected 'host' or 'vendor'")
        from .. import report

        info = report()
        scope = info["collectives"]["scope"]
        self._store.set(f"host/{self.rank()}", _host_id())
        hosts = {self._store.get(f"host/{r}") for r in range(self.size())}
        reason = None
        if scope == "absent":
            reason = (f"vendor '{info['vendor']}' has no collectives"
                      + (f" ({info['collectives']['error']})" if info["collectives"]["error"] else ""))
        elif scope == "host" and len(hosts) > 1:
            reason = (f"vendor '{info['vendor']}' collectives reach one host and the group spans "
                      f"{len(hosts)}")
        if want == "vendor" and reason:
            raise RuntimeError(f"opweave: OPWEAVE_DIST_TRANSPORT=vendor, but {reason}")
        self.transport_reason = reason or ("OPWEAVE_DIST_TRANSPORT=host" if want == "host" else "")
        return "host" if (reason or want == "host") else "vendor"

    def _comm(self, device: torch.device) -> int:
        index = device.index if device.index is not None else torch.ops.opweave.current_device()
        comm = self._comms.get(index)
        if comm is None:
            # Numbered by creation order, not by device: ranks sit on different devices.
            key = f"comm/{len(self._comms)}"
            if self.rank() == 0:
                self._store.set(key, _C.comm_unique_id())
            uid = self._store.get(key)
            uid = uid.decode() if isinstance(uid, bytes) else uid
            comm = _C.comm_init(uid, self.rank(), self.size(), index, self._timeout_ms)
            self._comms[index] = comm
        return comm

    def _work(self, wait, result, finish=None, device=None):
        """The c10d work of an operation that is done when `wait()` and `finish()` returned."""
        return self._keep(FutureWork(self._completer.future(wait, result, finish, device)))

    def getBackendName(self) -> str:  # noqa: N802  (c10d's name)
        return NAME

    def _device_tensors(self, tensors) -> bool:
        """True for device tensors (all of them), False for CPU ones; anything else is refused."""
        kinds = {t.device.type for t in tensors}
        if kinds == {"cpu"}:
            return False
        if len(kinds) == 1 and next(iter(kinds)) in ("privateuseone", self._device_type()):
            return True
        raise ValueError(f"opweave backend: tensors on {sorted(kinds)}; expected CPU tensors or "
                         f"{self._device_type()} tensors, not a mix")

    @staticmethod
    def _device_type() -> str:
        from .. import DEVICE
        return DEVICE

    # ---- the device path ------------------------------------------------------------------
    def _run(self, kind, inputs, outputs, result, op=0, root=-1, send_counts=(), recv_counts=(),
             finish=None):
        self._flush_p2p()
        comm = self._comm(outputs[0].device)
        work = _C.comm_run(comm, kind, inputs, outputs, op, root, list(send_counts),
                           list(recv_counts))
        return self._work(lambda: _C.comm_wait(comm, work), result, finish,
                                    outputs[0].device.index)

    def _after(self, inner, result, finish, device_tensor):
        """A work done when `inner` (any c10d work) is, after `finish`."""
        index = None if device_tensor.device.type == "cpu" else device_tensor.device.index
        return self._work(inner.wait, result, finish, index)

    def _in_place(self, kind, tensor, op=0, root=-1):
        """A collective that reads and writes `tensor`, staged when it is not contiguous."""
        buf, finish = _out_buffer(tensor)
        return self._run(kind, [buf], [buf], [tensor], op=op, root=root, finish=finish)

    def _staged(self, name, args, outputs, result, op_arg=None):
        """Host-staged: `name` on the Gloo group with CPU copies; outputs copied back on wait.
        `args[op_arg]` holds the reduce op when there is one. Gloo has no bool and no average:
        bool travels as uint8 with SUM/MAX as MAX and PRODUCT/MIN as MIN; AVG is a SUM divided
        by the group size; dtypes Gloo lacks travel widened (bfloat16 as float32, int16 as
        int32)."""
        copies, bools = {}, False

        def host(x):
            nonlocal bools
            if isinstance(x, (list, tuple)):
                return [host(y) for y in x]
            if not isinstance(x, torch.Tensor) or x.device.type == "cpu":
                return x
            c = _host_copy(x)
            bools = bools or x.dtype == torch.bool
            copies[id(x)] = c
            return c

        host_args = [host(a) for a in args]
        average = False
        if op_arg is not None:
            opts = host_args[op_arg]
            if bools:
                # (ReduceOp first: torch 2.x's RedOpType == ReduceOp is False, `in` compares so)
                logical = opts.reduceOp == dist.ReduceOp.SUM or opts.reduceOp == dist.ReduceOp.MAX
                opts.reduceOp = dist.ReduceOp.MAX if logical else dist.ReduceOp.MIN
            elif opts.reduceOp == dist.ReduceOp.AVG:
                opts.reduceOp, average = dist.ReduceOp.SUM, True
        work = getattr(self._gloo, name)(*host_args)

        def finish():
            for t in outputs:
                c = copies[id(t)]
                t.copy_(c / self.size() if average else c)

        return self._work(work.wait, result, finish, outputs[0].device.index)

    # ---- collectives ----------------------------------------------------------------------
    def allreduce(self, tensors, opts=None):
        (t,) = tensors
        red = opts.reduceOp if hasattr(opts, "reduceOp") else (opts or dist.ReduceOp.SUM)
        if not self._device_tensors([t]):
            return self._gloo.allreduce(tensors, opts or dist.AllreduceOptions())
        code = _reduce_code(red, "allreduce", t.dtype)
        if self.transport == "host":
            o = dist.AllreduceOptions()
            o.reduceOp = red
            return self._staged("allreduce", [[t], o], [t], tensors, op_arg=1)
        return self._in_place("allreduce", t, op=code)

    def _all(self, works, result):
        """One work for several (coalesced collectives); they complete in issue order."""
        return self._work(lambda: [w.wait() for w in works], result)

    def allreduce_coalesced(self, tensors, opts=None):
        o = dist.AllreduceOptions()
        o.reduceOp = _opt(opts, "reduceOp", dist.ReduceOp.SUM)
        return self._all([self.allreduce([t], o) for t in tensors], tensors)

    def broadcast(self, tensors, opts=None):
        (t,) = tensors
        root = _opt(opts, "rootRank", 0)
        if not self._device_tensors([t]):
            return self._gloo.broadcast(tensors, opts or dist.BroadcastOptions())
        if self.transport == "host":
            o = dist.BroadcastOptions()
            o.rootRank = root
            return self._staged("broadcast", [[t], o], [t], tensors)
        return self._in_place("broadcast", t, root=root)

    def reduce(self, tensors, opts=None):
        (t,) = tensors
        red, root = _opt(opts, "reduceOp", dist.ReduceOp.SUM), _opt(opts, "rootRank", 0)
        if not self._device_tensors([t]):
            return self._gloo.reduce(tensors, opts or dist.ReduceOptions())
        code = _reduce_code(red, "reduce", t.dtype)
        if self.transport == "host":
            o = dist.ReduceOptions()
            o.reduceOp, o.rootRank = red, root
            return self._staged("reduce", [[t], o], [t], tensors, op_arg=1)
        return self._in_place("reduce", t, op=code, root=root)

    def _done(self, result):
        """A work with nothing to move (Gloo dies of SIGFPE on an all-empty allgather)."""
        return self._work(lambda: None, result)

    def allgather(self, output_tensors, input_tensors, opts=None):
        (outs,), (t,) = output_tensors, input_tensors
        if t.numel() == 0 and all(o.numel() == 0 for o in outs):
            return self._done(outs)  # every rank has the same (empty) size
        if not self._device_tensors([t, *outs]):
            return self._gloo.allgather(output_tensors, input_tensors, opts or dist.AllgatherOptions())
        if self.transport == "host":
            if len({o.numel() for o in outs}) > 1:  # Gloo's allgather needs equal sizes
                return self._staged_allgatherv(outs, t, output_tensors)
            return self._staged("allgather", [[outs], [t]], outs, outs)
        counts = [o.numel() for o in outs]
        flat = torch.empty(sum(counts), dtype=t.dtype, device=t.device)

        def finish():
            for o, piece in zip(outs, flat.split(counts)):
                o.copy_(piece.view(o.shape))

        return self._run("allgather", [_flat(t)], [flat], outs, recv_counts=counts,
                         finish=finish)

    def _staged_allgatherv(self, outs, t, result):
        """Unequal sizes on the host path: pad to the largest, gather, cut."""
        longest = max(o.numel() for o in outs)
        padded = torch.zeros(longest, dtype=t.dtype, device=t.device)
        padded[: t.numel()] = t.reshape(-1)
        pieces = [torch.empty(longest, dtype=t.dtype, device=t.device) for _ in outs]
        inner = self._staged("allgather", [[pieces], [padded]], pieces, pieces)

        def finish():
            for o, p in zip(outs, pieces):
                o.copy_(p[: o.numel()].view(o.shape))

        return self._after(inner, result, finish, t)

    def _allgather_base(self, output, input, opts=None):
        n = self.size()
        if self.transport == "host" or not self._device_tensors([output, input]):
            return self.allgather([list(output.chunk(n))], [input], opts)
        buf, finish = _out_buffer(output)
        return self._run("allgather", [_flat(input)], [buf], output,
                         recv_counts=[input.numel()] * n, finish=finish)

    def allgather_into_tensor_coalesced(self, outputs, inputs, opts=None):
        return self._all([self._allgather_base(o, i) for o, i in zip(outputs, inputs)], outputs)

    def reduce_scatter(self, output_tensors, input_tensors, opts=None):
        (t,), (ins,) = output_tensors, input_tensors
        red = _opt(opts, "reduceOp", dist.ReduceOp.SUM)
        if not self._device_tensors([t, *ins]):
            return self._gloo.reduce_scatter(output_tensors, input_tensors,
                                             opts or dist.ReduceScatterOptions())
        flat_in = torch.cat([x.reshape(-1) for x in ins])
        return self._reduce_scatter_flat(t, flat_in, red, t)

    def _reduce_scatter_base(self, output, input, opts=None):
        red = _opt(opts, "reduceOp", dist.ReduceOp.SUM)
        self._device_tensors([output, input])
        return self._reduce_scatter_flat(output, _flat(input).reshape(-1), red, output)

    def reduce_scatter_tensor_coalesced(self, outputs, inputs, opts=None):
        return self._all([self._reduce_scatter_base(o, i, opts) for o, i in zip(outputs, inputs)],
                         outputs)

    def _reduce_scatter_flat(self, out, flat_in, red, result):
        if out.device.type == "cpu" or self.transport == "host":
            # Gloo has no reduce_scatter: allreduce the whole input, keep this rank's block.
            whole = flat_in.clone()
            o = dist.AllreduceOptions()
            o.reduceOp = red
            inner = (self._gloo.allreduce([whole], o) if out.device.type == "cpu"
                     else self._staged("allreduce", [[whole], o], [whole], [whole], op_arg=1))
            n = out.numel()
            block = lambda: out.copy_(whole[self.rank() * n:(self.rank() + 1) * n].view(out.shape))  # noqa: E731
            return self._after(inner, result, block, out)
        buf, finish = _out_buffer(out)
        return self._run("reduce_scatter", [flat_in], [buf], result,
                         op=_reduce_code(red, "reduce_scatter", out.dtype), finish=finish)

    def alltoall_base(self, output, input, output_split_sizes, input_split_sizes, opts=None):
        n = self.size()
        if not self._device_tensors([output, input]):
            return self._gloo.alltoall_base(output, input, output_split_sizes, input_split_sizes,
                                            opts or dist.AllToAllOptions())
        row_in = input[0].numel() if input.dim() and input.size(0) else 0
        row_out = output[0].numel() if output.dim() and output.size(0) else 0
        splits_in = list(input_split_sizes) or [input.size(0) // n] * n
        splits_out = list(output_split_sizes) or [output.size(0) // n] * n
        send = [s * row_in for s in splits_in]
        recv = [s * row_out for s in splits_out]
        if self.transport == "host":
            return self._staged("alltoall_base",
                                [output, input, list(output_split_sizes), list(input_split_sizes),
                                 dist.AllToAllOptions()], [output], output)
        buf, finish = _out_buffer(output)
        return self._run("all_to_all", [_flat(input)], [buf], output, send_counts=send,
                         recv_counts=recv, finish=finish)

    def alltoall(self, output_tensors, input_tensors, opts=None):
        if not self._device_tensors([*output_tensors, *input_tensors]):
            return self._gloo.alltoall(output_tensors, input_tensors, opts or dist.AllToAllOptions())
        t0 = input_tensors[0]
        flat_in = torch.cat([x.reshape(-1) for x in input_tensors])
        counts_out = [o.numel() for o in output_tensors]
        flat_out = torch.empty(sum(counts_out), dtype=t0.dtype, device=t0.device)
        work = self.alltoall_base(flat_out, flat_in, counts_out,
                                  [x.numel() for x in input_tensors])

        def finish():
            for o, piece in zip(output_tensors, flat_out.split(counts_out)):
                o.copy_(piece.view(o.shape))

        return self._after(work, output_tensors, finish, t0)

    def gather(self, output_tensors, input_tensors, opts=None):
        (t,), root = input_tensors, _opt(opts, "rootRank", 0)
        if not self._device_tensors([t]):
            return self._gloo.gather(output_tensors, input_tensors, opts or dist.GatherOptions())
        # Everyone gathers; only the root keeps the result (a vendor has no gather).
        outs = output_tensors[0] if self.rank() == root else [torch.empty_like(t) for _ in range(self.size())]
        return self.allgather([outs], [t])

    def scatter(self, output_tensors, input_tensors, opts=None):
        (t,), root = output_tensors, _opt(opts, "rootRank", 0)
        if not self._device_tensors([t]):
            return self._gloo.scatter(output_tensors, input_tensors, opts or dist.ScatterOptions())
        n, numel = self.size(), t.numel()
        if self.rank() == root:
            flat_in = torch.cat([x.reshape(-1) for x in input_tensors[0]])
            send = [numel] * n
        else:
            flat_in = torch.empty(0, dtype=t.dtype, device=t.device)
            send = [0] * n
        recv = [numel if r == root else 0 for r in range(n)]
        if self.transport == "host":
            o = dist.ScatterOptions()
            o.rootRank = root
            ins = [list(input_tensors[0])] if self.rank() == root else []
            return self._staged("scatter", [[t], ins, o], [t], output_tensors)
        buf, finish = _out_buffer(t)
        return self._run("all_to_all", [flat_in], [buf], output_tensors, send_counts=send,
                         recv_counts=recv, finish=finish)

    def barrier(self, opts=None):
        self._flush_p2p()
        if self.transport == "vendor" and self._comms:
            index, comm = next(iter(self._comms.items()))
            work = _C.comm_run(comm, "barrier", [], [], 0, -1, [], [])
            return self._work(lambda: _C.comm_wait(comm, work), [], None, index)
        return self._gloo.barrier(opts or dist.BarrierOptions())

    # ---- point to point -------------------------------------------------------------------
    def send(self, tensors, dst, tag=0):
        return self._p2p_op(tensors, dst, True)

    def recv(self, tensors, src, tag=0):
        return self._p2p_op(tensors, src, False)

    def recv_anysource(self, tensors, tag=0):
        raise RuntimeError("opweave backend: recv from any source is not supported; name the peer")

    def _p2p_op(self, tensors, peer, is_send):
        (t,) = tensors
        if not self._device_tensors([t]):
            return (self._gloo.send if is_send else self._gloo.recv)(tensors, peer, 0)
        if self.transport == "host":
            if is_send:
                return self._gloo.send([_host_copy(t)], peer, 0)
            return self._staged("recv", [[t], peer, 0], [t], tensors)
        buf = _flat(t) if is_send else (t if t.is_contiguous() else torch.empty_like(t, memory_format=torch.contiguous_format))
        work = DeferredWork(self._flush_p2p, tensors)
        self._p2p.append((buf, t, peer, is_send, work))
        return work

    def _flush_p2p(self):
        """Submits every pending send/receive as one vendor group (per device)."""
        if not self._p2p:
            return
        pending, self._p2p = self._p2p, []
        for index in {buf.device.index for buf, *_ in pending}:
            group = [p for p in pending if p[0].device.index == index]
            comm = self._comm(group[0][0].device)
            copies = [(buf, t) for buf, t, _, is_send, _ in group if buf is not t and not is_send]
            work = _C.comm_p2p(comm, [p[0] for p in group], [p[2] for p in group],
                               [1 if p[3] else 0 for p in group])
            finish = (lambda c=copies: [t.copy_(b) for b, t in c]) if copies else None
            inner = self._work(lambda c=comm, w=work: _C.comm_wait(c, w),
                                         [p[1] for p in group], finish, index)
            for *_, deferred in group:
                deferred.inner = inner

    def __del__(self):
        if hasattr(self, "_completer"):
            self._completer.close()
        for comm in getattr(self, "_comms", {}).values():
            try:
                _C.comm_destroy(comm)
            except Exception:  # interpreter shutdown, or the communicator failed
                pass


def create(store, rank, size, timeout):
    """c10d's backend creator (Backend.register_backend)."""
    return ProcessGroupOpWeave(store, rank, size, timeout)


def register() -> None:
    """Makes "opweave" a torch.distributed backend (idempotent); on torch 2.x for the device
    type in use, so init_process_group() with device tensors picks it."""
    if not dist.is_available() or hasattr(dist.Backend, NAME.upper()):
        return
    from ..device_module import TORCH2

    if TORCH2:
        dist.Backend.register_backend(NAME, create, devices=[ProcessGroupOpWeave._device_type()])
    else:
        dist.Backend.register_backend(NAME, create)
