"""OpAutoCompare: run every selected op on the device and on CPU copies of its inputs, and
compare — forward results as they come, and (per op, through bridge.py) the gradients of its
inputs in backward, the CPU backward fed with the very gradient the device op received.

    with OpAutoCompare("compare/"):
        loss = model(x); loss.backward()

16-bit floats are computed in float32 on the CPU (`upcast`, default on) and compared with
the tolerance of the device dtype (compare.DEFAULT_TOLERANCES; `tolerances=` or
OPWEAVE_TOOLS_TOLERANCES="float32=1e-4:1e-4,..." override). Random ops and ops with
undefined results (empty, new_empty, ...) are skipped unless included by name.

Where the device and the CPU disagree, the float64 referee (opweave/referee.py; `reference=`
"float64", the default, or "none"; OPWEAVE_REFERENCE) reruns the op -- and for a
backward check its backward -- on the CPU in float64 and says which side is closer: a check
whose device result is closer to float64 than the CPU's (`device_closer`), or within
tolerance of it (`within_float64`), is reported with its distances but does not fail.

Output directory (argument, OPWEAVE_TOOLS_AUTOCOMPARE_DIR, or ./opweave_autocompare):

    autocompare.jsonl   one line per check: seq, op, pass (forward|backward), status
                        (ok|FAIL|error), verdict (pass|within_float64|device_closer|fail),
                        device_cpu / device_float64 / cpu_float64 (in units of the
                        tolerance), worst max_abs/max_rel/cosine, per-tensor metrics,
                        the saved case of a failure
    autocompare.csv     one row per compared tensor: seq,op,pass,status,tensor,shape,dtype,
                        allclose,max_abs,max_rel,cosine,atol,rtol,case,verdict,device_cpu,
                        device_float64,cpu_float64
    failures/<seq>-<op>[.backward].safetensors   the failing call as a record (record.py):
                        inputs, device and CPU results, and for backward the output gradient
                        and both input gradients — `opweave-replay` re-runs it.
"""

from __future__ import annotations

import csv
import json
import os
import sys

import torch

from .. import referee
from . import bridge, compare, record, tensorfile
from ._base import RANDOM, UNINITIALISED, OpTool, flatten_tensors, is_mutating

CSV_FIELDS = ["seq", "op", "pass", "status", "tensor", "shape", "dtype", "allclose", "max_abs",
              "max_rel", "cosine", "atol", "rtol", "case", "verdict", "device_cpu",
              "device_float64", "cpu_float64"]
DISTANCES = ("device_cpu", "device_float64", "cpu_float64")


class OpMismatch(AssertionError):
    """Raised by fail_fast=True at the first failing check."""


def _labels(args, kwargs) -> dict[int, str]:
    labels: dict[int, str] = {}

    def walk(v, path):
        if isinstance(v, torch.Tensor):
            labels.setdefault(id(v), path)
        elif isinstance(v, (list, tuple)):
            for i, x in enumerate(v):
                walk(x, f"{path}[{i}]")
    for i, a in enumerate(args):
        walk(a, f"arg{i}")
    for k, v in kwargs.items():
        walk(v, k)
    return labels


class OpAutoCompare(OpTool):
    TOOL = "AUTOCOMPARE"
    DEFAULT_EXCLUDE = UNINITIALISED | RANDOM

    def __init__(self, directory: str | None = None, include=None, exclude=None,
                 tolerances=None, backward: bool = True, upcast: bool = True,
                 save_failures: bool = True, verbose: bool = True, fail_fast: bool = False,
                 reference: str | None = None):
        super().__init__(include, exclude)
        self.reference = referee.mode(reference)
        self.directory = (directory or os.environ.get("OPWEAVE_TOOLS_AUTOCOMPARE_DIR")
                          or "opweave_autocompare")
        self.tolerances = compare.tolerances_from_env(tolerances)
        self.backward = backward
        self.upcast = upcast
        self.save_failures = save_failures
        self.verbose = verbose
        self.fail_fast = fail_fast
        self.seq = 0
        self.stats: dict[str, dict] = {}
        self._failures: list[dict] = []
        self._disagreements: list[dict] = []

    # ---- report files ----
    @property
    def jsonl_path(self) -> str:
        return os.path.join(self.directory, "autocompare.jsonl")

    @property
    def csv_path(self) -> str:
        return os.path.join(self.directory, "autocompare.csv")

    def _on_start(self) -> None:
        os.makedirs(self.directory, exist_ok=True)
        open(self.jsonl_path, "w").close()
        with open(self.csv_path, "w", newline="") as f:
            csv.writer(f).writerow(CSV_FIELDS)

    def _on_stop(self) -> None:
        if self.verbose:
            self.print_summary()

    def _report(self, seq, name, which, results, why="", case=None, judged=None) -> dict:
        failed = bool(why) or any(compare.failed(r) for r in results)
        status = "error" if why and not results else ("FAIL" if failed else "ok")
        judged = judged or {"verdict": referee.FAIL if failed else referee.PASS}
        verdict = referee.FAIL if failed else judged["verdict"]
        w = compare.worst(results)
        row = {"seq": seq, "op": name, "pass": which, "status": status, "verdict": verdict,
               **{k: judged.get(k) for k in DISTANCES},
               "max_abs": w.get("max_abs"), "max_rel": w.get("max_rel"), "cosine": w.get("cosine"),
               "tensors": results, "case": case,
               "why": (why or f"{w.get('tensor', '?')}: {w.get('why', '')}")
               if failed or verdict != referee.PASS else ""}
        if status != "ok":
            self._failures.append(row)
        if verdict != referee.PASS or status != "ok":
            self._disagreements.append(row)
        st = self.stats.setdefault(name, {"forward": [0, 0], "backward": [0, 0], "errors": 0,
                                          "max_rel": 0.0, referee.CLOSER: 0, referee.WITHIN: 0})
        if status == "error":
            st["errors"] += 1
        else:
            st[which][0] += 1
            st[which][1] += int(failed)
            if verdict in (referee.CLOSER, referee.WITHIN):
                st[verdict] += 1
            if w.get("max_rel") is not None:
                st["max_rel"] = max(st["max_rel"], w["max_rel"])
        with open(self.jsonl_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row, sort_keys=True, default=str) + "\n")
        with open(self.csv_path, "a", newline="") as f:
            writer = csv.writer(f)
            for r in results or [{}]:
                r_status = status if not results else ("FAIL" if compare.failed(r) else "ok")
                writer.writerow([seq, name, which, r_status, r.get("tensor", ""),
                                 "x".join(map(str, r.get("shape") or [])), r.get("dtype", ""),
                                 r.get("allclose", ""), compare.fmt(r.get("max_abs"), ".6g"),
                                 compare.fmt(r.get("max_rel"), ".6g"),
                                 compare.fmt(r.get("cosine"), ".8f"), r.get("atol", ""),
                                 r.get("rtol", ""), case or "",
                                 r.get("verdict", verdict if not results else ""),
                                 *(compare.fmt(r.get(k), ".4g") if r.get(k) is not None else ""
                                   for k in DISTANCES)])
        if (failed or verdict != referee.PASS) and self.verbose:
            print(f"[opweave.tools] autocompare {status if failed else verdict} {which} #{seq} "
                  f"{name}: {row['why']} (max abs {compare.fmt(w.get('max_abs'))}, max rel "
                  f"{compare.fmt(w.get('max_rel'))}, cosine {compare.fmt(w.get('cosine'), '.6f')}"
                  f"; {referee.fmt({**judged, 'verdict': verdict})})"
                  + (f" -> {case}" if case else ""), file=sys.stderr)
        if failed and self.fail_fast:
            raise OpMismatch(f"autocompare {which} #{seq} {name}: {row['why']}")
        return row

    def _save(self, seq, name, which, args, kwargs, snapshot, out, ref, extra_tensors,
              failure: str) -> str | None:
        if not self.save_failures:
            return None
        try:
            in_enc, call = record.encode_call(
                name, args, kwargs, snapshot=lambda t: snapshot.get(id(t), t.detach().cpu()))
            out_enc, outputs = record.encode_outputs(out)
            extra = {f"ref.{i}": t for i, t in enumerate(flatten_tensors(ref))}
            extra.update(extra_tensors)
            tensors, meta = record.make_record(name, seq, in_enc, call, out_enc, outputs,
                                               extra, {"failure": failure, "pass": which})
            stem = record.file_stem(seq, name) + (".backward" if which == "backward" else "")
            path = os.path.join(self.directory, "failures", stem + ".safetensors")
            tensorfile.save(path, tensors, meta)
            return path
        except Exception as e:  # noqa: BLE001 - a report must not break the training run
            print(f"[opweave.tools] autocompare: could not save #{seq} {name}: {e}", file=sys.stderr)
            return None

    # ---- the op ----
    def _op(self, func, name, args, kwargs, device):
        self.seq += 1
        seq = self.seq
        mutating = is_mutating(name, kwargs)
        snapshot = {}
        for t in flatten_tensors((args, kwargs)):
            if id(t) not in snapshot:   # values before the call (in-place ops change them)
                snapshot[id(t)] = t.detach().cpu() if t.device.type != "cpu" else t.detach().clone()
        grad_inputs = bridge.bridgeable(args, kwargs, mutating, name) if self.backward else []
        state = None
        if grad_inputs:
            out, state = bridge.run(self, func, args, kwargs, grad_inputs, None, device)
            if out is None:             # a view: keep it a view of its base, no backward check
                state = None
                out = func(*args, **kwargs)
        else:
            out = func(*args, **kwargs)

        with self.busy():
            try:
                grad_ids = {id(t) for t in grad_inputs} if state is not None else set()
                ref_args, ref_kwargs, leaves = compare.to_reference(args, kwargs, snapshot,
                                                                    self.upcast, grad_ids)
                with torch.set_grad_enabled(state is not None):
                    ref = func(*ref_args, **ref_kwargs)
            except Exception as e:  # noqa: BLE001 - the reference may not exist on CPU
                text = str(e).strip()
                msg = text.splitlines()[0][:200] if text else type(e).__name__
                self._report(seq, name, "forward", [], why=f"CPU reference failed: {msg}")
                return out
            got, want = flatten_tensors(out), flatten_tensors(ref)
            results = []
            why = ""
            if len(got) != len(want):
                why = f"{len(got)} tensor results on the device, {len(want)} on CPU"
            for i, (g, w) in enumerate(zip(got, want)):
                r = compare.compare(g, w, self.tolerances)
                r["tensor"] = f"out{i}"
                results.append(r)
            if not got and not want and out != ref:
                if not (isinstance(out, float) and isinstance(ref, float)
                        and abs(out - ref) <= 1e-6 * max(1.0, abs(ref))):
                    why = f"result {out!r} vs cpu {ref!r}"
            failed = bool(why) or any(not r["ok"] for r in results)
            judged = None
            if failed and not why:   # the device and the CPU disagree: which one is wrong?
                judged = compare.referee_results(
                    results, got, want,
                    lambda: compare.float64_outputs(func, args, kwargs, snapshot),
                    self.tolerances, self.reference, name)
                failed = any(compare.failed(r) for r in results)
            case = None
            if failed:
                case = self._save(seq, name, "forward", args, kwargs, snapshot, out, ref, {},
                                  why or compare.worst(results).get("why", ""))
            self._report(seq, name, "forward", results, why=why, case=case, judged=judged)

        if state is not None:
            req = [i for i, o in enumerate(state.local_outputs) if o.requires_grad]
            labels = _labels(args, kwargs)

            def on_backward(grads, dev_grads, _seconds):
                # (no reference to `out` here: it would tie the graph into a cycle)
                self._check_backward(seq, func, name, args, kwargs, snapshot, ref, grad_inputs,
                                     want, leaves, req, labels, grads, dev_grads)
            state.on_backward = on_backward
        return out

    def _check_backward(self, seq, func, name, args, kwargs, snapshot, ref, grad_inputs, want,
                        leaves, req, labels, grads, dev_grads) -> None:
        try:
            if not all(i < len(want) and want[i].requires_grad for i in req):
                raise RuntimeError("the CPU reference outputs do not require grad like the device's")
            cpu_leaves = [leaves[id(t)] for t in grad_inputs]
            cpu_grads = torch.autograd.grad(
                [want[i] for i in req], cpu_leaves,
                [grads[i].detach().cpu().to(want[i].dtype) for i in req], allow_unused=True)
        except Exception as e:  # noqa: BLE001
            self._report(seq, name, "backward", [], why=f"CPU backward failed: {e}")
            return
        results, devs, cpus = compare.compare_grads(
            grad_inputs, dev_grads, cpu_grads, self.tolerances, self.upcast,
            lambda _n, t: f"grad({labels.get(id(t), '?')})")
        failed = any(not r["ok"] for r in results)
        judged = None
        if failed:
            judged = compare.referee_results(
                results, devs, cpus,
                lambda: compare.float64_grads(func, args, kwargs, snapshot, grad_inputs, req,
                                              grads),
                self.tolerances, self.reference, name)
            failed = any(compare.failed(r) for r in results)
        case = None
        if failed:
            in_enc, _ = record.encode_call(name, args, kwargs, snapshot=lambda t: snapshot[id(t)])
            extra = {f"grad_out.{i}": grads[i] for i in req}
            for t, d, c in zip(grad_inputs, dev_grads, cpu_grads):
                key = in_enc._ids.get(id(t))
                if key:
                    extra["grad_" + key] = d          # grad_in.<k>
                    extra["ref_grad_" + key] = c      # ref_grad_in.<k>
            case = self._save(seq, name, "backward", args, kwargs, snapshot, None, ref, extra,
                              compare.worst(results).get("why", ""))
        self._report(seq, name, "backward", results, case=case, judged=judged)

    # ---- results ----
    def failures(self) -> list[dict]:
        """Report rows (as in autocompare.jsonl) of the checks that failed or errored."""
        return list(self._failures)

    def disagreements(self) -> list[dict]:
        """Report rows of every check where the device and the CPU disagreed: the failures and
        those the float64 referee cleared (verdict device_closer / within_float64)."""
        return list(self._disagreements)

    def summary(self) -> dict:
        """{op: {"forward": [checked, failed], "backward": [checked, failed], "errors": n,
        "max_rel": worst, "device_closer": n, "within_float64": n}} (the last two: checks
        that disagreed with the CPU and that the float64 referee cleared)"""
        return {k: {kk: (list(vv) if isinstance(vv, list) else vv) for kk, vv in v.items()}
                for k, v in self.stats.items()}

    def print_summary(self, file=None) -> None:
        file = file or sys.stderr
        fwd = sum(v["forward"][0] for v in self.stats.values())
        bwd = sum(v["backward"][0] for v in self.stats.values())
        bad = [(k, v) for k, v in self.stats.items()
               if v["forward"][1] or v["backward"][1] or v["errors"]]
        print(f"[opweave.tools] autocompare: {fwd} forward and {bwd} backward checks of "
              f"{len(self.stats)} ops, {len(bad)} ops with failures; report {self.csv_path}",
              file=file)
        for k, v in sorted(bad):
            print(f"[opweave.tools]   FAIL {k:<40} forward {v['forward'][1]}/{v['forward'][0]}, "
                  f"backward {v['backward'][1]}/{v['backward'][0]}"
                  + (f", {v['errors']} CPU reference errors" if v["errors"] else ""), file=file)
        for k, v in sorted(self.stats.items()):
            cleared = v[referee.CLOSER] + v[referee.WITHIN]
            if cleared:
                print(f"[opweave.tools]   cleared by float64 {k:<27} {cleared} of "
                      f"{v['forward'][0] + v['backward'][0]} checks differ from CPU, device not "
                      f"farther from float64 ({v[referee.CLOSER]} device_closer, "
                      f"{v[referee.WITHIN]} within_float64)", file=file)
