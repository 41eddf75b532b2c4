"""Runs conformance cases against the loaded vendor, at the DIOPI C ABI.

Per case: the golden inputs are copied into device tensors made by the runtime's allocator
(laid out as the case says: contiguous, transposed or sliced views of a larger buffer whose
gaps hold a filler value), outputs are allocated filled with a sentinel, the kernel is called
directly through the resolved slot table (native.py), the device is synchronised, and then

  - every output is compared with the reference within the per-dtype tolerance (NaN where
    the reference has NaN, the same infinities; integral and bool outputs exactly),
  - every read-only input buffer must be bit-for-bit unchanged, and nothing outside an
    output view may be written.

Where an output differs from the golden data (ATen on CPU in the case's dtype), the float64
referee (opweave/referee.py; on unless `run --reference none`, Runner(reference="none") or
OPWEAVE_REFERENCE=none) computes the case again in float64: an output closer to that than
the golden data is (`device_closer`), or within tolerance of it (`within_float64`), passes,
and the case records its verdict and the three distances.

Statuses: pass, fail, skip (expectations, missing golden data, a case the reference
rejects), not_implemented (the vendor does not export the function, returns
diopiNoImplement, declines with diopiForceFallbackToCPU or, for the case's dtype, with
diopiDtypeNotSupported: each of these runs on CPU through the wrapper's fallback).
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field

import torch

import opweave

from .. import referee
from . import golden, native, progress, reference, tensorfile
from .reference import DTYPES

STATUSES = ("pass", "fail", "skip", "not_implemented")
DIOPI_NO_IMPLEMENT = 13
DIOPI_DTYPE_NOT_SUPPORTED = 1000
DIOPI_FORCE_FALLBACK = 14
SLOT_MISSING = -1
_BITS = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
_DTYPE_NAMES = {v: k for k, v in DTYPES.items()}
_DIOPI_DTYPE = {"int8": 0, "uint8": 1, "int16": 2, "int32": 4, "int64": 6, "float16": 8,
                "float32": 9, "float64": 10, "bool": 11, "bfloat16": 12}
_ROUND_MODE = {None: 0, "trunc": 1, "floor": 2}


@dataclass
class Result:
    id: str
    fn: str
    family: str
    dtype: str
    tag: str
    status: str
    reason: str = ""
    max_abs: float = 0.0
    max_rel: float = 0.0
    shapes: dict = field(default_factory=dict)
    outputs: dict = field(default_factory=dict)
    ms: float = 0.0
    # the float64 referee's verdict (referee.py; "" where it did not run: pass, skip, ...) and
    # its distances in units of the tolerance
    verdict: str = ""
    device_cpu: float | None = None
    device_float64: float | None = None
    cpu_float64: float | None = None

    def to_json(self) -> dict:
        """Strict JSON: a non-finite difference (NaN or inf where the other side has a number)
        is written as null."""
        d = dict(self.__dict__)
        for k in ("max_abs", "max_rel", "device_cpu", "device_float64", "cpu_float64"):
            v = d[k]
            d[k] = v if v is not None and math.isfinite(v) else None
        d["outputs"] = {name: {k: (v if not isinstance(v, float) or math.isfinite(v) else None)
                               for k, v in cmp.items()} for name, cmp in self.outputs.items()}
        return d


def _finite_or_text(v):
    return v if not isinstance(v, float) or math.isfinite(v) else repr(v)


def _max(a, b):
    """max of two differences where None (non-finite) dominates."""
    return None if a is None or b is None else max(a, b)


def filler(dtype: torch.dtype):
    if dtype.is_floating_point:
        return float("nan")
    if dtype is torch.bool:
        return True
    return 101 if dtype is torch.uint8 else -77


def bits(t: torch.Tensor) -> torch.Tensor:
    if t.dtype is torch.bool:
        return t
    return t.contiguous().view(_BITS[t.element_size()])


def same_bits(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and torch.equal(bits(a), bits(b))


@dataclass
class Placed:
    """A device tensor view over a device buffer, with the host copy the buffer started as."""
    name: str
    base_host: torch.Tensor
    base_dev: torch.Tensor
    geometry: tuple
    view: torch.Tensor

    def read_back(self) -> tuple[torch.Tensor, torch.Tensor]:
        base = self.base_dev.cpu()
        size, stride, offset = self.geometry
        return base, base.as_strided(size, stride, offset)

    def untouched_outside_view(self, base_after: torch.Tensor) -> bool:
        size, stride, offset = self.geometry
        probe = base_after.clone()
        probe.as_strided(size, stride, offset).copy_(
            self.base_host.as_strided(size, stride, offset))
        return same_bits(probe, self.base_host)


def place(name: str, value: torch.Tensor, layout: str, device: torch.device) -> Placed:
    """Put `value` on the device with the requested layout (a view of a larger buffer)."""
    shape = list(value.shape)
    if layout == "transposed" and len(shape) >= 2:
        base = value.transpose(-1, -2).contiguous()
        view = base.transpose(-1, -2)
    elif layout == "sliced" and len(shape) >= 1:
        base = torch.full(shape[:-1] + [2 * shape[-1] + 1], filler(value.dtype), dtype=value.dtype)
        view = base[..., 1::2]
        view.copy_(value)
    else:
        base = value.contiguous().clone()
        view = base
    geometry = (tuple(view.size()), tuple(view.stride()), view.storage_offset())
    base_dev = base.to(device)
    view_dev = base_dev.as_strided(*geometry)
    return Placed(name, base, base_dev, geometry, view_dev)


def compare(got: torch.Tensor, ref: torch.Tensor, atol: float, rtol: float) -> dict:
    """Mismatch count and max abs / rel difference of got against ref."""
    n = ref.numel()
    if got.shape != ref.shape or got.dtype != ref.dtype:
        return {"mismatches": n, "numel": n, "max_abs": float("inf"), "max_rel": float("inf"),
                "first": None}
    if n == 0:
        return {"mismatches": 0, "numel": 0, "max_abs": 0.0, "max_rel": 0.0, "first": None}
    if ref.dtype.is_floating_point:
        g, r = got.double(), ref.double()
        gnan, rnan = torch.isnan(g), torch.isnan(r)
        finite = torch.isfinite(g) & torch.isfinite(r)
        diff = torch.where(finite, (g - r).abs(), torch.zeros_like(g))
        bad = (gnan != rnan) | (~finite & ~(gnan & rnan) & (g != r)) | (diff > atol + rtol * r.abs())
        rel = diff / r.abs().clamp_min(1e-30)
        rel = torch.where(finite & (diff > 0), rel, torch.zeros_like(rel))
        max_abs = float(diff.max())
        max_rel = float(rel.max())
        if bool(((gnan != rnan) | (~finite & ~(gnan & rnan) & (g != r))).any()):
            max_abs = max_rel = float("inf")
    else:
        bad = got != ref
        d = (got.long() - ref.long()).abs() if ref.dtype is not torch.bool else bad.long()
        max_abs = float(d.max())
        max_rel = 0.0 if max_abs == 0 else float((d.double() / ref.long().abs().clamp_min(1)).max())
    mismatches = int(bad.sum())
    first = None
    if mismatches:
        idx = int(bad.reshape(-1).nonzero()[0])
        pos, rest = [], idx
        for d in reversed(ref.shape):
            pos.append(rest % d)
            rest //= d
        first = {"index": pos[::-1], "got": _finite_or_text(got.reshape(-1)[idx].item()),
                 "expected": _finite_or_text(ref.reshape(-1)[idx].item())}
    return {"mismatches": mismatches, "numel": n, "max_abs": max_abs, "max_rel": max_rel,
            "first": first}


def compare_distribution(got: torch.Tensor, ref: torch.Tensor, atol: float, rtol: float,
                         permutation: bool = False) -> dict:
    """Random outputs (`reference.compare: distribution`): the device generator draws other
    values than the CPU's, so got must match ref in shape, dtype and distribution: the same
    multiset for a permutation (`compare: permutation`, randperm), else NaN-free where ref is
    and mean and standard deviation within 6 standard errors of ref's (taken over both
    samples, so a single element compares with the spread of the two draws) plus the dtype
    tolerance; integers drawn from a range (random_) too."""
    n = ref.numel()
    result = {"mismatches": 0, "numel": n, "max_abs": 0.0, "max_rel": 0.0, "first": None,
              "compare": "distribution"}
    if got.shape != ref.shape or got.dtype != ref.dtype:
        return {**result, "mismatches": n, "max_abs": float("inf"), "max_rel": float("inf")}
    if n == 0:
        return result
    if permutation:
        g, r = got.reshape(-1).sort().values, ref.reshape(-1).sort().values
        bad = int((g != r).sum())
        d = float((g.long() - r.long()).abs().max())
        first = None if not bad else {"index": ["sorted"], "got": g[g != r][0].item(),
                                      "expected": r[g != r][0].item()}
        return {**result, "mismatches": bad, "max_abs": d, "first": first}
    g, r = got.double().reshape(-1), ref.double().reshape(-1)
    if bool(torch.isnan(g).any()) and not bool(torch.isnan(r).any()):
        return {**result, "mismatches": int(torch.isnan(g).sum()), "max_abs": float("inf"),
                "max_rel": float("inf"), "first": {"index": ["any"], "got": "nan",
                                                   "expected": "a number"}}
    g, r = g[~torch.isnan(g)], r[~torch.isnan(r)]
    both = torch.cat([g, r])
    spread = float(both.std(unbiased=False)) if both.numel() > 1 else 0.0
    m = max(min(g.numel(), r.numel()), 1)
    checks = []
    if g.numel() and r.numel():
        dmean = abs(float(g.mean()) - float(r.mean()))
        tol_mean = 6.0 * spread * math.sqrt(2.0 / m) + atol + rtol * abs(float(r.mean()))
        checks.append(("mean", dmean, tol_mean, float(g.mean()), float(r.mean())))
        gs = float(g.std(unbiased=False))
        rs = float(r.std(unbiased=False))
        tol_std = 6.0 * spread / math.sqrt(m) + atol + rtol * rs
        checks.append(("std", abs(gs - rs), tol_std, gs, rs))
    bad = [c for c in checks if not c[1] <= c[2]]
    max_abs = max((c[1] for c in checks), default=0.0)
    first = None
    if bad:
        what, diff, tol, gv, rv = bad[0]
        first = {"index": [what], "got": gv, "expected": rv}
    return {**result, "mismatches": len(bad), "max_abs": max_abs, "first": first}


def _token(sig: dict, value) -> str:
    k = sig["kind"]
    if k == "enum" and sig.get("ctype") == "diopiRoundMode_t":
        return f"e{_ROUND_MODE[value]}"   # None is RoundModeNone, not a null pointer
    if value is None:
        return "n"
    if k == "scalar":
        if isinstance(value, bool) or isinstance(value, int):
            return f"si{int(value)}"
        return f"sf{float(value)!r}"
    if k in ("size", "size_ptr"):
        return "z" + ",".join(str(int(v)) for v in value)
    if k in ("int", "int_opt"):
        return f"i{int(value)}"
    if k == "enum":
        return f"e{int(value)}"
    if k in ("float", "float_opt", "scalar_double"):
        return f"f{float(value)!r}"
    if k in ("bool", "bool_opt"):
        return "b1" if value else "b0"
    if k == "str":
        if " " in value:
            raise ValueError(f"string argument {value!r} contains a space")
        return "s" + value
    if k in ("dtype", "dtype_opt"):
        return f"d{_DIOPI_DTYPE[value]}"
    if k == "generator":
        return "n"
    raise ValueError(f"unsupported argument kind {k}")


# The adaptor's narrowing conversions (opweave/kernel_support.h).
NARROWER = {"float64": "float32", "int64": "int32"}


def golden_inputs(case, tensors: dict) -> dict:
    """The case's inputs by DIOPI name, from its golden tensors (`in.<name>`, `in.<name>.<i>`)."""
    inputs: dict = {}
    for name, s in (case.spec.get("inputs") or {}).items():
        if s is not None and "list" in s:
            inputs[name] = [tensors.get(f"in.{name}.{i}") if item is not None else None
                            for i, item in enumerate(s["list"])]
        else:
            inputs[name] = tensors.get("in." + name)
    return inputs


class Runner:
    def __init__(self, expectations=None, device: int = 0, save_failures: str | None = None,
                 reference: str | None = None):
        self.ops = native.load()
        self.device = opweave.device(device)
        self.device_index = device
        self.expectations = expectations
        self.save_failures = save_failures
        # Where the vendor opted into narrowing (kernel_support.yaml), the adaptor computes a
        # float64 case in float32: such a case is judged at the tolerance of the dtype it was
        # computed in, and its result says so (never a silent pass at float64 precision).
        self.narrowed = {fn: {src: dst for src, dst in f["conversions"].items()
                              if dst and NARROWER.get(src) == dst}
                         for fn, f in opweave.adaptor_stats()["functions"].items()}
        self.reference = referee.mode(reference)   # None: $OPWEAVE_REFERENCE, else float64

    def tolerance(self, case, dtype_name: str) -> tuple[float, float]:
        rule = self.expectations.tolerance(case) if self.expectations else None
        if rule is not None:
            return rule.atol, rule.rtol
        dtype_name = self.narrowed.get(case.fn.name, {}).get(dtype_name, dtype_name)
        return case.fn.tolerances.get(dtype_name, (0.0, 0.0))

    def run(self, case, tensors: dict | None = None, meta: dict | None = None) -> Result:
        spec = case.spec
        res = Result(case.id, case.fn.name, case.family, case.dtype, spec["tag"], "skip")
        if self.expectations is not None:
            reason = self.expectations.skip_reason(case)
            if reason:
                res.reason = f"expected: {reason}"
                return res
        if tensors is None:
            try:
                tensors, meta = golden.load(case)
            except (golden.GoldenError, tensorfile.TensorFileError) as e:
                res.reason = str(e)
                return res
        if meta.get("status") != "ok":
            res.reason = f"reference rejects the case: {meta.get('error', '?')}"
            return res
        start = time.perf_counter()
        try:
            self._execute(case, tensors, res)
        except RuntimeError as e:
            res.status, res.verdict = "fail", referee.FAIL
            res.reason = "error: " + str(e).strip().splitlines()[0][:300]
        res.ms = round((time.perf_counter() - start) * 1e3, 3)
        if res.status == "fail" and self.save_failures:
            self._save_failure(case, tensors, meta, res)
        return res

    def _execute(self, case, tensors: dict, res: Result) -> None:
        spec = case.spec
        fn = case.fn
        out_layout = spec.get("out_layout", "contiguous")
        placed: dict[str, Placed] = {}
        allocated: list[str] = []
        order: list[torch.Tensor] = []
        tokens = []
        for sig in fn.signature:
            name, kind, direction = sig["name"], sig["kind"], sig["dir"]
            if kind == "tensor_list":
                if direction != "in":
                    raise RuntimeError("output tensor lists are not supported by the runner yet")
                items = (spec["inputs"].get(name) or {}).get("list", [])
                handles = []
                for i, item in enumerate(items):
                    if item is None:   # an absent Tensor?[] entry: a NULL handle
                        handles.append("n")
                        continue
                    p = place(f"{name}.{i}", tensors[f"in.{name}.{i}"],
                              item.get("layout", "contiguous"), self.device)
                    placed[p.name] = p
                    res.shapes[p.name] = list(p.view.shape)
                    handles.append(str(len(order)))
                    order.append(p.view)
                tokens.append("l" + ",".join(handles))
                continue
            if kind in ("tensor_alloc", "host_bool"):   # read back after the call
                allocated.append(name)
                tokens.append("a" if kind == "tensor_alloc" else "h")
                continue
            if kind != "tensor":
                tokens.append(_token(sig, spec["attrs"].get(name)))
                continue
            if direction == "out":
                if "ref." + name not in tensors:   # not computed by the reference: null
                    tokens.append("n")
                    continue
                ref = tensors["ref." + name]
                value = torch.full(ref.shape, filler(ref.dtype), dtype=ref.dtype)
                layout = out_layout
            else:
                value = tensors.get("in." + name)
                if value is None:
                    tokens.append("n")
                    continue
                in_spec = spec["inputs"].get(name) or {}
                layout = in_spec.get("layout", "contiguous")
            p = place(name, value, layout, self.device)
            placed[name] = p
            res.shapes[name] = list(value.shape)
            tokens.append(f"t{len(order)}")
            order.append(p.view)
        status = int(self.ops.call(fn.name, self.device_index, order, " ".join(tokens)))
        if status in (SLOT_MISSING, DIOPI_NO_IMPLEMENT, DIOPI_FORCE_FALLBACK,
                      DIOPI_DTYPE_NOT_SUPPORTED):
            res.status = "not_implemented"
            res.reason = {SLOT_MISSING: "not exported by the vendor library",
                          DIOPI_NO_IMPLEMENT: "returns diopiNoImplement",
                          DIOPI_FORCE_FALLBACK: "declines (diopiForceFallbackToCPU)",
                          DIOPI_DTYPE_NOT_SUPPORTED:
                              f"declines the dtype: {self.ops.last_error()}"[:300]}[status]
            return
        if status != 0:
            res.status = "fail"
            res.reason = f"returned error {status}: {self.ops.last_error()}"[:300]
            return
        problems = []
        disputed = {}   # outputs that differ from the golden data: for the float64 referee
        res.max_abs = res.max_rel = 0.0
        for name, got in zip(allocated, self.ops.allocated() if allocated else []):
            ref = tensors["ref." + name]
            if got.device != self.device and fn.arg(name)["kind"] == "tensor_alloc":
                problems.append(f"'{name}': allocated on {got.device}, not {self.device}")
            cmp = compare(got.cpu(), ref, 0.0, 0.0)
            res.outputs[name] = cmp
            res.shapes[name] = list(got.shape)
            res.max_abs = max(res.max_abs, cmp["max_abs"])
            if cmp["mismatches"]:
                problems.append(f"'{name}': {cmp['mismatches']}/{cmp['numel']} elements off "
                                f"(got shape {list(got.shape)} {got.dtype}, expected "
                                f"{list(ref.shape)} {ref.dtype}; first: {cmp['first']})")
        for name, p in placed.items():
            sig = fn.arg(name.split(".")[0])
            base_after, view_after = p.read_back()
            if sig["dir"] == "in":
                if not same_bits(base_after, p.base_host):
                    problems.append(f"modified read-only input '{name}'")
                continue
            ref = tensors["ref." + name]
            dt = _DTYPE_NAMES[ref.dtype]
            atol, rtol = self.tolerance(case, dt) if ref.dtype.is_floating_point else (0.0, 0.0)
            if fn.reference.get("compare") in ("distribution", "permutation"):
                cmp = compare_distribution(view_after, ref, atol, rtol,
                                           fn.reference["compare"] == "permutation")
            else:
                cmp = compare(view_after, ref, atol, rtol)
            cmp.update(atol=atol, rtol=rtol)
            res.outputs[name] = cmp
            res.max_abs = max(res.max_abs, cmp["max_abs"])
            res.max_rel = max(res.max_rel, cmp["max_rel"])
            if cmp["mismatches"]:
                first = cmp["first"]
                text = (f"'{name}': {cmp['mismatches']}/{cmp['numel']} elements off "
                        f"(max abs {cmp['max_abs']:.3g}, max rel {cmp['max_rel']:.3g}, "
                        f"atol {atol:g} rtol {rtol:g}; first at {first['index']}: "
                        f"got {first['got']!r}, expected {first['expected']!r})")
                if "compare" not in cmp and referee.refereeable(view_after):
                    disputed[name] = (view_after, ref, atol, rtol, text)
                else:
                    problems.append(text)
            if not p.untouched_outside_view(base_after):
                problems.append(f"wrote outside the view of '{name}'")
        notes = self._referee(case, tensors, disputed, res, problems) if disputed else []
        res.status = "fail" if problems else "pass"
        res.reason = "; ".join(problems or notes)
        narrowed = self.narrowed.get(case.fn.name, {}).get(case.dtype)
        if narrowed:
            res.reason = "; ".join((problems or notes) + [
                f"the adaptor computed it in {narrowed} (the vendor opted into narrowing): "
                f"judged at {narrowed} tolerance"])
        if not res.verdict:
            res.verdict = referee.FAIL if problems else referee.PASS

    def _referee(self, case, tensors: dict, disputed: dict, res: Result, problems: list) -> list:
        """Judges the outputs that differ from the golden data against the case computed in
        float64 (referee.py): a failing one goes to `problems`; returns notes on the cleared
        ones. Sets the result's verdict and distances."""
        exact, why = None, (None if self.reference else "reference mode off")
        if why is None:
            try:
                exact = reference.run_float64(case.fn, case.spec, golden_inputs(case, tensors))
            except (reference.ReferenceError_, RuntimeError, KeyError) as err:
                why = f"float64 rerun failed: {str(err).strip()[:200]}"
        judged, notes = [], []
        for name, (got, ref, atol, rtol, text) in disputed.items():
            ref64 = exact.get(name) if exact is not None else None
            j = referee.judge(got, ref, ref64, atol, rtol)
            res.outputs[name].update(j)
            judged.append(j)
            detail = f"{text}; {referee.fmt(j)}" + (f" [{why}]" if ref64 is None and why else "")
            (problems if referee.failing(j["verdict"]) else notes).append(detail)
        combined = referee.combine(judged)
        res.verdict = referee.FAIL if problems else combined["verdict"]
        res.device_cpu = combined["device_cpu"]
        res.device_float64 = combined["device_float64"]
        res.cpu_float64 = combined["cpu_float64"]
        return notes

    def _save_failure(self, case, tensors: dict, meta: dict, res: Result) -> None:
        path = os.path.join(self.save_failures, case.id + ".safetensors")
        extra = {"status": "ok", "failure": res.reason, "case": case.content,
                 "case_id": case.id, "function": case.fn.name,
                 "signature": json.dumps(case.fn.signature),
                 "reference": json.dumps(case.fn.reference),
                 "tolerances": json.dumps(case.fn.tolerances),
                 "family": case.family}
        tensorfile.save(path, tensors, {**{k: v for k, v in meta.items() if k != "status"},
                                        **extra})


def summarize(results: list[Result], resolved: dict[str, bool]) -> dict:
    """Per-function counts: pass / fail / skip / not_implemented, max diffs, skip reasons."""
    ops: dict[str, dict] = {}
    for r in results:
        o = ops.setdefault(r.fn, {"family": r.family, "total": 0, "max_abs": 0.0, "max_rel": 0.0,
                                  "skip_reasons": {}, **{s: 0 for s in STATUSES}})
        o["total"] += 1
        o[r.status] += 1
        if r.status in ("pass", "fail"):
            o["max_abs"] = _max(o["max_abs"], r.max_abs)
            o["max_rel"] = _max(o["max_rel"], r.max_rel)
        if r.status == "skip":
            o["skip_reasons"][r.reason] = o["skip_reasons"].get(r.reason, 0) + 1
    for name, o in ops.items():
        o["exported"] = bool(resolved.get(name, False))
        ran = o["pass"] + o["fail"]
        o["native"] = o["exported"] and ran > 0
        o["pass_rate"] = (o["pass"] / ran) if ran else None
        for k in ("max_abs", "max_rel"):
            if o[k] is not None and not math.isfinite(o[k]):
                o[k] = None
    return ops


def run_cases(cases, expectations, device: int = 0, save_failures: str | None = None,
              out=None, reference: str | None = None) -> list[Result]:
    runner = Runner(expectations, device, save_failures, reference)
    bar = progress.Progress(len(cases), "conformance", stream=out)
    counts = {s: 0 for s in STATUSES}
    results = []
    for case in cases:
        r = runner.run(case)
        counts[r.status] += 1
        bar.set_status(" ".join(f"{k}={v}" for k, v in counts.items() if v))
        bar.step(case.id)
        results.append(r)
    bar.done(", ".join(f"{v} {k.replace('_', '-')}" for k, v in counts.items()))
    return results
