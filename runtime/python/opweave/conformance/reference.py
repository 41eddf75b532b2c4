"""Inputs and reference outputs of a case: the mapped ATen overload, run on CPU.

Inputs are drawn from a generator seeded by the case id (values in float64/int64, then cast,
so a case's data does not depend on which other cases exist). The reference calls exactly
the overload the catalogue binds the DIOPI function to (`reference.overload`), through
torch.ops.aten, with out= tensors shaped by its functional sibling (`reference.probe`), the
way the generated wrapper shapes them.
"""

from __future__ import annotations

import math

import torch

DTYPES = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
    "int32": torch.int32, "int64": torch.int64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
}


class ReferenceError_(Exception):
    """The reference overload rejected the case (reported as a skip, never as a pass)."""


def make_input(spec: dict, gen: torch.Generator):
    """A tensor (or, for {"list": [...]}, a list of tensors) as the case describes it."""
    if "list" in spec:   # a None item: an absent entry of a Tensor?[] (advanced indexing)
        return [make_input(s, gen) if s is not None else None for s in spec["list"]]
    shape = spec["shape"]
    dtype = DTYPES[spec["dtype"]]
    values = spec.get("values", "normal")
    if dtype is torch.bool or values == "bool":
        return torch.randint(0, 2, shape, generator=gen).to(dtype)
    if values.startswith("distinct"):
        # each slice along the dim is a permutation of -L/2 .. L/2-1: exact in every dtype
        # for L <= 256, so the position of an extreme is never ambiguous
        if not shape:
            return torch.tensor(0, dtype=dtype)
        dim = int(values[len("distinct"):])
        length = shape[dim]
        order = torch.rand(shape, generator=gen, dtype=torch.float64).argsort(dim=dim)
        return (order - length // 2).to(dtype)
    if values.startswith("unique_signed_index"):   # distinct positions, some counted from the end
        n = int(values[len("unique_signed_index"):])
        k = math.prod(shape)
        picked = torch.randperm(n, generator=gen)[:k]
        picked = picked - n * torch.randint(0, 2, (k,), generator=gen)
        return picked.reshape(shape).to(dtype)
    if values.startswith("unique_index"):   # distinct positions: a put without accumulate
        n = int(values[len("unique_index"):])
        return torch.randperm(n, generator=gen)[:math.prod(shape)].reshape(shape).to(dtype)
    if values.startswith("pivots"):   # LAPACK's 1-based row interchanges of an N-row LU
        n = int(values[len("pivots"):])
        return torch.randint(1, n + 1, shape, generator=gen).to(dtype)
    if values.startswith("index"):
        n = max(int(values[len("index"):]), 1)
        return torch.randint(0, n, shape, generator=gen).to(dtype)
    if values == "unit":   # probabilities
        return torch.rand(shape, generator=gen, dtype=torch.float64).to(dtype)
    unsigned = dtype is torch.uint8
    if values == "small_int":
        lo, hi = (0, 7) if unsigned else (-3, 4)
        return torch.randint(lo, hi, shape, generator=gen).to(dtype)
    if dtype.is_floating_point:
        if values == "positive":
            x = torch.rand(shape, generator=gen, dtype=torch.float64) * 3.9 + 0.1
        else:
            x = torch.randn(shape, generator=gen, dtype=torch.float64)
        return x.to(dtype)
    if values == "positive":
        return torch.randint(1, 10, shape, generator=gen).to(dtype)
    lo, hi = (0, 20) if unsigned else (-9, 10)
    return torch.randint(lo, hi, shape, generator=gen).to(dtype)


def _op(overload: str):
    name, _, over = overload.partition(".")
    packet = getattr(torch.ops.aten, name)
    return getattr(packet, over or "default")


def _aten_value(value, sig: dict | None):
    """A case attribute (stored as ATen would take it) for the ATen call."""
    if sig is not None and sig["kind"] in ("dtype", "dtype_opt") and isinstance(value, str):
        return DTYPES[value]
    return value


def _aten_extra(value):
    if isinstance(value, str) and value in DTYPES:
        return DTYPES[value]
    return value


def run(fn, case_spec: dict, inputs: dict[str, torch.Tensor | None],
        forward_aten: dict | None = None) -> tuple[dict[str, torch.Tensor], dict]:
    """(DIOPI output name -> expected tensor, ATen argument name -> value after the call)."""
    # a case leaving an optional argument out may name the overload that takes such a call
    ref = case_spec.get("reference") or fn.reference
    if ref.get("runtime") in ("adam", "adamw"):
        return _optimizer(ref["runtime"], case_spec["attrs"], inputs), {}
    if ref.get("runtime") == "convert":
        src = inputs[ref["input"]]
        dtype = DTYPES[case_spec["out_dtypes"][ref["output"]]]
        dest = torch.empty(src.shape, dtype=dtype)
        dest.copy_(src)
        return {ref["output"]: dest}, {}
    sigs = {s["name"]: s for s in fn.signature}
    values: dict = {}
    inout = {}
    for diopi_name, aten_name in ref["args"].items():
        sig = sigs[diopi_name]
        if sig["kind"] in ("tensor", "tensor_list"):
            if sig["dir"] == "out":
                continue
            t = inputs.get(diopi_name)
            if t is not None and sig["dir"] == "inout":
                t = t.clone()
                inout[diopi_name] = t
            values[aten_name] = t
        else:
            values[aten_name] = _aten_value(case_spec["attrs"][diopi_name], sig)
    for name, value in (case_spec.get("aten") or {}).items():
        values[name] = _aten_extra(value)
    for name, value in (ref.get("fixed") or {}).items():
        if value == "unused":
            if forward_aten is None or name not in forward_aten:
                raise ReferenceError_(f"no value for ATen argument '{name}' (needs a forward case)")
            values[name] = forward_aten[name]
        else:
            values[name] = value
    # An in-place overload DIOPI runs out of place (masked_scatter_: self is DIOPI's input and
    # out): ATen works on a copy of the input, which is then the expected out.
    aliased_outs = {}
    if ref["variant"] == "inplace":
        for diopi_name, aten_name in ref["args"].items():
            if sigs[diopi_name]["dir"] == "out" and isinstance(values.get(aten_name), torch.Tensor):
                values[aten_name] = values[aten_name].clone()
                aliased_outs[diopi_name] = aten_name
    positional = ref["positional"]
    outs = ref.get("outs") or []
    op = _op(ref["overload"])
    try:
        if outs:
            if ref.get("probe"):
                probe_kw = {k: v for k, v in values.items() if k not in positional}
                probe = _op(ref["probe"])(*[values[n] for n in positional], **probe_kw)
                probe = probe if isinstance(probe, (tuple, list)) else (probe,)
                for name, p in zip(outs, probe):
                    values[name] = torch.empty(p.shape, dtype=p.dtype)
            else:
                dt = DTYPES[case_spec["dtype"]]
                for name in outs:
                    values[name] = torch.empty(0, dtype=dt)
        kwargs = {k: v for k, v in values.items() if k not in positional}
        result = op(*[values[n] for n in positional], **kwargs)
    except (RuntimeError, TypeError, ValueError, IndexError) as e:
        raise ReferenceError_(str(e).strip().splitlines()[0]) from None
    expected = {}
    if ref["variant"] == "out":
        for diopi_name, aten_name in ref["args"].items():
            if aten_name in outs:
                expected[diopi_name] = values[aten_name]
    elif ref["variant"] == "inplace":
        expected.update(inout)
        expected.update({d: values[a] for d, a in aliased_outs.items()})
    else:
        results = result if isinstance(result, (tuple, list)) else (result,)
        for name, r in zip(ref.get("returns") or [], results):
            # a host result (equal's bool) compares as a 0-dim bool tensor
            expected[name] = torch.tensor(r) if isinstance(r, bool) else r
        # tensors DIOPI updates in place though the ATen schema does not say so (batch norm's
        # running statistics): ATen updated the clones passed to it
        expected.update(inout)
    # an output the reference did not compute (output_mask) is not checked: the runner passes
    # a null handle for it
    expected = {k: v for k, v in expected.items() if isinstance(v, torch.Tensor)}
    return expected, values


def _optimizer(kind: str, attrs: dict, inputs: dict) -> dict[str, torch.Tensor]:
    """torch.optim's single-tensor Adam / AdamW update of one parameter (diopiAdam's `step` is
    the count after the increment torch makes itself)."""
    from torch.optim.adam import adam
    from torch.optim.adamw import adamw

    t = {name: inputs[name].clone() for name in
         ("input", "grad", "exp_avg", "exp_avg_sq", "max_exp_avg_sq")}
    amsgrad = bool(attrs["amsgrad"])
    update = adam if kind == "adam" else adamw
    try:
        update([t["input"]], [t["grad"]], [t["exp_avg"]], [t["exp_avg_sq"]],
               [t["max_exp_avg_sq"]] if amsgrad else [], [torch.tensor(float(attrs["step"] - 1))],
               foreach=False, amsgrad=amsgrad, beta1=attrs["beta1"], beta2=attrs["beta2"],
               lr=attrs["lr"], weight_decay=attrs["weight_decay"], eps=attrs["eps"],
               maximize=False)
    except (RuntimeError, TypeError, ValueError) as e:
        raise ReferenceError_(str(e).strip().splitlines()[0]) from None
    return {name: t[name] for name in ("input", "exp_avg", "exp_avg_sq", "max_exp_avg_sq")}


def _up(value, to: torch.dtype = torch.float32, source=(torch.float16,)):
    """Case data with tensors (and dtype names) of the `source` dtypes in `to`."""
    if isinstance(value, torch.Tensor) and value.dtype in source:
        return value.to(to)
    if isinstance(value, list):
        return [_up(v, to, source) for v in value]
    if isinstance(value, dict):
        return {k: _up(v, to, source) for k, v in value.items()}
    if isinstance(value, str) and DTYPES.get(value) in source:
        return _DTYPE_NAMES[to]
    return value


_DTYPE_NAMES = {v: k for k, v in DTYPES.items()}
_FLOATING = tuple(d for d in DTYPES.values() if d.is_floating_point and d is not torch.float64)


def run_float64(fn, case_spec: dict, inputs) -> dict[str, torch.Tensor]:
    """The float64 referee's reference (opweave/referee.py): the case's ATen overload with every
    floating input, dtype attribute and output in float64. Raises ReferenceError_ where that
    cannot be made (no float64 kernel; a backward case needing its forward's values)."""
    spec = {**case_spec, "dtype": _up(case_spec["dtype"], torch.float64, _FLOATING),
            "attrs": _up(case_spec.get("attrs") or {}, torch.float64, _FLOATING),
            "aten": _up(case_spec.get("aten") or {}, torch.float64, _FLOATING)}
    if "out_dtypes" in case_spec:
        spec["out_dtypes"] = _up(case_spec["out_dtypes"], torch.float64, _FLOATING)
    expected, _ = run(fn, spec, _up(inputs, torch.float64, _FLOATING))
    return expected


def _down(value):
    if isinstance(value, torch.Tensor) and value.dtype is torch.float32:
        return value.half()
    if isinstance(value, list):
        return [_down(v) for v in value]
    if isinstance(value, dict):
        return {k: _down(v) for k, v in value.items()}
    return value


def run_upcast(fn, case_spec: dict, inputs, forward_aten=None):
    """run(), computing float16 in float32 and rounding the result to float16 where torch's
    CPU has no float16 kernel (torch 1.13: exp, sigmoid, mm, ...). Returns a third item,
    the reference's description."""
    try:
        expected, values = run(fn, case_spec, inputs, forward_aten)
        return expected, values, "aten-cpu"
    except ReferenceError_ as e:
        if case_spec["dtype"] != "float16" or "'Half'" not in str(e):
            raise
    spec = {**case_spec, "aten": _up(case_spec.get("aten") or {})}
    expected, values = run(fn, spec, _up(inputs), _up(forward_aten) if forward_aten else None)
    return _down(expected), _down(values), "aten-cpu-float32-rounded"


def make_case(cat, case) -> tuple[dict[str, torch.Tensor | None], dict[str, torch.Tensor], str]:
    """(inputs by DIOPI name, expected outputs by DIOPI name, how the reference was computed)
    of a case; raises ReferenceError_ when the reference rejects it."""
    spec = case.spec
    gen = torch.Generator().manual_seed(case.seed)
    forward_aten = None
    fwd_values: dict[str, torch.Tensor] = {}
    if "forward" in spec:
        fwd = cat.functions[spec["forward"]["fn"]]
        fspec = {"dtype": spec["dtype"], **spec["forward"]}
        finputs = {n: (make_input(s, gen) if s is not None else None)
                   for n, s in spec["forward"]["inputs"].items()}
        fout, forward_aten, fwd_how = run_upcast(fwd, fspec, finputs)
        fwd_values = {**{k: v for k, v in finputs.items() if v is not None}, **fout}
    inputs: dict[str, torch.Tensor | None] = {}
    for name, s in spec["inputs"].items():
        if s is None:
            inputs[name] = None
        elif "list" in s:
            inputs[name] = make_input(s, gen)
        elif "from" in s:
            inputs[name] = fwd_values[s["from"]].clone()
        elif "like" in s:
            like = fwd_values[s["like"]]
            dt = {v: k for k, v in DTYPES.items()}[like.dtype]
            inputs[name] = make_input({"shape": list(like.shape), "dtype": dt,
                                       "values": s.get("values", "normal")}, gen)
        else:
            inputs[name] = make_input(s, gen)
    expected, _, how = run_upcast(case.fn, spec, inputs, forward_aten)
    if "forward" in spec and fwd_how != "aten-cpu":
        how = f"{how} (forward: {fwd_how})"
    return inputs, expected, how
