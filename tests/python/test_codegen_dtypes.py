"""One dtype vocabulary: every dtype list and the C++ tolerance slots come from codegen/dtypes.py."""

import dataclasses
import os
import re
import shutil
import subprocess

import pytest

from codegen import dtypes

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER = os.path.join(REPO, "generated", "aten", "tolerance_slots.h")


def test_lists_are_derived_from_the_one_table():
    catalogue = set(dtypes.CATALOGUE_DTYPES)
    assert set(dtypes.KERNEL_DTYPES) == catalogue and len(dtypes.KERNEL_DTYPES) == len(catalogue)
    assert dtypes.FLOAT_DTYPES == dtypes.TOLERANCE_DTYPES
    assert all(dtypes.BY_NAME[d].kind == "float" for d in dtypes.FLOAT_DTYPES)
    assert {d.name for d in dtypes.DTYPES if d.kind == "float" and d.in_catalogue} == \
        set(dtypes.FLOAT_DTYPES)
    assert set(dtypes.ATEN_DTYPES) == catalogue
    assert [d.diopi_value for d in dtypes.DTYPES] == sorted(d.diopi_value for d in dtypes.DTYPES)


@pytest.mark.parametrize("change,why", [
    (lambda d: dataclasses.replace(d, tolerance_slot=None) if d.name == "bfloat16" else d,
     "bfloat16: a floating catalogue dtype needs a tolerance slot"),
    (lambda d: dataclasses.replace(d, tolerance_slot=4) if d.name == "int32" else d,
     "int32: only floating catalogue dtypes have a tolerance slot"),
    (lambda d: dataclasses.replace(d, kind="fixed") if d.name == "int8" else d,
     "int8: kind 'fixed'"),
])
def test_an_inconsistent_table_is_refused(change, why):
    with pytest.raises(dtypes.DtypeTableError, match=re.escape(why)):
        dtypes._check(tuple(change(d) for d in dtypes.DTYPES))


def test_runtime_uses_the_generated_slots():
    registry = open(os.path.join(REPO, "runtime", "include", "opweave", "op_registry.h")).read()
    assert '#include "aten/tolerance_slots.h"' in registry
    assert "float atol[kToleranceSlots]" in registry
    for root in ("runtime", "vendors"):   # no hand-kept copy of the slot table
        for dirpath, _dirs, names in os.walk(os.path.join(REPO, root)):
            for name in names:
                if name.endswith((".h", ".cpp", ".cu")):
                    text = open(os.path.join(dirpath, name), errors="replace").read()
                    assert "enum ToleranceSlot" not in text, os.path.join(dirpath, name)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_generated_header_agrees_with_the_table(tmp_path):
    """Each DIOPI dtype's slot, checked by the C++ compiler against the Python table."""
    checks = [f"static_assert(opweave::kToleranceSlots == {len(dtypes.TOLERANCE_DTYPES)}, \"n\");"]
    for d in dtypes.DTYPES:
        if d.tolerance_slot is not None:
            want = f"opweave::{d.slot_constant}"
            checks.append(f"static_assert(opweave::{d.slot_constant} == {d.tolerance_slot}, \"{d.name}\");")
        elif d.in_catalogue:
            want = "opweave::kCompareExactly"
        else:
            want = "opweave::kNoTolerance"
        checks.append(f"static_assert(opweave::tolerance_slot(diopi_dtype_{d.name}) == {want}, "
                      f"\"{d.name}\");")
    src = tmp_path / "slots.cpp"
    src.write_text('#include "aten/tolerance_slots.h"\n' + "\n".join(checks) + "\n")
    proc = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror",
                           "-I", os.path.join(REPO, "generated"), str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
