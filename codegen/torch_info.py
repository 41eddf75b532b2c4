"""Facts about the installed torch, read without importing torch (which costs ~1 s)."""

from __future__ import annotations

import functools
import importlib.util
import os
import re


@functools.lru_cache(maxsize=1)
def torch_version() -> str:
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.origin:
        return "unknown"
    path = os.path.join(os.path.dirname(spec.origin), "version.py")
    try:
        with open(path, encoding="utf-8") as f:
            m = re.search(r"^__version__\s*=\s*['\"]([^'\"]+)['\"]", f.read(), re.M)
    except OSError:
        return "unknown"
    return m.group(1) if m else "unknown"
