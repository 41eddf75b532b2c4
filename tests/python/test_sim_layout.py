"""The sim vendor is laid out as `make new-vendor` lays out a vendor: each DIOPI kernel lives in
vendors/sim/kernels/<family>.cpp, named after its catalogue family (specs/ops.yaml); shared
helpers live in kernels/common/ headers, and the only other sources are the support files
(common_*.cpp) and the graph-level kernels outside the catalogue (fused.cpp).

Definitions are read from the sources, entry points a macro stamps out included (the macro's
`diopi<prefix>##Name<##suffix>` pattern applied to each invocation); the built library's
exported symbols check that this reading misses nothing.
"""

from __future__ import annotations

import functools
import glob
import os
import re
import shutil
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM_KERNELS = os.path.join(REPO, "vendors", "sim", "kernels")
# Sources that are no family's: the kernels' shared support and the graph-level kernels.
NON_FAMILY = re.compile(r"common_\w+\.cpp|fused\.cpp")

DEFINITION = re.compile(r"^(?:extern \"C\" )?diopiError_t (diopi\w+)\(", re.M)
MACRO = re.compile(r"^#define (\w+)\((\w+)[^)]*\)((?:[^\n]*\\\n)*[^\n]*)", re.M)
STAMPED = re.compile(r"diopiError_t\s+(diopi\w*?)##(\w+)(?:##(\w+))?\s*\(")


@functools.lru_cache(maxsize=None)
def family_of() -> dict[str, str]:
    from codegen.pipeline import load_catalogue
    cat = load_catalogue(os.path.join(REPO, "specs", "ops.yaml"))
    return {fn.name: fam.name for fam in cat.families for fn in fam.functions}


def definitions(kernels_dir: str) -> dict[str, list[str]]:
    """DIOPI function -> the kernels/*.cpp files that define it (directly or through a macro
    defined in a kernels/ source or a common/ header)."""
    sources = sorted(glob.glob(os.path.join(kernels_dir, "*.cpp")))
    headers = sorted(glob.glob(os.path.join(kernels_dir, "common", "*.h")))
    stamps = {}  # macro -> [(prefix, suffix)] for each entry point it defines
    for path in sources + headers:
        for name, param, body in MACRO.findall(open(path).read()):
            found = [(pre, suf) for pre, arg, suf in STAMPED.findall(body) if arg == param]
            if found:
                stamps[name] = found
    where: dict[str, list[str]] = {}
    for path in sources:
        text = open(path).read()
        names = DEFINITION.findall(text)
        for macro, found in stamps.items():
            for arg in re.findall(rf"^{macro}\((\w+)", text, re.M):
                names += [pre + arg + suf for pre, suf in found]
        for name in names:
            where.setdefault(name, []).append(os.path.basename(path))
    return where


def misplaced(kernels_dir: str) -> list[str]:
    """Every way kernels_dir breaks the layout, as readable lines (empty: it follows it)."""
    fam = family_of()
    problems = []
    where = definitions(kernels_dir)
    for name, files in sorted(where.items()):
        if name not in fam:
            problems.append(f"{name} ({', '.join(files)}) is not a catalogue function")
            continue
        want = fam[name] + ".cpp"
        for f in files:
            if f != want:
                problems.append(f"{name} is defined in {f}, its family's file is {want}")
    defining = {f for files in where.values() for f in files}
    families = set(fam.values())
    for path in sorted(glob.glob(os.path.join(kernels_dir, "*.cpp"))):
        f = os.path.basename(path)
        if NON_FAMILY.fullmatch(f):
            if f in defining:
                problems.append(f"{f} is no family's file but defines DIOPI kernels")
        elif f[:-4] not in families:
            problems.append(f"{f} is named after no catalogue family")
        elif f not in defining:
            problems.append(f"{f} defines no kernel of its family")
    return problems


def test_sim_kernels_live_in_their_familys_file():
    assert misplaced(SIM_KERNELS) == []
    # and the reading found the kernels: sim implements most of the catalogue
    assert len(definitions(SIM_KERNELS)) > 0.7 * len(family_of())


def test_a_misplaced_kernel_is_reported(tmp_path):
    """The check can fail: a kernel moved into another family's file, a file named after no
    family, and a macro-stamped entry point in the wrong file are each reported."""
    kernels = tmp_path / "kernels"
    shutil.copytree(SIM_KERNELS, kernels)
    add = (kernels / "add.cpp").read_text()
    body = re.search(r"^diopiError_t diopiAddInp\(.*?^}\n", add, re.S | re.M).group(0)
    (kernels / "add.cpp").write_text(add.replace(body, ""))
    (kernels / "mul.cpp").write_text((kernels / "mul.cpp").read_text() + "\n" + body)
    (kernels / "misc.cpp").write_text("// nothing\n")
    (kernels / "common" / "stamp.h").write_text(
        "#define STAMP(Name) \\\n  diopiError_t diopi##Name##Inp(diopiContextHandle_t ctx) {}\n")
    (kernels / "sub.cpp").write_text((kernels / "sub.cpp").read_text() + "\nSTAMP(Neg)\n")
    assert misplaced(str(kernels)) == [
        "diopiAddInp is defined in mul.cpp, its family's file is add.cpp",
        "diopiNegInp is defined in sub.cpp, its family's file is neg.cpp",
        "misc.cpp is named after no catalogue family",
    ]


def _built_sim() -> str:
    build = os.environ.get("OPWEAVE_BUILD_DIR", os.path.join(REPO, "build"))
    return os.path.join(build, "lib", "libopweave_vendor_sim.so")


@pytest.mark.skipif(shutil.which("nm") is None or not os.path.exists(_built_sim()),
                    reason="needs nm and a built sim (make build)")
def test_the_reading_misses_no_exported_kernel():
    out = subprocess.run(["nm", "-D", "--defined-only", _built_sim()], capture_output=True,
                         text=True, check=True).stdout
    exported = {line.split()[-1] for line in out.splitlines() if line.split()[-1:]
                and line.split()[-1].startswith("diopi")}
    catalogue = set(family_of())
    assert exported & catalogue == set(definitions(SIM_KERNELS)) & catalogue
