"""The expected OpInfo outcome of every op, as data, per torch version, vendor, dtype and mode.

    tests/opinfo/expected/torch-2.6/sim/float32-forward.json

holds one line per op: its outcome, the ATen ops it is known to run on the CPU (`fallback`),
and for anything short of a pass the reason (the error it raises, why it is skipped). A run is
checked against it: an op whose outcome got worse, or that falls back for an ATen op it did not
fall back for before, is a regression (CI fails); one that got better is reported, so the data
is tightened with --update (a reviewed commit). An update keeps a recorded reason while the
outcome stays the same, so hand-written reasons survive it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib

import torch

from .. import _paths
from . import RANK

# Test data of the checkout (tests/opinfo/expected), reviewed with the code.
EXPECTED_DIR = _paths.work_dir() / "tests" / "opinfo" / "expected"


def current_vendor() -> str:
    return os.environ.get("OPWEAVE_VENDOR") or "sim"


def torch_series() -> str:
    major, minor = torch.__version__.split(".")[:2]
    return f"torch-{major}.{minor}"


@dataclasses.dataclass(frozen=True)
class Config:
    vendor: str
    dtype: str
    mode: str

    @property
    def path(self) -> pathlib.Path:
        return EXPECTED_DIR / torch_series() / self.vendor / f"{self.dtype}-{self.mode}.json"

    def __str__(self) -> str:
        return f"{self.vendor} {self.dtype} {self.mode} ({torch_series()})"


def load(config: Config) -> dict:
    if not config.path.is_file():
        return {}
    with open(config.path) as f:
        return json.load(f)


def _entry(result: dict, old: dict | None) -> dict:
    entry = {"outcome": result["outcome"]}
    if result.get("fallback"):
        entry["fallback"] = result["fallback"]
    if result["outcome"] not in ("pass", "fallback"):
        keep = old and old.get("outcome") == result["outcome"] and old.get("reason")
        entry["reason"] = keep or result.get("detail", "")
    return entry


def update(config: Config, results: dict, partial: bool) -> None:
    """Rewrite the config's data from `results` (merged into it when only some ops ran)."""
    old = load(config)
    data = dict(old) if partial else {}
    for name, result in results.items():
        data[name] = _entry(result, old.get(name))
    config.path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{json.dumps(name)}: {json.dumps(data[name], sort_keys=True)}"
             for name in sorted(data)]
    config.path.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"wrote {config.path} ({len(data)} ops)")


@dataclasses.dataclass
class Report:
    config: Config
    regressions: list = dataclasses.field(default_factory=list)
    improvements: list = dataclasses.field(default_factory=list)

    def text(self) -> str:
        lines = [f"opinfo {self.config} vs {self.config.path.name}: "
                 f"{len(self.regressions)} regressions, {len(self.improvements)} improvements"]
        lines += [f"  REGRESSION {line}" for line in self.regressions]
        lines += [f"  improved   {line}" for line in self.improvements]
        if self.improvements:
            lines.append("  (tighten the data: python3 -m opweave.opinfo --update "
                         f"--vendor {self.config.vendor} --dtype {self.config.dtype} "
                         f"--mode {self.config.mode})")
        return "\n".join(lines)


def compare(config: Config, results: dict, partial: bool) -> Report:
    data, report = load(config), Report(config)
    if not data:
        report.regressions.append(f"no expected data at {config.path} (run with --update)")
        return report
    for name, result in results.items():
        got, want = result["outcome"], data.get(name)
        detail = f": {result.get('detail')}" if result.get("detail") else ""
        if want is None:
            if got != "pass":
                report.regressions.append(f"{name}: {got}, not in the data{detail}")
            continue
        if RANK[got] > RANK[want["outcome"]]:
            report.regressions.append(f"{name}: {got}, expected {want['outcome']}{detail}")
            continue
        new_fallback = sorted(set(result.get("fallback", [])) - set(want.get("fallback", [])))
        gone = sorted(set(want.get("fallback", [])) - set(result.get("fallback", [])))
        if new_fallback:
            report.regressions.append(f"{name}: now runs {', '.join(new_fallback)} on the CPU")
        elif RANK[got] < RANK[want["outcome"]]:
            report.improvements.append(f"{name}: {got}, expected {want['outcome']}")
        elif gone:
            report.improvements.append(f"{name}: no longer falls back for {', '.join(gone)}")
    if not partial:
        report.improvements += [f"{name}: no longer in op_db" for name in data if name not in results]
    return report
