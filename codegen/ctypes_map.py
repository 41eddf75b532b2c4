"""How an ATen argument type becomes a DIOPI C parameter (the DIOPI API layer).

Each rule names the C type, the argument kind the emitters switch on, and whether the
parameter is optional (may be NULL / empty). Overrides let a catalogue entry pick the DIOPI
enum DIOPI uses where ATen passes a plain int or string (reduction, rounding mode).
"""

from __future__ import annotations

from dataclasses import dataclass

from torchgen.model import Argument, BaseTy, BaseType, ListType, OptionalType, Type

from .api.cpp import DIOPI_ENUMS


@dataclass(frozen=True)
class CParam:
    ctype: str       # C type in the DIOPI prototype
    kind: str        # tensor | tensor_list | scalar | scalar_double | size | int | int_opt | bool | float | str | dtype | generator | enum
    optional: bool   # NULL / empty allowed


TENSOR_IN = CParam("diopiConstTensorHandle_t", "tensor", False)
TENSOR_OUT = CParam("diopiTensorHandle_t", "tensor", False)
# An output the kernel allocates (diopiRequireTensor): its shape depends on the data.
TENSOR_ALLOCATED = CParam("diopiTensorHandle_t*", "tensor_alloc", False)
# A functional overload's `bool` result (aten::equal -> diopiEqual): a host value the kernel
# writes before it returns (it waits for its inputs itself); the wrapper returns it.
HOST_BOOL_OUT = CParam("bool*", "host_bool", False)

_BASE = {
    BaseTy.Scalar: CParam("const diopiScalar_t*", "scalar", False),
    BaseTy.int: CParam("int64_t", "int", False),
    BaseTy.SymInt: CParam("int64_t", "int", False),
    BaseTy.bool: CParam("bool", "bool", False),
    BaseTy.float: CParam("double", "float", False),
    BaseTy.str: CParam("const char*", "str", False),
    BaseTy.ScalarType: CParam("diopiDtype_t", "dtype", False),
}

_OPTIONAL_BASE = {
    BaseTy.Tensor: CParam("diopiConstTensorHandle_t", "tensor", True),
    BaseTy.Scalar: CParam("const diopiScalar_t*", "scalar", True),
    BaseTy.int: CParam("const int64_t*", "int_opt", True),
    BaseTy.SymInt: CParam("const int64_t*", "int_opt", True),
    BaseTy.float: CParam("const double*", "float_opt", True),
    BaseTy.bool: CParam("const bool*", "bool_opt", True),
    BaseTy.str: CParam("const char*", "str", True),
    BaseTy.ScalarType: CParam("const diopiDtype_t*", "dtype_opt", True),
    BaseTy.Generator: CParam("diopiGeneratorHandle_t", "generator", True),
}

# C types a runtime-only function (no ATen overload to derive from) may declare directly.
RUNTIME_ARG_TYPES = {
    "diopiConstTensorHandle_t": TENSOR_IN,
    "diopiTensorHandle_t": TENSOR_OUT,
    "const diopiScalar_t*": CParam("const diopiScalar_t*", "scalar", False),
    "int64_t": CParam("int64_t", "int", False),
    "bool": CParam("bool", "bool", False),
    "double": CParam("double", "float", False),
    "float": CParam("float", "float", False),   # DIOPI's optimizer hyper-parameters (diopiAdam)
    "diopiDtype_t": CParam("diopiDtype_t", "dtype", False),
}

# C types of arguments DIOPI takes that no ATen argument carries: a catalogue `value` fills
# them with a literal (bool, int64_t, double; null for a pointer; a word for a const char*:
# diopiPad's mode) or a named argument helper (diopiSize_t*:
# runtime/include/opweave/arg_helpers.h).
VALUE_ARG_TYPES = {
    "bool": CParam("bool", "bool", False),
    "int64_t": CParam("int64_t", "int", False),
    "double": CParam("double", "float", False),
    "diopiSize_t*": CParam("diopiSize_t*", "size_ptr", True),
    "const char*": CParam("const char*", "str", True),
    "const int64_t*": CParam("const int64_t*", "int_opt", True),
    "const double*": CParam("const double*", "float_opt", True),   # diopiPad's fill value
    # null: the device's default generator (an ATen overload without a Generator argument)
    "diopiGeneratorHandle_t": CParam("diopiGeneratorHandle_t", "generator", True),
}

# DIOPI enums a catalogue entry may request instead of the ATen type: name -> (aten kinds).
ENUM_OVERRIDES = {name: enum.replaces for name, enum in DIOPI_ENUMS.items()}


class UnsupportedType(Exception):
    pass


def _is_int_list(t: Type) -> bool:
    return isinstance(t, ListType) and isinstance(t.elem, BaseType) and t.elem.name in (
        BaseTy.int, BaseTy.SymInt)


def c_param(arg: Argument, *, written: bool) -> CParam:
    """Map one ATen argument; `written` is True for out= and in-place (mutated) tensors."""
    t = arg.type
    if isinstance(t, BaseType):
        if t.name == BaseTy.Tensor:
            return TENSOR_OUT if written else TENSOR_IN
        if t.name in _BASE:
            return _BASE[t.name]
    if isinstance(t, OptionalType):
        inner = t.elem
        if isinstance(inner, BaseType) and inner.name in _OPTIONAL_BASE:
            p = _OPTIONAL_BASE[inner.name]
            if p.kind == "tensor" and written:
                return CParam("diopiTensorHandle_t", "tensor", True)
            return p
        if _is_int_list(inner):
            return CParam("diopiSize_t", "size", True)
    if _is_int_list(t):
        return CParam("diopiSize_t", "size", False)
    if isinstance(t, ListType) and isinstance(t.elem, BaseType) and t.elem.name == BaseTy.Tensor:
        ctype = "diopiTensorHandle_t*" if written else "diopiConstTensorHandle_t*"
        return CParam(ctype, "tensor_list", False)
    if (isinstance(t, ListType) and isinstance(t.elem, OptionalType)
            and isinstance(t.elem.elem, BaseType) and t.elem.elem.name == BaseTy.Tensor
            and not written):
        # `Tensor?[]` (advanced indexing): an array whose absent entries are NULL
        return CParam("diopiConstTensorHandle_t*", "tensor_list", True)
    raise UnsupportedType(f"ATen type '{t}' of argument '{arg.name}' has no DIOPI mapping")


def enum_override(base: CParam, enum_name: str) -> CParam:
    if enum_name == "const int64_t*" and base.kind == "int":
        # DIOPI's optional dim (NULL: every dim) fed from an ATen int that is always given
        return CParam("const int64_t*", "int_opt", True)
    if enum_name == "double" and base.kind == "scalar" and not base.optional:
        # DIOPI's double where ATen has a Scalar (diopiBaddbmm's beta and alpha)
        return CParam("double", "scalar_double", False)
    allowed = ENUM_OVERRIDES.get(enum_name)
    if allowed is None:
        raise UnsupportedType(f"unknown DIOPI enum '{enum_name}' (known: {', '.join(ENUM_OVERRIDES)})")
    if base.kind not in allowed:
        raise UnsupportedType(f"'{enum_name}' cannot replace an ATen {base.kind} argument")
    return CParam(enum_name, "enum", False)  # "none" is the enum's first value
