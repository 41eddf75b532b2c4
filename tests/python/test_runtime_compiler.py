"""opweave._compiler: the one driver that compiles C at run time (graph mode's per-graph code).

It compiles with what the build wrote (opweave_build.json: compiler, flags, include folders),
caches by a key derived from that file, every header in those folders and the source, and
fails with the compiler's own message.
"""

from __future__ import annotations

import ctypes
import json
import subprocess

import pytest

from opweave import _compiler, _paths

ANSWER = "int answer(void) { return 42; }\n"


def fake_build(tmp_path, header="#define VALUE 7\n", compiler="cc"):
    """A build folder with a compiler configuration and one header, as CMake writes them."""
    build = tmp_path / "build"
    (build / "include").mkdir(parents=True)
    (build / "include" / "value.h").write_text(header)
    (build / "opweave_build.json").write_text(json.dumps(
        {"c_compiler": compiler, "c_flags": ["-std=gnu11", "-O1", "-fPIC", "-shared"],
         "include_dirs": ["include"]}))
    cache = tmp_path / "cache"
    cache.mkdir()
    return build / "opweave_build.json", cache


def call(path, name="answer"):
    return getattr(ctypes.CDLL(str(path)), name)()


def test_compiles_a_tiny_source_and_the_second_compile_is_a_cache_hit(tmp_path, monkeypatch):
    cfg_path, cache = fake_build(tmp_path)
    cfg = _compiler.config(cfg_path)
    path, hit = _compiler.cached_library(ANSWER, cache, prefix="t", cfg=cfg)
    assert not hit and path.parent == cache and call(path) == 42

    def no_compiler(*a, **k):
        raise AssertionError("a cache hit must not run the compiler")
    monkeypatch.setattr(subprocess, "run", no_compiler)
    again, hit = _compiler.cached_library(ANSWER, cache, prefix="t", cfg=cfg)
    assert hit and again == path


def test_the_key_follows_the_headers_not_a_list(tmp_path):
    source = '#include "value.h"\nint value(void) { return VALUE; }\n'
    cfg_path, cache = fake_build(tmp_path)
    first, _ = _compiler.cached_library(source, cache, cfg=_compiler.config(cfg_path))
    (cfg_path.parent / "include" / "value.h").write_text("#define VALUE 8\n")
    _compiler._load.cache_clear()   # the header digest is read once per process
    second, hit = _compiler.cached_library(source, cache, cfg=_compiler.config(cfg_path))
    assert not hit and second != first
    assert call(first, "value") == 7 and call(second, "value") == 8


def test_a_compiler_error_is_raised_with_its_message(tmp_path):
    cfg_path, cache = fake_build(tmp_path)
    with pytest.raises(_compiler.CompileError) as e:
        _compiler.cached_library("int broken(void) { return undeclared_name; }\n", cache,
                                 what="a test source", cfg=_compiler.config(cfg_path))
    msg = str(e.value)
    assert "compiling a test source failed" in msg and "undeclared_name" in msg
    assert not list(cache.glob("*.so")), "a failed compile leaves no library behind"


def test_a_missing_configuration_or_compiler_is_a_clear_error(tmp_path, monkeypatch):
    with pytest.raises(_compiler.CompileError, match="not found: build the project first"):
        _compiler.config(tmp_path / "nowhere" / "opweave_build.json")
    cfg_path, cache = fake_build(tmp_path, compiler="/nonexistent/opweave-no-such-cc")
    with pytest.raises(_compiler.CompileError, match="C compiler .* not found"):
        _compiler.cached_library(ANSWER, cache, cfg=_compiler.config(cfg_path))
    monkeypatch.setenv("CC", "opweave-no-such-cc")   # $CC overrides the configured compiler
    cfg_path, cache = fake_build(tmp_path / "cc")
    with pytest.raises(_compiler.CompileError, match="opweave-no-such-cc"):
        _compiler.cached_library(ANSWER, cache, cfg=_compiler.config(cfg_path))


def test_the_build_configuration_compiles_graph_code(tmp_path):
    """The build's own opweave_build.json finds every header graph code includes."""
    cfg = _compiler.config()
    assert cfg.path == _paths.build_config()
    source = ('#include <diopi/functions.h>\n#include "ow_dicp_abi.h"\n'
              "int abi(void) { return OW_DICP_ABI_VERSION; }\n")
    path, _ = _compiler.cached_library(source, tmp_path, cfg=cfg)
    assert call(path, "abi") > 0
