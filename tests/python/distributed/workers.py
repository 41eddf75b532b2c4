"""Distributed scenarios, one process per rank (started by launch.py); each prints one JSON line.

    python3 workers.py <scenario> [args]    with RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT set
"""

from __future__ import annotations

import datetime
import json
import os
import sys
import time
import traceback

import torch
import torch.distributed as dist

import opweave

RANK, WORLD = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
DEV = opweave.device(RANK % opweave.device_count())
FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
DTYPES = FLOATS + (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool)
LARGE_DTYPES = (torch.float32, torch.bfloat16, torch.int64, torch.bool)
TOL = {torch.float16: 2e-3, torch.bfloat16: 1.6e-2, torch.float32: 1e-5, torch.float64: 1e-12}
R = dist.ReduceOp


def init(timeout_s: float = 60) -> None:
    opweave.set_device(DEV.index)
    dist.init_process_group("opweave", timeout=datetime.timedelta(seconds=timeout_s))


def emit(**result) -> None:
    print(json.dumps(result), flush=True)


def data(rank: int, shape, dtype, salt: int, near_one: bool = False) -> torch.Tensor:
    g = torch.Generator().manual_seed(7919 * rank + salt)
    if dtype == torch.bool:
        return torch.rand(shape, generator=g) > 0.5
    if dtype in FLOATS:
        x = torch.randn(shape, generator=g, dtype=torch.float64)
        return (1 + 0.1 * x if near_one else x).to(dtype)
    return torch.randint(0 if dtype == torch.uint8 else -3, 4, shape, generator=g).to(dtype)


def on_device(t: torch.Tensor, noncontig: bool) -> torch.Tensor:
    """`t` on the device; a transposed (non-contiguous) view of the same values when asked."""
    if noncontig and t.dim() == 2:
        return t.t().contiguous().to(DEV).t()
    return t.to(DEV)


def reference(xs: list[torch.Tensor], op) -> torch.Tensor:
    dtype = xs[0].dtype
    if dtype == torch.bool:
        s = torch.stack(xs)
        return s.any(0) if op in (R.SUM, R.MAX) else s.all(0)
    s = torch.stack([x.to(torch.float64) for x in xs])
    out = {R.SUM: lambda: s.sum(0), R.PRODUCT: lambda: s.prod(0), R.MIN: lambda: s.amin(0),
           R.MAX: lambda: s.amax(0), R.AVG: lambda: s.mean(0)}[op]()
    return out.to(dtype)


class Matrix:
    def __init__(self):
        self.cases, self.failures = 0, []

    def check(self, name: str, got: torch.Tensor, want: torch.Tensor) -> None:
        self.cases += 1
        got = got.cpu()
        try:
            if got.shape != want.shape or got.dtype != want.dtype:
                raise AssertionError(f"got {got.dtype}{list(got.shape)}, want {want.dtype}{list(want.shape)}")
            if want.dtype in FLOATS:
                torch.testing.assert_close(got, want, rtol=TOL[want.dtype], atol=TOL[want.dtype])
            elif not torch.equal(got, want):
                raise AssertionError(f"got {got.flatten()[:8].tolist()}, want {want.flatten()[:8].tolist()}")
        except AssertionError as e:
            self.failures.append(f"{name}: {str(e)[:300]}")


def run_matrix(m: Matrix, dtype, shape, label: str, large: bool) -> None:
    nc = label == "noncontig"
    tag = f"{label}/{dtype}".replace("torch.", "")
    xs = lambda salt, **kw: [data(r, shape, dtype, salt, **kw) for r in range(WORLD)]  # noqa: E731

    ops = [R.SUM] if large else [R.SUM, R.PRODUCT, R.MIN, R.MAX] + ([R.AVG] if dtype in FLOATS else [])
    for i, op in enumerate(ops):
        ins = xs(10 + i, near_one=op == R.PRODUCT)
        t = on_device(ins[RANK], nc)
        dist.all_reduce(t, op=op)
        m.check(f"all_reduce {op} {tag}", t, reference(ins, op))
    if dtype not in FLOATS and not large:
        try:  # average of integers is declined, not computed wrong
            dist.all_reduce(torch.ones(3, dtype=dtype, device=DEV), op=R.AVG)
            m.failures.append(f"all_reduce AVG {tag}: integral average was accepted")
        except (ValueError, RuntimeError) as e:
            m.cases += 1
            if "average" not in str(e) and "AVG" not in str(e):
                m.failures.append(f"all_reduce AVG {tag}: unclear error {e}")

    ins = xs(20)
    t = on_device(ins[RANK], nc)
    dist.broadcast(t, src=WORLD - 1)
    m.check(f"broadcast {tag}", t, ins[WORLD - 1])

    ins = xs(30)
    t = on_device(ins[RANK], nc)
    dist.all_gather_into_tensor(out := torch.empty((WORLD * ins[0].numel(),), dtype=dtype, device=DEV),
                                t.reshape(-1) if not nc else t.contiguous().reshape(-1))
    m.check(f"all_gather_into_tensor {tag}", out, torch.cat([x.reshape(-1) for x in ins]))

    blocks = [data(r, (WORLD * max(1, ins[0].numel()),), dtype, 40) for r in range(WORLD)]
    out = torch.empty(max(1, ins[0].numel()), dtype=dtype, device=DEV)
    dist.reduce_scatter_tensor(out, blocks[RANK].to(DEV), op=R.SUM)
    m.check(f"reduce_scatter_tensor {tag}", out, reference(blocks, R.SUM).chunk(WORLD)[RANK])

    rows = shape[0] if shape else 0
    src = [data(r, (WORLD * rows,) + tuple(shape[1:]), dtype, 50) for r in range(WORLD)]
    out = torch.empty_like(src[RANK]).to(DEV)
    dist.all_to_all_single(out, src[RANK].to(DEV))
    m.check(f"all_to_all_single {tag}", out,
            torch.cat([src[j].chunk(WORLD)[RANK] for j in range(WORLD)]) if rows else src[RANK])

    ring_in = data(RANK, shape, dtype, 60)
    got = torch.empty(shape, dtype=dtype, device=DEV)
    reqs = dist.batch_isend_irecv([dist.P2POp(dist.irecv, got, (RANK - 1) % WORLD),
                                   dist.P2POp(dist.isend, on_device(ring_in, nc), (RANK + 1) % WORLD)])
    for q in reqs:
        q.wait()
    m.check(f"batch_isend_irecv ring {tag}", got, data((RANK - 1) % WORLD, shape, dtype, 60))
    if large:
        return

    ins = xs(70)
    t = on_device(ins[RANK], nc)
    dist.reduce(t, dst=0, op=R.MAX)
    if RANK == 0:
        m.check(f"reduce MAX {tag}", t, reference(ins, R.MAX))

    ins = xs(80)
    outs = [torch.empty(shape, dtype=dtype, device=DEV) for _ in range(WORLD)]
    dist.all_gather(outs, on_device(ins[RANK], nc))
    for r in range(WORLD):
        m.check(f"all_gather [{r}] {tag}", outs[r], ins[r])

    # unequal sizes: rank r contributes r + 1 elements (none for the empty case)
    ins = [data(r, (0 if not ins[0].numel() else r + 1,), dtype, 85) for r in range(WORLD)]
    outs = [torch.empty_like(x, device=DEV) for x in ins]
    dist.all_gather(outs, ins[RANK].to(DEV))
    for r in range(WORLD):
        m.check(f"all_gather unequal [{r}] {tag}", outs[r], ins[r])

    lists = [[data(r, shape, dtype, 90 + j) for j in range(WORLD)] for r in range(WORLD)]
    out = torch.empty(shape, dtype=dtype, device=DEV)
    dist.reduce_scatter(out, [x.to(DEV) for x in lists[RANK]], op=R.SUM)
    m.check(f"reduce_scatter {tag}", out, reference([lists[r][RANK] for r in range(WORLD)], R.SUM))

    # split sizes: rank r sends (r + j) % 3 rows of 2 to rank j
    c = lambda a, b: (a + b) % 3  # noqa: E731
    srcs = [data(r, (sum(c(r, j) for j in range(WORLD)), 2), dtype, 100) for r in range(WORLD)]
    out = torch.empty((sum(c(j, RANK) for j in range(WORLD)), 2), dtype=dtype, device=DEV)
    dist.all_to_all_single(out, srcs[RANK].to(DEV), [c(j, RANK) for j in range(WORLD)],
                           [c(RANK, j) for j in range(WORLD)])
    want = torch.cat([srcs[j].split([c(j, k) for k in range(WORLD)])[RANK] for j in range(WORLD)])
    m.check(f"all_to_all_single splits {tag}", out, want)

    outs = [torch.empty(shape, dtype=dtype, device=DEV) for _ in range(WORLD)]
    dist.all_to_all(outs, [x.to(DEV) for x in lists[RANK]])
    for j in range(WORLD):
        m.check(f"all_to_all [{j}] {tag}", outs[j], lists[j][RANK])

    got = torch.empty(shape, dtype=dtype, device=DEV)
    dist.scatter(got, [x.to(DEV) for x in lists[0]] if RANK == 0 else None, src=0)
    m.check(f"scatter {tag}", got, lists[0][RANK])

    ins = xs(110)
    outs = [torch.empty(shape, dtype=dtype, device=DEV) for _ in range(WORLD)] if RANK == 0 else None
    dist.gather(on_device(ins[RANK], nc), outs, dst=0)
    if RANK == 0:
        for r in range(WORLD):
            m.check(f"gather [{r}] {tag}", outs[r], ins[r])


def matrix() -> None:
    init()
    m = Matrix()
    shapes = [("empty", (0,)), ("one", (1,)), ("small", (5, 6)), ("noncontig", (6, 5))]
    t0 = time.time()
    try:
        for label, shape in shapes:
            for dtype in DTYPES:
                run_matrix(m, dtype, shape, label, large=False)
        if os.environ.get("OPWEAVE_TEST_LARGE", "1") == "1":
            for dtype in LARGE_DTYPES:  # several slot rounds
                run_matrix(m, dtype, (2_500_000,), "large", large=True)
        dist.barrier()
    except Exception:  # a collective failed: the ranks may be out of step, stop here
        m.failures.append("collective raised:\n" + traceback.format_exc()[-2000:])
    emit(cases=m.cases, failures=m.failures, seconds=round(time.time() - t0, 1),
         transport=dist.group.WORLD.transport)
    dist.destroy_process_group()


def faults(kind: str) -> None:
    """kind: dead (rank 1 exits before the collective), hang (rank 1 never joins it), size or
    dtype (rank 1's arguments differ), p2p (a receive expects another size than is sent)."""
    init(timeout_s=8)
    t = torch.ones(1000, device=DEV)
    dist.all_reduce(t)  # a good collective first: the communicator exists
    if kind in ("dead", "hang") and RANK == 1:
        if kind == "dead":
            os._exit(3)
        time.sleep(12)  # past the 8 s timeout of the others
        os._exit(0)
    t0 = time.time()
    try:
        if kind == "size":
            dist.all_reduce(torch.ones(1000 if RANK == 0 else 999, device=DEV))
        elif kind == "dtype":
            dist.all_reduce(torch.ones(1000, device=DEV, dtype=torch.float32 if RANK == 0 else torch.int64))
        elif kind == "p2p":
            if RANK == 0:
                dist.send(torch.ones(10, device=DEV), 1)
                dist.all_reduce(t)  # fails: rank 1 aborted the communicator
            else:
                dist.recv(torch.empty(12, device=DEV), 0)
        else:
            dist.all_reduce(t)
            t.cpu()
        emit(error=None, seconds=round(time.time() - t0, 2))
    except Exception as e:  # noqa: BLE001
        emit(error=f"{type(e).__name__}: {e}", seconds=round(time.time() - t0, 2))
    os._exit(0)  # do not tear down a broken group


def transport() -> None:
    """The path device tensors take, and one allreduce of each dtype through it."""
    init()
    bad = []
    for dtype in DTYPES:
        ins = [data(r, (5, 3), dtype, 1) for r in range(WORLD)]
        t = ins[RANK].to(DEV)
        dist.all_reduce(t)
        if not torch.equal(t.cpu(), reference(ins, R.SUM)) and dtype not in FLOATS:
            bad.append(str(dtype))
        elif dtype in FLOATS and not torch.allclose(t.cpu().double(), reference(ins, R.SUM).double(),
                                                   rtol=TOL[dtype], atol=TOL[dtype]):
            bad.append(str(dtype))
    emit(transport=dist.group.WORLD.transport, reason=dist.group.WORLD.transport_reason, bad=bad)
    dist.destroy_process_group()


if __name__ == "__main__":
    scenario, *rest = sys.argv[1:]
    {"matrix": matrix, "faults": lambda: faults(*rest), "transport": transport}[scenario]()
