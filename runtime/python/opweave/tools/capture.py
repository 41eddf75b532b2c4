"""OpCapture: save every selected op call on the device — inputs, outputs and the gradients
reaching its outputs in backward — to a directory, for replay and for conformance cases.

    with OpCapture("capture/", include="linear,relu,cross_entropy"):
        loss = model(x); loss.backward()

The directory:

    capture.json                  session header: format, torch, vendor, filters, limits
    index.jsonl                   one JSON line per event, appended as they happen:
        {"kind": "call", "seq": 3, "op": "torch.nn.functional.linear", "file": "000003-linear.safetensors",
         "bytes": 9056, "inputs": [["float32", [64, 20]], ...], "outputs": [...], "requires_grad": true}
        {"kind": "grad_out", "seq": 3, "output": 0, "file": "000003-linear.grad_out0.safetensors", "bytes": ...}
        {"kind": "skipped", "seq": 9, "op": ..., "reason": "size cap (max_bytes=...) reached"}
    000003-linear.safetensors     the call record (record.py: in.<k>, out.<k>, call metadata)
    000003-linear.grad_out0.safetensors   grad_out.0, written when backward reaches the output

Selection: include / exclude (names or regexes, see OpFilter) from the arguments or
OPWEAVE_TOOLS_CAPTURE_INCLUDE / _EXCLUDE (else OPWEAVE_TOOLS_INCLUDE / _EXCLUDE). Limits:
`max_bytes` for all files together (OPWEAVE_TOOLS_CAPTURE_MAX_BYTES, "512M" style, default
1G), `max_calls_per_op` (OPWEAVE_TOOLS_CAPTURE_MAX_CALLS_PER_OP, default unlimited). The
directory defaults to OPWEAVE_TOOLS_CAPTURE_DIR or ./opweave_capture. Starting a capture on
a directory that holds an earlier one replaces it (only files this tool writes are removed).
"""

from __future__ import annotations

import glob
import json
import os
import re
import sys
import time

import torch

from . import record, tensorfile
from ._base import RANDOM, UNINITIALISED, OpTool, flatten_tensors, short_name
from .progress import Ticker

INDEX = "index.jsonl"
HEADER = "capture.json"
CAPTURE_FORMAT = "opweave-capture-1"


def parse_size(value) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, (int, float)):
        return int(value)
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)i?[bB]?\s*", str(value))
    if not m:
        raise ValueError(f"bad size {value!r} (use e.g. 4096, 64M, 1G)")
    return int(float(m.group(1)) * 1024 ** " KMGT".index(m.group(2).upper() or " "))


class OpCapture(OpTool):
    TOOL = "CAPTURE"
    DEFAULT_EXCLUDE = UNINITIALISED

    def __init__(self, directory: str | None = None, include=None, exclude=None,
                 max_bytes=None, max_calls_per_op: int | None = None, grads: bool = True,
                 progress: bool | None = None):
        super().__init__(include, exclude)
        self.directory = directory or os.environ.get("OPWEAVE_TOOLS_CAPTURE_DIR") or "opweave_capture"
        env_bytes = os.environ.get("OPWEAVE_TOOLS_CAPTURE_MAX_BYTES")
        self.max_bytes = parse_size(max_bytes if max_bytes is not None else env_bytes) or (1 << 30)
        env_calls = os.environ.get("OPWEAVE_TOOLS_CAPTURE_MAX_CALLS_PER_OP")
        self.max_calls_per_op = max_calls_per_op if max_calls_per_op is not None else (
            int(env_calls) if env_calls else None)
        self.grads = grads
        self.seq = 0
        self.bytes = 0
        self.calls: dict[str, int] = {}
        self.skipped = 0
        self.files = 0
        self._ticker = Ticker("capture", enabled=progress)

    # ---- session ----
    def _on_start(self) -> None:
        os.makedirs(self.directory, exist_ok=True)
        for old in glob.glob(os.path.join(self.directory, "[0-9]" * 6 + "-*.safetensors")):
            os.unlink(old)
        for name in (INDEX, HEADER):
            path = os.path.join(self.directory, name)
            if os.path.exists(path):
                os.unlink(path)
        import opweave
        header = {"format": CAPTURE_FORMAT, "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
                  "torch": torch.__version__, "vendor": opweave.report()["vendor"],
                  "record_format": record.FORMAT, "include": self.filter.include,
                  "exclude": self.filter.exclude, "max_bytes": self.max_bytes,
                  "max_calls_per_op": self.max_calls_per_op}
        with open(os.path.join(self.directory, HEADER), "w", encoding="utf-8") as f:
            json.dump(header, f, indent=1)
            f.write("\n")

    def _on_stop(self) -> None:
        self._ticker.done(f"{self.files} files, {self.bytes / 1e6:.2f} MB, "
                          f"{sum(self.calls.values())} calls of {len(self.calls)} ops"
                          + (f", {self.skipped} skipped" if self.skipped else "")
                          + f" in {self.directory}")

    def _index(self, entry: dict) -> None:
        with open(os.path.join(self.directory, INDEX), "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")

    def _write(self, stem: str, tensors: dict, meta: dict) -> int | None:
        blob = tensorfile.dumps(tensors, meta)
        if self.bytes + len(blob) > self.max_bytes:
            return None
        with open(os.path.join(self.directory, stem + ".safetensors"), "wb") as f:
            f.write(blob)
        self.bytes += len(blob)
        self.files += 1
        return len(blob)

    # ---- the op ----
    def _op(self, func, name, args, kwargs, device):
        n = self.calls.get(name, 0)
        if self.max_calls_per_op is not None and n >= self.max_calls_per_op:
            return func(*args, **kwargs)
        self.seq += 1
        seq = self.seq
        in_enc, call = record.encode_call(name, args, kwargs)    # values before the call
        out = func(*args, **kwargs)
        out_enc, outputs = record.encode_outputs(out)
        tensors, meta = record.make_record(name, seq, in_enc, call, out_enc, outputs)
        stem = record.file_stem(seq, name)
        size = self._write(stem, tensors, meta)
        if size is None:
            self.skipped += 1
            self._index({"kind": "skipped", "seq": seq, "op": name,
                         "reason": f"size cap (max_bytes={self.max_bytes}) reached"})
            return out
        self.calls[name] = n + 1
        flat = flatten_tensors(out)
        wants_grad = [i for i, o in enumerate(flat) if o.requires_grad and o.grad_fn is not None]
        self._index({"kind": "call", "seq": seq, "op": name, "file": stem + ".safetensors",
                     "bytes": size, "random": short_name(name) in RANDOM,
                     "inputs": [[i["dtype"], i["shape"]] for i in in_enc.info.values()],
                     "outputs": [[i["dtype"], i["shape"]] for i in out_enc.info.values()],
                     "requires_grad": bool(wants_grad), "replayable": meta["replayable"] == "1"})
        self._ticker.tick(f"#{seq} {short_name(name)} {self.bytes / 1e6:.1f} MB")
        if self.grads and wants_grad:
            for i in wants_grad:
                flat[i].register_hook(self._grad_hook(seq, name, stem, i))
        return out

    def _grad_hook(self, seq: int, name: str, stem: str, index: int):
        def hook(grad):
            if grad is None:
                return None
            with self.busy():
                meta = record.base_metadata(name, seq)
                meta["of"] = stem + ".safetensors"
                side = f"{stem}.grad_out{index}"
                size = self._write(side, {f"grad_out.{index}": record.cpu_value(grad)}, meta)
                if size is None:
                    self._index({"kind": "skipped", "seq": seq, "op": name, "output": index,
                                 "reason": f"size cap (max_bytes={self.max_bytes}) reached"})
                else:
                    self._index({"kind": "grad_out", "seq": seq, "op": name, "output": index,
                                 "file": side + ".safetensors", "bytes": size})
            return None
        return hook

    def summary(self) -> dict:
        return {"directory": self.directory, "calls": dict(self.calls), "bytes": self.bytes,
                "files": self.files, "skipped": self.skipped}


def read_index(directory: str) -> list[dict]:
    path = os.path.join(directory, INDEX)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{directory}: no {INDEX} (not a capture directory)")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def records(directory: str, op: str | None = None, seqs=None) -> list[str]:
    """Record files of a capture directory (or a single record file), in call order,
    optionally only ops matching `op` (OpFilter patterns) or call numbers in `seqs`."""
    if os.path.isfile(directory):
        return [directory]
    from ._base import OpFilter
    flt = OpFilter(op) if op else None
    out = []
    try:
        entries = [e for e in read_index(directory) if e.get("kind") == "call"]
        files = [(e["seq"], e["op"], os.path.join(directory, e["file"])) for e in entries]
    except FileNotFoundError:
        files = []
        for path in sorted(glob.glob(os.path.join(directory, "*.safetensors"))):
            if ".grad_out" in os.path.basename(path):
                continue
            meta = tensorfile.read_metadata(path)
            if meta.get("format") == record.FORMAT:
                files.append((int(meta.get("seq", 0)), meta["op"], path))
        if not files:
            print(f"{directory}: no index.jsonl and no op records", file=sys.stderr)
    for seq, name, path in files:
        if flt is not None and not flt(name):
            continue
        if seqs and seq not in seqs:
            continue
        out.append(path)
    return out
