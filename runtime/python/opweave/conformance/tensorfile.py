"""Tensor files that keep torch dtypes and cannot run code on load (the safetensors layout).

    8 bytes       little-endian u64 N: length of the header
    N bytes       JSON object, UTF-8: {"__metadata__": {str: str}, name: {"dtype": "BF16",
                  "shape": [2, 3], "data_offsets": [begin, end]}, ...}
    rest          raw little-endian tensor bytes; offsets are relative to the end of the header

The files are readable by the `safetensors` package too. `load` trusts nothing: the header
size, the JSON, every dtype, shape and offset range is checked, the byte ranges must tile
the data section exactly, and anything else (a pickle, a truncated file, an absurd offset, an
unknown dtype, a duplicate key) raises TensorFileError before a tensor is built. No pickle,
no eval, no import by name is involved anywhere.
"""

from __future__ import annotations

import json
import os
import struct
import sys
import tempfile

import torch

MAX_HEADER_BYTES = 16 << 20          # a header is a few KiB; refuse anything huge
MAX_FILE_BYTES = 4 << 30
MAX_DIMS = 16

DTYPES = {
    "BOOL": torch.bool, "U8": torch.uint8, "I8": torch.int8, "I16": torch.int16,
    "I32": torch.int32, "I64": torch.int64, "F16": torch.float16, "BF16": torch.bfloat16,
    "F32": torch.float32, "F64": torch.float64,
}
CODES = {v: k for k, v in DTYPES.items()}
# dtypes numpy has no type for travel as same-width integers
_BIT_VIEW = {torch.bfloat16: torch.int16, torch.bool: torch.uint8}


class TensorFileError(ValueError):
    pass


def _element_size(dtype: torch.dtype) -> int:
    return torch.empty((), dtype=dtype).element_size()


def _to_bytes(t: torch.Tensor) -> bytes:
    t = t.detach().cpu().contiguous()
    if t.dtype in _BIT_VIEW:
        t = t.view(_BIT_VIEW[t.dtype])
    a = t.numpy()
    if sys.byteorder != "little" and t.element_size() > 1:
        a = a.byteswap()
    return a.tobytes()


def dumps(tensors: dict[str, torch.Tensor], metadata: dict[str, str] | None = None) -> bytes:
    header: dict = {}
    if metadata:
        for k, v in metadata.items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise TypeError("metadata must map str -> str")
        header["__metadata__"] = dict(metadata)
    chunks, offset = [], 0
    for name in sorted(tensors):
        t = tensors[name]
        if name == "__metadata__" or not isinstance(t, torch.Tensor):
            raise TypeError(f"bad tensor entry {name!r}")
        if t.dtype not in CODES:
            raise TypeError(f"{name}: dtype {t.dtype} is not storable")
        data = _to_bytes(t)
        header[name] = {"dtype": CODES[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)          # align the data section as safetensors does
    return struct.pack("<Q", len(text)) + text + b"".join(chunks)


def save(path: str, tensors: dict[str, torch.Tensor], metadata: dict[str, str] | None = None) -> None:
    """Write atomically (temporary file + rename)."""
    blob = dumps(tensors, metadata)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _no_duplicates(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise TensorFileError(f"duplicate key {k!r} in header")
        out[k] = v
    return out


def _reject_constant(name):
    raise TensorFileError(f"non-standard JSON constant {name} in header")


def parse_header(blob: bytes) -> tuple[dict, dict[str, str], int]:
    """Validated (entries, metadata, data start) of a tensor file's bytes."""
    if len(blob) < 8:
        raise TensorFileError("file too short for a header length")
    (n,) = struct.unpack("<Q", blob[:8])
    if n < 2 or n > MAX_HEADER_BYTES:
        raise TensorFileError(f"header length {n} is out of range (2..{MAX_HEADER_BYTES})")
    if 8 + n > len(blob):
        raise TensorFileError(f"header length {n} runs past the end of the file ({len(blob)} bytes)")
    raw = blob[8:8 + n]
    if not raw.lstrip().startswith(b"{"):
        raise TensorFileError("header is not a JSON object")
    try:
        header = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates,
                            parse_constant=_reject_constant)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise TensorFileError(f"header is not valid UTF-8 JSON: {e}") from None
    if not isinstance(header, dict):
        raise TensorFileError("header is not a JSON object")
    metadata = header.pop("__metadata__", {})
    if not isinstance(metadata, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
        raise TensorFileError("__metadata__ must map strings to strings")
    data_len = len(blob) - 8 - n
    spans = []
    entries = {}
    for name, e in header.items():
        if not isinstance(e, dict) or set(e) != {"dtype", "shape", "data_offsets"}:
            raise TensorFileError(f"{name!r}: entry must have exactly dtype, shape, data_offsets")
        code = e["dtype"]
        if not isinstance(code, str) or code not in DTYPES:
            raise TensorFileError(f"{name!r}: unknown dtype {code!r}")
        shape = e["shape"]
        if (not isinstance(shape, list) or len(shape) > MAX_DIMS or
                not all(type(d) is int and 0 <= d < 2 ** 40 for d in shape)):
            raise TensorFileError(f"{name!r}: bad shape {shape!r}")
        offs = e["data_offsets"]
        if (not isinstance(offs, list) or len(offs) != 2 or
                not all(type(o) is int for o in offs) or not 0 <= offs[0] <= offs[1] <= data_len):
            raise TensorFileError(f"{name!r}: data_offsets {offs!r} outside the data section "
                                  f"({data_len} bytes)")
        numel = 1
        for d in shape:
            numel *= d
        if numel > MAX_FILE_BYTES:
            raise TensorFileError(f"{name!r}: bad shape {shape!r} (too many elements)")
        size = numel * _element_size(DTYPES[code])
        if offs[1] - offs[0] != size:
            raise TensorFileError(f"{name!r}: {offs[1] - offs[0]} bytes for shape {shape} of "
                                  f"{code} (needs {size})")
        spans.append((offs[0], offs[1], name))
        entries[name] = (DTYPES[code], shape, offs)
    pos = 0
    for begin, end, name in sorted(spans):
        if begin != pos:
            raise TensorFileError(f"{name!r}: byte ranges overlap or leave a gap at {pos}")
        pos = end
    if pos != data_len:
        raise TensorFileError(f"{data_len - pos} trailing bytes after the last tensor")
    return entries, metadata, 8 + n


def loads(blob: bytes) -> tuple[dict[str, torch.Tensor], dict[str, str]]:
    entries, metadata, start = parse_header(blob)
    tensors = {}
    for name, (dtype, shape, (b, e)) in entries.items():
        view_dtype = _BIT_VIEW.get(dtype, dtype)
        chunk = bytearray(blob[start + b:start + e])
        if len(chunk) == 0:
            t = torch.empty(shape, dtype=view_dtype)
        else:
            t = torch.frombuffer(chunk, dtype=view_dtype)
            if sys.byteorder != "little" and t.element_size() > 1:
                t = torch.from_numpy(t.numpy().byteswap())
            t = t.reshape(shape)
        if dtype is torch.bool:
            if t.numel() and int(t.max()) > 1:
                raise TensorFileError(f"{name!r}: bool tensor holds values other than 0 and 1")
            t = t.to(torch.bool)
        elif view_dtype is not dtype:
            t = t.view(dtype)
        tensors[name] = t
    return tensors, metadata


def load(path: str) -> tuple[dict[str, torch.Tensor], dict[str, str]]:
    size = os.path.getsize(path)
    if size > MAX_FILE_BYTES:
        raise TensorFileError(f"{path}: {size} bytes is larger than a golden file can be")
    with open(path, "rb") as f:
        blob = f.read()
    try:
        return loads(blob)
    except TensorFileError as e:
        raise TensorFileError(f"{path}: {e}") from None
