"""OpTimeMeasure (synchronised per-op forward/backward times) and OpFallback (selected ops on
CPU from Python, autograd through the copies)."""

import json

import torch
import torch.nn.functional as F

from opweave.demo import mlp
from opweave.tools import OpFallback, OpTimeMeasure


def test_time_measure_counts_every_call_forward_and_backward(tmp_path, dev0):
    x, y = mlp.make_data(256, 20, 5, seed=0)
    path = tmp_path / "times.jsonl"
    with OpTimeMeasure(path=str(path)) as t:
        mlp.train(mlp.make_model(20, 16, 5, seed=0), x, y, dev0, 2, 32, 0.02)
    rows = {(r["op"], r["pass"]): r for r in t.summary()}
    assert rows[("torch.nn.functional.linear", "forward")]["calls"] == 6
    assert rows[("torch.nn.functional.linear", "backward")]["calls"] == 6
    assert rows[("torch.nn.functional.cross_entropy", "backward")]["calls"] == 2
    totals = [r["total_ms"] for r in t.summary()]
    assert totals == sorted(totals, reverse=True)
    assert abs(sum(r["share"] for r in t.summary()) - 1.0) < 1e-9
    lines = [json.loads(l) for l in path.read_text().splitlines()]
    assert len(lines) == sum(r["calls"] for r in t.summary())
    assert "mean us" in t.table()


def test_times_are_synchronised(run_python):
    # every sim stream task waits 3 ms: an unsynchronised timer would see the enqueue only
    proc = run_python("""
        import json, torch, opweave
        from opweave.tools import OpTimeMeasure
        x = torch.ones(64, device=opweave.device(0))
        w = torch.ones(8, 64, device=opweave.device(0), requires_grad=True)
        opweave.synchronize()
        with OpTimeMeasure() as t:
            for _ in range(3):
                x.exp()
                torch.nn.functional.linear(x, w).sum().backward()
        print(json.dumps(t.summary()))
    """, OPWEAVE_SIM_DELAY_US="3000")
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = {(r["op"], r["pass"]): r for r in json.loads(proc.stdout.strip().splitlines()[-1])}
    assert rows[("torch.Tensor.exp", "forward")]["min_us"] >= 3000
    assert rows[("torch.nn.functional.linear", "forward")]["min_us"] >= 3000
    assert rows[("torch.nn.functional.linear", "backward")]["min_us"] >= 3000


def test_fallback_runs_selected_ops_on_cpu_with_autograd(dev0):
    g = torch.Generator().manual_seed(0)
    xc, wc = torch.randn(8, 6, generator=g), torch.randn(4, 6, generator=g)
    ref_w = wc.clone().requires_grad_()
    F.relu(F.linear(xc, ref_w)).sum().backward()
    w = wc.to(dev0).requires_grad_()
    with OpFallback(include="linear") as fb:
        h = F.linear(xc.to(dev0), w)
        assert h.device == dev0
        F.relu(h).sum().backward()
    assert fb.stats() == {"torch.nn.functional.linear": 1}
    assert torch.equal(w.grad.cpu(), ref_w.grad)        # linear's backward ran on CPU too


def test_fallback_keeps_inplace_identity_and_out_arguments(dev0):
    a = torch.tensor([1.0, 2.0]).to(dev0)
    b = torch.tensor([10.0, 20.0]).to(dev0)
    out = torch.empty(0, device=dev0)
    with OpFallback(include="add_,add,view") as fb:
        r = a.add_(b)
        torch.add(a, b, out=out)
        v = a.view(2, 1)                               # views never move: still a view of a
    assert r is a and a.cpu().tolist() == [11.0, 22.0]
    assert out.device == dev0 and out.cpu().tolist() == [21.0, 42.0]
    assert v._base is a
    assert fb.stats() == {"torch.Tensor.add_": 1, "torch.add": 1}


def test_fallback_float16_is_computed_in_float32_and_returned_as_float16(dev0):
    h = torch.randn(4, 4).half().to(dev0)
    with OpFallback(include="mm"):
        r = torch.mm(h, h)                    # no float16 mm on torch 1.13's CPU
    assert r.dtype == torch.float16 and r.device == dev0
    assert torch.allclose(r.cpu().float(), h.cpu().float() @ h.cpu().float(), atol=1e-2, rtol=1e-2)


def test_fallback_repairs_a_faulty_kernel(run_python):
    proc = run_python("""
        import copy, json, torch, opweave
        from opweave.demo import mlp
        from opweave.tools import OpFallback
        x, y = mlp.make_data(256, 20, 5, seed=0)
        m = mlp.make_model(20, 16, 5, seed=0)
        dev = opweave.device(0)
        cpu = mlp.train(copy.deepcopy(m), x, y, "cpu", 3, 32, 0.02)
        faulty = mlp.train(copy.deepcopy(m), x, y, dev, 3, 32, 0.02)
        with OpFallback(include="linear"):
            fixed = mlp.train(copy.deepcopy(m), x, y, dev, 3, 32, 0.02)
        print(json.dumps({"cpu": cpu, "faulty": faulty, "fixed": fixed}))
    """, OPWEAVE_SIM_FAULT="diopiAddmm,diopiMm")
    assert proc.returncode == 0, proc.stderr[-3000:]
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    assert r["faulty"] != r["cpu"]
    worst = max(abs(a - b) / abs(b) for a, b in zip(r["fixed"], r["cpu"]))
    assert worst < 1e-6, (r["fixed"], r["cpu"])
