"""The conformance runner's view of each DIOPI function: the C call thunk that converts a
case's arguments into the function's parameters (generated/conformance/diopi_calls.inc), and
the signature record of the case files."""

from __future__ import annotations

from ..model import DiopiArg, DiopiFunction


def call_expr(a: DiopiArg, i: int) -> str:
    k = a.kind
    if k == "tensor":
        # the handle's C type, not the direction: DIOPI passes some read-only tensors
        # non-const (diopiAdam's grad)
        return f"a.const_tensor({i})" if a.ctype == "diopiConstTensorHandle_t" else f"a.tensor({i})"
    if k == "tensor_alloc":
        return f"a.allocated({i})"
    if k == "host_bool":
        return f"a.host_bool({i})"
    if k == "tensor_list":
        if a.direction == "in":
            return f"a.const_tensor_list({i}), a.list_size({i})"
        return f"a.tensor_list({i}), a.list_size({i})"
    simple = {"scalar": "scalar", "size": "size", "int": "int64", "int_opt": "int64_opt",
              "float": "float64", "float_opt": "float64_opt", "scalar_double": "float64",
              "bool": "boolean",
              "bool_opt": "boolean_opt", "str": "str", "dtype": "dtype",
              "dtype_opt": "dtype_opt", "generator": "generator", "size_ptr": "size_ptr"}
    if k in simple:
        return f"a.{simple[k]}({i})"
    if k == "enum":
        return f"static_cast<{a.ctype}>(a.int64({i}))"
    raise NotImplementedError(f"no runner conversion for DIOPI argument kind {k} ({a.name})")


def signature(fn: DiopiFunction) -> list[dict]:
    out = []
    for a in fn.args:
        entry = {"name": a.name, "kind": a.kind, "dir": a.direction}
        if a.kind == "enum":
            entry["ctype"] = a.ctype
        if a.optional:
            entry["optional"] = True
        out.append(entry)
    return out
