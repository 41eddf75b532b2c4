"""Loading graph mode's native code: the helper (built by `make build`) and compiled graphs.

The helper (runtime/dicp/helper.cpp, the only part that includes ATen) is the build's
lib/libopweave_dicp_helper.so. Graph libraries are plain C written per graph while the
program runs, compiled by the build's C compiler through opweave._compiler in a fraction of a
second and cached on disk by the hash of their source (and of the headers they include), so
a second process, or a second compile of the same graph, only loads them.
"""

from __future__ import annotations

import os
import pathlib
import threading
import time

import torch

from .. import _compiler, _paths

_lock = threading.Lock()
_helper_loaded = False
STATS = {"c_compiles": 0, "disk_hits": 0, "compile_seconds": 0.0}


class NativeBuildError(RuntimeError):
    pass


def cache_dir() -> pathlib.Path:
    env = os.environ.get("OPWEAVE_DICP_CACHE")
    if env:
        pathlib.Path(env).mkdir(parents=True, exist_ok=True)
        return pathlib.Path(env)
    return _paths.cache_dir("dicp-cache")


def helper_path() -> pathlib.Path:
    return _paths.library("opweave_dicp_helper")


def load_helper():
    """torch.ops.opweave_dicp (the helper library, loaded once)."""
    global _helper_loaded
    with _lock:
        if _helper_loaded:
            return torch.ops.opweave_dicp
        import opweave  # noqa: F401  (loads libopweave.so, whose symbols the helper uses)
        path = _paths.built_library("opweave_dicp_helper", "opweave.dicp: the graph-mode helper",
                                    NativeBuildError)
        torch.ops.load_library(str(path))
        _helper_loaded = True
        return torch.ops.opweave_dicp


def graph_library(source: str) -> tuple[pathlib.Path, bool]:
    """Compiled library of a graph's C source: (path, True when it came from the disk cache)."""
    start = time.perf_counter()
    try:
        path, hit = _compiler.cached_library(source, cache_dir(), prefix="graph",
                                             what="a dicp graph")
    except _compiler.CompileError as e:
        raise NativeBuildError(str(e)) from None
    if hit:
        STATS["disk_hits"] += 1
    else:
        STATS["c_compiles"] += 1
        STATS["compile_seconds"] += time.perf_counter() - start
    return path, hit


def load_graph(source: str) -> tuple[int, bool]:
    ops = load_helper()
    path, hit = graph_library(source)
    return int(ops.load(str(path))), hit


def resolved_kernels(graph_kernels=()) -> frozenset:
    """The kernels a compiled graph may call: the DIOPI functions the vendor resolved, and of
    `graph_kernels` (a catalogue's `kernel:` ops) those its library exports."""
    import ctypes

    import opweave
    report = opweave.report()
    names = set(report["diopi"]["resolved"])
    if graph_kernels and report.get("library"):
        try:   # the loaded vendor library itself (RTLD_NOLOAD: never a second copy)
            lib = ctypes.CDLL(report["library"], mode=os.RTLD_NOLOAD | ctypes.RTLD_GLOBAL)
        except OSError:
            return frozenset(names)   # its graph kernels unknown: their ops run eagerly
        names |= {k for k in graph_kernels if hasattr(lib, k)}
    return frozenset(names)
