"""The conformance runner calls sim kernels at the C ABI and catches exactly the planted faults."""

import json
import os
import subprocess
import sys

import pytest

from opweave.conformance import cases, golden, report

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPS = "diopiAdd,diopiSum,diopiMm,diopiSigmoidBackward,diopi(Where|EqScalar|Nonzero|UniformInp)"
DTYPES = "float32,bfloat16,bool"
# The tests share one module-scoped suite and read the reports earlier ones wrote (the support
# matrix expects diopiMm's clean run): under xdist they must run in one worker, in file order.
pytestmark = pytest.mark.xdist_group("conformance_runner")


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    root = tmp_path_factory.mktemp("conformance")
    env = dict(os.environ, OPWEAVE_GOLDEN_DIR=str(root / "golden"),
               OPWEAVE_REPORTS_DIR=str(root / "reports"), OPWEAVE_VENDORS_DIR=str(root / "vendors"),
               OPWEAVE_VENDOR="sim", PYTHONPATH=os.pathsep.join(
                   [os.path.join(REPO, "runtime", "python"), REPO, os.environ.get("PYTHONPATH", "")]))
    env.pop("OPWEAVE_SIM_FAULT", None)
    old = os.environ.get("OPWEAVE_GOLDEN_DIR")
    os.environ["OPWEAVE_GOLDEN_DIR"] = env["OPWEAVE_GOLDEN_DIR"]
    try:
        cat = cases.Catalogue()
        selected = cat.select(OPS, DTYPES)
        counts = golden.generate(cat, selected)
    finally:
        if old is None:
            del os.environ["OPWEAVE_GOLDEN_DIR"]
        else:
            os.environ["OPWEAVE_GOLDEN_DIR"] = old
    assert counts["written"] == len(selected) and counts["reference_error"] == 0
    return root, env, {c.id for c in selected}


def run(env, *args, faults="", expectations=None, vendors="vendors"):
    env = dict(env)
    env["OPWEAVE_VENDORS_DIR"] = str(os.path.join(os.path.dirname(env["OPWEAVE_GOLDEN_DIR"]), vendors))
    if faults:
        env["OPWEAVE_SIM_FAULT"] = faults
    if expectations is not None:
        path = os.path.join(env["OPWEAVE_VENDORS_DIR"], "sim", "expectations.yaml")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(expectations)
    return subprocess.run([sys.executable, "-m", "opweave.conformance", *args], env=env,
                          capture_output=True, text=True, timeout=300, cwd=REPO)


def load_report(root):
    with open(os.path.join(root, "reports", "sim", "conformance.json")) as f:
        return json.load(f)


def test_clean_sim_passes_every_case_and_writes_reports(suite):
    root, env, ids = suite
    proc = run(env, "run", "--op", OPS, "--dtype", DTYPES, "--fresh")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = load_report(root)
    assert {c["id"] for c in doc["cases"]} == ids
    assert doc["totals"]["pass"] == len(ids) and doc["totals"]["fail"] == 0
    assert doc["functions"]["diopiMm"]["native"] and doc["functions"]["diopiMm"]["pass_rate"] == 1.0
    case = next(c for c in doc["cases"] if "-bcast-" in c["id"] and c["fn"] == "diopiAdd")
    assert case["shapes"] == {"out": [4, 5], "input": [4, 5], "other": [5]}
    assert os.path.isfile(os.path.join(root, "reports", "sim", "cases.csv"))
    assert f"{len(ids)} pass, 0 fail" in proc.stdout
    # an output the kernel allocates is read back and compared; a random one by distribution
    nonzero = next(c for c in doc["cases"] if c["fn"] == "diopiNonzero" and c["tag"] == "base")
    assert nonzero["shapes"]["out"][1] == 2 and nonzero["outputs"]["out"]["numel"] > 0
    uniform = next(c for c in doc["cases"] if c["fn"] == "diopiUniformInp" and c["tag"] == "large")
    assert uniform["outputs"]["inout"]["compare"] == "distribution"


def test_planted_faults_fail_exactly_their_functions_and_can_be_replayed(suite):
    root, env, ids = suite
    faults = "diopiSum,diopiWhere,diopiMm"
    proc = run(env, "run", "--op", OPS, "--dtype", DTYPES, "--fresh", faults=faults)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    doc = load_report(root)
    failing = {name for name, o in doc["functions"].items() if o["fail"]}
    assert failing == set(faults.split(","))
    for name in failing:   # float32 always catches the nudge; every failing case is one of them
        assert doc["functions"][name]["fail"] >= 5
    assert "failing functions: diopiMm, diopiSum, diopiWhere" in proc.stdout
    saved = os.listdir(os.path.join(root, "reports", "sim", "failures"))
    assert len(saved) == sum(o["fail"] for o in doc["functions"].values())
    victim = os.path.join(root, "reports", "sim", "failures",
                          next(s for s in saved if s.startswith("diopiMm-float32-base")))
    again = run(env, "replay", victim, faults=faults)
    assert again.returncode == 1 and "FAIL" in again.stdout, again.stdout + again.stderr
    fixed = run(env, "replay", victim)
    assert fixed.returncode == 0 and "PASS" in fixed.stdout, fixed.stdout + fixed.stderr


def test_expectations_skip_with_reason_and_loosen_tolerances(suite):
    root, env, _ids = suite
    exp = """
skip:
  - op: diopiSum
    dtype: [float32, bfloat16]
    reason: "sum is on the roadmap"
tolerance:
  - op: "diopi(Mm)"
    atol: 1.0
    rtol: 1.0
    reason: "test: a loose matrix unit"
"""
    proc = run(env, "run", "--op", "diopiSum,diopiMm", "--dtype", "float32,bfloat16", "--fresh",
               faults="diopiSum,diopiMm",
               expectations=exp, vendors="vendors_exp")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = load_report(root)
    s = doc["functions"]["diopiSum"]
    assert s["skip"] == s["total"] > 0 and s["pass"] == 0
    assert s["skip_reasons"] == {"expected: sum is on the roadmap": s["skip"]}
    assert doc["functions"]["diopiMm"]["fail"] == 0
    assert f"skipped {s['skip']}: expected: sum is on the roadmap" in proc.stdout


def test_expectations_without_a_reason_are_refused(suite):
    _root, env, _ids = suite
    proc = run(env, "run", "--op", "diopiSum", expectations="skip:\n  - op: diopiSum\n",
               vendors="vendors_bad")
    assert proc.returncode == 2
    assert "needs a 'reason'" in proc.stderr


def test_support_matrix_rows_per_function_and_vendor(suite, monkeypatch):
    root, _env, _ids = suite
    monkeypatch.setenv("OPWEAVE_REPORTS_DIR", str(root / "reports"))
    md, page = report.support_matrix(["sim", "nobody"], [("diopiMm", "mm", ""),
                                                         ("diopiSum", "sum", ""),
                                                         ("diopiFoo", "foo", "no values")])
    assert "| diopiMm | mm | native |" in md
    assert "no conformance report" in md and "no cases" in md
    assert "<table>" in page and "diopiSum" in page
    # a function the adaptor converts for the vendor (kernel_support.yaml) says what it adapts
    md, page = report.support_matrix(["sim"], [("diopiMm", "mm", "")],
                                     {"sim": {"diopiMm": "bfloat16 -> float32; dense"}})
    assert "| diopiMm | mm | adapted (bfloat16 -> float32; dense) |" in md
    assert "class='adapted'" in page


def test_compare_matches_nan_and_inf_positions_and_applies_atol_rtol():
    import torch
    from opweave.conformance import runner
    nan, inf = float("nan"), float("inf")
    ref = torch.tensor([1.0, nan, inf, -2.0])
    assert runner.compare(ref.clone(), ref, 0.0, 0.0)["mismatches"] == 0
    near = torch.tensor([1.0 + 1.5e-5, nan, inf, -2.0 - 2e-5])
    assert runner.compare(near, ref, 1e-5, 1e-5)["mismatches"] == 0      # |d| <= atol + rtol|r|
    assert runner.compare(near, ref, 1e-5, 0.0)["mismatches"] == 2
    got = torch.tensor([1.0, 0.0, -inf, -2.0])
    cmp = runner.compare(got, ref, 1.0, 1.0)
    assert cmp["mismatches"] == 2 and cmp["first"]["index"] == [1]
    assert cmp["first"]["expected"] == "nan" and cmp["max_abs"] == inf
    r = runner.Result("x", "f", "fam", "float32", "base", "fail", max_abs=inf, max_rel=nan,
                      outputs={"out": cmp})
    json.dumps(r.to_json(), allow_nan=False)          # strict JSON in the report
    ints = runner.compare(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[1, 2], [3, 5]]), 9.0, 9.0)
    assert ints["mismatches"] == 1 and ints["first"]["index"] == [1, 1]   # integers: exact


def test_compare_distribution_accepts_another_draw_and_rejects_another_distribution():
    import torch
    from opweave.conformance import runner
    g = torch.Generator().manual_seed(0)
    ref = torch.randn(4000, generator=g)
    other_draw = torch.randn(4000, generator=g)
    assert runner.compare_distribution(other_draw, ref, 1e-5, 1e-5)["mismatches"] == 0
    shifted = runner.compare_distribution(other_draw + 0.3, ref, 1e-5, 1e-5)
    assert shifted["mismatches"] == 1 and shifted["first"]["index"] == ["mean"]
    wider = runner.compare_distribution(other_draw * 1.5, ref, 1e-5, 1e-5)
    assert wider["mismatches"] == 1 and wider["first"]["index"] == ["std"]
    with_nan = other_draw.clone()
    with_nan[7] = float("nan")
    assert runner.compare_distribution(with_nan, ref, 1e-5, 1e-5)["max_abs"] == float("inf")
    assert runner.compare_distribution(other_draw.double(), ref, 1e-5, 1e-5)["mismatches"] == 4000
    # one element: compared with the spread of the two draws, so any two uniforms agree
    one = runner.compare_distribution(torch.tensor([0.9]), torch.tensor([0.1]), 1e-5, 1e-5)
    assert one["mismatches"] == 0
    # a permutation (compare: permutation, randperm): the same multiset, in any order
    perm = torch.randperm(50, generator=g)
    assert runner.compare_distribution(perm, torch.arange(50), 0, 0, True)["mismatches"] == 0
    bad = perm.clone()
    bad[0] = bad[1]
    assert runner.compare_distribution(bad, torch.arange(50), 0, 0, True)["mismatches"] > 0
    # integers drawn from a range (random_): by mean and standard deviation, as floats
    ints = torch.randint(0, 10, (4000,), generator=g)
    again = torch.randint(0, 10, (4000,), generator=g)
    assert runner.compare_distribution(again, ints, 0, 0)["mismatches"] == 0
    assert runner.compare_distribution(again + 1, ints, 0, 0)["first"]["index"] == ["mean"]
