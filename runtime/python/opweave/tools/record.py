"""One op call on disk: what OpCapture writes per call, what OpAutoCompare saves for a
failing call, and what `opweave-replay` and the conformance bridge read.

A record is one tensor file (tensorfile.py, no pickle):

    tensors   in.<k>        the call's tensor arguments, values before the call
              out.<k>       the tensors it returned (device results, as they were)
              grad_out.<k>  gradient arriving at output k in backward (capture: side files
                            <stem>.grad_out<k>.safetensors; autocompare failures: inline)
              ref.<k>, grad_in.<k>, ref_grad_in.<k>   (autocompare failures) the CPU result,
                            device and CPU input gradients
    metadata  format  "opweave-opcall-1"
              op      torch-level name, e.g. "torch.nn.functional.linear"
              seq     call number in the session
              call    JSON {"args": [...], "kwargs": {...}}: JSON scalars as they are, a
                      tensor as {"T": "in.0"}, other values tagged: {"tuple": [...]},
                      {"list": [...]}, {"dict": {...}}, {"size": [...]}, {"dtype": "float32"},
                      {"device": "privateuseone:0"}, {"float": "nan"}, {"slice": [a, b, c]},
                      {"ellipsis": 1}, {"memory_format": ...}, {"layout": ...},
                      {"complex": [re, im]}, {"unsupported": "<repr>"}
              outputs JSON of the returned structure, tensors as {"T": "out.0"}
              tensors JSON {name: {dtype, shape, stride, offset, device, requires_grad}}
              replayable "1" or "0" (then `unsupported` says which argument was not stored)
              torch, vendor
"""

from __future__ import annotations

import json
import math
import os
import re

import torch

from . import tensorfile
from ._base import RECORDED_DEVICE_TYPES, flatten_tensors

FORMAT = "opweave-opcall-1"
_DTYPE_NAMES = {
    torch.bool: "bool", torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16",
    torch.int32: "int32", torch.int64: "int64", torch.float16: "float16",
    torch.bfloat16: "bfloat16", torch.float32: "float32", torch.float64: "float64",
}
DTYPES = {v: k for k, v in _DTYPE_NAMES.items()}
_MEMORY_FORMATS = {str(f).replace("torch.", ""): f for f in (
    torch.contiguous_format, torch.preserve_format, torch.channels_last, torch.channels_last_3d)}
_LAYOUTS = {"strided": torch.strided, "sparse_coo": torch.sparse_coo}


def dtype_name(dtype: torch.dtype) -> str:
    return _DTYPE_NAMES.get(dtype, str(dtype).replace("torch.", ""))


def tensor_info(t: torch.Tensor) -> dict:
    return {"dtype": dtype_name(t.dtype), "shape": list(t.shape), "stride": list(t.stride()),
            "offset": int(t.storage_offset()), "device": str(t.device),
            "requires_grad": bool(t.requires_grad)}


def cpu_value(t: torch.Tensor) -> torch.Tensor:
    """The logical values of `t` on the CPU (a synchronous copy for device tensors)."""
    t = t.detach()
    return t.cpu() if t.device.type != "cpu" else t.clone()


class Encoder:
    """Turns call arguments or results into JSON + named tensors. The same tensor object
    appearing twice (`x * x`) is stored once and referenced twice."""

    def __init__(self, prefix: str, snapshot=cpu_value):
        self.prefix = prefix
        self.snapshot = snapshot
        self.tensors: dict[str, torch.Tensor] = {}
        self.info: dict[str, dict] = {}
        self.unsupported: list[str] = []
        self._ids: dict[int, str] = {}

    def tensor(self, t: torch.Tensor) -> dict:
        key = self._ids.get(id(t))
        if key is None:
            key = f"{self.prefix}.{len(self._ids)}"
            self._ids[id(t)] = key
            if t.dtype in tensorfile.CODES and t.layout == torch.strided:
                self.tensors[key] = self.snapshot(t)
                self.info[key] = tensor_info(t)
            else:
                self.unsupported.append(f"tensor of {t.dtype}/{t.layout}")
                self.info[key] = {**tensor_info(t), "unsupported": True}
        return {"T": key}

    def encode(self, v):
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            return v
        if isinstance(v, float):
            return v if math.isfinite(v) else {"float": repr(v)}
        if isinstance(v, torch.Tensor):
            return self.tensor(v)
        if isinstance(v, torch.Size):
            return {"size": [int(d) for d in v]}
        if isinstance(v, list):
            return {"list": [self.encode(x) for x in v]}
        if isinstance(v, tuple):
            return {"tuple": [self.encode(x) for x in v]}
        if isinstance(v, dict) and all(isinstance(k, str) for k in v):
            return {"dict": {k: self.encode(x) for k, x in v.items()}}
        if isinstance(v, torch.dtype):
            return {"dtype": dtype_name(v)}
        if isinstance(v, torch.device):
            return {"device": str(v)}
        if isinstance(v, torch.memory_format):
            return {"memory_format": str(v).replace("torch.", "")}
        if isinstance(v, torch.layout):
            return {"layout": str(v).replace("torch.", "")}
        if isinstance(v, slice):
            return {"slice": [self.encode(v.start), self.encode(v.stop), self.encode(v.step)]}
        if v is Ellipsis:
            return {"ellipsis": 1}
        if isinstance(v, complex):
            return {"complex": [v.real, v.imag]}
        self.unsupported.append(type(v).__name__)
        return {"unsupported": repr(v)[:200]}


def encode_call(name: str, args, kwargs, snapshot=cpu_value):
    """(metadata fields, tensors) of a call, with tensor values taken by `snapshot`."""
    enc = Encoder("in", snapshot)
    call = {"args": [enc.encode(a) for a in args],
            "kwargs": {k: enc.encode(v) for k, v in kwargs.items()}}
    return enc, call


def encode_outputs(out, snapshot=cpu_value):
    enc = Encoder("out", snapshot)
    return enc, enc.encode(out)


def base_metadata(name: str, seq: int) -> dict[str, str]:
    import opweave
    return {"format": FORMAT, "op": name, "seq": str(seq), "torch": torch.__version__,
            "vendor": opweave.report()["vendor"]}


def file_stem(seq: int, name: str) -> str:
    short = re.sub(r"[^A-Za-z0-9_.-]", "_", name.rsplit(".", 1)[-1]) or "op"
    return f"{seq:06d}-{short}"


def make_record(name: str, seq: int, in_enc: Encoder, call: dict,
                out_enc: Encoder | None = None, outputs=None,
                extra_tensors: dict | None = None, extra_meta: dict | None = None):
    """(tensors, metadata) of a record file."""
    tensors = dict(in_enc.tensors)
    info = dict(in_enc.info)
    unsupported = list(in_enc.unsupported)
    if out_enc is not None:
        tensors.update(out_enc.tensors)
        info.update(out_enc.info)
    meta = base_metadata(name, seq)
    meta.update(call=json.dumps(call, sort_keys=True), tensors=json.dumps(info, sort_keys=True),
                replayable="0" if unsupported else "1")
    if unsupported:
        meta["unsupported"] = ", ".join(sorted(set(unsupported)))
    if out_enc is not None:
        meta["outputs"] = json.dumps(outputs, sort_keys=True)
    for k, v in (extra_tensors or {}).items():
        if v is not None and v.dtype in tensorfile.CODES:
            tensors[k] = cpu_value(v)
    meta.update(extra_meta or {})
    return tensors, meta


# ---- reading ----------------------------------------------------------------------------------

class RecordError(ValueError):
    pass


class Record:
    """A record file loaded (validated) with its gradient side files."""

    def __init__(self, path: str):
        self.path = path
        self.tensors, self.meta = tensorfile.load(path)
        if self.meta.get("format") != FORMAT:
            raise RecordError(f"{path}: not an op record (format {self.meta.get('format')!r})")
        try:
            self.call = json.loads(self.meta["call"])
            self.info = json.loads(self.meta["tensors"])
            self.outputs = json.loads(self.meta["outputs"]) if "outputs" in self.meta else None
        except (KeyError, json.JSONDecodeError) as e:
            raise RecordError(f"{path}: bad record metadata: {e}") from None
        self.op = self.meta["op"]
        self.seq = int(self.meta.get("seq", "0"))
        stem = path[:-len(".safetensors")] if path.endswith(".safetensors") else path
        directory = os.path.dirname(path) or "."
        base = os.path.basename(stem)
        for entry in sorted(os.listdir(directory)):
            m = re.fullmatch(re.escape(base) + r"\.grad_out(\d+)\.safetensors", entry)
            if m:
                side, _ = tensorfile.load(os.path.join(directory, entry))
                self.tensors.update({k: v for k, v in side.items() if k.startswith("grad_out.")})

    @property
    def replayable(self) -> bool:
        return self.meta.get("replayable") == "1"

    def grad_outputs(self) -> dict[int, torch.Tensor]:
        return {int(k.split(".")[1]): v for k, v in self.tensors.items() if k.startswith("grad_out.")}

    def __repr__(self) -> str:
        return f"Record(#{self.seq} {self.op}, {os.path.basename(self.path)})"


def resolve_function(name: str):
    """The torch callable named `name` (`torch.nn.functional.linear`, `torch.Tensor.add_`),
    found by attribute lookup from the `torch` module only (no import, no eval)."""
    parts = name.split(".")
    if parts[0] != "torch" or not all(p.isidentifier() for p in parts):
        raise RecordError(f"cannot resolve op name {name!r}: not a torch.* name")
    obj = torch
    for p in parts[1:]:
        try:
            obj = getattr(obj, p)
        except AttributeError:
            raise RecordError(f"cannot resolve op name {name!r}: torch has no {p!r} there") from None
    if not callable(obj):
        raise RecordError(f"{name!r} is not callable")
    return obj


def _overlaps(shape, stride) -> bool:
    """True unless the (size, stride) pairs provably address distinct elements."""
    dims = sorted((s, d) for d, s in zip(shape, stride) if d > 1)
    reach = 0                           # elements spanned by the dimensions so far, minus 1
    for s, d in dims:
        if s <= reach:
            return True
        reach += (d - 1) * s
    return False


def place(value: torch.Tensor, info: dict, device) -> torch.Tensor:
    """`value` on `device` with the recorded strides and offset where they can be rebuilt
    (expanded dimensions kept expanded); contiguous otherwise."""
    shape, stride = list(info.get("shape", value.shape)), list(info.get("stride", []))
    offset = int(info.get("offset", 0))
    if len(stride) != len(shape) or value.numel() == 0:
        return value.to(device).contiguous()
    if stride == list(torch.empty(shape).stride()) and offset == 0:
        return value.contiguous().to(device)
    reduced = [1 if s == 0 else d for d, s in zip(shape, stride)]
    extent = 1 + sum((d - 1) * s for d, s in zip(reduced, stride))
    try:
        base = torch.zeros(offset + extent, dtype=value.dtype)
        compact = base.as_strided(reduced, stride, offset)
        src = value
        for dim, s in enumerate(stride):
            if s == 0:
                src = src.narrow(dim, 0, 1)
        if _overlaps(reduced, stride):
            raise RuntimeError("overlapping layout")
        compact.copy_(src)
        return base.to(device).as_strided(shape, stride, offset)
    except RuntimeError:
        return value.to(device).contiguous()


def _device_for(recorded: str, device):
    return device if recorded.split(":")[0] in RECORDED_DEVICE_TYPES else torch.device(recorded)


def decode(obj, tensors: dict, device):
    if isinstance(obj, list):  # JSON arrays only appear inside tags
        return [decode(x, tensors, device) for x in obj]
    if not isinstance(obj, dict):
        return obj
    if "T" in obj:
        return tensors[obj["T"]]
    (tag, v), = obj.items()
    if tag == "list":
        return [decode(x, tensors, device) for x in v]
    if tag == "tuple":
        return tuple(decode(x, tensors, device) for x in v)
    if tag == "dict":
        return {k: decode(x, tensors, device) for k, x in v.items()}
    if tag == "size":
        return torch.Size(v)
    if tag == "dtype":
        return DTYPES.get(v) or getattr(torch, v)
    if tag == "device":
        return _device_for(v, device)
    if tag == "float":
        return float(v)
    if tag == "slice":
        return slice(*(decode(x, tensors, device) for x in v))
    if tag == "ellipsis":
        return Ellipsis
    if tag == "memory_format":
        return _MEMORY_FORMATS[v]
    if tag == "layout":
        return _LAYOUTS[v]
    if tag == "complex":
        return complex(v[0], v[1])
    raise RecordError(f"argument {v!r} was not stored ({tag})")


def build_inputs(record: Record, device, requires_grad: bool = True,
                 dtype_map: dict | None = None) -> dict[str, torch.Tensor]:
    """Fresh input tensors of a record: accelerator tensors on `device` (CPU tensors stay on
    the CPU), with the recorded layout; leaves that require grad where the call's did (when
    `requires_grad`); dtype_map (e.g. {float16: float32}) casts first."""
    out = {}
    for key, value in record.tensors.items():
        if not key.startswith("in."):
            continue
        info = record.info.get(key, {})
        target = _device_for(info.get("device", "cpu"), device)
        if dtype_map and value.dtype in dtype_map:
            value = value.to(dtype_map[value.dtype])
        t = place(value, info, target).detach()
        if requires_grad and info.get("requires_grad") and (t.is_floating_point() or t.is_complex()):
            t.requires_grad_(True)
        out[key] = t
    return out


def build_call(record: Record, inputs: dict[str, torch.Tensor], device):
    """(func, args, kwargs) of the record over `inputs` (from build_inputs)."""
    if not record.replayable:
        raise RecordError(f"{record}: not replayable ({record.meta.get('unsupported', '?')})")
    func = resolve_function(record.op)
    args = [decode(a, inputs, device) for a in record.call.get("args", [])]
    kwargs = {k: decode(v, inputs, device) for k, v in record.call.get("kwargs", {}).items()}
    return func, args, kwargs


def output_tensors(out) -> list[torch.Tensor]:
    return flatten_tensors(out)
