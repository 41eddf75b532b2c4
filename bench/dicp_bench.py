"""Graph mode (opweave.compile, backend sim) against eager on the sim device.

A small MLP (16 -> 32 -> 10, batch 8: tiny tensors) trains one step (forward, cross-entropy,
backward) compiled and eager; both must agree. The compiled step is timed through autograd
(`step(x, y).backward()`, mlp_train_step_*) and as one call (`step.train_step(x, y)`,
mlp_train_step_fused_*). The demo's tiny GPT: gpt_train_step_*. The same for a block of small element-wise
ops (LayerNorm and tanh-GELU written out), where per-op overhead dominates. Steps are timed
in many short interleaved rounds (eager, compiled, eager, ...) and medians compared, as wall
time and as process CPU time of the same steps (all threads: host, autograd, sim stream
workers), the latter being far less sensitive to other processes' load. Also: inference
forward, a dynamic-batch run (one compilation, three batch sizes), conversion-table sizes and
compile times.

Prints `name: value` lines. Run: OPWEAVE_BUILD_DIR=build python3 bench/dicp_bench.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

import opweave
from opweave import dicp
from benchlib import knob

STEPS = knob("STEPS", 40, 2)
ROUNDS = knob("ROUNDS", 31, 3)
DEV = opweave.device(0)


class MLP(torch.nn.Module):
    def __init__(self, d_in=16, hidden=32, classes=10):
        super().__init__()
        self.fc1 = torch.nn.Linear(d_in, hidden)
        self.fc2 = torch.nn.Linear(hidden, classes)

    def forward(self, x, y):
        return F.cross_entropy(self.fc2(torch.relu(self.fc1(x))), y)


class NormGeluBlock(torch.nn.Module):
    """Linear, then LayerNorm and tanh-GELU written out in small element-wise ops (with
    Python scalars): the kind of graph where eager pays per-op overhead on tiny tensors."""

    def __init__(self, d=16):
        super().__init__()
        self.fc = torch.nn.Linear(d, d)
        self.g = torch.nn.Parameter(torch.ones(d))
        self.b = torch.nn.Parameter(torch.zeros(d))

    def forward(self, x):
        h = self.fc(x)
        mu = h.mean(-1, keepdim=True)
        d = h - mu
        var = (d * d).mean(-1, keepdim=True)
        y = d * torch.rsqrt(var + 1e-5) * self.g + self.b
        return (0.5 * y * (1.0 + torch.tanh(0.7978845608 * (y + 0.044715 * y * y * y)))).mean()


def timed(fn, steps=STEPS) -> tuple:
    """(wall, process CPU) microseconds per step over `steps` steps, synchronised. Process CPU
    time counts every thread (host, autograd, sim stream workers): what the work costs, far
    less sensitive than wall time to other processes' load."""
    opweave.synchronize()
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        fn()
    opweave.synchronize()
    return ((time.perf_counter() - wall) / steps * 1e6,
            (time.process_time() - cpu) / steps * 1e6)


def interleaved(variants: dict) -> dict:
    """Median wall and process-CPU microseconds per step: many short rounds, the variants
    alternating within each round (so a burst of load from other processes hits both)."""
    wall = {k: [] for k in variants}
    cpu = {k: [] for k in variants}
    for fn in variants.values():
        timed(fn, 10)
    for _ in range(ROUNDS):
        for k, fn in variants.items():
            w, c = timed(fn)
            wall[k].append(w)
            cpu[k].append(c)
    return {k: (statistics.median(wall[k]), statistics.median(cpu[k])) for k in variants}


def report(prefix, t):
    (ew, ec), (cw, cc) = t["eager"], t["compiled"]
    out(f"{prefix}_eager_us", ew)
    out(f"{prefix}_compiled_us", cw)
    out(f"{prefix}_speedup", ew / cw)
    out(f"{prefix}_eager_cpu_us", ec)
    out(f"{prefix}_compiled_cpu_us", cc)
    out(f"{prefix}_cpu_speedup", ec / cc)


def out(name, value):
    if isinstance(value, float):
        value = f"{value:.4g}"
    print(f"{name}: {value}")


def gpt_figures() -> None:
    """The demo's tiny GPT (d 32, 2 layers, 16 tokens, batch 8) compiled: which of its ops the
    sim table leaves eager, and the training step against eager (train_step takes the
    autograd path while the graph has eager nodes)."""
    from opweave.demo import gpt
    models = [gpt.make_model(0, vocab=64, d=32, layers=2, heads=2, seq=16).to(DEV)
              for _ in range(2)]
    x, y = (t.to(DEV) for t in gpt.make_data(8, 16, 64, seed=0))
    step = opweave.compile(models[0], backend="sim")
    loss = step.train_step(x, y)
    ref = models[1](x, y)
    ref.backward()
    out("gpt_loss_abs_diff", abs(float(loss) - float(ref)))
    out("gpt_grad_max_abs_diff", max(float((a.grad - b.grad).abs().max().cpu())
                                     for a, b in zip(*(m.parameters() for m in models))))
    out("gpt_eager_nodes", len(step.last.eager))
    out("gpt_eager_ops", ",".join(sorted({r.aten for r in step.last.eager})))

    def eager_train():
        models[1].zero_grad(set_to_none=True)
        models[1](x, y).backward()

    def compiled_train():
        models[0].zero_grad(set_to_none=True)
        step.train_step(x, y)
    report("gpt_train_step", interleaved({"eager": eager_train, "compiled": compiled_train}))


def main() -> int:
    torch.manual_seed(0)
    for vendor in ("sim", "ascend"):
        c = dicp.load_table(vendor).counts()
        out(f"table_{vendor}_entries", c["total"])
        out(f"table_{vendor}_pure_data", c["data"])
        out(f"table_{vendor}_custom", c["custom"])
        out(f"table_{vendor}_map_decomp_unsupported",
            f"{c['map']}/{c['decomp']}/{c['unsupported']}")

    model = MLP().to(DEV)
    eager_model = MLP().to(DEV)
    eager_model.load_state_dict(model.state_dict())
    x = torch.randn(8, 16, device=DEV)
    y = torch.randint(0, 10, (8,), device=DEV)

    start = time.perf_counter()
    step = opweave.compile(model, backend="sim")
    loss = step(x, y)
    loss.backward()
    opweave.synchronize()
    out("mlp_first_call_s (trace+convert+C compile+run)", time.perf_counter() - start)
    out("mlp_c_compiles", step.stats["c_compiles"])
    out("mlp_disk_cache_hits", step.stats["disk_hits"])
    ref_loss = eager_model(x, y)
    ref_loss.backward()
    out("mlp_loss_abs_diff", abs(float(loss) - float(ref_loss)))
    out("mlp_grad_max_abs_diff", max(float((a.grad - b.grad).abs().max().cpu())
                                     for a, b in zip(model.parameters(),
                                                     eager_model.parameters())))
    out("mlp_eager_nodes_in_compiled_graphs", len(step.last.eager))
    out("mlp_fused_linear_activation_nodes", sum(
        1 for e in (step.last.forward, step.last.backward) for n in e.gm.graph.nodes
        if n.op == "call_function" and getattr(n.target, "__name__", "") == "AddmmAct"))
    out("mlp_native_plan (one helper call per step)", step.last.plan is not None)
    out("mlp_kernels_forward+backward", sum(
        1 for e in (step.last.forward, step.last.backward) for n in e.gm.graph.nodes
        if n.op == "call_function" and getattr(n.target, "diopi", None) is not None))

    def eager_train():
        eager_model.zero_grad(set_to_none=True)
        eager_model(x, y).backward()

    def compiled_train():
        model.zero_grad(set_to_none=True)
        step(x, y).backward()

    def fused_train():
        model.zero_grad(set_to_none=True)
        step.train_step(x, y)

    # Through autograd (loss.backward()) and as one call (train_step), against the same eager
    # steps in the same rounds.
    t = interleaved({"eager": eager_train, "compiled": compiled_train, "train_step": fused_train})
    report("mlp_train_step", t)
    report("mlp_train_step_fused", {"eager": t["eager"], "compiled": t["train_step"]})

    with torch.no_grad():
        infer = opweave.compile(model, backend="sim")
        infer(x, y)
        report("mlp_forward", interleaved({"eager": lambda: eager_model(x, y),
                                           "compiled": lambda: infer(x, y)}))

    block = NormGeluBlock().to(DEV)
    eager_block = NormGeluBlock().to(DEV)
    eager_block.load_state_dict(block.state_dict())
    block_step = opweave.compile(block, backend="sim")
    loss = block_step(x)
    loss.backward()
    ref_loss = eager_block(x)
    ref_loss.backward()
    out("block_ops_per_step (aten ops: forward+backward)",
        sum(1 for e in (block_step.last.forward, block_step.last.backward)
            for n in e.gm.graph.nodes if n.op == "call_function"))
    out("block_loss_abs_diff", abs(float(loss) - float(ref_loss)))
    out("block_grad_max_abs_diff", max(float((a.grad - b.grad).abs().max().cpu())
                                       for a, b in zip(block.parameters(),
                                                       eager_block.parameters())))

    def eager_block_train():
        eager_block.zero_grad(set_to_none=True)
        eager_block(x).backward()

    def compiled_block_train():
        block.zero_grad(set_to_none=True)
        block_step(x).backward()
    report("block_train_step", interleaved({"eager": eager_block_train,
                                            "compiled": compiled_block_train}))

    gpt_figures()

    dyn_model = MLP().to(DEV)
    dyn = opweave.compile(dyn_model, backend="sim", dynamic=True)
    for batch in (8, 16, 5):
        xb = torch.randn(batch, 16, device=DEV)
        yb = torch.randint(0, 10, (batch,), device=DEV)
        dyn(xb, yb).backward()
    opweave.synchronize()
    out("dynamic_batch_sizes", "8,16,5")
    out("dynamic_compiles", dyn.stats["compiles"])
    out("dynamic_cache_hits", dyn.stats["cache_hits"])
    out("dynamic_traces", dyn.stats["traces"])
    out("load_average_1min", os.getloadavg()[0])
    out("cpu_count", os.cpu_count())
    return 0


if __name__ == "__main__":
    sys.exit(main())
