"""What a DIOPI function's conformance cases are checked against: its plan.

The plan splits the DIOPI arguments into the tensors read, the tensors written and the
attributes, maps them to the reference overload's arguments, picks the output rule that
chooses the shape class, and writes the `reference` record the runner reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from torchgen.model import Argument

from ..errors import SpecError
from ..model import AtenBinding, DiopiArg, DiopiFunction, OpFamily, StrLiteral
from ..rules import is_unused
from .aten_facts import is_tensor_type, parse_default
from .shape_classes import SPECIAL_CLASSES


class ConformanceError(SpecError):
    pass


# ---------------------------------------------------------------- function plans

@dataclass
class FnPlan:
    fn: DiopiFunction
    fam: OpFamily
    binding: Optional[AtenBinding]
    source: str                                               # the catalogue, for errors
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
    uncovered: dict = field(default_factory=dict)            # optional arg -> why (optional_cover)

    def err(self, reason: str) -> ConformanceError:
        return ConformanceError(self.source, self.fn.line, self.fn.name,
                                f"conformance: {reason}")


def _functional_probe(fn: DiopiFunction, b: AtenBinding) -> Optional[str]:
    for other in fn.bindings:
        if other.derived and other.base is b and other.variant == "functional":
            return other.overload_name
    return None


def _thaw(value: Any) -> Any:
    return [_thaw(v) for v in value] if isinstance(value, tuple) else value


def _runtime_plan(p: FnPlan) -> FnPlan:
    """A function the runtime calls directly (no ATen overload): the catalogue names its
    reference, a conversion of one argument into another (ATen's copy_ semantics) or one of
    torch.optim's single-tensor updates on CPU (opweave/conformance/reference.py)."""
    ref = p.fn.conformance.reference
    if ref is None or not ref.runtime:
        raise p.err("runtime-only function without a reference; give it one in its "
                    "catalogue entry: `conformance: {reference: {runtime: ...}}` "
                    "(specs/README.md)")
    if ref.runtime != "convert":
        p.rule = "optimizer"
        p.reference = {"runtime": ref.runtime}
        return p
    p.rule = "convert"
    p.reference = {"runtime": "convert", "output": ref.output, "input": ref.input}
    # runtime outputs are written, not read: the destination is an output here
    p.inputs = [a for a in p.inputs if a.name != ref.output]
    return p


def plan_function(fam: OpFamily, fn: DiopiFunction, source: str,
                  binding: Optional[AtenBinding] = None) -> FnPlan:
    """The plan against the function's first ATen overload, or against `binding` (another
    of its overloads: the one that serves a call with an optional argument left out)."""
    b = binding or (fn.bindings[0] if fn.bindings else None)
    p = FnPlan(fn, fam, b, source)
    for a in fn.args:
        if a.is_tensor and a.direction in ("in", "inout"):
            p.inputs.append(a)
        if a.is_tensor and a.direction in ("out", "inout"):
            p.outputs.append(a)
        if not a.is_tensor and a.kind != "host_bool":   # a host result (equal's) is no attribute
            p.attrs.append(a)
    if b is None:
        return _runtime_plan(p)
    p.aten_args = {a.name: a for a in b.schema.arguments.flat_all}
    # an overload with no CPU kernel (the `_overrideable` hooks a backend implements): the
    # catalogue names the ATen op it stands for (`conformance.reference.aten`)
    substitute = fn.conformance.reference
    if substitute is not None and not substitute.aten:
        substitute = None
    substitute_args = dict(substitute.args) if substitute else {}
    for arg_name, src in b.sources:
        if src.kind == "arg":
            p.diopi_to_aten[arg_name] = src.aten_name
        elif src.kind == "value":
            value = getattr(src, "value", None)
            if arg_name in substitute_args:
                continue   # an attribute of the case, passed to the substitute reference
            if isinstance(value, StrLiteral):
                value = value.text   # diopiPad's mode: the first overload's
            if not isinstance(value, (bool, int, float, str, type(None))):
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
        ref["overload"] = substitute.aten
        ref["positional"] = list(substitute.positional)
        ref["args"].update(substitute_args)
    fixed = {k: v for k, v in b.ignored}
    fixed.update({k: _thaw(v) for k, v in (substitute.fixed if substitute else ())})
    for k, v in fixed.items():
        # an unused argument with a default (_index_put_impl_'s unsafe): the reference takes
        # the default rather than the forward call's value
        has_default, default = parse_default(p.aten_args[k].default)
        if is_unused(v) and has_default:
            fixed[k] = default
    if fixed:
        ref["fixed"] = fixed
    if any(a.kind == "generator" for a in fn.args):
        # random: the device generator's values are not the CPU's, so the runner compares
        # the outputs' distributions (moments) instead, a permutation's sorted values
        ref["compare"] = "permutation" if p.rule == "randperm" else "distribution"
    p.reference = ref
    return p
