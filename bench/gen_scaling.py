"""Generation time against catalogue size: specs/ops.yaml cloned x1, x4, x8, x16.

Clones rename every family and DIOPI function (`add_x2`, `diopiX2Add`: the prefix keeps a
backward's name its forward's plus `Backward`, and `forward:` references follow) and keep
the ATen schemas, so each clone costs what a real entry costs to validate and emit; the one
check a clone breaks (an ATen overload routed once) is switched off for this measurement only.
Prints `name: value` lines; also checks that a no-op `make gen` rewrites nothing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from codegen import output_set  # noqa: E402
from codegen.aten_index import default_index  # noqa: E402
from codegen.build_model import build_catalogue  # noqa: E402
from codegen.pipeline import generate  # noqa: E402
from codegen.yaml_loader import load_yaml  # noqa: E402
from benchlib import QUICK  # noqa: E402

FACTORS = (1, 2) if QUICK else (1, 4, 8, 16)


def scaled_spec(text: str, factor: int) -> str:
    head, ops = text.split("\nops:\n", 1)
    # Top-level keys after the op list (`foreach:`) stay once, after the clones.
    tail_at = re.search(r"^(?:#.*\n)*[A-Za-z_]\w*:", ops, flags=re.M)
    ops, tail = (ops[:tail_at.start()], ops[tail_at.start():]) if tail_at else (ops, "")
    # Runtime-only functions (device copies) have no ATen reference to clone: skip them.
    blocks = re.split(r"(?=^  - name: )", ops, flags=re.M)
    cloneable = "".join(b for b in blocks if "runtime:" not in b)
    clones = [ops]
    for k in range(2, factor + 1):
        clone = re.sub(r"(- name: )(\w+)", rf"\g<1>\g<2>_x{k}", cloneable)
        clone = re.sub(r"((?:diopi|forward): )diopi(\w+)", rf"\g<1>diopiX{k}\g<2>", clone)
        clones.append(clone)
    return head + "\nops:\n" + "".join(clones) + tail


def time_generation(spec_text: str) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        spec = os.path.join(tmp, "ops.yaml")
        with open(spec, "w") as f:
            f.write(spec_text)
        start = time.perf_counter()
        cat = build_catalogue(load_yaml(spec), spec, default_index(), unique_aten=False)
        outputs = generate(cat)
        output_set.write(outputs, os.path.join(tmp, "generated"))
        return time.perf_counter() - start, len(cat.functions)


def main() -> int:
    text = open(os.path.join(REPO, "specs", "ops.yaml")).read()
    default_index()  # parsed once per process, as in `make gen`
    base = None
    for factor in FACTORS:
        seconds, functions = time_generation(scaled_spec(text, factor))
        base = base or seconds
        print(f"gen_seconds.x{factor}: {seconds:.3f}  ({functions} DIOPI functions, "
              f"{1000 * seconds / functions:.2f} ms per function, {seconds / base:.2f}x of x1)")
    proc = subprocess.run([sys.executable, "-m", "codegen", "gen"], cwd=REPO, capture_output=True,
                          text=True, check=True)
    written = re.search(r"(\d+) files written", proc.stdout).group(1)
    print(f"gen_noop_files_written: {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
