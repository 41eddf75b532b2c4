"""The adaptor: vendors/<name>/kernel_support*.yaml (what a vendor's kernels accept) is
validated like the catalogue, and the generated thunks convert on the device what a kernel
does not accept. Runtime checks use sim_fp32, sim with float32-only compute families and
dense GEMM operands (vendors/sim/kernel_support.fp32.yaml), in a fresh interpreter."""

from __future__ import annotations

import json
import textwrap

import pytest

from codegen import vendor_support
from codegen.errors import SpecErrors
from codegen.pipeline import load_catalogue


@pytest.fixture(scope="module")
def catalogue():
    return load_catalogue("specs/ops.yaml")


def errors_of(tmp_path, catalogue, text: str) -> list[str]:
    vendor = tmp_path / "acme"
    vendor.mkdir()
    (vendor / "kernel_support.yaml").write_text(textwrap.dedent(text))
    with pytest.raises(SpecErrors) as e:
        vendor_support.load_all(str(tmp_path), catalogue)
    return [err.format() for err in e.value.errors]


def test_support_file_errors_name_file_line_and_function(tmp_path, catalogue):
    errs = errors_of(tmp_path, catalogue, """\
        narrowing: yes please
        families:
          softmaks: {dtypes: [float32]}
          mm: {dtypes: [float32, int64]}
          bmm: {dtype: [float32]}
        functions:
          diopiCastDtype: {dtypes: [float32]}
          diopiAdd: {contiguous: 1}
        """)
    text = "\n".join(errs)
    assert "kernel_support.yaml:1: 'narrowing' must be true or false" in text
    assert "kernel_support.yaml:3: softmaks: not a family of the catalogue (did you mean " \
           "'softmax'?)" in text
    assert "kernel_support.yaml:4: diopiMm: accepts int64, which the catalogue does not list " \
           "for family 'mm'" in text
    assert "kernel_support.yaml:5: bmm: unknown field 'dtype'" in text
    assert "kernel_support.yaml:7: diopiCastDtype: the adaptor converts with this kernel" in text
    assert "kernel_support.yaml:8: diopiAdd: 'contiguous' must be true or false" in text


def test_rules_resolve_function_over_family_over_default(tmp_path, catalogue):
    vendor = tmp_path / "acme"
    vendor.mkdir()
    (vendor / "kernel_support.yaml").write_text(textwrap.dedent("""\
        default: {contiguous: true}
        families:
          add: {dtypes: [float32, int64]}
        functions:
          diopiAddScalar: {dtypes: [float32, float64, int32, int64, float16, bfloat16]}
        """))
    (vendor / "kernel_support.lite.yaml").write_text("families:\n  mm: {dtypes: [float32]}\n")
    lite, full = vendor_support.load_all(str(tmp_path), catalogue)  # sorted by file name
    rules = {r.function: r for r in full.rules}
    assert (full.library, lite.library) == ("acme", "acme_lite")
    assert rules["diopiAdd"].dtypes == ("float32", "int64") and rules["diopiAdd"].contiguous
    # the function's own dtypes win over its family's; the default's contiguity still applies
    assert set(rules["diopiAddScalar"].dtypes) == {"float16", "bfloat16", "float32", "float64",
                                                   "int32", "int64"}
    assert rules["diopiAddScalar"].contiguous
    assert [r.function for r in lite.rules] == ["diopiMm"] and not lite.narrowing


ADAPTED = """
import json, torch, opweave
d = opweave.device()
out = {}
def run(name, fn, *args, tol):
    opweave.adaptor_stats(reset=True); opweave.fallback_stats(reset=True)
    got = fn(*[a.to(d) for a in args])
    ref = fn(*args)
    out[name] = {"dtype": str(got.dtype), "ref_dtype": str(ref.dtype),
                 "err": (got.cpu().double() - ref.double()).abs().max().item(), "tol": tol,
                 "adapted": {k: v["converted"] for k, v in opweave.adaptor_stats()["functions"].items()
                             if v["converted"]},
                 "fallbacks": opweave.fallback_stats()}
g = torch.Generator().manual_seed(0)
a = torch.randn(8, 16, generator=g); b = torch.randn(12, 16, generator=g)
# bfloat16 GEMM with a transposed operand: cast to float32 and made dense on the device
run("mm_bf16", lambda x, y: x @ y.t(), a.bfloat16(), b.bfloat16(), tol=0.1)
# float32, transposed: only made contiguous
run("mm_strided", lambda x, y: x @ y.t(), a, b, tol=1e-4)
# float64 softmax: narrowed to float32 (the configuration opts in), result still float64
run("softmax_f64", lambda x: torch.softmax(x, -1), a.double(), tol=1e-6)
# in place, read and written: c.addmm_(x, y) in bfloat16
c = torch.randn(8, 12, generator=g)
run("addmm_inplace_bf16", lambda c, x, y: c.clone().addmm_(x, y.t()), c.bfloat16(), a.bfloat16(), b.bfloat16(),
    tol=0.1)
# a dtype outside the family (int64 mm) is not adapted: the kernel declines, the CPU runs it
run("mm_int64", lambda x, y: x @ y.t(), a.long(), b.long(), tol=0)
print("RESULT" + json.dumps(out))
"""


def run_json(run_python, code: str, vendor: str) -> dict:
    proc = run_python(code, OPWEAVE_VENDOR=vendor)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.split("RESULT", 1)[1])


def test_sim_fp32_adapts_on_the_device(run_python):
    r = run_json(run_python, ADAPTED, "sim_fp32")
    for name, case in r.items():
        assert case["dtype"] == case["ref_dtype"], name
        assert case["err"] <= case["tol"], (name, case)
    # counts are tensors converted: two operands and the output
    assert r["mm_bf16"]["adapted"] == {"diopiMm": {"bfloat16": 3}}
    assert r["mm_strided"]["adapted"] == {"diopiMm": {"strided": 1}}
    assert r["softmax_f64"]["adapted"] == {"diopiSoftmax": {"float64": 2}}
    # addmm_ passes self as DIOPI's `out` and `input`: both converted, written back once
    assert r["addmm_inplace_bf16"]["adapted"] == {"diopiAddmm": {"bfloat16": 4}}
    for name in ("mm_bf16", "mm_strided", "softmax_f64", "addmm_inplace_bf16"):
        assert r[name]["fallbacks"] == {}, name
    # int64 is not among mm's catalogue dtypes: not adapted (only made dense), still declined
    assert "int64" not in r["mm_int64"]["adapted"].get("diopiMm", {})
    assert r["mm_int64"]["fallbacks"] == {"aten::mm.out": 1}


def test_plain_sim_adapts_nothing(run_python):
    proc = run_python("import json, opweave; print('RESULT' + json.dumps(opweave.adaptor_stats()))",
                      OPWEAVE_VENDOR="sim")
    assert proc.returncode == 0, proc.stderr[-3000:]
    stats = json.loads(proc.stdout.split("RESULT", 1)[1])
    assert stats == {"narrowing": False, "error": "", "functions": {}}


@pytest.mark.parametrize("dtype,tol", [("bfloat16", 2e-2), ("float64", 1e-6)])
def test_tiny_gpt_trains_adapted_without_fallback(run_python, dtype, tol):
    code = f"""
        import json, torch, opweave
        from opweave.demo import gpt
        dev, cpu, fallbacks = gpt.compare(steps=6, dtype=torch.{dtype})
        adapted = sum(sum(f["converted"].values())
                      for f in opweave.adaptor_stats()["functions"].values())
        print("RESULT" + json.dumps({{"dev": dev, "cpu": cpu, "fallbacks": fallbacks,
                                     "adapted": adapted}}))
        """
    r = run_json(run_python, code, "sim_fp32")
    assert r["fallbacks"] == {}
    assert r["adapted"] > 100
    worst = max(abs(a - b) / abs(b) for a, b in zip(r["dev"], r["cpu"]))
    assert worst <= tol, (r["dev"], r["cpu"])
