"""Emitter: PrivateUse1 ATen wrapper kernels calling DIOPI functions (generated/aten/).

The api layer here turns each AtenBinding into a WrapperPlan (C++ names, argument
conversions, output shaping); the template only lays plans out. Families are sharded into
a few translation units by a stable hash of the family name, so the build parallelises and
one family's edit recompiles one shard.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from torchgen import local
from torchgen.api.types import DispatcherSignature
from torchgen.model import BaseTy, BaseType, ListType, OptionalType

from .api.cpp import enum_from_aten, helper_call, neutral
from .dtypes import ATEN_DTYPES, CATALOGUE_DTYPES, DTYPES, TOLERANCE_DTYPES
from .model import (ArgHelperCall, AtenBinding, Catalogue, DiopiArg, DiopiFunction,
                    GuardHelperCall, OpFamily, StrLiteral)
from .output_set import OutputSet
from .rules import is_unused
from .render import render

NUM_SHARDS = 8


@dataclass
class WrapperPlan:
    op_name: str            # aten::add.out
    register_name: str      # add.out
    ops_struct: str         # at::_ops::add_out
    cname: str              # add_out (C++ identifier stem)
    diopi: str
    variant: str
    derived: bool
    ret_type: str
    params: list[str]
    arg_names: list[str]
    base_cname: str = ""    # derived: the out= binding's stem
    device_tensors: list[str] = field(default_factory=list)
    guards: list[tuple[str, str]] = field(default_factory=list)    # (violated condition, text)
    unused: list[str] = field(default_factory=list)
    prepare: list[str] = field(default_factory=list)               # C++ statements
    call_args: list[str] = field(default_factory=list)
    allocs: list[tuple[str, str, str, str]] = field(default_factory=list)  # (var, rule, like, cond)
    resizes: list[tuple[str, str]] = field(default_factory=list)      # (out arg, rule expr)
    inplace_checks: list[tuple[str, str]] = field(default_factory=list)
    computed: list[str] = field(default_factory=list)
    base_call_args: list[str] = field(default_factory=list)   # derived: args of the out= impl
    return_expr: str = ""
    composite_call: str = ""   # CompositeImplicitAutograd op: its decomposition (C++ function)
    composite_header: str = ""  # ... declared in <ATen/ops/{this}_compositeimplicitautograd_dispatch.h>
    grad_tensors: list[str] = field(default_factory=list)  # tensors whose requires_grad matters
    # Tensors the kernel may write (outputs, in-place and inout arguments): when every one is
    # empty there is nothing to compute and the kernel is not called. Empty when that cannot be
    # known before the call (a kernel-allocated output, a computed one).
    written: list[str] = field(default_factory=list)
    # Python numbers by value (runtime/include/opweave/by_value.h): the tensor argument a
    # wrapped number may fill, the Scalar sibling that takes it, and that call's pieces.
    by_value_tensor: str = ""
    by_value_fn: str = ""
    by_value_guard: list[str] = field(default_factory=list)
    by_value_prepare: list[str] = field(default_factory=list)
    by_value_call_args: list[str] = field(default_factory=list)


def _dtype_guard(names: list[str]) -> tuple[str, str]:
    """One guard: every tensor argument has a dtype some catalogue entry can list
    (CATALOGUE_DTYPES: no complex, no quantized, no float8). Kernels are written for those and
    decline the ones their entry does not list; a dtype outside them (complex64 into a bytewise
    flip) would reach a kernel that ignores it, so the op runs on the CPU instead."""
    terms = [f"opweave::dtype_in(kCatalogueDtypes, {name})" for name in names]
    return f"!({' && '.join(terms)})", "a dtype outside the catalogue's (complex, ...)"


def _cpp_type_of(binding_args, name):
    for a in binding_args:
        if a.name == name:
            return a.argument.type
    raise KeyError(name)


def _convert(arg: DiopiArg, expr: str, aten_type, var: str, prepare: list[str]) -> str:
    """C++ expression passing ATen value `expr` as DIOPI parameter `arg`."""
    optional = isinstance(aten_type, OptionalType)
    k = arg.kind
    if k == "tensor_list" and arg.optional:   # Tensor?[]: CPU index tensors move to the device
        prepare.append(f"const opweave::OptionalHandleList {var}({expr}, guard.device());")
        return f"{var}.data(), {var}.size()"
    if k == "tensor_list":
        prepare.append(f"const opweave::HandleList {var}({expr});")
        return f"{var}.data(), {var}.size()"
    if k == "tensor":
        if optional:
            if arg.ctype == "diopiTensorHandle_t":
                return f"opweave::handle({expr})"
            return f"guard.optional_on_device({expr})"
        if arg.direction != "in":
            return f"opweave::handle({expr})"
        return f"opweave::const_handle(guard.on_device({expr}))"
    if k == "scalar":
        if optional:
            prepare.append(f"const opweave::OptionalScalar {var}({expr});")
            return f"{var}.get()"
        prepare.append(f"const diopiScalar_t {var} = opweave::to_diopi_scalar({expr});")
        return f"&{var}"
    if k == "scalar_double":
        return f"{expr}.toDouble()"
    if k == "size":
        return f"opweave::to_diopi_size({expr})"
    if k in ("int", "bool", "float"):
        return expr
    if k in ("int_opt", "float_opt", "bool_opt"):
        return f"opweave::optional_ptr({expr})"
    if k == "str":
        if optional:
            prepare.append(f"const opweave::OptionalCString {var}({expr});")
        else:
            prepare.append(f"const std::string {var}({expr});")
            return f"{var}.c_str()"
        return f"{var}.get()"
    if k == "dtype":
        return f"opweave::to_diopi_dtype({expr})"
    if k == "dtype_opt":
        prepare.append(f"const opweave::OptionalDtype {var}({expr});")
        return f"{var}.get()"
    if k == "enum" and (converted := enum_from_aten(arg, expr)):
        return converted
    if k == "generator":
        return f"opweave::generator_handle({expr}, guard.device_index())"
    raise NotImplementedError(f"no conversion for DIOPI argument kind {k} ({arg.name})")


def _value(arg: DiopiArg, value, var: str, prepare: list[str]) -> str:
    """C++ expression for a DIOPI argument no ATen argument carries (`value` in the spec)."""
    if isinstance(value, ArgHelperCall):
        prepare.append(f"const auto {var} = {helper_call(value)};")
        return f"{var}.get()"
    if value is None:
        if arg.kind == "generator":   # ATen's `Generator? = None`: the device's default
            return "opweave::generator_handle(c10::nullopt, guard.device_index())"
        return "nullptr"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, StrLiteral):
        return f'"{value.text}"'
    return repr(value)


def _absent(arg: DiopiArg) -> str:
    if arg.kind == "size":
        return "diopiSize_t{nullptr, 0}"
    if arg.kind == "enum":
        return f"static_cast<{arg.ctype}>(0)"
    return "nullptr"


def _guard_condition(name: str, value, aten_type) -> tuple[str, str]:
    if isinstance(value, GuardHelperCall):   # the call may drop `name` when it holds
        return (f"!{helper_call(value)}",
                f"{value} does not hold")
    if value is None:
        return f"{name}.has_value()", f"{name} must be None"
    if isinstance(value, bool):
        return f"{name} != {'true' if value else 'false'}", f"{name} must be {value}"
    return f"{name} != {value}", f"{name} must be {value}"


def _param(a, widened: bool) -> str:
    """A wrapper parameter. A `scalar_since` overload's Scalar? is int? on older torch: the
    wrapper takes whichever the installed torch's schema has (opweave::compat::IntOrScalar)."""
    if widened and "optional<at::Scalar>" in str(a.type):
        return f"opweave::compat::IntOrScalar {a.name}"
    return neutral(f"{a.type} {a.name}")


def plan_binding(fn: DiopiFunction, b: AtenBinding,
                 scalar_sibling: tuple[DiopiFunction, str] | None = None) -> WrapperPlan:
    # Kernels take SymInt arguments as plain integers (symint=False): both torch versions'
    # dispatchers unpack SymInts for such a kernel (KernelFunction::call, unpackSymInt), so one
    # signature serves an argument that is `int` on 1.13 and `SymInt` on 2.x. Where the wrapper
    # calls ATen itself (fallback, composite), opweave::compat converts back to the schema's types.
    with local.parametrize(use_const_ref_for_mutable_tensors=False,
                           use_ilistref_for_tensor_lists=b.structured):
        sig = DispatcherSignature.from_schema(b.schema, symint=False)
        bargs = sig.arguments()
        ret_type = neutral(sig.returns_type().cpp_type())
    cname = b.schema.name.unambiguous_name()
    plan = WrapperPlan(
        op_name=b.op_name, register_name=b.overload_name, ops_struct=f"at::_ops::{cname}",
        cname=cname, diopi=fn.name, variant=b.variant, derived=b.derived, ret_type=ret_type,
        params=[_param(a, b.widened) for a in bargs], arg_names=[a.name for a in bargs])
    schema_args = {a.name: a for a in b.schema.arguments.flat_all}
    if b.composite:
        # Backends that register a kernel for a CompositeImplicitAutograd op lose its math
        # kernel on their autograd key: the wrapper's autograd kernel decomposes when a gradient
        # is needed (the decomposition records autograd) and runs the device kernel otherwise.
        # `bitwise_and_` (in place) is declared as such, in bitwise_and's header.
        # An out= overload's decomposition is `<name>_outf(args..., out)` (diag.out on 2.x).
        suffix = "_outf" if b.variant == "out" else ""
        plan.composite_call = f"at::compositeimplicitautograd::{b.schema.name.name}{suffix}"
        plan.composite_header = b.schema.name.name.base
        for a in b.schema.arguments.flat_all:
            t = a.type.elem if isinstance(a.type, OptionalType) else a.type
            if isinstance(t, BaseType) and t.name == BaseTy.Tensor:
                plan.grad_tensors.append(a.name)
    for a in b.schema.arguments.flat_all:
        t = a.type
        if isinstance(t, BaseType) and t.name == BaseTy.Tensor:
            plan.device_tensors.append(a.name)
        elif isinstance(t, OptionalType) and isinstance(t.elem, BaseType) and t.elem.name == BaseTy.Tensor:
            plan.device_tensors.append(a.name)   # when given: on the op's device (or a CPU scalar)
        elif isinstance(t, ListType) and isinstance(t.elem, BaseType) and t.elem.name == BaseTy.Tensor:
            plan.device_tensors.append(a.name)   # every element on the op's device
        elif isinstance(t, ListType) and isinstance(t.elem, OptionalType):
            plan.device_tensors.append(a.name)   # Tensor?[]: on the device or the CPU
    if b.derived:
        # Checked before the outputs are allocated: a complex `abs(z)` must run as the CPU's
        # functional abs (a float32 result), not as abs.out into a complex64 output.
        checked = [a.name for a in b.schema.arguments.flat_non_out
                   if _checkable(a.type) or _is_scalar(a.type)]
        if checked:
            plan.guards.append(_dtype_guard(checked))
        base = b.base
        plan.base_cname = base.schema.name.unambiguous_name()
        out_rules = _out_rules(base)
        out_args = [a.name for a in base.schema.arguments.out]
        base_names = [a.name for a in base.schema.arguments.flat_all]
        like = b.schema.arguments.flat_non_out[0].name
        if plan.device_tensors:
            # on the op's device, not the first argument's: `2 - x` is sub(wrapped 2, x)
            like = f"opweave::OpGuard::find_device({', '.join(plan.device_tensors)})"
        if b.variant == "functional":
            for o in out_args:
                plan.allocs.append((o, helper_call(out_rules[o]), like, ""))
            plan.base_call_args = base_names
            outs = ", ".join(out_args)
            plan.return_expr = outs if len(out_args) == 1 else f"{ret_type}({outs})"
        else:  # inplace: the out= tensors are self
            for o in out_args:
                plan.inplace_checks.append(("self", helper_call(out_rules[o])))
            plan.base_call_args = ["self" if n in out_args else n for n in base_names]
            plan.return_expr = "self"
        return plan

    # Direct binding: guards, output shaping, argument conversion, DIOPI call.
    for name, value in b.ignored:
        if is_unused(value):
            plan.unused.append(name)
        if value != "unused":
            plan.guards.append(_guard_condition(name, value, schema_args[name].type))
    rules = dict(b.outputs)
    diopi_args = {a.name: a for a in fn.args}
    returns = []
    dtype_checks: list[str] = []
    writable = True
    for arg_name, src in b.sources:
        arg = diopi_args[arg_name]
        var = f"{arg_name}_d"
        if src.kind == "absent":
            plan.call_args.append(_absent(arg))
        elif src.kind == "value":
            plan.call_args.append(_value(arg, src.value, var, plan.prepare))
        elif src.kind == "return" and arg.kind == "host_bool":
            # a host result the kernel writes before returning (diopiEqual)
            out_var = f"result{src.index}"
            plan.prepare.append(f"bool {out_var} = false;")
            plan.call_args.append(f"&{out_var}")
            returns.append(out_var)
        elif src.kind == "return" and rules[arg_name].name == "allocated":
            out_var = f"result{src.index}"
            plan.prepare.append(f"diopiTensorHandle_t {out_var}_h = nullptr;")
            plan.call_args.append(f"&{out_var}_h")
            plan.computed.append(f"at::Tensor {out_var} = opweave::allocated_output({out_var}_h);")
            returns.append(out_var)
            writable = False
        elif src.kind == "return":
            out_var = f"result{src.index}"
            like = "guard.device()"
            cond = f"{b.output_mask}[{src.index}]" if b.output_mask else ""
            plan.allocs.append((out_var, helper_call(rules[arg_name]), like, cond))
            returns.append(out_var)
            plan.call_args.append(f"opweave::handle_or_null({out_var})" if cond
                                  else f"opweave::handle({out_var})")
            plan.written.append(out_var)
        else:
            aten = src.aten_name
            if arg.kind in ("tensor", "tensor_list") and _checkable(schema_args[aten].type) or \
                    arg.kind == "scalar":
                dtype_checks.append(aten)
            if arg.direction != "in" and arg.is_tensor:
                plan.written.append(aten)
            if b.variant == "out" and aten in {a.name for a in b.schema.arguments.out}:
                plan.resizes.append((aten, helper_call(rules[arg_name])))
            plan.call_args.append(_convert(arg, aten, schema_args[aten].type, var, plan.prepare))
    if b.variant == "inplace":
        for key, rule in rules.items():
            plan.inplace_checks.append(("self", helper_call(rule)))
        plan.written.append("self")
    if dtype_checks:
        plan.guards.append(_dtype_guard(list(dict.fromkeys(dtype_checks))))
    plan.written = list(dict.fromkeys(plan.written)) if writable and not b.computed else []
    for out_name, helper in b.computed:
        plan.resizes.append((out_name, helper_call(rules[out_name])))
        plan.computed.append(f"{helper_call(helper, out_name)};")
    if scalar_sibling is not None:
        _plan_by_value(plan, b, schema_args, *scalar_sibling)
    if b.variant == "out":
        outs = [a.name for a in b.schema.arguments.out]
        plan.return_expr = outs[0] if len(outs) == 1 else f"{ret_type}({', '.join(outs)})"
    elif b.variant == "inplace":
        plan.return_expr = "self"
    else:
        plan.return_expr = returns[0] if len(returns) == 1 else f"{ret_type}({', '.join(returns)})"
    return plan


def _plan_by_value(plan: WrapperPlan, b: AtenBinding, schema_args, scalar_fn: DiopiFunction,
                   arg_name: str) -> None:
    """The same DIOPI call through `scalar_fn`, whose `arg_name` takes a Python number by
    value, when the ATen argument feeding it is a plain Tensor a wrapped number can fill."""
    index = [name for name, _ in b.sources].index(arg_name)
    src = b.sources[index][1]
    if src.kind != "arg":
        return
    aten = src.aten_name
    t = schema_args[aten].type
    if not (isinstance(t, BaseType) and t.name == BaseTy.Tensor):
        return
    var = f"{aten}_n"
    plan.by_value_tensor = aten
    plan.by_value_fn = scalar_fn.name
    plan.by_value_guard = [name for name in plan.device_tensors if name != aten]
    plan.by_value_prepare = plan.prepare + [
        f"const diopiScalar_t {var} = opweave::wrapped_scalar({aten});"]
    plan.by_value_call_args = list(plan.call_args)
    plan.by_value_call_args[index] = f"&{var}"


def _checkable(t) -> bool:
    """ATen argument types opweave::dtype_in takes: Tensor, Tensor?, Tensor[]."""
    if isinstance(t, OptionalType):
        t = t.elem
    elif isinstance(t, ListType):
        t = t.elem
    return isinstance(t, BaseType) and t.name == BaseTy.Tensor


def _is_scalar(t) -> bool:
    t = t.elem if isinstance(t, OptionalType) else t
    return isinstance(t, BaseType) and t.name == BaseTy.Scalar


def _out_rules(b: AtenBinding) -> dict:
    """ATen out= argument name -> shaping rule, for allocating a derived functional's outputs."""
    rules = dict(b.outputs)
    result = {}
    for arg_name, src in b.sources:
        if src.kind == "arg" and arg_name in rules:
            result[src.aten_name] = rules[arg_name]
    for out_name, _ in b.computed:
        result[out_name] = rules[out_name]
    return result


def shard_of(family: OpFamily, shards: int = NUM_SHARDS) -> int:
    return zlib.crc32(family.name.encode()) % shards


def tolerances(fam: OpFamily, which: str) -> str:
    """The family's atol or rtol per opweave::ToleranceSlot (generated/aten/tolerance_slots.h).
    The model gives every floating dtype one (build_model rejects a catalogue that does not)."""
    values = []
    for dtype in TOLERANCE_DTYPES:
        tol = fam.tolerance(dtype)
        if tol is None:
            raise ValueError(f"op '{fam.name}' has no tolerance for {dtype}")
        values.append(repr(float(getattr(tol, which))) + "f")
    return ", ".join(values)


def emit(cat: Catalogue, env, out: OutputSet) -> None:
    catalogue_dtypes = ", ".join(ATEN_DTYPES[d] for d in CATALOGUE_DTYPES)
    shards: list[list[tuple[OpFamily, DiopiFunction, list[WrapperPlan]]]] = [[] for _ in range(NUM_SHARDS)]
    for fam in cat.families:
        for fn in fam.functions:
            if fn.bindings:
                sibling = fam.scalar_sibling(fn)
                plans = [plan_binding(fn, b, sibling) for b in fn.bindings]
                shards[shard_of(fam)].append((fam, fn, plans))
    for i, entries in enumerate(shards):
        composite = [p for _fam, _fn, plans in entries for p in plans if p.composite_call]
        out.add(f"aten/wrappers_{i}.cpp", render(env, "aten/wrappers.cpp.j2", shard=i,
                                                 entries=entries, composite=composite,
                                                 tolerances=tolerances,
                                                 catalogue_dtypes=catalogue_dtypes))
    slots = sorted((d for d in DTYPES if d.tolerance_slot is not None),
                   key=lambda d: d.tolerance_slot)
    out.add("aten/tolerance_slots.h", render(env, "aten/tolerance_slots.h.j2", slots=slots,
                                             catalogue=[d for d in DTYPES if d.in_catalogue]))
    out.add("aten/foreach.cpp", render(env, "aten/foreach.cpp.j2", overloads=cat.foreach))
