"""The --autocompare build flavour catches a planted wrong sim kernel (and only that one).

Runs in a fresh interpreter against the autocompare build (make test builds it and sets
OPWEAVE_AUTOCOMPARE_BUILD_DIR); the default build has no compare twins at all."""

import json
import os

import pytest

import opweave
from opweave import instrument

AUTOCOMPARE_BUILD = os.environ.get("OPWEAVE_AUTOCOMPARE_BUILD_DIR")
needs_build = pytest.mark.skipif(
    not AUTOCOMPARE_BUILD, reason="set OPWEAVE_AUTOCOMPARE_BUILD_DIR (make test builds it)")

MODEL_STEP = """
    import torch, opweave
    from opweave.demo import mlp
    x, y = mlp.make_data(256, 20, 5, seed=0)
    mlp.train(mlp.make_model(20, 16, 5, seed=0), x, y, opweave.device(0), 3, 32, 0.02)
    a = torch.randn(4, 4, device=opweave.DEVICE)
    (a + a).cpu(); (a * a).cpu()
    # tensor-list arguments (Tensor[] and Tensor?[] with CPU and device entries)
    i = torch.tensor([0, 3, 3], device=opweave.DEVICE)
    torch.cat([a, a]).cpu(); a[i].cpu(); a[:, torch.tensor([1, 2])].cpu(); a[a > 0].cpu()
    a.clamp(min=torch.zeros(4, device=opweave.DEVICE)).cpu()
"""


def run_compare(run_python, tmp_path, **env):
    report = tmp_path / "compare.jsonl"
    proc = run_python(MODEL_STEP, OPWEAVE_BUILD_DIR=AUTOCOMPARE_BUILD,
                      OPWEAVE_AUTOCOMPARE_FILE=str(report), **env)
    records = [json.loads(l) for l in report.read_text().splitlines()] if report.exists() else []
    return proc, records


def test_default_build_has_no_compare_twins():
    assert not instrument.autocompare_built()
    with pytest.raises(RuntimeError, match="AUTOCOMPARE=1"):
        instrument.set_autocompare(True)


@needs_build
def test_clean_kernels_pass_autocompare(run_python, tmp_path):
    proc, records = run_compare(run_python, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert len(records) > 50
    assert all(r["verdict"] == "pass" for r in records), [r for r in records if r["verdict"] != "pass"]
    compared = {r["op"] for r in records}
    assert {"aten::cat", "aten::index.Tensor", "aten::clamp.Tensor"} <= compared
    assert "autocompare summary" in proc.stderr and " 0 failed" in proc.stderr


@needs_build
def test_planted_fault_is_caught_and_only_it(run_python, tmp_path):
    proc, records = run_compare(run_python, tmp_path, OPWEAVE_SIM_FAULT="diopiAdd")
    assert proc.returncode == 0, proc.stderr
    failed = {r["op"] for r in records if r["verdict"] == "fail"}
    assert failed and all(r["diopi"] == "diopiAdd" for r in records if r["verdict"] == "fail")
    assert "aten::add.Tensor" in failed
    bad = next(r for r in records if r["verdict"] == "fail")
    assert bad["max_abs"] > 0 and bad["shapes"] and bad["dtypes"]
    assert "FAIL aten::add" in proc.stderr


INT_STEP = """
    import torch, opweave
    a = torch.full((4,), 1_000_000_000, dtype=torch.int64, device=opweave.DEVICE)
    (a + a).cpu()
"""


@needs_build
def test_integer_results_compare_exactly(run_python, tmp_path):
    # The planted fault adds 1: within float64's tolerance of 2e9 (rtol 1e-7), but an integral
    # dtype has no tolerance slot (generated/aten/tolerance_slots.h) and compares exactly.
    report = tmp_path / "compare.jsonl"
    proc = run_python(INT_STEP, OPWEAVE_BUILD_DIR=AUTOCOMPARE_BUILD,
                      OPWEAVE_AUTOCOMPARE_FILE=str(report), OPWEAVE_SIM_FAULT="diopiAdd")
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(l) for l in report.read_text().splitlines()]
    bad = [r for r in records if r["verdict"] == "fail"]
    assert bad and all(r["diopi"] == "diopiAdd" for r in bad), records
    assert bad[0]["max_abs"] == 1


@needs_build
def test_fail_fast_raises_python_error(run_python, tmp_path):
    proc, _ = run_compare(run_python, tmp_path, OPWEAVE_SIM_FAULT="diopiMul",
                          OPWEAVE_AUTOCOMPARE_FAILFAST="1")
    assert proc.returncode != 0
    assert "RuntimeError" in proc.stderr and "differs from CPU" in proc.stderr


CNN_STEP = """
    import torch, opweave
    from opweave.demo import cnn
    x, y = cnn.make_data(64, seed=0)
    cnn.train(cnn.make_model(0), x, y, opweave.device(0), 1, 16, 0.05)
"""


@needs_build
def test_convolution_and_batch_norm_are_compared(run_python, tmp_path):
    # convolution_*_overrideable has no CPU kernel: the reference runs aten::convolution(_backward);
    # batch norm's running statistics (written, though the schema does not say so) are compared
    # with the CPU's rather than reported as a modified input
    report = tmp_path / "compare.jsonl"
    for fault in ("", "diopiBatchNorm"):
        proc = run_python(CNN_STEP, OPWEAVE_BUILD_DIR=AUTOCOMPARE_BUILD,
                          OPWEAVE_AUTOCOMPARE_FILE=str(report), OPWEAVE_SIM_FAULT=fault)
        assert proc.returncode == 0, proc.stderr[-3000:]
        records = [json.loads(l) for l in report.read_text().splitlines()]
        report.unlink()
        ops = {r["op"] for r in records}
        assert {"aten::convolution_overrideable", "aten::convolution_backward_overrideable",
                "aten::native_batch_norm", "aten::native_batch_norm_backward"} <= ops
        failed = {r["op"] for r in records if r["verdict"] == "fail"}
        assert failed == ({"aten::native_batch_norm"} if fault else set()), failed
