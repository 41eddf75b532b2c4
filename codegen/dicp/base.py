"""What every part of the DICP loader shares: the file's state and the checks that look
outside it (ATen overloads in the installed torch, hand-written Python in the runtime).

The loader is one class split by job along a chain of subclasses:
base.py (this) -> ops.py (vendor ops) -> conversions.py (the table) -> load.py (the file).
"""

from __future__ import annotations

import ast
import os
from typing import Optional

from torchgen.model import FunctionSchema

from ..aten_index import AtenIndex
from ..errors import did_you_mean
from ..model import Catalogue
from ..render import REPO_ROOT
from ..validate import Checker
from ..yaml_loader import LineDict
from .model import VendorOp
from .vocab import DOTTED


class LoaderBase(Checker):
    def __init__(self, path: str, cat: Catalogue, index: AtenIndex, runtime_root: str):
        super().__init__(path)
        self.cat = cat
        self.index = index
        self.runtime_root = runtime_root
        self.diopi = {f.name: f for f in cat.functions}
        self.ops: dict[str, VendorOp] = {}
        self.executable = False
        self.pass_uses: list = []   # (line, what, vendor ops a rewrite pass may emit)

    def text(self, value, line, who, field) -> str:
        """Prose of the catalogue on one line: it becomes Python literals and docstrings."""
        return " ".join(self.check_text(value, line, who, field).split())

    def mapping_of(self, d: LineDict, key: str, who, reason: str) -> list:
        """(name, value, line) of each entry of the optional mapping d[key]; `reason` is
        reported when d[key] is not a mapping."""
        raw = d.get(key, {})
        if not isinstance(raw, dict):
            self.err(d.line_of(key), who, reason)
            return []
        return [(k, v, raw.line_of(k) if isinstance(raw, LineDict) else d.line)
                for k, v in raw.items()]

    def python_name(self, value, line, who, what) -> str:
        """A dotted name of hand-written Python in the runtime, checked to exist (by reading
        the module's source: codegen does not import the runtime)."""
        if not isinstance(value, str) or not DOTTED.match(value):
            self.err(line, who, f"{what} must be a dotted name 'opweave.module.function', "
                                f"got {value!r} (code never goes into the catalogue)")
            return ""
        module, _, fn = value.rpartition(".")
        rel = module.replace(".", os.sep)
        candidates = [os.path.join(self.runtime_root, rel + ".py"),
                      os.path.join(self.runtime_root, rel, "__init__.py")]
        path = next((p for p in candidates if os.path.isfile(p)), None)
        if path is None:
            self.err(line, who, f"{what} '{value}': module {module} not found under "
                                f"{os.path.relpath(self.runtime_root, REPO_ROOT)}/")
            return ""
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        if fn not in names:
            hint = did_you_mean(fn, sorted(names))
            self.err(line, who, f"{what} '{value}': {os.path.relpath(path, REPO_ROOT)} defines "
                                f"no function '{fn}'{hint}")
            return ""
        return value

    def schema(self, overload, line, who) -> Optional[FunctionSchema]:
        if not isinstance(overload, str) or self.index.schema_text(overload) is None:
            hint = did_you_mean(str(overload), self.index.names())
            self.err(line, who, f"ATen overload '{overload}' does not exist in the installed "
                                f"torch's native_functions.yaml{hint}")
            return None
        return self.index.parse(overload)
