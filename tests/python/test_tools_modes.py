"""Op tools: life cycle (nothing installed unless started), op selection, comparison metrics."""

import math

import pytest
import torch

from opweave import tools
from opweave.tools import OpAutoCompare, OpCapture, OpFallback, OpFilter, OpTimeMeasure, compare
from opweave.tools._base import _get_current_function_mode

ALL_TOOLS = [
    lambda tmp: OpCapture(str(tmp / "cap"), progress=False),
    lambda tmp: OpAutoCompare(str(tmp / "cmp"), verbose=False),
    lambda tmp: OpTimeMeasure(),
    lambda tmp: OpFallback(),
]


def no_mode_installed() -> bool:
    return _get_current_function_mode() is None and not torch._C._is_torch_function_mode_enabled()


def test_importing_the_tools_installs_nothing():
    assert tools.__all__ and no_mode_installed()


@pytest.mark.parametrize("make", ALL_TOOLS, ids=["capture", "autocompare", "time", "fallback"])
def test_start_and_stop_leave_the_mode_stack_empty(make, tmp_path, dev0):
    tool = make(tmp_path)
    assert no_mode_installed()
    tool.start()
    assert _get_current_function_mode() is tool and tool.active
    (torch.ones(2, device=dev0) * 2).cpu()
    tool.stop()
    assert no_mode_installed() and not tool.active
    tool.stop()                                # idempotent
    with tool:
        assert _get_current_function_mode() is tool
    assert no_mode_installed()


def test_a_stopped_tool_sees_no_op(dev0):
    t = OpTimeMeasure()
    with t:
        torch.ones(3, device=dev0).exp()
    n = sum(len(v) for v in t.times.values())
    assert n == 1
    for _ in range(5):
        torch.ones(3, device=dev0).exp()
    assert sum(len(v) for v in t.times.values()) == n


def test_tools_nest_and_must_stop_in_reverse_order(tmp_path, dev0):
    a, b = OpTimeMeasure(), OpAutoCompare(str(tmp_path / "c"), verbose=False)
    a.start()
    b.start()
    with pytest.raises(RuntimeError, match="reverse order"):
        a.stop()
    torch.ones(2, device=dev0).neg()
    b.stop()
    a.stop()
    assert no_mode_installed()
    # both saw the op: the last started handles it first, then passes it on
    assert ("torch.Tensor.neg", "forward") in a.times
    assert b.summary()["torch.Tensor.neg"]["forward"] == [1, 0]


def test_only_device_calls_are_ops(dev0):
    with OpTimeMeasure() as t:
        torch.ones(3).exp()                          # CPU only: not an op of the device
        torch.ones(3, device=dev0).exp()
        torch.ones(3, device=dev0).shape             # metadata: never an op
    assert [k for k in t.times] == [("torch.Tensor.exp", "forward")]
    assert len(t.times[("torch.Tensor.exp", "forward")]) == 1


def test_filter_names_suffixes_and_regexes():
    f = OpFilter("linear,torch.Tensor.add_,.*softmax", "log_softmax")
    assert f("torch.nn.functional.linear")
    assert f("torch.Tensor.add_")
    assert not f("torch.Tensor.add")
    assert f("torch.nn.functional.softmax")
    assert not f("torch.nn.functional.log_softmax")      # exclude wins
    assert not f("torch.mm")
    assert OpFilter(None, "mm")("torch.nn.functional.linear")
    assert not OpFilter(None, "mm")("torch.mm")
    assert OpFilter("functional.relu")("torch.nn.functional.relu")
    assert OpFilter("[unclosed")("x.[unclosed")          # a bad regex is a literal


def test_selection_from_the_environment(monkeypatch, dev0):
    monkeypatch.setenv("OPWEAVE_TOOLS_INCLUDE", "exp,neg")
    monkeypatch.setenv("OPWEAVE_TOOLS_TIME_EXCLUDE", "neg")
    t = OpTimeMeasure()
    with t:
        x = torch.ones(3, device=dev0)
        x.exp(), x.neg(), x.sin()
    assert sorted(k[0] for k in t.times) == ["torch.Tensor.exp"]
    # arguments win over the environment
    t2 = OpTimeMeasure(include="sin", exclude="")
    with t2:
        x.exp(), x.sin()
    assert sorted(k[0] for k in t2.times) == ["torch.Tensor.sin"]


def test_compare_metrics():
    tol = compare.DEFAULT_TOLERANCES
    a = torch.tensor([1.0, 2.0, 3.0])
    r = compare.compare(a, a.clone(), tol)
    assert r["ok"] and r["max_abs"] == 0 and r["cosine"] == pytest.approx(1.0)
    b = a.clone()
    b[1] = 2.5
    r = compare.compare(b, a, tol)
    assert not r["ok"] and r["max_abs"] == pytest.approx(0.5) and r["max_rel"] == pytest.approx(0.25)
    assert r["mismatched"] == 1 and "flat index 1" in r["why"]
    assert r["cosine"] == pytest.approx(float(torch.nn.functional.cosine_similarity(b, a, 0)), 1e-6)
    # NaN where the reference has NaN is equal; elsewhere it is infinitely wrong
    n = torch.tensor([float("nan"), 1.0])
    assert compare.compare(n, n.clone(), tol)["ok"]
    bad = compare.compare(torch.tensor([1.0, 1.0]), n, tol)
    assert not bad["ok"] and math.isinf(bad["max_abs"])
    # a float16 result against a float32 reference (upcast) uses the float16 tolerance
    h = torch.tensor([1.0, 2.0], dtype=torch.float16)
    r = compare.compare(h, torch.tensor([1.0004, 2.0]), tol)
    assert r["ok"] and r["atol"] == tol[torch.float16][0]
    assert not compare.compare(h, torch.tensor([1.01, 2.0]), tol)["ok"]
    # shapes and foreign dtypes never compare equal; integers are exact
    assert not compare.compare(a, a[:2], tol)["ok"]
    assert not compare.compare(a, a.double(), tol)["ok"]
    assert not compare.compare(torch.tensor([1, 2]), torch.tensor([1, 3]), tol)["ok"]
    t = compare.parse_tolerances("float32=1e-3:2e-3")
    assert t[torch.float32] == (1e-3, 2e-3) and t[torch.float16] == tol[torch.float16]
