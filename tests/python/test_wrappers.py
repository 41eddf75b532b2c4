"""Generated wrappers: ops run natively on the sim device, match CPU, and the switches
(forced fallback, dump) reroute or record calls without changing results."""

import json

import pytest
import torch

import opweave
from opweave import instrument


@pytest.fixture(autouse=True)
def clean_stats():
    opweave.fallback_stats(reset=True)
    yield
    instrument.set_fallback_ops(None)
    instrument.set_dump(0)


def on(dev, *ts):
    return [t.to(dev) for t in ts]


def assert_native_close(dev_result, cpu_result, atol=1e-5, rtol=1e-5):
    torch.testing.assert_close(dev_result.cpu(), cpu_result, atol=atol, rtol=rtol)
    assert opweave.fallback_stats() == {}, "an op fell back to CPU"


@pytest.mark.parametrize("op", [torch.add, torch.sub, torch.mul, torch.div, torch.maximum])
def test_binary_ops_broadcast_and_match_cpu(dev0, op):
    a, b = torch.randn(4, 1, 5), torch.randn(3, 1)
    da, db = on(dev0, a, b)
    assert_native_close(op(da, db), op(a, b))


def test_non_contiguous_inputs_match_cpu(dev0):
    a = torch.randn(6, 8)
    da = a.to(dev0)
    assert_native_close(da.t() * 2.0 + da.t().exp(), a.t() * 2.0 + a.t().exp())
    assert_native_close(da[:, ::2].relu(), a[:, ::2].relu())


def test_python_numbers_are_staged_not_fallen_back(dev0):
    a = torch.randn(5)
    da = a.to(dev0)
    da.mul_(0.5).add_(1)
    assert_native_close(da, a * 0.5 + 1)


def test_out_variant_resizes_out_in_place(dev0):
    a, b = torch.randn(3, 4), torch.randn(4, 2)
    da, db = on(dev0, a, b)
    out = torch.empty(0, device=dev0)
    storage_holder = out
    torch.mm(da, db, out=out)
    assert out is storage_holder and out.shape == (3, 2)
    assert_native_close(out, a @ b, atol=1e-4, rtol=1e-4)


def test_reductions_softmax_and_loss_match_cpu(dev0):
    x, t = torch.randn(8, 5), torch.randint(0, 5, (8,))
    dx, dt = on(dev0, x, t)
    assert_native_close(dx.sum(dim=1, keepdim=True), x.sum(dim=1, keepdim=True))
    assert_native_close(dx.mean(dim=0), x.mean(dim=0))
    assert_native_close(torch.log_softmax(dx, 1), torch.log_softmax(x, 1))
    assert_native_close(torch.nn.functional.cross_entropy(dx, dt),
                        torch.nn.functional.cross_entropy(x, t))


def test_mlp_training_matches_cpu_with_no_fallback():
    from opweave.demo import mlp
    x, y = mlp.make_data(512, 20, 5, seed=1)
    model = mlp.make_model(20, 32, 5, seed=1)
    import copy
    dev_losses = mlp.train(copy.deepcopy(model), x, y, opweave.device(0), 20, 64, 0.02)
    cpu_losses = mlp.train(copy.deepcopy(model), x, y, "cpu", 20, 64, 0.02)
    for a, b in zip(dev_losses, cpu_losses):
        assert abs(a - b) <= 1e-5 * abs(b)
    assert opweave.fallback_stats() == {}


def test_forced_fallback_regex_routes_matching_ops_to_cpu(dev0):
    a, b = torch.randn(3), torch.randn(3)
    da, db = on(dev0, a, b)
    instrument.set_fallback_ops(r"aten::add\.Tensor")
    torch.testing.assert_close(torch.add(da, db).cpu(), a + b)
    torch.testing.assert_close(torch.mul(da, db).cpu(), a * b)
    stats = opweave.fallback_stats()
    assert list(stats) == ["aten::add.Tensor"] and stats["aten::add.Tensor"] == 1
    instrument.set_fallback_ops(None)
    torch.add(da, db)
    assert opweave.fallback_stats()["aten::add.Tensor"] == 1  # back on the device


def test_bad_fallback_regex_is_a_python_error():
    with pytest.raises(RuntimeError, match="invalid fallback regex"):
        instrument.set_fallback_ops("aten::(add")


def test_op_table_lists_native_ops():
    table = instrument.op_table()
    by_name = {row["aten"]: row for row in table}
    assert by_name["aten::add.out"]["diopi"] == "diopiAdd"
    assert by_name["aten::add.out"]["native"] is True
    assert len(table) >= 100


def test_kernel_errors_raise_runtime_error_naming_the_op(dev0):
    a, b = torch.randn(2, 3, device=dev0), torch.randn(4, 5, device=dev0)
    with pytest.raises(RuntimeError, match="mm"):
        torch.mm(a, b)


def test_inplace_broadcast_mismatch_raises(dev0):
    a, b = torch.randn(3, device=dev0), torch.randn(2, 3, device=dev0)
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        a.add_(b)


def test_mixed_devices_raise_runtime_error(dev0, dev1):
    a, b = torch.randn(3, device=dev0), torch.randn(3, device=dev1)
    with pytest.raises(RuntimeError, match="expected all tensors to be on"):
        torch.add(a, b)


def test_dump_level_2_writes_json_lines(run_python, tmp_path):
    path = tmp_path / "dump.jsonl"
    proc = run_python("""
        import torch, opweave
        a = torch.ones(2, 3, device=opweave.DEVICE)
        (a + a).cpu()
    """, OPWEAVE_DUMP_LEVEL="2", OPWEAVE_DUMP_OPS=r"aten::add", OPWEAVE_DUMP_FILE=str(path))
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records and records[0]["op"] == "aten::add.Tensor"
    assert records[0]["diopi"] == "diopiAdd"
    assert records[0]["args"][0]["shape"] == [2, 3]


def test_dump_switch_at_run_time(dev0, tmp_path, capfd):
    instrument.set_dump(1, r"aten::relu")
    torch.relu(torch.ones(2, device=dev0))
    instrument.set_dump(0)
    torch.relu(torch.ones(2, device=dev0))
    lines = [l for l in capfd.readouterr().err.splitlines() if '"op"' in l]
    assert len(lines) == 1 and json.loads(lines[0]) == {"op": "aten::relu", "diopi": "diopiRelu"}
