"""Emitter: conformance cases (generated/conformance/<family>.yaml) and the C ABI call thunks
of the conformance runner (generated/conformance/diopi_calls.inc).

Every case is derived from the catalogue: the DIOPI signature, the ATen overload the
function binds (its reference on CPU), the output-shaping rule of that binding (which tells
how the input shapes relate: elementwise, broadcast, reduce, mm, ...), the dtypes and the
per-dtype tolerances. Cases carry no values: `python3 -m opweave.conformance golden`
draws the inputs from a seed derived from the case id and runs the reference.

A case id is `<diopi>-<dtype>-<tag>-<hash>`, the hash covering the whole case content, so
ids do not depend on the order cases are generated in and change exactly when a case does.

The few ATen-level conventions the generator needs that are not in the catalogue (which
string values an ATen `str` argument takes, useful values of a named Scalar) are the tables
below; a function whose arguments they cannot cover stops `make gen` with its spec line.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from torchgen.model import Argument, BaseTy, BaseType, OptionalType

from .dtypes import BY_NAME as DTYPE_INFO
from .errors import SpecError
from .model import AtenBinding, Catalogue, DiopiArg, DiopiFunction, OpFamily
from .output_set import OutputSet
from .render import render

FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")

# Values an ATen `str` argument takes (ATen's own vocabularies), the default first.
STR_VALUES = {
    "approximate": ["none", "tanh"],
    "rounding_mode": [None, "trunc", "floor"],
}
# Values of named ATen `int` arguments that have no default in the bound overload.
INT_VALUES = {
    "reduction": [1, 0, 2],        # at::Reduction: Mean (the functional default), None, Sum
    "ignore_index": [-100, 1],     # the functional default, and a class index that occurs
}
# Values of named Scalar arguments: (floating, integral) lists; a schema default goes first.
SCALAR_VALUES = {
    "alpha": ([0.5], [2]),
    "beta": ([0.5], [2]),
    "value": ([0.75, -1.25], [3, -2]),
    "other": ([1.0, -1.5], [3, -2]),   # 1.0: ties with small_int inputs
    "exponent": ([2.0, 0.5, 3.0], [2, 3]),
    "threshold": ([0.1], [1]),
    "min": ([-0.5, None], [-2, None]),
    "max": ([0.5, None], [2, None]),
}
DEFAULT_SCALAR = ([0.75], [3])

# Functions the runtime calls directly (no ATen overload): the reference is a conversion of
# one argument into another (ATen's copy_ semantics). DIOPI output -> DIOPI input.
RUNTIME_REFERENCES = {
    "diopiCopyInp": ("dest", "src"),
    "diopiCastDtype": ("out", "input"),
}

LARGE = [33, 1031]   # ~34k elements: odd sizes so vector tails and partial tiles are exercised


class ConformanceError(SpecError):
    pass


# ---------------------------------------------------------------- value formatting

_BARE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_YAML_WORDS = {"null", "true", "false", "yes", "no", "on", "off", "y", "n", "none", "nan", "inf"}


def flow(value: Any) -> str:
    """Deterministic YAML flow text (a JSON superset PyYAML reads back unchanged)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        if "e" in text and "." not in text:      # YAML 1.1 floats need a dot: 1.0e-05
            mantissa, exp = text.split("e")
            text = f"{mantissa}.0e{exp}"
        return text
    if isinstance(value, str):
        if _BARE.match(value) and value.lower() not in _YAML_WORDS:
            return value
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{flow(k)}: {flow(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {value!r} as YAML")


def case_id(fn: str, case: dict) -> str:
    content = json.dumps({"fn": fn, **case}, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(content.encode()).hexdigest()[:8]
    return f"{fn}-{case['dtype']}-{case['tag']}-{digest}"


# ---------------------------------------------------------------- ATen argument facts

def parse_default(text: Optional[str]) -> tuple[bool, Any]:
    """(has_default, python value) of a schema default literal."""
    if text is None:
        return False, None
    if text == "None":
        return True, None
    if text in ("True", "False"):
        return True, text == "True"
    if text.startswith(("'", '"')):
        return True, text[1:-1]
    if text.startswith("["):
        inner = text[1:-1].strip()
        return True, [int(x) for x in inner.split(",")] if inner else []
    try:
        return True, int(text)
    except ValueError:
        return True, float(text)


def _base(t):
    return t.elem if isinstance(t, OptionalType) else t


def is_scalar_type(a: Argument) -> bool:
    t = _base(a.type)
    return isinstance(t, BaseType) and t.name == BaseTy.ScalarType


def is_tensor_type(a: Argument) -> bool:
    t = _base(a.type)
    return isinstance(t, BaseType) and t.name == BaseTy.Tensor


def dtype_class(dtype: str) -> str:
    if dtype == "bool":
        return "bool"
    return "float" if DTYPE_INFO[dtype].is_floating else "int"


# ---------------------------------------------------------------- function plans

@dataclass
class FnPlan:
    fn: DiopiFunction
    fam: OpFamily
    binding: Optional[AtenBinding]
    diopi_to_aten: dict[str, str] = field(default_factory=dict)
    aten_args: dict[str, Argument] = field(default_factory=dict)
    inputs: list[DiopiArg] = field(default_factory=list)     # tensor args read (in / inout)
    outputs: list[DiopiArg] = field(default_factory=list)    # tensor args written (out / inout)
    attrs: list[DiopiArg] = field(default_factory=list)      # non-tensor args
    rule: str = "like"
    rule_tensors: list[str] = field(default_factory=list)    # DIOPI names of tensors in the rule
    reference: dict = field(default_factory=dict)

    def err(self, reason: str) -> ConformanceError:
        return ConformanceError("specs/ops.yaml", self.fn.line, self.fn.name,
                                f"conformance: {reason}")


def _functional_probe(fn: DiopiFunction, b: AtenBinding) -> Optional[str]:
    for other in fn.bindings:
        if other.derived and other.base is b and other.variant == "functional":
            return other.overload_name
    return None


def plan_function(fam: OpFamily, fn: DiopiFunction) -> FnPlan:
    b = fn.bindings[0] if fn.bindings else None
    p = FnPlan(fn, fam, b)
    for a in fn.args:
        if a.is_tensor and a.direction in ("in", "inout"):
            p.inputs.append(a)
        if a.is_tensor and a.direction in ("out", "inout"):
            p.outputs.append(a)
        if not a.is_tensor:
            p.attrs.append(a)
    if b is None:
        if fn.name not in RUNTIME_REFERENCES:
            raise p.err("runtime-only function without a reference; add it to "
                        "RUNTIME_REFERENCES in codegen/emit_conformance.py")
        out_name, in_name = RUNTIME_REFERENCES[fn.name]
        p.rule = "convert"
        p.reference = {"runtime": "convert", "output": out_name, "input": in_name}
        # runtime outputs are written, not read: the destination is an output here
        p.inputs = [a for a in p.inputs if a.name != out_name]
        return p
    p.aten_args = {a.name: a for a in b.schema.arguments.flat_all}
    for arg_name, src in b.sources:
        if src.kind == "arg":
            p.diopi_to_aten[arg_name] = src.aten_name
    aten_to_diopi = {v: k for k, v in p.diopi_to_aten.items()}
    rules = dict(b.outputs)
    first_out = p.outputs[0].name if p.outputs else None
    rule = rules.get(first_out) if first_out else None
    if rule is None and b.variant == "inplace":
        rule = rules.get("self")
    if rule is not None:
        p.rule = rule.rule
        p.rule_tensors = [aten_to_diopi[a] for a in rule.args
                          if a in aten_to_diopi and is_tensor_type(p.aten_args[a])]
    positional = [a.name for a in b.schema.arguments.flat_positional]
    ref = {"overload": b.overload_name, "variant": b.variant, "positional": positional,
           "args": dict(p.diopi_to_aten)}
    outs = [a.name for a in b.schema.arguments.out]
    if outs:
        ref["outs"] = outs
    returns = [name for name, src in b.sources if src.kind == "return"]
    if returns:
        ref["returns"] = returns
    probe = _functional_probe(fn, b)
    if probe:
        ref["probe"] = probe
    guards = {k: v for k, v in b.guards}
    if guards:
        ref["fixed"] = guards
    p.reference = ref
    return p


# ---------------------------------------------------------------- attribute values

def attr_values(p: FnPlan, a: DiopiArg, dtype: str) -> list:
    """Candidate values of a non-tensor DIOPI argument for a case of `dtype`, default first."""
    aten = p.aten_args.get(p.diopi_to_aten.get(a.name, ""))
    has_default, default = parse_default(aten.default if aten is not None else None)
    name = aten.name if aten is not None else a.name
    k = a.kind
    cls = dtype_class(dtype)
    if k == "generator":
        return [None]
    if k == "scalar":
        if cls == "bool":
            values = [True]
        else:
            floats, ints = SCALAR_VALUES.get(name, DEFAULT_SCALAR)
            values = list(floats if cls == "float" else ints)
            if dtype == "uint8":
                values = [v for v in values if v is None or v >= 0]
        if has_default:
            values = [default] + [v for v in values if v != default or type(v) is not type(default)]
        if a.optional and None not in values:
            values.append(None)
        if not a.optional:
            values = [v for v in values if v is not None]
        return values
    if k == "enum" and a.ctype == "diopiRoundMode_t" or k == "str":
        if name not in STR_VALUES:
            if has_default:
                return [default]
            raise p.err(f"no test values for str argument '{name}'; add them to STR_VALUES "
                        "in codegen/emit_conformance.py")
        return list(STR_VALUES[name])
    if k in ("int", "enum", "int_opt"):
        if name == "dim":
            return [-1, 0]
        if name in INT_VALUES:
            values = list(INT_VALUES[name])
            if has_default and default in values:
                values.remove(default)
            return ([default] if has_default else []) + values
        if has_default:
            return [default]
        raise p.err(f"no test values for int argument '{name}'; add them to INT_VALUES in "
                    "codegen/emit_conformance.py")
    if k in ("bool", "bool_opt"):
        return [default, not default] if has_default and default is not None else [False, True]
    if k in ("float", "float_opt"):
        return [default] if has_default else [0.5]
    if k in ("dtype", "dtype_opt"):
        return [default] if has_default else [dtype]
    if k == "size":
        return [[]]
    raise p.err(f"no test values for a '{k}' argument ('{a.name}')")


def attr_combos(p: FnPlan, dtype: str, skip: tuple[str, ...] = ()) -> list[dict]:
    """Attribute assignments for the base shape: the cartesian product when small, else the
    defaults plus one argument varied at a time. Never all optional scalars absent at once
    (ATen rejects clamp(min=None, max=None))."""
    names, choices = [], []
    for a in p.attrs:
        if a.name in skip:
            continue
        names.append(a.name)
        choices.append(attr_values(p, a, dtype))
    optional_scalars = [i for i, a in enumerate(a for a in p.attrs if a.name not in skip)
                        if a.kind == "scalar" and a.optional]
    total = 1
    for c in choices:
        total *= len(c)
    if total <= 12:
        combos = [dict(zip(names, vals)) for vals in itertools.product(*choices)]
    else:
        base = [c[0] for c in choices]
        combos = [dict(zip(names, base))]
        for i, c in enumerate(choices):
            for v in c[1:]:
                vals = list(base)
                vals[i] = v
                combos.append(dict(zip(names, vals)))
    if len(optional_scalars) > 1:
        combos = [c for c in combos
                  if any(c[names[i]] is not None for i in optional_scalars)]
    return combos


# ---------------------------------------------------------------- shapes by output rule

def _broadcast(*shapes):
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(ndim):
        dims = {s[len(s) - ndim + i] for s in shapes if len(s) - ndim + i >= 0} - {1}
        if len(dims) > 1:
            return None
        out.append(dims.pop() if dims else 1)
    return out


def _tensor(shape, dtype, layout="contiguous", values="normal"):
    t = {"shape": list(shape), "dtype": dtype}
    if layout != "contiguous":
        t["layout"] = layout
    if values != "normal":
        t["values"] = values
    return t


# (tag, shapes of the rule's tensors, layout)
BROADCAST_2 = [
    ("base", [[4, 5], [4, 5]], "contiguous"),
    ("bcast", [[4, 5], [5]], "contiguous"),
    ("bcast_lead", [[5], [4, 5]], "contiguous"),
    ("bcast_both", [[4, 1], [1, 5]], "contiguous"),
    ("bcast_3d", [[2, 3, 5], [3, 1]], "contiguous"),
    ("scalar0d", [[], []], "contiguous"),
    ("mixed0d", [[4, 5], []], "contiguous"),
    ("empty", [[0, 5], [5]], "contiguous"),
    ("large", [LARGE, LARGE], "contiguous"),
    ("transposed", [[4, 5], [4, 5]], "transposed"),
    ("sliced", [[4, 5], [4, 5]], "sliced"),
]
BROADCAST_3 = [
    ("base", [[4, 5], [4, 5], [4, 5]], "contiguous"),
    ("bcast", [[4, 5], [5], [4, 1]], "contiguous"),
    ("bcast_lead", [[5], [4, 5], [4, 1]], "contiguous"),
    ("bcast_3d", [[2, 3, 5], [3, 1], [5]], "contiguous"),
    ("scalar0d", [[], [], []], "contiguous"),
    ("mixed0d", [[4, 5], [], [5]], "contiguous"),
    ("empty", [[0, 5], [5], [0, 1]], "contiguous"),
    ("large", [LARGE, LARGE, LARGE], "contiguous"),
    ("transposed", [[4, 5], [4, 5], [4, 5]], "transposed"),
    ("sliced", [[4, 5], [4, 5], [4, 5]], "sliced"),
]
ELEMENTWISE = [
    ("base", [4, 5], "contiguous"),
    ("scalar0d", [], "contiguous"),
    ("empty", [0, 3], "contiguous"),
    ("vec", [7], "contiguous"),
    ("3d", [2, 3, 4], "contiguous"),
    ("large", LARGE, "contiguous"),
    ("transposed", [4, 5], "transposed"),
    ("sliced", [4, 5], "sliced"),
]
# (tag, input shape, dims, keepdim, layout)
REDUCE = [
    ("base", [4, 5], [1], False, "contiguous"),
    ("keepdim", [4, 5], [0], True, "contiguous"),
    ("all", [4, 5], [], False, "contiguous"),
    ("negdim", [2, 3, 4], [-1], True, "contiguous"),
    ("multi", [2, 3, 4], [0, 2], False, "contiguous"),
    ("scalar0d", [], [], False, "contiguous"),
    ("empty", [0, 5], [0], False, "contiguous"),
    ("empty_out", [0, 5], [1], False, "contiguous"),
    ("large", LARGE, [1], False, "contiguous"),
    ("large_all", LARGE, [], False, "contiguous"),
    ("transposed", [4, 5], [0], False, "transposed"),
    ("sliced", [4, 5], [1], False, "sliced"),
]
MM = [
    ("base", [3, 4], [4, 5], "contiguous"),
    ("one", [1, 1], [1, 1], "contiguous"),
    ("empty", [0, 4], [4, 5], "contiguous"),
    ("kzero", [3, 0], [0, 5], "contiguous"),
    ("large", [65, 129], [129, 67], "contiguous"),
    ("transposed", [3, 4], [4, 5], "transposed"),
    ("sliced", [3, 4], [4, 5], "sliced"),
]
BMM = [
    ("base", [2, 3, 4], [2, 4, 5], "contiguous"),
    ("empty", [0, 3, 4], [0, 4, 5], "contiguous"),
    ("kzero", [2, 3, 0], [2, 0, 5], "contiguous"),
    ("large", [8, 33, 65], [8, 65, 17], "contiguous"),
    ("transposed", [2, 3, 4], [2, 4, 5], "transposed"),
    ("sliced", [2, 3, 4], [2, 4, 5], "sliced"),
]
# (tag, input shape [N, C] or [C], layout)
NLL = [
    ("base", [6, 5], "contiguous"),
    ("single", [5], "contiguous"),
    ("empty", [0, 5], "contiguous"),
    ("large", [257, 33], "contiguous"),
    ("transposed", [6, 5], "transposed"),
    ("sliced", [6, 5], "sliced"),
]


def _arg_dtype(a: DiopiArg, dtype: str) -> str:
    return dtype if dtype in a.dtypes or not a.dtypes else a.dtypes[0]


class CaseBuilder:
    def __init__(self, p: FnPlan, dtype: str):
        self.p = p
        self.dtype = dtype
        self.cases: list[dict] = []
        self.values = "small_int" if p.rule == "compare" else "normal"

    def input_spec(self, a: DiopiArg, shape, layout="contiguous", values=None):
        dt = _arg_dtype(a, self.dtype)
        v = values or self.values
        if dt == "bool" and v not in ("bool",):
            v = "bool"
        return _tensor(shape, dt, layout, v)

    def aten_only(self, **given) -> dict:
        """Values of the reference overload's arguments DIOPI does not take (read by the output
        rule or fixed by the catalogue), in schema order."""
        p = self.p
        if p.binding is None:
            return {}
        out = {}
        passed = set(p.diopi_to_aten.values())
        fixed = dict(p.binding.guards)
        computed = {k for k, _ in p.binding.computed}
        outs = {a.name for a in p.binding.schema.arguments.out}
        for name, a in p.aten_args.items():
            if name in passed or name in fixed or name in computed or name in outs:
                continue
            if name in given:
                out[name] = given[name]
                continue
            has_default, default = parse_default(a.default)
            if has_default:
                out[name] = default
            elif is_scalar_type(a):
                out[name] = self.dtype
            else:
                raise p.err(f"no value for ATen argument '{name}' of {p.binding.op_name}")
        return out

    def add(self, tag: str, inputs: dict, attrs: dict, aten: Optional[dict] = None,
            out_layout: str = "contiguous", extra: Optional[dict] = None) -> None:
        case = {"dtype": self.dtype, "tag": tag, "inputs": inputs, "attrs": attrs}
        aten = aten if aten is not None else self.aten_only()
        if aten:
            case["aten"] = aten
        if out_layout != "contiguous":
            case["out_layout"] = out_layout
        if extra:
            case.update(extra)
        self.cases.append(case)

    # -- the shape classes -------------------------------------------------------------
    def build(self) -> list[dict]:
        try:
            return self._build()
        except (ValueError, StopIteration, KeyError, IndexError) as e:
            raise self.p.err(f"the '{self.p.rule}' shape class does not fit the arguments "
                             f"({type(e).__name__}: {e})") from None

    def _build(self) -> list[dict]:
        rule = self.p.rule
        if rule == "convert":
            self.convert()
        elif rule in ("broadcast", "compare", "select") and len(self.p.rule_tensors) >= 2:
            self.broadcast()
        elif rule == "reduce":
            self.reduce()
        elif rule in ("mm", "bmm"):
            self.matmul(MM if rule == "mm" else BMM)
        elif rule == "nll_loss":
            self.nll()
        else:  # like, cast, single-tensor broadcast, in-place without a rule
            self.elementwise()
        return self.cases

    def _first_attrs(self, skip=()) -> dict:
        return attr_combos(self.p, self.dtype, skip)[0]

    def _outstrided(self, inputs: dict, attrs: dict, aten=None) -> None:
        if any(a.direction == "out" for a in self.p.outputs):
            self.add("out_strided", inputs, attrs, aten, out_layout="sliced")

    def elementwise(self) -> None:
        p = self.p
        has_dim = any(a.name == "dim" for a in p.attrs)
        for tag, shape, layout in ELEMENTWISE:
            inputs = {a.name: self.input_spec(a, shape, layout) for a in p.inputs}
            if tag == "base":
                for attrs in attr_combos(p, self.dtype):
                    self.add(tag, inputs, attrs)
                if self.dtype in FLOAT_DTYPES and self.values == "normal":
                    pos = {a.name: self.input_spec(a, shape, layout, "positive") for a in p.inputs}
                    self.add("positive", pos, self._first_attrs())
                self._outstrided(inputs, self._first_attrs())
            else:
                attrs = self._first_attrs()
                if has_dim and not shape:
                    attrs["dim"] = 0
                self.add(tag, inputs, attrs)

    def broadcast(self) -> None:
        p = self.p
        rule_args = [next(a for a in p.inputs if a.name == n) for n in p.rule_tensors]
        others = [a for a in p.inputs if a.name not in p.rule_tensors]
        inout = [a.name for a in p.inputs if a.direction == "inout"]
        table = BROADCAST_2 if len(rule_args) == 2 else BROADCAST_3
        for tag, shapes, layout in table:
            shapes = shapes[:len(rule_args)]
            out_shape = _broadcast(*shapes)
            if any(shapes[p.rule_tensors.index(n)] != out_shape for n in inout):
                continue  # in-place: self must already have the broadcast shape
            inputs = {a.name: self.input_spec(a, s, layout) for a, s in zip(rule_args, shapes)}
            for a in others:
                inputs[a.name] = self.input_spec(a, out_shape, layout)
            inputs = {a.name: inputs[a.name] for a in p.inputs}
            if tag == "base":
                for attrs in attr_combos(p, self.dtype):
                    self.add(tag, inputs, attrs)
                self._outstrided(inputs, self._first_attrs())
            else:
                self.add(tag, inputs, self._first_attrs())

    def reduce(self) -> None:
        p = self.p
        (src,) = [a for a in p.inputs]
        dim_arg = next(a.name for a in p.attrs if a.kind == "size")
        for tag, shape, dims, keepdim, layout in REDUCE:
            attrs = self._first_attrs(skip=(dim_arg,))
            attrs[dim_arg] = dims
            inputs = {src.name: self.input_spec(src, shape, layout)}
            aten = self.aten_only(keepdim=keepdim)
            self.add(tag, inputs, dict(sorted(attrs.items())), aten)
            if tag == "base":
                self._outstrided(inputs, dict(sorted(attrs.items())), aten)

    def matmul(self, table) -> None:
        p = self.p
        a_arg, b_arg = [next(x for x in p.inputs if x.name == n) for n in p.rule_tensors]
        others = [x for x in p.inputs if x.name not in p.rule_tensors]
        for tag, sa, sb, layout in table:
            out_shape = sa[:-1] + sb[-1:]
            inputs = {a_arg.name: self.input_spec(a_arg, sa, layout),
                      b_arg.name: self.input_spec(b_arg, sb, layout)}
            for x in others:
                inputs[x.name] = self.input_spec(x, out_shape, layout)
            ordered = {x.name: inputs[x.name] for x in p.inputs}
            if tag == "base":
                for attrs in attr_combos(p, self.dtype):
                    self.add(tag, ordered, attrs)
                self._outstrided(ordered, self._first_attrs())
                for x in others:   # an input broadcast to the product's shape (addmm's bias)
                    bias = dict(ordered)
                    bias[x.name] = self.input_spec(x, out_shape[-1:], layout)
                    self.add("bias_bcast", bias, self._first_attrs())
            else:
                self.add(tag, ordered, self._first_attrs())

    def nll(self) -> None:
        p = self.p
        names = {a.name: a for a in p.inputs}
        score = names[p.rule_tensors[0]]
        target = names[p.rule_tensors[1]]
        weights = [a for a in p.inputs if a.name not in p.rule_tensors]
        for tag, shape, layout in NLL:
            classes = shape[-1]
            inputs = {score.name: self.input_spec(score, shape, layout),
                      target.name: self.input_spec(target, shape[:-1], "contiguous",
                                                   f"index{classes}")}
            combos = attr_combos(p, self.dtype) if tag == "base" else [self._first_attrs()]
            for attrs in combos:
                for with_weight in ((False, True) if tag == "base" else (False,)):
                    case_inputs = dict(inputs)
                    case_attrs = dict(attrs)
                    for w in weights:
                        case_inputs[w.name] = (self.input_spec(w, [classes], "contiguous",
                                                               "positive")
                                               if with_weight else None)
                    ordered = {a.name: case_inputs[a.name] for a in p.inputs}
                    self.add(tag, ordered, case_attrs)

    def convert(self) -> None:
        p = self.p
        (src,) = p.inputs
        out_name = p.reference["output"]
        dtypes = src.dtypes or p.fam.dtypes
        for tag, shape, layout in ELEMENTWISE:
            out_layout = "sliced" if layout == "sliced" else "contiguous"
            in_layout = "transposed" if layout == "transposed" else "contiguous"
            self.add(tag, {src.name: self.input_spec(src, shape, in_layout)}, {},
                     out_layout=out_layout, extra={"out_dtypes": {out_name: self.dtype}})
        # conversions from this dtype into every other one
        for other in dtypes:
            if other != self.dtype:
                self.add("to_" + other, {src.name: self.input_spec(src, [4, 5])}, {},
                         extra={"out_dtypes": {out_name: other}})


def backward_cases(p: FnPlan, fwd: FnPlan, fwd_cases: list[dict]) -> list[dict]:
    """Cases of a Backward function from those of its forward: `output` is the forward's
    result, `grad_output` has its shape, and the arguments both share take the forward's
    values, so the backward sees the data it would see in training."""
    fwd_inputs = {a.name for a in fwd.inputs}
    fwd_attrs = {a.name for a in fwd.attrs}
    fwd_out = fwd.outputs[0].name
    cases = []
    for fc in fwd_cases:
        layout = next((t.get("layout") for t in fc["inputs"].values()
                       if t is not None and t.get("layout")), "contiguous")
        inputs = {}
        for a in p.inputs:
            if a.name == "grad_output":
                spec = {"like": fwd_out, "values": "normal"}
            elif a.name == "output":
                spec = {"from": fwd_out}
            elif a.name in fwd_inputs:
                if fc["inputs"][a.name] is None:
                    inputs[a.name] = None
                    continue
                spec = {"from": a.name}
            else:
                raise p.err(f"backward input '{a.name}' has no counterpart in {fwd.fn.name}")
            if layout != "contiguous":
                spec["layout"] = layout
            inputs[a.name] = spec
        attrs = {}
        for a in p.attrs:
            if a.name in fwd_attrs:
                attrs[a.name] = fc["attrs"][a.name]
            else:
                attrs[a.name] = attr_values(p, a, fc["dtype"])[0]
        builder = CaseBuilder(p, fc["dtype"])
        aten = {}
        for name, value in builder.aten_only().items():
            aten[name] = value
        forward = {"fn": fwd.fn.name, "inputs": fc["inputs"], "attrs": fc["attrs"]}
        if fc.get("aten"):
            forward["aten"] = fc["aten"]
        case = {"dtype": fc["dtype"], "tag": fc["tag"], "inputs": inputs, "attrs": attrs}
        if aten:
            case["aten"] = aten
        if fc.get("out_layout"):
            case["out_layout"] = fc["out_layout"]
        case["forward"] = forward
        cases.append(case)
    return cases


def function_cases(fam: OpFamily, plans: dict[str, FnPlan], p: FnPlan,
                   memo: dict[str, list[dict]]) -> list[dict]:
    if p.fn.name in memo:
        return memo[p.fn.name]
    fwd_name = p.fn.name[:-len("Backward")] if p.fn.name.endswith("Backward") else None
    if fwd_name and fwd_name not in plans and any(f.name == fwd_name for f in fam.functions):
        raise p.err(f"its forward {fwd_name} has no cases")
    if fwd_name and fwd_name in plans:
        cases = backward_cases(p, plans[fwd_name],
                               function_cases(fam, plans, plans[fwd_name], memo))
    else:
        dtypes = sorted({d for a in p.inputs for d in (a.dtypes or fam.dtypes)} & set(fam.dtypes),
                        key=fam.dtypes.index) or list(fam.dtypes)
        cases = []
        for dtype in dtypes:
            cases += CaseBuilder(p, dtype).build()
    seen, unique = set(), []
    for c in cases:
        c = dict(c)
        cid = case_id(p.fn.name, c)
        if cid in seen:
            continue
        seen.add(cid)
        unique.append({"id": cid, **c})
    memo[p.fn.name] = unique
    return unique


# ---------------------------------------------------------------- C call thunks

def call_expr(a: DiopiArg, i: int) -> str:
    k = a.kind
    if k == "tensor":
        return f"a.const_tensor({i})" if a.direction == "in" else f"a.tensor({i})"
    if k == "tensor_list":
        if a.direction == "in":
            return f"a.const_tensor_list({i}), a.list_size({i})"
        return f"a.tensor_list({i}), a.list_size({i})"
    simple = {"scalar": "scalar", "size": "size", "int": "int64", "int_opt": "int64_opt",
              "float": "float64", "float_opt": "float64_opt", "bool": "boolean",
              "bool_opt": "boolean_opt", "str": "str", "dtype": "dtype",
              "dtype_opt": "dtype_opt", "generator": "generator"}
    if k in simple:
        return f"a.{simple[k]}({i})"
    if k == "enum":
        return f"static_cast<{a.ctype}>(a.int64({i}))"
    raise NotImplementedError(f"no runner conversion for DIOPI argument kind {k} ({a.name})")


def signature(fn: DiopiFunction) -> list[dict]:
    out = []
    for a in fn.args:
        entry = {"name": a.name, "kind": a.kind, "dir": a.direction}
        if a.kind == "enum":
            entry["ctype"] = a.ctype
        if a.optional:
            entry["optional"] = True
        out.append(entry)
    return out


def emit(cat: Catalogue, env, out: OutputSet) -> None:
    env.filters["flow"] = flow
    summary = []
    for fam in cat.families:
        plans, unsupported = {}, {}
        for fn in fam.functions:
            try:
                plans[fn.name] = plan_function(fam, fn)
            except ConformanceError as e:
                unsupported[fn.name] = e.reason
        memo: dict[str, list[dict]] = {}
        entries = []
        for fn in fam.functions:
            p = plans.get(fn.name)
            cases = []
            if p is not None:
                try:
                    cases = function_cases(fam, plans, p, memo)
                except ConformanceError as e:
                    unsupported[fn.name] = e.reason
            # A function the generator cannot cover gets no cases and says why (the runner
            # reports it), instead of stopping `make gen` for a catalogue edit.
            entries.append({"fn": fn, "plan": p, "signature": signature(fn), "cases": cases,
                            "unsupported": unsupported.get(fn.name, "")})
            counts: dict[str, int] = {}
            for c in cases:
                counts[c["dtype"]] = counts.get(c["dtype"], 0) + 1
            summary.append({"fn": fn.name, "family": fam.name, "cases": len(cases),
                            "dtypes": counts, "unsupported": unsupported.get(fn.name, "")})
        tolerances = {d: [t.atol, t.rtol] for d, t in fam.tolerances}
        out.add(f"conformance/{fam.name}.yaml",
                render(env, "conformance/family.yaml.j2", fam=fam, entries=entries,
                       tolerances=tolerances))
    totals: dict[str, int] = {}
    for s in summary:
        for d, n in s["dtypes"].items():
            totals[d] = totals.get(d, 0) + n
    out.add("conformance/index.yaml",
            render(env, "conformance/index.yaml.j2", summary=summary,
                   total=sum(s["cases"] for s in summary),
                   totals=dict(sorted(totals.items())), torch_version=cat.torch_version))
    calls = [(fn, [call_expr(a, i) for i, a in enumerate(fn.args)]) for fn in cat.functions]
    out.add("conformance/diopi_calls.inc",
            render(env, "conformance/diopi_calls.inc.j2", calls=calls))
