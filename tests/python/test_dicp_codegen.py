"""A bad vendor catalogue (specs/dicp/<vendor>.yaml) fails with `file:line: entry: reason`.

Each case edits the real sim catalogue in one place and checks the exact report; one case
runs the command line to check the exit status and that nothing is written. No device needed.
"""

import os
import shutil
import subprocess
import sys

import pytest

from codegen import dicp
from codegen.aten_index import default_index
from codegen.errors import SpecErrors
from codegen.pipeline import load_catalogue

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.path.join(REPO, "specs", "dicp", "sim.yaml")
ASCEND = os.path.join(REPO, "specs", "dicp", "ascend.yaml")


@pytest.fixture(scope="module")
def catalogue():
    return load_catalogue(os.path.join(REPO, "specs", "ops.yaml"))


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def errors_for(catalogue, tmp_path, old: str, new: str, source=SIM) -> tuple[list, str]:
    text = open(source).read()
    assert old in text, old
    edited = text.replace(old, new, 1)
    path = tmp_path / os.path.basename(source)
    path.write_text(edited)
    with pytest.raises(SpecErrors) as e:
        dicp.load_vendor(str(path), f"specs/dicp/{path.name}", catalogue, default_index())
    return [x.format() for x in e.value.errors], edited


# (case id, text replaced, replacement, line marker in the edited text, expected reason)
CASES = [
    ("unknown_vendor_op", "{aten: relu, map: {op: Relu,", "{aten: relu, map: {op: Rellu,",
     "{aten: relu,", "relu: map: unknown vendor op 'Rellu' (did you mean 'Relu'?)"),
    ("attr_type_vs_diopi", "    attrs: {alpha: scalar}\n    infer: broadcast(input, other)\n",
     "    attrs: {alpha: int}\n    infer: broadcast(input, other)\n", "diopi: diopiAdd\n",
     "Add: attribute 'alpha' is int but diopiAdd's 'alpha' is const diopiScalar_t* (scalar)"),
    ("unknown_diopi_function", "diopi: diopiMaximum", "diopi: diopiMaximun", "diopi: diopiMaximun",
     "Maximum: DIOPI function 'diopiMaximun' is not in specs/ops.yaml (did you mean "
     "'diopiMaximum'?)"),
    ("port_not_written", "    diopi: diopiSigmoidBackward\n    inputs: [grad_output, output]\n"
     "    outputs: [grad_input]", "    diopi: diopiSigmoidBackward\n    inputs: [grad_output, "
     "output]\n    outputs: [result]", "diopi: diopiSigmoidBackward",
     "SigmoidBackward: diopiSigmoidBackward writes 'grad_input': it must be an output of "
     "SigmoidBackward"),
    ("dead_vendor_op", "  - aten: maximum\n    map: {op: Maximum, inputs: {input: self, other: other}}\n",
     "", "  - name: Maximum", "Maximum: vendor op is not produced by any conversion (a dead entry)"),
    ("unreachable_entry", "  - aten: sum.dim_IntList\n    when: {dtype: null}\n",
     "  - aten: sum.dim_IntList\n    ignore: [dtype]\n", "    doc: A reduction with an accumulation dtype",
     "sum.dim_IntList: unreachable: the entry at line"),
    ("unmapped_aten_argument", "  - aten: add.Tensor\n    map: {op: Add, inputs: {input: self, "
     "other: other}, attrs: {alpha: alpha}}", "  - aten: add.Tensor\n    map: {op: Add, inputs: "
     "{input: self, other: other}, attrs: {alpha: 1}}", "  - aten: add.Tensor",
     "add.Tensor: ATen argument 'alpha' of aten::add.Tensor is not mapped, not tested in 'when' "
     "and not in 'ignore'"),
    ("missing_custom_handler", "opweave.dicp.handlers.t_as_transpose",
     "opweave.dicp.handlers.t_as_transposed", "custom: opweave.dicp.handlers.t_as_transposed",
     "t: custom handler 'opweave.dicp.handlers.t_as_transposed': runtime/python/opweave/dicp/"
     "handlers.py defines no function 't_as_transposed' (did you mean 't_as_transpose'?)"),
    ("code_in_yaml", "custom: opweave.dicp.handlers.t_as_transpose",
     "custom: 'lambda cx: cx'", "custom: 'lambda cx: cx'",
     "t: custom handler must be a dotted name 'opweave.module.function'"),
    ("bad_expression", 'attrs: {dim: "dim(dim, self)", keepdim: keepdim}}',
     'attrs: {dim: "dim(dim)", keepdim: keepdim}}', 'attrs: {dim: "dim(dim)"',
     "sum.dim_IntList: map: dim() takes 2..3 arguments in 'dim(dim)'"),
    ("expression_type", "attrs: {threshold: threshold, value: value}}",
     "attrs: {threshold: threshold, value: [1, 2]}}", "attrs: {threshold: threshold, value: [1",
     "threshold: map: attribute 'value' is scalar but the value is ints"),
    ("optional_into_required", "map: {op: Clamp, inputs: {input: self}, attrs: {min: min, max: max}}",
     "map: {op: Threshold, inputs: {input: self}, attrs: {threshold: min, value: max}}",
     "map: {op: Threshold, inputs: {input: self}, attrs: {threshold: min",
     "clamp: map: the value may be None but attribute 'threshold' is not optional"),
    ("unknown_aten_overload", "  - aten: add.Scalar\n", "  - aten: add.Scalr\n",
     "  - aten: add.Scalr", "add.Scalr: ATen overload 'add.Scalr' does not exist in the "
     "installed torch's native_functions.yaml (did you mean 'add.Scalar'?)"),
    ("inplace_overload", "  - {aten: neg, map:", "  - {aten: neg_, map:", "{aten: neg_,",
     "neg_: only functional overloads convert"),
    ("unknown_rule", "{name: Exp, diopi: diopiExp, inputs: [input], infer: same_as(input)}",
     "{name: Exp, diopi: diopiExp, inputs: [input], infer: same_ass(input)}",
     "{name: Exp, diopi", "Exp: unknown inference rule 'same_ass'"),
    ("flow_mapping_comma", 'infer: "compare(input, other)"}', "infer: compare(input, other)}",
     "{name: Eq, diopi", "Eq: unknown field 'other)' in a vendor op (inside a YAML "
     "{flow: mapping} a comma ends the value: quote it)"),
    ("same_as_one_port_per_output", "infer: same_as(input, weight, bias)",
     "infer: same_as(input, weight)", "infer: same_as(input, weight)",
     "LayerNormBackward: rule 'same_as' names one port per output: 3 output(s), 2 port(s)"),
    ("layer_norm_backward_reference_needs_its_mask",
     "    ref: opweave.dicp.refs.layer_norm_backward_all_grads\n", "",
     "diopi: diopiLayerNormBackward", "LayerNormBackward: the CPU reference "
     "aten::native_layer_norm_backward needs 'output_mask': declare an attribute 'output_mask'"),
    ("cat_rule_dim_first", "infer: cat(dim, a, b)\n", "infer: cat(a, b, dim)\n",
     "infer: cat(a, b, dim)", "Concat2: inference rule cat: 'a' must be int"),
    ("graph_kernel_names_a_diopi_function", "kernel: simFusedAddmmAct", "kernel: diopiAddmm",
     "kernel: diopiAddmm", "AddmmAct: diopiAddmm is a DIOPI function of specs/ops.yaml: use "
     "'diopi'"),
    ("graph_kernel_without_dtypes", "    dtypes: [float32, float64]\n", "",
     "kernel: simFusedAddmmAct", "AddmmAct: a graph kernel needs 'dtypes'"),
    ("graph_kernel_without_reference", "    ref: opweave.dicp.refs.addmm_activation\n", "",
     "kernel: simFusedAddmmAct", "AddmmAct: a graph kernel has no ATen twin: give the op a CPU "
     "reference with 'ref'"),
    ("graph_kernel_and_diopi", "    kernel: simFusedAddmmAct\n",
     "    kernel: simFusedAddmmAct\n    diopi: diopiAddmm\n", "  - name: AddmmAct",
     "AddmmAct: a vendor op has one of 'diopi', 'view' or 'kernel'"),
    # The op catalogue's text rules (codegen/validate.py): the doc becomes a docstring.
    ("doc_backslash", "    doc: other - alpha * self, as (-self) + other when alpha is 1.",
     "    doc: other - alpha * self \\ as (-self) + other when alpha is 1.",
     "    doc: other - alpha * self \\", "rsub.Scalar: 'doc' contains a backslash"),
    ("doc_triple_quotes", "    doc: other - alpha * self, as (-self) + other when alpha is 1.",
     '    doc: other - alpha * self, as """(-self)""" + other when alpha is 1.',
     '    doc: other - alpha * self, as """', "rsub.Scalar: 'doc' contains triple quotes"),
    ("view_attributes", "    view: transpose\n    inputs: [input]\n    attrs: {dim0: int, dim1: int}",
     "    view: transpose\n    inputs: [input]\n    attrs: {dim0: int}",
     "    view: transpose", "Transpose: view 'transpose' takes attributes (dim0: int, dim1: int)"),
]


@pytest.mark.parametrize("case,old,new,marker,reason", CASES, ids=[c[0] for c in CASES])
def test_bad_catalogue_reports_file_line_and_reason(catalogue, tmp_path, case, old, new, marker,
                                                    reason):
    errors, edited = errors_for(catalogue, tmp_path, old, new)
    line = line_of(edited, marker) if marker in edited else None
    hits = [e for e in errors if reason in e]
    assert hits, f"{reason!r} not in:\n" + "\n".join(errors)
    if line is not None and case != "unreachable_entry":
        assert hits[0].startswith(f"specs/dicp/sim.yaml:{line}: "), hits[0]


def test_non_executable_vendor_ops_need_a_reference(catalogue, tmp_path):
    errors, _ = errors_for(catalogue, tmp_path,
                           "{name: Relu, inputs: [x], infer: same_as(x), ref: \"aten(relu, x)\"}",
                           "{name: Relu, inputs: [x], infer: same_as(x)}", source=ASCEND)
    assert any("Relu: a vendor op of a non-executable vendor needs 'ref'" in e for e in errors)


def test_command_line_fails_and_writes_nothing(tmp_path):
    spec = tmp_path / "specs"
    shutil.copytree(os.path.join(REPO, "specs"), spec)
    sim = spec / "dicp" / "sim.yaml"
    sim.write_text(sim.read_text().replace("diopi: diopiMaximum", "diopi: diopiMaximun"))
    out = tmp_path / "gen"
    proc = subprocess.run([sys.executable, "-m", "codegen", "gen", "--spec",
                           str(spec / "ops.yaml"), "--out", str(out)], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1
    assert "sim.yaml:" in proc.stderr and "diopiMaximun" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()


def test_generated_counts_match_the_catalogue(catalogue):
    vendors = dicp.load_all(os.path.join(REPO, "specs", "dicp"), catalogue,
                                      default_index())
    by_name = {v.vendor: v for v in vendors}
    assert set(by_name) >= {"sim", "ascend"}
    for v in vendors:
        text = open(os.path.join(REPO, "generated", "dicp", f"{v.vendor}_conversions.py")).read()
        assert f"COUNTS = {v.counts!r}" in text
        assert f"{len(v.conversions)} conversions" in text
    assert by_name["sim"].executable and not by_name["ascend"].executable
    assert all(op.diopi or op.view for op in by_name["sim"].ops)
