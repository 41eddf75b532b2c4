"""The device memory checker (opweave.memcheck, OPWEAVE_MEMCHECK=1): a planted leak is found
with its Python line and C++ stack; freed tensors and cached blocks are not reported; double
frees and foreign pointers on caching_allocator_delete raise with the stacks involved; the
environment switch reports at exit; off, nothing is recorded."""

import inspect
import os
import re
import subprocess
import sys

import pytest
import torch

import opweave
from opweave import memcheck

_LEAKED = []  # the planted leak: tensors kept alive by a module-level list


def _plant_leak(device, n):
    for _ in range(n):
        _LEAKED.append(torch.ones(1000, device=device))  # LEAK-SITE


def _line_of(marker: str, fn=None) -> int:
    lines, first = inspect.getsourcelines(fn or sys.modules[__name__])
    first = max(first, 1)  # a module's "first line" is 0
    return first + next(i for i, line in enumerate(lines) if marker in line)


LEAK_SITE = f"{__file__}:{_line_of('# LEAK-SITE')} in _plant_leak"


@pytest.fixture
def checker():
    memcheck.enable()
    try:
        yield memcheck
    finally:
        _LEAKED.clear()
        memcheck.disable()


def _site(report, site):
    found = [s for s in report.sites if s.stack.site == site]
    assert len(found) <= 1
    return found[0] if found else None


def test_planted_leak_is_reported_with_its_python_line_and_cpp_stack(checker, dev0, capsys):
    mark = checker.snapshot()
    _plant_leak(dev0, 3)
    scratch = [torch.randn(64, device=dev0) * 2 for _ in range(4)]  # freed below: not a leak
    del scratch
    report = checker.since(mark, file=sys.stdout)
    site = _site(report, LEAK_SITE)
    assert site is not None, report.text
    assert (site.count, site.bytes, site.block_bytes) == (3, 3 * 4000, 3 * 4096)
    assert site.devices == [0] and site.streams == [0]
    assert report.live_count == 3 and len(report.sites) == 1, report.text
    # Python: innermost frame is the allocating line, its caller is this test.
    assert site.stack.python[0].file == __file__ and site.stack.python[0].function == "_plant_leak"
    assert site.stack.python[1].function == "test_planted_leak_is_reported_with_its_python_line_and_cpp_stack"
    # C++: from the allocator up through the ATen op that asked for the memory.
    assert site.stack.cpp[0].startswith("opweave::allocate_on ")
    assert any(f.startswith("at::_ops::ones::call ") for f in site.stack.cpp), site.stack.cpp
    printed = capsys.readouterr().out
    assert printed == report.text
    assert f"[1] {LEAK_SITE}: 3 allocations, 12000 bytes on {opweave.device(0)}" in printed
    # Released: nothing held any more.
    _LEAKED.clear()
    assert checker.since(mark, file=None).sites == []


def test_freed_tensors_and_cached_blocks_are_not_reported(checker, dev0):
    mark = checker.snapshot()
    x = torch.randn(256, 256, device=dev0)
    y = (x @ x).relu().sum()
    assert torch.isfinite(y.cpu())
    del x, y
    opweave.synchronize()
    assert opweave.memory_stats()["cached_blocks"] > 0  # freed blocks stay in the cache
    report = checker.since(mark, file=None)
    assert report.sites == [] and report.live_count == 0 and report.errors == [], report.text
    assert "no tracked device allocation still held since seq" in report.text


def test_snapshot_limits_the_report_to_later_allocations(checker, dev0):
    before = torch.ones(10, device=dev0)
    mark = checker.snapshot()
    after = torch.ones(20, device=dev0)
    assert [s.bytes for s in checker.since(mark, file=None).sites] == [80]
    assert sorted(s.bytes for s in checker.report(file=None).sites if s.bytes in (40, 80)) == [40, 80]
    del before, after


def test_allocations_made_while_off_are_untracked(dev0):
    memcheck.disable()
    early = torch.ones(100, device=dev0)
    memcheck.enable()
    try:
        assert all(s.bytes != 400 for s in memcheck.report(file=None).sites)
        del early  # freeing an untracked block is not an error
        assert memcheck.errors() == []
    finally:
        memcheck.disable()
    assert not memcheck.is_enabled()


def _alloc_line(fn):
    return _line_of("# ALLOC", fn)


def test_double_free_raises_with_allocation_and_both_free_stacks(checker, dev0):
    mark = checker.snapshot()
    def alloc_and_free():
        p = opweave.caching_allocator_alloc(1024, dev0)  # ALLOC
        opweave.caching_allocator_delete(p)  # FIRST-FREE
        return p

    p = alloc_and_free()
    with pytest.raises(RuntimeError, match=r"double free: caching_allocator_delete\(0x") as e:
        opweave.caching_allocator_delete(p)  # SECOND-FREE
    me = test_double_free_raises_with_allocation_and_both_free_stacks
    assert f"{__file__}:{_line_of('# SECOND-FREE', me)}" in str(e.value)
    [err] = checker.errors(since=mark)
    assert err.kind == "double free" and err.ptr == hex(p)
    assert err.stack.site == f"{__file__}:{_line_of('# SECOND-FREE', me)} in {me.__name__}"
    assert err.first_free_stack.site.startswith(f"{__file__}:{_line_of('# FIRST-FREE', me)} ")
    assert err.alloc_stack.site.startswith(f"{__file__}:{_alloc_line(me)} ")
    assert err.stack.cpp[0].startswith("opweave::raw_delete ")
    # " since seq N" only when the checker had counted something before the mark (not when this
    # test is the first of its process, as under xdist or -k)
    assert re.search(r"^opweave memcheck: 1 free error( since seq \d+)?$",
                     checker.since(mark, file=None).text, re.M)


def test_foreign_pointers_raise_and_free_nothing(checker, dev0):
    mark = checker.snapshot()
    t = torch.arange(256, dtype=torch.float32, device=dev0)  # ALLOC
    me = test_foreign_pointers_raise_and_free_nothing
    with pytest.raises(RuntimeError, match="foreign pointer.*did not make"):
        opweave.caching_allocator_delete(t.data_ptr())  # a tensor's storage
    with pytest.raises(RuntimeError, match="foreign pointer.*16 bytes into a live 1024-byte"):
        opweave.caching_allocator_delete(t.data_ptr() + 16)
    with pytest.raises(RuntimeError, match="foreign pointer.*not the start of any live"):
        opweave.caching_allocator_delete(0x1234)
    errors = checker.errors(since=mark)
    assert [e.kind for e in errors] == ["foreign pointer"] * 3
    assert errors[0].alloc_stack.site.startswith(f"{__file__}:{_alloc_line(me)} ")
    assert errors[2].alloc_stack is None
    assert t.sum().item() == sum(range(256))  # the tensor's memory is still its own


def test_bad_free_raises_with_the_checker_off_too(dev0):
    assert not memcheck.is_enabled()
    p = opweave.caching_allocator_alloc(100, dev0)
    opweave.caching_allocator_delete(p)
    with pytest.raises(RuntimeError, match="freed already.*OPWEAVE_MEMCHECK=1"):
        opweave.caching_allocator_delete(p)
    opweave.caching_allocator_delete(0)  # like free(NULL)
    assert opweave.caching_allocator_alloc(0, dev0) == 0


def test_raw_allocations_are_tracked_until_deleted(checker, dev1):
    mark = checker.snapshot()
    p = opweave.caching_allocator_alloc(3000, dev1)
    [site] = checker.since(mark, file=None).sites
    assert site.bytes == 3000 and site.devices == [1]
    assert site.stack.site.startswith(f"{__file__}:")
    opweave.caching_allocator_delete(p)
    assert checker.since(mark, file=None).sites == []


def test_backward_allocations_have_a_cpp_stack(checker, dev0):
    # The gradient is allocated on autograd's device thread, which runs no Python.
    x = torch.randn(1000, device=dev0, requires_grad=True)
    mark = checker.snapshot()
    (x * 3).sum().backward()
    grads = [s for s in checker.since(mark, file=None).sites if s.bytes == 4000]
    assert grads and all(s.stack.cpp for s in grads)
    assert torch.equal(x.grad.cpu(), torch.full((1000,), 3.0))


SCRIPT = """\
import torch, opweave
KEPT = []
def leak():
    KEPT.append(torch.zeros(2048, device=opweave.device(0)))
leak(); leak()
freed = torch.ones(4096, device=opweave.device(0)); del freed
"""


def _run_script(tmp_path, **env):
    path = tmp_path / "leaky_script.py"
    path.write_text(SCRIPT)
    full_env = dict(os.environ, **env)
    full_env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(opweave.__path__[0])] + [p for p in [full_env.get("PYTHONPATH")] if p])
    proc = subprocess.run([sys.executable, str(path)], env=full_env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return path, proc.stderr


def test_env_switch_reports_leaks_at_exit(tmp_path):
    path, err = _run_script(tmp_path, OPWEAVE_MEMCHECK="1")
    assert ("opweave memcheck: 2 device allocations still held at exit: 16384 bytes "
            "(16384 in blocks) from 1 site") in err, err
    assert f"[1] {path}:4 in leak: 2 allocations, 16384 bytes" in err, err
    assert f"{path}:5 in <module>" in err
    assert "opweave::allocate_on" in err
    assert err.count("opweave memcheck:") == 1  # the library's own exit report stayed quiet


def test_off_by_default_prints_nothing(tmp_path):
    _, err = _run_script(tmp_path, OPWEAVE_MEMCHECK="0")
    assert "memcheck" not in err


def test_library_reports_at_exit_in_a_program_without_python():
    # tests/cpp/test_memcheck.cpp leaks 3000 bytes in a test run only on request.
    binary = opweave._library_path().parent.parent / "bin" / "test_memcheck"
    assert binary.is_file(), f"{binary} missing: build the C++ tests (make build)"
    proc = subprocess.run([str(binary), "--gtest_also_run_disabled_tests",
                           "--gtest_filter=MemcheckExit.DISABLED_LeakForTheExitReport"],
                          env=dict(os.environ, OPWEAVE_MEMCHECK="1"), capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    err = proc.stderr
    assert "opweave memcheck: 1 device allocation still held at exit: 3000 bytes" in err, err
    # Named by the first frame outside the allocator: the leaking test function.
    assert ("[1] (anonymous namespace)::MemcheckExit_DISABLED_LeakForTheExitReport_Test::TestBody "
            "[test_memcheck]: 1 allocation, 3000 bytes") in err, err
