"""The catalogue's per-function `conformance:` field, parsed and validated in the load phase.

What the conformance case generator (codegen/conformance/) must know about one function
beyond its signature, its ATen overload and that overload's output rule: the values its
arguments are tested with, the domain its inputs are drawn from, what its cases are compared
with when not the bound overload, and how a backward's cases follow from its forward's.
specs/README.md documents the vocabulary; every problem is a SpecError with the catalogue
line and the function's name, collected like every other field's.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

from .aten_index import AtenIndex
from .errors import did_you_mean
from .model import ConformanceReference, ConformanceSpec, DiopiArg, DiopiFunction
from .validate import Checker
from .yaml_loader import LineDict

KEYS = ("inputs", "values", "together", "forward", "from_forward", "reference", "min_ndim")
# Value kinds a conformance input is drawn with (opweave/conformance/reference.py draws them).
INPUT_KINDS = ("normal", "positive", "unit", "small_int")
# How a backward argument follows from its forward case: (what) of (a forward argument).
FORWARD_FACTS = {
    "shape": "the forward tensor's shape",
    "dim0": "the forward tensor's first dimension",
    "channels": "[the forward tensor's first dimension] when the forward had a bias, else null",
    "attr": "the forward's attribute of that name",
}
# References of runtime-only functions (opweave/conformance/reference.py implements them).
RUNTIME_REFERENCES = ("convert", "adam", "adamw")
REFERENCE_KEYS = ("runtime", "output", "input", "aten", "args", "fixed")


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# DIOPI argument kind -> (what a test value must be, the check); Scalars take {float, int}.
_VALUE_TYPES = {
    "str": ("strings or null", lambda v: v is None or isinstance(v, str)),
    "round_mode": ("strings or null", lambda v: v is None or isinstance(v, str)),
    "int": ("integers", _int),
    "int_opt": ("integers or null", lambda v: v is None or _int(v)),
    "enum": ("integers", _int),
    "float": ("numbers", _number),
    "float_opt": ("numbers or null", lambda v: v is None or _number(v)),
    "bool": ("true or false", lambda v: isinstance(v, bool)),
    "bool_opt": ("true, false or null", lambda v: v is None or isinstance(v, bool)),
    "size": ("lists of integers", lambda v: isinstance(v, list) and all(_int(x) for x in v)),
}
_SCALAR_KINDS = ("scalar", "scalar_double")


def _freeze(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


class ConformanceParser:
    """Parses each function's `conformance:` (parse), then checks what names other functions
    of its family and resolves each backward's forward (resolve_family)."""

    def __init__(self, checker: Checker):
        self.checker = checker
        self.err = checker.err
        # function -> line of its `forward:` / each `from_forward:` entry, for resolve_family
        self.lines: dict[str, dict[str, int]] = {}

    # -- one function ----------------------------------------------------------------------
    def parse(self, f: LineDict, fn: str, args: tuple[DiopiArg, ...], bound: bool,
              index: AtenIndex) -> ConformanceSpec:
        raw = f.get("conformance")
        if raw is None:
            return ConformanceSpec()
        line = f.line_of("conformance")
        if not isinstance(raw, LineDict):
            self.err(line, fn, "'conformance' must be a mapping (specs/README.md)")
            return ConformanceSpec()
        self.checker.check_keys(raw, dict.fromkeys(KEYS, False), fn, "conformance")
        by_name = {a.name: a for a in args}
        self.lines[fn] = {}
        out: dict[str, Any] = {}
        if "inputs" in raw:
            out.update(self.inputs(raw["inputs"], raw.line_of("inputs"), fn, by_name))
        if "values" in raw:
            out["values"] = self.values(raw["values"], raw.line_of("values"), fn, by_name)
        if "together" in raw:
            out["together"] = self.together(raw["together"], raw.line_of("together"), fn,
                                            dict(out.get("values", ())))
        if "forward" in raw:
            if not isinstance(raw["forward"], str):
                self.err(raw.line_of("forward"), fn, "conformance.forward must name a DIOPI "
                                                     "function of the family")
            else:
                out["forward"] = raw["forward"]
                self.lines[fn]["forward"] = raw.line_of("forward")
        if "from_forward" in raw:
            out["from_forward"] = self.from_forward(raw["from_forward"],
                                                    raw.line_of("from_forward"), fn, by_name)
        if "reference" in raw:
            out["reference"] = self.reference(raw["reference"], raw.line_of("reference"), fn,
                                              by_name, bound, index)
        if "min_ndim" in raw:
            n = raw["min_ndim"]
            if not _int(n) or n < 0:
                self.err(raw.line_of("min_ndim"), fn, "conformance.min_ndim must be an integer "
                                                      f">= 0, got {n!r}")
            else:
                out["min_ndim"] = n
        return ConformanceSpec(**out)

    def _arg(self, name: Any, line: int, fn: str, by_name: dict[str, DiopiArg], field: str,
             tensor: Optional[bool]) -> Optional[DiopiArg]:
        """The DIOPI argument `name` of `fn`; `tensor` True / False: it must (not) be one."""
        a = by_name.get(name) if isinstance(name, str) else None
        if a is None:
            self.err(line, fn, f"conformance.{field} names '{name}', which is not an argument "
                               f"of {fn}{did_you_mean(name, by_name)}")
            return None
        if tensor is not None and a.is_tensor != tensor:
            want = "a tensor" if tensor else "a non-tensor argument"
            self.err(line, fn, f"conformance.{field}: '{name}' is not {want}")
            return None
        return a

    def _entries(self, raw: LineDict, fn: str, by_name, field: str, tensor: Optional[bool]):
        """(argument, value, line) of each `arg: value` entry naming an argument of `fn`."""
        for name, value in raw.items():
            at = raw.line_of(name)
            a = self._arg(name, at, fn, by_name, field, tensor)
            if a is not None:
                yield a, value, at

    def inputs(self, raw: Any, line: int, fn: str, by_name) -> dict:
        if isinstance(raw, str):
            if raw not in INPUT_KINDS:
                self.err(line, fn, f"conformance.inputs: unknown value kind '{raw}' (known: "
                                   f"{', '.join(INPUT_KINDS)}){did_you_mean(raw, INPUT_KINDS)}")
                return {}
            return {"inputs": raw}
        if not isinstance(raw, LineDict):
            self.err(line, fn, "conformance.inputs must be a value kind "
                               f"({', '.join(INPUT_KINDS)}) or a mapping tensor -> kind")
            return {}
        out = []
        for a, kind, at in self._entries(raw, fn, by_name, "inputs", True):
            if a.direction == "out":
                self.err(at, fn, f"conformance.inputs: '{a.name}' is an output, not read")
            elif kind not in INPUT_KINDS:
                self.err(at, fn, f"conformance.inputs.{a.name}: unknown value kind '{kind}' "
                                 f"(known: {', '.join(INPUT_KINDS)})")
            else:
                out.append((a.name, kind))
        return {"arg_inputs": tuple(out)}

    def values(self, raw: Any, line: int, fn: str, by_name) -> tuple:
        if not isinstance(raw, LineDict):
            self.err(line, fn, "conformance.values must map an argument to its test values")
            return ()
        out = []
        for a, values, at in self._entries(raw, fn, by_name, "values", False):
            name = a.name
            where = f"conformance.values.{name}"
            if a.kind in _SCALAR_KINDS:
                if not isinstance(values, LineDict) or set(values) != {"float", "int"}:
                    self.err(at, fn, f"{where}: a Scalar takes {{float: [...], int: [...]}} "
                                     "(its values in floating and in integral cases)")
                    continue
                pair = []
                for cls in ("float", "int"):
                    vs = values[cls]
                    if (not isinstance(vs, list) or not vs
                            or not all(v is None or _number(v) for v in vs)):
                        self.err(values.line_of(cls), fn,
                                 f"{where}.{cls} must be a non-empty list of numbers or null")
                        break
                    pair.append(vs)
                else:
                    out.append((name, _freeze(pair)))
                continue
            kind = "round_mode" if a.ctype == "diopiRoundMode_t" else a.kind
            if kind not in _VALUE_TYPES:
                self.err(at, fn, f"{where}: a '{a.kind}' argument takes no test values")
                continue
            what, ok = _VALUE_TYPES[kind]
            if not isinstance(values, list) or not values or not all(ok(v) for v in values):
                self.err(at, fn, f"{where} must be a non-empty list of {what}")
                continue
            out.append((name, _freeze(values)))
        return tuple(out)

    def together(self, raw: Any, line: int, fn: str, values: dict) -> tuple:
        if (not isinstance(raw, list) or len(raw) < 2
                or not all(isinstance(n, str) for n in raw)):
            self.err(line, fn, "conformance.together must list two or more arguments")
            return ()
        for name in raw:
            if name not in values:
                self.err(line, fn, f"conformance.together names '{name}', which has no "
                                   "conformance.values")
                return ()
        if len({len(values[n]) for n in raw}) != 1:
            self.err(line, fn, "conformance.together: the arguments' values lists must be of "
                               "one length (the i-th of each go into one case)")
            return ()
        return tuple(raw)

    def from_forward(self, raw: Any, line: int, fn: str, by_name) -> tuple:
        if not isinstance(raw, LineDict):
            self.err(line, fn, "conformance.from_forward must map an argument to "
                               "{what: forward argument}")
            return ()
        out = []
        for a, fact, at in self._entries(raw, fn, by_name, "from_forward", False):
            name = a.name
            if not isinstance(fact, dict) or len(fact) != 1:
                self.err(at, fn, f"conformance.from_forward.{name} must be one "
                                 f"{{what: forward argument}}, what one of "
                                 f"{', '.join(FORWARD_FACTS)}")
                continue
            ((what, of),) = fact.items()
            if what not in FORWARD_FACTS:
                self.err(at, fn, f"conformance.from_forward.{name}: unknown '{what}' (known: "
                                 f"{', '.join(FORWARD_FACTS)}){did_you_mean(what, FORWARD_FACTS)}")
                continue
            if not isinstance(of, str):
                self.err(at, fn, f"conformance.from_forward.{name}: '{what}' names an argument "
                                 "of the forward function")
                continue
            out.append((name, (what, of)))
            self.lines[fn][f"from_forward.{name}"] = at
        return tuple(out)

    def reference(self, raw: Any, line: int, fn: str, by_name, bound: bool,
                  index: AtenIndex) -> Optional[ConformanceReference]:
        if not isinstance(raw, LineDict):
            self.err(line, fn, "conformance.reference must be a mapping with 'runtime' or "
                               "'aten'")
            return None
        for key in raw:
            if key not in REFERENCE_KEYS:
                self.err(raw.line_of(key), fn, f"unknown field '{key}' in conformance.reference"
                                               f"{did_you_mean(key, REFERENCE_KEYS)}")
                return None
        if ("runtime" in raw) == ("aten" in raw):
            self.err(line, fn, "conformance.reference takes one of 'runtime' (a runtime-only "
                               "function) or 'aten' (an overload standing for the bound one)")
            return None
        if "runtime" in raw:
            return self.runtime_reference(raw, fn, by_name, bound)
        return self.aten_reference(raw, fn, by_name, bound, index)

    def runtime_reference(self, raw: LineDict, fn: str, by_name,
                          bound: bool) -> Optional[ConformanceReference]:
        at = raw.line_of("runtime")
        kind = raw["runtime"]
        if bound:
            self.err(at, fn, "conformance.reference.runtime is for runtime-only functions; a "
                             "function with 'aten' is compared with that overload")
            return None
        if kind not in RUNTIME_REFERENCES:
            self.err(at, fn, f"conformance.reference.runtime: unknown reference '{kind}' "
                             f"(known: {', '.join(RUNTIME_REFERENCES)})"
                             f"{did_you_mean(kind, RUNTIME_REFERENCES)}")
            return None
        wanted = {"runtime", "output", "input"} if kind == "convert" else {"runtime"}
        if set(raw) != wanted:
            self.err(at, fn, f"conformance.reference.runtime: {kind} takes "
                             f"{', '.join(sorted(wanted - {'runtime'})) or 'nothing else'}")
            return None
        if kind != "convert":
            return ConformanceReference(runtime=kind)
        out = self._arg(raw["output"], raw.line_of("output"), fn, by_name, "reference.output",
                        True)
        src = self._arg(raw["input"], raw.line_of("input"), fn, by_name, "reference.input", True)
        if out is not None and out.direction == "in":
            self.err(raw.line_of("output"), fn, f"conformance.reference.output: '{out.name}' "
                                                "is not written by the function")
            return None
        if src is not None and src.direction == "out":
            self.err(raw.line_of("input"), fn, f"conformance.reference.input: '{src.name}' is "
                                               "not read by the function")
            return None
        if out is None or src is None:
            return None
        return ConformanceReference(runtime=kind, output=out.name, input=src.name)

    def aten_reference(self, raw: LineDict, fn: str, by_name, bound: bool,
                       index: AtenIndex) -> Optional[ConformanceReference]:
        at = raw.line_of("aten")
        name = raw["aten"]
        if not bound:
            self.err(at, fn, "conformance.reference.aten: a runtime-only function takes "
                             "'runtime'")
            return None
        if not isinstance(name, str) or index.schema_text(name) is None:
            self.err(at, fn, f"conformance.reference.aten: ATen overload '{name}' does not "
                             f"exist{did_you_mean(name, index.names())}")
            return None
        if not index.has_cpu_kernel(name):
            self.err(at, fn, f"conformance.reference.aten: '{name}' has no CPU kernel to "
                             "compare with")
            return None
        schema = index.parse(name)
        aten_args = [a.name for a in schema.arguments.flat_all]
        pairs: dict[str, list] = {"args": [], "fixed": []}
        for key in ("args", "fixed"):
            mapping = raw.get(key)
            if mapping is None:
                continue
            if not isinstance(mapping, LineDict):
                self.err(raw.line_of(key), fn, f"conformance.reference.{key} must be a mapping")
                return None
            for k, v in mapping.items():
                item = mapping.line_of(k)
                aten_name = v if key == "args" else k
                if key == "args" and self._arg(k, item, fn, by_name, "reference.args",
                                               None) is None:
                    return None
                if aten_name not in aten_args:
                    hint = did_you_mean(aten_name, aten_args)
                    self.err(item, fn, f"conformance.reference.{key}: '{aten_name}' is not an "
                                       f"argument of aten::{name}{hint}")
                    return None
                pairs[key].append((k, _freeze(v)))
        return ConformanceReference(
            aten=name, positional=tuple(a.name for a in schema.arguments.flat_positional),
            args=tuple(pairs["args"]), fixed=tuple(pairs["fixed"]))

    # -- across a family -------------------------------------------------------------------
    def resolve_family(self, family: str, functions: list[DiopiFunction]) -> list[DiopiFunction]:
        """Each backward's forward (`forward:`, else the function named like it without
        `Backward`, when the family has it), checked; `from_forward` checked against it."""
        names = {f.name: f for f in functions}
        out = []
        for fn in functions:
            conf = fn.conformance
            lines = self.lines.get(fn.name, {})
            fwd = conf.forward
            if fwd and (fwd not in names or fwd == fn.name):
                self.err(lines.get("forward", fn.line), fn.name,
                         f"conformance.forward: '{fwd}' is not another function of the "
                         f"'{family}' family{did_you_mean(fwd, set(names) - {fn.name})}")
                fwd = ""
            if not fwd and fn.name.endswith("Backward") and fn.name[:-len("Backward")] in names:
                fwd = fn.name[:-len("Backward")]
            for name, (what, of) in conf.from_forward:
                at = lines.get(f"from_forward.{name}", fn.line)
                if not fwd:
                    self.err(at, fn.name, "conformance.from_forward needs a forward function "
                                          "(conformance.forward)")
                    break
                arg = next((a for a in names[fwd].args if a.name == of), None)
                if arg is None or arg.is_tensor != (what != "attr"):
                    kind = "attribute" if what == "attr" else "tensor"
                    self.err(at, fn.name, f"conformance.from_forward.{name}: '{of}' is not a "
                                          f"{kind} argument of {fwd}")
            out.append(dataclasses.replace(fn, conformance=dataclasses.replace(conf, forward=fwd))
                       if fwd != conf.forward else fn)
        return out
