"""C declarations of DIOPI parameters (shared by the header and vendor-stub emitters)."""

from __future__ import annotations

from .model import DiopiArg


def c_decl(arg: DiopiArg) -> str:
    """`type name`, with a tensor list expanded to pointer + count as DIOPI does."""
    if arg.kind == "tensor_list":
        return f"{arg.ctype} {arg.name}, int64_t {arg.count_name or arg.name + '_size'}"
    return f"{arg.ctype} {arg.name}"
