"""Validate the loaded catalogue and build the immutable op model.

Every problem becomes a SpecError carrying the catalogue line and op name; problems in
different entries are collected so one `make gen` run reports them all.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from .torch_info import torch_version
from torchgen.model import FunctionSchema, SchemaKind

from . import ctypes_map
from .conformance_spec import ConformanceParser
from .aten_index import AtenIndex, symint_neutral
from .dtypes import CATALOGUE_DTYPES, TOLERANCE_DTYPES
from .errors import SpecError, SpecErrors, did_you_mean
from .model import (ArgSource, AtenBinding, Catalogue, DiopiArg, DiopiFunction,
                    ForeachOverload, OpFamily, Tolerance)
from .rules import ARG_HELPERS, COMPUTED_HELPERS, GUARD_HELPERS, OUTPUT_RULES, RuleError, parse_call
from .validate import C_IDENT, Checker
from .yaml_loader import LineDict, LineList

TOP_KEYS = {"version": False, "tolerances": True, "ops": True, "foreach": False,
            "aten_since": False, "composite_until": False, "composite_since": False}
# The oldest torch the generated tree serves (1.13); `aten_since` keys name newer versions.
OLDEST_TORCH = (1, 13)
_VERSION = re.compile(r"^(\d+)\.(\d+)$")
OP_KEYS = {"name": True, "doc": True, "dtypes": True, "functions": True, "tolerance": False,
           "autocompare": False}
FN_KEYS = {"diopi": True, "aten": False, "args": False, "outputs": False, "ignore": False,
           "computed": False, "dtypes": False, "doc": False, "derive": False, "runtime": False,
           "output_mask": False, "extension": False, "conformance": False}
ARG_KEYS = {"name": True, "from": False, "type": False, "doc": False, "count": False,
            "value": False, "dir": False, "optional": False}
RUNTIME_DIRS = ("in", "out", "inout")
# ATen's CPU kernels for `_foreach_*` that only loop over per-tensor ATen ops (device-generic).
SLOW_KERNEL = re.compile(r"^foreach_tensor_\w+_slow_?$")

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


class _Builder(Checker):
    def __init__(self, path: str, index: AtenIndex, unique_aten: bool = True):
        super().__init__(path)
        self.unique_aten = unique_aten
        self.index = index
        self.seen_families: dict[str, int] = {}
        self.seen_diopi: dict[str, int] = {}
        self.claimed: dict[str, str] = {}   # ATen overload -> DIOPI function claiming it
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
        self.index = self.index.hiding(hidden).composite_also(composite)
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

    def build_aten_since(self, doc: LineDict) -> frozenset[str]:
        """`aten_since: {"2.0": [overload, ...]}`: ATen overloads that exist, or have a CPU kernel,
        only from that torch version on. The generator treats them as absent whichever torch
        runs it (so the tree is the same for every supported version), and checks the fact
        against the installed torch."""
        def usable(name: str) -> bool:
            return self.index.schema_text(name) is not None and self.index.has_cpu_kernel(name)
        return self.version_facts(doc, "aten_since", usable, "has no such overload with a CPU kernel",
                                  "already has it, with a CPU kernel")

    def build_composite_until(self, doc: LineDict) -> frozenset[str]:
        """`composite_until: {"2.0": [overload, ...]}`: overloads that are CompositeImplicitAutograd
        only before that torch version (bitwise_and.Scalar got its own kernel in 2.0). The
        generator treats them as composite whichever torch runs it; the generated C++ keeps
        their decomposition behind `__has_include`, so a newer torch builds without it."""
        def before(name: str) -> bool:   # the fact holds on torch older than the key
            return self.index.composite_implicit(name)
        return self.version_facts(doc, "composite_until", lambda n: not before(n),
                                  "still has it as CompositeImplicitAutograd",
                                  "has it with its own kernels, not CompositeImplicitAutograd")

    def build_composite_since(self, doc: LineDict) -> frozenset[str]:
        """`composite_since: {"2.0": [overload, ...]}`: the converse of composite_until, overloads
        that became CompositeImplicitAutograd in that version (diag in 2.0); treated and
        guarded the same way."""
        return self.version_facts(doc, "composite_since", self.index.composite_implicit,
                                  "does not have it as CompositeImplicitAutograd",
                                  "already has it as CompositeImplicitAutograd")

    def version_facts(self, doc: LineDict, key: str, holds_from, missing: str,
                      early: str) -> frozenset[str]:
        """A top-level `{version: [overload, ...]}` fact about torch versions newer than the
        oldest supported one. `holds_from(name)` tells whether the installed torch shows the
        newer behaviour; a fact the installed torch contradicts is an error (`missing` when
        it should show it and does not, `early` when it shows it before the version)."""
        raw = doc.get(key)
        if raw is None:
            return frozenset()
        if not isinstance(raw, LineDict):
            self.err(doc.line_of(key), None,
                     f"'{key}' must map a torch version (\"2.0\") to ATen overload names")
            return frozenset()
        installed = _VERSION.match(".".join(torch_version().split(".")[:2]))
        have = (int(installed.group(1)), int(installed.group(2))) if installed else None
        names_out: set[str] = set()
        for version, names in raw.items():
            line = raw.line_of(version)
            m = _VERSION.match(str(version))
            if not m:
                self.err(line, None, f"'{key}' keys are torch versions like \"2.0\", "
                                     f"got {version!r}")
                continue
            since = (int(m.group(1)), int(m.group(2)))
            if since <= OLDEST_TORCH:
                self.err(line, None, f"'{key}' version {version} is not newer than the "
                                     f"oldest supported torch ({OLDEST_TORCH[0]}.{OLDEST_TORCH[1]})")
                continue
            if not isinstance(names, LineList) or not all(isinstance(n, str) for n in names):
                self.err(line, None, f"'{key}' {version}: a list of ATen overload names")
                continue
            for i, name in enumerate(names):
                holds = holds_from(name)
                if have is not None and have >= since and not holds:
                    self.err(names.line_of(i), name, f"listed under {key} {version} but "
                                                     f"torch {torch_version()} {missing}")
                elif have is not None and have < since and holds:
                    self.err(names.line_of(i), name, f"listed under {key} {version} but "
                                                     f"torch {torch_version()} {early}")
                names_out.add(name)
        return frozenset(names_out)

    def build_foreach(self, doc: LineDict, families) -> tuple[ForeachOverload, ...]:
        """The `foreach:` list: ATen `_foreach_*` overloads whose CPU kernel is one of ATen's
        device-generic slow loops, registered as is for PrivateUse1."""
        raw = doc.get("foreach")
        if raw is None:
            return ()
        if not isinstance(raw, LineList):
            self.err(doc.line_of("foreach"), None, "'foreach' must be a list of ATen overload names")
            return ()
        routed = {b.overload_name: fn.name for fam in families for fn in fam.functions
                  for b in fn.bindings}
        routed.update(self.claimed)
        out, seen = [], {}
        for i, name in enumerate(raw):
            line = raw.line_of(i)
            if not isinstance(name, str):
                self.err(line, None, f"'foreach' entries are ATen overload names, got {name!r}")
                continue
            if name in seen:
                self.err(line, name, f"listed twice in 'foreach' (first at line {seen[name]})")
                continue
            seen[name] = line
            if self.index.schema_text(name) is None:
                hint = did_you_mean(name, self.index.names())
                self.err(line, name, f"ATen overload '{name}' does not exist in torch "
                                     f"{torch_version()}'s native_functions.yaml{hint}")
                continue
            if name in routed:
                self.err(line, name, f"ATen overload '{name}' is already routed to "
                                     f"{routed[name]}")
                continue
            kernel = self.index.host_kernel_name(name)
            if kernel is None:
                self.err(line, name, "has no 'CPU:' or 'CompositeExplicitAutograd:' kernel in "
                                     "native_functions.yaml to reuse")
                continue
            if not SLOW_KERNEL.match(kernel):
                self.err(line, name, f"its CPU kernel '{kernel}' is not one of ATen's "
                                     "device-generic foreach_tensor_*_slow loops")
                continue
            out.append(ForeachOverload(name, kernel, line))
        return tuple(out)

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

    def parse_schemas(self, f: LineDict, name: str):
        aten = f.get("aten")
        if aten is None:
            return []
        texts = aten if isinstance(aten, list) else [aten]
        lines = ([aten.line_of(i) for i in range(len(aten))] if isinstance(aten, LineList)
                 else [f.line_of("aten")])
        out = []
        for text, line in zip(texts, lines):
            if not isinstance(text, str):
                self.err(line, name, f"ATen schema must be a string, got {text!r}")
                return None
            try:
                schema = FunctionSchema.parse(text.strip())
            except Exception as e:  # torchgen raises AssertionError/RuntimeError on bad text
                msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                self.err(line, name, f"malformed ATen schema '{text}': {msg}")
                return None
            overload = str(schema.name)
            known = self.index.schema_text(overload)
            if known is None:
                hint = did_you_mean(overload, self.index.names())
                self.err(line, name, f"ATen overload '{overload}' does not exist in torch "
                                     f"{torch_version()}'s native_functions.yaml{hint}")
                return None
            if symint_neutral(str(FunctionSchema.parse(known))) != symint_neutral(str(schema)):
                self.err(line, name, f"ATen schema differs from torch {torch_version()}'s "
                                     f"(int and SymInt count as equal): expected '{known}'")
                return None
            if schema.kind() not in (SchemaKind.functional, SchemaKind.inplace, SchemaKind.out):
                self.err(line, name, f"'{overload}' is a {schema.kind().name} schema; only "
                                     "functional, in-place and out= overloads can be routed")
                return None
            out.append((schema, line))
        return out

    def parse_arg_specs(self, f: LineDict, name: str, schemas):
        """DIOPI argument list: explicit `args`, or derived from the first ATen schema."""
        raw = f.get("args")
        if raw is None:
            if not schemas:
                self.err(f.line, name, "a runtime-only function needs an explicit 'args' list")
                return None
            return [(n, None, None, "") for n in default_arg_names(schemas[0][0])]
        if not isinstance(raw, LineList) or not raw:
            self.err(f.line_of("args"), name, "'args' must be a non-empty list")
            return None
        specs, seen = [], set()
        for i, item in enumerate(raw):
            line = raw.line_of(i)
            if isinstance(item, str):
                arg, _, src = item.partition("=")
                arg, src, typ, doc = arg.strip(), src.strip() or None, None, ""
            elif isinstance(item, LineDict):
                if not self.check_keys(item, ARG_KEYS, name, "an argument"):
                    return None
                arg, src, typ = item.get("name"), item.get("from"), item.get("type")
                if isinstance(src, list):   # alternatives: the first the schema has (p / ord)
                    if not src or not all(isinstance(x, str) for x in src):
                        self.err(line, name, f"'from' of argument '{arg}' must be an ATen "
                                             "argument name or a list of them")
                        return None
                    src = tuple(src)
                elif src is not None and not isinstance(src, str):
                    self.err(line, name, f"'from' of argument '{arg}' must be an ATen argument "
                                         "name or a list of them")
                    return None
                doc = self.check_text(item["doc"], line, name, "doc") if "doc" in item else ""
                if "count" in item:
                    if not isinstance(item["count"], str) or not C_IDENT.match(item["count"]):
                        self.err(line, name, f"'count' of argument '{arg}' must be a C identifier")
                        return None
                    self.counts[(name, arg)] = item["count"]
                if "dir" in item or "optional" in item:
                    given_dir, optional = item.get("dir"), item.get("optional", False)
                    if given_dir is not None and given_dir not in RUNTIME_DIRS:
                        self.err(line, name, f"'dir' of argument '{arg}' must be one of "
                                             f"{', '.join(RUNTIME_DIRS)}, got {given_dir!r}")
                        return None
                    if not isinstance(optional, bool):
                        self.err(line, name, f"'optional' of argument '{arg}' must be true "
                                             "or false")
                        return None
                    self.runtime_opts[(name, arg)] = (given_dir, optional)
                if "value" in item:
                    value = item["value"]
                    if not isinstance(value, (bool, int, float, str, type(None))):
                        self.err(line, name, f"'value' of argument '{arg}' must be a literal "
                                             "(true, false, a number, null) or helper(args)")
                        return None
                    if src is not None:
                        self.err(line, name, f"argument '{arg}' has both 'from' and 'value'")
                        return None
                    if not typ:
                        self.err(line, name, f"argument '{arg}' with a 'value' needs a 'type'")
                        return None
                    self.values[(name, arg)] = value
            else:
                self.err(line, name, f"argument {item!r} must be 'name', 'name=aten_arg' or a mapping")
                return None
            if not isinstance(arg, str) or not C_IDENT.match(arg):
                self.err(line, name, f"argument name {arg!r} is not a C identifier")
                return None
            if arg in seen:
                self.err(line, name, f"argument '{arg}' listed twice")
                return None
            seen.add(arg)
            specs.append((arg, src, typ, doc))
        return specs

    def bind(self, f, name, schema: FunctionSchema, line, arg_specs, params, *,
             primary: bool) -> Optional[AtenBinding]:
        variant = schema.kind().name
        aten_args = {a.name: a for a in schema.arguments.flat_all}
        out_names = [a.name for a in schema.arguments.out]
        mutable_self = schema.arguments.self_arg is not None and schema.kind() == SchemaKind.inplace
        sources, used = [], set()
        n_returns = len(schema.returns) if variant == "functional" else 0
        next_return = 0
        overload = f"aten::{schema.name}"
        for arg, src, typ, _doc in arg_specs:
            if isinstance(src, tuple):   # `from: [p, ord]`: this schema's spelling
                src = next((x for x in src if x in aten_args), src[0])
            aten_name = src or arg
            if src is None and arg == "input" and "input" not in aten_args and "self" in aten_args:
                aten_name = "self"
            if (name, arg) in self.values:
                value = self.values[(name, arg)]
                param = ctypes_map.VALUE_ARG_TYPES.get(typ)
                if param is None:
                    self.err(line, name, f"argument '{arg}' with a 'value' must have one of the "
                                         f"types {', '.join(ctypes_map.VALUE_ARG_TYPES)}")
                    return None
                if isinstance(value, str):
                    try:
                        value = parse_call(value, ARG_HELPERS, "argument helper")
                    except RuleError as e:
                        self.err(line, name, f"argument '{arg}': {e}")
                        return None
                    for a in value.args:
                        if a not in aten_args:
                            self.err(line, name, f"argument helper {value} reads '{a}', which "
                                                 f"is not an argument of {overload}")
                            return None
                        used.add(a)
                elif value is None:
                    if not param.optional:
                        self.err(line, name, f"'value' null of argument '{arg}' needs a pointer "
                                             f"type, not {typ}")
                        return None
                elif param.kind not in ("bool", "int", "float") or (
                        isinstance(value, bool) != (param.kind == "bool")):
                    self.err(line, name, f"'value' {value!r} of argument '{arg}' does not fit "
                                         f"its type {typ}")
                    return None
                self.record_param(params, arg, param, "in", name, line, primary)
                sources.append((arg, ArgSource("value", value=value)))
                continue
            if aten_name in aten_args:
                a = aten_args[aten_name]
                written = aten_name in out_names or (mutable_self and aten_name == "self")
                direction = "out" if aten_name in out_names else (
                    "inout" if written else "in")
                try:
                    param = ctypes_map.c_param(a, written=written)
                    if typ == "diopiTensorHandle_t" and param.kind == "tensor" and not written:
                        # an input DIOPI updates in place (batch norm's running statistics)
                        param = ctypes_map.CParam(typ, "tensor", param.optional)
                        direction = "inout"
                    elif typ == "diopiConstTensorHandle_t" and param.kind == "tensor":
                        # DIOPI reads what ATen writes in place through another argument:
                        # masked_scatter_'s self is DIOPI's out and (read only) input
                        param = ctypes_map.CParam(typ, "tensor", param.optional)
                        direction = "in"
                    elif typ:
                        param = ctypes_map.enum_override(param, typ)
                except ctypes_map.UnsupportedType as e:
                    self.err(line, name, f"{overload}: {e}")
                    return None
                self.record_param(params, arg, param, direction, name, line, primary)
                sources.append((arg, ArgSource("arg", aten_name)))
                used.add(aten_name)
            elif variant == "functional" and next_return < n_returns and (
                    not sources or all(s.kind == "return" for _, s in sources)):
                # Leading DIOPI outputs bind to the functional overload's results, in order.
                if primary:
                    self.record_param(params, arg, ctypes_map.TENSOR_OUT, "out", name, line, True)
                sources.append((arg, ArgSource("return", index=next_return)))
                next_return += 1
            elif not primary and arg in params and (params[arg][0].optional or params[arg][0].kind == "enum"):
                sources.append((arg, ArgSource("absent")))
            else:
                known = ", ".join(aten_args) or "none"
                self.err(line, name, f"argument '{arg}' is not an argument of {overload} "
                                     f"(its arguments: {known})")
                return None
        if variant == "functional" and next_return < n_returns:
            self.err(line, name, f"{overload} returns {n_returns} tensors but only "
                                 f"{next_return} DIOPI outputs bind to them")
            return None

        outputs = self.parse_outputs(f, name, schema, line, sources)
        if outputs is None:
            return None
        for key, rule in outputs:
            if rule.name != "allocated":
                continue
            src = dict(sources).get(key)
            if src is None or src.kind != "return":
                self.err(line, name, f"output '{key}' with rule allocated() must be a result of "
                                     f"a functional overload (the kernel allocates it)")
                return None
            if primary:  # DIOPI passes diopiTensorHandle_t* and the kernel fills it in
                params[key] = (ctypes_map.TENSOR_ALLOCATED, "out")
        guards = self.parse_guards(f, name, schema, line)
        if guards is None:
            return None
        computed = self.parse_computed(f, name, schema, line)
        if computed is None:
            return None
        output_mask = self.parse_output_mask(f, name, schema, line, next_return)
        if output_mask is None:
            return None
        if output_mask:
            used.add(output_mask)
        rule_args = {a for _, r in outputs for a in r.args} | {a for r in computed.values() for a in r.args}
        unpassed_outs = [o for o in out_names if o not in used]
        for o in unpassed_outs:
            if o not in computed:
                self.err(line, name, f"out argument '{o}' of {overload} is neither passed to "
                                     f"{name} nor listed in 'computed'")
                return None
        for aname in aten_args:
            if aname not in used and aname not in guards and aname not in rule_args and \
                    aname not in out_names:
                self.err(line, name, f"ATen argument '{aname}' of {overload} is not passed to "
                                     f"{name}, not read by an output rule and not in 'ignore'")
                return None
        return AtenBinding(schema, variant, False, tuple(sources), outputs,
                           tuple(sorted(guards.items())), tuple(sorted(computed.items())),
                           structured=self.index.structured(str(schema.name)),
                           output_mask=output_mask,
                           composite=self.index.composite_implicit(str(schema.name)))

    def parse_output_mask(self, f, name, schema, line, n_returns) -> Optional[str]:
        """'' when absent; the ATen bool[N] argument selecting which results to compute."""
        raw = f.get("output_mask")
        if raw is None:
            return ""
        at = f.line_of("output_mask")
        arg = {a.name: a for a in schema.arguments.flat_all}.get(raw)
        if arg is None or str(arg.type) != f"bool[{n_returns}]":
            self.err(at, name, f"'output_mask' must name a bool[{n_returns}] argument of "
                               f"aten::{schema.name}, got {raw!r}")
            return None
        if schema.kind() != SchemaKind.functional:
            self.err(at, name, "'output_mask' applies to functional overloads only")
            return None
        return raw

    def record_param(self, params, arg, param, direction, name, line, primary):
        if arg in params:
            old, old_dir = params[arg]
            if old.ctype != param.ctype:
                self.err(line, name, f"argument '{arg}' has C type {param.ctype} here but "
                                     f"{old.ctype} in the first ATen overload")
        elif primary:
            params[arg] = (param, direction)
        else:
            self.err(line, name, f"argument '{arg}' is missing from the first ATen overload")

    def parse_outputs(self, f, name, schema, line, sources):
        raw = f.get("outputs") or {}
        if not isinstance(raw, dict):
            self.err(f.line_of("outputs"), name, "'outputs' must map output -> rule(args)")
            return None
        aten_args = {a.name for a in schema.arguments.flat_all}
        diopi_outs = [arg for arg, s in sources
                      if s.kind == "return" or (s.kind == "arg" and s.aten_name in
                                                {a.name for a in schema.arguments.out})]
        computed = f.get("computed") or {}
        rules = []
        for out in diopi_outs:
            if out not in raw:
                self.err(f.line_of("outputs") if "outputs" in f else f.line, name,
                         f"output '{out}' needs a shaping rule in 'outputs' "
                         f"(one of: {', '.join(sorted(OUTPUT_RULES))})")
                return None
        for key, text in raw.items():
            at = raw.line_of(key) if isinstance(raw, LineDict) else line
            if isinstance(text, dict):   # one rule per ATen overload of the function
                overload = str(schema.name)
                if overload not in text:
                    self.err(at, name, f"output '{key}' has rules for {', '.join(map(str, text))} "
                                       f"but none for the overload '{overload}'")
                    return None
                text = text[overload]
            if key not in diopi_outs and key not in computed and schema.kind() != SchemaKind.inplace:
                self.err(at, name, f"'outputs' names '{key}', which is not an output")
                return None
            try:
                rule = parse_call(text, OUTPUT_RULES, "output rule")
            except RuleError as e:
                self.err(at, name, str(e))
                return None
            for a in rule.args:
                if a not in aten_args:
                    self.err(at, name, f"output rule {rule} reads '{a}', which is not an "
                                       f"argument of aten::{schema.name}")
                    return None
            rules.append((key, rule))
        return tuple(rules)

    def parse_guards(self, f, name, schema, line):
        raw = f.get("ignore") or {}
        if not isinstance(raw, dict):
            self.err(f.line_of("ignore"), name, "'ignore' must map ATen argument -> required value")
            return None
        aten_args = {a.name for a in schema.arguments.flat_all}
        several = isinstance(f.get("aten"), list) and len(f.get("aten")) > 1
        result = {}
        for key, value in raw.items():
            if key not in aten_args:
                if several:   # an argument of another overload (checked by build_function)
                    continue
                self.err(raw.line_of(key), name, f"'ignore' names '{key}', which is not an "
                                                 f"argument of aten::{schema.name}")
                return None
            if isinstance(value, str) and value != "unused":
                try:
                    value = parse_call(value, GUARD_HELPERS, "ignore helper")
                except RuleError as e:
                    self.err(raw.line_of(key), name, str(e))
                    return None
                bad = [a for a in value.args if a not in aten_args and not a.lstrip("-").isdigit()]
                if bad:
                    self.err(raw.line_of(key), name, f"ignore helper '{value}' reads '{bad[0]}', "
                                                     f"which is not an argument of "
                                                     f"aten::{schema.name} or an integer")
                    return None
            elif value != "unused" and not isinstance(value, (bool, int, type(None))):
                self.err(raw.line_of(key), name, "'ignore' values must be true, false, an "
                                                 "integer, null (required value), 'unused' or a "
                                                 "helper(args) from codegen/rules.py GUARD_HELPERS")
                return None
            result[key] = value
        return result

    def parse_computed(self, f, name, schema, line):
        raw = f.get("computed") or {}
        if not isinstance(raw, dict):
            self.err(f.line_of("computed"), name, "'computed' must map output -> helper(args)")
            return None
        out_names = {a.name for a in schema.arguments.out}
        ret_ok = schema.kind() == SchemaKind.functional
        result = {}
        for key, text in raw.items():
            at = raw.line_of(key)
            if key not in out_names and not ret_ok:
                self.err(at, name, f"'computed' names '{key}', which is not an out argument "
                                   f"of aten::{schema.name}")
                return None
            try:
                result[key] = parse_call(text, COMPUTED_HELPERS, "computed helper")
            except RuleError as e:
                self.err(at, name, str(e))
                return None
        return result

    def derive(self, f, name, out_binding: AtenBinding, line) -> list[AtenBinding]:
        """Functional and in-place siblings of an out= overload, as torchgen groups them.

        A derived wrapper allocates (functional) or aliases to self (in-place) the out=
        tensors and then runs the out= binding, like torchgen's structured kernels."""
        derived = []
        siblings = self.index.siblings(out_binding.schema)
        for kind in (SchemaKind.functional, SchemaKind.inplace):
            sib = siblings.get(kind)
            if sib is None or str(sib.name) in self.claimed:
                continue
            self.claimed[str(sib.name)] = name
            derived.append(AtenBinding(sib, kind.name, True, out_binding.sources,
                                       out_binding.outputs, out_binding.guards,
                                       out_binding.computed, base=out_binding,
                                       structured=self.index.structured(str(sib.name)),
                                       composite=self.index.composite_implicit(str(sib.name))))
        return derived


def default_arg_names(schema: FunctionSchema) -> list[str]:
    """DIOPI order: outputs first, then inputs and attributes in ATen order; self -> input."""
    names = []
    if schema.kind() == SchemaKind.functional:
        names += ["out"] if len(schema.returns) == 1 else [
            r.name or f"out{i}" for i, r in enumerate(schema.returns)]
    names += [a.name for a in schema.arguments.out]
    for a in schema.arguments.flat_non_out:
        names.append("input" if a.name == "self" else a.name)
    return names


def build_catalogue(doc: Any, path: str, index: AtenIndex, *, unique_aten: bool = True) -> Catalogue:
    """`unique_aten=False` is for synthetic scaling catalogues (bench/gen_scaling.py) only."""
    return _Builder(path, index, unique_aten).build(doc)
