"""make gen is deterministic and incremental; check-gen catches drift; DIOPI compatibility."""

import os
import re
import shutil
import subprocess
import sys

from codegen.pipeline import load_catalogue

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = os.path.join(REPO, "specs", "ops.yaml")


def codegen(*args, cwd=REPO):
    return subprocess.run([sys.executable, "-m", "codegen", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def snapshot(root):
    """Every generated file (Python's __pycache__, written when generated/dicp is imported, is
    not generated output; codegen's stale-file check skips it too)."""
    return {os.path.relpath(os.path.join(d, n), root): open(os.path.join(d, n), "rb").read()
            for d, _, names in os.walk(root) if "__pycache__" not in d.split(os.sep)
            for n in names}


def test_generation_is_deterministic_and_incremental(tmp_path):
    out = str(tmp_path / "gen")
    first = codegen("gen", "--out", out)
    assert first.returncode == 0, first.stderr
    files = snapshot(out)
    mtimes = {p: os.stat(os.path.join(out, p)).st_mtime_ns for p in files}
    second = codegen("gen", "--out", out)
    assert second.returncode == 0, second.stderr
    assert " 0 files written" in second.stdout
    assert snapshot(out) == files
    assert {p: os.stat(os.path.join(out, p)).st_mtime_ns for p in files} == mtimes


def test_committed_generated_tree_matches_spec():
    proc = codegen("check")
    assert proc.returncode == 0, proc.stderr


def test_check_fails_on_hand_edit_and_names_the_file(tmp_path):
    out = tmp_path / "gen"
    shutil.copytree(os.path.join(REPO, "generated"), out)
    header = out / "diopi" / "functions.h"
    header.write_text(header.read_text() + "\n/* hand edit */\n")
    proc = codegen("check", "--out", str(out))
    assert proc.returncode == 1
    assert "differs: " in proc.stderr and "functions.h" in proc.stderr


def test_check_fails_on_spec_edit(tmp_path):
    spec = tmp_path / "ops.yaml"
    text = open(SPEC).read().replace("doc: Element-wise negation.", "doc: Negates every element.")
    assert "Negates every element" in text
    spec.write_text(text)
    proc = codegen("check", "--spec", str(spec))
    assert proc.returncode == 1
    assert "functions.h" in proc.stderr


def test_stale_generated_file_is_reported_and_removed(tmp_path):
    out = tmp_path / "gen"
    shutil.copytree(os.path.join(REPO, "generated"), out)
    (out / "diopi" / "old.h").write_text("/* left over */")
    assert codegen("check", "--out", str(out)).returncode == 1
    assert codegen("gen", "--out", str(out)).returncode == 0
    assert not (out / "diopi" / "old.h").exists()


def test_every_generated_file_says_do_not_edit():
    for rel, data in snapshot(os.path.join(REPO, "generated")).items():
        assert b"must not" in data[:400] and b"edited by hand" in data[:400], rel


def _prototypes(text):
    protos = {}
    for m in re.finditer(r"(diopi\w+)\((.*?)\)", text, re.S):
        protos[m.group(1)] = re.sub(r"\s+", " ", m.group(2)).replace(" *", "*").strip()
    return protos


def test_signatures_match_diopi_reference():
    header = open(os.path.join(REPO, "generated", "diopi", "functions.h")).read()
    ours = {name: args for name, args in _prototypes(
        "\n".join(re.findall(r"DIOPI_API diopiError_t (diopi\w+\(.*?\));", header, re.S))).items()}
    ref_lines = [l for l in open(os.path.join(REPO, "tests", "data",
                                              "diopi_reference_signatures.txt"))
                 if l.startswith("diopi")]
    reference = _prototypes("".join(ref_lines))
    assert len(ours) >= 40
    checked = [name for name in ours if name in reference]
    for name in checked:
        assert ours[name] == reference[name], f"{name}: ours ({ours[name]}) != DIOPI ({reference[name]})"
    extensions = {fn.name for fn in load_catalogue(os.path.join(REPO, "specs", "ops.yaml")).functions
                  if fn.extension}
    assert not extensions & set(reference), "an extension DIOPI defines must follow DIOPI"
    unchecked = sorted(set(ours) - set(reference) - extensions)
    assert not unchecked, f"functions with no DIOPI reference line (add one or note why): {unchecked}"


def test_a_string_only_the_first_overload_has_is_nullable_and_selects_the_overload():
    # diopiScatter serves scatter.reduce_out (reduce given) and scatter.src_out (reduce null):
    # the wrapper of the second passes null, and aten_ref calls the overload the pointer picks
    cat = load_catalogue(os.path.join(REPO, "specs", "ops.yaml"))
    scatter = next(f for f in cat.functions if f.name == "diopiScatter")
    assert next(a for a in scatter.args if a.name == "reduce").optional
    src = "".join(open(os.path.join(REPO, "generated", "aten_ref", f)).read()
                  for f in sorted(os.listdir(os.path.join(REPO, "generated", "aten_ref")))
                  if f.endswith(".cpp"))
    body = src[src.index("diopiError_t diopiScatter("):]
    body = body[:body.index("\n}\n")]
    assert "if (reduce != nullptr) {  // aten::scatter.reduce_out" in body
    assert "if (reduce == nullptr) {  // aten::scatter.src_out" in body
    # binary_cross_entropy's out= kernel computes the unreduced loss in out: the functional
    bce = src[src.index("diopiError_t diopiBCELoss("):]
    assert "at::_ops::binary_cross_entropy>" in bce[:bce.index("\n}\n")]


def test_a_bool_result_is_a_host_output_the_wrapper_returns():
    # aten::equal -> bool: DIOPI's `bool* out` (diopiEqual), no shaping rule; the wrapper passes
    # the address of a local and returns it, aten_ref stores the CPU op's answer there, and the
    # conformance cases read it back (token `h`) as the reference's result.
    cat = load_catalogue(SPEC)
    equal = next(f for f in cat.functions if f.name == "diopiEqual")
    assert [(a.name, a.ctype, a.kind, a.direction) for a in equal.args][0] == \
        ("out", "bool*", "host_bool", "out")
    gen = os.path.join(REPO, "generated")

    def body_of(folder, start):
        src = "".join(open(os.path.join(gen, folder, f)).read()
                      for f in sorted(os.listdir(os.path.join(gen, folder))) if f.endswith(".cpp"))
        body = src[src.index(start):]
        return body[:body.index("\n}\n")]

    wrapper = body_of("aten", "bool equal_impl(")
    assert "bool result0 = false;" in wrapper and "guard.ctx(), &result0," in wrapper
    assert wrapper.rstrip().endswith("return result0;")
    assert "*out = result;" in body_of("aten_ref", "diopiError_t diopiEqual(")
    cases = open(os.path.join(gen, "conformance", "equal.yaml")).read()
    assert "returns: [out]" in cases and "attrs: {}" in cases and "unsupported" not in cases
    assert "a.host_bool(0), a.const_tensor(1)" in open(
        os.path.join(gen, "conformance", "diopi_calls.inc")).read()
