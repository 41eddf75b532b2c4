"""Building and loading native code: the helper (once per build) and compiled graphs.

The helper (helper.cpp, the only part that includes ATen) is compiled the first time graph
mode runs and cached next to the build (keyed by its sources, the runtime headers it uses
and the torch version). Graph libraries are plain C compiled by the system compiler in a
fraction of a second and cached on disk by the hash of their source, so a second process
(or a second compile of the same graph) only loads them.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import shutil
import subprocess
import tempfile
import threading
import time

import torch

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[3]
HELPER_SOURCES = ("helper.cpp", "ow_dicp_abi.h")
RUNTIME_HEADERS = ("allocator.h", "context.h", "diopi_convert.h", "diopi_errors.h",
                   "diopi_slots.h", "stream.h", "vendor.h", "vendor_seam.h")

_lock = threading.Lock()
_helper_loaded = False
STATS = {"helper_builds": 0, "c_compiles": 0, "disk_hits": 0, "compile_seconds": 0.0}


class NativeBuildError(RuntimeError):
    pass


def build_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("OPWEAVE_BUILD_DIR") or REPO / "build")


def cache_dir() -> pathlib.Path:
    d = pathlib.Path(os.environ.get("OPWEAVE_DICP_CACHE") or build_dir() / "dicp-cache")
    d.mkdir(parents=True, exist_ok=True)
    return d


def generated_include() -> pathlib.Path:
    return REPO / "generated"


def _compiler(kind: str) -> list[str]:
    env = os.environ.get("CXX" if kind == "c++" else "CC")
    if env:
        return env.split()
    names = ("g++", "clang++", "c++") if kind == "c++" else ("gcc", "clang", "cc")
    for name in names:
        if shutil.which(name):
            return [name]
    raise NativeBuildError(f"opweave.dicp: no {kind} compiler found (install g++ or set "
                           f"{'CXX' if kind == 'c++' else 'CC'})")


def _run(cmd: list[str], what: str) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise NativeBuildError(f"opweave.dicp: compiling {what} failed:\n$ {' '.join(cmd)}\n"
                               f"{proc.stderr.strip()[-4000:]}")


def _atomic_build(target: pathlib.Path, build) -> None:
    """Builds into a temporary file next to `target` and renames it (safe across processes)."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=target.suffix)
    os.close(fd)
    try:
        build(tmp)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def helper_path() -> pathlib.Path:
    h = hashlib.sha256()
    for name in HELPER_SOURCES:
        h.update((HERE / name).read_bytes())
    for name in RUNTIME_HEADERS:
        h.update((REPO / "runtime" / "include" / "opweave" / name).read_bytes())
    h.update((generated_include() / "diopi" / "diopirt.h").read_bytes())
    h.update(torch.__version__.encode())
    h.update(str(build_dir().resolve()).encode())
    return cache_dir() / f"libopweave_dicp_helper-{h.hexdigest()[:16]}.so"


def load_helper():
    """torch.ops.opweave_dicp, building the helper first when needed."""
    global _helper_loaded
    with _lock:
        if _helper_loaded:
            return torch.ops.opweave_dicp
        import opweave  # noqa: F401  (loads libopweave.so, whose symbols the helper uses)
        target = helper_path()
        if not target.exists():
            from torch.utils import cpp_extension
            lib = build_dir() / "lib"
            includes = [f"-I{p}" for p in cpp_extension.include_paths()] + [
                f"-I{REPO / 'runtime' / 'include'}", f"-I{generated_include()}", f"-I{HERE}"]
            libs = [f"-L{p}" for p in cpp_extension.library_paths()] + [
                f"-L{lib}", f"-Wl,-rpath,{lib}", "-lopweave", "-lc10", "-ltorch_cpu"]
            abi = int(torch._C._GLIBCXX_USE_CXX11_ABI)
            start = time.perf_counter()

            def build(tmp):
                ccache = [shutil.which("ccache")] if shutil.which("ccache") else []
                _run(ccache + _compiler("c++") + [
                    "-std=c++17", "-O2", "-fPIC", "-shared", f"-D_GLIBCXX_USE_CXX11_ABI={abi}",
                    *includes, str(HERE / "helper.cpp"), "-o", tmp, *libs], "the dicp helper")
            _atomic_build(target, build)
            STATS["helper_builds"] += 1
            STATS["compile_seconds"] += time.perf_counter() - start
        torch.ops.load_library(str(target))
        _helper_loaded = True
        return torch.ops.opweave_dicp


def graph_library(source: str) -> tuple[pathlib.Path, bool]:
    """Compiled library of a graph's C source: (path, True when it came from the disk cache)."""
    h = hashlib.sha256(source.encode())
    h.update((HERE / "ow_dicp_abi.h").read_bytes())
    h.update((generated_include() / "diopi" / "functions.h").read_bytes())
    digest = h.hexdigest()[:24]
    target = cache_dir() / f"graph-{digest}.so"
    if target.exists():
        STATS["disk_hits"] += 1
        return target, True
    src = cache_dir() / f"graph-{digest}.c"
    fd, tmp_src = tempfile.mkstemp(dir=src.parent, prefix=".tmp-", suffix=".c")
    with os.fdopen(fd, "w") as f:     # atomic: another process may compile the same graph
        f.write(source)
    os.replace(tmp_src, src)
    start = time.perf_counter()

    def build(tmp):
        _run(_compiler("c") + ["-std=gnu11", "-O1", "-fPIC", "-shared", "-w",
                               f"-I{generated_include()}", f"-I{HERE}", str(src), "-o", tmp],
             f"graph {src}")
    _atomic_build(target, build)
    STATS["c_compiles"] += 1
    STATS["compile_seconds"] += time.perf_counter() - start
    return target, False


def load_graph(source: str) -> tuple[int, bool]:
    ops = load_helper()
    path, hit = graph_library(source)
    return int(ops.load(str(path))), hit


def resolved_kernels() -> frozenset:
    import opweave
    return frozenset(opweave.report()["diopi"]["resolved"])
