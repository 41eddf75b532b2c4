"""The float64 referee (opweave/referee.py; runtime/aten/referee.cpp in the autocompare build).

Where the device and the CPU in the same dtype disagree, the op rerun on the CPU in float64
says which side is wrong. Every compare path has it: OpAutoCompare, opweave-replay, the
conformance runner and the autocompare build (and the OpInfo runner, test_opinfo.py). The case:
layer norm of rows with a large offset (values around 3000, spread 1), where the CPU's float32
kernel loses digits the sim keeps (it sums in float64): the same-dtype compare blames the
device, the referee finds the device closer (`device_closer`, not a failure). A planted wrong
sim kernel (OPWEAVE_SIM_FAULT) is still a failure with the referee on.
"""

import json
import math
import os
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

import opweave
from opweave import instrument, referee
from opweave.tools import OpAutoCompare, OpCapture, replay

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AUTOCOMPARE_BUILD = os.environ.get("OPWEAVE_AUTOCOMPARE_BUILD_DIR")

# Rows of 256 values around 3000 (spread 1) and an output gradient. No affine weight: the
# gradient of the input is the one to check. With the tools' float32 tolerance the CPU is off
# by about 30 tolerances forward and 24 backward, the sim by 0 and 4; a planted fault
# (1e-2 * (1 + |x|) on one element) by 1000. With the catalogue's looser layer-norm tolerance
# (the autocompare build) the CPU's forward is off by about 3 (torch 1.13 and 2.6).
INPUTS = """
import torch
g = torch.Generator().manual_seed(0)
x = torch.randn(64, 256, generator=g, dtype=torch.float64).float() + 3000
gy = torch.randn(64, 256, generator=g)
"""


def offset_rows():
    scope = {}
    exec(INPUTS, scope)
    return scope["x"], scope["gy"]


# ---------------------------------------------------------------- the verdict itself


def test_distance_is_allclose_in_units_of_the_tolerance():
    ref = torch.tensor([1.0, -2.0, 0.0, float("nan"), float("inf")], dtype=torch.float64)
    same = ref.clone()
    assert referee.distance(same, ref, 1e-5, 1e-5) == 0.0
    off = ref + torch.tensor([2e-5, 0.0, 0.0, 0.0, 0.0])     # tolerance at 1.0: 2e-5
    assert referee.distance(off, ref, 1e-5, 1e-5) == pytest.approx(1.0, rel=1e-6)
    assert torch.allclose(off, ref, 1e-5, 1e-5, equal_nan=True)
    worse = ref + torch.tensor([0.0, 0.0, 3e-5, 0.0, 0.0])   # at 0.0 only atol: 3 units
    assert referee.distance(worse, ref, 1e-5, 1e-5) == pytest.approx(3.0, rel=1e-6)
    nan_vs_number = torch.tensor([float("nan"), -2.0, 0.0, float("nan"), float("inf")],
                                 dtype=torch.float64)
    assert math.isinf(referee.distance(nan_vs_number, ref, 1e-5, 1e-5))
    # a zero (or impossible) tolerance is allclose's test too: equal passes, different is inf
    assert referee.distance(same, ref, 0.0, 0.0) == 0.0
    assert math.isinf(referee.distance(worse, ref, 0.0, 0.0))
    assert math.isinf(referee.distance(same[:3], ref[:3], -1.0, 0.0))


def test_verdicts_pass_device_closer_within_and_fail():
    exact = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)
    right, wrong = exact.float(), exact.float() + torch.tensor([0.0, 1e-3, 0.0])
    assert referee.judge(right, right.clone(), None, 1e-5, 1e-5)["verdict"] == referee.PASS
    closer = referee.judge(right, wrong, exact, 1e-5, 1e-5)
    assert closer["verdict"] == referee.CLOSER
    assert closer["device_float64"] == 0.0 and closer["cpu_float64"] > 1 < closer["device_cpu"]
    blamed = referee.judge(wrong, right, exact, 1e-5, 1e-5)
    assert blamed["verdict"] == referee.FAIL
    assert blamed["device_float64"] > blamed["cpu_float64"]
    # no reference (mode off, integer results): a disagreement is the device's fault
    assert referee.judge(right, wrong, None, 1e-5, 1e-5)["verdict"] == referee.FAIL
    ints = torch.tensor([1, 2, 3])
    assert referee.judge(ints, ints + 1, ints.double(), 0.0, 0.0)["verdict"] == referee.FAIL
    # the CPU is closer, but the device is within tolerance of float64 too
    zero = torch.zeros(1, dtype=torch.float64)
    within = referee.judge(torch.tensor([0.9]), torch.tensor([-0.5]), zero, 1.0, 0.0)
    assert within["verdict"] == referee.WITHIN and within["device_float64"] == pytest.approx(0.9)
    both = referee.combine([closer, blamed, within])
    assert both["verdict"] == referee.FAIL and both["device_cpu"] == blamed["device_cpu"]


def test_mode_and_float64_arguments(monkeypatch):
    monkeypatch.delenv(referee.ENV, raising=False)
    assert referee.mode(None) == "float64" and referee.mode("none") is None
    monkeypatch.setenv(referee.ENV, "none")
    assert referee.mode(None) is None and referee.mode("float64") == "float64"
    with pytest.raises(ValueError, match="reference mode"):
        referee.mode("float32")
    args = referee.to_float64([torch.ones(2), (torch.arange(3), torch.float16), {"k": torch.int64}])
    assert args[0].dtype == torch.float64 and args[1][0].dtype == torch.int64
    assert args[1][1] == torch.float64 and args[2]["k"] == torch.int64


# ---------------------------------------------------------------- OpAutoCompare

TOOLS_RUN = INPUTS + """
import json, opweave
import torch.nn.functional as F
from opweave.tools import OpAutoCompare
xd = x.to(opweave.device(0)).requires_grad_()
rows = {}
for ref in ("none", "float64"):
    with OpAutoCompare({out!r} + ref, reference=ref, verbose=ref == "float64") as ac:
        F.layer_norm(xd, (256,)).backward(gy.to(opweave.device(0)))
    rows[ref] = ac.disagreements()
print(json.dumps(rows))
"""


def tools_rows(run_python, tmp_path, fault=""):
    proc = run_python(TOOLS_RUN.replace("{out!r}", repr(str(tmp_path / "ac-"))),
                      OPWEAVE_SIM_FAULT=fault)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


def test_op_autocompare_clears_a_device_closer_to_float64(tmp_path, dev0):
    x, gy = offset_rows()
    xd = x.to(dev0).requires_grad_()
    with OpAutoCompare(str(tmp_path / "same"), reference="none", verbose=False) as same:
        F.layer_norm(xd, (256,)).backward(gy.to(dev0))
    with OpAutoCompare(str(tmp_path / "f64"), reference="float64", verbose=False) as ac:
        F.layer_norm(xd, (256,)).backward(gy.to(dev0))
    # the same-dtype compare blames the device, forward and backward
    assert [(r["pass"], r["verdict"]) for r in same.failures()] == [("forward", "fail"),
                                                                   ("backward", "fail")]
    # the referee: the device is the closer side of both, nothing fails
    assert ac.failures() == []
    rows = ac.disagreements()
    assert [(r["pass"], r["verdict"], r["status"]) for r in rows] == [
        ("forward", "device_closer", "ok"), ("backward", "device_closer", "ok")]
    for r in rows:
        assert r["device_cpu"] > 1 and r["cpu_float64"] > 1
        assert r["device_float64"] < r["cpu_float64"] / 5
    s = ac.summary()["torch.nn.functional.layer_norm"]
    assert s["forward"] == [1, 0] and s["backward"] == [1, 0] and s["device_closer"] == 2
    table = (tmp_path / "f64" / "autocompare.csv").read_text().splitlines()
    assert table[0].endswith(",verdict,device_cpu,device_float64,cpu_float64")
    assert sum(",device_closer," in line for line in table) == 2
    assert not (tmp_path / "f64" / "failures").exists()


def test_op_autocompare_still_fails_a_wrong_device(run_python, tmp_path):
    rows, err = tools_rows(run_python, tmp_path, fault="diopiLayerNorm,diopiLayerNormBackward")
    for r in rows["float64"]:                  # wrong kernels: the device is the farther side
        assert r["verdict"] == "fail" and r["status"] == "FAIL", r
        assert r["device_float64"] > r["cpu_float64"] > 1
    assert [r["pass"] for r in rows["float64"]] == ["forward", "backward"]
    assert "autocompare FAIL forward #1 torch.nn.functional.layer_norm" in err
    assert "fail (device-cpu" in err and "cpu-float64" in err


# ---------------------------------------------------------------- opweave-replay


@pytest.fixture(scope="module")
def capture_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("referee-capture")
    x, gy = offset_rows()
    xd = x.to(opweave.device(0)).requires_grad_()
    with OpCapture(str(d), progress=False):
        F.layer_norm(xd, (256,)).backward(gy.to(opweave.device(0)))
    return str(d)


def replay_json(capture_dir, out, *extra, env=None):
    cmd = [os.path.join(REPO, "runtime", "python", "bin", "opweave-replay"), capture_dir,
           "--op", "layer_norm", "--repeat", "0", "--quiet", "--json", str(out), *extra]
    proc = subprocess.run(cmd, env=dict(os.environ, **(env or {})), capture_output=True,
                          text=True, timeout=300)
    return proc, json.loads(out.read_text())[0]


def test_replay_referees_forward_and_backward(capture_dir, tmp_path):
    out = tmp_path / "r.json"
    assert replay.main([capture_dir, "--op", "layer_norm", "--repeat", "0", "--quiet",
                        "--reference", "none", "--json", str(out)]) == 1
    r = json.loads(out.read_text())[0]
    assert r["status"] == "FAIL" and r["verdict"] == "fail" and r["forward_device_float64"] is None
    assert replay.main([capture_dir, "--op", "layer_norm", "--repeat", "0", "--quiet",
                        "--json", str(out)]) == 0
    r = json.loads(out.read_text())[0]
    assert r["status"] == "ok" and r["verdict"] == "device_closer"
    for which in ("forward", "backward"):
        assert r[f"{which}_verdict"] == "device_closer" and r[f"{which}_status"] == "ok"
        assert r[f"{which}_device_float64"] < r[f"{which}_cpu_float64"]


def test_replay_fails_a_wrong_device_with_the_referee_on(capture_dir, tmp_path):
    proc, r = replay_json(capture_dir, tmp_path / "r.json",
                          env={"OPWEAVE_SIM_FAULT": "diopiLayerNormBackward"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert r["forward_verdict"] == "device_closer"      # the forward kernel is still right
    assert r["backward_verdict"] == "fail" and r["status"] == "FAIL"
    assert r["backward_device_float64"] > r["backward_cpu_float64"]
    assert "FAIL #1 torch.nn.functional.layer_norm" in proc.stdout
    assert "backward fail (device-cpu" in proc.stdout


# ---------------------------------------------------------------- conformance runner


@pytest.fixture(scope="module")
def saved_case(tmp_path_factory):
    """The catalogue's large float32 layer-norm case, with offset rows as its golden inputs and
    ATen's float32 CPU result as the golden output; the same-dtype run saves it as a failure."""
    from opweave.conformance import cases, reference, runner
    d = tmp_path_factory.mktemp("referee-conformance")
    case = next(c for c in cases.Catalogue(op="diopiLayerNorm").functions["diopiLayerNorm"].cases
                if c.dtype == "float32" and c.spec["tag"] == "large")
    gen = torch.Generator().manual_seed(0)
    inputs = {n: reference.make_input(s, gen) if s else None for n, s in case.spec["inputs"].items()}
    inputs["input"] = inputs["input"] + 3000
    expected, _ = reference.run(case.fn, case.spec, inputs)
    tensors = {**{"in." + k: v for k, v in inputs.items() if v is not None},
               **{"ref." + k: v for k, v in expected.items()}}
    same = runner.Runner(reference="none", save_failures=str(d)).run(case, tensors,
                                                                     {"status": "ok"})
    assert same.status == "fail" and same.verdict == "fail" and same.device_float64 is None
    refereed = runner.Runner(reference="float64").run(case, tensors, {"status": "ok"})
    return str(d / f"{case.id}.safetensors"), refereed


def conformance_replay(path, *extra, fault=""):
    env = dict(os.environ, OPWEAVE_SIM_FAULT=fault)
    return subprocess.run([sys.executable, "-m", "opweave.conformance", "replay", path,
                           "--no-expectations", *extra], env=env, capture_output=True,
                          text=True, timeout=300, cwd=REPO)


def test_conformance_runner_passes_a_device_closer_than_the_golden_data(saved_case):
    path, r = saved_case
    assert r.status == "pass" and r.verdict == "device_closer"
    assert r.device_cpu > 1 and r.device_float64 < r.cpu_float64
    assert r.outputs["out"]["verdict"] == "device_closer" and "device_closer (" in r.reason
    assert json.loads(json.dumps(r.to_json()))["verdict"] == "device_closer"
    proc = conformance_replay(path)
    assert proc.returncode == 0 and "PASS (device_closer)" in proc.stdout, proc.stdout
    proc = conformance_replay(path, "--reference", "none")
    assert proc.returncode == 1 and "FAIL (fail)" in proc.stdout, proc.stdout


def test_conformance_runner_fails_a_wrong_kernel_with_the_referee_on(saved_case):
    proc = conformance_replay(saved_case[0], fault="diopiLayerNorm")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAIL (fail)" in proc.stdout and "fail (device-cpu" in proc.stdout


# ---------------------------------------------------------------- the autocompare build

needs_build = pytest.mark.skipif(
    not AUTOCOMPARE_BUILD, reason="set OPWEAVE_AUTOCOMPARE_BUILD_DIR (make test builds it)")

BUILD_RUN = INPUTS + """
import json, os, opweave
import torch.nn.functional as F
from opweave import instrument
dev = opweave.device(0)
for mode in ("none", "float64"):        # the environment's mode, then the Python switch
    if mode == "float64":
        instrument.set_autocompare_reference("float64")
    print(mode, instrument.autocompare_reference())
    xd = x.to(dev).requires_grad_()
    F.layer_norm(xd, (256,)).backward(gy.to(dev))
    opweave.synchronize()
"""


def build_records(run_python, tmp_path, fault=""):
    log = tmp_path / "compare.jsonl"
    proc = run_python(BUILD_RUN, OPWEAVE_BUILD_DIR=AUTOCOMPARE_BUILD,
                      OPWEAVE_AUTOCOMPARE_FILE=str(log), OPWEAVE_AUTOCOMPARE_REFERENCE="none",
                      OPWEAVE_AUTOCOMPARE_OPS="layer_norm", OPWEAVE_SIM_FAULT=fault)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["none", "none", "float64", "float64"]
    records = [json.loads(line) for line in log.read_text().splitlines()]
    half = len(records) // 2
    return records[:half], records[half:], proc.stderr


def test_default_build_has_the_switch_too():
    assert instrument.autocompare_reference() in ("float64", "none")
    with pytest.raises(RuntimeError, match="expected 'float64' or 'none'"):
        instrument.set_autocompare_reference("float32")


@needs_build
def test_build_flavour_clears_a_device_closer_to_float64(run_python, tmp_path):
    same, refereed, err = build_records(run_python, tmp_path)
    ops = ["aten::native_layer_norm", "aten::native_layer_norm_backward"]
    assert [r["op"] for r in same] == ops and [r["op"] for r in refereed] == ops
    before, after = same[0], refereed[0]
    assert before["verdict"] == "fail" and before["reference"] == "reference mode off"
    assert before["device_cpu"] > 1 and before["device_float64"] is None
    assert after["verdict"] == "device_closer" and after["reference"] == "float64"
    assert after["device_cpu"] == before["device_cpu"]
    assert after["device_float64"] < 0.1 and after["cpu_float64"] > 1
    # the ATen backward gets the device's saved statistics on both sides: it may agree
    for b, a in zip(same, refereed):
        assert (b["verdict"], a["verdict"]) in (("pass", "pass"), ("fail", "device_closer"))
    n = sum(r["verdict"] == "fail" for r in same)
    assert "autocompare device_closer aten::native_layer_norm (diopiLayerNorm)" in err
    assert f"{n} failed ({n} of the passed differ from CPU, cleared by the float64 referee)" in err


@needs_build
def test_build_flavour_still_fails_a_wrong_kernel(run_python, tmp_path):
    _same, refereed, err = build_records(run_python, tmp_path, fault="diopiLayerNorm")
    fwd = refereed[0]
    assert fwd["verdict"] == "fail" and fwd["reference"] == "float64"
    assert fwd["device_float64"] > fwd["cpu_float64"] > 1
    assert "autocompare FAIL aten::native_layer_norm (diopiLayerNorm)" in err


# ---------------------------------------------------------------- the demo


def test_demo_model_where_cpu_float32_is_the_less_accurate_side(tmp_path, capsys):
    from opweave.demo import referee as demo
    out = tmp_path / "demo.json"
    assert demo.main(["--model", "cnn", "--steps", "1", "--json", str(out)]) == 0
    (r,) = json.loads(out.read_text())
    assert r["none"]["rows"] and {x["verdict"] for x in r["none"]["rows"]} == {"fail"}
    assert [x["seq"] for x in r["float64"]["rows"]] == [x["seq"] for x in r["none"]["rows"]]
    assert {x["verdict"] for x in r["float64"]["rows"]} == {"device_closer"}
    assert r["gradients"]["device"] < r["gradients"]["cpu_float32"]
    text = capsys.readouterr().out
    assert "before: same-dtype compare only" in text and "device_closer" in text


def test_a_random_op_is_not_refereed(tmp_path, dev0):
    x = torch.ones(1000, device=dev0)
    with OpAutoCompare(str(tmp_path), include="dropout", verbose=False) as ac:
        torch.nn.functional.dropout(x, 0.5)            # the device draws other numbers
    (row,) = ac.failures()
    assert row["verdict"] == "fail" and row["device_float64"] is None
    assert row["tensors"][0]["reference"] == "a random op has no float64 reference"
