"""python3 -m opweave.conformance {golden,run,replay,report,list}"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys


def _filters(p: argparse.ArgumentParser) -> None:
    p.add_argument("--op", help="DIOPI function name or regex (full match); comma-separated list")
    p.add_argument("--dtype", help="dtype(s), comma-separated")
    p.add_argument("--case", help="regex searched in case ids")


def _reference(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reference", choices=("float64", "none"), default=None,
                   help="an output that differs from the golden data is judged against the case "
                        "computed in float64; closer than the golden data passes (default "
                        "float64, or $OPWEAVE_REFERENCE)")


def _select(args):
    from . import cases
    cat = cases.Catalogue(op=args.op or None)
    selected = cat.select(args.op or None, args.dtype or None, args.case or None)
    if not selected:
        print(f"conformance: no case matches --op {args.op!r} --dtype {args.dtype!r} "
              f"--case {args.case!r}", file=sys.stderr)
    return cat, selected


def cmd_list(args) -> int:
    _cat, selected = _select(args)
    counts: dict[str, dict[str, int]] = {}
    for c in selected:
        counts.setdefault(c.fn.name, {}).setdefault(c.dtype, 0)
        counts[c.fn.name][c.dtype] += 1
        if args.ids:
            print(c.id)
    if not args.ids:
        for fn, d in counts.items():
            print(f"{fn}: {sum(d.values())} ({', '.join(f'{k} {v}' for k, v in d.items())})")
        print(f"{len(selected)} cases")
    return 0 if selected else 1


def cmd_golden(args) -> int:
    from . import golden
    cat, selected = _select(args)
    if not selected:
        return 1
    golden.generate(cat, selected, force=args.force)
    if not (args.op or args.dtype or args.case):
        removed = golden.prune(cat)
        if removed:
            print(f"golden: removed {removed} files of cases no longer in the catalogue",
                  file=sys.stderr)
    return 0


def _reexec_for_vendor(vendor: str | None) -> None:
    """The vendor library is chosen when opweave is imported (OPWEAVE_VENDOR): start again
    with it set when --vendor asks for another one."""
    if vendor and os.environ.get("OPWEAVE_VENDOR", "sim") != vendor:
        os.environ["OPWEAVE_VENDOR"] = vendor
        os.execv(sys.executable, [sys.executable, "-m", "opweave.conformance", *sys.argv[1:]])


def _library_name(path: str) -> str:
    base = os.path.basename(path)
    prefix, suffix = "libopweave_vendor_", ".so"
    return base[len(prefix):-len(suffix)] if base.startswith(prefix) and base.endswith(suffix) else ""


def cmd_run(args) -> int:
    _reexec_for_vendor(args.vendor)
    import opweave
    from . import expectations, report, runner
    info = opweave.report()
    vendor = info["vendor"]
    try:
        exp = expectations.load(vendor)  # a configuration (sim_fp32) shares its vendor's
    except expectations.ExpectationsError as e:
        print(f"conformance: {e}", file=sys.stderr)
        return 2
    cat, selected = _select(args)
    if not selected:
        return 1
    failures = None
    # Reports are per library: sim_fp32 (libopweave_vendor_sim_fp32.so) is a column of its own.
    vendor = _library_name(info["library"]) or vendor
    if not args.no_save_failures:
        failures = os.path.join(report.vendor_dir(vendor), "failures")
        os.makedirs(failures, exist_ok=True)
        for old in glob.glob(os.path.join(failures, "*.safetensors")):
            if any(os.path.basename(old) == c.id + ".safetensors" for c in selected):
                os.unlink(old)
    print(f"conformance: vendor '{vendor}' ({info['library']}), {len(selected)} cases, "
          f"expectations {exp.path if os.path.isfile(exp.path) else '(none)'}", file=sys.stderr)
    results = runner.run_cases(selected, exp, device=args.device, save_failures=failures,
                               reference=args.reference)
    filters = {k: getattr(args, k) for k in ("op", "dtype", "case") if getattr(args, k)}
    doc = report.write(vendor, info, results, cat, filters, args.fresh)
    report.print_summary(doc, results, sys.stdout)
    for f in cat.functions.values():
        if f.unsupported:
            print(f"no cases for {f.name}: {f.unsupported}")
    if failures and any(r.status == "fail" for r in results):
        print(f"failing inputs saved for replay in {failures}/ "
              f"(python3 -m opweave.conformance replay <file>)")
    return 1 if any(r.status == "fail" for r in results) else 0


def cmd_replay(args) -> int:
    _reexec_for_vendor(args.vendor)
    import opweave  # noqa: F401
    from .. import referee
    from . import cases, expectations, runner, tensorfile
    target = args.target
    if os.path.isfile(target):
        try:
            tensors, meta = tensorfile.load(target)
        except tensorfile.TensorFileError as e:
            print(f"conformance: refusing {target}: {e}", file=sys.stderr)
            return 2
        if "case" not in meta or "signature" not in meta:
            print(f"conformance: {target} is not a saved failure (no case metadata)",
                  file=sys.stderr)
            return 2
        spec = json.loads(meta["case"])
        fn = cases.Function(spec.pop("fn"), meta.get("family", ""), json.loads(meta["reference"]),
                            json.loads(meta["signature"]),
                            {k: tuple(v) for k, v in json.loads(meta["tolerances"]).items()})
        case = cases.Case(fn, spec)
        tensors = {k: v for k, v in tensors.items() if k.startswith(("in.", "ref."))}
        meta = {**meta, "status": "ok"}
    else:
        from . import golden
        try:
            case = cases.Catalogue(op=target.split("-")[0]).case(target)
            tensors, meta = golden.load(case)
        except (KeyError, golden.GoldenError, tensorfile.TensorFileError) as e:
            print(f"conformance: {target}: {e}", file=sys.stderr)
            return 2
    vendor = opweave.report()["vendor"]
    r = runner.Runner(expectations.load(vendor) if not args.no_expectations else None,
                      device=args.device, reference=args.reference).run(case, tensors, meta)
    print(f"{case.id} on '{vendor}': {r.status.upper()} ({r.verdict or '-'}) {r.reason}")
    print(f"  shapes {r.shapes}")
    for name, cmp in r.outputs.items():
        print(f"  {name}: {cmp['mismatches']}/{cmp['numel']} off, max abs {cmp['max_abs']:.4g}, "
              f"max rel {cmp['max_rel']:.4g} (atol {cmp['atol']:g}, rtol {cmp['rtol']:g})"
              + (f", first at {cmp['first']['index']}: got {cmp['first']['got']!r} expected "
                 f"{cmp['first']['expected']!r}" if cmp["first"] else "")
              + (f"; {referee.fmt(cmp)}" if "verdict" in cmp else ""))
    return 1 if r.status == "fail" else 0


def _vendors() -> list[str]:
    """Every vendor directory, plus the configurations its kernel_support.<variant>.yaml
    files build (sim_fp32)."""
    from . import paths
    names = [os.path.basename(os.path.dirname(p))
             for p in glob.glob(os.path.join(paths.vendors_dir(), "*", "CMakeLists.txt"))]
    for p in glob.glob(os.path.join(paths.vendors_dir(), "*", "kernel_support.*.yaml")):
        variant = os.path.basename(p)[len("kernel_support."):-len(".yaml")]
        names.append(f"{os.path.basename(os.path.dirname(p))}_{variant}")
    return sorted(names, key=lambda n: (n != "sim", n))


def _adapted(vendor: str) -> dict:
    """{function: "float16, bfloat16 -> float32; dense"} for what the runtime adapts for this
    vendor (asked of the runtime itself, opweave.adaptor_stats, in a fresh process)."""
    code = "import json, opweave; print(json.dumps(opweave.adaptor_stats()))"
    proc = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, OPWEAVE_VENDOR=vendor),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return {}
    out = {}
    for fn, f in json.loads(proc.stdout)["functions"].items():
        by_target: dict[str, list[str]] = {}
        for src, dst in f["conversions"].items():
            by_target.setdefault(dst or "CPU", []).append(src)
        parts = [f"{', '.join(srcs)} -> {dst}" for dst, srcs in by_target.items()]
        out[fn] = "; ".join(parts + (["dense"] if f["contiguous"] else []))
    return out


def cmd_report(args) -> int:
    from . import cases, paths, report
    vendors = [v for v in args.vendors.split(",") if v] if args.vendors else _vendors()
    for v in vendors:
        lib = os.path.join(paths.build_dir(), "lib", f"libopweave_vendor_{v}.so")
        if (args.refresh or (args.run_missing and report.load_report(v) is None)) and os.path.isfile(lib):
            print(f"report: running the conformance suite for '{v}'", file=sys.stderr)
            env = dict(os.environ, OPWEAVE_VENDOR=v)
            subprocess.run([sys.executable, "-m", "opweave.conformance", "run", "--fresh"],
                           env=env, stdout=subprocess.DEVNULL)
    cat = cases.Catalogue()
    functions = [(f.name, f.family, f.unsupported) for f in cat.functions.values()]
    md, page = report.write_matrix(vendors, functions, {v: _adapted(v) for v in vendors})
    print(f"support matrix: {md}, {page} ({len(functions)} functions x {len(vendors)} vendors)")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m opweave.conformance", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("list", help="cases per function and dtype (--ids: the case ids)")
    _filters(p)
    p.add_argument("--ids", action="store_true")
    p.set_defaults(fn=cmd_list)
    p = sub.add_parser("golden", help="compute reference data (ATen on CPU) into golden/")
    _filters(p)
    p.add_argument("--force", action="store_true", help="rewrite files that are up to date")
    p.set_defaults(fn=cmd_golden)
    p = sub.add_parser("run", help="run cases against the vendor; exit 1 if any case fails")
    _filters(p)
    p.add_argument("--vendor", help="vendor library to load (sets OPWEAVE_VENDOR)")
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--fresh", action="store_true", help="replace the vendor's report instead of "
                                                        "updating the cases this run covers")
    p.add_argument("--no-save-failures", action="store_true")
    _reference(p)
    p.set_defaults(fn=cmd_run)
    p = sub.add_parser("replay", help="re-run one case: a saved failure file or a case id")
    p.add_argument("target")
    p.add_argument("--vendor")
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--no-expectations", action="store_true")
    _reference(p)
    p.set_defaults(fn=cmd_replay)
    p = sub.add_parser("report", help="write reports/support_matrix.{md,html}")
    p.add_argument("--vendors", help="comma-separated (default: every vendors/*/)")
    p.add_argument("--run-missing", action="store_true",
                   help="run the suite for vendors that have no report yet")
    p.add_argument("--refresh", action="store_true", help="re-run the suite for every vendor")
    p.set_defaults(fn=cmd_report)
    args = parser.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
