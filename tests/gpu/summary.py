"""The figures of a GPU run (tests/gpu/run.sh) in one table: conformance per function and dtype
(pass / fail / declined), the op matrix and model losses of the GPU tests, the training-step
ratio against native CUDA and what fell back. Reads what run.sh left in its work folder.

    python3 tests/gpu/summary.py WORK_DIR
"""

from __future__ import annotations

import collections
import glob
import json
import os
import sys


def conformance(path: str) -> None:
    if not os.path.isfile(path):
        print("conformance: no report")
        return
    doc = json.load(open(path))
    print(f"conformance: {doc['totals']}")
    cells = collections.defaultdict(collections.Counter)
    for case in doc["cases"]:
        cells[(case["fn"], case["dtype"])][case["status"]] += 1
    print(f"{'function':32} {'dtype':9} pass fail skip declined")
    for (fn, dtype), c in sorted(cells.items()):
        if c["pass"] + c["fail"] == 0:
            continue  # not implemented by the vendor: the fallback's business
        print(f"{fn:32} {dtype:9} {c['pass']:4} {c['fail']:4} {c['skip']:4} "
              f"{c['not_implemented']:8}")
    failing = [case for case in doc["cases"] if case["status"] == "fail"]
    for case in failing[:40]:
        print(f"  FAIL {case['id']}: {case['reason'][:160]}")


def gpu_tests(folder: str) -> None:
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        doc = json.load(open(path))
        name = os.path.basename(path)[:-5]
        if "results" in doc:
            bad = {k: v for k, v in doc["results"].items() if v != "pass"}
            print(f"{name}: {len(doc['results']) - len(bad)}/{len(doc['results'])} pass; "
                  f"fallbacks {doc['fallbacks']}")
            for k, v in sorted(bad.items()):
                print(f"  {k}: {v}")
            continue
        for model, r in doc.items():
            rel = max(abs(a - b) / abs(b) for a, b in zip(r["dev"], r["cpu"]))
            print(f"{name}/{model}: loss {r['cpu'][0]:.4f} -> {r['cpu'][-1]:.4f} (CPU), max rel "
                  f"diff {rel:.2e}; fallbacks {r['fallbacks']}")


def main(work: str) -> int:
    conformance(os.path.join(work, "reports", "cuda", "conformance.json"))
    gpu_tests(os.path.join(work, "tests"))
    bench = os.path.join(work, "bench.json")
    if os.path.isfile(bench):
        try:
            doc = json.load(open(bench))
        except ValueError:
            print("bench: no JSON (see bench.json)")
            return 0
        for model, r in doc["models"].items():
            print(f"bench/{model}: native {r['native_ms']} ms, opweave {r['opweave_ms']} ms, "
                  f"ratio native/opweave {r['ratio_native_over_opweave']}; fallbacks "
                  f"{r['fallbacks']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
