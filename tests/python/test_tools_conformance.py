"""Capture -> conformance: a captured MLP step becomes conformance cases with the run's real
shapes, layouts, attributes and values; they pass on the sim and fail on a planted faulty
kernel — exactly the functions that are wrong."""

import json
import os

import pytest
import torch

import opweave
from opweave.conformance import cases, golden, runner
from opweave.demo import mlp
from opweave.tools import OpCapture, record
from opweave.tools.capture import records
from opweave.tools.to_conformance import conformance_env, convert


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    base = tmp_path_factory.mktemp("bridge")
    x, y = mlp.make_data(256, 20, 5, seed=0)
    with OpCapture(str(base / "capture"), progress=False):
        mlp.train(mlp.make_model(20, 16, 5, seed=0), x, y, opweave.device(0), 2, 32, 0.02)
    summary = convert(str(base / "capture"), str(base / "out"), opweave.device(0), progress=False)
    return base, summary


@pytest.fixture
def conformance_dirs(converted, monkeypatch):
    base, _ = converted
    for k, v in conformance_env(str(base / "out")).items():
        monkeypatch.setenv(k, v)
    return base


def test_cases_cover_forward_and_backward_kernels_of_the_model(converted):
    _, summary = converted
    assert set(summary["cases"]) >= {
        "diopiAddmm", "diopiMm", "diopiRelu", "diopiThresholdBackward", "diopiLogSoftmax",
        "diopiLogSoftmaxBackward", "diopiNLLLoss", "diopiNLLLossBackward", "diopiSum",
        "diopiAddInp", "diopiMulInp"}
    assert summary["cases"]["diopiAddmm"] == 3           # one per layer shape; step 2 is a duplicate
    assert summary["duplicates"] > 0 and not summary["errors"]
    assert any(k.startswith("aten::t ") for k in summary["not_cases"])      # views are not kernels


def test_cases_hold_the_real_shapes_layouts_attributes_and_values(conformance_dirs):
    cat = cases.Catalogue()
    addmm = {tuple(c.spec["inputs"]["mat1"]["shape"]): c for c in cat.functions["diopiAddmm"].cases}
    first = addmm[(32, 20)]
    assert first.spec["inputs"]["mat2"] == {"shape": [20, 16], "dtype": "float32",
                                            "layout": "transposed"}          # linear's W.t()
    assert first.spec["attrs"] == {"beta": 1, "alpha": 1}
    assert first.spec["source"]["op"] == "torch.nn.functional.linear"
    nll = cat.functions["diopiNLLLoss"].cases[0].spec
    assert nll["inputs"]["target"] == {"shape": [32], "dtype": "int64", "values": "index5"}
    assert nll["attrs"] == {"reduction": 1, "ignore_index": -100}
    nllb = cat.functions["diopiNLLLossBackward"].cases[0].spec
    assert nllb["forward"]["fn"] == "diopiNLLLoss" and nllb["source"]["pass"] == "backward"
    assert cat.functions["diopiSum"].cases[0].spec["aten"]["keepdim"] is True
    # the golden inputs are the values the kernel saw in the captured run
    tensors, meta = golden.load(first)
    assert meta["status"] == "ok"
    lin = record.Record(records(str(conformance_dirs / "capture"), seqs={1})[0])
    assert torch.equal(tensors["in.mat1"], lin.tensors["in.0"])
    assert torch.equal(tensors["in.mat2"], lin.tensors["in.1"].t())
    assert torch.allclose(tensors["ref.out"], lin.tensors["out.0"], atol=1e-5)


def test_cases_pass_on_the_correct_sim(conformance_dirs):
    selected = cases.Catalogue().select()
    results = runner.run_cases(selected, None, out=open(os.devnull, "w"))
    assert len(results) == len(selected) > 20
    assert {r.status for r in results} == {"pass"}, [(r.id, r.reason) for r in results
                                                     if r.status != "pass"]


def test_cases_fail_on_the_faulty_kernels_only(conformance_dirs, run_python):
    base = conformance_dirs
    proc = run_python("import sys; from opweave.conformance.__main__ import main; "
                      "sys.exit(main(['run', '--fresh', '--no-save-failures']))",
                      OPWEAVE_SIM_FAULT="diopiAddmm,diopiMm")
    assert proc.returncode == 1, proc.stderr[-3000:]
    doc = json.loads((base / "out" / "reports" / "sim" / "conformance.json").read_text())
    failing = sorted({c["fn"] for c in doc["cases"] if c["status"] == "fail"})
    assert failing == ["diopiAddmm", "diopiMm"]
    assert all(c["status"] == "pass" for c in doc["cases"] if c["fn"] not in failing)
