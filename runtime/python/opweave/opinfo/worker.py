"""Runs OpInfo entries on the device, one after another, in this process.

    python3 -m opweave.opinfo.worker ITEMS_FILE      (one `DTYPE MODE OP` per line)

prints `{"start": [dtype, mode, op]}` before each item and one result line after it, so the
driver can pin a crash on the item in flight. Items of several configurations share the
process: one torch and op_db import (3-7 s) for all of them. Per op, for each sample (at most
MAX_SAMPLES): run it on the CPU (twice, with different seeds, to tell random ops), copy it to
the device, run it there, compare; in MODE grad, also take the input gradients of a weighted
sum of the outputs on both sides and compare them. The op's outcome is its worst sample's;
`fallback` lists the ATen ops that ran on the CPU through OpWeave's fallback during its device
runs.
"""

from __future__ import annotations

import json
import sys
import time
import warnings

import torch

from . import RANK
from .. import referee
from .compare import TOLERANCES, Mismatch, check, flatten, same, to_device
from .database import by_key
from .declared import declared_failure
from .ties import tie_equivalent

MAX_SAMPLES = 12
MODES = ("forward", "grad", "noncontig")


class _Declined(Exception):
    """The sample does not apply (the CPU rejects it, or it has nothing to differentiate)."""


def _call(op, sample):
    return op(sample.input, *sample.args, **sample.kwargs)


def _grad_leaves(sample) -> list:
    return [t for _, t in flatten([sample.input, list(sample.args), sample.kwargs])
            if isinstance(t, torch.Tensor) and t.requires_grad]


def _weighted_sum(result, weights):
    return sum((o * w).sum() for o, w in zip(result, weights))


def _differentiable(sample, result) -> list:
    result = sample.output_process_fn_grad(result)
    return [t for _, t in flatten(result)
            if isinstance(t, torch.Tensor) and t.requires_grad and t.dtype.is_floating_point]


def random_output(op) -> bool:
    """Whether an op's output is random or uninitialized, so only its metadata can be compared.
    OpInfo wraps random ops in `wrapper_set_seed` (the CPU then repeats itself, but the device
    has its own generator); `empty*` ops return uninitialized memory."""
    code = getattr(op.op, "__code__", None)
    return "empty" in op.name or bool(code and "wrapper_set_seed" in code.co_names)


def _run_sample(op, sample, device, grad: bool, made_for=None) -> set:
    """Compare one sample; return the ATen ops that fell back to the CPU. Raises Mismatch
    (a wrong answer), _Declined, or whatever the device run raised."""
    import opweave
    try:
        torch.manual_seed(0)
        expected = _call(op, sample)
        torch.manual_seed(1)
        random = random_output(op) or not same(expected, _call(op, sample))
    except Exception as e:  # noqa: BLE001  (the sample is invalid on the CPU too)
        raise _Declined(str(e)) from None
    dev_sample = type(sample)(to_device(sample.input, device, getattr(made_for, "input", None)),
                              args=to_device(sample.args, device, getattr(made_for, "args", None)),
                              kwargs=to_device(sample.kwargs, device,
                                               getattr(made_for, "kwargs", None)),
                              output_process_fn_grad=sample.output_process_fn_grad)
    opweave.fallback_stats(reset=True)
    actual = _call(op, dev_sample)
    try:
        check(actual, expected, device.type, random)
    except Mismatch:
        if not (tie_equivalent(op.name, sample, actual, expected)
                or _refereed(op, sample, actual, expected, device)
                or _integer_range_refereed(op, sample, actual)):
            raise
    if grad and not random:
        _check_grads(op, sample, expected, dev_sample, actual, device)
    opweave.synchronize()
    return {name for name, count in opweave.fallback_stats().items() if count}


def _refereed(op, sample, actual, expected, device) -> bool:
    """The float64 referee (opweave/referee.py, shared with the autocompare tools and the
    conformance runner): where the device and the CPU disagree on a float32 / 16-bit result,
    the same op in float64 on the CPU decides. A device result closer to it than the CPU's,
    or within tolerance of it, is right (the CPU's float32 layer_norm cancels digits the
    device keeps)."""
    if not any(referee.refereeable(t) for _, t in flatten(expected)):
        return False
    try:
        exact = _call(op, type(sample)(referee.to_float64(sample.input),
                                       args=referee.to_float64(sample.args),
                                       kwargs=referee.to_float64(sample.kwargs)))
    except Exception:  # noqa: BLE001  (no float64 kernel: the mismatch stands)
        return False
    dev, cpu, ref = flatten(actual), flatten(expected), flatten(exact)
    if not len(dev) == len(cpu) == len(ref):
        return False
    return all(_leaf_refereed(d, c, e, device) for (_, d), (_, c), (_, e) in zip(dev, cpu, ref))


def _leaf_refereed(d, c, e, device) -> bool:
    """One result (or gradient) leaf: it agrees with the CPU's `c`, or the float64 `e` sides
    with it."""
    try:
        check([d], [c], device.type, False)     # this part agrees with the CPU
        return True
    except Mismatch:
        pass
    if not (referee.refereeable(c) and isinstance(d, torch.Tensor)
            and isinstance(e, torch.Tensor) and d.dtype == c.dtype and d.shape == c.shape == e.shape
            and d.device.type == device.type and c.layout == torch.strided):
        return False
    rtol, atol = TOLERANCES[c.dtype]
    return not referee.failing(referee.judge(d.detach().cpu(), c, e, atol, rtol)["verdict"])


def _integer_range_refereed(op, sample, actual) -> bool:
    """linspace / logspace into an integer dtype are the float64 sequence truncated (torch
    2.x's CPU computes exactly that); torch 1.13's vectorized integer kernel is not
    (linspace(-3, 0, 50, dtype=int64) is not even monotone there), so where the device and
    the CPU disagree the float64 sequence decides, exactly."""
    dtype = sample.kwargs.get("dtype")
    if op.name not in ("linspace", "logspace") or not isinstance(actual, torch.Tensor) or \
            dtype is None or dtype.is_floating_point or dtype.is_complex or dtype == torch.bool:
        return False
    exact = type(sample)(sample.input, args=sample.args,
                         kwargs={**sample.kwargs, "dtype": torch.float64})
    try:
        want = _call(op, exact).to(dtype)
    except Exception:  # noqa: BLE001
        return False
    got = actual.cpu()
    return got.dtype == want.dtype and got.shape == want.shape and torch.equal(got, want)


def _check_grads(op, sample, expected, dev_sample, actual, device) -> None:
    outs, dev_outs = _differentiable(sample, expected), _differentiable(dev_sample, actual)
    leaves, dev_leaves = _grad_leaves(sample), _grad_leaves(dev_sample)
    if not outs or not leaves:
        return
    torch.manual_seed(2)
    weights = [torch.randn_like(o) for o in outs]
    try:
        want = torch.autograd.grad(_weighted_sum(outs, weights), leaves, allow_unused=True)
    except Exception as e:  # noqa: BLE001  (no CPU backward for this sample)
        raise _Declined(str(e)) from None
    got = torch.autograd.grad(_weighted_sum(dev_outs, [w.to(device) for w in weights]),
                              dev_leaves, allow_unused=True)
    try:
        check(list(got), list(want), device.type, False)
    except Mismatch as e:
        if not _grads_refereed(op, sample, weights, got, want, device):
            raise Mismatch(f"gradient {e}") from None


def _lift(value):
    """A sample argument in float64 for the referee, its grad-requiring tensors as fresh
    float64 leaves."""
    if isinstance(value, torch.Tensor):
        lifted = referee.to_float64(value)
        if value.requires_grad and lifted.is_floating_point():
            lifted = lifted.detach().requires_grad_()
        return lifted
    if isinstance(value, (list, tuple)) and not isinstance(value, torch.Size):
        items = [_lift(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, dict):
        return {k: _lift(v) for k, v in value.items()}
    return referee.to_float64(value)


def _grads_refereed(op, sample, weights, got, want, device) -> bool:
    """The float64 referee for input gradients, as for forward results: each gradient the
    device and the CPU disagree on is judged against the same weighted backward in float64."""
    try:
        exact_sample = type(sample)(_lift(sample.input), args=_lift(sample.args),
                                    kwargs=_lift(sample.kwargs),
                                    output_process_fn_grad=sample.output_process_fn_grad)
        outs = _differentiable(exact_sample, _call(op, exact_sample))
        leaves = _grad_leaves(exact_sample)
        if len(outs) != len(weights) or len(leaves) != len(want):
            return False
        exact = torch.autograd.grad(_weighted_sum(outs, [w.double() for w in weights]), leaves,
                                    allow_unused=True)
    except Exception:  # noqa: BLE001  (no float64 backward: the mismatch stands)
        return False
    return all(_leaf_refereed(d, c, e, device) for d, c, e in zip(got, want, exact))


def _made_for_device(op, dtype, grad: bool, mode: str, count: int):
    """The samples as made for a device other than the CPU (the meta device: no data), or
    None. A sample function puts on the CPU what must stay there whatever the device
    (tensor_split's tensor of indices, made with torch.tensor()); comparing placements tells
    the runner which tensors the device run gets."""
    try:
        torch.manual_seed(0)
        made = []
        for sample in op.sample_inputs("meta", dtype, requires_grad=grad):
            made.append(sample.noncontiguous() if mode == "noncontig" else sample)
            if len(made) == count:
                break
    except Exception:  # noqa: BLE001  (a sample function that computes: move every tensor)
        return None
    return made if len(made) == count else None


def run_op(op, dtype, mode: str, device) -> dict:
    if dtype not in op.supported_dtypes("cpu"):
        return {"outcome": "skip", "detail": f"{dtype} not supported on the CPU"}
    declared = declared_failure(op, mode, dtype, device.type)
    if declared:
        return {"outcome": "skip", "detail": declared}
    grad = mode == "grad"
    if grad and not (op.supports_autograd and (dtype.is_floating_point or dtype.is_complex)):
        return {"outcome": "skip", "detail": "no gradient"}
    torch.manual_seed(0)
    try:
        samples = []
        for sample in op.sample_inputs("cpu", dtype, requires_grad=grad):
            samples.append(sample.noncontiguous() if mode == "noncontig" else sample)
            if len(samples) == MAX_SAMPLES:
                break
    except Exception as e:  # noqa: BLE001
        return {"outcome": "skip", "detail": f"no samples: {_first_line(e)}"}
    placed = _made_for_device(op, dtype, grad, mode, len(samples))
    outcome, detail, fallback, ran = "pass", "", set(), 0
    for i, sample in enumerate(samples):
        try:
            fallback |= _run_sample(op, sample, device, grad, placed[i] if placed else None)
            ran += 1
            continue
        except _Declined:
            continue
        except Mismatch as e:
            found, text = "mismatch", f"sample {i}: {e}"
        except Exception as e:  # noqa: BLE001  (the device run raised: an error outcome)
            found, text = "error", f"sample {i}: {type(e).__name__}: {_first_line(e)}"
        if RANK[found] > RANK[outcome]:
            outcome, detail = found, text
    if ran == 0 and outcome == "pass":
        return {"outcome": "skip", "detail": "no sample runs on the CPU"}
    if outcome == "pass" and fallback:
        outcome = "fallback"
    return {"outcome": outcome, "detail": detail, "fallback": sorted(fallback)}


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0][:300] if text else ""


def _seed_only_present_devices() -> None:
    """torch.manual_seed (OpInfo seeds before every sample, the runner twice per CPU run) also
    seeds CUDA and XPU; where one is absent, torch 2.x queues the seed for a later
    initialisation together with a formatted stack (`traceback.format_stack`), which cost 75% of
    an op's time on torch 2.6 (cProfile, 120 ops, float32 noncontig: 3.4 of 4.4 s). This
    process never initialises such a device, so that seed has nothing to reach."""
    for name in ("cuda", "xpu"):
        module = getattr(torch, name, None)
        if module is not None and hasattr(module, "manual_seed_all") \
                and not module.is_available():
            module.manual_seed_all = lambda seed: None


def main(argv) -> int:
    (items_file,) = argv
    warnings.simplefilter("ignore")
    _seed_only_present_devices()
    import opweave
    device = opweave.device(0)
    ops = by_key()
    with open(items_file) as f:
        items = [line.split() for line in f if line.strip()]
    for dtype_name, mode, name in items:
        print(json.dumps({"start": [dtype_name, mode, name]}), flush=True)
        start = time.perf_counter()
        result = run_op(ops[name], getattr(torch, dtype_name), mode, device)
        result.update(op=name, dtype=dtype_name, mode=mode,
                      seconds=round(time.perf_counter() - start, 3))
        print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
