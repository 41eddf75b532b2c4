"""Vendor ops of a DICP catalogue: ports, typed attributes, the inference rule, and how the
op runs (a DIOPI kernel of specs/ops.yaml, a graph-level vendor kernel, a runtime view) with
its CPU reference."""

from __future__ import annotations

import re
from typing import Optional

from ..dtypes import KERNEL_DTYPES
from ..errors import did_you_mean
from ..model import DiopiFunction
from ..rules import is_unused
from ..validate import C_IDENT
from ..yaml_loader import LineDict, LineList
from .base import LoaderBase
from .expr import arg_has_default
from .model import VendorOp
from .records import Attr, DiopiCall, Port, Reference, Rule
from .vocab import (ATTR_TYPES, DIOPI_ENUM_ATTR, DIOPI_KIND_ATTR, IDENT, KERNEL_ATTR_C, NUMBER,
                    OP_KEYS, OP_NAME, OPTIONAL_OK, RULES, VIEWS)


class OpLoader(LoaderBase):
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
        for aname, atype, line in self.mapping_of(d, "attrs", name,
                                                  "'attrs' must map name -> type"):
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
            diopi, derived = self.diopi_call(d, name, ports, outputs, attrs, infer,
                                             derive="ref" not in d)
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
        if rname == "same_as" and len(args) != len(outputs):
            self.err(line, who, f"rule 'same_as' names one port per output: {len(outputs)} "
                                f"output(s), {len(args)} port(s)")
            return None
        if rname not in ("aten", "reference", "same_as") and len(outputs) != 1:
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
            ok = all(need(a, ("port",)) for a in args)
        elif rname in ("broadcast", "compare"):
            ok = need(args[0], ("port",)) and all(need(a, ("port", "scalar")) for a in args[1:])
        elif rname == "reduce":
            ok = need(args[0], ("port",)) and need(args[1], ("ints",)) and need(args[2], ("bool",))
        elif rname == "matmul":
            ok = all(need(a, ("port",)) for a in args)
        elif rname == "cast":
            ok = need(args[0], ("port",)) and need(args[1], ("dtype",))
        elif rname == "cat":
            ok = need(args[0], ("int",)) and all(need(a, ("port",)) for a in args[1:])
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

    def diopi_call(self, d, who, ports, outputs, attrs, infer, derive=True):
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
        # names the rule reads (`kw=name` reads name)
        read = {a.partition("=")[2].strip() or a for a in infer.args} if infer else set()
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
        # An explicit `ref` replaces the derived one (DIOPI's function may lack an ATen
        # argument the reference needs, as layer norm's backward lacks output_mask).
        if not derive:
            return diopi, None
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
        ignored = dict(b.ignored)
        computed = dict(b.computed)
        aten_for = {s.aten_name: k for k, s in sources.items() if s.kind == "arg"}
        for a in b.schema.arguments.flat_all:
            if a.name in aten_for:
                dname = aten_for[a.name]
                target = bind.get(dname, dname)
                darg = by_diopi[dname]
                if darg.kind == "tensor" and darg.direction in ("out", "inout"):
                    # in-place DIOPI function too: the output starts as a fresh tensor
                    outs.append((target, a.name))
                    args.append((a.name, "output", target))
                elif darg.kind == "tensor":
                    args.append((a.name, "port", target))
                else:
                    args.append((a.name, "attr", target))
            elif a.name in ignored:
                unused = is_unused(ignored[a.name])
                args.append((a.name, "scratch" if unused else "fixed",
                             None if unused else ignored[a.name]))
            elif a.name in computed:
                args.append((a.name, "scratch", None))
            elif a.name in attr_map:
                args.append((a.name, "attr", a.name))
            elif arg_has_default(a):
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

