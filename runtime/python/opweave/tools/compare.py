"""Comparing a device result with a CPU reference: tolerances per dtype, the CPU reference
call (float16/bfloat16 upcast to float32 on CPU), and the metrics of every tool report:
allclose, max abs, max rel, cosine similarity."""

from __future__ import annotations

import math
import os

import torch

from .. import referee
from ._base import RANDOM, flatten_tensors, map_values, short_name, to_cpu_device

# (atol, rtol) per dtype of the device result. 16-bit results are compared with a float32
# reference computed from the same inputs, so the device's own rounding is inside these.
DEFAULT_TOLERANCES = {
    torch.float16: (1e-3, 1e-3),
    torch.bfloat16: (1e-2, 1e-2),
    torch.float32: (1e-5, 1e-5),
    torch.float64: (1e-8, 1e-7),
}
UPCAST = {torch.float16: torch.float32, torch.bfloat16: torch.float32}


def parse_tolerances(spec) -> dict:
    """{dtype: (atol, rtol)} from a dict ({"float32": (1e-4, 1e-4)} or torch dtypes as keys)
    or a string "float32=1e-4:1e-4,float16=2e-3:2e-3" (OPWEAVE_TOOLS_TOLERANCES)."""
    from .record import DTYPES
    out = dict(DEFAULT_TOLERANCES)
    if not spec:
        return out
    if isinstance(spec, str):
        items = {}
        for part in spec.split(","):
            if not part.strip():
                continue
            name, _, value = part.partition("=")
            atol, _, rtol = value.partition(":")
            items[name.strip()] = (float(atol), float(rtol or atol))
        spec = items
    for key, (atol, rtol) in spec.items():
        dtype = key if isinstance(key, torch.dtype) else DTYPES[str(key).replace("torch.", "")]
        out[dtype] = (float(atol), float(rtol))
    return out


def tolerances_from_env(arg) -> dict:
    return parse_tolerances(arg if arg is not None else os.environ.get("OPWEAVE_TOOLS_TOLERANCES"))


def to_reference(args, kwargs, snapshot: dict, upcast: bool, grad_ids: set,
                 float64: bool = False):
    """CPU arguments of the reference call: each tensor replaced by its CPU snapshot (upcast
    16-bit floats to float32 when asked), device arguments pointed at the CPU. Tensors whose
    id is in `grad_ids` become leaves that require grad. `float64`: the referee's rerun
    (referee.py), every floating tensor and floating dtype argument in float64. Returns
    (args, kwargs, leaves by id)."""
    leaves: dict[int, torch.Tensor] = {}
    seen: dict[int, torch.Tensor] = {}

    def conv(v):
        if isinstance(v, torch.Tensor):
            if id(v) in seen:    # `x * x`: one CPU tensor too, so its gradient gets both terms
                return seen[id(v)]
            c = snapshot.get(id(v))
            if c is None:
                c = v.detach().cpu()
            c = referee.to_float64(c) if float64 else c
            c = c.clone()
            if upcast and c.dtype in UPCAST:
                c = c.to(UPCAST[c.dtype])
            if id(v) in grad_ids:
                c.requires_grad_(True)
                leaves[id(v)] = c
            seen[id(v)] = c
            return c
        return referee.to_float64(to_cpu_device(v)) if float64 else to_cpu_device(v)

    ref_args = map_values(list(args), conv)
    ref_kwargs = {k: map_values(v, conv) if k != "device" else to_cpu_device(v)
                  for k, v in kwargs.items()}
    return ref_args, ref_kwargs, leaves


def float64_outputs(func, args, kwargs, snapshot: dict) -> list[torch.Tensor]:
    """The referee's forward: the op on float64 CPU copies of its inputs (referee.py)."""
    ref_args, ref_kwargs, _ = to_reference(args, kwargs, snapshot, False, set(), float64=True)
    with torch.no_grad():
        return flatten_tensors(func(*ref_args, **ref_kwargs))


def float64_grads(func, args, kwargs, snapshot: dict, grad_inputs: list, req: list,
                  grads) -> list[torch.Tensor]:
    """The referee's backward: the gradients of `grad_inputs` through the float64 forward,
    fed with the device op's own gradient of each output in `req` (in float64)."""
    ref_args, ref_kwargs, leaves = to_reference(args, kwargs, snapshot, False,
                                                {id(t) for t in grad_inputs}, float64=True)
    with torch.enable_grad():
        outs = flatten_tensors(func(*ref_args, **ref_kwargs))
    cpu_leaves = [leaves[id(t)] for t in grad_inputs]
    got = torch.autograd.grad([outs[i] for i in req], cpu_leaves,
                              [grads[i].detach().cpu().to(outs[i].dtype) for i in req],
                              allow_unused=True)
    return [g if g is not None else torch.zeros_like(leaf) for g, leaf in zip(got, cpu_leaves)]


def compare(got: torch.Tensor | None, want: torch.Tensor | None, tolerances: dict) -> dict:
    """Metrics of device tensor `got` against reference `want` (maybe upcast). `ok` is the
    allclose verdict with the tolerance of got's dtype (integers and bool: exact)."""
    if got is None or want is None:
        ok = got is None and want is None
        return {"ok": ok, "allclose": ok, "why": "" if ok else "defined on one side only",
                "shape": list(got.shape) if got is not None else None,
                "dtype": str(got.dtype).replace("torch.", "") if got is not None else None,
                "max_abs": None, "max_rel": None, "cosine": None, "atol": None, "rtol": None}
    got = got.detach()
    want = want.detach()
    res = {"shape": list(got.shape), "dtype": str(got.dtype).replace("torch.", ""),
           "max_abs": 0.0, "max_rel": 0.0, "cosine": 1.0, "atol": 0.0, "rtol": 0.0, "why": ""}
    if tuple(got.shape) != tuple(want.shape):
        res.update(ok=False, allclose=False, why=f"shape {list(got.shape)} vs {list(want.shape)}",
                   max_abs=math.inf, max_rel=math.inf, cosine=None)
        return res
    upcast_ok = UPCAST.get(got.dtype) == want.dtype
    if got.dtype != want.dtype and not upcast_ok:
        res.update(ok=False, allclose=False, why=f"dtype {got.dtype} vs {want.dtype}",
                   max_abs=math.inf, max_rel=math.inf, cosine=None)
        return res
    a = got.cpu().to(torch.float64)
    b = want.cpu().to(torch.float64)
    floating = got.is_floating_point()
    atol, rtol = tolerances.get(got.dtype, (0.0, 0.0)) if floating else (0.0, 0.0)
    res["atol"], res["rtol"] = atol, rtol
    if a.numel() == 0:
        res.update(ok=True, allclose=True)
        return res
    nan_a, nan_b = torch.isnan(a), torch.isnan(b)
    both_nan = nan_a & nan_b
    finite = torch.isfinite(a) & torch.isfinite(b)
    diff = torch.where(finite, (a - b).abs(), torch.zeros_like(a))
    special_bad = (nan_a != nan_b) | (~finite & ~both_nan & (a != b))
    rel = diff / b.abs().clamp_min(1e-30)
    rel = torch.where(diff > 0, rel, torch.zeros_like(rel))
    res["max_abs"] = float(diff.max())
    res["max_rel"] = float(rel.max())
    if bool(special_bad.any()):
        res["max_abs"] = res["max_rel"] = math.inf
    af = torch.where(finite, a, torch.zeros_like(a)).reshape(-1)
    bf = torch.where(finite, b, torch.zeros_like(b)).reshape(-1)
    na, nb = float(af.norm()), float(bf.norm())
    res["cosine"] = 1.0 if na == 0 and nb == 0 else (
        0.0 if na == 0 or nb == 0 else float(af.dot(bf) / (na * nb)))
    bad = special_bad | (diff > atol + rtol * b.abs())
    n_bad = int(bad.sum())
    res["mismatched"] = n_bad
    res["numel"] = int(a.numel())
    res["ok"] = res["allclose"] = n_bad == 0
    if n_bad:
        idx = int(bad.reshape(-1).nonzero()[0])
        res["why"] = (f"{n_bad}/{a.numel()} elements off; first at flat index {idx}: "
                      f"device {a.reshape(-1)[idx].item()!r} vs cpu {b.reshape(-1)[idx].item()!r}")
    return res


def compare_grads(grad_inputs, dev_grads, cpu_grads, tolerances: dict, upcast: bool, label):
    """compare() of each input gradient (an unused input's None as zeros on its side);
    `label(n, tensor)` names result n. Returns (results, device grads, CPU grads)."""
    results, devs, cpus = [], [], []
    for n, (t, d, c) in enumerate(zip(grad_inputs, dev_grads, cpu_grads)):
        if d is None and c is not None:
            d = torch.zeros_like(t)
        if c is None and d is not None:
            c = torch.zeros(d.shape, dtype=UPCAST.get(d.dtype, d.dtype) if upcast else d.dtype)
        r = compare(d, c, tolerances)
        r["tensor"] = label(n, t)
        results.append(r)
        devs.append(d)
        cpus.append(c)
    return results, devs, cpus


def referee_results(results: list[dict], got: list, want: list, exact_fn, tolerances: dict,
                    mode: str | None, op: str) -> dict:
    """The referee's verdict on one check of `op` (referee.py): each result of `compare()` that
    is not allclose is judged against the float64 rerun -- `exact_fn()`, called at most once and
    only then, returns its tensors in the order of `got` / `want` -- and gets `verdict`,
    `device_cpu`, `device_float64`, `cpu_float64` (and `reference`: why there is none).
    Returns the combined verdict of the check."""
    exact, why_none = None, (None if mode else "reference mode off")
    if short_name(op) in RANDOM:    # (selected by name) its float64 rerun draws other numbers
        why_none = "a random op has no float64 reference"
    judged = []
    for i, (r, g, w) in enumerate(zip(results, got, want)):
        if r["ok"]:
            r["verdict"] = referee.PASS
            continue
        if g is None or w is None or not referee.refereeable(g) or r.get("max_abs") is None:
            why = "no float64 reference for this result"   # missing, integer, shape differs
        else:
            why = why_none
            if exact is None and why is None:
                try:
                    exact = exact_fn()
                except Exception as err:  # noqa: BLE001 - no float64 kernel: the device is blamed
                    text = str(err).strip()
                    why_none = why = "float64 rerun failed: " + (
                        text.splitlines()[0][:200] if text else type(err).__name__)
        ref64 = exact[i] if exact is not None and i < len(exact) and why is None else None
        if g is None or w is None:
            j = {"verdict": referee.FAIL, "device_cpu": None, "device_float64": None,
                 "cpu_float64": None}
        else:
            atol, rtol = tolerances.get(g.dtype, (0.0, 0.0))
            j = referee.judge(g, w, ref64, atol, rtol)
        if ref64 is None:
            j["reference"] = why
        r.update(j)
        judged.append(j)
    return referee.combine(judged)


def failed(r: dict) -> bool:
    """Whether one compared tensor fails: not allclose to the CPU, and not cleared by the
    referee (verdict device_closer / within_float64)."""
    return referee.failing(r["verdict"]) if "verdict" in r else not r["ok"]


def worst(results: list[dict]) -> dict:
    """The most telling metrics of several tensors: failed first, then those the referee
    cleared, then largest max_rel."""
    if not results:
        return {}

    def key(r):
        rel = r.get("max_rel")
        return (not failed(r), bool(r.get("ok")), -(rel if rel is not None else -1.0))
    return sorted(results, key=key)[0]


def fmt(v, spec: str = ".3g") -> str:
    if v is None:
        return "-"
    if isinstance(v, float) and math.isinf(v):
        return "inf"
    return format(v, spec)
