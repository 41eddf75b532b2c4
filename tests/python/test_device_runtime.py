"""Device basics: devices, factories, the current device, streams/events, memory statistics,
the vendor report, generator seeding."""

import torch

import opweave

from opweave.device_module import TORCH2


def test_two_sim_devices_and_report():
    assert opweave.device_count() == 2
    r = opweave.report()
    assert r["vendor"] == "sim" and r["load_error"] == ""
    assert r["seam_version"] == 1 and r["device_count"] == 2
    assert "memcpyPeerAsync" in r["capabilities"]["present"]
    assert "streamBatch" in r["capabilities"]["present"]   # graph mode submits graphs in one go
    d = r["diopi"]
    assert d["total"] == len(d["resolved"]) + len(d["missing"]) > 0
    assert set(d["resolved"]).isdisjoint(d["missing"])


def test_print_report_lists_vendor(capsys):
    opweave.print_report()
    out = capsys.readouterr().out
    assert "opweave vendor 'sim'" in out and "DIOPI functions" in out


def test_device_type_name_depends_on_the_torch_version():
    # torch 2.x: renamed to the vendor's device name (sim declares none: "opweave");
    # torch 1.13 cannot rename PrivateUse1.
    expected = "opweave" if TORCH2 else "privateuseone"
    assert opweave.DEVICE == expected
    assert opweave.device(1) == torch.device(f"{expected}:1")


def test_factories_place_tensors_on_the_requested_device(dev0, dev1):
    a = torch.empty(3, 4, device=dev0)
    b = torch.zeros(2, dtype=torch.int64, device=dev1)
    assert a.device == dev0 and a.shape == (3, 4)
    assert b.device == dev1 and b.cpu().tolist() == [0, 0]
    s = torch.empty_strided((2, 3), (1, 2), device=dev1)
    assert s.stride() == (1, 2) and s.device == dev1


def test_unindexed_device_means_the_current_device(dev1):
    assert opweave.current_device() == 0
    opweave.set_device(1)
    try:
        assert opweave.current_device() == 1
        assert torch.empty(2, device=opweave.DEVICE).device == dev1
    finally:
        opweave.set_device(0)
    assert torch.empty(2, device=opweave.DEVICE).device.index == 0


def test_memory_stats_track_tensors_and_empty_cache(dev1):
    opweave.synchronize(1)
    opweave.empty_cache()
    base = opweave.memory_stats(dev1)
    opweave.reset_peak_memory_stats(1)
    t = torch.empty(1 << 18, device=dev1)  # 1 MiB
    s = opweave.memory_stats(1)
    assert s["allocated"] == base["allocated"] + (1 << 20)
    assert s["reserved"] >= s["allocated"] and s["peak"] >= s["allocated"]
    del t
    s = opweave.memory_stats(1)
    assert s["allocated"] == base["allocated"]
    assert s["peak"] >= base["allocated"] + (1 << 20)
    assert s["reserved"] >= base["reserved"] + (1 << 20)  # cached for reuse
    u = torch.empty(1 << 18, device=dev1)
    assert opweave.memory_stats(1)["cache_hits"] > s["cache_hits"]
    del u
    opweave.empty_cache()
    s = opweave.memory_stats(1)
    assert s["reserved"] == s["allocated"] and s["cached_blocks"] == 0


def test_streams_are_printable_and_switchable(dev0):
    cur = opweave.current_stream()
    assert cur.id == 0 and cur.device_index == 0
    assert f"{opweave.DEVICE}:0" in repr(cur) and "id=0" in repr(cur)
    s = opweave.Stream(dev0)
    assert s != cur
    with opweave.stream(s):
        assert opweave.current_stream() == s
        x = torch.arange(10.0).to(dev0)  # queued on s
        assert x.cpu().sum().item() == 45.0
    assert opweave.current_stream() == cur
    s.synchronize()
    assert s.query()


def test_events_order_and_time_streams(dev0):
    a, b = opweave.Stream(dev0), opweave.Stream(dev0)
    start, end = opweave.Event(), opweave.Event()
    with opweave.stream(a):
        start.record()
        x = torch.ones(1000).to(dev0)
        end.record()
    end.wait(b)
    end.synchronize()
    assert end.query() and start.elapsed_time(end) >= 0.0
    with opweave.stream(b):
        assert x.cpu().sum().item() == 1000.0


def test_manual_seed_sets_every_device_generator():
    opweave.manual_seed(42)
    assert opweave.generator_state(0) == {"seed": 42, "offset": 0}
    assert opweave.generator_state(1)["seed"] == 42


def test_printing_a_device_tensor(dev1, all_on_cpu):
    text = repr(torch.tensor([[1.5, -2.0], [3.0, 4.0]]).to(dev1))
    assert f"device='{opweave.DEVICE}:1'" in text and "1.5000" in text
