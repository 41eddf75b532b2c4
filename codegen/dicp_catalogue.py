"""Graph-mode (DICP) vendor catalogues: specs/dicp/<vendor>.yaml -> validated model.

A vendor catalogue declares the vendor's graph ops (ports, typed attributes, a shape/dtype
inference rule and how the op runs: a DIOPI kernel of specs/ops.yaml, a runtime view, or
only a CPU reference for chips we do not have) and the conversion table from ATen ops to
them. Conversions are data (`map`, `decomp`, `unsupported`) or a named hand-written Python
handler (`custom`); attribute values use a small closed expression vocabulary:

    self              an ATen argument (or, in a decomposition, an earlier step's result)
    1, 2.5, false, [] literals ('text' for a string literal, null for None)
    list(a, b, ...)   a list of expressions
    dim(d, t[, k])    dim(s) d normalised against the rank of tensor t (+k: unsqueeze)
    dtype(t[, d])     d when it is not None, else the dtype of tensor t

Every problem becomes a SpecError with the catalogue's file:line, like specs/ops.yaml's.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from torchgen.model import (Argument, BaseTy, BaseType, FunctionSchema, ListType, OptionalType,
                            SchemaKind)

from .aten_index import AtenIndex
from .errors import SpecError, SpecErrors, did_you_mean
from .model import Catalogue, DiopiFunction
from .render import REPO_ROOT
from .rules import is_unused
from .yaml_loader import LineDict, LineList, load_yaml

TOP_KEYS = {"version": False, "vendor": True, "doc": True, "executable": True,
            "data_format": True, "fusions": False, "vendor_ops": True, "conversions": True}
OP_KEYS = {"name": True, "doc": False, "inputs": True, "outputs": False, "attrs": False,
           "infer": True, "diopi": False, "bind": False, "view": False, "ref": False,
           "kernel": False, "dtypes": False}
CONV_KEYS = {"aten": True, "doc": False, "when": False, "ignore": False, "map": False,
             "decomp": False, "custom": False, "uses": False, "unsupported": False}
MAP_KEYS = {"op": True, "inputs": False, "attrs": False, "outputs": False}
STEP_KEYS = {"as": False, "op": False, "inputs": False, "attrs": False, "aten": False, "args": False}
KINDS = ("map", "decomp", "custom", "unsupported")

OP_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*$")
IDENT = re.compile(r"^[a-z_][a-z0-9_]*$")
DOTTED = re.compile(r"^opweave(\.[A-Za-z_][A-Za-z0-9_]*)+$")

# Attribute types (a trailing '?' makes one optional: None allowed).
ATTR_TYPES = ("int", "ints", "float", "bool", "scalar", "str", "dtype", "reduction", "round_mode")
OPTIONAL_OK = ("int", "ints", "float", "scalar", "str", "dtype")

# Inference rules: name -> (min args, max args or None, doc).
RULES = {
    "same_as": (1, 1, "shape and dtype of the port"),
    "broadcast": (2, None, "broadcast shape of the ports, dtype promoted (scalar attributes too)"),
    "compare": (2, 2, "broadcast shape, bool dtype"),
    "reduce": (3, 3, "reduce(port, dims attr, keepdim attr): all dims when dims is empty"),
    "matmul": (2, 3, "matmul(a, b[, bias]): [.., n, k] x [.., k, m]; bias must broadcast to it"),
    "cast": (2, 2, "cast(port, dtype attr): shape of the port, the attribute's dtype"),
    "aten": (1, None, "aten(overload, args...): run the ATen op on fake tensors"),
    "reference": (0, 0, "run the op's own CPU reference on fake tensors"),
}
NUMBER = re.compile(r"^-?\d+(\.\d*)?([eE][-+]?\d+)?$")

# Runtime views of executable vendors: kind -> (ATen reference, attributes in C order).
VIEWS = {
    "alias": ("alias", ()),
    "transpose": ("transpose.int", (("dim0", "int"), ("dim1", "int"))),
    "permute": ("permute", (("dims", "ints"),)),
    "reshape": ("reshape", (("size", "ints"),)),
    "expand": ("expand", (("size", "ints"),)),
    "unsqueeze": ("unsqueeze", (("dim", "int"),)),
    "squeeze": ("squeeze.dim", (("dim", "int"),)),
    "select": ("select.int", (("dim", "int"), ("index", "int"))),
    "slice": ("slice.Tensor", (("dim", "int"), ("start", "int?"), ("end", "int?"))),
}

# DIOPI parameter kind (codegen.ctypes_map) -> attribute type it binds to.
DIOPI_KIND_ATTR = {"scalar": "scalar", "int": "int", "int_opt": "int", "size": "ints",
                   "float": "float", "float_opt": "float", "scalar_double": "float",
                   "bool": "bool", "str": "str",
                   "dtype": "dtype", "dtype_opt": "dtype"}
DIOPI_ENUM_ATTR = {"diopiReduction_t": "reduction", "diopiRoundMode_t": "round_mode"}
# Graph-level kernels (`kernel:`): C type and argument kind of each attribute type, by optionality.
KERNEL_ATTR_C = {
    False: {"scalar": ("const diopiScalar_t*", "scalar"), "int": ("int64_t", "int"),
            "ints": ("diopiSize_t", "size"), "float": ("double", "float"),
            "bool": ("bool", "bool"), "str": ("const char*", "str"),
            "dtype": ("diopiDtype_t", "dtype")},
    True: {"scalar": ("const diopiScalar_t*", "scalar"), "int": ("const int64_t*", "int_opt"),
           "ints": ("diopiSize_t", "size"), "float": ("const double*", "float_opt"),
           "str": ("const char*", "str"), "dtype": ("const diopiDtype_t*", "dtype_opt")},
}
KERNEL_DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "int32",
                 "int64", "bool")
C_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# Attribute type <- expression types it accepts ("none" only when the attribute is optional).
ACCEPTS = {
    "scalar": {"scalar", "int", "float", "bool"},
    "int": {"int"},
    "ints": {"ints"},
    "float": {"float", "int"},
    "bool": {"bool"},
    "str": {"str"},
    "dtype": {"dtype"},
    "reduction": {"int"},
    "round_mode": {"str"},
}


# ---------------------------------------------------------------------------------- model
@dataclass(frozen=True)
class Attr:
    name: str
    type: str          # one of ATTR_TYPES
    optional: bool

    @property
    def spelled(self) -> str:
        return self.type + ("?" if self.optional else "")


@dataclass(frozen=True)
class Port:
    name: str
    optional: bool


@dataclass(frozen=True)
class Rule:
    name: str
    args: tuple            # port / attribute names; for aten: (overload, arg, ..., "kw=name")

    def __str__(self) -> str:
        return f"{self.name}({', '.join(self.args)})"


@dataclass(frozen=True)
class DiopiCall:
    """How an executable vendor op calls its DIOPI kernel (argument order of the C call)."""

    function: str
    args: tuple            # (diopi arg, role, vendor name, C type, kind): role port|output|attr
    dtypes: tuple          # (port or output name, supported dtypes)
    graph_kernel: bool = False  # a vendor kernel outside specs/ops.yaml (`kernel:`), e.g. a fusion


@dataclass(frozen=True)
class Reference:
    """The vendor op's CPU reference (fake vendor op): how its result is computed on CPU.

    kind "aten_out": call ATen overload `target` with keyword `args` (out= tensors allocated
    from the inference rule); "aten": call `target` and take its results in order; "custom":
    call the Python function named `target`."""

    kind: str
    target: str
    args: tuple = ()       # (aten arg, source kind, value): port|attr|output|fixed|scratch
    outputs: tuple = ()    # aten_out: (vendor output, aten out arg) ; aten: result indices


@dataclass(frozen=True)
class VendorOp:
    name: str
    doc: str
    inputs: tuple          # of Port
    outputs: tuple         # of str
    attrs: tuple           # of Attr
    infer: Rule
    diopi: Optional[DiopiCall]
    view: str
    ref: Reference
    line: int


@dataclass(frozen=True)
class MapSpec:
    op: str
    inputs: tuple          # (port, expr)
    attrs: tuple           # (attr, expr)
    outputs: tuple         # vendor output (or None) per ATen result


@dataclass(frozen=True)
class Step:
    name: str              # "" for the last step
    op: str                # vendor op, or "" for an ATen step
    aten: str              # ATen overload of an ATen step
    inputs: tuple          # (port, expr) ; ATen step: (aten arg, expr)
    attrs: tuple


@dataclass(frozen=True)
class Conversion:
    aten: str
    kind: str              # map | decomp | custom | unsupported
    doc: str
    when: tuple            # (aten arg, literal)
    ignore: tuple
    map: Optional[MapSpec] = None
    steps: tuple = ()
    custom: str = ""
    uses: tuple = ()
    reason: str = ""
    line: int = 0
    index: int = 0         # position in the vendor's conversions list


@dataclass(frozen=True)
class VendorCatalogue:
    vendor: str
    source: str
    doc: str
    executable: bool
    data_format: str
    fusions: tuple
    ops: tuple             # of VendorOp
    conversions: tuple     # of Conversion
    op_lines: dict = field(default_factory=dict, compare=False, hash=False)

    def op(self, name: str) -> VendorOp:
        return next(o for o in self.ops if o.name == name)

    @property
    def counts(self) -> dict:
        out = {k: 0 for k in KINDS}
        for c in self.conversions:
            out[c.kind] += 1
        return out


# ---------------------------------------------------------------------------- expressions
class ExprError(Exception):
    pass


_TOKEN = re.compile(r"\s*(?:(?P<num>-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)|(?P<str>'[^']*')|"
                    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.\d+)?)|(?P<p>[(),\[\]]))")
FUNCS = {"list": (0, None), "dim": (2, 3), "dtype": (1, 2)}


def parse_expr(value: Any):
    """YAML value -> expression tuple: ("arg", name) ("lit", v) ("list", items) ("dim", e, ref,
    k) ("dtype", ref, override) ("step", name, index)."""
    if value is None or isinstance(value, (bool, int, float)):
        return ("lit", value)
    if isinstance(value, list):
        return ("list", tuple(parse_expr(v) for v in value))
    if not isinstance(value, str):
        raise ExprError(f"{value!r} is not an expression")
    tokens, pos, text = [], 0, value
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ExprError(f"cannot parse '{text}' at '{text[pos:]}'")
        kind = m.lastgroup
        tokens.append((kind, m.group(kind)))
        pos = m.end()
    expr, rest = _parse(tokens, text)
    if rest:
        raise ExprError(f"unexpected '{rest[0][1]}' in '{text}'")
    return expr


def _parse(tokens, text):
    if not tokens:
        raise ExprError(f"incomplete expression '{text}'")
    (kind, tok), rest = tokens[0], tokens[1:]
    if kind == "num":
        return ("lit", float(tok) if any(c in tok for c in ".eE") else int(tok)), rest
    if kind == "str":
        return ("lit", tok[1:-1]), rest
    if kind == "p":
        raise ExprError(f"unexpected '{tok}' in '{text}'")
    if rest and rest[0] == ("p", "("):
        if tok not in FUNCS:
            raise ExprError(f"unknown function '{tok}' in '{text}' (known: {', '.join(FUNCS)})")
        args, rest = [], rest[1:]
        while True:
            if not rest:
                raise ExprError(f"missing ')' in '{text}'")
            if rest[0] == ("p", ")"):
                rest = rest[1:]
                break
            if args:
                if rest[0] != ("p", ","):
                    raise ExprError(f"expected ',' in '{text}'")
                rest = rest[1:]
            arg, rest = _parse(rest, text)
            args.append(arg)
        lo, hi = FUNCS[tok]
        if len(args) < lo or (hi is not None and len(args) > hi):
            raise ExprError(f"{tok}() takes {lo}{'..' + str(hi) if hi != lo else ''} arguments "
                            f"in '{text}'")
        if tok == "list":
            return ("list", tuple(args)), rest
        if tok == "dim":
            ref = args[1]
            if ref[0] != "arg":
                raise ExprError(f"dim()'s second argument must name a tensor in '{text}'")
            k = args[2] if len(args) == 3 else ("lit", 0)
            if k[0] != "lit" or not isinstance(k[1], int) or isinstance(k[1], bool):
                raise ExprError(f"dim()'s third argument must be an integer in '{text}'")
            return ("dim", args[0], ref[1], k[1]), rest
        ref = args[0]
        if ref[0] != "arg":
            raise ExprError(f"dtype()'s first argument must name a tensor in '{text}'")
        return ("dtype", ref[1], args[1] if len(args) == 2 else ("lit", None)), rest
    if tok in ("true", "false", "null", "None"):
        return ("lit", {"true": True, "false": False}.get(tok)), rest
    name, _, idx = tok.partition(".")
    if idx:
        return ("step", name, int(idx)), rest
    return ("arg", name), rest


def expr_names(e) -> list:
    if e[0] in ("arg", "step"):
        return [e[1]]
    if e[0] == "list":
        return [n for x in e[1] for n in expr_names(x)]
    if e[0] == "dim":
        return expr_names(e[1]) + [e[2]]
    if e[0] == "dtype":
        return [e[1]] + expr_names(e[2])
    return []


# ------------------------------------------------------------------------------ ATen types
def aten_type(t) -> str:
    """torchgen type -> expression type (tensor, int, ints, ..., '?' suffix when optional)."""
    if isinstance(t, OptionalType):
        inner = aten_type(t.elem)
        return inner if inner.endswith("?") else inner + "?"
    if isinstance(t, ListType):
        if isinstance(t.elem, BaseType) and t.elem.name in (BaseTy.int, BaseTy.SymInt):
            return "ints"
        if isinstance(t.elem, BaseType) and t.elem.name == BaseTy.Tensor:
            return "tensors"
        return "other"
    if isinstance(t, BaseType):
        return {BaseTy.Tensor: "tensor", BaseTy.int: "int", BaseTy.SymInt: "int",
                BaseTy.float: "float", BaseTy.bool: "bool", BaseTy.Scalar: "scalar",
                BaseTy.str: "str", BaseTy.ScalarType: "dtype"}.get(t.name, "other")
    return "other"


def _arg_has_default(a: Argument) -> bool:
    return a.default is not None


# ------------------------------------------------------------------------------ the builder
class _VendorBuilder:
    def __init__(self, path: str, cat: Catalogue, index: AtenIndex, runtime_root: str):
        self.path = path
        self.cat = cat
        self.index = index
        self.runtime_root = runtime_root
        self.errors: list[SpecError] = []
        self.diopi = {f.name: f for f in cat.functions}
        self.ops: dict[str, VendorOp] = {}
        self.executable = False

    def err(self, line, who, reason):
        self.errors.append(SpecError(self.path, line, who, reason))

    def check_keys(self, d: LineDict, allowed: dict, who, what) -> bool:
        ok = True
        for key in d:
            if key not in allowed:
                hint = did_you_mean(key, list(allowed))
                if ")" in key:
                    hint = " (inside a YAML {flow: mapping} a comma ends the value: quote it)"
                self.err(d.line_of(key), who, f"unknown field '{key}' in {what}{hint}")
                ok = False
        for key, required in allowed.items():
            if required and key not in d:
                self.err(d.line, who, f"missing required field '{key}' in {what}")
                ok = False
        return ok

    def text(self, value, line, who, fieldname) -> str:
        if not isinstance(value, str) or not value.strip():
            self.err(line, who, f"'{fieldname}' must be a non-empty string")
            return ""
        if any(ord(c) < 0x20 and c != "\n" for c in value) or '"""' in value or "\\" in value:
            self.err(line, who, f"'{fieldname}' contains control characters, a backslash or "
                                "triple quotes")
            return ""
        return " ".join(value.split())

    # -- dotted names of hand-written Python ------------------------------------------------
    def python_name(self, value, line, who, what) -> str:
        if not isinstance(value, str) or not DOTTED.match(value):
            self.err(line, who, f"{what} must be a dotted name 'opweave.module.function', "
                                f"got {value!r} (code never goes into the catalogue)")
            return ""
        module, _, fn = value.rpartition(".")
        rel = module.replace(".", os.sep)
        candidates = [os.path.join(self.runtime_root, rel + ".py"),
                      os.path.join(self.runtime_root, rel, "__init__.py")]
        path = next((p for p in candidates if os.path.isfile(p)), None)
        if path is None:
            self.err(line, who, f"{what} '{value}': module {module} not found under "
                                f"{os.path.relpath(self.runtime_root, REPO_ROOT)}/")
            return ""
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        if fn not in names:
            hint = did_you_mean(fn, sorted(names))
            self.err(line, who, f"{what} '{value}': {os.path.relpath(path, REPO_ROOT)} defines "
                                f"no function '{fn}'{hint}")
            return ""
        return value

    # -- the file ---------------------------------------------------------------------------
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
        self.pass_uses: list = []   # (line, what, vendor ops a rewrite pass may emit)
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

        raw_ops = doc.get("vendor_ops")
        if not isinstance(raw_ops, LineList) or not raw_ops:
            self.err(doc.line_of("vendor_ops"), vendor, "'vendor_ops' must be a non-empty list")
            raise SpecErrors(self.errors)
        op_lines = {}
        for i, raw in enumerate(raw_ops):
            if not isinstance(raw, LineDict):
                self.err(raw_ops.line_of(i), vendor, "each vendor op must be a mapping")
                continue
            op = self.build_op(raw)
            if op is not None:
                if op.name in self.ops:
                    self.err(raw.line_of("name"), op.name, "duplicate vendor op (first defined at "
                                                           f"line {self.ops[op.name].line})")
                    continue
                self.ops[op.name] = op
                op_lines[op.name] = op.line

        raw_conv = doc.get("conversions")
        if not isinstance(raw_conv, LineList) or not raw_conv:
            self.err(doc.line_of("conversions"), vendor, "'conversions' must be a non-empty list")
            raise SpecErrors(self.errors)
        conversions = []
        for i, raw in enumerate(raw_conv):
            if not isinstance(raw, LineDict):
                self.err(raw_conv.line_of(i), vendor, "each conversion must be a mapping")
                continue
            conv = self.build_conversion(raw, len(conversions))
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
                               tuple(self.ops.values()), tuple(conversions), op_lines)

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

    # -- vendor ops -------------------------------------------------------------------------
    def build_op(self, d: LineDict) -> Optional[VendorOp]:
        name = d.get("name")
        who = name if isinstance(name, str) else None
        if not self.check_keys(d, OP_KEYS, who, "a vendor op"):
            return None
        if not isinstance(name, str) or not OP_NAME.match(name):
            self.err(d.line_of("name"), who, f"vendor op name {name!r} must be CamelCase")
            return None
        nerr = len(self.errors)
        doc = self.text(d["doc"], d.line_of("doc"), name, "doc") if "doc" in d else ""
        ports = self.port_list(d.get("inputs"), d.line_of("inputs"), name, "inputs", True)
        outputs = self.port_list(d.get("outputs", ["out"]), d.line_of("outputs"), name,
                                 "outputs", False)
        outputs = tuple(p.name for p in outputs)
        attrs = []
        raw_attrs = d.get("attrs", {})
        if not isinstance(raw_attrs, dict):
            self.err(d.line_of("attrs"), name, "'attrs' must map name -> type")
            raw_attrs = {}
        for aname, atype in raw_attrs.items():
            line = raw_attrs.line_of(aname) if isinstance(raw_attrs, LineDict) else d.line
            if not IDENT.match(aname):
                self.err(line, name, f"attribute name '{aname}' is not lower_snake_case")
                continue
            attr = self.attr_type(aname, atype, line, name)
            if attr:
                attrs.append(attr)
        names = [p.name for p in ports] + list(outputs) + [a.name for a in attrs]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            self.err(d.line, name, f"port/attribute names used twice: {', '.join(sorted(dup))}")
        if len(self.errors) > nerr:
            return None
        infer = self.infer_rule(d.get("infer"), d.line_of("infer"), name, ports, outputs, attrs)
        diopi, view, ref = None, "", None
        how = [k for k in ("diopi", "view", "kernel") if k in d]
        if len(how) > 1:
            self.err(d.line, name, "a vendor op has one of 'diopi', 'view' or 'kernel'")
            return None
        if self.executable and not how:
            self.err(d.line, name, "an executable vendor's op needs 'diopi' (the kernel it runs), "
                                   "'kernel' (a graph-level vendor kernel) or 'view' (a runtime "
                                   "view)")
            return None
        if not self.executable and how:
            self.err(d.line_of(how[0]), name,
                     "'diopi'/'view'/'kernel' need an executable vendor (executable: true)")
            return None
        if "bind" in d and "diopi" not in d:
            self.err(d.line_of("bind"), name, "'bind' renames DIOPI arguments: it needs 'diopi'")
            return None
        if "dtypes" in d and "kernel" not in d:
            self.err(d.line_of("dtypes"), name, "'dtypes' lists a graph kernel's dtypes: it needs "
                                                "'kernel'")
            return None
        if "ref" in d:
            ref = self.reference(d["ref"], d.line_of("ref"), name, ports, outputs, attrs)
        if "kernel" in d:
            diopi = self.graph_kernel(d, name, ports, outputs, attrs)
            if diopi is not None and ref is None and "ref" not in d:
                self.err(d.line_of("kernel"), name, "a graph kernel has no ATen twin: give the "
                                                    "op a CPU reference with 'ref'")
        elif "diopi" in d:
            diopi, derived = self.diopi_call(d, name, ports, outputs, attrs, infer)
            ref = ref or derived
            fn = self.diopi.get(d["diopi"])
            if diopi is not None and ref is None and fn is not None and not fn.bindings:
                self.err(d.line_of("diopi"), name, f"{diopi.function} is called by the runtime, "
                         "not an ATen op: give the op a CPU reference with 'ref'")
        elif "view" in d:
            view = self.view_kind(d, name, ports, outputs, attrs)
            if view:  # positional: the input, then the attributes in the view's order
                ref = Reference("aten", VIEWS[view][0],
                                (("", "port", ports[0].name),) +
                                tuple(("", "attr", a.name) for a in attrs), (0,))
        elif ref is None:
            self.err(d.line, name, "a vendor op of a non-executable vendor needs 'ref' (its CPU "
                                   "reference: aten(overload, args...) or a dotted Python name)")
        if len(self.errors) > nerr or infer is None or ref is None:
            return None
        return VendorOp(name, doc, tuple(ports), outputs, tuple(attrs), infer, diopi, view, ref,
                        d.line_of("name"))

    def port_list(self, raw, line, who, what, allow_optional) -> list:
        if not isinstance(raw, list) or (not raw and what == "outputs"):
            self.err(line, who, f"'{what}' must be a list of names")
            return []
        out = []
        for i, p in enumerate(raw):
            at = raw.line_of(i) if isinstance(raw, LineList) else line
            if not isinstance(p, str):
                self.err(at, who, f"{what} entry {p!r} must be a name")
                continue
            optional = p.endswith("?")
            base = p[:-1] if optional else p
            if not IDENT.match(base):
                self.err(at, who, f"{what} entry '{p}' is not lower_snake_case")
                continue
            if optional and not allow_optional:
                self.err(at, who, f"outputs cannot be optional ('{p}')")
                continue
            out.append(Port(base, optional))
        return out

    def attr_type(self, aname, atype, line, who) -> Optional[Attr]:
        if not isinstance(atype, str):
            self.err(line, who, f"type of attribute '{aname}' must be a string")
            return None
        optional = atype.endswith("?")
        base = atype[:-1] if optional else atype
        if base not in ATTR_TYPES:
            hint = did_you_mean(base, ATTR_TYPES)
            self.err(line, who, f"unknown attribute type '{atype}' of '{aname}'{hint} "
                                f"(known: {', '.join(ATTR_TYPES)}, '?' for optional)")
            return None
        if optional and base not in OPTIONAL_OK:
            self.err(line, who, f"attribute type '{base}' cannot be optional")
            return None
        return Attr(aname, base, optional)

    def infer_rule(self, raw, line, who, ports, outputs, attrs) -> Optional[Rule]:
        if not isinstance(raw, str):
            self.err(line, who, "'infer' must be a rule like 'broadcast(input, other)'")
            return None
        m = re.match(r"^\s*([a-z_]+)\s*\((.*)\)\s*$", raw)
        if not m:
            hint = (" (inside a YAML {flow: mapping} a comma ends the value: use block style)"
                    if "(" in raw and ")" not in raw else "")
            self.err(line, who, f"'infer' rule '{raw}' is not of the form name(arg, ...){hint}")
            return None
        rname = m.group(1)
        args = tuple(a.strip() for a in m.group(2).split(",")) if m.group(2).strip() else ()
        if rname not in RULES:
            self.err(line, who, f"unknown inference rule '{rname}' (known: {', '.join(RULES)})")
            return None
        lo, hi, _doc = RULES[rname]
        if len(args) < lo or (hi is not None and len(args) > hi):
            self.err(line, who, f"inference rule '{rname}' takes {lo}"
                                f"{'' if hi == lo else '..' + (str(hi) if hi else '')} "
                                f"arguments, got {len(args)}")
            return None
        port_names = {p.name for p in ports}
        attr_types = {a.name: a for a in attrs}
        if rname not in ("aten", "reference") and len(outputs) != 1:
            self.err(line, who, f"rule '{rname}' infers one output; a vendor op with "
                                f"{len(outputs)} outputs needs aten(...)")
            return None

        def need(arg, kinds):
            if arg in port_names and "port" in kinds:
                return True
            a = attr_types.get(arg)
            if a is not None and a.type in kinds:
                return True
            want = " or ".join(k if k != "port" else "an input port" for k in kinds)
            self.err(line, who, f"inference rule {rname}: '{arg}' must be {want}")
            return False

        ok = True
        if rname == "same_as":
            ok = need(args[0], ("port",))
        elif rname in ("broadcast", "compare"):
            ok = need(args[0], ("port",)) and all(need(a, ("port", "scalar")) for a in args[1:])
        elif rname == "reduce":
            ok = need(args[0], ("port",)) and need(args[1], ("ints",)) and need(args[2], ("bool",))
        elif rname == "matmul":
            ok = all(need(a, ("port",)) for a in args)
        elif rname == "cast":
            ok = need(args[0], ("port",)) and need(args[1], ("dtype",))
        elif rname == "aten":
            ok = self.aten_call(args, line, who, port_names | set(attr_types), "inference rule")
        elif rname == "reference" and self.executable:
            self.err(line, who, "an executable vendor's op infers from its catalogue rule, not "
                                "from its reference")
            ok = False
        return Rule(rname, args) if ok else None

    def aten_call(self, args, line, who, names, what) -> bool:
        overload = args[0]
        schema = self.schema(overload, line, who)
        if schema is None:
            return False
        params = [a.name for a in schema.arguments.flat_non_out]
        positional = 0
        for a in args[1:]:
            key, eq, value = a.partition("=")
            if eq:
                if key.strip() not in params:
                    self.err(line, who, f"{what}: aten::{overload} has no argument '{key.strip()}'")
                    return False
                a = value.strip()
            else:
                positional += 1
            if a not in names and not NUMBER.match(a):
                self.err(line, who, f"{what}: '{a}' is not a port, an attribute of {who} or a "
                                    "number")
                return False
        if positional > len(params):
            self.err(line, who, f"{what}: aten::{overload} takes {len(params)} arguments, "
                                f"got {positional}")
            return False
        return True

    def schema(self, overload, line, who) -> Optional[FunctionSchema]:
        if not isinstance(overload, str) or self.index.schema_text(overload) is None:
            hint = did_you_mean(str(overload), self.index.names())
            self.err(line, who, f"ATen overload '{overload}' does not exist in the installed "
                                f"torch's native_functions.yaml{hint}")
            return None
        return self.index.parse(overload)

    def reference(self, raw, line, who, ports, outputs, attrs) -> Optional[Reference]:
        names = {p.name for p in ports} | {a.name for a in attrs}
        if isinstance(raw, str) and raw.startswith("aten("):
            m = re.match(r"^aten\((.*)\)$", raw.strip())
            args = tuple(a.strip() for a in m.group(1).split(",")) if m else ()
            if not args or not self.aten_call(args, line, who, names, "ref"):
                return None
            ref_args = []
            schema = self.index.parse(args[0])
            params = [a.name for a in schema.arguments.flat_non_out]
            for i, a in enumerate(args[1:]):
                key, eq, value = a.partition("=")
                aname, src = (key.strip(), value.strip()) if eq else (params[i], a)
                if NUMBER.match(src):
                    num = float(src) if any(c in src for c in ".eE") else int(src)
                    ref_args.append((aname, "fixed", num))
                    continue
                kind = "port" if src in {p.name for p in ports} else "attr"
                ref_args.append((aname, kind, src))
            return Reference("aten", args[0], tuple(ref_args), tuple(range(len(outputs))))
        name = self.python_name(raw, line, who, "ref")
        return Reference("custom", name) if name else None

    def diopi_call(self, d, who, ports, outputs, attrs, infer):
        fname = d["diopi"]
        fn: Optional[DiopiFunction] = self.diopi.get(fname) if isinstance(fname, str) else None
        line = d.line_of("diopi")
        if fn is None:
            hint = did_you_mean(str(fname), list(self.diopi))
            self.err(line, who, f"DIOPI function {fname!r} is not in specs/ops.yaml{hint}")
            return None, None
        bind = d.get("bind", {})
        if not isinstance(bind, dict) or not all(isinstance(v, str) for v in bind.values()):
            self.err(d.line_of("bind"), who, "'bind' must map DIOPI argument -> port/attribute name")
            return None, None
        for k in bind:
            if k not in {a.name for a in fn.args}:
                self.err(d.line_of("bind"), who, f"'bind' names '{k}', which is not an argument "
                                                 f"of {fn.name}")
                return None, None
        port_map = {p.name: p for p in ports}
        attr_map = {a.name: a for a in attrs}
        call, dtypes, bound = [], [], set()
        for a in fn.args:
            target = bind.get(a.name, a.name)
            bound.add(target)
            if a.kind == "tensor":
                if a.direction in ("out", "inout"):
                    if target not in outputs:
                        self.err(line, who, f"{fn.name} writes '{a.name}': it must be an output "
                                            f"of {who}" + (f" (bound as '{target}')"
                                                           if target != a.name else ""))
                        continue
                    call.append((a.name, "output", target, a.ctype, a.kind))
                else:
                    p = port_map.get(target)
                    if p is None:
                        self.err(line, who, f"{fn.name} reads tensor '{a.name}': it must be an "
                                            f"input port of {who}")
                        continue
                    if p.optional and not a.optional:
                        self.err(line, who, f"port '{p.name}' is optional but {fn.name}'s "
                                            f"'{a.name}' is not")
                        continue
                    if a.optional and not p.optional:
                        self.err(line, who, f"{fn.name}'s '{a.name}' may be NULL: declare the "
                                            f"port as '{p.name}?'")
                        continue
                    call.append((a.name, "port", target, a.ctype, a.kind))
                dtypes.append((target, tuple(a.dtypes)))
                continue
            want = DIOPI_ENUM_ATTR.get(a.ctype) if a.kind == "enum" else DIOPI_KIND_ATTR.get(a.kind)
            if want is None:
                self.err(line, who, f"{fn.name}'s argument '{a.name}' ({a.ctype}) cannot be a "
                                    "graph attribute")
                continue
            attr = attr_map.get(target)
            if attr is None:
                self.err(line, who, f"{fn.name} takes '{a.name}' ({a.ctype}): declare attribute "
                                    f"'{target}: {want}{'?' if a.optional else ''}'")
                continue
            if attr.type != want or (attr.optional and not a.optional):
                self.err(line, who, f"attribute '{attr.name}' is {attr.spelled} but {fn.name}'s "
                                    f"'{a.name}' is {a.ctype} ({want}{'?' if a.optional else ''})")
                continue
            call.append((a.name, "attr", target, a.ctype, a.kind))
        read = set(infer.args) if infer else set()
        for n in [p.name for p in ports] + [a.name for a in attrs]:
            if n not in bound and n not in read:
                self.err(line, who, f"'{n}' is neither passed to {fn.name} nor read by the "
                                    "inference rule")
        for o in outputs:
            if o not in bound:
                self.err(line, who, f"output '{o}' is not written by {fn.name}")
        if len(call) != len(fn.args):
            return None, None
        diopi = DiopiCall(fn.name, tuple(call), tuple(dtypes))
        return diopi, self.derived_reference(fn, who, line, bind, outputs, attr_map)

    def graph_kernel(self, d, who, ports, outputs, attrs) -> Optional[DiopiCall]:
        """A graph-level kernel: a C function the vendor library exports with DIOPI's calling
        convention but that is not part of specs/ops.yaml (fused ops). Its arguments are the
        context, the outputs, the input ports and the attributes, in catalogue order."""
        fname = d["kernel"]
        line = d.line_of("kernel")
        if not isinstance(fname, str) or not C_IDENT.match(fname):
            self.err(line, who, f"'kernel' must name a C function, got {fname!r}")
            return None
        if fname in self.diopi:
            self.err(line, who, f"{fname} is a DIOPI function of specs/ops.yaml: use 'diopi'")
            return None
        dtypes = d.get("dtypes")
        if not isinstance(dtypes, list) or not dtypes or \
                any(t not in KERNEL_DTYPES for t in dtypes):
            self.err(d.line_of("dtypes") if "dtypes" in d else line, who,
                     f"a graph kernel needs 'dtypes': a list of {', '.join(KERNEL_DTYPES)}")
            return None
        call = [(o, "output", o, "diopiTensorHandle_t", "tensor") for o in outputs]
        call += [(p.name, "port", p.name, "diopiConstTensorHandle_t", "tensor") for p in ports]
        for a in attrs:
            c = KERNEL_ATTR_C[a.optional].get(a.type)
            if c is None:
                self.err(line, who, f"attribute '{a.name}' ({a.spelled}) cannot be passed to a "
                                    "graph kernel")
                return None
            call.append((a.name, "attr", a.name, c[0], c[1]))
        sup = tuple(dtypes)
        return DiopiCall(fname, tuple(call),
                         tuple((n, sup) for n in list(outputs) + [p.name for p in ports]),
                         graph_kernel=True)

    def derived_reference(self, fn: DiopiFunction, who, line, bind, outputs, attr_map):
        """The CPU reference of a DIOPI-bound op: the ATen overload the DIOPI function
        implements (specs/ops.yaml), called with the vendor op's ports and attributes."""
        if not fn.bindings:
            return None
        b = fn.bindings[0]
        by_diopi = {a.name: a for a in fn.args}
        sources = dict(b.sources)
        args, outs = [], []
        guards = dict(b.guards)
        computed = dict(b.computed)
        aten_for = {s.aten_name: k for k, s in sources.items() if s.kind == "arg"}
        for a in b.schema.arguments.flat_all:
            if a.name in aten_for:
                dname = aten_for[a.name]
                target = bind.get(dname, dname)
                darg = by_diopi[dname]
                if darg.kind == "tensor" and darg.direction in ("out", "inout"):
                    if darg.direction == "out":
                        outs.append((target, a.name))
                        args.append((a.name, "output", target))
                    else:  # in-place DIOPI function: the output starts as a fresh tensor
                        outs.append((target, a.name))
                        args.append((a.name, "output", target))
                elif darg.kind == "tensor":
                    args.append((a.name, "port", target))
                else:
                    args.append((a.name, "attr", target))
            elif a.name in guards:
                unused = is_unused(guards[a.name])
                args.append((a.name, "scratch" if unused else "fixed",
                             None if unused else guards[a.name]))
            elif a.name in computed:
                args.append((a.name, "scratch", None))
            elif a.name in attr_map:
                args.append((a.name, "attr", a.name))
            elif _arg_has_default(a):
                continue
            else:
                self.err(line, who, f"the CPU reference aten::{b.schema.name} needs '{a.name}': "
                                    f"declare an attribute '{a.name}'")
                return None
        if b.variant == "functional":
            ret = [(bind.get(k, k), s.index) for k, s in sources.items() if s.kind == "return"]
            return Reference("aten", str(b.schema.name), tuple(args), tuple(i for _, i in ret))
        if b.variant == "inplace":
            return Reference("aten_inplace", str(b.schema.name), tuple(args), tuple(outs))
        return Reference("aten_out", str(b.schema.name), tuple(args), tuple(outs))

    def view_kind(self, d, who, ports, outputs, attrs) -> str:
        kind = d["view"]
        line = d.line_of("view")
        if kind not in VIEWS:
            self.err(line, who, f"unknown view '{kind}' (known: {', '.join(VIEWS)})")
            return ""
        want = VIEWS[kind][1]
        got = tuple((a.name, a.spelled) for a in attrs)
        if len(ports) != 1 or ports[0].optional or len(outputs) != 1:
            self.err(line, who, "a view has one input port and one output")
            return ""
        if got != want:
            spelled = ", ".join(f"{n}: {t}" for n, t in want) or "none"
            self.err(line, who, f"view '{kind}' takes attributes ({spelled}) in this order")
            return ""
        return kind

    # -- conversions ----------------------------------------------------------------------
    def build_conversion(self, d: LineDict, index: int) -> Optional[Conversion]:
        overload = d.get("aten")
        who = str(overload)
        if not self.check_keys(d, CONV_KEYS, who, "a conversion"):
            return None
        schema = self.schema(overload, d.line_of("aten"), who)
        if schema is None:
            return None
        if schema.kind() != SchemaKind.functional:
            self.err(d.line_of("aten"), who, f"only functional overloads convert (aten::{overload} "
                     f"is {schema.kind().name}; in-place ops are functionalised first)")
            return None
        kinds = [k for k in KINDS if k in d]
        if len(kinds) != 1:
            self.err(d.line, who, f"a conversion needs exactly one of {', '.join(KINDS)}"
                                  + (f" (got {', '.join(kinds)})" if kinds else ""))
            return None
        kind = kinds[0]
        nerr = len(self.errors)
        args = {a.name: a for a in schema.arguments.flat_non_out}
        doc = self.text(d["doc"], d.line_of("doc"), who, "doc") if "doc" in d else ""
        when = []
        raw_when = d.get("when", {})
        if not isinstance(raw_when, dict):
            self.err(d.line_of("when"), who, "'when' must map ATen argument -> required value")
            raw_when = {}
        for k, v in raw_when.items():
            at = raw_when.line_of(k) if isinstance(raw_when, LineDict) else d.line
            if k not in args:
                self.err(at, who, f"'when' names '{k}', which is not an argument of aten::{overload}")
            elif not (v is None or isinstance(v, (bool, int, float, str))):
                self.err(at, who, "'when' values must be null, a boolean, a number or a string")
            else:
                when.append((k, v))
        ignore = d.get("ignore", [])
        if not isinstance(ignore, list) or not all(isinstance(x, str) for x in ignore):
            self.err(d.line_of("ignore"), who, "'ignore' must be a list of ATen argument names")
            ignore = []
        for x in ignore:
            if x not in args:
                self.err(d.line_of("ignore"), who, f"'ignore' names '{x}', which is not an "
                                                   f"argument of aten::{overload}")
        if "uses" in d and kind != "custom":
            self.err(d.line_of("uses"), who, "'uses' lists the vendor ops a custom handler emits")
        conv = dict(aten=overload, kind=kind, doc=doc, when=tuple(when), ignore=tuple(ignore),
                    line=d.line_of("aten"), index=index)
        referenced: set = set()
        if kind == "map":
            m = self.build_map(d["map"], d.line_of("map"), who, schema, referenced)
            conv["map"] = m
        elif kind == "decomp":
            conv["steps"] = self.build_steps(d["decomp"], d.line_of("decomp"), who, schema,
                                             referenced)
        elif kind == "custom":
            conv["custom"] = self.python_name(d["custom"], d.line_of("custom"), who,
                                              "custom handler")
            uses = d.get("uses")
            if not isinstance(uses, list) or not uses:
                self.err(d.line_of("custom"), who, "a custom handler lists the vendor ops it may "
                                                   "emit in 'uses'")
                uses = []
            for u in uses:
                if u not in self.ops:
                    self.err(d.line_of("uses"), who, f"'uses' names unknown vendor op {u!r}")
            conv["uses"] = tuple(uses)
        else:
            conv["reason"] = self.text(d["unsupported"], d.line_of("unsupported"), who,
                                       "unsupported")
        if kind in ("map", "decomp") and len(self.errors) == nerr:
            covered = referenced | {k for k, _ in when} | set(ignore)
            for a in args:
                if a not in covered:
                    self.err(d.line, who, f"ATen argument '{a}' of aten::{overload} is not mapped, "
                                          "not tested in 'when' and not in 'ignore'")
        if len(self.errors) > nerr:
            return None
        return Conversion(**conv)

    def typed(self, e, env: dict, line, who, what) -> Optional[str]:
        """Type of expression `e` given `env` (name -> type); reports and returns None."""
        k = e[0]
        if k == "lit":
            v = e[1]
            if v is None:
                return "none"
            if isinstance(v, bool):
                return "bool"
            if isinstance(v, int):
                return "int"
            if isinstance(v, float):
                return "float"
            return "str"
        if k in ("arg", "step"):
            name = e[1]
            if name not in env:
                hint = did_you_mean(name, list(env))
                self.err(line, who, f"{what}: '{name}' is not an argument{hint}")
                return None
            return env[name]
        if k == "list":
            types = [self.typed(x, env, line, who, what) for x in e[1]]
            if any(t is None for t in types):
                return None
            if all(t == "int" for t in types):
                return "ints"
            self.err(line, who, f"{what}: a list must hold integers")
            return None
        if k == "dim":
            t = self.typed(e[1], env, line, who, what)
            r = env.get(e[2])
            if r not in ("tensor",):
                self.err(line, who, f"{what}: dim() normalises against a tensor; '{e[2]}' is not one")
                return None
            if t in ("int", "ints", "ints?", "int?"):
                return t.rstrip("?")   # None normalises to [] (every dim)
            if t is not None:
                self.err(line, who, f"{what}: dim() takes an int or int list, got {t}")
            return None
        if k == "dtype":
            if env.get(e[1]) not in ("tensor",):
                self.err(line, who, f"{what}: dtype() reads a tensor; '{e[1]}' is not one")
                return None
            o = self.typed(e[2], env, line, who, what)
            if o not in ("none", "dtype", "dtype?"):
                if o is not None:
                    self.err(line, who, f"{what}: dtype()'s override must be a dtype, got {o}")
                return None
            return "dtype"
        return None

    def check_assign(self, attr: Attr, etype: str, line, who, what) -> None:
        base, opt = etype.rstrip("?"), etype.endswith("?") or etype == "none"
        if etype == "none":
            if not attr.optional and attr.type != "round_mode":
                self.err(line, who, f"{what}: attribute '{attr.name}' ({attr.spelled}) cannot "
                                    "be null")
            return
        if base not in ACCEPTS[attr.type]:
            self.err(line, who, f"{what}: attribute '{attr.name}' is {attr.spelled} but the "
                                f"value is {etype}")
            return
        if opt and not attr.optional and attr.type != "round_mode":
            self.err(line, who, f"{what}: the value may be None but attribute '{attr.name}' is "
                                f"not optional (test it in 'when' or make it '{attr.type}?')")

    def vendor_call(self, raw, line, who, env, referenced, what):
        """`{op, inputs, attrs}` of a map or a decomposition step, checked against the op."""
        opname = raw.get("op")
        op = self.ops.get(opname) if isinstance(opname, str) else None
        if op is None:
            hint = did_you_mean(str(opname), list(self.ops))
            self.err(line, who, f"{what}: unknown vendor op {opname!r}{hint}")
            return None
        raw_in = raw.get("inputs", {}) or {}
        raw_at = raw.get("attrs", {}) or {}
        if not isinstance(raw_in, dict) or not isinstance(raw_at, dict):
            self.err(line, who, f"{what}: 'inputs' and 'attrs' must be mappings")
            return None
        inputs, attrs = [], []
        for p in op.inputs:
            if p.name not in raw_in:
                if p.optional:
                    inputs.append((p.name, ("lit", None)))
                    continue
                self.err(line, who, f"{what}: input port '{p.name}' of {op.name} is not mapped")
                continue
            try:
                e = parse_expr(raw_in[p.name])
            except ExprError as x:
                self.err(line, who, f"{what}: {x}")
                continue
            t = self.typed(e, env, line, who, what)
            referenced.update(expr_names(e))
            if t is None:
                continue
            if t == "none" and p.optional:
                pass
            elif t == "tensor?" and p.optional:
                pass
            elif t != "tensor":
                self.err(line, who, f"{what}: port '{p.name}' of {op.name} needs a tensor, got {t}"
                                    + (" (make the port optional)" if t == "tensor?" else ""))
            inputs.append((p.name, e))
        for k in raw_in:
            if k not in {p.name for p in op.inputs}:
                self.err(line, who, f"{what}: {op.name} has no input port '{k}'")
        amap = {a.name: a for a in op.attrs}
        for a in op.attrs:
            if a.name not in raw_at:
                self.err(line, who, f"{what}: attribute '{a.name}' of {op.name} is not mapped")
                continue
            try:
                e = parse_expr(raw_at[a.name])
            except ExprError as x:
                self.err(line, who, f"{what}: {x}")
                continue
            t = self.typed(e, env, line, who, what)
            referenced.update(expr_names(e))
            if t is not None:
                self.check_assign(a, t, line, who, what)
            attrs.append((a.name, e))
        for k in raw_at:
            if k not in amap:
                self.err(line, who, f"{what}: {op.name} has no attribute '{k}'")
        return op, tuple(inputs), tuple(attrs)

    def build_map(self, raw, line, who, schema: FunctionSchema, referenced) -> Optional[MapSpec]:
        if not isinstance(raw, LineDict):
            self.err(line, who, "'map' must be a mapping {op, inputs, attrs[, outputs]}")
            return None
        if not self.check_keys(raw, MAP_KEYS, who, "a map"):
            return None
        env = {a.name: aten_type(a.type) for a in schema.arguments.flat_non_out}
        got = self.vendor_call(raw, raw.line, who, env, referenced, "map")
        if got is None:
            return None
        op, inputs, attrs = got
        n_ret = len(schema.returns)
        outs = raw.get("outputs")
        if outs is None:
            if n_ret != len(op.outputs):
                self.err(raw.line, who, f"aten::{schema.name} returns {n_ret} tensors, {op.name} "
                                        f"{len(op.outputs)}: list 'outputs' (null drops a result)")
                return None
            outs = list(op.outputs)
        if not isinstance(outs, list) or len(outs) != n_ret:
            self.err(raw.line_of("outputs"), who, f"'outputs' must list {n_ret} entries: the "
                                                  f"{op.name} output (or null) per ATen result")
            return None
        for o in outs:
            if o is not None and (o not in op.outputs or outs.count(o) > 1):
                self.err(raw.line_of("outputs"), who, f"'outputs': {o!r} is not an output of "
                                                      f"{op.name} (or is used twice)")
                return None
        if all(o is None for o in outs):
            self.err(raw.line_of("outputs"), who, "'outputs' drops every result")
            return None
        return MapSpec(op.name, inputs, attrs, tuple(outs))

    def build_steps(self, raw, line, who, schema: FunctionSchema, referenced) -> tuple:
        if not isinstance(raw, LineList) or not raw:
            self.err(line, who, "'decomp' must be a non-empty list of steps")
            return ()
        env = {a.name: aten_type(a.type) for a in schema.arguments.flat_non_out}
        steps = []
        for i, s in enumerate(raw):
            at = raw.line_of(i)
            what = f"decomp step {i + 1}"
            if not isinstance(s, LineDict) or not self.check_keys(s, STEP_KEYS, who, "a step"):
                if not isinstance(s, LineDict):
                    self.err(at, who, f"{what} must be a mapping")
                continue
            name = s.get("as", "")
            last = i == len(raw) - 1
            if name and (not isinstance(name, str) or not IDENT.match(name) or name in env):
                self.err(at, who, f"{what}: 'as' must be a new lower_snake_case name, got {name!r}")
                continue
            if not last and not name:
                self.err(at, who, f"{what}: every step but the last names its result with 'as'")
                continue
            if ("op" in s) == ("aten" in s):
                self.err(at, who, f"{what} has 'op' (a vendor op) or 'aten' (an ATen op that "
                                  "converts again), not both")
                continue
            if "op" in s:
                if "args" in s:
                    self.err(at, who, f"{what}: a vendor op step takes 'inputs' and 'attrs'")
                    continue
                got = self.vendor_call(s, at, who, env, referenced, what)
                if got is None:
                    continue
                op, inputs, attrs = got
                steps.append(Step(name, op.name, "", inputs, attrs))
                n_out = len(op.outputs)
            else:
                sub = self.schema(s["aten"], s.line_of("aten"), who)
                if sub is None:
                    continue
                if sub.kind() != SchemaKind.functional:
                    self.err(at, who, f"{what}: aten::{s['aten']} is not functional")
                    continue
                raw_args = s.get("args", {}) or {}
                params = {a.name: a for a in sub.arguments.flat_non_out}
                args = []
                for k, v in raw_args.items():
                    if k not in params:
                        self.err(at, who, f"{what}: aten::{s['aten']} has no argument '{k}'")
                        continue
                    try:
                        e = parse_expr(v)
                    except ExprError as x:
                        self.err(at, who, f"{what}: {x}")
                        continue
                    t = self.typed(e, env, at, who, what)
                    referenced.update(expr_names(e))
                    want = aten_type(params[k].type)
                    if t is not None and t != "none" and t.rstrip("?") != want.rstrip("?") and \
                            not (want.rstrip("?") == "scalar" and t in ("int", "float", "scalar")) \
                            and not (want.rstrip("?") == "float" and t == "int"):
                        self.err(at, who, f"{what}: argument '{k}' of aten::{s['aten']} is "
                                          f"{want}, got {t}")
                    args.append((k, e))
                for p in params.values():
                    if p.name not in raw_args and not _arg_has_default(p):
                        self.err(at, who, f"{what}: aten::{s['aten']} needs argument '{p.name}'")
                steps.append(Step(name, "", s["aten"], tuple(args), ()))
                n_out = len(sub.returns)
            if name:
                env[name] = "tensor"
                for j in range(1, n_out):
                    env[f"{name}.{j}"] = "tensor"
        if len(schema.returns) != 1:
            self.err(line, who, "a decomposition replaces an ATen op with one result")
        return tuple(steps)

    def check_reachability(self, conversions) -> None:
        """A later entry for the same ATen op is reachable only if every earlier one has
        a 'when' (a custom handler or an unconditional entry takes every call)."""
        seen: dict[str, Conversion] = {}
        for c in conversions:
            prev = seen.get(c.aten)
            if prev is not None and not prev.when:
                self.err(c.line, c.aten, f"unreachable: the entry at line {prev.line} converts "
                                         f"every call of aten::{c.aten}")
            if prev is None or prev.when:
                seen[c.aten] = c


def load_vendor(path: str, display: str, cat: Catalogue, index: AtenIndex,
                runtime_root: Optional[str] = None) -> VendorCatalogue:
    doc = load_yaml(path, display)
    vendor = os.path.splitext(os.path.basename(path))[0]
    root = runtime_root or os.path.join(REPO_ROOT, "runtime", "python")
    return _VendorBuilder(display, cat, index, root).build(doc, vendor)


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
