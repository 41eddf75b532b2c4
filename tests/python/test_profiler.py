"""opweave.profiler: device kernel times from stream events, device memory in torch's
profiler, the merged Chrome trace, and nothing recorded outside a session."""

import json
import subprocess
import sys

import pytest
import torch

import opweave
import opweave.profiler
from opweave.device_module import TORCH2
from opweave.profiler import trace as ptrace


def _host_ranges(prof, prefix="diopi"):
    return [h for h in prof._host if h.name.startswith(prefix)]


def _training_step(dev):
    torch.manual_seed(0)
    w = torch.randn(16, 8, device=dev, requires_grad=True)
    x = torch.randn(32, 16, device=dev)
    opweave.synchronize()
    return w, x


def test_kernels_of_a_forward_have_device_times_after_their_launch(dev0):
    a = torch.randn(64, 32, device=dev0)
    b = torch.randn(32, 48, device=dev0)
    opweave.synchronize()
    with opweave.profiler.profile() as prof:
        s = torch.mm(a, b).relu().sum()
    # exactly the kernels the three ops launch, in order, on the default stream of opweave:0
    assert [k.kernel for k in prof.kernels] == ["diopiMm", "diopiRelu", "diopiSum"]
    assert [k.aten.split(".")[0] for k in prof.kernels] == ["aten::mm", "aten::relu", "aten::sum"]
    for k in prof.kernels:
        assert (k.device, k.stream) == (0, 0)
        assert k.dur_ns > 0
        assert k.start_ns >= k.launch_ns  # device start, on the host clock, after the launch
        assert k.host_op == k.kernel and not k.fallback
    # one kernel runs after the other on one stream
    for k1, k2 in zip(prof.kernels, prof.kernels[1:]):
        assert k2.start_ns >= k1.start_ns + k1.dur_ns - prof.devices[0].align_window_ns
    assert s.item() > 0


def test_device_time_is_device_time_not_host_time(run_python):
    # The sim delays every kernel by OPWEAVE_SIM_DELAY_US on its stream worker: the host
    # returns from the launch at once, the device takes the delay. The delay is long and the
    # host's bound half of it, so a host descheduled for a few milliseconds on a busy machine
    # (the suite runs on every core) does not read as a host that waited.
    delay_ns = 20_000_000
    r = run_python("""
        import torch, opweave, opweave.profiler
        a = torch.randn(8, 8, device=opweave.device(0)); a.exp(); opweave.synchronize()
        with opweave.profiler.profile() as prof:
            for _ in range(3):
                a = a.exp()
            b = a.mul(1.5)
            c = a.mul(torch.tensor(1.5))
        print([(k.kernel, k.dur_ns, k.self_ns, k.nested_in, k.launch_end_ns - k.launch_ns)
               for k in prof.kernels])
        """, OPWEAVE_SIM_DELAY_US=str(delay_ns // 1000))
    assert r.returncode == 0, r.stderr
    rows = eval(r.stdout.strip().splitlines()[-1])
    # a.mul(1.5) passes the Python number by value: the launch is named after the kernel that
    # ran (diopiMulScalar), not the op's tensor function
    assert [row[0] for row in rows] == \
        ["diopiExp"] * 3 + ["diopiMulScalar", "diopiMul", "diopiFill"], rows
    for _, device_ns, self_ns, _, host_ns in rows:
        assert device_ns >= delay_ns and self_ns >= delay_ns, rows
        assert host_ns < delay_ns // 2, rows  # the host did not wait for the device
    # a.mul(torch.tensor(1.5)) first stages the CPU 0-dim tensor on the stream (diopiFill): its
    # launch sits inside diopiMul's, which counts it in its interval but not in its self time
    mul, fill = rows[4], rows[5]
    assert fill[3] == 4 and mul[1] >= 2 * delay_ns and mul[2] <= mul[1] - fill[1]


def test_training_step_launches_pair_with_their_host_ranges(dev0):
    w, x = _training_step(dev0)
    with opweave.profiler.profile() as prof:
        loss = torch.nn.functional.gelu(x @ w).pow(2).mean()
        loss.backward()
        with torch.no_grad():
            w.sub_(0.1 * w.grad)
    wrapper = [k for k in prof.kernels if not k.is_memcpy]
    ranges = _host_ranges(prof)
    # each instrumented call opened one host range named after its DIOPI function and
    # launched one kernel: two independent counts (torch's host events, our stream events)
    assert len(wrapper) == len(ranges) > 8
    assert sorted(k.range_name for k in wrapper) == sorted(h.name for h in ranges)
    assert {"diopiMm", "diopiGelu", "diopiGeluBackward", "diopiSubInp"} <= {k.kernel for k in wrapper}
    assert all(k.host_op == k.range_name for k in prof.kernels)
    # 0.1 * w.grad passed the number by value: diopiMul's host range ran diopiMulScalar
    assert any(k.host_op == "diopiMul" and k.kernel == "diopiMulScalar" for k in wrapper)
    # backward ran on the autograd engine's device thread: its launches carry that thread
    assert len({k.rf_tid for k in prof.kernels}) >= 2
    assert all(k.dur_ns > 0 and k.start_ns >= k.launch_ns for k in prof.kernels)
    table = prof.device_table()
    assert "diopiGeluBackward" in table and "Device total" in table


def test_kernels_on_another_stream_are_on_its_track(dev0, tmp_path):
    a = torch.randn(32, 32, device=dev0)
    opweave.synchronize()
    s = opweave.Stream(0)
    assert s.id != 0
    with opweave.profiler.profile() as prof:
        with opweave.stream(s):
            b = a.exp()
        s.synchronize()
        c = a.neg()
    assert [(k.kernel, k.stream) for k in prof.kernels] == [("diopiExp", s.id), ("diopiNeg", 0)]
    path = tmp_path / "t.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    pid = trace["opweave"]["device_pids"]["0"]
    tracks = {(e["name"], e["tid"]) for e in trace["traceEvents"]
              if e.get("cat") == "kernel" and e["pid"] == pid}
    assert tracks == {("diopiExp", s.id), ("diopiNeg", 0)}
    names = {e["tid"]: e["args"]["name"] for e in trace["traceEvents"]
             if e.get("ph") == "M" and e["name"] == "thread_name" and e["pid"] == pid}
    assert names == {0: "stream 0 (default)", s.id: f"stream {s.id}"}
    del b, c


def test_chrome_trace_is_valid_and_links_host_ops_to_device_kernels(dev0, tmp_path):
    w, x = _training_step(dev0)
    with opweave.profiler.profile(profile_memory=True) as prof:
        (x @ w).sum().backward()
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())  # valid JSON
    events = trace["traceEvents"]
    assert all("ph" in e and "pid" in e for e in events)
    for e in events:
        if e["ph"] == "X":
            assert isinstance(e["ts"], (int, float)) and e["dur"] >= 0 and "tid" in e
    pid = trace["opweave"]["device_pids"]["0"]
    kernels = [e for e in events if e["ph"] == "X" and e["pid"] == pid]
    assert len(kernels) == len(prof.kernels) > 0
    host = [e for e in events if e["ph"] == "X" and e["pid"] != pid]
    assert {"diopiMm", "diopiSum"} <= {e["name"] for e in host}  # host and device side by side
    base = ptrace.FLOW_ID_BASE
    starts = {e["id"] - base: e for e in events if e["ph"] == "s" and e["name"] == "launch"}
    finishes = {e["id"] - base: e for e in events if e["ph"] == "f" and e["name"] == "launch"}
    assert set(starts) == set(finishes) == {k["args"]["correlation"] for k in kernels}
    for k in kernels:
        s, f = starts[k["args"]["correlation"]], finishes[k["args"]["correlation"]]
        assert (f["pid"], f["tid"], f["ts"]) == (pid, k["tid"], k["ts"])
        # the arrow starts inside a host range of the kernel's name on the launching thread
        assert any(h["name"] == k["name"] and h["tid"] == s["tid"] and h["pid"] == s["pid"]
                   and h["ts"] <= s["ts"] <= h["ts"] + h["dur"] for h in host), k
    counters = [e for e in events if e["ph"] == "C" and e["pid"] == pid]
    assert counters and all(e["args"]["bytes"] >= 0 for e in counters)
    names = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    assert f"{opweave.DEVICE}:0 (device)" in names


def test_memory_events_with_profile_memory(dev0):
    opweave.synchronize()
    before = opweave.memory_allocated(0)
    with opweave.profiler.profile(profile_memory=True) as prof:
        big = torch.empty(1 << 20, device=dev0)  # 4 MiB, a size class of its own
        small = torch.ones(100, device=dev0)
        del big
    after = opweave.memory_allocated(0)
    mem = [m for m in prof.memory if m.device == 0]
    assert [m.bytes for m in mem if abs(m.bytes) == 4 << 20] == [4 << 20, -(4 << 20)]
    # every change reported: the profiled sum is what the allocator counts
    assert sum(m.bytes for m in mem) == after - before == 512  # ones(100): one 512-byte block
    assert mem[-1].allocated == after
    assert max(m.allocated for m in mem) >= before + (4 << 20)
    assert "memory: 2 allocations" in prof.device_table()
    del small


def _plain_profile(dev, **kwargs):
    with torch.profiler.profile(**kwargs) as prof:
        t = torch.empty(1 << 18, device=dev)
        del t
    host, mem = ptrace.host_and_memory_events(prof.profiler.kineto_results)
    return [m.bytes for m in mem if m.device == 0], {h.name for h in host}


def test_plain_torch_profiler_sees_device_memory_under_the_profiler_switch(dev0):
    # off (the default), allocations do not even look at the profiler's state
    mem, names = _plain_profile(dev0, profile_memory=True)
    assert mem == [] and "aten::empty" in names
    opweave.instrument.set_profile_names(True)
    try:
        mem, names = _plain_profile(dev0, profile_memory=True)
        assert mem == [1 << 20, -(1 << 20)]
        assert _plain_profile(dev0)[0] == []  # without profile_memory: none
    finally:
        opweave.instrument.set_profile_names(False)
    assert _plain_profile(dev0, profile_memory=True)[0] == []


def test_nothing_is_recorded_outside_a_session(dev0):
    a = torch.randn(16, device=dev0)
    with opweave.profiler.profile() as prof:
        pass
    assert prof.kernels == [] and not torch.ops.opweave.device_timing_running()
    b = a.exp().sum()  # between sessions
    with opweave.profiler.profile() as prof:
        opweave.synchronize()
    assert prof.kernels == [], prof.kernels
    # the session's per-op profiler flag is cleared again: torch's profiler sees no DIOPI ranges
    with torch.profiler.profile() as plain:
        c = a.neg()
    assert not [e for e in plain.profiler.kineto_results.events() if e.name().startswith("diopi")]
    assert "aten::neg" in {e.name() for e in plain.profiler.kineto_results.events()}
    del b, c


def test_sessions_do_not_nest():
    with opweave.profiler.profile():
        with pytest.raises(RuntimeError, match="already running"):
            with opweave.profiler.profile():
                pass
    assert not torch.ops.opweave.device_timing_running()


@pytest.mark.skipif(not TORCH2, reason="torch 1.13 has no PrivateUse1 profiler stubs (only CUDA's)")
def test_torch2_privateuse1_stubs_time_ops_on_the_device(dev0):
    a = torch.randn(64, 64, device=dev0)
    opweave.synchronize()
    with torch.autograd.profiler.profile(use_device=opweave.DEVICE) as prof:
        b = a.mm(a)
    assert prof.profiler_kind == torch.autograd.profiler.ProfilerState.KINETO_PRIVATEUSE1_FALLBACK
    mm = [e for e in prof.kineto_results.events() if e.name() == "aten::mm"]
    assert mm and all(e.privateuse1_elapsed_us() > 0 for e in mm)
    del b


@pytest.mark.skipif(not TORCH2, reason="torch 1.13's tables call any kernel time CUDA time: "
                    "there prof.device_table() shows device times")
def test_torch2_tables_show_device_time_and_memory(dev0):
    a = torch.randn(64, 64, device=dev0)
    opweave.synchronize()
    with opweave.profiler.profile(profile_memory=True) as prof:
        b = a.mm(a).relu()
    rows = {e.key: e for e in prof.key_averages()}
    mm = [k for k in prof.kernels if k.kernel == "diopiMm"][0]
    assert rows["diopiMm"].self_device_time_total == pytest.approx(mm.self_ns / 1000.0)
    assert rows["aten::mm"].device_time_total >= rows["diopiMm"].self_device_time_total > 0
    table = prof.key_averages().table(sort_by="self_device_time_total")
    name = opweave.DEVICE.upper()
    assert f"Self {name}" in table and f"{name} Mem" in table
    del b


def test_demo_profiles_one_gpt_step(tmp_path):
    path = tmp_path / "gpt.json"
    r = subprocess.run([sys.executable, "-m", "opweave.profiler.demo", "--trace", str(path),
                        "--warmup", "1", "--rows", "5"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "diopiAddmm" in r.stdout and "Device total" in r.stdout and "memory:" in r.stdout
    trace = json.loads(path.read_text())
    assert trace["opweave"]["kernels"] > 100
