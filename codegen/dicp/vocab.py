"""The closed vocabularies of a DICP vendor catalogue (specs/dicp/<vendor>.yaml).

Field names per mapping, name patterns, attribute types, inference rules, runtime views and
how DIOPI argument kinds bind to graph attributes: the loader (load.py, ops.py,
conversions.py) checks against these and nothing else.
"""

from __future__ import annotations

import re

TOP_KEYS = {"version": False, "vendor": True, "doc": True, "executable": True,
            "data_format": True, "fusions": False, "vendor_ops": True, "conversions": True}
OP_KEYS = {"name": True, "doc": False, "inputs": True, "outputs": False, "attrs": False,
           "infer": True, "diopi": False, "bind": False, "view": False, "ref": False,
           "kernel": False, "dtypes": False}
CONV_KEYS = {"aten": True, "doc": False, "when": False, "ignore": False, "map": False,
             "decomp": False, "custom": False, "uses": False, "unsupported": False}
MAP_KEYS = {"op": True, "inputs": False, "attrs": False, "outputs": False}
STEP_KEYS = {"as": False, "op": False, "inputs": False, "attrs": False, "aten": False, "args": False}
KINDS = ("map", "decomp", "custom", "unsupported")

OP_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*$")
IDENT = re.compile(r"^[a-z_][a-z0-9_]*$")
DOTTED = re.compile(r"^opweave(\.[A-Za-z_][A-Za-z0-9_]*)+$")

# Attribute types (a trailing '?' makes one optional: None allowed).
ATTR_TYPES = ("int", "ints", "float", "bool", "scalar", "str", "dtype", "reduction", "round_mode")
OPTIONAL_OK = ("int", "ints", "float", "scalar", "str", "dtype")

# Inference rules: name -> (min args, max args or None, doc).
RULES = {
    "same_as": (1, None, "shape and dtype of the port (one output per port named)"),
    "broadcast": (2, None, "broadcast shape of the ports, dtype promoted (scalar attributes too)"),
    "compare": (2, 2, "broadcast shape, bool dtype"),
    "reduce": (3, 3, "reduce(port, dims attr, keepdim attr): all dims when dims is empty"),
    "matmul": (2, 3, "matmul(a, b[, bias]): [.., n, k] x [.., k, m]; bias must broadcast to it"),
    "cast": (2, 2, "cast(port, dtype attr): shape of the port, the attribute's dtype"),
    "cat": (3, None, "cat(dim attr, port, port, ...): the ports joined along dim"),
    "aten": (1, None, "aten(overload, args...): run the ATen op on fake tensors"),
    "reference": (0, 0, "run the op's own CPU reference on fake tensors"),
}
NUMBER = re.compile(r"^-?\d+(\.\d*)?([eE][-+]?\d+)?$")

# Runtime views of executable vendors: kind -> (ATen reference, attributes in C order).
VIEWS = {
    "alias": ("alias", ()),
    "transpose": ("transpose.int", (("dim0", "int"), ("dim1", "int"))),
    "permute": ("permute", (("dims", "ints"),)),
    "reshape": ("reshape", (("size", "ints"),)),
    "expand": ("expand", (("size", "ints"),)),
    "unsqueeze": ("unsqueeze", (("dim", "int"),)),
    "squeeze": ("squeeze.dim", (("dim", "int"),)),
    "select": ("select.int", (("dim", "int"), ("index", "int"))),
    "slice": ("slice.Tensor", (("dim", "int"), ("start", "int?"), ("end", "int?"))),
}

# DIOPI parameter kind (codegen.ctypes_map) -> attribute type it binds to.
DIOPI_KIND_ATTR = {"scalar": "scalar", "int": "int", "int_opt": "int", "size": "ints",
                   "float": "float", "float_opt": "float", "scalar_double": "float",
                   "bool": "bool", "str": "str",
                   "dtype": "dtype", "dtype_opt": "dtype"}
DIOPI_ENUM_ATTR = {"diopiReduction_t": "reduction", "diopiRoundMode_t": "round_mode"}
# Graph-level kernels (`kernel:`): C type and argument kind of each attribute type, by optionality.
KERNEL_ATTR_C = {
    False: {"scalar": ("const diopiScalar_t*", "scalar"), "int": ("int64_t", "int"),
            "ints": ("diopiSize_t", "size"), "float": ("double", "float"),
            "bool": ("bool", "bool"), "str": ("const char*", "str"),
            "dtype": ("diopiDtype_t", "dtype")},
    True: {"scalar": ("const diopiScalar_t*", "scalar"), "int": ("const int64_t*", "int_opt"),
           "ints": ("diopiSize_t", "size"), "float": ("const double*", "float_opt"),
           "str": ("const char*", "str"), "dtype": ("const diopiDtype_t*", "dtype_opt")},
}

# Attribute type <- expression types it accepts ("none" only when the attribute is optional).
ACCEPTS = {
    "scalar": {"scalar", "int", "float", "bool"},
    "int": {"int"},
    "ints": {"ints"},
    "float": {"float", "int"},
    "bool": {"bool"},
    "str": {"str"},
    "dtype": {"dtype"},
    "reduction": {"int"},
    "round_mode": {"str"},
}

