"""A bad catalogue fails with `file:line: op: reason`, exit 1, no traceback, nothing written."""

import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

GOOD = """\
version: 1
tolerances:
  {float16: [1.0e-3, 1.0e-3], bfloat16: [1.0e-2, 1.0e-2], float32: [1.0e-5, 1.0e-5], float64: [1.0e-10, 1.0e-7]}
ops:
  - name: add
    doc: Element-wise sum.
    dtypes: [float32, float64]
    functions:
      - diopi: diopiAdd
        aten: "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"
        outputs:
          out: broadcast(self, other)
  - name: neg
    doc: Negation.
    dtypes: [float32]
    functions:
      - diopi: diopiNeg
        aten: "neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"
        outputs:
          out: like(self)
"""



def rt_family(*args: str) -> str:
    """A family with one runtime-only function, diopiRt, taking `args` (its line 28 on)."""
    return """  - name: rt
    doc: Runtime-only.
    dtypes: [float32]
    functions:
      - diopi: diopiRt
        runtime: the runtime
        args:
""" + "".join(f"          - {a}\n" for a in args)


# (case id, text replaced, replacement, expected "line: op: reason" fragment)
BAD_CASES = [
    ("yaml_syntax", "    dtypes: [float32, float64]", "    dtypes: [float32, float64",
     "ops.yaml:8: YAML syntax error"),
    ("unknown_field", "    doc: Element-wise sum.", "    docs: Element-wise sum.",
     "ops.yaml:6: add: unknown field 'docs' in an op entry (did you mean 'doc'?)"),
    ("missing_field", "    dtypes: [float32]\n", "",
     "ops.yaml:13: neg: missing required field 'dtypes' in an op entry"),
    ("duplicate_op", "  - name: neg", "  - name: add",
     "ops.yaml:13: add: duplicate op name (first defined at line 5)"),
    ("duplicate_diopi", "      - diopi: diopiNeg", "      - diopi: diopiAdd",
     "ops.yaml:17: diopiAdd: duplicate DIOPI function (first defined at line 9)"),
    ("unknown_dtype", "    dtypes: [float32]", "    dtypes: [float33]",
     "ops.yaml:15: neg: unknown dtype 'float33' in 'dtypes'"),
    ("malformed_schema", '"neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"',
     '"neg.out(Tensor self, *, Tensor(a!) out -> Tensor(a!)"',
     "ops.yaml:18: diopiNeg: malformed ATen schema"),
    ("nonexistent_schema", '"neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"',
     '"negg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"',
     "ops.yaml:18: diopiNeg: ATen overload 'negg.out' does not exist"),
    ("schema_drift", '"neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"',
     '"neg.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)"',
     "ops.yaml:18: diopiNeg: ATen schema differs from torch"),
    ("diopi_not_identifier", "      - diopi: diopiNeg", "      - diopi: diopi-Neg",
     "ops.yaml:17: neg: DIOPI name 'diopi-Neg' is not a C identifier"),
    ("arg_not_in_schema", "        outputs:\n          out: like(self)",
     "        args: [out, input, dim]\n        outputs:\n          out: like(self)",
     "ops.yaml:18: diopiNeg: argument 'dim' is not an argument of aten::neg.out"),
    # generated bodies name their locals ow_* (an argument `a` once shadowed the adaptor's)
    ("arg_name_reserved", "        outputs:\n          out: like(self)",
     "        args: [out, ow_x=self]\n        outputs:\n          out: like(self)",
     "ops.yaml:19: diopiNeg: argument name 'ow_x' is reserved (ctx, ow_*)"),
    # `value: {overload: v}`: one value per ATen overload (diopiPad's mode), every one given
    ("value_per_overload_missing", "        outputs:\n          out: like(self)",
     "        args: [out, input, {name: mode, type: \"const char*\", value: {neg: x}}]\n"
     "        outputs:\n          out: like(self)",
     "ops.yaml:18: diopiNeg: 'value' of argument 'mode' has none for the overload 'neg.out'"),
    # a word is a string only for a const char*; elsewhere it must be a helper call
    ("value_word_not_a_string", "        outputs:\n          out: like(self)",
     "        args: [out, input, {name: mode, type: int64_t, value: reflect}]\n"
     "        outputs:\n          out: like(self)",
     "ops.yaml:18: diopiNeg: argument 'mode': argument helper 'reflect' is not of the form"),
    ("rule_reads_missing_arg", "out: like(self)", "out: like(other)",
     "ops.yaml:20: diopiNeg: output rule like(other) reads 'other', which is not an argument"),
    ("unknown_rule", "out: like(self)", "out: shape_of(self)",
     "ops.yaml:20: diopiNeg: unknown output rule 'shape_of'"),
    ("per_overload_rule_missing", "          out: like(self)",
     "          out:\n            neg: like(self)",
     "ops.yaml:20: diopiNeg: output 'out' has rules for neg but none for the overload 'neg.out'"),
    ("missing_output_rule", "        outputs:\n          out: like(self)\n", "",
     "ops.yaml:17: diopiNeg: output 'out' needs a shaping rule in 'outputs'"),
    ("comment_breaker", "    doc: Negation.", "    doc: Negation */ int x; /*",
     "ops.yaml:14: neg: 'doc' contains '/*' or '*/'"),
    ("string_breaker", "    doc: Negation.", '    doc: "Negation \\\\ and more"',
     "ops.yaml:14: neg: 'doc' contains a backslash"),
    ("alias_bomb", "ops:\n", "bomb: &a [x, x]\nbomb2: [*a, *a]\nops:\n",
     "ops.yaml:4: YAML anchors and aliases are not allowed"),
    ("aten_routed_twice", '"neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"',
     '"add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"',
     "ops.yaml:18: diopiNeg: ATen overload 'add.out' is already routed to diopiAdd (line 10)"),
    # every floating dtype needs a tolerance: no silent default (codegen/dtypes.py)
    ("tolerance_missing", "bfloat16: [1.0e-2, 1.0e-2], ", "",
     "ops.yaml:2: tolerances: no [atol, rtol] for bfloat16 (every floating dtype needs one: "
     "float16, bfloat16, float32, float64)"),
    ("not_a_mapping", GOOD, "- just\n- a list\n", "ops.yaml:1: the catalogue must be a mapping"),
    # `foreach:` lists ATen _foreach_* overloads run by ATen's device-generic slow CPU kernels
    ("foreach_unknown_overload", "ops:\n", "foreach:\n  - _foreach_add_.Scalar\n"
     "  - _foreach_addd_.Scalar\nops:\n",
     "ops.yaml:6: _foreach_addd_.Scalar: ATen overload '_foreach_addd_.Scalar' does not exist"),
    ("foreach_not_a_slow_kernel", "ops:\n", "foreach:\n  - abs.out\nops:\n",
     "ops.yaml:5: abs.out: its CPU kernel 'abs_out' is not one of ATen's device-generic "
     "foreach_tensor_*_slow loops"),
    ("foreach_no_cpu_kernel", "ops:\n", "foreach:\n  - cudnn_grid_sampler\nops:\n",
     "ops.yaml:5: cudnn_grid_sampler: has no 'CPU:' or 'CompositeExplicitAutograd:' kernel"),
    ("foreach_already_routed", "ops:\n", "foreach:\n  - neg_\nops:\n",
     "ops.yaml:5: neg_: ATen overload 'neg_' is already routed to diopiNeg"),
    ("foreach_listed_twice", "ops:\n", "foreach:\n  - _foreach_sqrt\n  - _foreach_sqrt\nops:\n",
     "ops.yaml:6: _foreach_sqrt: listed twice in 'foreach' (first at line 5)"),
    ("foreach_not_a_list", "ops:\n", "foreach: _foreach_sqrt\nops:\n",
     "ops.yaml:4: 'foreach' must be a list of ATen overload names"),
    # `ignore: {arg: helper(args)}`: a guard helper from codegen/rules.py GUARD_HELPERS
    ("ignore_unknown_helper", "        outputs:\n          out: broadcast(self, other)",
     "        ignore:\n          alpha: no_such_guard(alpha)\n"
     "        outputs:\n          out: broadcast(self, other)",
     "ops.yaml:12: diopiAdd: unknown ignore helper 'no_such_guard' (known: group_norm_shape, nearest_scale_matches)"),
    ("ignore_helper_reads_unknown_arg", "        outputs:\n          out: broadcast(self, other)",
     "        ignore:\n          alpha: nearest_scale_matches(alpha, self, sizes, 0)\n"
     "        outputs:\n          out: broadcast(self, other)",
     "ops.yaml:12: diopiAdd: ignore helper 'nearest_scale_matches(alpha, self, sizes, 0)' reads "
     "'sizes', which is not an argument of aten::add.out or an integer"),
    # per-function conformance facts (`conformance:`, codegen/conformance_spec.py)
    ("conformance_unknown_field", "          out: broadcast(self, other)\n",
     "          out: broadcast(self, other)\n        conformance:\n          valuse: {}\n",
     "ops.yaml:14: diopiAdd: unknown field 'valuse' in conformance (did you mean 'values'?)"),
    ("conformance_unknown_argument", "          out: broadcast(self, other)\n",
     "          out: broadcast(self, other)\n        conformance:\n"
     "          values: {alpah: {float: [0.5], int: [2]}}\n",
     "ops.yaml:14: diopiAdd: conformance.values names 'alpah', which is not an argument of "
     "diopiAdd (did you mean 'alpha'?)"),
    # a functional overload's result binds to a DIOPI output when it is a Tensor or a bool
    # (a host output, equal's); any other result type has no DIOPI form
    ("scalar_result", GOOD, GOOD + "  - name: item\n    doc: The value.\n    dtypes: [float32]\n"
     "    functions:\n      - diopi: diopiItem\n        extension: test\n"
     "        aten: \"_local_scalar_dense(Tensor self) -> Scalar\"\n        args: [out, input]\n",
     "diopiItem: aten::_local_scalar_dense returns Scalar: a DIOPI output binds to a "
     "Tensor or bool result only"),
    # runtime-only arguments: `dir` / `optional`
    ("runtime_arg_bad_dir", GOOD,
     GOOD + rt_family("{name: x, type: diopiTensorHandle_t, dir: both}"),
     "ops.yaml:28: diopiRt: 'dir' of argument 'x' must be one of in, out, inout, got 'both'"),
]


def run_codegen(tmp_path, text, *args):
    spec = tmp_path / "ops.yaml"
    spec.write_text(text)
    out = tmp_path / "generated"
    proc = subprocess.run([sys.executable, "-m", "codegen", *(args or ("gen",)), "--spec",
                           str(spec), "--out", str(out)], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    return proc, out


def test_good_spec_generates(tmp_path):
    proc, out = run_codegen(tmp_path, GOOD)
    assert proc.returncode == 0, proc.stderr
    assert (out / "diopi" / "functions.h").exists()


@pytest.mark.parametrize("case,old,new,expected", BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_bad_spec_reports_line_and_op(tmp_path, case, old, new, expected):
    assert old in GOOD, "test case does not apply to the GOOD spec"
    # A previous good generation must survive the failed run untouched.
    proc, out = run_codegen(tmp_path, GOOD)
    assert proc.returncode == 0, proc.stderr
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}

    proc, out = run_codegen(tmp_path, GOOD.replace(old, new, 1))
    assert proc.returncode == 1
    assert expected in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "nothing was written" in proc.stderr
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before


def test_oversized_spec_is_refused(tmp_path):
    proc, _ = run_codegen(tmp_path, GOOD + "#" * (5 * 1024 * 1024))
    assert proc.returncode == 1
    assert "larger than" in proc.stderr


def test_several_errors_reported_in_one_run(tmp_path):
    text = GOOD.replace("[float32]", "[float33]").replace("doc: Element-wise sum.", "docs: x")
    proc, _ = run_codegen(tmp_path, text)
    assert proc.returncode == 1
    assert "unknown dtype 'float33'" in proc.stderr and "unknown field 'docs'" in proc.stderr


def test_foreach_overloads_register_atens_slow_kernels(tmp_path):
    text = GOOD.replace("ops:\n", "foreach:\n  - _foreach_add_.Scalar\n  - _foreach_sqrt\nops:\n")
    proc, out = run_codegen(tmp_path, text)
    assert proc.returncode == 0, proc.stderr
    cpp = (out / "aten" / "foreach.cpp").read_text()
    # No kernel name in the output: it differs between torch versions (opweave/host_loop.h).
    assert 'm.impl("_foreach_add_.Scalar", opweave::host_loop_kernel());' in cpp
    assert 'm.impl("_foreach_sqrt", opweave::host_loop_kernel());' in cpp
    assert "at::native::" not in cpp


TORCH2 = int(__import__("torch").__version__.split(".")[0]) >= 2


@pytest.mark.parametrize("since,names,expected", [
    ("1.9", "[max.unary_out]", "'aten_since' version 1.9 is not newer than the oldest supported"),
    ("two", "[max.unary_out]", "'aten_since' keys are torch versions like"),
    ("2.0", "max.unary_out", "'aten_since' 2.0: a list of ATen overload names"),
    # a fact the installed torch contradicts, whichever version it is
    ("2.0", "[add.out]" if not TORCH2 else "[no_such_overload.out]",
     "already has it" if not TORCH2 else "has no such overload"),
])
def test_aten_since_is_checked_against_the_installed_torch(tmp_path, since, names, expected):
    text = GOOD.replace("tolerances:", f"aten_since:\n  \"{since}\": {names}\ntolerances:", 1)
    proc, _ = run_codegen(tmp_path, text)
    assert proc.returncode == 1
    assert expected in proc.stderr, proc.stderr


@pytest.mark.parametrize("key,names,expected", [
    # facts the installed torch contradicts, whichever version it is
    ("composite_until", "[add.out]" if not TORCH2 else "[diag]",
     "not CompositeImplicitAutograd" if not TORCH2 else "still has it as CompositeImplicitAutograd"),
    ("composite_since", "[bitwise_or.Scalar]" if not TORCH2 else "[add.out]",
     "already has it as CompositeImplicitAutograd" if not TORCH2
     else "does not have it as CompositeImplicitAutograd"),
    ("composite_until", "add.out", "'composite_until' 2.0: a list of ATen overload names"),
    ("scalar_since", "[clamp.out]" if not TORCH2 else "[add.out]",
     "already has its int? arguments as Scalar?" if not TORCH2
     else "has no such overload with a Scalar? argument"),
    ("scalar_since", "[var.correction]" if TORCH2 else "[std.correction_out]", None),
])
def test_version_facts_are_checked_against_the_installed_torch(tmp_path, key, names, expected):
    text = GOOD.replace("tolerances:", f"{key}:\n  \"2.0\": {names}\ntolerances:", 1)
    proc, _ = run_codegen(tmp_path, text)
    if expected is None:   # a true fact
        assert proc.returncode == 0, proc.stderr
        return
    assert proc.returncode == 1
    assert expected in proc.stderr, proc.stderr


def test_aten_since_hides_the_overload_from_the_generator(tmp_path):
    # An overload listed there is absent for the generator on every torch version.
    text = GOOD.replace("tolerances:", 'aten_since:\n  "2.0": [max.unary_out]\ntolerances:', 1)
    proc, _ = run_codegen(tmp_path, text)
    assert proc.returncode == 0, proc.stderr


def test_runtime_only_arguments_take_direction_and_optional(tmp_path):
    text = GOOD + rt_family("{name: x, type: diopiTensorHandle_t, dir: inout}",
                            "{name: g, type: diopiTensorHandle_t, dir: in}",
                            "{name: m, type: diopiTensorHandle_t, optional: true}",
                            "{name: lr, type: float}")
    proc, out = run_codegen(tmp_path, text)
    assert proc.returncode == 0, proc.stderr
    header = (out / "diopi" / "functions.h").read_text()
    assert "@param[inout] x" in header and "@param[in] g" in header
    assert "@param[out] m m (optional: may be null)" in header
    assert "float lr" in header


# `conformance:` (specs/README.md): each malformed field is an error at its line, naming the
# function; checked in-process (the end-to-end path is covered by BAD_CASES above).
RT_FAMILY = rt_family("{name: dst, type: diopiTensorHandle_t}",
                      "{name: src, type: diopiConstTensorHandle_t}")
CONFORMANCE_CASES = [
    # (case id, lines under diopiAdd's `conformance:` (line 14 on), expected "line: fn: reason")
    ("not_a_mapping", None, "ops.yaml:13: diopiAdd: 'conformance' must be a mapping"),
    ("scalar_values_not_split", "values: {alpha: [1, 2]}",
     "ops.yaml:14: diopiAdd: conformance.values.alpha: a Scalar takes {float: [...], int: [...]}"),
    ("scalar_values_wrong_type", "values: {alpha: {float: [0.5], int: [two]}}",
     "ops.yaml:14: diopiAdd: conformance.values.alpha.int must be a non-empty list of numbers"),
    ("values_of_a_tensor", "values: {other: [1]}",
     "ops.yaml:14: diopiAdd: conformance.values: 'other' is not a non-tensor argument"),
    ("values_not_a_mapping", "values: [1, 2]",
     "ops.yaml:14: diopiAdd: conformance.values must map an argument to its test values"),
    ("unknown_input_kind", "inputs: posative",
     "ops.yaml:14: diopiAdd: conformance.inputs: unknown value kind 'posative' (known: normal, "
     "positive, unit, small_int) (did you mean 'positive'?)"),
    ("input_kind_of_an_output", "inputs: {out: positive}",
     "ops.yaml:14: diopiAdd: conformance.inputs: 'out' is an output, not read"),
    ("forward_outside_the_family", "forward: diopiNeg",
     "ops.yaml:14: diopiAdd: conformance.forward: 'diopiNeg' is not another function of the "
     "'add' family"),
    ("forward_not_a_string", "forward: [diopiNeg]",
     "ops.yaml:14: diopiAdd: conformance.forward must name a DIOPI function of the family"),
    ("from_forward_without_a_forward", "from_forward: {alpha: {attr: alpha}}",
     "ops.yaml:14: diopiAdd: conformance.from_forward needs a forward function"),
    ("from_forward_unknown_fact", "from_forward: {alpha: {shap: input}}",
     "ops.yaml:14: diopiAdd: conformance.from_forward.alpha: unknown 'shap' (known: shape, dim0, "
     "channels, attr) (did you mean 'shape'?)"),
    ("together_without_values", "together: [alpha, other]",
     "ops.yaml:14: diopiAdd: conformance.together names 'alpha', which has no conformance.values"),
    ("min_ndim_negative", "min_ndim: -1",
     "ops.yaml:14: diopiAdd: conformance.min_ndim must be an integer >= 0, got -1"),
    ("reference_unknown_overload", "reference: {aten: convolutoin}",
     "ops.yaml:14: diopiAdd: conformance.reference.aten: ATen overload 'convolutoin' does not "
     "exist (did you mean 'convolution'?)"),
    ("reference_unknown_argument", "reference: {aten: convolution, fixed: {output_paddin: [0]}}",
     "ops.yaml:14: diopiAdd: conformance.reference.fixed: 'output_paddin' is not an argument of "
     "aten::convolution (did you mean 'output_padding'?)"),
    ("reference_runtime_of_a_bound_function", "reference: {runtime: adam}",
     "ops.yaml:14: diopiAdd: conformance.reference.runtime is for runtime-only functions"),
    ("reference_unknown_field", "reference: {aten: add.out, overlaod: x}",
     "ops.yaml:14: diopiAdd: unknown field 'overlaod' in conformance.reference"),
]


def _with_add_conformance(block):
    head = "          out: broadcast(self, other)\n"
    body = ("        conformance: [1]\n" if block is None
            else f"        conformance:\n          {block}\n")
    return GOOD.replace(head, head + body, 1)


def _load_errors(tmp_path, text):
    from codegen.errors import SpecErrors
    from codegen.pipeline import load_catalogue
    spec = tmp_path / "ops.yaml"
    spec.write_text(text)
    with pytest.raises(SpecErrors) as e:
        load_catalogue(str(spec))
    return [err.format() for err in e.value.errors]


@pytest.mark.parametrize("case,block,expected", CONFORMANCE_CASES,
                         ids=[c[0] for c in CONFORMANCE_CASES])
def test_bad_conformance_field_reports_line_and_function(tmp_path, case, block, expected):
    errors = _load_errors(tmp_path, _with_add_conformance(block))
    assert any(expected in e for e in errors), errors


@pytest.mark.parametrize("reference,expected", [
    ("{runtime: convert, output: src, input: dst}",
     "ops.yaml:33: diopiRt: conformance.reference.output: 'src' is not written by the function"),
    ("{runtime: convert, output: dst}", "ops.yaml:32: diopiRt: conformance.reference.runtime: "
                                        "convert takes input, output"),
    ("{runtime: sgd}", "ops.yaml:32: diopiRt: conformance.reference.runtime: unknown reference "
                       "'sgd' (known: convert, adam, adamw)"),
    ("{aten: add.out}", "ops.yaml:32: diopiRt: conformance.reference.aten: a runtime-only "
                        "function takes 'runtime'"),
])
def test_bad_runtime_reference_reports_line_and_function(tmp_path, reference, expected):
    text = GOOD + RT_FAMILY + "        conformance:\n          reference:\n"
    text += "".join(f"            {k.strip()}\n" for k in reference.strip("{}").split(","))
    errors = _load_errors(tmp_path, text)
    assert any(expected in e for e in errors), errors


def test_conformance_facts_reach_the_cases(tmp_path):
    """A valid `conformance:` is honoured: Scalar values, the input domain, a runtime reference."""
    import yaml
    from codegen import emit_conformance
    from codegen.output_set import OutputSet
    from codegen.pipeline import load_catalogue
    from codegen.render import environment
    text = _with_add_conformance("values: {alpha: {float: [0.25], int: [5]}}\n"
                                 "          inputs: unit")
    text += RT_FAMILY + ("        conformance:\n"
                         "          reference: {runtime: convert, output: dst, input: src}\n")
    spec = tmp_path / "ops.yaml"
    spec.write_text(text)
    cat = load_catalogue(str(spec))
    out = OutputSet()
    emit_conformance.emit(cat, environment(), out)
    (add,) = yaml.safe_load(out.files["conformance/add.yaml"])["functions"]
    assert {c["attrs"]["alpha"] for c in add["cases"]} == {1, 0.25}   # default first
    assert all(t["values"] == "unit" for c in add["cases"] if c["tag"] == "bcast"
               for t in c["inputs"].values())
    (rt,) = yaml.safe_load(out.files["conformance/rt.yaml"])["functions"]
    assert rt["reference"] == {"runtime": "convert", "output": "dst", "input": "src"}
    assert rt["cases"] and all(set(c["inputs"]) == {"src"} for c in rt["cases"])
