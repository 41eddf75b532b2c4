"""Facts about ATen arguments the case generator reads: schema defaults, argument types."""

from __future__ import annotations

from typing import Any, Optional

from torchgen.model import Argument, BaseTy, BaseType, OptionalType

from ..dtypes import BY_NAME as DTYPE_INFO


def parse_default(text: Optional[str]) -> tuple[bool, Any]:
    """(has_default, python value) of a schema default literal."""
    if text is None:
        return False, None
    if text == "None":
        return True, None
    if text in ("True", "False"):
        return True, text == "True"
    if text in ("Mean", "Sum"):   # at::Reduction defaults (int reduction=Mean)
        return True, 1 if text == "Mean" else 2
    if text.startswith(("'", '"')):
        return True, text[1:-1]
    if text.startswith("["):
        inner = text[1:-1].strip()
        return True, [int(x) for x in inner.split(",")] if inner else []
    try:
        return True, int(text)
    except ValueError:
        return True, float(text)


def _base(t):
    return t.elem if isinstance(t, OptionalType) else t


def is_scalar_type(a: Argument) -> bool:
    t = _base(a.type)
    return isinstance(t, BaseType) and t.name == BaseTy.ScalarType


def is_tensor_type(a: Argument) -> bool:
    t = _base(a.type)
    return isinstance(t, BaseType) and t.name == BaseTy.Tensor


def dtype_class(dtype: str) -> str:
    if dtype == "bool":
        return "bool"
    return "float" if DTYPE_INFO[dtype].is_floating else "int"
