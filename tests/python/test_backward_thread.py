"""Which thread runs the device's backward (opweave.backward_thread): the calling thread for a
vendor whose seam says its kernels compute on the host synchronously (aten_ref), autograd's
device thread for an asynchronous one (sim), OPWEAVE_BACKWARD_THREAD over both; and the seam
flag itself, including a vendor built before the flag existed."""

from __future__ import annotations

import pathlib
import shutil
import subprocess

import pytest
import torch

from opweave import _paths

REPO = pathlib.Path(__file__).resolve().parents[2]
TORCH2 = hasattr(torch._C, "_set_multithreading_enabled")

# Prints the import-time choice and whether a leaf's gradient hook ran on this thread.
WHERE = """
    import threading, torch, opweave
    x = torch.ones(3, device=opweave.device(0), requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(threading.get_ident()))
    (x * 2).sum().backward()
    assert torch.equal(x.grad.cpu(), torch.full((3,), 2.0))
    print(opweave.report()["host_synchronous"], opweave.BACKWARD_THREAD,
          seen == [threading.get_ident()])
"""


@pytest.mark.parametrize("vendor, env, torch2, torch1", [
    ("aten_ref", "", "True caller True", "True device False"),
    ("sim", "", "False device False", "False device False"),
    ("aten_ref", "device", "True device False", "True device False"),
    ("sim", "caller", "False caller True", "False device False"),
])
def test_backward_runs_on_the_thread_chosen_at_import(run_python, vendor, env, torch2, torch1):
    # host_synchronous: the seam's word that the kernels compute on the host (aten_ref), which
    # picks the calling thread unless OPWEAVE_BACKWARD_THREAD says otherwise.
    proc = run_python(WHERE, OPWEAVE_VENDOR=vendor, OPWEAVE_BACKWARD_THREAD=env)
    assert proc.returncode == 0, proc.stderr
    assert " ".join(proc.stdout.split()[-3:]) == (torch2 if TORCH2 else torch1)
    if env == "caller" and not TORCH2:
        assert "always runs a device's backward on autograd's device thread" in proc.stderr


def test_a_bad_setting_fails_the_import_naming_the_variable(run_python):
    proc = run_python("import opweave", OPWEAVE_BACKWARD_THREAD="main")
    assert proc.returncode != 0
    assert "OPWEAVE_BACKWARD_THREAD='main': expected one of caller, device" in proc.stderr


def test_another_thread_chooses_for_itself(run_python):
    # The switch is per thread: a worker thread starts with PyTorch's default and can ask.
    code = """
        import threading, torch, opweave
        out = {}
        def work():
            try:
                opweave.set_backward_thread("caller")
            except RuntimeError as e:
                out["error"] = str(e)
                return
            x = torch.ones(2, device=opweave.device(0), requires_grad=True)
            x.register_hook(lambda g: out.update(hook=threading.get_ident()))
            x.sum().backward()
            out["same"] = out["hook"] == threading.get_ident()
        t = threading.Thread(target=work)
        t.start(); t.join()
        try:
            opweave.set_backward_thread("main")
        except ValueError as e:
            out["bad"] = str(e)
        print(out)
    """
    proc = run_python(code, OPWEAVE_VENDOR="sim")
    assert proc.returncode == 0, proc.stderr
    out = eval(proc.stdout.strip().splitlines()[-1])  # noqa: S307  (our own dict literal)
    assert "expected one of caller, device" in out["bad"]
    if TORCH2:
        assert out["same"] is True
    else:
        assert "needs torch 2.x" in out["error"]


# A vendor library built against the seam header before `flags` was added: its table ends
# after device_name. It must still load (flags read as 0), as a shipped binary must.
OLD_VENDOR = r"""
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>
#include <opweave/vendor_seam.h>
static owVendorSeam old_seam;
const owVendorSeam* owGetVendorSeam(void) {
  void* lib = dlopen(REFERENCE, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) return NULL;
  const owVendorSeam* (*get)(void) = (const owVendorSeam* (*)(void))dlsym(lib, "owGetVendorSeam");
  memcpy(&old_seam, get(), offsetof(owVendorSeam, flags));
  old_seam.struct_size = offsetof(owVendorSeam, flags);
  old_seam.name = "old_aten_ref";
  return &old_seam;
}
"""


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_a_vendor_built_before_the_flags_field_still_loads(tmp_path, run_python):
    src = tmp_path / "old_vendor.c"
    src.write_text(OLD_VENDOR)
    lib = tmp_path / "libold_vendor.so"
    reference = _paths.library("opweave_vendor_aten_ref")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(lib), str(src), "-ldl",
                    f"-DREFERENCE=\"{reference}\"",
                    f"-I{REPO / 'runtime' / 'include'}"], check=True)
    code = """
        import torch, opweave
        r = opweave.report()
        y = torch.arange(4.0, device=opweave.device(0)) * 2  # no kernels exported: CPU fallback
        print(r["vendor"], r["host_synchronous"], opweave.BACKWARD_THREAD, y.cpu().tolist())
    """
    proc = run_python(code, OPWEAVE_VENDOR=str(lib))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[-2] == "old_aten_ref False device [0.0, 2.0, 4.0, 6.0]"
