"""`python3 -m codegen new-vendor NAME` (`make new-vendor NAME=...`): scaffold vendors/NAME/.

Creates a vendor that builds and runs at once: the device-runtime seam with host-memory
defaults and synchronous streams (seam/NAME_seam.cpp), every DIOPI kernel stub copied from
generated/vendor_stubs/ (kernels/<family>.cpp, all returning diopiNoImplement, so every op
falls back to CPU), a CMakeLists.txt, an expectations file for the conformance suite and a
README of next steps.

Re-running is safe: existing files are never overwritten. A catalogue function that no
kernel file of the vendor defines yet is appended as a new stub to kernels/<family>.cpp (or
gets that file when it is missing); functions the vendor already has, filled or not, are
left alone wherever they live.
"""

from __future__ import annotations

import glob
import os
import re
import tempfile
from dataclasses import dataclass, field

import jinja2

from .output_set import GENERATED_MARK
from .render import REPO_ROOT, TEMPLATE_DIR

NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
DEFINITION = re.compile(r'extern\s+"C"\s+diopiError_t\s+(diopi\w+)\s*\(')
RESERVED = {"common", "include", "kernels", "seam", "opweave"}
# torch's own device types: a vendor named like one keeps the default device name "opweave"
# (torch 2.x cannot rename PrivateUse1 to a built-in type).
TORCH_DEVICE_TYPES = {"cpu", "cuda", "mkldnn", "opengl", "opencl", "ideep", "hip", "fpga", "maia",
                      "xla", "vulkan", "metal", "mps", "meta", "hpu", "ve", "lazy", "ipu", "xpu",
                      "mtia", "privateuseone"}


class VendorError(Exception):
    pass


@dataclass
class Scaffold:
    vendor_dir: str
    created: list[str] = field(default_factory=list)
    appended: dict[str, list[str]] = field(default_factory=dict)   # file -> functions
    kept: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)  # vendor functions not in the catalogue


def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True, keep_trailing_newline=True)


def stub_blocks(text: str) -> tuple[str, list[tuple[str, str]]]:
    """(preamble, [(function, block)]) of a generated stub file; blocks are separated by a
    blank line and a function block holds exactly one definition."""
    parts = text.split("\n\n")
    preamble, blocks = [], []
    for part in parts:
        names = DEFINITION.findall(part)
        if len(names) == 1:
            blocks.append((names[0], part.strip("\n") + "\n"))
        elif not blocks:
            preamble.append(part)
        elif names:
            raise VendorError(f"cannot split stub block defining {', '.join(names)}")
    return "\n\n".join(preamble), blocks


def _scaffold_header(family: str, preamble: str) -> str:
    """The stub file's preamble with the generated-file banner replaced by an ownership note."""
    lines = preamble.split("\n")
    if lines and lines[0].startswith("/*") and GENERATED_MARK in " ".join(lines[:3]):
        end = next(i for i, l in enumerate(lines) if l.rstrip().endswith("*/"))
        lines = lines[end + 1:]
    note = (f"// Scaffolded by `make new-vendor` from generated/vendor_stubs/{family}.cpp: this "
            "file is yours.\n// Fill a kernel body and return diopiSuccess; re-running "
            "`make new-vendor` never\n// overwrites it, it only appends stubs for new catalogue "
            "functions.")
    return note + "\n//\n" + "\n".join(lines).strip("\n")


def _write_new(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(tmp, path)


def _defined(kernels_dir: str) -> dict[str, str]:
    """DIOPI function -> the vendor file defining it (any C, C++ or CUDA source under kernels/,
    so kernels moved into .cu files are not scaffolded again as stubs)."""
    found = {}
    for path in sorted(glob.glob(os.path.join(kernels_dir, "**", "*"), recursive=True)):
        if not path.endswith((".cpp", ".cc", ".c", ".cxx", ".cu")) or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for name in DEFINITION.findall(f.read()):
                found.setdefault(name, path)
    return found


def scaffold(name: str, vendors_dir: str | None = None, stubs_dir: str | None = None) -> Scaffold:
    if not NAME.match(name) or name in RESERVED:
        raise VendorError(f"vendor name {name!r} must be lower_snake_case (a-z, 0-9, _), start "
                          "with a letter, be at most 32 characters and not be "
                          f"{', '.join(sorted(RESERVED))}")
    vendors_dir = vendors_dir or os.environ.get("OPWEAVE_VENDORS_DIR") or os.path.join(
        REPO_ROOT, "vendors")
    stubs_dir = stubs_dir or os.path.join(REPO_ROOT, "generated", "vendor_stubs")
    stub_files = sorted(glob.glob(os.path.join(stubs_dir, "*.cpp")))
    if not stub_files:
        raise VendorError(f"no kernel stubs in {stubs_dir}: run `make gen` first")
    vdir = os.path.join(vendors_dir, name)
    result = Scaffold(vdir)
    env = _env()
    context = {"name": name, "NAME": name.upper(), "families": [], "functions": [],
               "device_name": None if name in TORCH_DEVICE_TYPES else name}

    families = []
    for path in stub_files:
        family = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as f:
            preamble, blocks = stub_blocks(f.read())
        families.append((family, preamble, blocks))
        context["families"].append(family)
        context["functions"] += [fn for fn, _ in blocks]

    # Fixed files: written once, never touched again.
    fixed = {
        "CMakeLists.txt": "new_vendor/CMakeLists.txt.j2",
        os.path.join("seam", f"{name}_seam.cpp"): "new_vendor/seam.cpp.j2",
        "expectations.yaml": "new_vendor/expectations.yaml.j2",
        "kernel_support.yaml": "new_vendor/kernel_support.yaml.j2",
        "README.md": "new_vendor/README.md.j2",
    }
    for rel, template in fixed.items():
        path = os.path.join(vdir, rel)
        if os.path.exists(path):
            result.kept.append(path)
            continue
        _write_new(path, env.get_template(template).render(**context))
        result.created.append(path)

    kernels = os.path.join(vdir, "kernels")
    defined = _defined(kernels)
    catalogue = set()
    for family, preamble, blocks in families:
        path = os.path.join(kernels, f"{family}.cpp")
        catalogue.update(fn for fn, _ in blocks)
        missing = [(fn, block) for fn, block in blocks if fn not in defined]
        if not missing:
            result.kept.append(path)
            continue
        if not os.path.exists(path):
            text = _scaffold_header(family, preamble) + "\n\n" + "\n".join(
                block for _, block in missing)
            _write_new(path, text)
            result.created.append(path)
            continue
        with open(path, encoding="utf-8") as f:
            existing = f.read()
        addition = ("\n// ---- stubs for functions added to the catalogue since this file was "
                    "scaffolded\n\n" + "\n".join(block for _, block in missing))
        _write_new(path, existing.rstrip("\n") + "\n" + addition)
        result.appended[path] = [fn for fn, _ in missing]
    result.stale = sorted(fn for fn in defined if fn not in catalogue)
    return result


def main(name: str) -> int:
    import sys
    try:
        r = scaffold(name)
    except VendorError as e:
        print(f"new-vendor: {e}", file=sys.stderr)
        return 1
    rel = os.path.relpath(r.vendor_dir)
    print(f"new-vendor: {rel}: {len(r.created)} files created, "
          f"{sum(len(v) for v in r.appended.values())} new stubs appended, "
          f"{len(r.kept)} existing files left as they are")
    for path in r.created:
        print(f"  created  {os.path.relpath(path)}")
    for path, fns in r.appended.items():
        print(f"  appended {os.path.relpath(path)}: {', '.join(fns)}")
    if r.stale:
        print(f"  note: {', '.join(r.stale)} defined in {rel}/kernels but no longer in the "
              "catalogue")
    print(f"next: make build && OPWEAVE_VENDOR={name} python3 -m opweave.demo.mlp && "
          f"make conformance VENDOR={name}   (see {rel}/README.md)")
    return 0
