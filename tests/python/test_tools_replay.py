"""opweave-replay: a captured MLP step re-run from disk — passes on a correct device, fails on
a faulty kernel (forward and backward), timed with the requested repetitions."""

import json
import os
import subprocess
import sys

import pytest

import opweave
from opweave.demo import mlp
from opweave.tools import OpCapture, replay

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def capture_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("capture")
    x, y = mlp.make_data(256, 20, 5, seed=0)
    with OpCapture(str(d), progress=False):
        mlp.train(mlp.make_model(20, 16, 5, seed=0), x, y, opweave.device(0), 1, 32, 0.02)
    return str(d)


def test_replay_of_a_correct_device_passes_and_is_timed(capture_dir, tmp_path, capsys):
    out = tmp_path / "r.json"
    rc = replay.main([capture_dir, "--repeat", "3", "--warmup", "1", "--quiet", "--json", str(out)])
    assert rc == 0
    results = json.loads(out.read_text())
    ops = [r["op"] for r in results]
    assert ops.count("torch.nn.functional.linear") == 3 and "torch.nn.functional.cross_entropy" in ops
    assert {r["status"] for r in results} == {"ok"}
    for r in results:
        assert r["timing"]["forward"]["n"] == 3
        assert r["vs_capture_max_abs"] == 0.0          # the device reproduces itself
    lin = [r for r in results if r["op"] == "torch.nn.functional.linear"]
    assert all(r["backward_status"] == "ok" and r["timing"]["backward"]["n"] == 3 for r in lin)
    # the optimizer's in-place updates replay forward only
    assert all(r["backward_status"] is None for r in results if r["op"] == "torch.Tensor.add_")
    table = capsys.readouterr().out
    assert "fwd us" in table and "torch.nn.functional.linear" in table


def test_selection_by_op_seq_and_unique(capture_dir, tmp_path):
    out = tmp_path / "r.json"
    assert replay.main([capture_dir, "--op", "relu", "--repeat", "0", "--quiet",
                        "--json", str(out)]) == 0
    assert [r["op"] for r in json.loads(out.read_text())] == ["torch.nn.functional.relu"] * 2
    assert replay.main([capture_dir, "--seq", "1,5", "--repeat", "0", "--quiet",
                        "--json", str(out)]) == 0
    assert [r["seq"] for r in json.loads(out.read_text())] == [1, 5]
    assert replay.main([capture_dir, "--op", "linear", "--unique", "--repeat", "0", "--quiet",
                        "--json", str(out)]) == 0
    assert len(json.loads(out.read_text())) == 3          # three layers, three shapes
    first = sorted(p for p in os.listdir(capture_dir) if p.endswith("linear.safetensors"))[0]
    assert replay.main([os.path.join(capture_dir, first), "--repeat", "0", "--quiet",
                        "--json", str(out)]) == 0
    assert replay.main([str(tmp_path / "missing"), "--quiet"]) == 2


def test_replay_on_a_faulty_kernel_fails_via_the_command(capture_dir, tmp_path):
    out = tmp_path / "r.json"
    env = dict(os.environ, OPWEAVE_SIM_FAULT="diopiAddmm,diopiMm")
    proc = subprocess.run([os.path.join(REPO, "runtime", "python", "bin", "opweave-replay"),
                           capture_dir, "--op", "linear,relu", "--repeat", "1", "--quiet",
                           "--json", str(out)], env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 1, proc.stderr[-2000:]
    results = json.loads(out.read_text())
    lin = [r for r in results if r["op"] == "torch.nn.functional.linear"]
    assert len(lin) == 3
    assert all(r["forward_status"] == "FAIL" and r["backward_status"] == "FAIL" for r in lin)
    assert all(r["status"] == "ok" for r in results if r["op"] == "torch.nn.functional.relu")
    # and the device no longer reproduces what the capture recorded
    assert all(r["vs_capture_max_abs"] > 1e-3 for r in lin)
    assert "FAIL #1 torch.nn.functional.linear" in proc.stdout


def test_listing_a_capture(capture_dir, capsys):
    from opweave.tools.__main__ import main
    assert main(["ls", capture_dir]) == 0
    out = capsys.readouterr().out
    assert "torch.nn.functional.linear" in out and "grad_out [0]" in out
    assert "18 calls of 5 ops, 6 output gradients" in out


def test_a_command_ends_with_its_verdict_after_atexit_handlers_and_flushed_output():
    # The op tools leave through exit_now (no C++ teardown, which aborted replays under load):
    # Python's atexit handlers still run, buffered output still arrives, the status is kept.
    code = ("import atexit, sys; atexit.register(lambda: print('report')); "
            "from opweave.tools.process_exit import exit_now; "
            "print('verdict', end=' '); sys.stderr.write('why'); exit_now(int(sys.argv[1]))")
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "runtime", "python"))
    for status in (0, 1, 3):
        proc = subprocess.run([sys.executable, "-c", code, str(status)], capture_output=True,
                              text=True, timeout=60, env=env)
        assert (proc.returncode, proc.stdout, proc.stderr) == (status, "verdict report\n", "why")
