"""torch.distributed on the device: the opweave c10d backend over the sim's collectives.

Each test starts real processes (tests/python/distributed/launch.py): the data crosses
processes through the sim's shared memory, or through Gloo on the host-staged path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from distributed.launch import PYTHON_DIR, describe, launch

import opweave

# Each test starts two or three rank processes: one worker runs them in turn, beside the other
# worker's tests, rather than two sets of ranks at once on a 2-core machine (hang detection
# is timed).
pytestmark = pytest.mark.xdist_group("distributed")


def _matrix(nprocs: int, **env) -> list[dict]:
    res = launch("matrix", nprocs, env=env)
    assert all(r["rc"] == 0 and r["result"] for r in res), describe(res)
    for rank, r in enumerate(res):
        assert r["result"]["failures"] == [], f"rank {rank}: " + "\n".join(r["result"]["failures"][:20])
        assert r["result"]["cases"] > 500
    return [r["result"] for r in res]


@pytest.mark.parametrize("nprocs", [2, 3])
def test_collectives_matrix(nprocs):
    """op x dtype (bool included) x size (empty, one, 2-D, non-contiguous, several rounds)."""
    results = _matrix(nprocs)
    assert {r["transport"] for r in results} == {"vendor"}
    print(f"{nprocs} ranks: cases per rank {[r['cases'] for r in results]}, {results[0]['seconds']} s")


def test_collectives_matrix_host_staged():
    results = _matrix(2, OPWEAVE_DIST_TRANSPORT="host", OPWEAVE_TEST_LARGE="0")
    assert {r["transport"] for r in results} == {"host"}


def test_vendor_without_collectives_stages_through_host():
    """aten_ref has no collective seam: device tensors go through Gloo, by default..."""
    res = launch("transport", 2, env={"OPWEAVE_VENDOR": "aten_ref"})
    assert all(r["rc"] == 0 for r in res), describe(res)
    assert res[0]["result"]["transport"] == "host" and res[0]["result"]["bad"] == []
    assert "has no collectives" in res[0]["result"]["reason"]


def test_vendor_without_collectives_when_vendor_transport_is_required():
    """...and with OPWEAVE_DIST_TRANSPORT=vendor a clear error instead (no hang)."""
    res = launch("transport", 2, env={"OPWEAVE_VENDOR": "aten_ref", "OPWEAVE_DIST_TRANSPORT": "vendor"},
                 timeout=120)
    for r in res:
        assert r["rc"] != 0
        assert "OPWEAVE_DIST_TRANSPORT=vendor, but vendor 'aten_ref' has no collectives" in r["err"]


@pytest.mark.parametrize("kind, expect", [
    ("dead", "rank 1 (pid"),
    ("hang", "timed out after 8000 ms waiting for rank(s) 1"),
    ("size", "arguments differ between ranks"),
    ("dtype", "int64 elements"),
    ("p2p", "expected 12 float32 elements, rank 0 sent message #1 of 10 float32 elements"),
])
def test_faults_fail_with_a_clear_error(kind, expect):
    res = launch("faults", 2, args=(kind,), timeout=90)
    survivors = [0] if kind in ("dead", "hang") else [0, 1]
    for rank in survivors:
        result = res[rank]["result"]
        assert result and result["error"], describe(res)
        assert expect in result["error"], result["error"]
        assert f"on rank {rank} of 2" in result["error"]
        assert result["seconds"] < 8 + 5  # within the configured timeout (8 s) and a margin
    if kind in ("size", "dtype"):  # both ranks are named, from each side
        assert "rank 1 has" in res[0]["result"]["error"] and "rank 0 has" in res[1]["result"]["error"]


def test_ddp_torchrun_matches_single_process(tmp_path):
    """torchrun (through opweave.distributed.run), 2 ranks on their own sim devices, DDP over
    the opweave backend: the MLP's and the tiny GPT's losses equal one process on the whole
    global batch."""
    out = tmp_path / "losses.json"
    nproc = "opweave" if opweave.device_module.TORCH2 else "2"
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR), OMP_NUM_THREADS="1")
    cmd = [sys.executable, "-m", "opweave.distributed.run", "--nproc_per_node", nproc,
           "--master_port", str(_port()), "-m", "opweave.demo.ddp",
           "--steps", "6", "--json", str(out)]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-6000:]
    data = json.loads(out.read_text())
    assert data["world"] == 2 and data["transport"] == "vendor"
    for name in ("mlp", "gpt"):
        assert data[name]["max_rel"] <= 1e-5, data[name]
        assert len(data[name]["ddp"]) == 6


def _port() -> int:
    from distributed.launch import free_port
    return free_port()


def test_allreduce_bench_quick_mode():
    """bench/allreduce.py --quick produces its figures (values are not judged here)."""
    p = subprocess.run([sys.executable, str(PYTHON_DIR.parents[1] / "bench" / "allreduce.py"), "--quick"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    lines = [line for line in p.stdout.splitlines() if line.startswith("allreduce.")]
    assert len(lines) == 2 and all("device" in line and "gloo_cpu" in line for line in lines), p.stdout


def _netns_or_skip(tag: str):
    """Two network namespaces joined by a veth pair (10.77.0.1 <-> 10.77.0.2), or a skip that
    says why they cannot be made here."""
    import shutil

    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("two-host check needs root and iproute2 (ip netns)")
    a, b = f"owa{tag}", f"owb{tag}"
    script = f"""set -e
ip netns add {a}; ip netns add {b}
ip link add veth{tag}a type veth peer name veth{tag}b
ip link set veth{tag}a netns {a}; ip link set veth{tag}b netns {b}
ip -n {a} addr add 10.77.0.1/24 dev veth{tag}a; ip -n {b} addr add 10.77.0.2/24 dev veth{tag}b
for n in {a} {b}; do ip -n $n link set lo up; done
ip -n {a} link set veth{tag}a up; ip -n {b} link set veth{tag}b up
"""
    p = subprocess.run(["sh", "-c", script], capture_output=True, text=True)
    if p.returncode != 0:
        subprocess.run(["sh", "-c", f"ip netns del {a}; ip netns del {b}"], capture_output=True)
        pytest.skip(f"cannot create network namespaces here: {p.stderr.strip()[-300:]}")
    return (a, f"veth{tag}a", "10.77.0.1"), (b, f"veth{tag}b", "10.77.0.2")


def test_ddp_across_two_network_namespaces(tmp_path):
    """Two "hosts": each rank in its own network namespace, rendezvous over a TCPStore on the
    first namespace's veth address. The sim's collectives reach one host only, so device
    tensors take the host-staged path over Gloo, on the veth pair; losses still match one
    process."""
    tag = str(os.getpid() % 100000)
    hosts = _netns_or_skip(tag)
    try:
        port, procs = _port(), []
        for node, (ns, veth, _addr) in enumerate(hosts):
            env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR), OMP_NUM_THREADS="1",
                       GLOO_SOCKET_IFNAME=veth)
            cmd = ["ip", "netns", "exec", ns, sys.executable, "-m", "opweave.distributed.run",
                   "--nnodes", "2", "--node_rank", str(node), "--nproc_per_node", "1",
                   "--master_addr", hosts[0][2], "--master_port", str(port),
                   "-m", "opweave.demo.ddp", "--steps", "4", "--json", str(tmp_path / f"n{node}.json")]
            procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True))
        outs = [p.communicate(timeout=600) for p in procs]
        assert all(p.returncode == 0 for p in procs), "\n".join(o[0][-2000:] + o[1][-4000:] for o in outs)
        data = json.loads((tmp_path / "n0.json").read_text())
        assert data["world"] == 2 and data["transport"] == "host"
        for name in ("mlp", "gpt"):
            assert data[name]["max_rel"] <= 1e-5, data[name]
        print(outs[0][0][-1500:])
    finally:
        subprocess.run(["sh", "-c", f"ip netns del {hosts[0][0]}; ip netns del {hosts[1][0]}"],
                       capture_output=True)
