"""opweave._paths: the one place that finds the build (libraries, compiler configuration) and
the data the runtime reads. Order: $OPWEAVE_BUILD_DIR, the copy an installed package carries,
the checkout's build/."""

from __future__ import annotations

import pathlib

import pytest

from opweave import _paths

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_a_checkout_finds_its_build_and_its_data(monkeypatch):
    monkeypatch.delenv("OPWEAVE_BUILD_DIR", raising=False)
    assert _paths.checkout_root() == REPO
    assert _paths.build_dir() == REPO / "build"
    assert _paths.generated_dir() == REPO / "generated"
    assert _paths.vendors_dir() == REPO / "vendors"
    assert _paths.work_dir() == REPO


def test_the_environment_wins(monkeypatch, tmp_path):
    monkeypatch.setenv("OPWEAVE_BUILD_DIR", str(tmp_path))
    assert _paths.library("opweave") == tmp_path / "lib" / "libopweave.so"
    assert _paths.build_config() == tmp_path / "opweave_build.json"
    assert _paths.cache_dir("c").is_dir() and _paths.cache_dir("c") == tmp_path / "c"


def test_an_installed_package_uses_its_own_copy(monkeypatch, tmp_path):
    bundled = tmp_path / "opweave" / "_built"
    (bundled / "lib").mkdir(parents=True)
    monkeypatch.delenv("OPWEAVE_BUILD_DIR", raising=False)
    monkeypatch.setattr(_paths, "BUNDLED", bundled)
    monkeypatch.setattr(_paths, "checkout_root", lambda: None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    assert _paths.library("opweave_vendor_sim") == bundled / "lib" / "libopweave_vendor_sim.so"
    assert _paths.generated_dir() == bundled / "generated"
    assert _paths.work_dir() == tmp_path
    # site-packages may be read-only: caches go to the user's cache folder
    assert _paths.cache_dir("dicp-cache").parent == tmp_path / "cache" / "opweave"


def test_no_build_anywhere_says_where_it_looked(monkeypatch, tmp_path):
    monkeypatch.delenv("OPWEAVE_BUILD_DIR", raising=False)
    monkeypatch.setattr(_paths, "BUNDLED", tmp_path / "absent")
    monkeypatch.setattr(_paths, "checkout_root", lambda: None)
    with pytest.raises(ImportError, match="OPWEAVE_BUILD_DIR is not set.*make build"):
        _paths.build_dir()
