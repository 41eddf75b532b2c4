"""C source of one compiled segment: the vendor ops of a graph, in order, as DIOPI calls.

The source includes only <diopi/functions.h> and ow_dicp_abi.h (no ATen), so the system C
compiler builds it in a fraction of a second. Intermediates live in one scratch arena per run:
buffers are assigned greedily by liveness (a buffer whose last reader ran is reused by a
later node's output, never by the output of the node that reads it last), and the arena
size is computed at run time from the symbolic batch size. Segment outputs (they escape
the run) get fresh tensors.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass

import torch
import torch.fx

from .table import is_vendor_op

DIOPI_DTYPE = {
    torch.int8: "diopi_dtype_int8", torch.uint8: "diopi_dtype_uint8",
    torch.int16: "diopi_dtype_int16", torch.int32: "diopi_dtype_int32",
    torch.int64: "diopi_dtype_int64", torch.float16: "diopi_dtype_float16",
    torch.float32: "diopi_dtype_float32", torch.float64: "diopi_dtype_float64",
    torch.bool: "diopi_dtype_bool", torch.bfloat16: "diopi_dtype_bfloat16",
}
VIEW_KIND = {"alias": "OW_VIEW_ALIAS", "transpose": "OW_VIEW_TRANSPOSE",
             "permute": "OW_VIEW_PERMUTE", "reshape": "OW_VIEW_RESHAPE",
             "expand": "OW_VIEW_EXPAND", "unsqueeze": "OW_VIEW_UNSQUEEZE",
             "squeeze": "OW_VIEW_SQUEEZE", "select": "OW_VIEW_SELECT", "slice": "OW_VIEW_SLICE"}
ROUND_MODE = {None: "RoundModeNone", "trunc": "RoundModeTrunc", "floor": "RoundModeFloor"}
ALIGN = 64


class CodegenError(RuntimeError):
    pass


class Sym:
    """a * s0 + c: a dimension (or an integer attribute) affine in the symbolic batch size."""

    __slots__ = ("a", "c")

    def __init__(self, a: int, c: int):
        self.a, self.c = int(a), int(c)

    def eval(self, s0: int) -> int:
        return self.a * s0 + self.c

    def c_expr(self) -> str:
        if self.a == 0:
            return f"INT64_C({self.c})"
        term = "s0" if self.a == 1 else f"{self.a} * s0"
        return f"({term} + {self.c})" if self.c else f"({term})"

    def __eq__(self, other):
        return isinstance(other, Sym) and (self.a, self.c) == (other.a, other.c)

    def __hash__(self):
        return hash((self.a, self.c))

    def __repr__(self) -> str:
        return f"{self.a}*s0{self.c:+d}" if self.c else f"{self.a}*s0"


def evaluate(value, s0):
    """Value with every Sym replaced by its integer at s0 (lists/tuples recursively)."""
    if isinstance(value, Sym):
        return value.eval(s0)
    if isinstance(value, list):
        return [evaluate(v, s0) for v in value]
    if isinstance(value, tuple):
        return tuple(evaluate(v, s0) for v in value)
    return value


def c_int(v) -> str:
    if isinstance(v, Sym):
        return v.c_expr()
    if isinstance(v, bool):
        return "1" if v else "0"
    if not isinstance(v, int):
        raise CodegenError(f"expected an integer, got {v!r}")
    if v == -(1 << 63):
        return "INT64_MIN"
    return f"INT64_C({v})"


def c_float(v) -> str:
    v = float(v)
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INFINITY" if v > 0 else "(-INFINITY)"
    return v.hex()


def c_string(s: str) -> str:
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            out.append("\\x%02x" % ord(ch))
    return '"' + "".join(out) + '"'


@dataclass
class Segment:
    nodes: list          # vendor nodes (and getitems of them), graph order
    inputs: list         # external nodes read, in first-use order
    outputs: list        # nodes read after the segment (or returned), graph order
    graph_id: int = -1
    source: str = ""
    disk_hit: bool = False


def _spec(node) -> object:
    return node.meta["spec"]


class _Emitter:
    def __init__(self, seg: Segment, name: str):
        self.seg = seg
        self.name = name
        self.lines: list[str] = []
        self.decls: list[str] = []
        self.kernels: list[str] = []
        self.prototypes: dict = {}   # graph kernels (not in functions.h) -> C declaration
        self.node_names: list[str] = []
        self.var: dict = {}       # (node, output index) -> C variable
        self.counter = 0

    def tmp(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def kernel(self, fn: str) -> int:
        if fn not in self.kernels:
            self.kernels.append(fn)
        return self.kernels.index(fn)

    def shape_array(self, shape) -> tuple[str, int]:
        if not shape:
            return "ow_none", 0
        arr = self.tmp("sh")
        self.lines.append(f"  const int64_t {arr}[{len(shape)}] = {{{', '.join(c_int(s) for s in shape)}}};")
        return arr, len(shape)

    def nbytes(self, spec) -> str:
        item = torch.empty((), dtype=spec.dtype).element_size()
        parts = [c_int(s) for s in spec.shape] + [f"INT64_C({item})"]
        return " * ".join(parts)


def generate(seg: Segment, label: str) -> tuple[str, list]:
    """C source of `seg` and the DIOPI kernels it calls."""
    e = _Emitter(seg, label)
    nodes = seg.nodes
    index = {n: i for i, n in enumerate(nodes)}
    inputs = {n: i for i, n in enumerate(seg.inputs)}
    out_set = set(seg.outputs)

    # alias roots: views (and getitem of a single buffer) share their base's memory
    root = {}
    for n in nodes:
        if is_vendor_op(n.target) and n.target.view:
            src = n.args[0]
            root[(n, 0)] = root.get((src, 0), (src, 0)) if isinstance(src, torch.fx.Node) else (n, 0)
        elif n.target is operator.getitem:
            root[(n, 0)] = root.get((n.args[0], n.args[1]), (n.args[0], n.args[1]))
        else:
            for k in range(len(_spec(n))):
                root[(n, k)] = (n, k)

    def key(x):  # graph value -> (node, output) key
        return root.get((x, 0), (x, 0))

    escaping = {key(o) for o in out_set}
    last_use: dict = {}
    for n in nodes:
        for i in n.all_input_nodes:
            r = key(i)
            last_use[r] = max(last_use.get(r, -1), index[n])
    for n in nodes:
        for k in range(len(_spec(n))):
            r = root[(n, k)]
            last_use.setdefault(r, index.get(r[0], -1))

    # buffer plan: slot -> (tenant keys); chosen at sample sizes, sized at run time
    slots: list[list] = []
    slot_free_after: list[int] = []
    placement: dict = {}
    sample = {}

    def sample_bytes(spec) -> int:
        n = 1
        for s in evaluate(spec.shape, 8):
            n *= int(s)
        return n * torch.empty((), dtype=spec.dtype).element_size()

    for n in nodes:
        if not is_vendor_op(n.target) or n.target.view:
            continue
        i = index[n]
        for k, spec in enumerate(_spec(n)):
            r = (n, k)
            if r in escaping:
                continue
            size = sample_bytes(spec)
            sample[r] = size
            free = [s for s in range(len(slots)) if slot_free_after[s] < i]
            best = None
            for s in free:  # smallest slot that fits, else the largest free one
                cap = max(sample[t] for t in slots[s])
                if cap >= size and (best is None or cap < max(sample[t] for t in slots[best])):
                    best = s
            if best is None and free:
                best = max(free, key=lambda s: max(sample[t] for t in slots[s]))
            if best is None:
                slots.append([])
                slot_free_after.append(-1)
                best = len(slots) - 1
            slots[best].append(r)
            slot_free_after[best] = max(last_use.get(r, i), i)
            placement[r] = best

    # ---- emit
    lines = e.lines
    lines.append("  void* S = rt->self;")
    lines.append("  diopiContextHandle_t ctx = rt->ctx;")
    lines.append("  void* const* K = rt->kernels;")
    lines.append("  const int64_t s0 = sym[0];")
    lines.append("  (void)s0; (void)ctx; (void)K;")
    lines.append("  diopiError_t st;")
    lines.append("  (void)st;")
    if slots:
        for s, tenants in enumerate(slots):
            sizes = [e.nbytes(_spec(t[0])[t[1]]) for t in tenants]
            expr = sizes[0]
            for x in sizes[1:]:
                expr = f"ow_max({expr}, {x})"
            lines.append(f"  const int64_t slot{s} = ow_align({expr});")
        lines.append("  int64_t off[%d];" % len(slots))
        lines.append("  off[0] = 0;")
        for s in range(1, len(slots)):
            lines.append(f"  off[{s}] = off[{s - 1}] + slot{s - 1};")
        lines.append(f"  if (rt->arena(S, off[{len(slots) - 1}] + slot{len(slots) - 1})) "
                     "return rt->fail(S, -1, -1);")
    for n, i in inputs.items():
        v = f"in{i}"
        lines.append(f"  diopiTensorHandle_t {v} = inputs[{i}];")
        e.var[(n, 0)] = v

    def handle(x) -> str:
        if x is None:
            return "NULL"
        if isinstance(x, torch.fx.Node):
            return e.var[(x, 0)]
        raise CodegenError(f"expected a tensor input, got {x!r}")

    for n in nodes:
        i = index[n]
        if n.target is operator.getitem:
            e.var[(n, 0)] = e.var[(n.args[0], n.args[1])]
            e.node_names.append(f"{n.name}: getitem")
            continue
        op = n.target
        ports, attrs = op.split(n.args)
        desc = f"{n.name}: {op.vendor}.{op.__name__}" + (
            f" ({op.diopi.function})" if op.diopi else f" (view {op.view})")
        e.node_names.append(desc)
        lines.append(f"  /* {desc} */")
        if op.view:
            src = handle(ports[op.inputs[0].name])
            v = f"t{i}"
            if op.view == "alias" and n not in out_set:
                lines.append(f"  diopiTensorHandle_t {v} = {src};")
            else:
                params = []
                for a in op.attrs:
                    val = attrs[a.name]
                    if isinstance(val, (list, tuple)):
                        params.extend(val)
                    else:
                        params.append(-(1 << 63) if val is None else val)
                arr = "ow_none"
                if params:
                    arr = e.tmp("vp")
                    lines.append(f"  const int64_t {arr}[{len(params)}] = "
                                 f"{{{', '.join(c_int(p) for p in params)}}};")
                lines.append(f"  diopiTensorHandle_t {v} = rt->view(S, {src}, "
                             f"{VIEW_KIND[op.view]}, {len(params)}, {arr});")
                lines.append(f"  if (!{v}) return rt->fail(S, {i}, -1);")
            e.var[(n, 0)] = v
            continue
        # outputs
        out_vars = {}
        for k, (oname, spec) in enumerate(zip(op.outputs, _spec(n))):
            v = f"t{i}" if len(op.outputs) == 1 else f"t{i}_{k}"
            arr, nd = e.shape_array(spec.shape)
            dt = DIOPI_DTYPE.get(spec.dtype)
            if dt is None:
                raise CodegenError(f"{desc}: dtype {spec.dtype} has no DIOPI equivalent")
            if (n, k) in escaping:
                lines.append(f"  diopiTensorHandle_t {v} = rt->empty(S, {nd}, {arr}, {dt});")
            else:
                lines.append(f"  diopiTensorHandle_t {v} = rt->scratch(S, off[{placement[(n, k)]}], "
                             f"{nd}, {arr}, {dt});")
            lines.append(f"  if (!{v}) return rt->fail(S, {i}, -1);")
            e.var[(n, k)] = v
            out_vars[oname] = v
        call_args = ["ctx"]
        for darg, role, name, ctype, kind in op.diopi.args:
            if role == "output":
                call_args.append(out_vars[name])
            elif role == "port":
                call_args.append(handle(ports[name]))
            else:
                call_args.append(_attr_arg(e, attrs[name], ctype, kind, desc, darg))
        k = e.kernel(op.diopi.function)
        if op.diopi.graph_kernel and op.diopi.function not in e.prototypes:
            # a vendor kernel outside functions.h: declared here, resolved by the helper
            params = ", ".join(["diopiContextHandle_t"] + [a[3] for a in op.diopi.args])
            e.prototypes[op.diopi.function] = f"diopiError_t {op.diopi.function}({params});"
        lines.append(f"  st = ((__typeof__(&{op.diopi.function}))K[{k}])({', '.join(call_args)});")
        lines.append(f"  if (st != diopiSuccess) return rt->fail(S, {i}, (int)st);")
    for j, o in enumerate(seg.outputs):
        lines.append(f"  rt->output(S, {j}, {e.var[(o, 0)]});")
    lines.append("  return 0;")

    body = "\n".join(lines)
    kernels = ", ".join(c_string(k) for k in e.kernels)
    prototypes = "".join(f"{p}\n" for p in e.prototypes.values())
    names = ",\n  ".join(c_string(x) for x in e.node_names)
    source = f"""/* opweave.dicp compiled segment: {c_comment(label)}
 * {len(nodes)} nodes, {len(seg.inputs)} inputs, {len(seg.outputs)} outputs, {len(slots)} scratch buffers. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <diopi/functions.h>
#include "ow_dicp_abi.h"
{prototypes}
static const int64_t ow_none[1] = {{0}};
static inline int64_t ow_max(int64_t a, int64_t b) {{ return a > b ? a : b; }}
static inline int64_t ow_align(int64_t n) {{ return (n + {ALIGN - 1}) & ~(int64_t){ALIGN - 1}; }}

const int ow_dicp_abi_version = OW_DICP_ABI_VERSION;
const int64_t ow_dicp_num_inputs = {len(seg.inputs)};
const int64_t ow_dicp_num_outputs = {len(seg.outputs)};
const char* const ow_dicp_kernels[] = {{{kernels + ', ' if kernels else ''}NULL}};
const char* const ow_dicp_nodes[] = {{
  {names + ',' if names else ''}
  NULL}};

int ow_dicp_run(const ow_dicp_rt* rt, diopiTensorHandle_t const* inputs, const int64_t* sym) {{
  (void)ow_none; (void)inputs;
{body}
}}
"""
    return source, list(e.kernels)


def c_comment(s: str) -> str:
    return s.replace("*/", "* /").replace("/*", "/ *")


def _attr_arg(e: _Emitter, value, ctype: str, kind: str, desc: str, darg: str) -> str:
    lines = e.lines
    if kind == "scalar":
        if value is None:
            return "NULL"
        v = e.tmp("sc")
        lines.append(f"  diopiScalar_t {v};")
        if isinstance(value, float):
            lines.append(f"  {v}.stype = diopi_dtype_float64; {v}.fval = {c_float(value)};")
        elif isinstance(value, (bool, int, Sym)):
            lines.append(f"  {v}.stype = diopi_dtype_int64; {v}.ival = {c_int(value)};")
        else:
            raise CodegenError(f"{desc}: scalar '{darg}' = {value!r}")
        return f"&{v}"
    if kind == "int":
        return c_int(value)
    if kind == "int_opt":
        if value is None:
            return "NULL"
        v = e.tmp("io")
        lines.append(f"  const int64_t {v} = {c_int(value)};")
        return f"&{v}"
    if kind == "size":
        if value is None:
            return "(diopiSize_t){NULL, 0}"
        if len(value) == 0:
            return "(diopiSize_t){ow_none, 0}"
        v = e.tmp("sz")
        lines.append(f"  const int64_t {v}[{len(value)}] = {{{', '.join(c_int(x) for x in value)}}};")
        return f"(diopiSize_t){{{v}, {len(value)}}}"
    if kind == "float":
        return c_float(value)
    if kind == "float_opt":
        if value is None:
            return "NULL"
        v = e.tmp("fo")
        lines.append(f"  const double {v} = {c_float(value)};")
        return f"&{v}"
    if kind == "bool":
        return "true" if value else "false"
    if kind == "str":
        return "NULL" if value is None else c_string(str(value))
    if kind == "dtype":
        return DIOPI_DTYPE[value]
    if kind == "dtype_opt":
        if value is None:
            return "NULL"
        v = e.tmp("dt")
        lines.append(f"  const diopiDtype_t {v} = {DIOPI_DTYPE[value]};")
        return f"&{v}"
    if kind == "enum":
        if ctype == "diopiRoundMode_t":
            return ROUND_MODE[value]
        return f"({ctype}){c_int(int(value))}"
    raise CodegenError(f"{desc}: argument '{darg}' of kind {kind} cannot be generated")
