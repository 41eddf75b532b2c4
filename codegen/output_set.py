"""Writing generated files: deterministic, incremental and all-or-nothing.

Emitters render everything into memory first; only then is anything written, one file at a
time through a temporary file and an atomic rename. Unchanged files are not touched (so the
build does not recompile them) and files no emitter produces any more are removed.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field

GENERATED_MARK = "must not be edited by hand"


@dataclass
class OutputSet:
    files: dict[str, str] = field(default_factory=dict)  # path relative to the output root

    def add(self, relpath: str, content: str) -> None:
        if relpath in self.files:
            raise ValueError(f"two emitters produce {relpath}")
        self.files[relpath] = content


@dataclass
class Diff:
    changed: list[str]
    added: list[str]
    removed: list[str]

    @property
    def clean(self) -> bool:
        return not (self.changed or self.added or self.removed)


def _existing(root: str) -> set[str]:
    found = set()
    for dirpath, dirs, names in os.walk(root):
        # Python's bytecode caches (importing generated/dicp writes one per interpreter
        # version) are never outputs.
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in names:
            found.add(os.path.relpath(os.path.join(dirpath, name), root))
    return found


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def diff(outputs: OutputSet, root: str) -> Diff:
    existing = _existing(root) if os.path.isdir(root) else set()
    changed, added = [], []
    for rel, content in sorted(outputs.files.items()):
        if rel not in existing:
            added.append(rel)
        elif _read(os.path.join(root, rel)) != content:
            changed.append(rel)
    removed = sorted(existing - set(outputs.files))
    return Diff(changed, added, removed)


def write_file(path: str, text: str) -> None:
    """Write `text` to `path` atomically (a temporary file beside it, then a rename): a reader
    or an interrupted run never sees half a file."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write(outputs: OutputSet, root: str) -> Diff:
    d = diff(outputs, root)
    for rel in d.changed + d.added:
        write_file(os.path.join(root, rel), outputs.files[rel])
    for rel in d.removed:
        os.unlink(os.path.join(root, rel))
    return d
