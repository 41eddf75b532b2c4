"""Graph-mode (DICP) vendor catalogues: specs/dicp/<vendor>.yaml -> validated model.

Run in the load phase (codegen/pipeline.py), after the op model it is checked against. A
vendor catalogue declares the vendor's graph ops (ports, typed attributes, a shape/dtype
inference rule and how the op runs: a DIOPI kernel of specs/ops.yaml, a runtime view, or
only a CPU reference for chips we do not have) and the conversion table from ATen ops to
them. Conversions are data (`map`, `decomp`, `unsupported`) or a named hand-written Python
handler (`custom`). Every problem becomes a SpecError with the catalogue's file:line, like
specs/ops.yaml's, and the problems of every file are reported together.
"""

from __future__ import annotations

import os
from typing import Optional

from ..aten_index import AtenIndex
from ..errors import SpecError, SpecErrors
from ..model import Catalogue
from ..render import REPO_ROOT
from ..yaml_loader import LineDict, LineList, load_yaml
from .conversions import ConversionLoader
from .model import VendorCatalogue
from .vocab import TOP_KEYS


class VendorLoader(ConversionLoader):
    def build(self, doc, expected_vendor: str) -> VendorCatalogue:
        if not isinstance(doc, LineDict):
            raise SpecErrors([SpecError(self.path, 1, None, "a vendor catalogue must be a mapping")])
        self.check_keys(doc, TOP_KEYS, None, "the vendor catalogue")
        if doc.get("version", 1) != 1:
            self.err(doc.line_of("version"), None, f"unsupported version {doc.get('version')!r}")
        vendor = doc.get("vendor")
        if vendor != expected_vendor:
            self.err(doc.line_of("vendor"), None, f"vendor {vendor!r} must match the file name "
                                                  f"'{expected_vendor}.yaml'")
        vdoc = self.text(doc.get("doc"), doc.line_of("doc"), vendor, "doc")
        executable = doc.get("executable")
        if not isinstance(executable, bool):
            self.err(doc.line_of("executable"), vendor, "'executable' must be true or false")
            executable = False
        self.executable = executable
        data_format = self.rewrite_pass(doc.get("data_format"), doc.line_of("data_format"),
                                        vendor, "data_format hook", "hook")
        fusions = []
        raw_f = doc.get("fusions", [])
        if not isinstance(raw_f, list):
            self.err(doc.line_of("fusions"), vendor, "'fusions' must be a list")
            raw_f = []
        for i, f in enumerate(raw_f):
            line = raw_f.line_of(i) if isinstance(raw_f, LineList) else doc.line_of("fusions")
            name = self.rewrite_pass(f, line, vendor, "fusion", "rewrite")
            if name:
                fusions.append(name)

        for raw in self.entries(doc, "vendor_ops", vendor, "vendor op"):
            op = self.build_op(raw)
            if op is not None:
                if op.name in self.ops:
                    self.err(raw.line_of("name"), op.name, "duplicate vendor op (first defined at "
                                                           f"line {self.ops[op.name].line})")
                    continue
                self.ops[op.name] = op

        conversions = []
        for raw in self.entries(doc, "conversions", vendor, "conversion"):
            conv = self.build_conversion(raw)
            if conv is not None:
                conversions.append(conv)
        self.check_reachability(conversions)
        used = {c.map.op for c in conversions if c.map} | \
               {s.op for c in conversions for s in c.steps if s.op} | \
               {u for c in conversions for u in c.uses}
        for line, what, uses in self.pass_uses:
            for u in uses:
                if u not in self.ops:
                    self.err(line, vendor, f"{what} 'uses' names unknown vendor op {u!r}")
            used |= set(uses)
        for op in self.ops.values():
            if op.name not in used:
                self.err(op.line, op.name, "vendor op is not produced by any conversion "
                                           "(a dead entry)")
        if self.errors:
            raise SpecErrors(self.errors)
        return VendorCatalogue(vendor, self.path, vdoc, executable, data_format, tuple(fusions),
                               tuple(self.ops.values()), tuple(conversions))

    def entries(self, doc: LineDict, key: str, who, what: str) -> list:
        """The mappings of the required non-empty list doc[key]; without it the file cannot
        be checked further, so its errors are raised now."""
        raw = doc.get(key)
        if not isinstance(raw, LineList) or not raw:
            self.err(doc.line_of(key), who, f"'{key}' must be a non-empty list")
            raise SpecErrors(self.errors)
        out = []
        for i, item in enumerate(raw):
            if isinstance(item, LineDict):
                out.append(item)
            else:
                self.err(raw.line_of(i), who, f"each {what} must be a mapping")
        return out

    def rewrite_pass(self, raw, line, who, what, key) -> str:
        """A graph pass: a dotted name, or {KEY: dotted name, uses: [vendor ops it emits]}."""
        if isinstance(raw, LineDict):
            if not self.check_keys(raw, {key: True, "uses": False}, who, f"a {what}"):
                return ""
            uses = raw.get("uses", [])
            if not isinstance(uses, list) or not all(isinstance(u, str) for u in uses):
                self.err(raw.line_of("uses"), who, f"{what} 'uses' must list vendor op names")
                uses = []
            self.pass_uses.append((raw.line_of("uses"), what, tuple(uses)))
            return self.python_name(raw[key], raw.line_of(key), who, what)
        return self.python_name(raw, line, who, what)


def load_vendor(path: str, display: str, cat: Catalogue, index: AtenIndex,
                runtime_root: Optional[str] = None) -> VendorCatalogue:
    doc = load_yaml(path, display)
    vendor = os.path.splitext(os.path.basename(path))[0]
    root = runtime_root or os.path.join(REPO_ROOT, "runtime", "python")
    return VendorLoader(display, cat, index, root).build(doc, vendor)


def load_all(spec_dir: str, cat: Catalogue, index: AtenIndex) -> list[VendorCatalogue]:
    """Every specs/dicp/<vendor>.yaml, sorted by vendor; all files' errors reported together."""
    out, errors = [], []
    for name in sorted(os.listdir(spec_dir)):
        if not name.endswith(".yaml"):
            continue
        path = os.path.join(spec_dir, name)
        try:
            out.append(load_vendor(path, path, cat, index))
        except SpecErrors as e:
            errors.extend(e.errors)
        except SpecError as e:
            errors.append(e)
    if errors:
        raise SpecErrors(errors)
    return out
