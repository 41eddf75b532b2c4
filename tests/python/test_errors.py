"""Failures raise a Python RuntimeError naming the op and the reason; the process survives."""

import pytest
import torch

import opweave

D = opweave.DEVICE  # the device type in messages: "opweave" on torch 2.x, "privateuseone" on 1.13


def test_tensors_on_different_devices(dev0, dev1):
    a, b = torch.ones(3, device=dev0), torch.ones(3, device=dev1)
    # torch.histogram with bin edges has no device kernel: the CPU fallback checks the devices.
    with pytest.raises(RuntimeError, match=rf"aten::histogram.*same device.*{D}:0.*{D}:1"):
        torch.histogram(a, b)
    with pytest.raises(RuntimeError, match=r"aten::histogram.*same device.*cpu"):
        torch.histogram(a, torch.ones(3))
    # add is routed to DIOPI: the generated wrapper checks.
    with pytest.raises(RuntimeError, match=rf"aten::add.*{D}:1"):
        a + b
    assert torch.equal((a * 2).cpu(), torch.full((3,), 2.0))  # still usable


def test_device_mismatch_in_a_forced_fallback(dev0, dev1, all_on_cpu):
    with pytest.raises(RuntimeError, match=rf"aten::mm.*{D}:0.*{D}:1"):
        torch.mm(torch.ones(2, 2, device=dev0), torch.ones(2, 2, device=dev1))


def test_device_index_out_of_range():
    with pytest.raises(RuntimeError, match=r"aten::empty.memory_format: device index 5 is out of range"):
        torch.empty(2, device=f"{opweave.DEVICE}:5")
    with pytest.raises(RuntimeError, match=r"aten::empty_strided: device index 9 is out of range"):
        torch.ones(2).to(f"{opweave.DEVICE}:9")
    with pytest.raises(RuntimeError, match="set_device: device index 3 is out of range"):
        opweave.set_device(3)
    assert opweave.current_device() == 0


def test_allocation_failure_is_an_error(dev0):
    with pytest.raises(RuntimeError, match=rf"out of memory on {D}:0.*aten::empty"):
        torch.empty(1 << 40, device=dev0)  # 4 TiB
    assert opweave.memory_stats(0)["num_ooms"] >= 1
    assert torch.ones(4, device=dev0).cpu().sum().item() == 4.0


def test_allocation_beyond_sim_capacity(run_python):
    r = run_python("""
        import torch, opweave
        x = torch.empty(200_000, device=opweave.DEVICE)       # 800 KB of 1 MiB
        try:
            y = torch.empty(100_000, device=opweave.DEVICE)   # 400 KB more: too much
        except RuntimeError as e:
            print("ERR", str(e).splitlines()[0])
        del x
        y = torch.empty(100_000, device=opweave.DEVICE)       # fits after the free
        print("OK", opweave.memory_stats()["num_ooms"])
    """, OPWEAVE_SIM_CAPACITY=str(1 << 20))
    assert r.returncode == 0, r.stderr
    assert f"ERR opweave: out of memory on {D}:0" in r.stdout
    assert "aten::empty.memory_format" in r.stdout
    assert "OK 1" in r.stdout


def test_copy_into_too_small_view(dev0):
    base = torch.zeros(6, device=dev0)
    with pytest.raises(RuntimeError, match=r"aten::copy_: source of shape \[5\] cannot be copied into destination of shape \[2\]"):
        base[:2].copy_(torch.ones(5))
    with pytest.raises(RuntimeError, match="aten::copy_"):
        base[:2].copy_(torch.ones(5, device=dev0))
    assert base.cpu().sum().item() == 0.0  # nothing written


def test_writing_overlapping_destination_is_rejected(dev0):
    d = torch.zeros(1, device=dev0).expand(4)
    with pytest.raises(RuntimeError, match="more than one element"):
        d.copy_(torch.arange(4.0))
