"""Every entry of every generated conversion table is exercised on CPU (no dead handler).

Each case is a small function; it is compiled with each vendor's table in reference mode
(vendor ops run their CPU references: the ATen overload a sim DIOPI kernel implements, the
`ref` of an Ascend-style op) and compared with eager CPU. The coverage test then checks that
the cases together applied every conversion entry of every vendor (map, decomp, custom,
unsupported, and each `when` alternative).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

import opweave  # noqa: F401  (the package; tables import opweave.dicp)
from opweave import dicp
from opweave.device_module import TORCH2

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
aten = torch.ops.aten
B = 6   # batch size of the cases; dynamic tests vary it


def R(*s):
    return torch.randn(*s)


def P(*s):
    return torch.rand(*s) + 0.5


def I(*s, high=5):
    return torch.randint(0, high, s)


# (name, function, inputs(batch)) -- grouped by family for the device tests
CASES = {
    "binary": [
        ("add", lambda a, b: a + b, lambda b: [R(b, 4), R(4)]),
        ("add_alpha", lambda a, b: torch.add(a, b, alpha=2), lambda b: [R(b, 4), R(b, 4)]),
        ("add_scalar", lambda a: a + 2, lambda b: [R(b, 4)]),
        ("sub", lambda a, b: a - b, lambda b: [R(b, 4), R(b, 4)]),
        ("sub_scalar", lambda a: a - 1.5, lambda b: [R(b, 4)]),
        ("rsub", lambda a: 1 - a, lambda b: [R(b, 4)]),
        ("rsub_alpha", lambda a: torch.rsub(a, 1.0, alpha=2), lambda b: [R(b, 4)]),
        ("mul", lambda a, b: a * b, lambda b: [R(b, 4), R(b, 1)]),
        ("mul_scalar", lambda a: a * 2.5, lambda b: [R(b, 4)]),
        ("div", lambda a, b: a / b, lambda b: [R(b, 4), P(b, 4)]),
        ("div_floor", lambda a, b: torch.div(a, b, rounding_mode="floor"),
         lambda b: [R(b, 4), P(b, 4)]),
        ("div_scalar", lambda a: a / 3, lambda b: [R(b, 4)]),
        ("pow_scalar", lambda a: a.pow(3), lambda b: [R(b, 4)]),
        ("pow_tensor", lambda a, e: a ** e, lambda b: [P(b, 4), R(b, 4)]),
        ("maximum", torch.maximum, lambda b: [R(b, 4), R(b, 4)]),
        ("addcmul", lambda a, x, y: torch.addcmul(a, x, y, value=0.5),
         lambda b: [R(b, 4), R(b, 4), R(b, 4)]),
        ("addcdiv", lambda a, x, y: torch.addcdiv(a, x, y, value=0.5),
         lambda b: [R(b, 4), R(b, 4), P(b, 4)]),
    ],
    "unary": [
        ("neg", torch.neg, lambda b: [R(b, 4)]),
        ("exp", torch.exp, lambda b: [R(b, 4)]),
        ("log", torch.log, lambda b: [P(b, 4)]),
        ("sqrt", torch.sqrt, lambda b: [P(b, 4)]),
        ("rsqrt", torch.rsqrt, lambda b: [P(b, 4)]),
        ("abs", torch.abs, lambda b: [R(b, 4)]),
        ("sin", torch.sin, lambda b: [R(b, 4)]),
        ("cos", torch.cos, lambda b: [R(b, 4)]),
        ("reciprocal", torch.reciprocal, lambda b: [P(b, 4)]),
        ("clamp", lambda a: a.clamp(min=-0.5, max=0.5), lambda b: [R(b, 4)]),
        ("hardtanh", F.hardtanh, lambda b: [R(b, 4) * 2]),
    ],
    "activations": [
        ("sigmoid", torch.sigmoid, lambda b: [R(b, 4)]),
        ("sigmoid_backward", aten.sigmoid_backward, lambda b: [R(b, 4), torch.rand(b, 4)]),
        ("tanh", torch.tanh, lambda b: [R(b, 4)]),
        ("tanh_backward", aten.tanh_backward, lambda b: [R(b, 4), torch.rand(b, 4)]),
        ("relu", torch.relu, lambda b: [R(b, 4)]),
        ("threshold", lambda a: F.threshold(a, 0.1, 2.0), lambda b: [R(b, 4)]),
        ("threshold_backward", lambda g, x: aten.threshold_backward(g, x, 0),
         lambda b: [R(b, 4), R(b, 4)]),
        ("threshold_backward_t", lambda g, x: aten.threshold_backward(g, x, 0.5),
         lambda b: [R(b, 4), R(b, 4)]),
        ("silu", F.silu, lambda b: [R(b, 4)]),
        ("silu_fused", lambda a: a * torch.sigmoid(a), lambda b: [R(b, 4)]),
        ("silu_backward", aten.silu_backward, lambda b: [R(b, 4), R(b, 4)]),
        ("gelu", F.gelu, lambda b: [R(b, 4)]),
        ("gelu_tanh", lambda a: F.gelu(a, approximate="tanh"), lambda b: [R(b, 4)]),
        ("gelu_backward", aten.gelu_backward, lambda b: [R(b, 4), R(b, 4)]),
    ],
    "compare": [
        ("eq", lambda a, b: a == b, lambda b: [I(b, 4).float(), I(b, 4).float()]),
        ("eq_scalar", lambda a: a == 2, lambda b: [I(b, 4).float()]),
        ("lt", lambda a, b: a < b, lambda b: [R(b, 4), R(b, 4)]),
        ("lt_scalar", lambda a: a < 0.25, lambda b: [R(b, 4)]),
        ("gt", lambda a, b: a > b, lambda b: [R(b, 4), R(b, 4)]),
        ("gt_scalar", lambda a: a > 0.25, lambda b: [R(b, 4)]),
        ("where", lambda c, a, b: torch.where(c > 0, a, b), lambda b: [R(b, 4), R(b, 4), R(4)]),
        ("ne_scalar", lambda a: a != 0.25, lambda b: [R(b, 4)]),
        ("masked_fill", lambda a, m: a.masked_fill(m > 0, -1.5), lambda b: [R(b, 4), R(4)]),
        ("triu", lambda a: a.triu(1) * 2, lambda b: [R(b, 4)]),
    ],
    "reductions": [
        ("sum", lambda a: a.sum(), lambda b: [R(b, 4)]),
        ("sum_dim", lambda a: a.sum(1), lambda b: [R(b, 4, 3)]),
        ("sum_keepdim", lambda a: a.sum(0, keepdim=True), lambda b: [R(b, 4)]),
        ("sum_dtype", lambda a: a.sum(-1, dtype=torch.float64), lambda b: [R(b, 4)]),
        ("mean", lambda a: a.mean(), lambda b: [R(b, 4)]),
        ("mean_dim", lambda a: a.mean((0, 2), keepdim=True), lambda b: [R(b, 4, 3)]),
        ("mse_loss", F.mse_loss, lambda b: [R(b, 4), R(b, 4)]),
        ("mse_loss_sum", lambda a, t: F.mse_loss(a, t, reduction="sum"),
         lambda b: [R(b, 4), R(b, 4)]),
    ],
    "linalg": [
        ("mm", lambda a, w: a @ w, lambda b: [R(b, 5), R(5, 3)]),
        ("mm_bias", lambda a, w, c: a @ w + c, lambda b: [R(b, 5), R(5, 3), R(3)]),
        ("bmm", torch.bmm, lambda b: [R(b, 2, 5), R(b, 5, 3)]),
        ("addmm", torch.addmm, lambda b: [R(3), R(b, 5), R(5, 3)]),
        ("addmm_beta", lambda c, a, w: torch.addmm(c, a, w, beta=0.5),
         lambda b: [R(3), R(b, 5), R(5, 3)]),
        ("linear", F.linear, lambda b: [R(b, 5), R(3, 5), R(3)]),
    ],
    "softmax": [
        ("softmax", lambda a: a.softmax(1), lambda b: [R(b, 5)]),
        ("softmax_backward", lambda g, y: aten._softmax_backward_data(g, y, 1, torch.float32),
         lambda b: [R(b, 5), torch.rand(b, 5)]),
        ("log_softmax", lambda a: a.log_softmax(-1), lambda b: [R(b, 5)]),
        ("log_softmax_backward",
         lambda g, y: aten._log_softmax_backward_data(g, y, 1, torch.float32),
         lambda b: [R(b, 5), R(b, 5)]),
        ("nll_loss", lambda a, t: F.nll_loss(a.log_softmax(1), t), lambda b: [R(b, 5), I(b)]),
        ("nll_loss_backward",
         lambda g, a, t, w: aten.nll_loss_backward(g, a, t, None, 1, -100, w),
         lambda b: [torch.ones(()), R(b, 5), I(b), torch.tensor(float(b))]),
        ("constant", lambda a: a * torch.tensor([1.0, 2.0, 3.0, 4.0]), lambda b: [R(b, 4)]),
    ],
    "memory": [
        ("ones_like", torch.ones_like, lambda b: [R(b, 4)]),
        ("zeros_like", lambda a: torch.zeros_like(a) + a, lambda b: [R(b, 4)]),
        ("full_like", lambda a: torch.full_like(a, 3.5), lambda b: [R(b, 4)]),
        ("empty_fill", lambda a: torch.empty_like(a).fill_(2.0) * a, lambda b: [R(b, 4)]),
        ("full", lambda a: torch.full((2, 3), 1.5) + a.sum(), lambda b: [R(b, 4)]),
        ("clone", lambda a: a.clone() * 2, lambda b: [R(b, 4)]),
        ("to_copy", lambda a: a.double(), lambda b: [R(b, 4)]),
        ("embedding", F.embedding, lambda b: [I(b, 3), R(5, 4)]),
        ("embedding_backward", lambda g, i: aten.embedding_dense_backward(g, i, 5, -1, False),
         lambda b: [R(b, 3, 4), I(b, 3)]),
        ("embedding_sparse", lambda i, t: F.embedding(i, t, sparse=True), lambda b: [I(b), R(5, 4)]),
        ("layer_norm", lambda a, w, c: F.layer_norm(a, (4,), w, c), lambda b: [R(b, 4), R(4), R(4)]),
        ("layer_norm_backward",   # one result per case: the three gradients combined
         lambda g, a, w, c: _combined(*_layer_norm_backward(g, a, w, c, [True] * 3)),
         lambda b: [R(b, 4), R(b, 4), R(4), R(4)]),
        ("layer_norm_backward_input_only",
         lambda g, a, w, c: _layer_norm_backward(g, a, w, c, [True, False, False])[0],
         lambda b: [R(b, 4), R(b, 4), R(4), R(4)]),
        ("split", lambda a: _combined(*a.split(3, dim=1)), lambda b: [R(b, 8)]),
        ("cat", lambda a, c: torch.cat([a, c], 1) * 2, lambda b: [R(b, 4), R(b, 2)]),
        ("cat3", lambda a, c, d: torch.cat([a, c, d], -1) * 2,
         lambda b: [R(b, 4), R(b, 2), R(b, 1)]),
        ("cat4", lambda a: torch.cat([a, a, a, a]) * 2, lambda b: [R(b, 4)]),   # eager
        ("ones", lambda a: torch.ones(2, 4) + a.sum(), lambda b: [R(b, 4)]),
        ("ones_int", lambda a: torch.ones(4, dtype=torch.int32) * a, lambda b: [R(b, 4)]),
        ("arange", lambda a: torch.arange(4) * a, lambda b: [R(b, 4)]),
        ("arange_float_end", lambda a: torch.arange(4.0) + a, lambda b: [R(b, 4)]),
        ("batch_norm", lambda a: F.batch_norm(a, None, None, training=True), lambda b: [R(b, 4)]),
        ("conv2d", F.conv2d, lambda b: [R(b, 2, 5, 5), R(3, 2, 3, 3)]),
    ],
    "views": [
        ("detach", lambda a: a.detach() + 1, lambda b: [R(b, 4)]),
        ("alias", lambda a: aten.alias(a) * 2, lambda b: [R(b, 4)]),
        ("t", lambda a, w: a @ w.t(), lambda b: [R(b, 4), R(3, 4)]),
        ("t_1d", lambda a: aten.t(a[0]) * 2, lambda b: [R(b, 4)]),
        ("transpose", lambda a: a.transpose(0, 1) * 2, lambda b: [R(b, 4)]),
        ("permute", lambda a: a.permute(2, 0, 1) + 1, lambda b: [R(b, 4, 3)]),
        ("view", lambda a: a.view(-1, 2) * 2, lambda b: [R(b, 4)]),
        ("unsafe_view", lambda a: aten._unsafe_view(a * 1, [-1]), lambda b: [R(b, 4)]),
        ("reshape_alias", lambda a: aten._reshape_alias(a, [a.shape[0] * 2, 2], [2, 1]) * 2,
         lambda b: [R(b, 4)]),
        ("expand", lambda a, c: c.expand(a.shape[0], 4) + a, lambda b: [R(b, 4), R(1, 4)]),
        ("unsqueeze", lambda a: a.unsqueeze(-1) * 2, lambda b: [R(b, 4)]),
        ("squeeze", lambda a: a.squeeze(1) * 2, lambda b: [R(b, 1, 4)]),
        ("select", lambda a: a[:, 1] * 2, lambda b: [R(b, 4)]),
        ("slice", lambda a: a[:, 1:3] * 2, lambda b: [R(b, 4)]),
        ("slice_step", lambda a: a[:, ::2] * 2, lambda b: [R(b, 4)]),
    ],
}
def _combined(x, y, z):
    """Three results as one (a case has one output): x * 2 + y - z summed over its rows."""
    return x * 2 + y - z.sum(-1, keepdim=True)


def _layer_norm_backward(g, a, w, c, mask):
    _, mean, rstd = aten.native_layer_norm(a, [4], w, c, 1e-5)
    return aten.native_layer_norm_backward(g, a, [4], mean, rstd, w, c, mask)


ALL_CASES = [(family, *case) for family, cases in CASES.items() for case in cases]
VENDORS = ("sim", "ascend")


_RUN: dict = {}   # (vendor, case) -> (output, inputs): each case is converted once per run


def run_case(vendor: str, name: str, fn, make):
    if (vendor, name) not in _RUN:
        torch.manual_seed(0)
        inputs = make(B)
        compiled = dicp.compile(fn, backend=vendor, mode="reference")
        with torch.no_grad():
            _RUN[(vendor, name)] = (compiled(*inputs), inputs, compiled.last.applied)
    return _RUN[(vendor, name)]


def assert_close(got, want, name):
    got = got if isinstance(got, (tuple, list)) else (got,)
    want = want if isinstance(want, (tuple, list)) else (want,)
    assert len(got) == len(want), name
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, f"{name}: {g.dtype}{list(g.shape)} " \
                                                          f"vs {w.dtype}{list(w.shape)}"
        torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-5, msg=name)


@pytest.mark.parametrize("vendor", VENDORS)
@pytest.mark.parametrize("family,name,fn,make", ALL_CASES, ids=[c[1] for c in ALL_CASES])
def test_case_matches_eager_on_cpu(vendor, family, name, fn, make):
    got, inputs, _ = run_case(vendor, name, fn, make)
    assert_close(got, fn(*inputs), f"{vendor}:{name}")


# Entries no graph reaches on the installed torch, by name, with the reason.
UNREACHABLE = {
    # torch 2.x's make_fx emits _native_batch_norm_legit(.no_stats / _no_training) for
    # batch_norm; no table lists those, so they run eagerly, as `unsupported` makes
    # native_batch_norm run on 1.13.
    "native_batch_norm",
} if TORCH2 else set()


@pytest.mark.parametrize("vendor", VENDORS)
def test_every_table_entry_is_exercised(vendor):
    table = dicp.load_table(vendor)
    applied = set()
    for _family, name, fn, make in ALL_CASES:
        applied |= run_case(vendor, name, fn, make)[2]
    dead = [f"{table.source}:{c.line} {c.aten} ({c.kind})"
            for i, c in enumerate(table.conversions)
            if i not in applied and c.aten not in UNREACHABLE]
    assert not dead, "conversion entries no case reaches:\n  " + "\n  ".join(dead)


def test_table_counts_match_the_catalogue():
    for vendor in VENDORS:
        table = dicp.load_table(vendor)
        counts = table.counts()
        assert counts["total"] == counts["data"] + counts["custom"] == len(table.conversions)
        assert dict(table.module.COUNTS) == {k: counts[k] for k in
                                             ("map", "decomp", "custom", "unsupported")}
    assert "sim" in dicp.available_vendors() and "ascend" in dicp.available_vendors()


@pytest.fixture(scope="module")
def dicp_model():
    """What codegen validated: {vendor: VendorCatalogue} (the load phase of `make gen`)."""
    from codegen.pipeline import load_catalogue, load_dicp
    cat = load_catalogue(os.path.join(REPO, "specs", "ops.yaml"))
    return {v.vendor: v for v in load_dicp(cat)}


@pytest.mark.parametrize("vendor", VENDORS)
def test_generated_table_holds_the_records_codegen_validated(dicp_model, vendor):
    """The generated table, imported by the runtime, gives back the very records the
    generator built from specs/dicp/<vendor>.yaml: one record module on both sides
    (opweave/dicp/records.py), so a field one side lacks or renders differently fails here."""
    from codegen.dicp import records as codegen_records
    from opweave.dicp import records, table as runtime_table
    assert codegen_records.Conversion is records.Conversion is runtime_table.Conversion
    model, table = dicp_model[vendor], dicp.load_table(vendor)
    assert table.conversions == model.conversions
    assert all(type(c) is records.Conversion for c in table.conversions)
    assert (table.executable, table.data_format, table.fusions) == \
        (model.executable, model.data_format, model.fusions)
    assert list(table.ops) == [op.name for op in model.ops]
    for op in model.ops:
        cls = table.ops[op.name]
        got = tuple(getattr(cls, f) for f in ("inputs", "outputs", "attrs", "infer", "diopi",
                                              "view", "ref", "line"))
        assert got == (op.inputs, op.outputs, op.attrs, op.infer, op.diopi, op.view, op.ref,
                       op.line), op.name


def test_records_module_needs_neither_torch_nor_the_opweave_package():
    """codegen loads the shared records by path; `make gen` must not need torch or the build."""
    code = ("import sys; from codegen.dicp import records; "
            "assert 'torch' not in sys.modules and 'opweave' not in sys.modules, "
            "sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'opweave')); "
            "print(records.Conversion.__module__)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": REPO})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "opweave.dicp.records"


def test_ascend_format_hook_inserts_transdata_for_fractal_matmuls():
    compiled = dicp.compile(lambda a, w: a @ w, backend="ascend", mode="reference")
    a, w = R(32, 16), R(16, 48)
    with torch.no_grad():
        torch.testing.assert_close(compiled(a, w), a @ w)
    ops = [n.target.__name__ for n in compiled.last.infer.gm.graph.nodes
           if n.op == "call_function" and hasattr(n.target, "vendor")]
    assert ops == ["TransData", "TransData", "MatMul", "TransData"]
    compiled2 = dicp.compile(lambda a, w: a @ w, backend="ascend", mode="reference")
    with torch.no_grad():
        compiled2(R(3, 5), R(5, 7))
    assert [n.target.__name__ for n in compiled2.last.infer.gm.graph.nodes
            if n.op == "call_function"] == ["MatMul"]


def test_ascend_fuses_matmul_and_bias():
    compiled = dicp.compile(F.linear, backend="ascend", mode="reference")
    a, w, c = R(4, 5), R(3, 5), R(3)
    with torch.no_grad():
        torch.testing.assert_close(compiled(a, w, c), F.linear(a, w, c))
    ops = [n.target.__name__ for n in compiled.last.infer.gm.graph.nodes
           if n.op == "call_function"]
    assert "MatMulV2" in ops and "Add" not in ops and "MatMul" not in ops
    assert compiled.last.passes["opweave.dicp.fusions.matmul_add_to_biased_matmul"] == 1


def test_sim_fuses_linear_and_activation_with_a_cpu_reference():
    # the fused vendor op's CPU reference (mode="reference"): same rewrite, no device
    for act, fn in (("relu", lambda a, w, c: torch.relu(F.linear(a, w, c))),
                    ("gelu_tanh", lambda a, w, c: F.gelu(F.linear(a, w, c), approximate="tanh"))):
        compiled = dicp.compile(fn, backend="sim", mode="reference")
        a, w, c = R(4, 5), R(3, 5), R(3)
        with torch.no_grad():
            torch.testing.assert_close(compiled(a, w, c), fn(a, w, c))
        nodes = [n for n in compiled.last.infer.gm.graph.nodes if n.op == "call_function"]
        assert [n.target.__name__ for n in nodes] == ["Transpose", "AddmmAct"]
        assert nodes[-1].args[-1] == act
        assert compiled.last.passes["opweave.dicp.fusions.addmm_activation"] == 1


def test_unsupported_entries_run_eagerly_and_say_why():
    compiled = dicp.compile(F.conv2d, backend="sim", mode="reference")
    with torch.no_grad():
        compiled(R(1, 2, 5, 5), R(3, 2, 3, 3))
    (record,) = compiled.last.eager
    assert record.aten == "convolution" and "no sim kernel for convolutions" in record.reason
    assert "sim.yaml:" in record.reason


def test_strict_mode_refuses_unconverted_ops():
    compiled = dicp.compile(lambda a: torch.cumsum(a, 0), backend="sim", mode="reference",
                            strict=True)
    with pytest.raises(dicp.ConversionError, match="no conversion for aten::cumsum"):
        with torch.no_grad():
            compiled(R(3))
