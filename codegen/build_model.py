"""Validate the loaded catalogue and build the immutable op model.

Every problem becomes a SpecError carrying the catalogue line and op name; problems in
different entries are collected so one `make gen` run reports them all.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from . import ctypes_map
from .aten_index import AtenIndex
from .conformance_spec import ConformanceParser
from .dtypes import CATALOGUE_DTYPES, TOLERANCE_DTYPES
from .errors import SpecError, SpecErrors
from .model import AtenBinding, Catalogue, DiopiArg, DiopiFunction, OpFamily, Tolerance
from .model_bindings import BindingParser
from .model_versions import VersionFacts
from .torch_info import torch_version
from .validate import C_IDENT, Checker
from .yaml_loader import LineDict, LineList

TOP_KEYS = {"version": False, "tolerances": True, "ops": True, "foreach": False,
            "aten_since": False, "composite_until": False, "composite_since": False,
            "scalar_since": False}
OP_KEYS = {"name": True, "doc": True, "dtypes": True, "functions": True, "tolerance": False,
           "autocompare": False}
FN_KEYS = {"diopi": True, "aten": False, "args": False, "outputs": False, "ignore": False,
           "computed": False, "dtypes": False, "doc": False, "derive": False, "runtime": False,
           "output_mask": False, "extension": False, "conformance": False}

FAMILY_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
DIOPI_NAME = re.compile(r"^diopi[A-Z][A-Za-z0-9_]*$")

ARG_DOCS = {
    "input": "the input tensor", "out": "the output tensor", "other": "the second operand",
    "alpha": "multiplier applied to `other`", "beta": "multiplier applied to `input`",
    "grad_input": "gradient with respect to the input", "grad_output": "gradient of the output",
    "output": "the forward result", "dim": "the dimension(s) to reduce or operate along",
    "mat1": "the first matrix", "mat2": "the second matrix", "value": "the fill value",
    "exponent": "the exponent", "target": "class indices", "weight": "per-class weights",
    "reduction": "how the loss is reduced", "ignore_index": "target value that is ignored",
    "threshold": "the threshold", "approximate": "approximation: \"none\" or \"tanh\"",
    "src": "the source tensor", "dest": "the destination tensor",
}



class _Builder(VersionFacts, BindingParser, Checker):
    def __init__(self, path: str, index: AtenIndex, unique_aten: bool = True):
        super().__init__(path)
        self.unique_aten = unique_aten
        self.index = index
        self.seen_families: dict[str, int] = {}
        self.seen_diopi: dict[str, int] = {}
        self.claimed: dict[str, str] = {}   # ATen overload -> DIOPI function claiming it
        self.widened: frozenset[str] = frozenset()   # `scalar_since` overloads
        self.counts: dict[tuple[str, str], str] = {}  # (function, tensor-list arg) -> count name
        self.values: dict[tuple[str, str], Any] = {}  # (function, arg) -> `value` (literal or helper)
        # (function, arg) -> (`dir` or None, `optional`) of a runtime-only function's argument
        self.runtime_opts: dict[tuple[str, str], tuple[Optional[str], bool]] = {}
        self.conformance = ConformanceParser(self)   # each function's `conformance:`

    def check_dtypes(self, value: Any, line: int, op: str, field: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not value:
            self.err(line, op, f"'{field}' must be a non-empty list of dtypes")
            return ()
        out = []
        for i, d in enumerate(value):
            if d not in CATALOGUE_DTYPES:
                at = value.line_of(i) if isinstance(value, LineList) else line
                self.err(at, op, f"unknown dtype '{d}' in '{field}' (known: {', '.join(CATALOGUE_DTYPES)})")
            elif d in out:
                self.err(line, op, f"dtype '{d}' listed twice in '{field}'")
            else:
                out.append(d)
        return tuple(out)

    def check_tolerances(self, value: Any, line: int, op: Optional[str]) -> dict[str, Tolerance]:
        if not isinstance(value, dict):
            self.err(line, op, "tolerances must map dtype -> [atol, rtol]")
            return {}
        out = {}
        for dtype, pair in value.items():
            at = value.line_of(dtype) if isinstance(value, LineDict) else line
            if dtype not in CATALOGUE_DTYPES:
                self.err(at, op, f"unknown dtype '{dtype}' in tolerances")
                continue
            if (not isinstance(pair, list) or len(pair) != 2 or
                    not all(isinstance(x, (int, float)) and not isinstance(x, bool) and x >= 0
                            for x in pair)):
                self.err(at, op, f"tolerance for {dtype} must be [atol, rtol] with numbers >= 0")
                continue
            out[dtype] = Tolerance(float(pair[0]), float(pair[1]))
        return out

    # -- the catalogue ---------------------------------------------------------------------
    def build(self, doc: Any) -> Catalogue:
        if not isinstance(doc, LineDict):
            raise SpecErrors([SpecError(self.path, 1, None, "the catalogue must be a mapping "
                                        "with 'tolerances' and 'ops'")])
        self.check_keys(doc, TOP_KEYS, None, "the catalogue")
        version = doc.get("version", 1)
        if version != 1:
            self.err(doc.line_of("version"), None, f"unsupported catalogue version {version!r}")
        defaults = self.check_tolerances(doc.get("tolerances", {}), doc.line_of("tolerances"), None)
        given = doc.get("tolerances")
        missing = [d for d in TOLERANCE_DTYPES if isinstance(given, dict) and d not in given]
        if missing:
            # No silent default: autocompare and the conformance suite compare with these.
            self.err(doc.line_of("tolerances"), None,
                     f"tolerances: no [atol, rtol] for {', '.join(missing)} (every floating "
                     f"dtype needs one: {', '.join(TOLERANCE_DTYPES)})")
        hidden = self.build_aten_since(doc)
        composite = self.build_composite_until(doc) | self.build_composite_since(doc)
        self.widened = self.build_scalar_since(doc)
        self.index = self.index.hiding(hidden).composite_also(composite).widening(self.widened)
        ops = doc.get("ops")
        if not isinstance(ops, LineList):
            self.err(doc.line_of("ops"), None, "'ops' must be a list of op entries")
            raise SpecErrors(self.errors)
        entries = [e for e in ops if isinstance(e, LineDict)]
        for i, e in enumerate(ops):
            if not isinstance(e, LineDict):
                self.err(ops.line_of(i), None, "each entry of 'ops' must be a mapping")
        self.collect_claims(entries)
        families = []
        for entry in entries:
            fam = self.build_family(entry, defaults)
            if fam is not None:
                families.append(fam)
        foreach = self.build_foreach(doc, families)
        if self.errors:
            raise SpecErrors(self.errors)
        return Catalogue(self.path, tuple(families), torch_version(), foreach, hidden)


    def collect_claims(self, entries: list[LineDict]) -> None:
        """First pass: which ATen overloads are named explicitly (they are never derived).

        An overload routed twice would register two PrivateUse1 kernels: reported here."""
        first_line: dict[str, int] = {}
        for entry in entries:
            for fn in entry.get("functions") or []:
                if not isinstance(fn, LineDict):
                    continue
                aten = fn.get("aten")
                texts = aten if isinstance(aten, list) else [aten] if aten else []
                for i, text in enumerate(texts):
                    if not isinstance(text, str):
                        continue
                    overload = text.split("(")[0].strip()
                    line = aten.line_of(i) if isinstance(aten, LineList) else fn.line_of("aten")
                    if overload in self.claimed and self.unique_aten:
                        self.err(line, str(fn.get("diopi")),
                                 f"ATen overload '{overload}' is already routed to "
                                 f"{self.claimed[overload]} (line {first_line[overload]})")
                        continue
                    self.claimed.setdefault(overload, str(fn.get("diopi")))
                    first_line.setdefault(overload, line)

    def build_family(self, e: LineDict, defaults: dict[str, Tolerance]) -> Optional[OpFamily]:
        name = e.get("name")
        op = name if isinstance(name, str) else None
        if not self.check_keys(e, OP_KEYS, op, "an op entry"):
            return None
        if not isinstance(name, str) or not FAMILY_NAME.match(name):
            self.err(e.line_of("name"), op, f"op name {name!r} must be lower_snake_case")
            return None
        if name in self.seen_families:
            self.err(e.line_of("name"), name,
                     f"duplicate op name (first defined at line {self.seen_families[name]})")
            return None
        self.seen_families[name] = e.line_of("name")
        doc = self.check_text(e["doc"], e.line_of("doc"), name, "doc")
        dtypes = self.check_dtypes(e["dtypes"], e.line_of("dtypes"), name, "dtypes")
        tol = dict(defaults)
        tol.update(self.check_tolerances(e.get("tolerance", {}), e.line_of("tolerance"), name))
        compare, reason = True, ""
        if "autocompare" in e:
            ac = e["autocompare"]
            if ac is True:
                pass
            elif isinstance(ac, LineDict) and set(ac) <= {"enabled", "reason"} and ac.get("enabled") is False:
                compare = False
                reason = self.check_text(ac.get("reason"), e.line_of("autocompare"), name,
                                         "autocompare.reason")
            else:
                self.err(e.line_of("autocompare"), name,
                         "autocompare must be true or {enabled: false, reason: <why>}")
        fns_raw = e["functions"]
        if not isinstance(fns_raw, LineList) or not fns_raw:
            self.err(e.line_of("functions"), name, "'functions' must be a non-empty list")
            return None
        functions = []
        for i, f in enumerate(fns_raw):
            if not isinstance(f, LineDict):
                self.err(fns_raw.line_of(i), name, "each function must be a mapping")
                continue
            fn = self.build_function(f, name, dtypes)
            if fn is not None:
                functions.append(fn)
        functions = self.conformance.resolve_family(name, functions)
        return OpFamily(name, doc, dtypes, tuple(sorted(tol.items())), compare, reason,
                        tuple(functions), e.line)

    # -- one DIOPI function -----------------------------------------------------------------
    def build_function(self, f: LineDict, family: str, family_dtypes) -> Optional[DiopiFunction]:
        raw_name = f.get("diopi")
        op = raw_name if isinstance(raw_name, str) else family
        if not self.check_keys(f, FN_KEYS, op, "a function entry"):
            return None
        name = raw_name
        if not isinstance(name, str) or not C_IDENT.match(name):
            self.err(f.line_of("diopi"), family, f"DIOPI name {name!r} is not a C identifier")
            return None
        if not DIOPI_NAME.match(name):
            self.err(f.line_of("diopi"), name, "DIOPI name must look like diopiCamelCase")
            return None
        if name in self.seen_diopi:
            self.err(f.line_of("diopi"), name,
                     f"duplicate DIOPI function (first defined at line {self.seen_diopi[name]})")
            return None
        self.seen_diopi[name] = f.line_of("diopi")
        nerr = len(self.errors)
        doc = self.check_text(f["doc"], f.line_of("doc"), name, "doc") if "doc" in f else ""
        # A function DIOPI does not have (argmin): kept under DIOPI's naming, and marked in the
        # header so a vendor knows no other DIOPI implementation will provide it.
        extension = (self.check_text(f["extension"], f.line_of("extension"), name, "extension")
                     if "extension" in f else "")
        runtime_use = ""
        if "runtime" in f:
            runtime_use = self.check_text(f["runtime"], f.line_of("runtime"), name, "runtime")

        schemas = self.parse_schemas(f, name)
        if schemas is None:
            return None
        if not schemas and not runtime_use:
            self.err(f.line, name, "needs 'aten' (the overloads it implements) or 'runtime' "
                                   "(who calls it)")
            return None

        arg_specs = self.parse_arg_specs(f, name, schemas)
        if arg_specs is None:
            return None
        raw_ignore = f.get("ignore")
        if isinstance(raw_ignore, dict) and len(schemas) > 1:
            # with several overloads, an entry applies to those that have the argument
            every = {a.name for schema, _ in schemas for a in schema.arguments.flat_all}
            for key in raw_ignore:
                if key not in every:
                    self.err(raw_ignore.line_of(key), name, f"'ignore' names '{key}', which is "
                                                            "not an argument of any of its overloads")
                    return None
        arg_dtypes = dict(f.get("dtypes") or {})
        for k in arg_dtypes:
            if k not in [a[0] for a in arg_specs]:
                self.err(f.line_of("dtypes"), name, f"'dtypes' names unknown DIOPI argument '{k}'")

        bindings: list[AtenBinding] = []
        params: dict[str, tuple[ctypes_map.CParam, str]] = {}
        if not schemas:  # runtime-only: C types come from the spec
            for arg_name, _src, typ, _doc in arg_specs:
                param = ctypes_map.RUNTIME_ARG_TYPES.get(typ)
                if param is None:
                    self.err(f.line_of("args"), name, f"argument '{arg_name}' of a runtime-only "
                             f"function needs 'type' (one of: {', '.join(ctypes_map.RUNTIME_ARG_TYPES)})")
                    return None
                direction = "out" if param.ctype == "diopiTensorHandle_t" else "in"
                given_dir, optional = self.runtime_opts.get((name, arg_name), (None, False))
                if given_dir is not None:
                    if param.kind != "tensor" or (param.ctype == "diopiConstTensorHandle_t"
                                                  and given_dir != "in"):
                        self.err(f.line_of("args"), name, f"'dir: {given_dir}' of argument "
                                 f"'{arg_name}' needs a tensor handle that may be written "
                                 "(diopiTensorHandle_t)")
                        return None
                    direction = given_dir
                if optional:
                    if param.kind != "tensor":
                        self.err(f.line_of("args"), name, f"'optional' argument '{arg_name}' "
                                 "must be a tensor handle")
                        return None
                    param = ctypes_map.CParam(param.ctype, param.kind, True)
                params[arg_name] = (param, direction)
        else:
            for (fn_name, arg_name) in self.runtime_opts:
                if fn_name == name:
                    self.err(f.line_of("args"), name, f"'dir' / 'optional' of argument "
                             f"'{arg_name}' are for runtime-only functions (an ATen-bound "
                             "argument takes them from the schema)")
                    return None
        for idx, (schema, line) in enumerate(schemas):
            b = self.bind(f, name, schema, line, arg_specs, params, primary=(idx == 0))
            if b is None:
                continue
            bindings.append(b)
            if b.variant == "out" and f.get("derive", True) is not False:
                bindings.extend(self.derive(f, name, b, line))
        if len(self.errors) > nerr:
            return None

        # An ATen argument written in place that DIOPI also takes as a read-only input
        # (masked_scatter_'s self): DIOPI's output is then a pure output, written from it.
        read_too = {src.aten_name for b in bindings for n, src in b.sources
                    if src.kind == "arg" and params.get(n, (None, ""))[1] == "in"}
        args = []
        for arg_name, _src, type_override, arg_doc in arg_specs:
            param, direction = params.get(arg_name, (None, "in"))
            if direction == "inout" and any(
                    n == arg_name and src.kind == "arg" and src.aten_name in read_too
                    for b in bindings for n, src in b.sources):
                direction = "out"
            if param is None:
                self.err(f.line_of("args"), name, f"argument '{arg_name}' is not bound by any "
                                                  "ATen overload; give it a 'type'")
                continue
            dts = ()
            if param.kind in ("tensor", "tensor_list", "tensor_alloc"):
                dts = family_dtypes
                if arg_name in arg_dtypes:
                    dts = self.check_dtypes(arg_dtypes[arg_name], f.line_of("dtypes"), name,
                                            f"dtypes.{arg_name}")
            count = self.counts.get((name, arg_name), "")
            if count and param.kind != "tensor_list":
                self.err(f.line_of("args"), name, f"'count' given for '{arg_name}', which is not "
                                                  "a tensor list")
            args.append(DiopiArg(arg_name, param.ctype, param.kind, direction, param.optional,
                                 arg_doc or ARG_DOCS.get(arg_name, arg_name.replace("_", " ")),
                                 dts, count))
        conformance = self.conformance.parse(f, name, tuple(args), bool(bindings), self.index)
        if len(self.errors) > nerr:
            return None
        return DiopiFunction(name, family, doc, tuple(args), tuple(bindings), runtime_use,
                             f.line_of("diopi"), extension, conformance)


def build_catalogue(doc: Any, path: str, index: AtenIndex, *, unique_aten: bool = True) -> Catalogue:
    """`unique_aten=False` is for synthetic scaling catalogues (bench/gen_scaling.py) only."""
    return _Builder(path, index, unique_aten).build(doc)
