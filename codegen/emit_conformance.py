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
from .rules import is_unused
from .render import render

FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")

# Values an ATen `str` argument takes (ATen's own vocabularies), the default first.
STR_VALUES = {
    "approximate": ["none", "tanh"],
    "rounding_mode": [None, "trunc", "floor"],
}
# Values of named ATen `int` arguments (a schema default goes first).
INT_VALUES = {
    "reduction": [1, 0, 2],        # at::Reduction: Mean (the functional default), None, Sum
    "ignore_index": [-100, 1],     # the functional default, and a class index that occurs
    "diagonal": [0, 1, -1],
    "padding_idx": [-1, 1],
    "decimals": [0, 2, -1],        # round.decimals: places after the point, tens
    "n": [2, 1, 0, 3],             # polygamma's order
}
# Values of named ATen `float` arguments.
FLOAT_VALUES = {
    "eps": [1e-5],
    "beta": [1.0, 0.25],      # smooth_l1_loss: the default and a narrow quadratic zone
}
# ATen arguments that only matrix ops take: such ops get no 0-dim or 1-D cases.
MATRIX_ARGS = {"diagonal"}
# Arguments of a Backward function its forward case determines: name -> (what, forward arg).
BACKWARD_ATTRS = {
    "input_sizes": ("shape", "input"),      # index_select_backward's self_sizes
    "num_weights": ("dim0", "weight"),      # embedding_dense_backward
    "bias_sizes": ("bias_channels", "weight"),   # convolution backward
    "in_size": ("shape", "input"),          # upsample backward: the forward input's sizes
    "out_size": ("attr", "size"),           # ... and the forward's output size
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
    "p": ([2.0, 1.0, float("inf"), 3.0, 0.0], [2]),   # norm's order
}
# Values of named ATen bool arguments (instead of [default, not default]).
BOOL_VALUES = {
    "stable": [True],   # sort: ATen's non-stable CPU order of ties is not reproducible
    "sorted": [True],   # topk: the order of an unsorted result is ATen's choice
}
# Values of named ATen int-list arguments (default: the empty list).
SIZE_VALUES = {
    "dims": [[-1], [0], [0, -1]],
}
# Int-list arguments that only make sense together: one choice of values for both.
PAIRED_SIZES = {
    ("shifts", "dims"): [([2], [-1]), ([-1], [0]), ([1, 3], [0, -1]), ([5], [])],
}
DEFAULT_SCALAR = ([0.75], [3])

# Functions the runtime calls directly (no ATen overload): the reference is a conversion of
# one argument into another (ATen's copy_ semantics). DIOPI output -> DIOPI input.
RUNTIME_REFERENCES = {
    "diopiCopyInp": ("dest", "src"),
    "diopiCastDtype": ("out", "input"),
}

# Optimizer kernels the runtime calls once per parameter (runtime/src/fused_adam.cpp): the
# reference is torch.optim's single-tensor update of that kind on CPU (conformance/reference.py),
# and their cases take these hyper-parameter values (the product of them, on the base shape).
OPTIMIZER_REFERENCES = {"diopiAdam": "adam", "diopiAdamW": "adamw"}
OPTIMIZER_ATTRS = {
    "lr": [0.01], "beta1": [0.9], "beta2": [0.999], "eps": [1e-8],
    "weight_decay": [0.1, 0.0], "step": [3, 1], "amsgrad": [False, True],
}
# Optimizer state that must be non-negative (running averages of squares).
OPTIMIZER_POSITIVE = ("exp_avg_sq", "max_exp_avg_sq")

# Values an input must take to be in the reference's domain (ATen checks them), by DIOPI
# function: the kind of values drawn for every input of its cases.
INPUT_VALUES = {
    "diopiBernoulli": "unit",   # probabilities in [0, 1]
    "diopiNormalScalarTensor": "positive",   # standard deviations
    "diopiNormalTensor": "positive",
    # functions whose domain a normal draw mostly misses (the result would be NaN)
    "diopiAcosh": "positive", "diopiAcoshInp": "positive",
    "diopiAtanh": "unit", "diopiAtanhInp": "unit",
    "diopiErfinv": "unit", "diopiErfinvInp": "unit",
    "diopiLogit": "unit", "diopiLogitInp": "unit",
}

# Overloads with no CPU kernel (the `_overrideable` hooks a backend implements): the reference
# runs the ATen op they stand for. `args` maps further DIOPI arguments to the substitute's
# arguments; `fixed` gives the substitute's arguments the catalogue ignores.
REFERENCE_SUBSTITUTES = {
    "convolution_overrideable": {
        "overload": "convolution",
        "positional": ["input", "weight", "bias", "stride", "padding", "dilation", "transposed",
                       "output_padding", "groups"],
        "fixed": {"output_padding": [0, 0]},
    },
    "convolution_backward_overrideable": {
        "overload": "convolution_backward",
        "positional": ["grad_output", "input", "weight", "bias_sizes", "stride", "padding",
                       "dilation", "transposed", "output_padding", "groups", "output_mask"],
        "args": {"bias_sizes": "bias_sizes"},
        "fixed": {"output_padding": [0, 0]},
    },
}
# Backward functions whose forward is not named <backward minus "Backward">.
FORWARD_OF = {"diopiMaxPool2dBackward": "diopiMaxPool2dWithIndices"}

# Output rules that pick the shape class even when another output comes first.
SPECIAL_CLASSES = ("layer_norm_stats", "batch_norm_stats", "batch_norm_saved")

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
        if value != value or value in (float("inf"), float("-inf")):
            return {"nan": ".nan", "inf": ".inf", "-inf": "-.inf"}[repr(value)]
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
    if text in ("Mean", "Sum"):   # at::Reduction defaults (int reduction=Mean)
        return True, 1 if text == "Mean" else 2
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
    rules: dict = field(default_factory=dict)                 # DIOPI output -> OutputRule
    constants: dict = field(default_factory=dict)             # DIOPI arg -> catalogue `value`
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
    if b is None and fn.name in OPTIMIZER_REFERENCES:
        p.rule = "optimizer"
        p.reference = {"runtime": OPTIMIZER_REFERENCES[fn.name]}
        return p
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
    substitute = REFERENCE_SUBSTITUTES.get(str(b.schema.name.name), {})
    for arg_name, src in b.sources:
        if src.kind == "arg":
            p.diopi_to_aten[arg_name] = src.aten_name
        elif src.kind == "value":
            value = getattr(src, "value", None)
            if arg_name in substitute.get("args", {}):
                continue   # an attribute of the case, passed to the substitute reference
            if not isinstance(value, (bool, int, float, type(None))):
                raise p.err(f"argument '{arg_name}' is computed by a helper ({value}); the "
                            "runner cannot supply it yet")
            p.constants[arg_name] = value
    aten_to_diopi = {v: k for k, v in p.diopi_to_aten.items()}
    rules = dict(b.outputs)
    p.rules = rules
    first_out = p.outputs[0].name if p.outputs else None
    rule = rules.get(first_out) if first_out else None
    if rule is None and b.variant == "inplace":
        rule = rules.get("self")
    special = [r for r in rules.values() if r.rule in SPECIAL_CLASSES]
    if special:
        rule = special[0]
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
    if substitute:
        ref["overload"] = substitute["overload"]
        ref["positional"] = list(substitute["positional"])
        ref["args"].update(substitute.get("args", {}))
    guards = {k: v for k, v in b.guards}
    guards.update(substitute.get("fixed", {}))
    for k, v in guards.items():
        # an unused argument with a default (_index_put_impl_'s unsafe): the reference takes
        # the default rather than the forward call's value
        has_default, default = parse_default(p.aten_args[k].default)
        if is_unused(v) and has_default:
            guards[k] = default
    if guards:
        ref["fixed"] = guards
    if any(a.kind == "generator" for a in fn.args):
        # random: the device generator's values are not the CPU's, so the runner compares
        # the outputs' distributions (moments; a permutation's sorted values) instead
        ref["compare"] = "distribution"
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
    if a.name in p.constants:
        return [p.constants[a.name]]
    if p.rule == "optimizer":
        if a.name not in OPTIMIZER_ATTRS:
            raise p.err(f"no test values for optimizer argument '{a.name}'; add them to "
                        "OPTIMIZER_ATTRS in codegen/emit_conformance.py")
        return list(OPTIMIZER_ATTRS[a.name])
    if k == "generator":
        return [None]
    if k == "scalar_double":   # a Scalar DIOPI passes as double: the floating test values
        floats, _ints = SCALAR_VALUES.get(name, DEFAULT_SCALAR)
        values = [v for v in floats if v is not None]
        return ([default] if has_default else []) + [v for v in values if v != default]
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
            return ([default] if has_default and default not in (-1, 0) else []) + [-1, 0]
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
        if name in BOOL_VALUES:
            return list(BOOL_VALUES[name])
        return [default, not default] if has_default and default is not None else [False, True]
    if k in ("float", "float_opt"):
        if name in FLOAT_VALUES:
            return list(FLOAT_VALUES[name])
        return [default] if has_default else [0.5]
    if k in ("dtype", "dtype_opt"):
        return [default] if has_default else [dtype]
    if k == "size":
        return [list(v) for v in SIZE_VALUES.get(name, [[]])]
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
    for (first, second), pairs in PAIRED_SIZES.items():
        aten_names = [p.diopi_to_aten.get(n, n) for n in names]
        if first in aten_names and second in aten_names:
            i, j = aten_names.index(first), aten_names.index(second)
            choices[i] = [list(a) for a, _ in pairs]
            choices[j] = [list(b) for _, b in pairs]
            combos = [dict(zip(names, [c[0] for c in choices]))]
            for a, b in pairs[1:]:
                combo = dict(combos[0])
                combo[names[i]], combo[names[j]] = list(a), list(b)
                combos.append(combo)
            return combos
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


def _indexed_shape(shape, entries):
    """The shape of input[entries] for ADVANCED_INDEX entries, a mask standing for [1] per dim it
    covers (values of that shape broadcast to whatever count the mask selects)."""
    dims, index_shapes, pos = [], [], 0
    for e in entries:
        if e is None:
            pos += 1
            continue
        covers = len(e[1]) if e[0] == "mask" else 1
        index_shapes.append([1] if e[0] == "mask" else e[1])
        dims.extend(range(pos, pos + covers))
        pos += covers
    b = _broadcast(*index_shapes)
    adjacent = dims == list(range(dims[0], dims[0] + len(dims)))
    kept = [d for d in range(len(shape)) if d not in dims]
    at = dims[0] if adjacent else 0
    before = [shape[d] for d in kept if d < at]
    return before + b + [shape[d] for d in kept if d >= at]


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
MV = [
    ("base", [3, 4], [4], "contiguous"),
    ("one", [1, 1], [1], "contiguous"),
    ("empty", [0, 4], [4], "contiguous"),
    ("kzero", [3, 0], [0], "contiguous"),
    ("large", [65, 129], [129], "contiguous"),
    ("sliced", [3, 4], [4], "sliced"),
]
DOT = [
    ("base", [5], [5], "contiguous"),
    ("one", [1], [1], "contiguous"),
    ("empty", [0], [0], "contiguous"),
    ("large", [1031], [1031], "contiguous"),
    ("sliced", [5], [5], "sliced"),
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
        self.values = INPUT_VALUES.get(p.fn.name) or (
            "small_int" if p.rule in ("compare", "like_bool", "bool_scalar", "allocated",
                                      "reduce_dim_bool")
            else "normal")

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
            if name == getattr(p.binding, "output_mask", ""):
                out[name] = [True] * len(p.binding.schema.returns)
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
        if any(a.kind == "tensor_list" and a.optional for a in self.p.inputs):
            self.advanced_index()
        elif rule == "convert":
            self.convert()
        elif rule == "optimizer":
            self.optimizer()
        elif rule in ("broadcast", "division", "compare", "select") and len(self.p.rule_tensors) >= 2:
            self.broadcast()
        elif rule == "reduce":
            self.reduce()
        elif rule in ("reduce_dim", "argreduce"):
            self.reduce_dim()
        elif rule in ("mm", "bmm", "mv", "dot"):
            self.matmul({"mm": MM, "bmm": BMM, "mv": MV, "dot": DOT}[rule])
        elif rule == "nll_loss":
            self.nll()
        elif rule == "pointwise_loss":
            self.pointwise_loss()
        elif rule == "embedding":
            self.embedding()
        elif rule in ("index_select", "gather"):
            self.index(rule)
        elif rule in ("cat", "stack"):
            self.concat(rule)
        elif rule == "arange":
            self.arange()
        elif rule == "randperm":
            self.randperm()
        elif rule == "linspace":
            self.linspace()
        elif rule == "topk":
            self.topk()
        elif rule in ("reduce_one", "reduce_dim_bool"):
            self.reduce_one()
        elif rule == "repeat":
            self.repeat()
        elif rule == "diag":
            self.diag()
        elif rule == "layer_norm_stats":
            self.layer_norm()
        elif rule == "conv":
            self.conv()
        elif rule == "pool2d":
            self.pool2d()
        elif rule == "adaptive_pool2d":
            self.adaptive_pool2d()
        elif rule in ("batch_norm_stats", "batch_norm_saved"):
            self.batch_norm()
        elif rule in ("like", "like_float", "like_bool", "like_int64", "bool_scalar", "allocated", "cast",
                      "broadcast", "division", "compare", "scalar", "cumsum", "select"):
            self.elementwise(skip_empty=(rule == "scalar"))
        else:
            raise self.p.err(f"no shape class for output rule '{rule}' yet")
        return self.cases

    def _first_attrs(self, skip=()) -> dict:
        return attr_combos(self.p, self.dtype, skip)[0]

    def _outstrided(self, inputs: dict, attrs: dict, aten=None) -> None:
        if any(a.direction == "out" for a in self.p.outputs):
            self.add("out_strided", inputs, attrs, aten, out_layout="sliced")

    def elementwise(self, skip_empty: bool = False) -> None:
        p = self.p
        has_dim = any(a.name == "dim" for a in p.attrs)
        matrix = any(a.name in MATRIX_ARGS for a in p.attrs)
        for tag, shape, layout in ELEMENTWISE:
            if skip_empty and tag == "empty":
                continue   # a full reduction of nothing (max of an empty tensor) is an error
            if matrix and len(shape) < 2:
                continue   # triu/tril: matrices (and batches of them) only
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

    def optimizer(self) -> None:
        """A parameter and its state, all of one shape and layout (every shape class of
        an element-wise op); the hyper-parameters' product on the base shape."""
        p = self.p
        for tag, shape, layout in ELEMENTWISE:
            inputs = {a.name: self.input_spec(a, shape, layout,
                                              "positive" if a.name in OPTIMIZER_POSITIVE else None)
                      for a in p.inputs}
            combos = attr_combos(p, self.dtype) if tag == "base" else [self._first_attrs()]
            for attrs in combos:
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
            for a in others:   # a tensor outside the rule acts as a scalar (masked_fill's value)
                inputs[a.name] = self.input_spec(a, [], "contiguous")
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
            combos = (attr_combos(p, self.dtype, skip=(dim_arg,)) if tag == "base"
                      else [self._first_attrs(skip=(dim_arg,))])
            inputs = {src.name: self.input_spec(src, shape, layout)}
            aten = self.aten_only(keepdim=keepdim)
            for attrs in combos:
                attrs = dict(attrs)
                attrs[dim_arg] = dims
                self.add(tag, inputs, dict(sorted(attrs.items())), aten)
            if tag == "base":
                attrs = self._first_attrs(skip=(dim_arg,))
                attrs[dim_arg] = dims
                self._outstrided(inputs, dict(sorted(attrs.items())), aten)

    def matmul(self, table) -> None:
        p = self.p
        a_arg, b_arg = [next(x for x in p.inputs if x.name == n) for n in p.rule_tensors]
        others = [x for x in p.inputs if x.name not in p.rule_tensors]
        for tag, sa, sb, layout in table:
            out_shape = sa[:-1] + (sb[-1:] if len(sb) >= 2 else [])   # a vector b: mv, dot
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
                    if x.direction == "inout":   # in place: input is the result
                        continue
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

    def pointwise_loss(self) -> None:
        """mse_loss / smooth_l1_loss: the two-operand broadcast table, every attribute combination
        (each reduction) on the base shapes, each reduction elsewhere; out_strided unreduced."""
        p = self.p
        names = {a.name: a for a in p.inputs}
        rule_args = [names[n] for n in p.rule_tensors]
        reductions = [a for a in p.attrs if a.name == "reduction"]
        for tag, shapes, layout in BROADCAST_2:
            shapes = shapes[:2]
            inputs = {a.name: self.input_spec(a, s, layout) for a, s in zip(rule_args, shapes)}
            inputs = {a.name: inputs[a.name] for a in p.inputs}
            if tag == "base":
                for attrs in attr_combos(p, self.dtype):
                    self.add(tag, inputs, attrs)
                if reductions:
                    self._outstrided(inputs, self._attrs(reduction=0))
                continue
            for r in attr_values(p, reductions[0], self.dtype) if reductions else [None]:
                self.add(tag, inputs, self._attrs(**({"reduction": r} if reductions else {})))

    def reduce_dim(self) -> None:
        """max/min over one dim (values + indices), argmax: values distinct along the reduced
        dim (a permutation), so the index of the extreme is unambiguous in every dtype."""
        p = self.p
        (src,) = p.inputs
        dim_arg = next(a for a in p.attrs if a.name == "dim")
        table = [("base", [4, 5], 1, False, "contiguous"), ("keepdim", [4, 5], 0, True, "contiguous"),
                 ("3d", [2, 3, 4], -1, False, "contiguous"), ("scalar0d", [], 0, False, "contiguous"),
                 ("empty", [0, 5], 1, False, "contiguous"), ("large", [129, 255], -1, False, "contiguous"),
                 ("large_dim0", [129, 255], 0, True, "contiguous"),
                 ("transposed", [4, 5], 1, False, "transposed"), ("sliced", [4, 5], 0, False, "sliced")]
        if dim_arg.optional:
            table.append(("all", [4, 5], None, False, "contiguous"))
        for tag, shape, dim, keepdim, layout in table:
            along = -1 if dim is None else dim
            values = f"distinct{along}" if shape else "distinct0"
            inputs = {src.name: self.input_spec(src, shape, layout, values)}
            attrs = self._first_attrs(skip=("dim",))
            attrs["dim"] = dim
            attrs = {a.name: attrs[a.name] for a in p.attrs}
            self.add(tag, inputs, attrs, self.aten_only(keepdim=keepdim))

    def embedding(self) -> None:
        p = self.p
        names = {a.name: a for a in p.inputs}
        weight, indices = names[p.rule_tensors[0]], names[p.rule_tensors[1]]
        table = [("base", [10, 4], [5], "contiguous"), ("2d", [10, 4], [2, 3], "contiguous"),
                 ("scalar0d", [10, 4], [], "contiguous"), ("empty", [10, 4], [0], "contiguous"),
                 ("large", [517, 65], [257], "contiguous"),
                 ("transposed", [10, 4], [5], "transposed"), ("sliced", [10, 4], [5], "sliced")]
        for tag, ws, ish, layout in table:
            index_dtypes = indices.dtypes[:2] if tag == "base" else indices.dtypes[:1]
            for idt in index_dtypes:
                spec = _tensor(ish, idt, "contiguous", f"index{ws[0]}")
                inputs = {weight.name: self.input_spec(weight, ws, layout), indices.name: spec}
                inputs = {a.name: inputs[a.name] for a in p.inputs}
                combos = attr_combos(p, self.dtype) if tag == "base" else [self._first_attrs()]
                for attrs in combos:
                    self.add(tag, inputs, attrs)

    def index(self, rule: str) -> None:
        """index_select(input, dim, index) and gather(input, dim, index): indices in range."""
        p = self.p
        src = next(a for a in p.inputs if a.name in ("input", "self") or a.direction == "inout")
        index = next(a for a in p.inputs if a is not src)
        table = [("base", [4, 5], 0, "contiguous"), ("dim1", [4, 5], 1, "contiguous"),
                 ("negdim", [2, 3, 4], -1, "contiguous"), ("empty", [4, 5], 0, "contiguous"),
                 ("large", LARGE, 1, "contiguous"), ("transposed", [4, 5], 1, "transposed"),
                 ("sliced", [4, 5], 0, "sliced")]
        for tag, shape, dim, layout in table:
            size = shape[dim]
            if rule == "index_select":
                ish = [0] if tag == "empty" else [max(size // 2, 1) + 2]
            else:
                ish = list(shape)
                ish[dim] = 0 if tag == "empty" else max(size // 2, 1) + 1
                if len(ish) > 1:
                    other = (dim + 1) % len(ish)
                    ish[other] = max(ish[other] - 1, 1)
            index_dtypes = index.dtypes[:2] if tag == "base" else index.dtypes[:1]
            for idt in index_dtypes:
                inputs = {src.name: self.input_spec(src, shape, layout),
                          index.name: _tensor(ish, idt, "contiguous", f"index{size}")}
                inputs = {a.name: inputs[a.name] for a in p.inputs}
                attrs = self._first_attrs(skip=("dim",))
                attrs["dim"] = dim
                attrs = {a.name: attrs[a.name] for a in p.attrs}
                self.add(tag, inputs, attrs)

    # input[indices] and input[indices] (+)= values: (tag, input shape, layout, index entries).
    # An entry is None (the whole dim), ("int", shape, values) or ("mask", shape); "unique"
    # values name each position once, so a put without accumulate has one answer.
    ADVANCED_INDEX = [
        ("base", [5, 4], "contiguous", [("int", [3], "unique_index5")]),
        ("two", [5, 6], "contiguous",
         [("int", [2, 1], "unique_index5"), ("int", [3], "unique_index6")]),
        ("null_first", [4, 5, 3], "contiguous", [None, ("int", [2], "unique_index5")]),
        ("separated", [4, 5, 3], "contiguous",
         [("int", [2], "unique_index4"), None, ("int", [2], "unique_index3")]),
        ("negative", [5, 4], "contiguous", [("int", [2, 2], "unique_signed_index5")]),
        ("mask", [4, 5], "contiguous", [("mask", [4, 5])]),
        ("mask_rows", [4, 5, 2], "contiguous", [("mask", [4])]),
        ("mask_after_null", [3, 4, 5], "contiguous", [None, ("mask", [4, 5])]),
        ("empty", [5, 4], "contiguous", [("int", [0], "index5")]),
        ("large", LARGE, "contiguous", [None, ("int", [700], "unique_index1031")]),
        ("transposed", [6, 5], "transposed", [("int", [3], "unique_index5")]),
        ("sliced", [4, 5], "sliced", [None, ("int", [2], "unique_index5")]),
    ]

    def advanced_index(self) -> None:
        p = self.p
        (lst,) = [a for a in p.inputs if a.kind == "tensor_list"]
        src = next(a for a in p.inputs if a.name == "input")
        values = next((a for a in p.inputs if a.name == "values"), None)
        int_dtype = next(d for d in lst.dtypes if d != "bool")
        for tag, shape, layout, entries in self.ADVANCED_INDEX:
            items = [None if e is None else
                     _tensor(e[1], "bool", "contiguous", "bool") if e[0] == "mask" else
                     _tensor(e[1], int_dtype, "contiguous", e[2]) for e in entries]
            inputs = {src.name: self.input_spec(src, shape, layout), lst.name: {"list": items}}
            if values is None:
                self.add(tag, {a.name: inputs[a.name] for a in p.inputs}, {})
                continue
            # values broadcast to the indexed shape; a mask's shape is data-dependent, so its
            # cases take a single value per row
            probe = _indexed_shape(shape, entries)
            for accumulate in (False, True):
                inputs[values.name] = self.input_spec(values, probe, "contiguous")
                attrs = {"accumulate": accumulate}
                self.add(tag, {a.name: inputs[a.name] for a in p.inputs},
                         {a.name: attrs[a.name] for a in p.attrs})
        if values is not None:   # repeated positions add up
            inputs = {src.name: self.input_spec(src, [5, 3], "contiguous"),
                      lst.name: {"list": [_tensor([8], int_dtype, "contiguous", "index3")]},
                      values.name: self.input_spec(values, [8, 3], "contiguous")}
            self.add("repeated_accumulate", {a.name: inputs[a.name] for a in p.inputs},
                     {a.name: {"accumulate": True}[a.name] for a in p.attrs})

    def _attrs(self, **given) -> dict:
        """Every attribute in DIOPI order: `given`, else its first test value."""
        return {a.name: given[a.name] if a.name in given else attr_values(self.p, a, self.dtype)[0]
                for a in self.p.attrs}

    def _add_nchw(self, tag: str, tensors: dict, layout: str, attrs: dict) -> None:
        """tensors: DIOPI input name -> shape (None: absent); the first is the activation and
        takes `layout`, the others are parameters (contiguous)."""
        p = self.p
        inputs, first = {}, True
        for a in p.inputs:
            shape = tensors.get(a.name)
            inputs[a.name] = None if shape is None else self.input_spec(
                a, shape, layout if first else "contiguous",
                "positive" if a.name == "running_var" else None)
            first = False
        self.add(tag, inputs, self._attrs(**attrs))

    # (tag, input, weight, bias?, stride, padding, dilation, groups, layout)
    CONV = [
        ("base", [2, 3, 8, 9], [4, 3, 3, 3], True, [1, 1], [1, 1], [1, 1], 1, "contiguous"),
        ("stride2", [2, 3, 9, 8], [5, 3, 3, 2], True, [2, 2], [0, 1], [1, 1], 1, "contiguous"),
        ("dilation", [1, 2, 9, 9], [3, 2, 3, 3], True, [1, 2], [2, 2], [2, 2], 1, "contiguous"),
        ("groups", [2, 4, 6, 7], [6, 2, 3, 3], True, [1, 1], [1, 1], [1, 1], 2, "contiguous"),
        ("depthwise", [1, 4, 6, 6], [4, 1, 3, 3], False, [1, 1], [1, 1], [1, 1], 4, "contiguous"),
        ("no_bias_1x1", [2, 5, 4, 4], [3, 5, 1, 1], False, [1, 1], [0, 0], [1, 1], 1,
         "contiguous"),
        ("large", [2, 8, 33, 35], [16, 8, 3, 3], True, [1, 1], [1, 1], [1, 1], 1, "contiguous"),
        ("transposed", [2, 3, 7, 6], [4, 3, 3, 3], True, [1, 1], [1, 1], [1, 1], 1, "transposed"),
        ("sliced", [2, 3, 7, 6], [4, 3, 2, 2], True, [2, 1], [0, 0], [1, 1], 1, "sliced"),
    ]

    def conv(self) -> None:
        for tag, x, w, bias, stride, padding, dilation, groups, layout in self.CONV:
            self._add_nchw(tag, {"input": x, "weight": w, "bias": [w[0]] if bias else None},
                           layout, {"stride": stride, "padding": padding,
                                    "dilation": dilation, "groups": groups})

    # (tag, input, kernel, stride, padding, dilation, ceil_mode, layout): padding <= kernel / 2
    POOL = [
        ("base", [2, 3, 8, 9], [3, 3], [2, 2], [1, 1], [1, 1], False, "contiguous"),
        ("default_stride", [1, 2, 8, 8], [2, 2], [], [0, 0], [1, 1], False, "contiguous"),
        ("ceil", [1, 2, 7, 7], [2, 2], [2, 2], [0, 0], [1, 1], True, "contiguous"),
        ("rect", [2, 2, 9, 7], [3, 2], [2, 1], [1, 0], [1, 1], False, "contiguous"),
        ("dilation", [1, 3, 9, 9], [2, 2], [1, 1], [0, 0], [2, 2], False, "contiguous"),
        ("no_batch", [3, 6, 6], [2, 2], [2, 2], [0, 0], [1, 1], False, "contiguous"),
        ("large", [2, 4, 33, 35], [3, 3], [2, 2], [1, 1], [1, 1], True, "contiguous"),
        ("transposed", [2, 3, 6, 7], [2, 2], [2, 2], [1, 1], [1, 1], False, "transposed"),
        ("sliced", [2, 3, 6, 7], [3, 3], [1, 1], [1, 1], [1, 1], False, "sliced"),
    ]

    def pool2d(self) -> None:
        names = {a.name for a in self.p.attrs}
        for tag, x, kernel, stride, padding, dilation, ceil, layout in self.POOL:
            if "dilation" not in names and dilation != [1, 1]:
                continue
            attrs = {"kernel_size": kernel, "stride": stride, "padding": padding,
                     "dilation": dilation, "ceil_mode": ceil}
            self._add_nchw(tag, {"input": x}, layout, attrs)
            if tag == "base" and "count_include_pad" in names:   # avg pooling's divisors
                self._add_nchw("exclude_pad", {"input": x}, layout,
                               {**attrs, "count_include_pad": False})
                self._add_nchw("divisor", {"input": x}, layout, {**attrs, "divisor_override": 5})

    def adaptive_pool2d(self) -> None:
        """[..., oH, oW] from an output size: adaptive pooling, nearest upsampling (whose DIOPI
        argument is `size`)."""
        key = next((d for d, a in self.p.diopi_to_aten.items() if a == "output_size"),
                   "output_size")
        table = [("base", [2, 3, 7, 9], [3, 4]), ("global", [2, 4, 5, 5], [1, 1]),
                 ("identity", [1, 2, 4, 4], [4, 4]), ("upsample", [1, 2, 3, 4], [5, 6]),
                 ("no_batch", [3, 8, 8], [2, 2]), ("large", [2, 4, 33, 35], [7, 7])]
        if key != "output_size":   # upsampling: 4-D only; the x2 fast path, a large map
            table = [t for t in table if t[0] != "no_batch"] + [
                ("double", [2, 3, 4, 5], [8, 10]), ("large_up", [2, 4, 17, 19], [40, 45])]
        for tag, x, size in table:
            self._add_nchw(tag, {"input": x}, "contiguous", {key: size})
        self._add_nchw("transposed", {"input": [2, 3, 7, 9]}, "transposed", {key: [2, 3]})

    # (tag, input, affine, running stats, training, layout)
    BATCH_NORM = [
        ("base", [4, 3, 5, 5], True, True, True, "contiguous"),
        ("eval", [4, 3, 5, 5], True, True, False, "contiguous"),
        ("no_affine", [4, 3, 5, 5], False, True, True, "contiguous"),
        ("no_running", [4, 3, 5, 5], True, False, True, "contiguous"),
        ("flat", [6, 4], True, True, True, "contiguous"),
        ("seq", [2, 3, 7], True, True, False, "contiguous"),
        ("large", [8, 16, 17, 19], True, True, True, "contiguous"),
        ("transposed", [4, 3, 5, 6], True, True, True, "transposed"),
    ]

    def batch_norm(self) -> None:
        for tag, x, affine, running, training, layout in self.BATCH_NORM:
            c = [x[1]]
            tensors = {"input": x, "weight": c if affine else None, "bias": c if affine else None,
                       "running_mean": c if running else None,
                       "running_var": c if running else None}
            self._add_nchw(tag, tensors, layout,
                           {"training": training, "momentum": 0.1, "eps": 1e-5})

    def concat(self, rule: str) -> None:
        p = self.p
        (lst,) = [a for a in p.inputs if a.kind == "tensor_list"]
        if rule == "cat":
            table = [("base", [[2, 3], [4, 3], [1, 3]], 0, "contiguous"),
                     ("dim1", [[2, 3], [2, 1], [2, 4]], 1, "contiguous"),
                     ("negdim", [[2, 3, 2], [2, 3, 1]], -1, "contiguous"),
                     ("single", [[3, 4]], 0, "contiguous"),
                     ("skip_empty_1d", [[2, 3], [0], [1, 3]], 0, "contiguous"),
                     ("empty", [[0, 3], [0, 3]], 0, "contiguous"),
                     ("scalar_rows", [[1], [1], [1]], 0, "contiguous"),
                     ("large", [LARGE, [17, LARGE[1]]], 0, "contiguous"),
                     ("transposed", [[3, 4], [3, 2]], 1, "transposed"),
                     ("sliced", [[2, 5], [3, 5]], 0, "sliced")]
        else:
            table = [("base", [[2, 3]] * 3, 0, "contiguous"), ("dim1", [[2, 3]] * 2, 1, "contiguous"),
                     ("negdim", [[2, 3]] * 2, -1, "contiguous"), ("scalar0d", [[]] * 3, 0, "contiguous"),
                     ("single", [[4]], 0, "contiguous"), ("empty", [[0, 3]] * 2, 1, "contiguous"),
                     ("large", [LARGE] * 2, 0, "contiguous"),
                     ("transposed", [[3, 4]] * 2, 1, "transposed"),
                     ("sliced", [[2, 5]] * 3, 2, "sliced")]
        for tag, shapes, dim, layout in table:
            inputs = {lst.name: {"list": [self.input_spec(lst, sh, layout) for sh in shapes]}}
            attrs = self._first_attrs(skip=("dim",))
            attrs["dim"] = dim
            attrs = {a.name: attrs[a.name] for a in p.attrs}
            self.add(tag, inputs, attrs)
            if tag == "base":
                self._outstrided(inputs, attrs)

    def arange(self) -> None:
        cls = dtype_class(self.dtype)
        table = [("base", 0, 10, 1), ("step", -3, 7, 2), ("negstep", 10, 0, -3),
                 ("empty", 5, 5, 1), ("large", 0, 34000 if cls == "int" else 2000, 1)]
        if cls == "float":
            table += [("fraction", 0.0, 1.0, 0.125), ("fraction_neg", 1.5, -2.0, -0.25)]
        for tag, start, end, step in table:
            attrs = {"start": start, "end": end, "step": step}
            attrs = {a.name: attrs.get(a.name, attr_values(self.p, a, self.dtype)[0])
                     for a in self.p.attrs}
            self.add(tag, {}, attrs)

    def topk(self) -> None:
        """k of the largest / smallest along dim: values distinct along it (no ties)."""
        p = self.p
        (src,) = p.inputs
        table = [("base", [4, 5], 2, -1, "contiguous"), ("dim0", [4, 5], 3, 0, "contiguous"),
                 ("3d", [2, 3, 4], 1, 1, "contiguous"), ("scalar0d", [], 1, 0, "contiguous"),
                 ("kzero", [4, 5], 0, -1, "contiguous"), ("all", [4, 5], 5, -1, "contiguous"),
                 ("empty", [0, 5], 2, -1, "contiguous"), ("large", [129, 255], 17, -1, "contiguous"),
                 ("transposed", [4, 5], 2, 1, "transposed"), ("sliced", [4, 5], 2, 0, "sliced")]
        for tag, shape, k, dim, layout in table:
            values = f"distinct{dim}" if shape else "distinct0"
            inputs = {src.name: self.input_spec(src, shape, layout, values)}
            combos = (attr_combos(p, self.dtype, skip=("k", "dim")) if tag == "base"
                      else [self._first_attrs(skip=("k", "dim"))])
            for attrs in combos:
                attrs = dict(attrs, k=k, dim=dim)
                self.add(tag, inputs, {a.name: attrs[a.name] for a in p.attrs})

    def reduce_one(self) -> None:
        """A reduction over one optional dim (prod), keepdim read from out's shape."""
        p = self.p
        (src,) = p.inputs
        table = [("base", [4, 5], 1, False, "contiguous"), ("keepdim", [4, 5], 0, True, "contiguous"),
                 ("3d", [2, 3, 4], -1, False, "contiguous"), ("scalar0d", [], 0, False, "contiguous"),
                 ("empty", [0, 5], 0, False, "contiguous"), ("empty_out", [0, 5], 1, False, "contiguous"),
                 ("large", LARGE, 1, False, "contiguous"),
                 ("transposed", [4, 5], 0, False, "transposed"), ("sliced", [4, 5], 1, True, "sliced")]
        for tag, shape, dim, keepdim, layout in table:
            inputs = {src.name: self.input_spec(src, shape, layout)}
            attrs = self._first_attrs(skip=("dim",))
            attrs["dim"] = dim
            attrs = {a.name: attrs[a.name] for a in p.attrs}
            aten = self.aten_only(keepdim=keepdim)
            self.add(tag, inputs, attrs, aten)
            if tag == "base":
                self._outstrided(inputs, attrs, aten)

    def repeat(self) -> None:
        p = self.p
        (src,) = p.inputs
        size_arg = next(a.name for a in p.attrs if a.kind == "size")
        table = [("base", [2, 3], [2, 2], "contiguous"), ("lead", [2, 3], [2, 1, 3], "contiguous"),
                 ("ones", [4, 5], [1, 1], "contiguous"), ("scalar0d", [], [3], "contiguous"),
                 ("scalar0d_none", [], [], "contiguous"), ("zero", [2, 3], [0, 2], "contiguous"),
                 ("empty", [0, 3], [2, 2], "contiguous"), ("3d", [2, 3, 4], [1, 2, 1], "contiguous"),
                 ("large", LARGE, [2, 1], "contiguous"), ("transposed", [4, 5], [2, 3], "transposed"),
                 ("sliced", [4, 5], [3, 1], "sliced")]
        for tag, shape, repeats, layout in table:
            inputs = {src.name: self.input_spec(src, shape, layout)}
            attrs = self._first_attrs(skip=(size_arg,))
            attrs[size_arg] = repeats
            self.add(tag, inputs, {a.name: attrs[a.name] for a in p.attrs})

    def diag(self) -> None:
        """diag(input, diagonal): vectors (made matrices) and matrices (their diagonals)."""
        p = self.p
        (src,) = p.inputs
        table = [("base", [4, 5], "contiguous"), ("vector", [5], "contiguous"),
                 ("square", [4, 4], "contiguous"), ("empty", [0], "contiguous"),
                 ("empty2d", [0, 3], "contiguous"), ("large", LARGE, "contiguous"),
                 ("transposed", [4, 5], "transposed"), ("sliced", [4, 5], "sliced")]
        for tag, shape, layout in table:
            inputs = {src.name: self.input_spec(src, shape, layout)}
            combos = (attr_combos(p, self.dtype) if tag in ("base", "vector")
                      else [self._first_attrs()])
            for attrs in combos:
                self.add(tag, inputs, attrs)

    def linspace(self) -> None:
        cls = dtype_class(self.dtype)
        table = [("base", 0, 10, 6), ("reverse", 5, -5, 11), ("one", 2, 7, 1), ("empty", 0, 1, 0),
                 ("large", -1000, 1000, 2001)]
        if cls == "float":
            table += [("fraction", -3.5, 2.25, 8), ("odd", 0.0, 1.0, 7)]
        for tag, start, end, steps in table:
            attrs = {"start": start, "end": end, "steps": steps}
            self.add(tag, {}, {a.name: attrs[a.name] for a in self.p.attrs})

    def randperm(self) -> None:
        for tag, n in (("base", 10), ("one", 1), ("empty", 0), ("large", 3000)):
            attrs = {a.name: (n if a.name == "n" else attr_values(self.p, a, self.dtype)[0])
                     for a in self.p.attrs}
            self.add(tag, {}, attrs)

    def layer_norm(self) -> None:
        p = self.p
        names = {a.name: a for a in p.inputs}
        stats_rule = next(r for r in p.rules.values() if r.rule == "layer_norm_stats")
        aten_to_diopi = {v: k for k, v in p.diopi_to_aten.items()}
        src = names[aten_to_diopi[stats_rule.args[0]]]
        size_arg = aten_to_diopi[stats_rule.args[1]]
        affine = [a for a in p.inputs if a is not src]
        table = [("base", [4, 5], 1, "contiguous"), ("2dims", [2, 3, 4], 2, "contiguous"),
                 ("vec", [7], 1, "contiguous"), ("empty", [0, 5], 1, "contiguous"),
                 ("large", LARGE, 1, "contiguous"), ("transposed", [4, 5], 1, "transposed"),
                 ("sliced", [4, 5], 1, "sliced")]
        for tag, shape, nnorm, layout in table:
            normalized = shape[len(shape) - nnorm:]
            for with_affine in ((True, False) if tag == "base" else (True,)):
                inputs = {src.name: self.input_spec(src, shape, layout)}
                for a in affine:
                    inputs[a.name] = self.input_spec(a, normalized) if with_affine else None
                inputs = {a.name: inputs[a.name] for a in p.inputs}
                attrs = self._first_attrs(skip=(size_arg,))
                attrs[size_arg] = normalized
                attrs = {a.name: attrs[a.name] for a in p.attrs}
                self.add(tag, inputs, attrs)

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
    result, `grad_output` (or `grad`) has its shape, the arguments both share take the
    forward's values, and other tensors take the forward's further outputs in order (layer
    norm's saved mean and 1/std), so the backward sees the data it would see in training."""
    fwd_inputs = {a.name for a in fwd.inputs}
    fwd_attrs = {a.name for a in fwd.attrs}
    fwd_out = fwd.outputs[0].name
    extra_outs = [a.name for a in fwd.outputs[1:] if a.direction == "out"]
    unmatched = [a.name for a in p.inputs if a.name not in ("grad_output", "grad", "output")
                 and a.name not in fwd_inputs]
    if len(unmatched) > len(extra_outs):
        raise p.err(f"backward input(s) {', '.join(unmatched)} have no counterpart in "
                    f"{fwd.fn.name}")
    from_extra = dict(zip(unmatched, extra_outs))
    cases = []
    for fc in fwd_cases:
        layout = next((t.get("layout") for t in fc["inputs"].values()
                       if t is not None and t.get("layout")), "contiguous")
        inputs = {}
        for a in p.inputs:
            if a.name in ("grad_output", "grad"):
                spec = {"like": fwd_out, "values": "normal"}
            elif a.name == "output":
                spec = {"from": fwd_out}
            elif a.name in from_extra:
                spec = {"from": from_extra[a.name]}
            else:
                if fc["inputs"][a.name] is None:
                    inputs[a.name] = None
                    continue
                spec = {"from": a.name}
            if layout != "contiguous":
                spec["layout"] = layout
            inputs[a.name] = spec
        attrs = {}
        for a in p.attrs:
            if a.name in p.constants:
                attrs[a.name] = p.constants[a.name]
            elif a.name in fwd_attrs:
                attrs[a.name] = fc["attrs"][a.name]
            elif a.name in BACKWARD_ATTRS:
                what, of = BACKWARD_ATTRS[a.name]
                if what == "bias_channels":   # [out channels] when the forward had a bias
                    has_bias = fc["inputs"].get("bias") is not None
                    attrs[a.name] = [fc["inputs"][of]["shape"][0]] if has_bias else None
                    continue
                if what == "attr":
                    attrs[a.name] = fc["attrs"][of]
                    continue
                shape = fc["inputs"][of]["shape"]
                attrs[a.name] = list(shape) if what == "shape" else shape[0]
            else:
                attrs[a.name] = attr_values(p, a, fc["dtype"])[0]
        builder = CaseBuilder(p, fc["dtype"])
        given = {}
        mask_arg = getattr(p.binding, "output_mask", "")
        if mask_arg:   # compute only the gradients whose tensor exists (no weight: no grad_weight)
            returns = sorted((src.index, name) for name, src in p.binding.sources
                             if src.kind == "return")
            mask = []
            for _, name in returns:
                rule = p.rules.get(name)
                arg = rule.args[0] if rule is not None and rule.rule == "like" else None
                diopi = next((d for d, at in p.diopi_to_aten.items() if at == arg), None)
                # grad_bias of a forward without bias is not wanted either
                of = name[len("grad_"):] if name.startswith("grad_") else ""
                absent = (diopi in inputs and inputs[diopi] is None) or (
                    of in fc["inputs"] and fc["inputs"][of] is None)
                mask.append(not absent)
            given[mask_arg] = mask
        aten = builder.aten_only(**given)
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
    fwd_name = FORWARD_OF.get(p.fn.name) or (
        p.fn.name[:-len("Backward")] if p.fn.name.endswith("Backward") else None)
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
        # the handle's C type, not the direction: DIOPI passes some read-only tensors
        # non-const (diopiAdam's grad)
        return f"a.const_tensor({i})" if a.ctype == "diopiConstTensorHandle_t" else f"a.tensor({i})"
    if k == "tensor_alloc":
        return f"a.allocated({i})"
    if k == "tensor_list":
        if a.direction == "in":
            return f"a.const_tensor_list({i}), a.list_size({i})"
        return f"a.tensor_list({i}), a.list_size({i})"
    simple = {"scalar": "scalar", "size": "size", "int": "int64", "int_opt": "int64_opt",
              "float": "float64", "float_opt": "float64_opt", "scalar_double": "float64",
              "bool": "boolean",
              "bool_opt": "boolean_opt", "str": "str", "dtype": "dtype",
              "dtype_opt": "dtype_opt", "generator": "generator", "size_ptr": "size_ptr"}
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
                   totals=dict(sorted(totals.items()))))
    calls = [(fn, [call_expr(a, i) for i, a in enumerate(fn.args)]) for fn in cat.functions]
    out.add("conformance/diopi_calls.inc",
            render(env, "conformance/diopi_calls.inc.j2", calls=calls))
