"""pyproject.toml stays true to the tree: listed packages exist, entry points resolve."""

import importlib
import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _package_dir(name: str) -> pathlib.Path:
    dirs = PROJECT["tool"]["setuptools"]["package-dir"]
    top = name.split(".")[0]
    base = ROOT / dirs.get(top, dirs[""] + "/" + top)
    return base.joinpath(*name.split(".")[1:])


def test_every_listed_package_exists_and_every_package_is_listed():
    listed = set(PROJECT["tool"]["setuptools"]["packages"])
    for name in listed:
        assert (_package_dir(name) / "__init__.py").is_file(), name
    found = {".".join(p.parent.relative_to(ROOT / "runtime/python").parts)
             for p in (ROOT / "runtime/python").rglob("__init__.py")}
    found |= {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "codegen").rglob("__init__.py")}
    assert found <= listed, f"packages missing from pyproject.toml: {sorted(found - listed)}"


def _resolve(target: str):
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def test_entry_points_resolve():
    assert callable(_resolve(PROJECT["project"]["scripts"]["opweave-codegen"]))
    backends = PROJECT["project"]["entry-points"]["torch_dynamo_backends"]
    assert backends, "no torch.compile backend entry point"
    for target in backends.values():
        assert callable(_resolve(target))
