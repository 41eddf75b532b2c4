"""One DIOPI function's ATen bindings (a part of the model builder): the schemas it serves,
how each DIOPI argument is sourced, output rules, ignored ATen arguments, computed arguments and the derived
sibling overloads (functional, in-place) of an out= binding.
"""

from __future__ import annotations

from typing import Optional

from torchgen.model import BaseTy, BaseType, FunctionSchema, SchemaKind

from . import ctypes_map
from .aten_index import symint_neutral
from .errors import did_you_mean
from .model import ArgSource, AtenBinding, StrLiteral
from .rules import ARG_HELPERS, COMPUTED_HELPERS, GUARD_HELPERS, OUTPUT_RULES, RuleError, parse_call
from .torch_info import torch_version
from .validate import C_IDENT
from .yaml_loader import LineDict, LineList

ARG_KEYS = {"name": True, "from": False, "type": False, "doc": False, "count": False,
            "value": False, "dir": False, "optional": False}
RUNTIME_DIRS = ("in", "out", "inout")



class BindingParser:
    """Mixed into the model builder (build_model._Builder): reports through its `err`."""

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
                    if isinstance(value, dict):   # one value per ATen overload (diopiPad's mode)
                        value = {k: v for k, v in value.items()}
                    if not all(isinstance(v, (bool, int, float, str, type(None)))
                               for v in (value.values() if isinstance(value, dict) else [value])):
                        self.err(line, name, f"'value' of argument '{arg}' must be a literal "
                                             "(true, false, a number, null, a word for a "
                                             "const char*), helper(args) or a mapping of ATen "
                                             "overload -> one of those")
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
            if arg.startswith("ow_") or arg == "ctx":
                # generated function bodies name their own locals ow_*; ctx is every
                # function's first parameter
                self.err(line, name, f"argument name '{arg}' is reserved (ctx, ow_*)")
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
                if isinstance(value, dict):
                    if str(schema.name) not in value:
                        self.err(line, name, f"'value' of argument '{arg}' has none for the "
                                             f"overload '{schema.name}'")
                        return None
                    value = value[str(schema.name)]
                param = ctypes_map.VALUE_ARG_TYPES.get(typ)
                if param is None:
                    self.err(line, name, f"argument '{arg}' with a 'value' must have one of the "
                                         f"types {', '.join(ctypes_map.VALUE_ARG_TYPES)}")
                    return None
                if isinstance(value, str) and param.kind == "str" and C_IDENT.match(value):
                    value = StrLiteral(value)   # a word: the text itself (helpers take parens)
                elif isinstance(value, str):
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
                ret = schema.returns[next_return].type
                host = isinstance(ret, BaseType) and ret.name == BaseTy.bool
                if not host and not (isinstance(ret, BaseType) and ret.name == BaseTy.Tensor):
                    self.err(line, name, f"{overload} returns {ret}: a DIOPI output binds to a "
                                         "Tensor or bool result only")
                    return None
                if primary:
                    self.record_param(params, arg, ctypes_map.HOST_BOOL_OUT if host
                                      else ctypes_map.TENSOR_OUT, "out", name, line, True)
                sources.append((arg, ArgSource("return", index=next_return)))
                next_return += 1
            elif not primary and arg in params and (params[arg][0].optional or params[arg][0].kind == "enum"):
                sources.append((arg, ArgSource("absent")))
            elif not primary and arg in params and params[arg][0].kind == "str":
                # a string only the first overload has (diopiScatter's reduce: scatter.src_out
                # has none): DIOPI gets null from the others, so the parameter is nullable
                old, old_dir = params[arg]
                params[arg] = (ctypes_map.CParam(old.ctype, old.kind, True), old_dir)
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
        ignored = self.parse_ignored(f, name, schema, line)
        if ignored is None:
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
            if aname not in used and aname not in ignored and aname not in rule_args and \
                    aname not in out_names:
                self.err(line, name, f"ATen argument '{aname}' of {overload} is not passed to "
                                     f"{name}, not read by an output rule and not in 'ignore'")
                return None
        return AtenBinding(schema, variant, False, tuple(sources), outputs,
                           tuple(sorted(ignored.items())), tuple(sorted(computed.items())),
                           structured=self.index.structured(str(schema.name)),
                           output_mask=output_mask,
                           composite=self.index.composite_implicit(str(schema.name)),
                           widened=str(schema.name) in self.widened)

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
        # a host result (equal's bool) has no shape to rule
        diopi_outs = [arg for arg, s in sources
                      if (s.kind == "return" and str(schema.returns[s.index].type) == "Tensor")
                      or (s.kind == "arg" and s.aten_name in
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

    def parse_ignored(self, f, name, schema, line):
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
                                       out_binding.outputs, out_binding.ignored,
                                       out_binding.computed, base=out_binding,
                                       structured=self.index.structured(str(sib.name)),
                                       composite=self.index.composite_implicit(str(sib.name)),
                                       widened=str(sib.name) in self.widened))
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
