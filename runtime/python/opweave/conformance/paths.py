"""Where the conformance suite reads and writes (all overridable by environment)."""

from __future__ import annotations

import os
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[4]


def repo() -> str:
    return str(REPO)


def cases_dir() -> str:
    return os.environ.get("OPWEAVE_CONFORMANCE_CASES") or str(REPO / "generated" / "conformance")


def golden_dir() -> str:
    return os.environ.get("OPWEAVE_GOLDEN_DIR") or str(REPO / "golden")


def reports_dir() -> str:
    return os.environ.get("OPWEAVE_REPORTS_DIR") or str(REPO / "reports")


def build_dir() -> str:
    return os.environ.get("OPWEAVE_BUILD_DIR") or str(REPO / "build")


def vendors_dir() -> str:
    return os.environ.get("OPWEAVE_VENDORS_DIR") or str(REPO / "vendors")


def golden_path(case) -> str:
    return os.path.join(golden_dir(), case.family, case.id + ".safetensors")
