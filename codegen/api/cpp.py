"""C++ spellings shared by the emitters: DIOPI declarations, DIOPI enums, helper calls, and
ATen C++ text that reads the same whichever torch's torchgen produced it.

The generated tree is committed once and compiled against torch 1.13 and 2.x. torchgen's C++
spelling changed between them (`c10::optional` on 1.13, `::std::optional` on 2.x, where
`c10::optional` is an alias of `std::optional`), and `default_expr` gained a `symint`
parameter. Everything the emitters take from torchgen's C++ API goes through here.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from typing import Optional

from torchgen.api import cpp

from ..model import (ArgHelperCall, ComputedHelperCall, DiopiArg, GuardHelperCall, HelperCall,
                     OutputRule)

# ---------------------------------------------------------------- DIOPI declarations


def c_decl(arg: DiopiArg) -> str:
    """`type name`, with a tensor list expanded to pointer + count as DIOPI does."""
    if arg.kind == "tensor_list":
        return f"{arg.ctype} {arg.name}, int64_t {arg.count_name or arg.name + '_size'}"
    return f"{arg.ctype} {arg.name}"


# ---------------------------------------------------------------- DIOPI enums


@dataclass(frozen=True)
class DiopiEnum:
    """A DIOPI enum a catalogue `type:` may put where ATen passes a plain value."""

    replaces: tuple[str, ...]  # DIOPI kinds of the ATen argument it may stand for
    from_aten: str             # C++ making the enum of ATen value `{}` (the wrappers)
    to_aten: str               # C++ making the ATen value of enum `{}` (the reference vendor)


DIOPI_ENUMS = {
    "diopiReduction_t": DiopiEnum(("int",), "static_cast<diopiReduction_t>({})",
                                  "static_cast<int64_t>({})"),
    "diopiRoundMode_t": DiopiEnum(("str",), "opweave::to_round_mode({})",
                                  "aten_ref::round_mode({})"),
}


def enum_from_aten(arg: DiopiArg, expr: str) -> Optional[str]:
    """C++ passing ATen value `expr` as DIOPI enum argument `arg` (None: not a known enum)."""
    enum = DIOPI_ENUMS.get(arg.ctype)
    return enum.from_aten.format(expr) if enum else None


def enum_to_aten(arg: DiopiArg, expr: str) -> Optional[str]:
    """C++ giving the ATen value of DIOPI enum argument `arg` named `expr` (None: not known)."""
    enum = DIOPI_ENUMS.get(arg.ctype)
    return enum.to_aten.format(expr) if enum else None


# ---------------------------------------------------------------- helper calls

# The C++ namespace of each helper vocabulary (runtime/include/opweave/output_rules.h,
# arg_helpers.h).
HELPER_NAMESPACES = {
    OutputRule: "opweave::rules",
    ArgHelperCall: "opweave::args",
    GuardHelperCall: "opweave::guards",
    ComputedHelperCall: "opweave::helpers",
}


def helper_call(call: HelperCall, *leading: str) -> str:
    """The C++ call of a catalogue helper, `leading` arguments before the catalogue's."""
    args = ", ".join((*leading, *call.args))
    return f"{HELPER_NAMESPACES[type(call)]}::{call.name}({args})"


# ---------------------------------------------------------------- torch-version-neutral text

# torchgen 2.x spelling -> the spelling both versions compile (1.13's).
_SPELLINGS = (
    (re.compile(r"(?<![\w:])::std::optional\b"), "c10::optional"),
    (re.compile(r"(?<![\w:])std::optional\b"), "c10::optional"),
    (re.compile(r"(?<![\w:])::std::nullopt\b"), "c10::nullopt"),
    (re.compile(r"(?<![\w:])std::nullopt\b"), "c10::nullopt"),
)


def neutral(text: str) -> str:
    for pattern, spelling in _SPELLINGS:
        text = pattern.sub(spelling, text)
    return text


_DEFAULT_EXPR_HAS_SYMINT = "symint" in inspect.signature(cpp.default_expr).parameters


def default_expr(default: str, t) -> str:
    """C++ expression of an ATen argument's default, for the non-SymInt C++ signature."""
    if _DEFAULT_EXPR_HAS_SYMINT:
        return neutral(cpp.default_expr(default, t, symint=False))
    return neutral(cpp.default_expr(default, t))
