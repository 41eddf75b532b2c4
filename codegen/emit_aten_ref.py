"""Emitter: the `aten_ref` reference vendor's kernel bodies (generated/aten_ref/).

Each DIOPI function whose catalogue binding can be read backwards mechanically becomes a C
function that views the DIOPI tensors as CPU tensors over the same memory and redispatches
the bound ATen overload straight to its CPU kernel. The same kernels as native CPU torch run,
so a model on the aten_ref device against the same model on CPU measures exactly what the
wrappers, runtime and allocator add. Functions that cannot be read backwards are listed with
the reason in generated/aten_ref/coverage.md; vendors/aten_ref/kernels/ writes those by hand.

The api layer (`plan_function`) is here; templates/aten_ref/ only lays plans out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from torchgen.model import OptionalType, SchemaKind

from .aten_index import default_index
from .api.cpp import default_expr, enum_to_aten
from .emit_aten import shard_of
from .model import AtenBinding, Catalogue, DiopiArg, DiopiFunction, StrLiteral
from .output_set import OutputSet
from .rules import is_unused
from .render import render

# Overloads whose CPU "kernel" only raises (they exist for out-of-tree backends to override):
# the reference vendor implements their DIOPI functions by hand with the real CPU op.
NO_CPU_KERNEL = {"convolution_overrideable", "convolution_backward_overrideable"}


# ATen arguments DIOPI leaves out because the output tensor already says them (an output rule
# reads them on the wrapper side): recovered here from the first output and the first input.
FROM_OUTPUT = {
    "keepdim": "aten_ref::keepdim_of({out}, {input})",
    "dtype": "{out}.scalar_type()",
    "input_dtype": "{out}.scalar_type()",
}


# Fewer shards than the wrappers: these files parse ATen's operator headers without a
# precompiled header, and a catalogue edit seldom changes a reference kernel.
NUM_SHARDS = 4


class NotMechanical(Exception):
    """A binding that cannot be turned into an ATen call from DIOPI arguments alone."""


@dataclass
class RefPlan:
    diopi: str
    op_name: str              # aten::add.out
    header: str               # ATen/ops/add_ops.h
    prepare: list[str] = field(default_factory=list)
    call: str = ""
    copies: list[str] = field(default_factory=list)   # functional: results into DIOPI outputs
    commits: list[str] = field(default_factory=list)  # out=: temporaries into DIOPI outputs
    cond: str = ""            # when this binding serves the call (several bindings), C++
    # Further bindings of the same DIOPI function, tried in order when `cond` does not hold:
    # any.out needs `dim`, any.all_out serves a null one.
    alternatives: list["RefPlan"] = field(default_factory=list)


def _tensor_value(arg: DiopiArg, aten_type, prepare: list[str]) -> str:
    var = f"{arg.name}_t"
    if isinstance(aten_type, OptionalType):
        prepare.append(f"c10::optional<at::Tensor> {var} = aten_ref::wrap_optional({arg.name});")
    else:
        prepare.append(f"at::Tensor {var} = aten_ref::wrap({arg.name});")
    return var


def _from_diopi(arg: DiopiArg, aten_type, structured: bool, prepare: list[str]) -> str:
    """C++ expression giving ATen argument of `aten_type` the value of DIOPI parameter `arg`."""
    k, name = arg.kind, arg.name
    optional = isinstance(aten_type, OptionalType)
    # Integers stay int64_t / IntArrayRef whether the schema says int or SymInt (which differs
    # between torch versions): opweave::compat::redispatch converts to the installed schema.
    if k == "tensor":
        return _tensor_value(arg, aten_type, prepare)
    if k == "tensor_list" and arg.optional:   # Tensor?[]: NULL entries are absent
        var = f"{name}_t"
        prepare.append(f"c10::List<c10::optional<at::Tensor>> {var} = "
                       f"aten_ref::wrap_optional_list({name}, {arg.count_name or name + '_size'});")
        return var
    if k == "tensor_list":
        var = f"{name}_t"
        prepare.append(f"std::vector<at::Tensor> {var} = "
                       f"aten_ref::wrap_list({name}, {arg.count_name or name + '_size'});")
        return f"at::ITensorListRef({var})" if structured else f"at::TensorList({var})"
    if k == "scalar":
        return f"aten_ref::optional_scalar({name})" if optional else f"aten_ref::scalar({name})"
    if k == "scalar_double":
        return f"at::Scalar({name})"
    if k == "size":
        if optional:
            return f"aten_ref::optional_ints({name})"
        return f"aten_ref::ints({name})"
    if k in ("int", "bool", "float"):
        return name
    if k in ("int_opt", "float_opt", "bool_opt"):
        if not optional:   # DIOPI's pointer may be null; this ATen overload needs the value
            return f"aten_ref::required({name}, \"{name}\")"
        return f"aten_ref::optional_value({name})"
    if k == "str":
        return f"aten_ref::optional_str({name})" if optional else f"c10::string_view({name})"
    if k == "dtype":
        return f"aten_ref::dtype({name})"
    if k == "dtype_opt":
        return f"aten_ref::optional_dtype({name})"
    if k == "enum" and (converted := enum_to_aten(arg, name)):
        return converted
    if k == "generator":
        prepare.append(f"aten_ref::SeededCpuGenerator {name}_g({name});")
        return f"{name}_g.get()"
    raise NotMechanical(f"DIOPI argument kind {k} ({name})")


def _literal(value, aten_type) -> str:
    """A guard's required value (the only one the DIOPI function accepts) as C++."""
    if value is None:
        return "c10::nullopt"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"int64_t{{{value}}}"


def _default(a) -> str:
    if a.default is None:
        raise NotMechanical(f"ATen argument '{a.name}' has no DIOPI counterpart and no default")
    return default_expr(a.default, a.type)


def _is_loss(schema) -> bool:
    return any(a.name == "reduction" for a in schema.arguments.flat_all)


def _output(arg: DiopiArg, plan: RefPlan, schema) -> str:
    """An ATen out= argument: written through aten_ref::Output (see aten_ref.h). A loss (an
    ATen op with a `reduction` argument) may resize its out= through the unreduced shape."""
    mode = ", aten_ref::Output::kMayResize" if _is_loss(schema) else ""
    plan.prepare.append(f"aten_ref::Output {arg.name}_o({arg.name}{mode});")
    plan.commits.append(f"{arg.name}_o.commit();")
    return f"{arg.name}_o.tensor()"


def _from_output(name: str, fn: DiopiFunction, wrapped: dict, prepare: list[str]) -> str:
    outs = [a for a in fn.args if a.direction == "out" and a.kind == "tensor"]
    ins = [a for a in fn.args if a.direction == "in" and a.kind == "tensor" and not a.optional]
    if not outs or not ins:
        raise NotMechanical(f"'{name}' needs an output and an input tensor to be read from")
    for a in (outs[0], ins[0]):
        if a.name not in wrapped:
            prepare.append(f"at::Tensor {a.name}_t = aten_ref::wrap({a.name});")
            wrapped[a.name] = f"{a.name}_t"
    return FROM_OUTPUT[name].format(out=wrapped[outs[0].name], input=wrapped[ins[0].name])


def _redispatch(schema, values: list[str]) -> str:
    cname = schema.name.unambiguous_name()
    return (f"opweave::compat::redispatch<at::_ops::{cname}>(aten_ref::kCpuKeys"
            f"{''.join(', ' + v for v in values)})")


def _out_sibling(b: AtenBinding, returns: dict, hidden: frozenset):
    """The out= overload of a functional binding, when every result has a DIOPI output the
    caller always passes (no output mask, no kernel-allocated output)."""
    if b.variant != "functional" or b.output_mask:
        return None
    n = len(b.schema.returns)
    if sorted(returns) != list(range(n)) or any(a.kind != "tensor" for a in returns.values()):
        return None
    index = default_index()
    sibling = index.siblings(b.schema).get(SchemaKind.out)
    if sibling is None or str(sibling.name) in hidden or len(sibling.arguments.out) != n or \
            not index.has_cpu_kernel(str(sibling.name)):
        return None
    if any(a.name == "reduction" for a in sibling.arguments.flat_all) and \
            not index.structured(str(sibling.name)):
        # an unstructured loss's out= kernel (binary_cross_entropy) computes the unreduced loss
        # in `out` before reducing it: only the functional works with a one-element output
        return None
    return sibling


def _loss_functional(b: AtenBinding, hidden: frozenset):
    """The functional overload that serves a forward loss bound through its out= overload when
    it reduces. The out= kernels of ATen 1.13's structured losses resize `out` through the
    unreduced shape, so a reduced loss would need a temporary output and a copy (and
    mse_loss.out then reduces through mean_out, ~30,000 instructions more than the native
    call): the functional computes as a native CPU call does, and its one-element result is
    copied out for a few instructions. Unreduced losses and loss backwards write their
    full-size outputs in place through the out= overload."""
    if b.variant != "out" or not _is_loss(b.schema) or "backward" in str(b.schema.name):
        return None
    index = default_index()
    functional = index.siblings(b.schema).get(SchemaKind.functional)
    if functional is None or str(functional.name) in hidden or \
            not index.has_cpu_kernel(str(functional.name)) or \
            len(functional.returns) != len(b.schema.arguments.out):
        return None
    return functional


def _plan_binding(fn: DiopiFunction, b: AtenBinding, hidden: frozenset,
                  reduced_loss: bool = False) -> RefPlan:
    if b.derived:
        raise NotMechanical("derived binding")
    if b.computed:
        raise NotMechanical("an output is computed by a runtime helper")
    base_name = str(b.schema.name.name.base)
    if base_name in NO_CPU_KERNEL:
        raise NotMechanical(f"aten::{base_name} has no CPU kernel")
    fixed_text = [a for a, src in b.sources if isinstance(src.value, StrLiteral)]
    if fixed_text:   # diopiPad's mode: the text, not a pointer, picks the overload
        raise NotMechanical(f"DIOPI argument '{fixed_text[0]}' selects the ATen overload")
    diopi_args = {a.name: a for a in fn.args}
    by_aten = {}
    returns = {}
    for arg_name, src in b.sources:
        arg = diopi_args[arg_name]
        if src.kind == "arg":
            if src.aten_name in by_aten:   # masked_scatter_: self is DIOPI's out and input
                raise NotMechanical(f"ATen argument '{src.aten_name}' is both "
                                    f"'{by_aten[src.aten_name].name}' and '{arg_name}'")
            by_aten[src.aten_name] = arg
        elif src.kind == "return":
            returns[src.index] = arg
        elif arg.direction != "in":
            raise NotMechanical(f"output '{arg_name}' is not an ATen output")
    ignored = dict(b.ignored)
    plan = RefPlan(diopi=fn.name, op_name=b.op_name, header=f"ATen/ops/{base_name}_ops.h")
    values = []
    wrapped = {}   # DIOPI argument -> its C++ value, each converted once
    functional = _loss_functional(b, hidden) if reduced_loss else None
    out_names = [o.name for o in b.schema.arguments.out]
    for a in b.schema.arguments.flat_all:
        if a.name in by_aten:
            arg = by_aten[a.name]
            if arg.kind == "tensor" and a.name in out_names:
                if functional is not None:   # the functional's result i is out= argument i
                    returns[out_names.index(a.name)] = arg
                else:
                    values.append(_output(arg, plan, b.schema))
                continue
            if arg.name not in wrapped:
                wrapped[arg.name] = _from_diopi(arg, a.type, b.structured, plan.prepare)
            values.append(wrapped[arg.name])
        elif a.name == b.output_mask:
            n = len(b.schema.returns)
            present = ", ".join(f"{returns[i].name} != nullptr" if i in returns else "false"
                                for i in range(n))
            values.append(f"std::array<bool, {n}>{{{present}}}")
        elif a.name in ignored and not is_unused(ignored[a.name]):
            values.append(_literal(ignored[a.name], a.type))
        elif a.name in FROM_OUTPUT and a.name not in ignored:
            values.append(_from_output(a.name, fn, wrapped, plan.prepare))
        else:
            values.append(_default(a))
    if functional is not None:
        plan.op_name = f"aten::{functional.name}"
        plan.call = f"const auto result = {_redispatch(functional, values)};"
        n = len(functional.returns)
        for i, arg in sorted(returns.items()):
            got = "result" if n == 1 else f"std::get<{i}>(result)"
            plan.copies.append(f"aten_ref::copy_result({arg.name}, {got});")
        return plan
    out_sibling = _out_sibling(b, returns, hidden)
    if out_sibling is not None:
        # Write straight into the outputs the wrapper allocated: no result copy.
        for i in range(len(b.schema.returns)):
            values.append(_output(returns[i], plan, out_sibling))
        plan.op_name = f"aten::{out_sibling.name}"
        plan.call = f"{_redispatch(out_sibling, values)};"
        return plan
    call = _redispatch(b.schema, values)
    if b.variant == "functional":
        _plan_results(plan, call, returns, len(b.schema.returns), [
            f"{name}_t" for name in wrapped
            if diopi_args[name].kind in ("tensor", "tensor_list")
            and diopi_args[name].direction != "out"], op=str(b.schema.name.name))
    else:
        plan.call = f"{call};"
    return plan


# ATen CPU kernels that allocate a result's size more than once and return a later allocation:
# {op: {result index: allocations of its size to pass over}}. native_batch_norm_backward
# allocates grad_input at the top and again on its contiguous path (torch 1.13 and 2.x). A
# stale entry costs a copy, never a wrong result: copy_out checks where each result is.
_REALLOCATED_RESULTS = {"native_batch_norm_backward": {0: 1}}


def _plan_results(plan: RefPlan, call: str, returns: dict, n: int, inputs: list[str],
                  op: str = "") -> None:
    """A functional call's results into the DIOPI outputs. Outputs the caller allocated are
    offered to the kernel's own allocations (aten_ref::ResultMemory), so a large result is
    computed in place instead of into fresh memory and copied."""
    pairs = []
    for i, arg in sorted(returns.items()):
        got = "result" if n == 1 else f"std::get<{i}>(result)"
        if arg.kind == "tensor_alloc":   # the kernel allocates this output
            plan.copies.append(f"aten_ref::return_allocated(ctx, {arg.name}, {got});")
        elif arg.kind == "host_bool":    # equal's bool, written before returning
            plan.copies.append(f"*{arg.name} = {got};")
        else:
            pairs.append((arg.name, got))
    if not pairs:
        plan.call = f"const auto result = {call};"
        return
    plan.prepare.append(f"aten_ref::ResultMemory results({{{', '.join(o for o, _ in pairs)}}});")
    if inputs:
        plan.prepare.append(f"results.keep_clear_of({', '.join(inputs)});")
    for i, count in sorted(_REALLOCATED_RESULTS.get(op, {}).items()):
        if i in returns and any(o == returns[i].name for o, _ in pairs):
            plan.prepare.append(f"results.lend_after({returns[i].name}, {count});")
    plan.call = f"const auto result = results.run([&] {{ return {call}; }});"
    plan.copies.append(f"results.copy_out({{{', '.join(f'{{{o}, {g}}}' for o, g in pairs)}}});")


_POINTER_OPTIONALS = ("int_opt", "float_opt", "bool_opt")


def _condition(fn: DiopiFunction, b: AtenBinding) -> str:
    """When binding `b` can serve a call: the DIOPI pointers its ATen overload requires are
    given, and those it has no argument for are null."""
    # a nullable string too: diopiScatter's reduce is null for scatter.src_out only; and a
    # nullable Scalar: diopiNorm's p is null for norm.out's p=None only
    optional = {a.name: a for a in fn.args
                if a.kind in _POINTER_OPTIONALS or (a.kind in ("str", "scalar") and a.optional)}
    terms = []
    for arg_name, src in b.sources:
        if arg_name not in optional:
            continue
        if src.kind == "absent":
            terms.append(f"{arg_name} == nullptr")
        elif src.kind == "arg":
            aten_type = next(a.type for a in b.schema.arguments.flat_all if a.name == src.aten_name)
            if not isinstance(aten_type, OptionalType):
                terms.append(f"{arg_name} != nullptr")
    return " && ".join(terms)


def plan_function(fn: DiopiFunction, hidden: frozenset = frozenset()) -> tuple[Optional[RefPlan], str]:
    """(plan, "") for a mechanical function, else (None, why not). A function several ATen
    overloads route to gets one branch per overload that needs different DIOPI pointers (a null
    `dim` selects any.all_out), so no optional DIOPI argument reaches an overload requiring it."""
    reasons, plans, conds = [], [], set()
    for b in fn.bindings:
        if b.derived:
            continue
        cond = _condition(fn, b)
        if cond in conds:
            continue
        try:
            plan = _plan_binding(fn, b, hidden)
        except NotMechanical as e:
            reasons.append(f"{b.op_name}: {e}")
            continue
        plan.cond = cond
        plans.append(plan)
        conds.add(cond)
        reduction = next((name for name, src in b.sources
                          if src.kind == "arg" and src.aten_name == "reduction"), None)
        if reduction is not None and _loss_functional(b, hidden) is not None:
            # the reduced case first: the functional overload, its result copied out
            reduced = _plan_binding(fn, b, hidden, reduced_loss=True)
            reduced.cond = " && ".join(t for t in (cond, f"{reduction} != ReductionNone") if t)
            plans.insert(len(plans) - 1, reduced)
    if not plans:
        return None, "; ".join(reasons) or "no ATen binding (called by the runtime)"
    # Conditional branches first: an overload taking the pointer as an optional (sort's
    # `bool? stable`, which ATen's kernel still requires) serves what the others do not.
    plans.sort(key=lambda p: not p.cond)
    first = plans[0]
    first.alternatives = plans[1:]
    if not first.alternatives:
        first.cond = ""
    return first, ""


def _through_tensor_twin(scalar_fn: DiopiFunction, tensor_fn: DiopiFunction, arg: str,
                         hidden: frozenset) -> Optional[RefPlan]:
    """`scalar_fn` (diopiMulScalar) as its tensor twin's plan (diopiMul: mul.out) on the
    number as a 0-dim CPU tensor (aten_ref::number_operand), when ATen's own overloads behind
    `scalar_fn` are composites over the tensor overload (mul.Scalar is mul.Tensor on the
    wrapped number): the same values, without the composite's second dispatch, its dtype
    conversion and the functional's result copy. None when that does not hold."""
    index = default_index()
    direct = [b for b in scalar_fn.bindings if not b.derived]
    # Binary ops name the number `other` and define the Scalar overload through the tensor one;
    # fills (`value`: masked_fill, index_fill) go the other way (the tensor overload item()s)
    if arg != "other" or not direct or \
            not all(index.composite(str(b.schema.name)) for b in direct):
        return None
    plan, _ = plan_function(tensor_fn, hidden)
    if plan is None:
        return None
    first = next((a.name for a in scalar_fn.args
                  if a.kind == "tensor" and a.direction != "out" and a.name != arg), None)
    view, first_view = f"at::Tensor {arg}_t = aten_ref::wrap({arg});", f"at::Tensor {first}_t ="
    for q in [plan] + plan.alternatives:
        if view not in q.prepare or not any(line.startswith(first_view) for line in q.prepare):
            return None
        q.prepare = [f"at::Tensor {arg}_t = aten_ref::number_operand({first}_t, {arg});"
                     if line == view else line for line in q.prepare]
        q.op_name = f"{q.op_name} on the number (what {direct[0].op_name} computes)"
    plan.diopi = scalar_fn.name
    return plan


def emit(cat: Catalogue, env, out: OutputSet) -> None:
    shards: list[list[RefPlan]] = [[] for _ in range(NUM_SHARDS)]
    protos: dict[str, DiopiFunction] = {}
    manual: list[tuple[str, str]] = []
    for fam in cat.families:
        twins = {}   # Scalar function -> (its tensor twin, the argument it takes by value)
        for fn in fam.functions:
            if (sibling := fam.scalar_sibling(fn)) is not None:
                twins[sibling[0].name] = (fn, sibling[1])
        for fn in fam.functions:
            plan = None
            if fn.name in twins:
                plan = _through_tensor_twin(fn, *twins[fn.name], cat.aten_hidden)
            if plan is None:
                plan, why = plan_function(fn, cat.aten_hidden)
            if plan is None:
                manual.append((fn.name, why))
            else:
                shards[shard_of(fam, NUM_SHARDS)].append(plan)
                protos[fn.name] = fn
    for i, plans in enumerate(shards):
        headers = sorted({q.header for p in plans for q in [p] + p.alternatives})
        out.add(f"aten_ref/kernels_{i}.cpp", render(env, "aten_ref/body.cpp.j2", shard=i,
                                                    plans=plans, protos=protos, headers=headers))
    generated = sum(len(s) for s in shards)
    out.add("aten_ref/coverage.md", render(env, "aten_ref/coverage.md.j2", generated=generated,
                                           total=len(cat.functions), manual=manual))
