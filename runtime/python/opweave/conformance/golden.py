"""Golden data: one tensor file per case under golden/<family>/<case id>.safetensors.

A file holds the case's inputs (`in.<arg>`, logical values, contiguous) and the reference
outputs (`ref.<arg>`), with metadata: the case content (so a changed case is detected), the
torch version that computed the reference and how (`aten-cpu`, or
`aten-cpu-float32-rounded` for float16 ops torch's CPU lacks). A case the reference rejects
is stored with status `reference_error` and its message, and is skipped by the runner.
Generation is incremental: a file whose case and torch version are unchanged is kept.
"""

from __future__ import annotations

import glob
import json
import os
import time

import torch

from . import paths, progress, reference, tensorfile

FORMAT = "opweave-golden-1"


class GoldenError(Exception):
    pass


def metadata_ok(meta: dict, case) -> bool:
    return (meta.get("format") == FORMAT and meta.get("case") == case.content and
            meta.get("torch") == torch.__version__)


def is_current(case) -> bool:
    """True when the case's golden file exists for this case content and torch version (reads
    the header only; the full validation happens when the runner loads it)."""
    path = paths.golden_path(case)
    try:
        with open(path, "rb") as f:
            n = int.from_bytes(f.read(8), "little")
            if n > tensorfile.MAX_HEADER_BYTES:
                return False
            meta = json.loads(f.read(n).decode("utf-8")).get("__metadata__", {})
    except (OSError, ValueError, AttributeError):
        return False
    return isinstance(meta, dict) and metadata_ok(meta, case)


def generate_case(cat, case) -> str:
    meta = {"format": FORMAT, "case": case.content, "case_id": case.id, "function": case.fn.name,
            "torch": torch.__version__, "seed": str(case.seed)}
    tensors = {}
    try:
        inputs, expected, how = reference.make_case(cat, case)
        meta.update(status="ok", reference=how)
        for name, t in inputs.items():
            if isinstance(t, list):          # a tensor list: in.<name>.0, in.<name>.1, ...
                for i, item in enumerate(t):
                    if item is not None:     # an absent Tensor?[] entry has no data
                        tensors[f"in.{name}.{i}"] = item
            elif t is not None:
                tensors["in." + name] = t
        for name, t in expected.items():
            tensors["ref." + name] = t
    except reference.ReferenceError_ as e:
        meta.update(status="reference_error", error=str(e))
    tensorfile.save(paths.golden_path(case), tensors, meta)
    return meta["status"]


def generate(cat, cases, force: bool = False, out=None) -> dict:
    """Write the golden files of `cases` that are missing or stale; returns counts."""
    start = time.time()
    counts = {"written": 0, "current": 0, "reference_error": 0}
    bar = progress.Progress(len(cases), "golden", stream=out)
    for case in cases:
        bar.step(case.id)
        if not force and is_current(case):
            counts["current"] += 1
            continue
        status = generate_case(cat, case)
        counts["written"] += 1
        if status != "ok":
            counts["reference_error"] += 1
    bar.done(f"{counts['written']} written, {counts['current']} up to date, "
             f"{counts['reference_error']} rejected by the reference "
             f"({time.time() - start:.1f} s) in {paths.golden_dir()} [torch {torch.__version__}]")
    return counts


def prune(cat) -> int:
    """Remove golden files of cases the catalogue no longer has; returns how many."""
    known = {paths.golden_path(c) for f in cat.functions.values() for c in f.cases}
    removed = 0
    for path in glob.glob(os.path.join(paths.golden_dir(), "*", "*.safetensors")):
        if path not in known:
            os.unlink(path)
            removed += 1
    for d in glob.glob(os.path.join(paths.golden_dir(), "*")):
        if os.path.isdir(d) and not os.listdir(d):
            os.rmdir(d)
    return removed


def load(case) -> tuple[dict[str, torch.Tensor], dict[str, str]]:
    """The validated golden tensors and metadata of `case`; GoldenError if missing or stale."""
    path = paths.golden_path(case)
    if not os.path.isfile(path):
        raise GoldenError("no golden data (run `make golden`)")
    tensors, meta = tensorfile.load(path)
    if meta.get("format") != FORMAT or meta.get("case") != case.content:
        raise GoldenError("golden data is stale for this case (run `make golden`)")
    if meta.get("torch") != torch.__version__:
        raise GoldenError(f"golden data was made with torch {meta.get('torch')}, this is "
                          f"{torch.__version__} (run `make golden`)")
    return tensors, meta
