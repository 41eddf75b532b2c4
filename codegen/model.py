"""The immutable op model every emitter reads (emitters never see YAML)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from torchgen.model import FunctionSchema


@dataclass(frozen=True)
class Tolerance:
    atol: float
    rtol: float


@dataclass(frozen=True)
class HelperCall:
    """A catalogue call `name(arg, ...)` of a hand-written C++ helper, with ATen argument names.
    Each subclass is one vocabulary of codegen/rules.py (the helper's job and C++ namespace)."""

    name: str                 # e.g. "broadcast"
    args: tuple[str, ...]     # ATen argument names the helper reads

    def __str__(self) -> str:
        return f"{self.name}({', '.join(self.args)})"


@dataclass(frozen=True)
class OutputRule(HelperCall):
    """How a wrapper shapes an output it allocates or resizes (rules.OUTPUT_RULES)."""

    @property
    def rule(self) -> str:
        return self.name


@dataclass(frozen=True)
class ArgHelperCall(HelperCall):
    """The value of a DIOPI argument no ATen argument carries (`value: helper(args)`,
    rules.ARG_HELPERS)."""


@dataclass(frozen=True)
class StrLiteral:
    """A `const char*` DIOPI argument's fixed text (`value: reflect`): diopiPad's mode, which
    the ATen overload names (reflection_pad2d.out passes "reflect")."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class GuardHelperCall(HelperCall):
    """When an ATen argument the DIOPI call ignores may be dropped (`ignore: {arg: helper(args)}`,
    rules.GUARD_HELPERS): the wrapper runs on the CPU when it does not hold."""


@dataclass(frozen=True)
class ComputedHelperCall(HelperCall):
    """Fills an output the DIOPI function does not compute (`computed:`, rules.COMPUTED_HELPERS)."""


@dataclass(frozen=True)
class DiopiArg:
    name: str
    ctype: str
    kind: str           # see ctypes_map.CParam.kind
    direction: str      # in | out | inout
    optional: bool
    doc: str
    dtypes: tuple[str, ...]  # empty for non-tensors
    count_name: str = ""     # tensor lists: name of the element-count parameter after it

    @property
    def is_tensor(self) -> bool:
        return self.kind in ("tensor", "tensor_list", "tensor_alloc")


@dataclass(frozen=True)
class ArgSource:
    """Where a DIOPI argument's value comes from in one ATen overload."""

    kind: str                # "arg" (an ATen argument), "return" (a functional result),
                             # "absent", "value" (a constant or a named argument helper)
    aten_name: str = ""      # for "arg"
    index: int = 0           # for "return"
    value: object = None     # for "value": a literal, a StrLiteral or an ArgHelperCall


@dataclass(frozen=True)
class AtenBinding:
    """One ATen overload routed to a DIOPI function."""

    schema: FunctionSchema
    variant: str                         # functional | inplace | out
    derived: bool                        # True when found through torchgen's grouping
    sources: tuple[tuple[str, ArgSource], ...]      # DIOPI arg name -> source, DIOPI order
    outputs: tuple[tuple[str, OutputRule], ...]     # DIOPI out arg -> shaping rule
    # The spec's `ignore:`: ATen args the DIOPI call does not take -> when the call may drop
    # them (a required literal, "unused", or a GuardHelperCall); otherwise it runs on the CPU
    ignored: tuple[tuple[str, object], ...]
    computed: tuple[tuple[str, ComputedHelperCall], ...] = ()  # out args filled by a helper
    base: Optional["AtenBinding"] = None            # derived siblings call the out= binding
    structured: bool = False     # part of a structured group: tensor lists are ITensorListRef
    output_mask: str = ""        # ATen bool[N] argument saying which returns to compute
    composite: bool = False      # CompositeImplicitAutograd op: needs an autograd-key kernel
    widened: bool = False        # `scalar_since`: its Scalar? arguments are int? on older torch

    @property
    def overload_name(self) -> str:
        return str(self.schema.name)

    @property
    def op_name(self) -> str:
        """`aten::add.out` style name, as the dispatcher and users see it."""
        o = self.schema.name.overload_name
        return f"aten::{self.schema.name.name}" + (f".{o}" if o else "")


@dataclass(frozen=True)
class ConformanceReference:
    """What a function's conformance cases compare with, when not the ATen overload it binds
    (the catalogue's `conformance.reference`; specs/README.md)."""

    runtime: str = ""        # runtime-only functions: convert | adam | adamw
    output: str = ""         # convert: the DIOPI tensor written ...
    input: str = ""          # ... from this DIOPI tensor (ATen's copy_ semantics)
    aten: str = ""           # an ATen overload with a CPU kernel standing for the bound one
    positional: tuple[str, ...] = ()            # that overload's positional argument names
    args: tuple[tuple[str, str], ...] = ()      # further DIOPI argument -> its argument
    fixed: tuple[tuple[str, object], ...] = ()  # its arguments the catalogue ignores -> value


@dataclass(frozen=True)
class ConformanceSpec:
    """Per-function facts the conformance case generator needs beyond the signature, the
    bound overload and its output rule (the catalogue's `conformance:`; specs/README.md).
    Values are stored as tuples (the model is immutable); lists in the YAML."""

    inputs: str = ""                              # value kind drawn for every input tensor
    arg_inputs: tuple[tuple[str, str], ...] = ()  # input tensor -> value kind
    values: tuple[tuple[str, object], ...] = ()   # argument -> test values (a Scalar's:
                                                  # (floating values, integral values))
    together: tuple[str, ...] = ()                # arguments whose values go case by case
    forward: str = ""                             # the function whose cases a backward's
                                                  # derive from (resolved at load)
    from_forward: tuple[tuple[str, tuple[str, str]], ...] = ()  # arg -> (what, forward arg)
    reference: Optional[ConformanceReference] = None
    min_ndim: int = 0                             # element-wise cases of fewer dims skipped

    def value_list(self, arg: str):
        """The `values` of `arg` (tuples thawed into lists), or None."""
        for name, values in self.values:
            if name == arg:
                return _thaw(values)
        return None


def _thaw(value):
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class DiopiFunction:
    name: str
    family: str
    doc: str
    args: tuple[DiopiArg, ...]
    bindings: tuple[AtenBinding, ...]
    runtime_use: str          # non-empty when called by the runtime rather than an ATen op
    line: int
    extension: str = ""       # non-empty (why) for a function DIOPI does not define
    conformance: ConformanceSpec = field(default_factory=ConformanceSpec)

    @property
    def outputs(self) -> tuple[DiopiArg, ...]:
        return tuple(a for a in self.args if a.direction != "in")


@dataclass(frozen=True)
class OpFamily:
    name: str
    doc: str
    dtypes: tuple[str, ...]
    tolerances: tuple[tuple[str, Tolerance], ...]
    autocompare: bool
    autocompare_reason: str
    functions: tuple[DiopiFunction, ...]
    line: int

    def tolerance(self, dtype: str) -> Optional[Tolerance]:
        return dict(self.tolerances).get(dtype)

    def scalar_sibling(self, fn: DiopiFunction) -> Optional[tuple[DiopiFunction, str]]:
        """The function that takes `fn`'s one tensor input by value, and that argument's name:
        `<fn>Scalar` in the same family with the same arguments except that one, a required
        input tensor in `fn` and a scalar there (diopiMul / diopiMulScalar: `other`). Wrappers
        pass Python numbers to it (runtime/include/opweave/by_value.h)."""
        sibling = next((g for g in self.functions if g.name == fn.name + "Scalar"), None)
        if sibling is None or len(sibling.args) != len(fn.args):
            return None
        differ = [(a, b) for a, b in zip(fn.args, sibling.args) if (a.name, a.kind) != (b.name, b.kind)]
        if len(differ) != 1:
            return None
        a, b = differ[0]
        if a.name != b.name or a.kind != "tensor" or a.direction != "in" or a.optional or \
                b.kind != "scalar" or b.optional:
            return None
        return sibling, a.name


@dataclass(frozen=True)
class ForeachOverload:
    """An ATen `_foreach_*` overload registered for PrivateUse1 with ATen's own CPU "slow"
    kernel: a loop over the per-tensor ATen op, which dispatches to the device's wrappers."""

    overload: str      # _foreach_add_.Scalar
    kernel: str        # foreach_tensor_add_scalar_kernel_slow_ (in at::native; validated only)
    line: int

    @property
    def op_name(self) -> str:
        return f"aten::{self.overload}"


@dataclass(frozen=True)
class Catalogue:
    source: str
    families: tuple[OpFamily, ...]
    torch_version: str
    foreach: tuple[ForeachOverload, ...] = ()
    # ATen overloads newer than the oldest supported torch (catalogue `aten_since`): absent
    # for every emitter, so the generated tree does not depend on the torch that generated it.
    aten_hidden: frozenset = frozenset()
    # What each vendor's kernels accept (vendors/*/kernel_support*.yaml; vendor_support.py).
    vendor_support: tuple = ()

    @property
    def functions(self) -> tuple[DiopiFunction, ...]:
        return tuple(f for fam in self.families for f in fam.functions)

    @property
    def bindings(self) -> tuple[tuple[OpFamily, DiopiFunction, AtenBinding], ...]:
        return tuple((fam, fn, b) for fam in self.families for fn in fam.functions
                     for b in fn.bindings)
