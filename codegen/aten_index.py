"""Index of the installed torch's native_functions.yaml: schema strings by overload name.

Only the `- func:` lines are read (a regex scan, ~30 ms) instead of parsing the whole
12k-line YAML; schemas are parsed with torchgen lazily and only for ops the catalogue uses.
"""

from __future__ import annotations

import functools
import os
import re

from torchgen.model import FunctionSchema, SchemaKind

_FUNC_LINE = re.compile(r"^- func: ((\w+)(?:\.(\w+))?\(.*)$")


def native_functions_path() -> str:
    import torchgen

    return os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native",
                        "native_functions.yaml")


class AtenIndex:
    def __init__(self, path: str | None = None):
        self.path = path or native_functions_path()
        self._by_name: dict[str, str] = {}
        self._by_base: dict[str, list[str]] = {}
        with open(self.path, encoding="utf-8") as f:
            for line in f:
                m = _FUNC_LINE.match(line.rstrip("\n"))
                if not m:
                    continue
                schema, name, overload = m.group(1), m.group(2), m.group(3)
                full = f"{name}.{overload}" if overload else name
                self._by_name[full] = schema
                base = name[:-1] if name.endswith("_") else name
                self._by_base.setdefault(base, []).append(full)

    def schema_text(self, overload_name: str) -> str | None:
        return self._by_name.get(overload_name)

    @functools.lru_cache(maxsize=None)
    def parse(self, overload_name: str) -> FunctionSchema:
        return FunctionSchema.parse(self._by_name[overload_name])

    def siblings(self, schema: FunctionSchema) -> dict[SchemaKind, FunctionSchema]:
        """Functional / inplace / out variants sharing `schema`'s signature (torchgen's grouping)."""
        base = schema.name.name.base
        sig = schema.signature()
        found: dict[SchemaKind, FunctionSchema] = {}
        for name in self._by_base.get(base, []):
            other = self.parse(name)
            if other.signature() == sig and other.kind() not in found:
                found[other.kind()] = other
        return found


@functools.lru_cache(maxsize=1)
def default_index() -> AtenIndex:
    return AtenIndex()
