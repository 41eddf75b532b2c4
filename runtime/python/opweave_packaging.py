"""`pip install .`: the opweave and codegen packages (pyproject.toml) plus the built native side.

pyproject.toml's [tool.setuptools.cmdclass] names the commands below (setuptools loads this
module by path from runtime/python; it is not installed, and it imports nothing of opweave).

Build first (`make build`); this step does not run CMake. The build folder is
$OPWEAVE_BUILD_DIR, else ./build. Its outputs are copied into the package, under
opweave/_built/, where opweave._paths looks for them when OPWEAVE_BUILD_DIR is not set:

  lib/*.so                  libopweave, the vendor libraries, the conformance runner, the DICP
                            helper (they find each other next to themselves: $ORIGIN);
  include/, opweave_build.json   what opweave._compiler needs to compile graph C at run time;
  generated/dicp/, generated/conformance/, vendors/<name>/expectations.yaml
                            data the runtime reads, laid out as in the checkout.

setuptools' own scratch folder goes inside the build folder (its default, ./build, is CMake's).
"""

import os
import pathlib
import shutil

from setuptools.command.build import build
from setuptools.command.build_py import build_py
from setuptools.command.egg_info import egg_info
from wheel.bdist_wheel import bdist_wheel

ROOT = pathlib.Path(__file__).resolve().parents[2]   # runtime/python/ -> the checkout
BUILD = pathlib.Path(os.environ.get("OPWEAVE_BUILD_DIR") or ROOT / "build").resolve()
DATA = ("generated/dicp", "generated/conformance")


class BuildPyWithNative(build_py):
    """build_py, then the build folder's libraries and the runtime's data into opweave/_built."""

    def run(self):
        super().run()
        lib = BUILD / "lib"
        if not (lib / "libopweave.so").is_file():
            raise SystemExit(f"opweave: {lib / 'libopweave.so'} not found: run `make build` "
                             "first (or set OPWEAVE_BUILD_DIR to a build folder)")
        dest = pathlib.Path(self.build_lib) / "opweave" / "_built"
        shutil.rmtree(dest, ignore_errors=True)   # a previous install from another build
        (dest / "lib").mkdir(parents=True)
        for so in sorted(lib.glob("*.so")):
            shutil.copy2(so, dest / "lib" / so.name)
        shutil.copytree(BUILD / "include", dest / "include")
        shutil.copy2(BUILD / "opweave_build.json", dest / "opweave_build.json")
        skip = shutil.ignore_patterns("__pycache__", "*.pyc")
        for rel in DATA:
            shutil.copytree(ROOT / rel, dest / rel, ignore=skip)
        for f in sorted(ROOT.glob("vendors/*/expectations.yaml")):
            target = dest / f.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, target)


SCRATCH = str(BUILD / "setuptools")


class BuildInBuildFolder(build):
    """setuptools' scratch folder inside the build folder: its default, ./build, is CMake's."""

    def initialize_options(self):
        super().initialize_options()
        self.build_base = SCRATCH


class EggInfoInBuildFolder(egg_info):
    """The egg-info next to the scratch folder, not inside runtime/python."""

    def initialize_options(self):
        super().initialize_options()
        self.egg_base = SCRATCH

    def finalize_options(self):
        os.makedirs(SCRATCH, exist_ok=True)
        super().finalize_options()


class PlatformWheel(bdist_wheel):
    """The wheel carries shared libraries: tag it for this platform, not "any"."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False
