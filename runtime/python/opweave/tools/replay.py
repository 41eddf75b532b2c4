"""opweave-replay: re-run captured op calls from disk on the device — accuracy against CPU
(forward, and backward where the capture holds the output gradients) and timing.

    python3 -m opweave.tools.replay capture/                 # every record of a capture
    python3 -m opweave.tools.replay capture/ --op linear --unique --repeat 50
    python3 -m opweave.tools.replay compare/failures/000005-linear.backward.safetensors
    runtime/python/bin/opweave-replay ...                     # the same, as a command

A record (record.py) is rebuilt exactly: inputs with their dtype, shape and strides (a
transposed weight stays transposed), on `--device`; requires_grad where the captured call
had it. Per record:

  forward   device result vs the CPU reference (16-bit floats computed in float32 on CPU),
            allclose with the per-dtype tolerance, max abs, max rel, cosine; also the
            largest difference from the result stored in the capture ("vs capture": the
            same device should reproduce itself)
  backward  with the captured gradient of the outputs: input gradients on the device vs
            CPU autograd fed with the same gradient
  referee   where the device and the CPU disagree, the op (and its backward) again on the
            CPU in float64 (`--reference float64`, the default; `none` turns it off): a
            result closer to float64 than the CPU's is `device_closer`, not a failure
            (opweave/referee.py); the verdict and its three distances are in the table
  timing    `--repeat N` synchronised runs after `--warmup K`: median / mean / min us,
            forward and (where it applies) backward

Exit status 1 when any record fails, 2 on a usage error. `--json FILE` writes all results.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import torch

from .. import referee
from . import compare, record
from ._base import flatten_tensors, is_mutating, sync
from .capture import records as list_records


def _unique_key(rec: record.Record) -> str:
    info = {k: (v["dtype"], v["shape"], v["stride"]) for k, v in rec.info.items()
            if k.startswith("in.")}
    scalars = json.dumps(rec.call, sort_keys=True)
    return json.dumps([rec.op, info, scalars, sorted(rec.grad_outputs())], sort_keys=True)


def _timeit(fn, repeat: int, warmup: int, device, prepare=None) -> dict:
    times = []
    for i in range(warmup + repeat):
        state = prepare() if prepare else None
        sync(device)
        t0 = time.perf_counter()
        fn(state)
        sync(device)
        if i >= warmup:
            times.append((time.perf_counter() - t0) * 1e6)
    if not times:
        return {}
    return {"n": len(times), "median_us": statistics.median(times),
            "mean_us": statistics.fmean(times), "min_us": min(times)}


def replay_record(path: str, device, repeat: int = 10, warmup: int = 2, backward: bool = True,
                  tolerances=None, upcast: bool = True, rec: record.Record | None = None,
                  reference: str | None = None) -> dict:
    """Replay one record file; returns its result (status ok | FAIL | skip | error; verdict
    pass | within_float64 | device_closer | fail, see referee.py)."""
    tolerances = compare.parse_tolerances(tolerances) if not isinstance(tolerances, dict) else tolerances
    mode = referee.mode(reference)
    rec = rec or record.Record(path)
    res = {"file": path, "seq": rec.seq, "op": rec.op, "status": "ok", "why": "",
           "verdict": None, "forward": [], "backward": [], "vs_capture_max_abs": None,
           "timing": {}}
    if not rec.replayable:
        res.update(status="skip", why=f"not replayable: {rec.meta.get('unsupported', '?')}")
        return res
    mutating = is_mutating(rec.op, rec.call.get("kwargs", {}))
    grads = rec.grad_outputs() if backward and not mutating else {}
    try:
        inputs = record.build_inputs(rec, device, requires_grad=bool(grads))
        func, args, kwargs = record.build_call(rec, inputs, device)
        snapshot = {id(inputs[k]): rec.tensors[k] for k in inputs}
        grad_inputs = []
        for t in flatten_tensors((args, kwargs)):
            if t.requires_grad and all(t is not g for g in grad_inputs):
                grad_inputs.append(t)
        with torch.set_grad_enabled(bool(grads)):
            out = func(*args, **kwargs)
        got = flatten_tensors(out)
        ref_args, ref_kwargs, leaves = compare.to_reference(
            args, kwargs, snapshot, upcast, {id(t) for t in grad_inputs})
        with torch.set_grad_enabled(bool(grads)):
            ref = func(*ref_args, **ref_kwargs)
        want = flatten_tensors(ref)
    except Exception as e:  # noqa: BLE001 - report and go on with the next record
        res.update(status="error", why=f"{type(e).__name__}: {str(e).strip().splitlines()[0][:300] if str(e).strip() else ''}")
        return res
    if len(got) != len(want):
        res.update(status="FAIL", why=f"{len(got)} tensor results on the device, {len(want)} on CPU")
    for i, (g, w) in enumerate(zip(got, want)):
        r = compare.compare(g, w, tolerances)
        r["tensor"] = f"out{i}"
        res["forward"].append(r)
        stored = rec.tensors.get(f"out.{i}")
        if stored is not None and stored.shape == g.shape and g.dtype == stored.dtype:
            d = (g.detach().cpu().double() - stored.double()).abs()
            d = float(torch.nan_to_num(d, nan=0.0).max()) if d.numel() else 0.0
            res["vs_capture_max_abs"] = max(res["vs_capture_max_abs"] or 0.0, d)
    judged = {"forward": None, "backward": None}
    if any(not r["ok"] for r in res["forward"]):
        judged["forward"] = compare.referee_results(
            res["forward"], got, want,
            lambda: compare.float64_outputs(func, args, kwargs, snapshot), tolerances, mode,
            rec.op)

    idx = [i for i in sorted(grads) if i < len(got) and got[i].requires_grad]
    if idx and grad_inputs:
        try:
            g_dev = [grads[i].to(device=got[i].device, dtype=got[i].dtype) for i in idx]
            dev_grads = torch.autograd.grad([got[i] for i in idx], grad_inputs, g_dev,
                                            allow_unused=True)
            cpu_grads = torch.autograd.grad(
                [want[i] for i in idx], [leaves[id(t)] for t in grad_inputs],
                [grads[i].to(want[i].dtype) for i in idx], allow_unused=True)
            res["backward"], devs, cpus = compare.compare_grads(
                grad_inputs, dev_grads, cpu_grads, tolerances, upcast, lambda n, _t: f"grad{n}")
            if any(not r["ok"] for r in res["backward"]):
                judged["backward"] = compare.referee_results(
                    res["backward"], devs, cpus,
                    lambda: compare.float64_grads(func, args, kwargs, snapshot, grad_inputs,
                                                  idx, grads), tolerances, mode, rec.op)
        except Exception as e:  # noqa: BLE001
            res.update(status="error", why=f"backward: {type(e).__name__}: {str(e).strip()[:300]}")
            return res

    bad = [r for r in res["forward"] + res["backward"] if compare.failed(r)]
    if bad and res["status"] == "ok":
        res["status"] = "FAIL"
        res["why"] = f"{bad[0]['tensor']}: {bad[0]['why']}"
    res["verdict"] = referee.FAIL if res["status"] == "FAIL" else referee.PASS
    for which in ("forward", "backward"):
        w = compare.worst(res[which])
        j = judged[which] or {}
        res[f"{which}_status"] = (None if not res[which] else
                                  ("FAIL" if any(compare.failed(r) for r in res[which]) else "ok"))
        res[f"{which}_verdict"] = j.get("verdict", referee.PASS if res[which] else None)
        for k in ("device_cpu", "device_float64", "cpu_float64"):
            res[f"{which}_{k}"] = j.get(k)
        if res["status"] != "FAIL" and j:
            res["verdict"] = referee.worst([res["verdict"], j["verdict"]])
            if j["verdict"] != referee.PASS and not res["why"]:
                r = next(r for r in res[which] if r.get("verdict", referee.PASS) != referee.PASS)
                res["why"] = f"{r['tensor']}: {r['why']}"
        res[f"{which}_max_abs"] = w.get("max_abs")
        res[f"{which}_max_rel"] = w.get("max_rel")
        res[f"{which}_cosine"] = w.get("cosine")

    if repeat > 0:
        def fresh():
            ins = record.build_inputs(rec, device, requires_grad=False)
            return record.build_call(rec, ins, device)

        with torch.no_grad():
            call = None if mutating else fresh()
            res["timing"]["forward"] = _timeit(
                lambda c: c[0](*c[1], **c[2]), repeat, warmup, device,
                prepare=fresh if mutating else (lambda: call))
        if idx and grad_inputs:
            def prepare_bwd():
                ins = record.build_inputs(rec, device, requires_grad=True)
                f, a, k = record.build_call(rec, ins, device)
                leaves_ = []
                for t in flatten_tensors((a, k)):
                    if t.requires_grad and all(t is not g for g in leaves_):
                        leaves_.append(t)
                o = flatten_tensors(f(*a, **k))
                g_dev = [grads[i].to(device=o[i].device, dtype=o[i].dtype) for i in idx]
                return [o[i] for i in idx], leaves_, g_dev

            res["timing"]["backward"] = _timeit(
                lambda s: torch.autograd.grad(s[0], s[1], s[2], allow_unused=True),
                repeat, warmup, device, prepare=prepare_bwd)
    return res


def _fmt_us(t: dict) -> str:
    return f"{t['median_us']:.1f}" if t else "-"


def print_table(results: list[dict], file=None) -> None:
    file = file or sys.stdout
    width = max([len(r["op"]) for r in results] + [2])
    print(f"{'seq':>6}  {'op':<{width}}  {'fwd':<5} {'bwd':<5} {'max abs':>9} {'max rel':>9} "
          f"{'cosine':>10} {'vs capture':>10} {'fwd us':>9} {'bwd us':>9}  verdict", file=file)
    for r in results:
        if r["status"] in ("skip", "error"):
            print(f"{r['seq']:>6}  {r['op']:<{width}}  {r['status'].upper():<5} {'':<5} {r['why']}",
                  file=file)
            continue
        rows = r["forward"] + r["backward"]
        w = compare.worst(rows)
        print(f"{r['seq']:>6}  {r['op']:<{width}}  {r['forward_status'] or '-':<5} "
              f"{r['backward_status'] or '-':<5} {compare.fmt(w.get('max_abs')):>9} "
              f"{compare.fmt(w.get('max_rel')):>9} {compare.fmt(w.get('cosine'), '.6f'):>10} "
              f"{compare.fmt(r['vs_capture_max_abs']):>10} "
              f"{_fmt_us(r['timing'].get('forward')):>9} {_fmt_us(r['timing'].get('backward')):>9}"
              f"  {r['verdict']}", file=file)
    for r in results:
        if r["status"] == "FAIL" or r.get("verdict") not in (None, referee.PASS):
            head = "FAIL" if r["status"] == "FAIL" else r["verdict"]
            verdicts = "; ".join(
                f"{which} " + referee.fmt({"verdict": r[f"{which}_verdict"],
                                           **{k: r[f"{which}_{k}"] for k in
                                              ("device_cpu", "device_float64", "cpu_float64")}})
                for which in ("forward", "backward")
                if r.get(f"{which}_verdict") not in (None, referee.PASS))
            print(f"{head} #{r['seq']} {r['op']} ({os.path.basename(r['file'])}): {r['why']}"
                  + (f" [{verdicts}]" if verdicts else ""), file=file)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="opweave-replay", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", help="capture directories and/or record files")
    p.add_argument("--op", help="only ops matching these names/regexes (comma-separated)")
    p.add_argument("--seq", help="only these call numbers (comma-separated)")
    p.add_argument("--unique", action="store_true",
                   help="one record per distinct (op, shapes, dtypes, strides, scalars)")
    p.add_argument("--limit", type=int, help="at most this many records")
    p.add_argument("--repeat", type=int, default=10, help="timed runs per record (0: no timing)")
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--no-backward", action="store_true")
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--tolerances", help='e.g. "float32=1e-4:1e-4,float16=2e-3:2e-3"')
    p.add_argument("--no-upcast", action="store_true", help="CPU reference in the device dtype")
    p.add_argument("--reference", choices=referee.MODES, default=None,
                   help="where device and CPU disagree, referee with the op in float64 on CPU "
                        "(default float64, or $OPWEAVE_REFERENCE)")
    p.add_argument("--json", help="write every result to this file")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    args = p.parse_args(argv)

    import opweave
    from .progress import Progress

    seqs = {int(s) for s in args.seq.split(",")} if args.seq else None
    files = []
    for path in args.paths:
        if not os.path.exists(path):
            print(f"opweave-replay: {path}: no such file or directory", file=sys.stderr)
            return 2
        files += list_records(path, args.op, seqs)
    device = opweave.device(args.device)
    tolerances = compare.tolerances_from_env(args.tolerances)
    recs = []
    seen = set()
    for f in files:
        rec = record.Record(f)
        if args.unique:
            key = _unique_key(rec)
            if key in seen:
                continue
            seen.add(key)
        recs.append(rec)
        if args.limit and len(recs) >= args.limit:
            break
    if not recs:
        print("opweave-replay: no records selected", file=sys.stderr)
        return 2
    print(f"replay: {len(recs)} records on {device} (vendor {opweave.report()['vendor']}), "
          f"repeat {args.repeat}, warmup {args.warmup}", file=sys.stderr)
    bar = Progress(len(recs), "replay", stream=open(os.devnull, "w") if args.quiet else None)
    results = []
    counts = {"ok": 0, "FAIL": 0, "skip": 0, "error": 0}
    for rec in recs:
        r = replay_record(rec.path, device, args.repeat, args.warmup, not args.no_backward,
                          tolerances, not args.no_upcast, rec=rec, reference=args.reference)
        counts[r["status"]] += 1
        bar.set_status(" ".join(f"{k}={v}" for k, v in counts.items() if v))
        bar.step(f"#{rec.seq} {rec.op.rsplit('.', 1)[-1]}")
        results.append(r)
    bar.done(", ".join(f"{v} {k}" for k, v in counts.items()))
    print_table(results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1, default=str)
    return 1 if counts["FAIL"] or counts["error"] else 0


if __name__ == "__main__":
    from opweave.tools.process_exit import exit_now

    exit_now(main())
