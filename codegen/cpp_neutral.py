"""C++ text that reads the same whichever torch's torchgen produced it.

The generated tree is committed once and compiled against torch 1.13 and 2.x. torchgen's C++
spelling changed between them (`c10::optional` on 1.13, `::std::optional` on 2.x, where
`c10::optional` is an alias of `std::optional`), and `default_expr` gained a `symint`
parameter. Everything the emitters take from torchgen's C++ API goes through here.
"""

from __future__ import annotations

import inspect
import re

from torchgen.api import cpp

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
