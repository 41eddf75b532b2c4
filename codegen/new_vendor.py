"""`python3 -m codegen new-vendor NAME` (`make new-vendor NAME=...`): scaffold vendors/NAME/.

Creates a vendor that builds and runs at once: the device-runtime seam with host-memory
defaults and synchronous streams (seam/NAME_seam.cpp), every DIOPI kernel stub of the catalogue
(kernels/<family>.cpp, all returning diopiNoImplement, so every op falls back to CPU; rendered
from the op model with the templates of generated/vendor_stubs/), a CMakeLists.txt, an
expectations file for the conformance suite and a README of next steps.

Re-running is safe: existing files are never overwritten. A catalogue function that no
kernel file of the vendor defines yet is appended as a new stub to kernels/<family>.cpp (or
gets that file when it is missing); functions the vendor already has, filled or not, are
left alone wherever they live.
"""

from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass, field
from typing import Optional

from . import emit_vendor_stubs
from .errors import SpecError, SpecErrors
from .model import Catalogue
from .output_set import write_file
from .render import REPO_ROOT, clang_format_all, environment, render

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


def family_stubs(cat: Catalogue) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(family, preamble, [(DIOPI function, stub)]) per catalogue family, by family name: the
    stub emitter's pieces, clang-formatted as generated/vendor_stubs/ is."""
    env = environment()
    pieces, layout = {}, []
    for fam in sorted(cat.families, key=lambda f: f.name):
        preamble, stubs = emit_vendor_stubs.family_stubs(env, fam)
        pieces[f"{fam.name}/preamble.cpp"] = preamble
        pieces.update((f"{fam.name}/{fn}.cpp", text) for fn, text in stubs)
        layout.append((fam.name, [fn for fn, _ in stubs]))
    formatted = clang_format_all(pieces)
    return [(family, formatted[f"{family}/preamble.cpp"],
             [(fn, formatted[f"{family}/{fn}.cpp"].strip("\n") + "\n") for fn in fns])
            for family, fns in layout]


def _scaffold_header(family: str, preamble: str) -> str:
    """The stub file's preamble under an ownership note."""
    # the source on a line of its own: a long family name keeps the note within 100 columns
    note = (f"// Scaffolded by `make new-vendor` from\n// generated/vendor_stubs/{family}.cpp: this "
            "file is yours.\n// Fill a kernel body and return diopiSuccess; re-running "
            "`make new-vendor` never\n// overwrites it, it only appends stubs for new catalogue "
            "functions.")
    return note + "\n//\n" + preamble.strip("\n")


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


def _default_catalogue() -> Catalogue:
    from .pipeline import load_catalogue
    return load_catalogue(os.path.join(REPO_ROOT, "specs", "ops.yaml"))


def scaffold(name: str, vendors_dir: str | None = None,
             catalogue: Optional[Catalogue] = None) -> Scaffold:
    """Scaffold (or complete) vendors/`name`/ for `catalogue` (default: specs/ops.yaml)."""
    if not NAME.match(name) or name in RESERVED:
        raise VendorError(f"vendor name {name!r} must be lower_snake_case (a-z, 0-9, _), start "
                          "with a letter, be at most 32 characters and not be "
                          f"{', '.join(sorted(RESERVED))}")
    vendors_dir = vendors_dir or os.environ.get("OPWEAVE_VENDORS_DIR") or os.path.join(
        REPO_ROOT, "vendors")
    families = family_stubs(catalogue or _default_catalogue())
    vdir = os.path.join(vendors_dir, name)
    result = Scaffold(vdir)
    env = environment()
    context = {"name": name, "NAME": name.upper(), "families": [f for f, _, _ in families],
               "functions": [fn for _, _, blocks in families for fn, _ in blocks],
               "device_name": None if name in TORCH_DEVICE_TYPES else name}

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
        write_file(path, render(env, template, **context))
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
            write_file(path, text)
            result.created.append(path)
            continue
        with open(path, encoding="utf-8") as f:
            existing = f.read()
        addition = ("\n// ---- stubs for functions added to the catalogue since this file was "
                    "scaffolded\n\n" + "\n".join(block for _, block in missing))
        write_file(path, existing.rstrip("\n") + "\n" + addition)
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
    except (SpecErrors, SpecError) as e:
        for err in getattr(e, "errors", [e]):
            print(err.format(), file=sys.stderr)
        print("new-vendor: the catalogue has errors (see `make gen`); nothing was written",
              file=sys.stderr)
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
