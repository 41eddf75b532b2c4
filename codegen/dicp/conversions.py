"""The conversion table of a DICP catalogue: each ATen overload to vendor ops (`map`,
`decomp`), to a named hand-written handler (`custom`) or marked `unsupported`, every
attribute value an expression (expr.py) typed against the ATen schema and the vendor op."""

from __future__ import annotations

from typing import Optional

from torchgen.model import FunctionSchema, SchemaKind

from ..errors import did_you_mean
from ..yaml_loader import LineDict, LineList
from .expr import (ExprError, arg_has_default, assign_problem, aten_type, expr_names, expr_type,
                   parse_expr)
from .ops import OpLoader
from .records import Conversion, MapSpec, Step
from .vocab import CONV_KEYS, IDENT, KINDS, MAP_KEYS, STEP_KEYS


class ConversionLoader(OpLoader):
    def build_conversion(self, d: LineDict) -> Optional[Conversion]:
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
        for k, v, at in self.mapping_of(d, "when", who,
                                        "'when' must map ATen argument -> required value"):
            if k not in args:
                self.err(at, who, f"'when' names '{k}', which is not an argument of "
                                  f"aten::{overload}")
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
                    line=d.line_of("aten"))
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

    def expression(self, value, env: dict, line, who, what, referenced: set):
        """(expression, its type) of one YAML value, the names it reads added to `referenced`;
        the type is None after a reported error, and None is returned when it does not parse."""
        try:
            e = parse_expr(value)
        except ExprError as x:
            self.err(line, who, f"{what}: {x}")
            return None
        referenced.update(expr_names(e))
        return e, expr_type(e, env, lambda reason: self.err(line, who, f"{what}: {reason}"))

    def operand(self, raw: dict, name, role, op, env, line, who, what, referenced):
        """expression() of the value `raw` binds to `role` `name` of vendor op `op`."""
        if name not in raw:
            self.err(line, who, f"{what}: {role} '{name}' of {op.name} is not mapped")
            return None
        return self.expression(raw[name], env, line, who, what, referenced)

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
            if p.name not in raw_in and p.optional:
                inputs.append((p.name, ("lit", None)))
                continue
            got = self.operand(raw_in, p.name, "input port", op, env, line, who, what, referenced)
            if got is None or got[1] is None:
                continue
            e, t = got
            if t != "tensor" and not (p.optional and t in ("none", "tensor?")):
                self.err(line, who, f"{what}: port '{p.name}' of {op.name} needs a tensor, got {t}"
                                    + (" (make the port optional)" if t == "tensor?" else ""))
            inputs.append((p.name, e))
        for a in op.attrs:
            got = self.operand(raw_at, a.name, "attribute", op, env, line, who, what, referenced)
            if got is None:
                continue
            e, t = got
            why = assign_problem(a, t) if t is not None else None
            if why:
                self.err(line, who, f"{what}: {why}")
            attrs.append((a.name, e))
        for role, given, declared in (("input port", raw_in, op.inputs),
                                      ("attribute", raw_at, op.attrs)):
            for k in given:
                if k not in {x.name for x in declared}:
                    self.err(line, who, f"{what}: {op.name} has no {role} '{k}'")
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
                    got = self.expression(v, env, at, who, what, referenced)
                    if got is None:
                        continue
                    e, t = got
                    want = aten_type(params[k].type)
                    if t is not None and t != "none" and t.rstrip("?") != want.rstrip("?") and \
                            not (want.rstrip("?") == "scalar" and t in ("int", "float", "scalar")) \
                            and not (want.rstrip("?") == "float" and t == "int"):
                        self.err(at, who, f"{what}: argument '{k}' of aten::{s['aten']} is "
                                          f"{want}, got {t}")
                    args.append((k, e))
                for p in params.values():
                    if p.name not in raw_args and not arg_has_default(p):
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

