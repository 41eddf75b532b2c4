"""Where the conformance suite reads and writes (all overridable by environment).

Defaults come from opweave._paths: cases and vendor expectations from the checkout (or the
installed package's copy), golden data and reports in the checkout (or the current folder).
"""

from __future__ import annotations

import os

from .. import _paths


def cases_dir() -> str:
    return os.environ.get("OPWEAVE_CONFORMANCE_CASES") or str(_paths.generated_dir() / "conformance")


def golden_dir() -> str:
    return os.environ.get("OPWEAVE_GOLDEN_DIR") or str(_paths.work_dir() / "golden")


def reports_dir() -> str:
    return os.environ.get("OPWEAVE_REPORTS_DIR") or str(_paths.work_dir() / "reports")


def build_dir() -> str:
    return str(_paths.build_dir())


def vendors_dir() -> str:
    return os.environ.get("OPWEAVE_VENDORS_DIR") or str(_paths.vendors_dir())


def golden_path(case) -> str:
    return os.path.join(golden_dir(), case.family, case.id + ".safetensors")
