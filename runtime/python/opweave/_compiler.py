"""Compiling C at run time: the one driver (graph mode's per-graph libraries use it).

Every other native artifact is a target of the CMake build (`make build`). Graph mode writes
plain C per graph while the program runs, and this module compiles it into a shared library,
the way the build says: CMake writes <build>/opweave_build.json with

    c_compiler    the C compiler the build was configured with ($CC overrides it);
    c_flags       the flags (position-independent shared library, C11);
    include_dirs  folders, relative to the build folder, holding every header the source may
                  include (the build stages them there: ow_dicp_abi.h, diopi/*.h).

Libraries are cached on disk under a key: the hash of that file, of every header in those
folders (read once per process) and of the source. A second process, or a second compile of
the same source, finds the library and does not run the compiler. Writes are atomic (a
temporary file renamed), so processes sharing a cache folder never see half a library.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
from typing import Optional

from . import _paths


class CompileError(RuntimeError):
    """The build's compiler configuration is missing or the compiler failed (its output
    included)."""


@dataclasses.dataclass(frozen=True)
class Config:
    path: pathlib.Path
    compiler: tuple
    flags: tuple
    include_dirs: tuple
    digest: str   # of the configuration, $CC and every header: part of each cache key


def _header_digest(dirs):
    h = hashlib.sha256()
    for d in dirs:
        for f in sorted(p for p in d.rglob("*") if p.is_file()):
            h.update(str(f.relative_to(d)).encode() + b"\0" + f.read_bytes())
    return h


@functools.lru_cache(maxsize=None)
def _load(path: str, cc: str) -> Config:
    p = pathlib.Path(path)
    try:
        raw = p.read_bytes()
        doc = json.loads(raw)
        compiler = tuple(cc.split()) if cc else (doc["c_compiler"],)
        flags = tuple(doc["c_flags"])
        dirs = tuple(p.parent / d for d in doc["include_dirs"])
    except FileNotFoundError:
        raise CompileError(f"opweave: {p} not found: build the project first (make build "
                           "writes it) or set OPWEAVE_BUILD_DIR to the build folder") from None
    except (ValueError, KeyError, TypeError) as e:
        raise CompileError(f"opweave: {p} is not a valid compiler configuration: {e!r}") from None
    missing = [str(d) for d in dirs if not d.is_dir()]
    if missing:
        raise CompileError(f"opweave: include folders of {p} missing: {', '.join(missing)} "
                           "(rebuild: make build)")
    h = _header_digest(dirs)
    h.update(raw + b"\0" + cc.encode())
    return Config(p, compiler, flags, dirs, h.hexdigest())


def config(path: Optional[pathlib.Path] = None) -> Config:
    """The compiler configuration of the located build (or of `path`)."""
    return _load(str(path or _paths.build_config()), os.environ.get("CC", ""))


def _executable(compiler: tuple) -> list:
    """The compiler command; a configured absolute path that no longer exists falls back to
    the same name on PATH (a package installed on another machine)."""
    first = compiler[0]
    found = shutil.which(first) or shutil.which(os.path.basename(first))
    if not found:
        raise CompileError(f"opweave: C compiler {first!r} not found (install gcc or set CC)")
    return [found, *compiler[1:]]


def cached_library(source: str, cache: pathlib.Path, *, prefix: str = "lib",
                   what: str = "C source", cfg: Optional[Config] = None) -> tuple:
    """Shared library compiled from C `source` in folder `cache`: (path, True when it was
    already there). Raises CompileError with the command and the compiler's messages."""
    cfg = cfg or config()
    key = hashlib.sha256((cfg.digest + "\0" + source).encode()).hexdigest()[:24]
    target = cache / f"{prefix}-{key}.so"
    if target.exists():
        return target, True
    src = cache / f"{prefix}-{key}.c"
    _atomic(src, lambda tmp: pathlib.Path(tmp).write_text(source))
    cmd = _executable(cfg.compiler) + list(cfg.flags) + [f"-I{d}" for d in cfg.include_dirs]

    def compile_to(tmp):
        proc = subprocess.run(cmd + [str(src), "-o", tmp], capture_output=True, text=True)
        if proc.returncode != 0:
            raise CompileError(f"opweave: compiling {what} failed:\n$ {' '.join(cmd)} {src} "
                               f"-o {target}\n{(proc.stdout + proc.stderr).strip()[-4000:]}")
    _atomic(target, compile_to)
    return target, False


def _atomic(target: pathlib.Path, write) -> None:
    """write(tmp) into a temporary file next to `target`, then renamed over it."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=target.suffix)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
