"""The CUDA vendor (vendors/cuda) where no GPU is needed: built, linked, complete, honest.

The vendor is compiled wherever nvcc is (here and in CI). Without a GPU these tests check that
the library links (dlopen resolves every symbol, cuBLASLt included), that its seam table is
whole, that every function of the hot set is a CUDA kernel and not a scaffolded stub, that
re-running the scaffold over it adds nothing, and that `import opweave` with OPWEAVE_VENDOR=cuda
fails at import with CUDA's own reason rather than op by op. The GPU half is
test_cuda_device.py (skipped without a GPU) and tests/gpu/run.sh runs it on the H100.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from codegen import new_vendor

REPO = pathlib.Path(__file__).resolve().parents[2]
VENDOR = REPO / "vendors" / "cuda"
BUILD = pathlib.Path(os.environ.get("OPWEAVE_BUILD_DIR", REPO / "build"))
LIB = BUILD / "lib" / "libopweave_vendor_cuda.so"

# The hot set: what a training step of an MLP, a CNN head or a GPT spends its time in.
HOT_SET = """
diopiAdd diopiAddInp diopiAddScalar diopiAddInpScalar diopiSub diopiSubInp diopiSubScalar
diopiMul diopiMulInp diopiMulScalar diopiMulInpScalar diopiDiv diopiDivInp diopiDivScalar
diopiNeg diopiExp diopiLog diopiSqrt diopiRsqrt diopiTanh diopiSigmoid diopiPow diopiMaximum
diopiEq diopiNe diopiLt diopiGt diopiWhere diopiMaskedFill diopiMaskedFillScalar diopiFill
diopiZeroInp diopiCopyInp diopiCastDtype
diopiRelu diopiReluInp diopiThresholdBackward diopiGelu diopiGeluBackward diopiSilu
diopiSiluBackward diopiTanhBackward diopiSigmoidBackward
diopiSum diopiMean diopiMax diopiMin diopiMaxAll diopiMinAll diopiAmax diopiAmin diopiArgmax
diopiSoftmax diopiSoftmaxBackward diopiLogSoftmax diopiLogSoftmaxBackward
diopiNLLLoss diopiNLLLossBackward diopiLayerNorm diopiLayerNormBackward
diopiEmbedding diopiEmbeddingBackward diopiDropout diopiDropoutBackward
diopiIndexSelect diopiGather diopiScatter diopiCat
diopiAdam diopiAdamW diopiMm diopiBmm diopiAddmm diopiBaddbmm
""".split()


def _nvcc() -> str | None:
    return shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                    if os.path.exists("/usr/local/cuda/bin/nvcc") else None)


def _has_gpu() -> bool:
    return os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl")


needs_library = pytest.mark.skipif(not LIB.exists(), reason=(
    "vendors/cuda is not built here (no nvcc)" if _nvcc() is None else
    f"{LIB} missing although nvcc is present: see test_built_wherever_nvcc_is"))


def test_built_wherever_nvcc_is():
    if _nvcc() is None:
        pytest.skip("no nvcc on this machine: CMake skips vendors/cuda (OPWEAVE_CUDA=AUTO)")
    assert LIB.exists(), f"nvcc is at {_nvcc()} but the build has no {LIB.name}"


def _kernel_sources():
    return new_vendor._defined(str(VENDOR / "kernels"))


def test_hot_set_is_cuda_kernels_not_stubs():
    defined = _kernel_sources()
    missing = [fn for fn in HOT_SET if fn not in defined]
    assert not missing, f"hot-set functions with no definition in vendors/cuda: {missing}"
    stubs = [fn for fn in HOT_SET if not defined[fn].endswith(".cu")]
    assert not stubs, f"hot-set functions still scaffolded stubs: {stubs}"


def test_every_cpp_kernel_file_is_a_pure_stub():
    # The .cpp files are the scaffold's: each function in them declines (diopiNoImplement), so
    # the support report's native count is exactly the .cu kernels.
    for path in (VENDOR / "kernels").glob("*.cpp"):
        text = path.read_text()
        bodies = text.count("return diopiNoImplement;")
        assert bodies == len(new_vendor.DEFINITION.findall(text)), path.name


def test_rescaffolding_adds_nothing(tmp_path):
    shutil.copytree(VENDOR, tmp_path / "cuda")
    result = new_vendor.scaffold("cuda", vendors_dir=str(tmp_path))
    assert result.created == [] and result.appended == {}, (result.created, result.appended)
    assert result.stale == []


@needs_library
def test_library_links_and_exports_the_seam_and_kernels(run_python):
    # RTLD_NOW in a fresh interpreter: every undefined symbol (cudart, cuBLASLt, libopweave's
    # diopirt accessors) must resolve. libopweave is loaded by itself (its own vendor may fail
    # to start without a GPU; that is recorded, not raised), so the test needs no device.
    code = f"""
        import ctypes, json, torch
        ctypes.CDLL({str(LIB.parent / "libopweave.so")!r}, mode=ctypes.RTLD_GLOBAL)
        lib = ctypes.CDLL({str(LIB)!r}, mode=ctypes.RTLD_LOCAL | 2)
        class Head(ctypes.Structure):
            _fields_ = [("version", ctypes.c_uint32), ("struct_size", ctypes.c_uint32),
                        ("name", ctypes.c_char_p)] + [(f"fn{{i}}", ctypes.c_void_p) for i in range(26)]
        lib.owGetVendorSeam.restype = ctypes.POINTER(Head)
        seam = lib.owGetVendorSeam().contents
        missing = [fn for fn in {HOT_SET!r} if not hasattr(lib, fn)]
        print(json.dumps(dict(version=seam.version, size=seam.struct_size,
                              name=seam.name.decode(), missing=missing,
                              required=[bool(getattr(seam, f"fn{{i}}")) for i in range(20)])))
    """
    proc = run_python(code)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["version"] == 1 and out["name"] == "cuda"
    assert out["size"] == 8 + 8 + 26 * 8 + 8  # sizeof(owVendorSeam) on x86-64 (flags: 4 + padding)
    assert out["missing"] == []
    assert all(out["required"]), "a required seam function is NULL"


@needs_library
def test_import_without_a_gpu_fails_at_import_with_cudas_reason(run_python):
    if _has_gpu():
        pytest.skip("a GPU is present: test_cuda_device.py covers this machine")
    proc = run_python("import opweave", OPWEAVE_VENDOR="cuda")
    assert proc.returncode != 0
    assert "ImportError" in proc.stderr and "cudaGetDeviceCount" in proc.stderr, proc.stderr


def test_gpu_benchmark_quick_mode_produces_every_figure():
    # bench/cuda_training.py --quick compares the loaded vendor (sim in CI, cuda on the GPU
    # machine) with CPU, or with torch.cuda where there is one: every code path of the H100
    # benchmark runs in CI.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "runtime" / "python"),
                                                       str(REPO)]))
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "cuda_training.py"), "--quick"],
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out["models"]) == {"gpt", "resnet"}
    for figures in out["models"].values():
        assert figures["native_ms"] > 0 and figures["opweave_ms"] > 0
        assert figures["ratio_native_over_opweave"] > 0
        assert abs(figures["last_loss"]["native"] - figures["last_loss"]["opweave"]) < 1e-3

