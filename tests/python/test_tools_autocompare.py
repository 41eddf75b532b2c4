"""OpAutoCompare: every op vs CPU, forward and per-op backward; a planted wrong sim kernel is
found in both directions, only there, and its saved case replays as a failure."""

import csv
import json

import torch

from opweave.demo import mlp
from opweave.tools import OpAutoCompare, OpMismatch

MLP_STEP = """
    import json, torch, opweave
    from opweave.demo import mlp
    from opweave.tools import OpAutoCompare
    from opweave.tools import replay
    x, y = mlp.make_data(256, 20, 5, seed=0)
    with OpAutoCompare({out!r}, verbose=False) as ac:
        mlp.train(mlp.make_model(20, 16, 5, seed=0), x, y, opweave.device(0), 1, 32, 0.02)
    rc = replay.main([{out!r} + "/failures", "--repeat", "0", "--quiet", "--json", {out!r} + "/replay.json"])
    print(json.dumps({{"summary": ac.summary(), "failures": ac.failures(), "replay_rc": rc}}))
"""


def train_step(dev, steps=1):
    x, y = mlp.make_data(256, 20, 5, seed=0)
    return mlp.train(mlp.make_model(20, 16, 5, seed=0), x, y, dev, steps, 32, 0.02)


def test_a_correct_device_passes_every_check(tmp_path, dev0):
    with OpAutoCompare(str(tmp_path), verbose=False) as ac:
        train_step(dev0)
    s = ac.summary()
    assert s["torch.nn.functional.linear"]["forward"] == [3, 0]
    assert s["torch.nn.functional.linear"]["backward"] == [3, 0]
    assert s["torch.nn.functional.relu"]["backward"] == [2, 0]
    assert s["torch.nn.functional.cross_entropy"]["forward"] == [1, 0]
    assert s["torch.nn.functional.cross_entropy"]["backward"] == [1, 0]
    assert s["torch.Tensor.add_"]["forward"][0] > 0               # the optimizer's updates
    assert ac.failures() == []
    rows = [json.loads(l) for l in (tmp_path / "autocompare.jsonl").read_text().splitlines()]
    assert len(rows) == sum(v["forward"][0] + v["backward"][0] for v in s.values())
    assert {r["status"] for r in rows} == {"ok"}
    lin_bwd = [r for r in rows if r["op"] == "torch.nn.functional.linear" and r["pass"] == "backward"]
    # first layer: the input needs no grad, so weight and bias only; deeper layers all three
    assert sorted(len(r["tensors"]) for r in lin_bwd) == [2, 3, 3]
    with open(tmp_path / "autocompare.csv") as f:
        table = list(csv.DictReader(f))
    assert table[0].keys() >= {"seq", "op", "pass", "status", "tensor", "max_abs", "max_rel",
                               "cosine", "allclose", "atol", "rtol", "case"}
    assert all(r["status"] == "ok" for r in table)
    assert not (tmp_path / "failures").exists()


def test_planted_faults_are_found_forward_and_backward(run_python, tmp_path):
    out = str(tmp_path / "cmp")
    proc = run_python(MLP_STEP.format(out=out), OPWEAVE_SIM_FAULT="diopiAddmm,diopiMm")
    assert proc.returncode == 0, proc.stderr[-3000:]
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    s = res["summary"]
    # linear = addmm forward (faulty) and mm backward (faulty); every call of it is caught
    assert s["torch.nn.functional.linear"]["forward"] == [3, 3]
    assert s["torch.nn.functional.linear"]["backward"] == [3, 3]
    # and nothing else is blamed
    for op, v in s.items():
        if op != "torch.nn.functional.linear":
            assert v["forward"][1] == 0 and v["backward"][1] == 0, op
    fail = res["failures"][0]
    assert fail["pass"] == "forward" and fail["status"] == "FAIL"
    assert fail["max_abs"] > 1e-3 and fail["cosine"] < 1.0
    assert "out0" in fail["why"] and "1/" in fail["why"]          # exactly one element off
    bwd = [f for f in res["failures"] if f["pass"] == "backward"]
    assert len(bwd) == 3 and all("grad(" in f["why"] for f in bwd)
    # every failing check saved its case; replaying them on the faulty device fails again
    files = sorted(p.name for p in (tmp_path / "cmp" / "failures").iterdir())
    assert len(files) == 6 and sum(f.endswith(".backward.safetensors") for f in files) == 3
    assert res["replay_rc"] == 1
    replayed = json.loads((tmp_path / "cmp" / "replay.json").read_text())
    assert {r["status"] for r in replayed} == {"FAIL"}
    assert {r["forward_status"] for r in replayed if "backward" not in r["file"]} == {"FAIL"}
    assert {r["backward_status"] for r in replayed if "backward" in r["file"]} == {"FAIL"}
    assert "autocompare FAIL forward #1 torch.nn.functional.linear" not in proc.stderr  # quiet


def test_float16_is_compared_against_an_upcast_cpu_reference(tmp_path, dev0):
    g = torch.Generator().manual_seed(1)
    a = torch.randn(8, 8, generator=g).half().to(dev0)
    with OpAutoCompare(str(tmp_path / "up"), verbose=False) as ac:
        torch.trace(a)                       # no float16 trace on CPU (torch 1.13 and 2.6)
    assert ac.summary()["torch.trace"]["forward"] == [1, 0]
    with OpAutoCompare(str(tmp_path / "raw"), upcast=False, verbose=False) as ac:
        torch.trace(a)
    assert ac.summary()["torch.trace"]["errors"] == 1
    assert "CPU reference failed" in ac.failures()[0]["why"]


def test_tolerances_decide_and_fail_fast_stops(tmp_path, dev0):
    x = torch.randn(64, 64).to(dev0)
    wide = OpAutoCompare(str(tmp_path / "b"), tolerances={"float32": (1.0, 1.0)}, verbose=False)
    with wide:
        y = x + 1
    assert wide.failures() == []
    # an impossible tolerance fails every float32 check; fail_fast raises at the first
    strict = OpAutoCompare(str(tmp_path / "c"), tolerances={"float32": (-1.0, 0.0)},
                           verbose=False, fail_fast=True)
    try:
        with strict:
            y = x + 1
        raised = False
    except OpMismatch as e:
        raised = "torch.Tensor.add" in str(e)
    assert raised and y is not None


def test_random_and_undefined_ops_are_not_compared(tmp_path, dev0):
    x = torch.ones(4, device=dev0)
    with OpAutoCompare(str(tmp_path), verbose=False) as ac:
        torch.nn.functional.dropout(x, 0.5)
        torch.empty_like(x)
        x.neg()
    assert set(ac.summary()) == {"torch.Tensor.neg"}
