"""Capture -> conformance: turn a capture directory into conformance cases with the shapes,
dtypes, layouts, attributes and input values of the real run, so a vendor tests its kernels
on exactly what a model fed them.

    python3 -m opweave.tools.to_conformance capture/ -o capture_cases/ [--op linear] [--run]

Each captured call is re-run on the device under a TorchDispatchMode (forward, and backward
with the captured output gradient) to see the ATen calls it makes; each ATen overload the
generated wrappers route to a DIOPI function (`opweave.instrument.op_table()`) that has a
conformance entry (generated/conformance/*.yaml) becomes a case of that function:

    inputs    shape, dtype, layout (contiguous | transposed, from the strides the kernel got)
    attrs     the DIOPI function's other arguments, from the ATen call
    aten      reference arguments DIOPI does not take (keepdim, input_dtype, ...)
    forward   for backward functions whose reference needs values of the forward call
    source    capture directory, call number, torch-level op, forward/backward pass

Cases with the same function and arguments are kept once. Output:

    <out>/cases/<family>.yaml               the cases, in the conformance catalogue format
    <out>/golden/<family>/<case id>.safetensors   golden data: the real input values of the
                                            run and the reference (ATen on CPU) from them
    <out>/summary.json                      cases per function, ATen calls not turned into
                                            cases (views, copies, ops without a DIOPI function)

and they run with the conformance runner (`--run` does it):

    OPWEAVE_CONFORMANCE_CASES=<out>/cases OPWEAVE_GOLDEN_DIR=<out>/golden \\
    OPWEAVE_REPORTS_DIR=<out>/reports python3 -m opweave.conformance run
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from . import record
from ._base import flatten_tensors, is_mutating
from .capture import records as list_records


class AtenCall:
    def __init__(self, phase: str, func, bound: dict, tensors: dict):
        self.phase = phase
        self.func = func
        schema = func._schema
        self.name = schema.name + (f".{schema.overload_name}" if schema.overload_name else "")
        self.bound = bound          # ATen argument name -> value (tensors: CPU copies)
        self.tensors = tensors      # ATen argument name -> dict(info of the tensor as passed)


class _Recorder(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.calls: list[AtenCall] = []
        self.phase = "forward"

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        schema = func._schema
        bound, tinfo = {}, {}
        values = list(args)
        for i, a in enumerate(schema.arguments):
            if i < len(values):
                v = values[i]
            elif a.name in kwargs:
                v = kwargs[a.name]
            elif a.has_default_value():
                v = a.default_value
            else:
                v = None
            if isinstance(v, torch.Tensor):
                tinfo[a.name] = record.tensor_info(v)
                v = v.detach().cpu() if v.device.type != "cpu" else v.detach().clone()
            elif isinstance(v, (list, tuple)) and any(isinstance(x, torch.Tensor) for x in v):
                v = [x.detach().cpu() if isinstance(x, torch.Tensor) else x for x in v]
            bound[a.name] = v
        self.calls.append(AtenCall(self.phase, func, bound, tinfo))
        return func(*args, **kwargs)


def aten_calls(rec: record.Record, device, backward: bool = True) -> list[AtenCall]:
    """The ATen calls of one captured call, re-run on `device` (backward with the captured
    gradient of its outputs when there is one)."""
    mutating = is_mutating(rec.op, rec.call.get("kwargs", {}))
    grads = rec.grad_outputs() if backward and not mutating else {}
    inputs = record.build_inputs(rec, device, requires_grad=bool(grads))
    func, args, kwargs = record.build_call(rec, inputs, device)
    leaves = []
    for t in flatten_tensors((args, kwargs)):
        if t.requires_grad and all(t is not x for x in leaves):
            leaves.append(t)
    rec_mode = _Recorder()
    with rec_mode:
        with torch.set_grad_enabled(bool(grads)):
            out = func(*args, **kwargs)
    got = flatten_tensors(out)
    idx = [i for i in sorted(grads) if i < len(got) and got[i].requires_grad]
    if idx and leaves:
        g = [grads[i].to(device=got[i].device, dtype=got[i].dtype) for i in idx]
        rec_mode.phase = "backward"
        with rec_mode:
            torch.autograd.grad([got[i] for i in idx], leaves, g, allow_unused=True)
    return rec_mode.calls


# ---- one ATen call -> one case -------------------------------------------------------------

def _jsonable(v):
    if isinstance(v, torch.dtype):
        return record.dtype_name(v)
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return repr(v)
    if isinstance(v, torch.device):
        return str(v)
    if isinstance(v, torch.memory_format):
        return str(v).replace("torch.", "")
    if isinstance(v, torch.layout):
        return str(v).replace("torch.", "")
    return v


def _layout(info: dict) -> str | None:
    shape, stride = info["shape"], info["stride"]
    dense = list(torch.empty(shape).stride()) if shape else []
    if stride == dense or 0 in shape or len(shape) == 0:
        return None
    if len(shape) >= 2:
        t_shape = shape[:-2] + [shape[-1], shape[-2]]
        t_dense = list(torch.empty(t_shape).stride())
        if stride == t_dense[:-2] + [t_dense[-1], t_dense[-2]]:
            return "transposed"
    return "strided"          # kept as a note; the case uses a contiguous copy


def _values_kind(t: torch.Tensor) -> str | None:
    if t.numel() == 0:
        return None
    if t.dtype is torch.bool:
        return "bool"
    if t.is_floating_point():
        return "positive" if bool((t > 0).all()) else None
    lo, hi = int(t.min()), int(t.max())
    return f"index{hi + 1}" if lo >= 0 else None


def _input_spec(t: torch.Tensor, info: dict) -> tuple[dict, str | None]:
    spec = {"shape": list(t.shape), "dtype": record.dtype_name(t.dtype)}
    layout = _layout(info)
    if layout == "transposed":
        spec["layout"] = "transposed"
    values = _values_kind(t)
    if values:
        spec["values"] = values
    return spec, layout


def _reference_schema(fn):
    from opweave.conformance import reference
    return reference._op(fn.reference["overload"])._schema


class Skip(Exception):
    pass


def build_case(fn, call: AtenCall, source: dict, forward_call: AtenCall | None = None):
    """(case spec, golden inputs by DIOPI name, forward ATen values) of `call` as a case of
    conformance function `fn`; raises Skip with the reason when it cannot be one."""
    ref = fn.reference
    if ref.get("runtime") == "convert":
        raise Skip("conversion functions (copy/cast) are not derived")
    mapping = ref.get("args") or {}
    inputs, golden, attrs, notes = {}, {}, {}, []
    first_float = first_any = None
    for s in fn.signature:
        name, kind = s["name"], s["kind"]
        aten_name = mapping.get(name)
        if kind == "tensor_list":
            raise Skip("tensor-list arguments are not supported by the runner")
        if kind == "tensor":
            if s["dir"] == "out":
                continue
            v = call.bound.get(aten_name)
            if v is None:
                inputs[name] = None
                continue
            if isinstance(v, (bool, int, float)):
                # a Python number passed for a tensor (torch dispatch shows wrapped numbers
                # as numbers): the kernel gets it as a 0-dim tensor of the number's type
                v = torch.tensor(v, dtype=torch.bool if isinstance(v, bool) else
                                 torch.int64 if isinstance(v, int) else torch.float64)
            if not isinstance(v, torch.Tensor):
                raise Skip(f"argument {aten_name} is not a tensor")
            spec, layout = _input_spec(v, call.tensors.get(aten_name, record.tensor_info(v)))
            if layout == "strided":
                notes.append(f"{name}: strides {call.tensors[aten_name]['stride']} given contiguous")
            inputs[name] = spec
            golden[name] = v.contiguous()
            first_any = first_any or spec["dtype"]
            if v.is_floating_point() and first_float is None:
                first_float = spec["dtype"]
        else:
            if aten_name is None or aten_name not in call.bound:
                raise Skip(f"no ATen value for DIOPI argument {name}")
            v = call.bound[aten_name]
            if isinstance(v, torch.Tensor):
                if v.dim() != 0:
                    raise Skip(f"argument {aten_name} is a non-scalar tensor")
                v = v.item()
            attrs[name] = _jsonable(v)
    fixed = ref.get("fixed") or {}
    outs = set(ref.get("outs") or [])
    mapped = set(mapping.values())
    schema = _reference_schema(fn)
    aten_extra = {}
    forward_aten = {}
    for a in schema.arguments:
        n = a.name
        if n in mapped or n in outs or (a.alias_info is not None and a.alias_info.is_write
                                        and ref.get("variant") == "out"):
            continue
        if n in fixed:
            if fixed[n] == "unused":
                if n not in call.bound:
                    raise Skip(f"no value for {n}")
                forward_aten[n] = call.bound[n]
            continue
        if n in call.bound:
            v = call.bound[n]
            if isinstance(v, torch.Tensor):
                raise Skip(f"reference argument {n} is a tensor DIOPI does not take")
            aten_extra[n] = _jsonable(v)
    spec = {"dtype": first_float or first_any or "float32", "tag": "capture",
            "inputs": inputs, "attrs": attrs}
    if aten_extra:
        spec["aten"] = aten_extra
    if forward_aten and forward_call is not None:
        fwd_fn_name = forward_call[0]
        fspec, _, _ = build_case(forward_call[1], forward_call[2], {})
        spec["forward"] = {"fn": fwd_fn_name, "inputs": fspec["inputs"], "attrs": fspec["attrs"]}
        if "aten" in fspec:
            spec["forward"]["aten"] = fspec["aten"]
    digest = hashlib.sha256(json.dumps({"fn": fn.name, **spec}, sort_keys=True).encode()).hexdigest()[:8]
    spec = {"id": f"{fn.name}-{spec['dtype']}-capture-{digest}", **spec}
    if notes:
        source = {**source, "notes": notes}
    spec["source"] = source
    return spec, golden, forward_aten


def _golden(fn, spec: dict, golden_inputs: dict, forward_aten: dict):
    """(tensors, metadata) of a golden file for the case, reference computed from the real
    inputs the way the conformance suite computes it."""
    from opweave.conformance import cases, golden, reference
    case = cases.Case(fn, spec)
    meta = {"format": golden.FORMAT, "case": case.content, "case_id": case.id,
            "function": fn.name, "torch": torch.__version__, "seed": "0",
            "source": "opweave.tools.to_conformance"}
    tensors = {f"in.{k}": v for k, v in golden_inputs.items() if v is not None}
    try:
        expected, _values, how = reference.run_upcast(
            fn, spec, {k: (v.clone() if v is not None else None) for k, v in golden_inputs.items()},
            forward_aten or None)
        meta.update(status="ok", reference=how)
        for k, v in expected.items():
            tensors[f"ref.{k}"] = v
    except reference.ReferenceError_ as e:
        meta.update(status="reference_error", error=str(e))
        tensors = {}
    return case, tensors, meta


def convert(capture: str, out_dir: str, device, op: str | None = None, backward: bool = True,
            progress: bool = True) -> dict:
    """Write conformance cases + golden data for a capture; returns the summary."""
    import yaml

    import opweave
    from opweave.conformance import cases as conf_cases

    from . import tensorfile
    from .progress import Progress

    cat = conf_cases.Catalogue()
    table = {e["aten"]: e["diopi"] for e in opweave.instrument.op_table()}
    forward_of = {}
    for f in cat.functions.values():
        for c in f.cases:
            if "forward" in c.spec:
                forward_of[f.name] = c.spec["forward"]["fn"]
                break
    files = list_records(capture, op)
    by_family: dict[str, dict] = {}
    seen: set[str] = set()
    summary = {"capture": os.path.abspath(capture), "records": len(files), "cases": {},
               "duplicates": 0, "not_cases": {}, "errors": []}
    bar = Progress(len(files), "to-conformance", stream=None if progress else open(os.devnull, "w"))
    for path in files:
        rec = record.Record(path)
        bar.step(f"#{rec.seq} {rec.op.rsplit('.', 1)[-1]}")
        if not rec.replayable:
            summary["errors"].append(f"#{rec.seq} {rec.op}: not replayable")
            continue
        try:
            calls = aten_calls(rec, device, backward)
        except Exception as e:  # noqa: BLE001
            summary["errors"].append(f"#{rec.seq} {rec.op}: {type(e).__name__}: {e}"[:300])
            continue
        last_by_fn: dict[str, tuple] = {}
        for call in calls:
            diopi = table.get(call.name)
            fn = cat.functions.get(diopi) if diopi else None
            if fn is None:
                why = "no DIOPI function" if diopi is None else f"{diopi} has no conformance entry"
                key = f"{call.name} ({why})"
                summary["not_cases"][key] = summary["not_cases"].get(key, 0) + 1
                continue
            source = {"capture": os.path.basename(os.path.abspath(capture)), "seq": rec.seq,
                      "op": rec.op, "pass": call.phase, "aten": call.name}
            fwd_name = forward_of.get(fn.name)
            forward_call = last_by_fn.get(fwd_name) if fwd_name else None
            last_by_fn[fn.name] = (fn.name, fn, call)
            try:
                spec, golden_inputs, forward_aten = build_case(fn, call, source, forward_call)
            except Skip as e:
                key = f"{call.name} ({e})"
                summary["not_cases"][key] = summary["not_cases"].get(key, 0) + 1
                continue
            if spec["id"] in seen:
                summary["duplicates"] += 1
                continue
            seen.add(spec["id"])
            case, tensors, meta = _golden(fn, spec, golden_inputs, forward_aten)
            gpath = os.path.join(out_dir, "golden", fn.family, spec["id"] + ".safetensors")
            tensorfile.save(gpath, tensors, meta)
            fam = by_family.setdefault(fn.family, {"tolerances": fn.tolerances, "functions": {}})
            entry = fam["functions"].setdefault(fn.name, {"diopi": fn.name, "reference": fn.reference,
                                                          "signature": fn.signature, "cases": []})
            if getattr(fn, "unsupported", ""):
                entry["unsupported"] = fn.unsupported
            entry["cases"].append(spec)
            summary["cases"][fn.name] = summary["cases"].get(fn.name, 0) + 1
    bar.done(f"{sum(summary['cases'].values())} cases of {len(summary['cases'])} functions "
             f"({summary['duplicates']} duplicates dropped) in {out_dir}")
    cases_dir = os.path.join(out_dir, "cases")
    os.makedirs(cases_dir, exist_ok=True)
    for old in os.listdir(cases_dir):
        if old.endswith(".yaml"):
            os.unlink(os.path.join(cases_dir, old))
    for family, fam in sorted(by_family.items()):
        doc = {"family": family,
               "tolerances": {k: list(v) for k, v in fam["tolerances"].items()},
               "functions": list(fam["functions"].values())}
        with open(os.path.join(cases_dir, f"{family}.yaml"), "w", encoding="utf-8") as f:
            f.write(f"# Conformance cases of the `{family}` family derived from the capture "
                    f"{summary['capture']}\n# by opweave.tools.to_conformance (real shapes, "
                    f"dtypes, attributes; golden data in ../golden/{family}/).\n")
            yaml.safe_dump(doc, f, sort_keys=False, default_flow_style=None, width=200)
    index = {"torch": str(torch.__version__), "total": 0, "dtypes": {}, "functions": {}}
    for family, fam in sorted(by_family.items()):
        for name, entry in fam["functions"].items():
            dtypes: dict[str, int] = {}
            for c in entry["cases"]:
                dtypes[c["dtype"]] = dtypes.get(c["dtype"], 0) + 1
                index["dtypes"][c["dtype"]] = index["dtypes"].get(c["dtype"], 0) + 1
            index["functions"][name] = {"family": family, "cases": len(entry["cases"]),
                                        "dtypes": dtypes}
            index["total"] += len(entry["cases"])
    with open(os.path.join(cases_dir, "index.yaml"), "w", encoding="utf-8") as f:
        f.write("# Case counts per DIOPI function and dtype (cases in <family>.yaml).\n")
        yaml.safe_dump(index, f, sort_keys=False, default_flow_style=None, width=200)
    summary["run"] = run_command(out_dir)
    with open(os.path.join(out_dir, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    return summary


def conformance_env(out_dir: str) -> dict[str, str]:
    out_dir = os.path.abspath(out_dir)
    return {"OPWEAVE_CONFORMANCE_CASES": os.path.join(out_dir, "cases"),
            "OPWEAVE_GOLDEN_DIR": os.path.join(out_dir, "golden"),
            "OPWEAVE_REPORTS_DIR": os.path.join(out_dir, "reports")}


def run_command(out_dir: str) -> str:
    env = " ".join(f"{k}={v}" for k, v in conformance_env(out_dir).items())
    return f"{env} python3 -m opweave.conformance run"


def run_conformance(out_dir: str, extra: list[str] | None = None) -> int:
    env = dict(os.environ, **conformance_env(out_dir))
    cmd = [sys.executable, "-m", "opweave.conformance", "run", "--fresh", *(extra or [])]
    return subprocess.run(cmd, env=env).returncode


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m opweave.tools.to_conformance", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("capture", help="capture directory (or one record file)")
    p.add_argument("-o", "--out", default="capture_conformance", help="output directory")
    p.add_argument("--op", help="only captured ops matching these names/regexes")
    p.add_argument("--no-backward", action="store_true", help="forward ATen calls only")
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--run", action="store_true", help="then run the conformance suite on them")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    if not os.path.exists(args.capture):
        print(f"to_conformance: {args.capture}: no such file or directory", file=sys.stderr)
        return 2
    import opweave
    summary = convert(args.capture, args.out, opweave.device(args.device), args.op,
                      not args.no_backward, not args.quiet)
    for fn, n in sorted(summary["cases"].items()):
        print(f"  {fn}: {n} case(s)")
    if summary["not_cases"]:
        print("  ATen calls without a case: " + ", ".join(
            f"{k} x{v}" for k, v in sorted(summary["not_cases"].items())))
    for e in summary["errors"]:
        print(f"  error: {e}", file=sys.stderr)
    print(f"run them: {summary['run']}")
    if not summary["cases"]:
        return 1
    if args.run:
        return run_conformance(args.out)
    return 0


if __name__ == "__main__":
    from opweave.tools.process_exit import exit_now

    exit_now(main())
