"""The generated conformance cases (generated/conformance/<family>.yaml), loaded and filtered."""

from __future__ import annotations

import glob
import hashlib
import json
import os
import pickle
import re
import tempfile
from dataclasses import dataclass, field

import yaml

from . import paths
from .. import _paths

try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML without libyaml
    _Loader = yaml.SafeLoader


@dataclass
class Function:
    name: str
    family: str
    reference: dict
    signature: list[dict]
    tolerances: dict[str, tuple[float, float]]
    cases: list[dict] = field(default_factory=list)
    unsupported: str = ""      # why the generator made no cases (empty: it made some)

    def arg(self, name: str) -> dict:
        return next(s for s in self.signature if s["name"] == name)


@dataclass
class Case:
    fn: Function
    spec: dict

    @property
    def id(self) -> str:
        return self.spec["id"]

    @property
    def dtype(self) -> str:
        return self.spec["dtype"]

    @property
    def family(self) -> str:
        return self.fn.family

    @property
    def seed(self) -> int:
        return int(hashlib.sha256(self.id.encode()).hexdigest()[:8], 16)

    @property
    def content(self) -> str:
        """Canonical JSON of the case: stored with its golden data to detect stale files."""
        return json.dumps({"fn": self.fn.name, **self.spec}, sort_keys=True,
                          separators=(",", ":"))


def _load_family(path: str) -> dict:
    """One family file, parsed. YAML parsing is 9 s for the ~260 files (5.8 MB) of a full
    catalogue, paid by every conformance run, test module and replay; the parsed document is
    kept in the build's cache folder (one file per family, checked against the YAML's hash, so
    a stale or foreign entry is a miss, never a wrong answer): a warm load of the whole
    catalogue takes 0.45 s."""
    with open(path, "rb") as f:
        text = f.read()
    digest = hashlib.sha256(text).hexdigest()
    try:
        cache = _paths.cache_dir("conformance-cases") / (os.path.basename(path) + ".pickle")
    except OSError:  # no writable build folder: parse every time
        cache = None
    if cache is not None:
        try:
            with open(cache, "rb") as f:
                cached_digest, doc = pickle.load(f)
            if cached_digest == digest:
                return doc
        except Exception:  # missing, damaged, another Python's: any unreadable entry is a miss
            pass
    doc = yaml.load(text, Loader=_Loader)
    if cache is not None:
        _store(cache, (digest, doc))
    return doc


def _store(cache, entry) -> None:
    """Written whole, then renamed: a concurrent reader sees the old entry or the new one."""
    try:
        fd, tmp = tempfile.mkstemp(dir=cache.parent, prefix=cache.name + ".")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as f:
            pickle.dump(entry, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, cache)
    except OSError:
        os.unlink(tmp)


def _op_matches(op: str | None, name: str) -> bool:
    if not op:
        return True
    names = [o.strip() for o in op.split(",") if o.strip()]
    return any(name == n or re.fullmatch(n, name) for n in names)


class Catalogue:
    """All cases, or (op given) those of the families holding a matching function, found
    through index.yaml so a filtered run does not parse every family file."""

    def __init__(self, directory: str | None = None, op: str | None = None):
        self.directory = directory or paths.cases_dir()
        self.complete = not op
        files = sorted(glob.glob(os.path.join(self.directory, "*.yaml")))
        files = [f for f in files if os.path.basename(f) != "index.yaml"]
        if not files:
            raise FileNotFoundError(f"no conformance cases in {self.directory}: run `make gen`")
        index_path = os.path.join(self.directory, "index.yaml")
        if op and os.path.isfile(index_path):
            with open(index_path, encoding="utf-8") as f:
                index = yaml.load(f, Loader=_Loader) or {}
            families = {e["family"] for name, e in (index.get("functions") or {}).items()
                        if _op_matches(op, name)}
            files = [f for f in files if os.path.splitext(os.path.basename(f))[0] in families]
        self.functions: dict[str, Function] = {}
        for path in files:
            doc = _load_family(path)
            tols = {d: (float(v[0]), float(v[1])) for d, v in (doc.get("tolerances") or {}).items()}
            for entry in doc["functions"]:
                fn = Function(entry["diopi"], doc["family"], entry["reference"],
                              entry["signature"], tols, unsupported=entry.get("unsupported", ""))
                fn.cases = [Case(fn, c) for c in entry.get("cases") or []]
                self.functions[fn.name] = fn

    def select(self, op: str | None = None, dtype: str | None = None,
               case: str | None = None) -> list[Case]:
        """Cases of the functions whose name equals `op` or fully matches it as a regex (a
        comma-separated list is accepted), of `dtype` (comma-separated), with ids matching
        `case` (regex, searched)."""
        fns = [f for f in self.functions.values() if _op_matches(op, f.name)]
        dtypes = {d.strip() for d in dtype.split(",")} if dtype else None
        out = []
        for f in fns:
            for c in f.cases:
                if dtypes and c.dtype not in dtypes:
                    continue
                if case and not re.search(case, c.id):
                    continue
                out.append(c)
        return out

    def case(self, case_id: str) -> Case:
        fn = self.functions.get(case_id.split("-")[0])
        for c in (fn.cases if fn else []):
            if c.id == case_id:
                return c
        raise KeyError(f"no conformance case {case_id!r}")
