"""Command line: `python3 -m codegen {gen,check,new-vendor}`."""

from __future__ import annotations

import argparse
import os
import sys
import time

from . import output_set
from .errors import SpecError, SpecErrors
from .pipeline import generate, load_catalogue, load_dicp
from .render import RenderError

DEFAULT_SPEC = os.path.join("specs", "ops.yaml")
DEFAULT_OUT = "generated"
DEFAULT_VENDORS = "vendors"


def _load_and_generate(args):
    vendors = args.vendors
    if vendors is None:  # a spec of its own (tests, bench) is not the one vendors/ answers
        vendors = DEFAULT_VENDORS if os.path.normpath(args.spec) == DEFAULT_SPEC else ""
    cat = load_catalogue(args.spec, vendors_dir=vendors)
    return cat, generate(cat, load_dicp(cat))


def cmd_gen(args) -> int:
    start = time.perf_counter()
    cat, outputs = _load_and_generate(args)
    d = output_set.write(outputs, args.out)
    elapsed = time.perf_counter() - start
    written = len(d.changed) + len(d.added)
    print(f"codegen: {len(cat.functions)} DIOPI functions, {len(cat.bindings)} ATen overloads; "
          f"{written} files written, {len(outputs.files) - written} unchanged, "
          f"{len(d.removed)} removed ({elapsed:.2f} s)")
    for rel in d.changed + d.added:
        print(f"  wrote {os.path.join(args.out, rel)}")
    return 0


def cmd_check(args) -> int:
    _cat, outputs = _load_and_generate(args)
    d = output_set.diff(outputs, args.out)
    if d.clean:
        print(f"codegen: {args.out}/ is up to date with {args.spec}")
        return 0
    print(f"codegen: {args.out}/ is stale: run `make gen` and commit the result", file=sys.stderr)
    for label, files in (("differs", d.changed), ("missing", d.added), ("not generated", d.removed)):
        for rel in files:
            print(f"  {label}: {os.path.join(args.out, rel)}", file=sys.stderr)
    return 1


def cmd_new_vendor(args) -> int:
    from . import new_vendor
    return new_vendor.main(args.name)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m codegen", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, fn, help_text in (("gen", cmd_gen, "generate into the output directory"),
                                ("check", cmd_check, "fail if the output directory is stale")):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("--spec", default=DEFAULT_SPEC)
        p.add_argument("--out", default=DEFAULT_OUT)
        p.add_argument("--vendors", default=None,
                       help="folder of vendors whose kernel_support*.yaml feed the adaptor "
                            "('' for none; default: vendors/ with the default spec, else none)")
        p.set_defaults(fn=fn)
    p = sub.add_parser("new-vendor", help="scaffold vendors/NAME/ (safe to re-run)")
    p.add_argument("name")
    p.set_defaults(fn=cmd_new_vendor)
    args = parser.parse_args(argv)
    try:
        return args.fn(args)
    except SpecErrors as e:
        for err in e.errors:
            print(err.format(), file=sys.stderr)
        print(f"codegen: {len(e.errors)} error(s) in {args.spec} or a vendor's kernel_support "
              f"file; nothing was written",
              file=sys.stderr)
        return 1
    except SpecError as e:
        print(e.format(), file=sys.stderr)
        print(f"codegen: error in {args.spec} or a vendor's kernel_support file; nothing was "
              f"written", file=sys.stderr)
        return 1
    except (RenderError, OSError) as e:
        print(f"codegen: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
