"""Load phase for what each vendor's kernels accept (vendors/<name>/kernel_support*.yaml).

The file is data, validated like the catalogue (file:line, every problem collected, nothing
written) and checked against it: a family or function it names must exist, and a dtype it
accepts must be one the catalogue lists for that family. The result feeds the adaptor
emitter (emit_adaptor.py): the generated table the vendor exports, and the conversions the
runtime makes for the difference between the catalogue's dtypes and the vendor's.

    narrowing: false          # true: float64 -> float32 and int64 -> int32 (precision loss)
    default:                  # every function of the catalogue
      contiguous: true
    families:                 # per family (the catalogue's `name`)
      softmax: {dtypes: [float32]}
    functions:                # per DIOPI function: wins over its family and the default
      diopiAdd: {dtypes: [float32, int64]}

`kernel_support.yaml` describes the vendor's library; `kernel_support.<variant>.yaml` a
configuration its CMakeLists.txt builds as a second library (libopweave_vendor_<name>_<variant>).
"""

from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass
from typing import Optional

from .build_model import _Builder
from .errors import SpecErrors, did_you_mean
from .model import Catalogue, DiopiFunction
from .yaml_loader import LineDict, load_yaml

TOP_KEYS = {"narrowing": False, "default": False, "families": False, "functions": False}
RULE_KEYS = {"dtypes": False, "contiguous": False}
FILE_NAME = re.compile(r"^kernel_support(?:\.([a-z][a-z0-9_]*))?\.yaml$")
# The adaptor converts with these two kernels, so they must take every dtype as they are.
ADAPTOR_KERNELS = ("diopiCastDtype", "diopiCopyInp")


@dataclass(frozen=True)
class KernelRule:
    function: str
    dtypes: tuple[str, ...]   # what the kernel accepts among its family's catalogue dtypes
    contiguous: bool


@dataclass(frozen=True)
class VendorSupport:
    vendor: str
    variant: str              # "" for the vendor's own library
    source: str               # the YAML file, repo-relative
    narrowing: bool
    rules: tuple[KernelRule, ...]   # only functions that differ from "everything, strided"

    @property
    def library(self) -> str:
        return self.vendor + (f"_{self.variant}" if self.variant else "")


def support_files(vendors_dir: str) -> list[tuple[str, str, str]]:
    """(vendor, variant, path) of every kernel_support file, sorted."""
    found = []
    for path in sorted(glob.glob(os.path.join(vendors_dir, "*", "kernel_support*.yaml"))):
        m = FILE_NAME.match(os.path.basename(path))
        if m:
            found.append((os.path.basename(os.path.dirname(path)), m.group(1) or "", path))
    return found


class _SupportBuilder(_Builder):
    def __init__(self, display: str, cat: Catalogue):
        super().__init__(display, index=None)
        self.cat = cat
        self.families = {fam.name: fam for fam in cat.families}
        self.functions = {fn.name: fn for fn in cat.functions}
        self.function_lines: dict[str, int] = {}

    def rule_of(self, value, line: int, who: str) -> Optional[dict]:
        if not isinstance(value, LineDict):
            self.err(line, who, "must be a mapping with 'dtypes' and/or 'contiguous'")
            return None
        self.check_keys(value, RULE_KEYS, who, f"the rule of '{who}'")
        rule: dict = {}
        if "dtypes" in value:
            rule["dtypes"] = (self.check_dtypes(value["dtypes"], value.line_of("dtypes"), who,
                                                "dtypes"), value.line_of("dtypes"))
        if "contiguous" in value:
            if not isinstance(value["contiguous"], bool):
                self.err(value.line_of("contiguous"), who, "'contiguous' must be true or false")
            else:
                rule["contiguous"] = value["contiguous"]
        return rule

    def section(self, doc: LineDict, key: str, what: str, known: dict) -> dict[str, dict]:
        value = doc.get(key)
        if value is None:
            return {}
        if not isinstance(value, LineDict):
            self.err(doc.line_of(key), None, f"'{key}' must map names to rules")
            return {}
        out = {}
        for name, rule in value.items():
            if name not in known:
                close = did_you_mean(name, known)
                self.err(value.line_of(name), name, f"not a {what} of the catalogue{close}")
                continue
            parsed = self.rule_of(rule, value.line_of(name), name)
            if parsed is not None:
                out[name] = parsed
                self.function_lines[name] = value.line_of(name)
        return out

    def effective(self, fn: DiopiFunction, layers: list[dict]) -> Optional[KernelRule]:
        fam = self.families[fn.family]
        if fn.name in ADAPTOR_KERNELS:
            # exempt from the default and its family; naming it on its own is a mistake
            if layers[-1]:
                line = layers[-1].get("dtypes", (None, None))[1] or self.function_lines[fn.name]
                self.err(line, fn.name, "the adaptor converts with this kernel, so it must "
                         "accept every catalogue dtype of its family, strided")
            return None
        dtypes, contiguous, dtypes_line = fam.dtypes, False, 0
        for layer in layers:
            if "dtypes" in layer:
                dtypes, dtypes_line = layer["dtypes"]
            contiguous = layer.get("contiguous", contiguous)
        if dtypes_line:
            outside = [d for d in dtypes if d not in fam.dtypes]
            if outside:
                self.err(dtypes_line, fn.name, f"accepts {', '.join(outside)}, which the catalogue "
                         f"does not list for family '{fam.name}' ({', '.join(fam.dtypes)})")
        kept = tuple(d for d in fam.dtypes if d in dtypes)
        if kept == fam.dtypes and not contiguous:
            return None
        return KernelRule(fn.name, kept, contiguous)


def load_support(path: str, display: str, vendor: str, variant: str,
                 cat: Catalogue) -> VendorSupport:
    b = _SupportBuilder(display, cat)
    doc = load_yaml(path, display)
    if doc is None:  # only comments (the scaffold's): nothing restricted
        return VendorSupport(vendor, variant, display, False, ())
    if not isinstance(doc, LineDict):
        b.err(1, None, "the file must be a mapping (narrowing, default, families, functions)")
        raise SpecErrors(b.errors)
    b.check_keys(doc, TOP_KEYS, None, "a kernel_support file")
    narrowing = doc.get("narrowing", False)
    if not isinstance(narrowing, bool):
        b.err(doc.line_of("narrowing"), None, "'narrowing' must be true or false")
    default = b.rule_of(doc["default"], doc.line_of("default"), "default") \
        if "default" in doc else {}
    families = b.section(doc, "families", "family", b.families)
    functions = b.section(doc, "functions", "DIOPI function", b.functions)
    rules = []
    for fn in cat.functions:
        layers = [default or {}, families.get(fn.family, {}), functions.get(fn.name, {})]
        rule = b.effective(fn, layers)
        if rule is not None:
            rules.append(rule)
    if b.errors:
        raise SpecErrors(b.errors)
    return VendorSupport(vendor, variant, display, narrowing is True, tuple(rules))


def _display(path: str) -> str:
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def load_all(vendors_dir: str, cat: Catalogue) -> tuple[VendorSupport, ...]:
    out, errors = [], []
    for vendor, variant, path in support_files(vendors_dir):
        try:
            out.append(load_support(path, _display(path), vendor, variant, cat))
        except SpecErrors as e:
            errors.extend(e.errors)
    if errors:
        raise SpecErrors(errors)
    return tuple(out)
