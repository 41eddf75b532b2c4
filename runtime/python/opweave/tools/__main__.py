"""python3 -m opweave.tools {replay,to-conformance,ls} ..."""

from __future__ import annotations

import sys

USAGE = """usage: python3 -m opweave.tools COMMAND ...

commands:
  replay PATH...          re-run captured calls on the device: accuracy vs CPU, timing
                          (same as opweave-replay / python3 -m opweave.tools.replay)
  to-conformance CAPTURE  turn a capture into conformance cases + golden data
                          (python3 -m opweave.tools.to_conformance)
  ls CAPTURE              list the calls of a capture directory
"""


def _ls(argv) -> int:
    import collections

    from .capture import read_index
    if len(argv) != 1:
        print("usage: python3 -m opweave.tools ls CAPTURE_DIR", file=sys.stderr)
        return 2
    entries = read_index(argv[0])
    calls = [e for e in entries if e["kind"] == "call"]
    grads = {(e["seq"], e["output"]) for e in entries if e["kind"] == "grad_out"}
    for e in calls:
        g = sorted(o for s, o in grads if s == e["seq"])
        shapes = ", ".join(f"{d}{s}" for d, s in e["inputs"])
        print(f"{e['seq']:>6}  {e['op']:<36} {shapes}" + (f"  grad_out {g}" if g else ""))
    per_op = collections.Counter(e["op"] for e in calls)
    skipped = sum(1 for e in entries if e["kind"] == "skipped")
    print(f"{len(calls)} calls of {len(per_op)} ops, {len(grads)} output gradients"
          + (f", {skipped} skipped (size cap)" if skipped else ""))
    return 0


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if argv else 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "replay":
        from .replay import main as run
        return run(rest)
    if cmd in ("to-conformance", "to_conformance"):
        from .to_conformance import main as run
        return run(rest)
    if cmd == "ls":
        return _ls(rest)
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    from opweave.tools.process_exit import exit_now

    exit_now(main())
