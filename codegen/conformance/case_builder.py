"""The case record a shape class adds, and the tensor specs of its inputs.

A CaseBuilder collects the cases of one function in one dtype; the shape classes
(shape_classes.py, shapes_*.py) call it with shapes, layouts and attribute values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..model import DiopiArg
from .aten_facts import is_scalar_type, parse_default
from .values import attr_combos, attr_values

if TYPE_CHECKING:
    from .plan import FnPlan

LARGE = [33, 1031]   # ~34k elements: odd sizes so vector tails and partial tiles are exercised
# Output rules of comparisons and flags: inputs are small integers, so ties and equal
# elements occur.
SMALL_INT_RULES = ("compare", "like_bool", "bool_scalar", "allocated", "reduce_dim_bool")


def broadcast_shape(*shapes):
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(ndim):
        dims = {s[len(s) - ndim + i] for s in shapes if len(s) - ndim + i >= 0} - {1}
        if len(dims) > 1:
            return None
        out.append(dims.pop() if dims else 1)
    return out


def tensor(shape, dtype, layout="contiguous", values="normal"):
    t = {"shape": list(shape), "dtype": dtype}
    if layout != "contiguous":
        t["layout"] = layout
    if values != "normal":
        t["values"] = values
    return t


def _arg_dtype(a: DiopiArg, dtype: str) -> str:
    return dtype if dtype in a.dtypes or not a.dtypes else a.dtypes[0]


class CaseBuilder:
    def __init__(self, p: FnPlan, dtype: str):
        self.p = p
        self.dtype = dtype
        self.cases: list[dict] = []
        # the catalogue's domain of the inputs (`conformance.inputs`), else the rule's
        self.values = p.fn.conformance.inputs or (
            "small_int" if p.rule in SMALL_INT_RULES else "normal")
        self.arg_values = dict(p.fn.conformance.arg_inputs)

    def input_spec(self, a: DiopiArg, shape, layout="contiguous", values=None):
        dt = _arg_dtype(a, self.dtype)
        v = values or self.arg_values.get(a.name) or self.values
        if dt == "bool" and v not in ("bool",):
            v = "bool"
        return tensor(shape, dt, layout, v)

    def aten_only(self, **given) -> dict:
        """Values of the reference overload's arguments DIOPI does not take (read by the output
        rule or fixed by the catalogue), in schema order."""
        p = self.p
        if p.binding is None:
            return {}
        out = {}
        passed = set(p.diopi_to_aten.values())
        fixed = dict(p.binding.ignored)
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


    def first_attrs(self, skip=()) -> dict:
        return attr_combos(self.p, self.dtype, skip)[0]

    def attrs_with(self, **given) -> dict:
        """Every attribute in DIOPI order: `given`, else its first test value."""
        return {a.name: given[a.name] if a.name in given else attr_values(self.p, a, self.dtype)[0]
                for a in self.p.attrs}

    def outstrided(self, inputs: dict, attrs: dict, aten=None) -> None:
        """An out= function's case writing a strided (sliced) output."""
        if any(a.direction == "out" for a in self.p.outputs):
            self.add("out_strided", inputs, attrs, aten, out_layout="sliced")
