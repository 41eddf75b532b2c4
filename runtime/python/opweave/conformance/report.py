"""Conformance reports (reports/<vendor>/) and the support matrix (reports/support_matrix.*).

A vendor's report accumulates: a run restricted by --op/--dtype replaces the results of the
cases it ran and keeps the others (so fixing one kernel and re-running it updates the
matrix); `--fresh` starts over. Cases no longer in the catalogue are dropped.
"""

from __future__ import annotations

import csv
import datetime
import html
import json
import os

import torch

from . import paths
from .runner import STATUSES, Result, summarize


def vendor_dir(vendor: str) -> str:
    return os.path.join(paths.reports_dir(), vendor)


def report_path(vendor: str) -> str:
    return os.path.join(vendor_dir(vendor), "conformance.json")


def load_report(vendor: str) -> dict | None:
    try:
        with open(report_path(vendor), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _atomic_write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(tmp, path)


def write(vendor: str, info: dict, results: list[Result], cat, filters: dict,
          fresh: bool) -> dict:
    """Merge `results` into the vendor's report; earlier results of cases the (possibly
    partial) catalogue `cat` no longer has are dropped, those of families it did not load
    are kept."""
    old = None if fresh else load_report(vendor)
    known_ids = {c.id for f in cat.functions.values() for c in f.cases}
    loaded = set(cat.functions)
    all_fns = set(info["diopi"]["resolved"]) | set(info["diopi"]["missing"])
    by_id = {}
    if old:
        for r in old.get("cases", []):
            if r["id"] in known_ids or (r["fn"] not in loaded and r["fn"] in all_fns):
                by_id[r["id"]] = r
    for r in results:
        by_id[r.id] = r.to_json()
    merged = [Result(**r) for r in sorted(by_id.values(), key=lambda r: r["id"])]
    resolved = set(info["diopi"]["resolved"])
    all_fns = info["diopi"]["resolved"] + info["diopi"]["missing"]
    ops = summarize(merged, {f: f in resolved for f in all_fns})
    totals = {s: sum(1 for r in merged if r.status == s) for s in STATUSES}
    doc = {
        "vendor": vendor, "library": info.get("library"), "torch": torch.__version__,
        "updated": datetime.datetime.now().isoformat(timespec="seconds"),
        "last_run": {"filters": filters, "cases": len(results),
                     **{s: sum(1 for r in results if r.status == s) for s in STATUSES}},
        "totals": {"cases": len(merged), **totals},
        "functions": ops,
        "cases": [r.to_json() for r in merged],
    }
    _atomic_write(report_path(vendor), json.dumps(doc, indent=1, allow_nan=False) + "\n")
    # CSV twins for spreadsheets
    d = vendor_dir(vendor)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "cases.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "function", "dtype", "tag", "status", "max_abs", "max_rel", "shapes",
                    "reason", "verdict", "device_cpu", "device_float64", "cpu_float64"])
        for r in merged:
            w.writerow([r.id, r.fn, r.dtype, r.tag, r.status, r.max_abs, r.max_rel,
                        json.dumps(r.shapes, separators=(",", ":")), r.reason, r.verdict,
                        r.device_cpu, r.device_float64, r.cpu_float64])
    with open(os.path.join(d, "functions.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["function", "family", "native", "exported", "total", *STATUSES, "pass_rate",
                    "max_abs", "max_rel"])
        for name, o in ops.items():
            w.writerow([name, o["family"], o["native"], o["exported"], o["total"],
                        *[o[s] for s in STATUSES], o["pass_rate"], o["max_abs"], o["max_rel"]])
    return doc


def print_summary(doc: dict, results: list[Result], out, max_failures: int = 25) -> None:
    """Console summary of this run: failing cases, functions not implemented, totals."""
    failed = [r for r in results if r.status == "fail"]
    for r in failed[:max_failures]:
        out.write(f"FAIL {r.id}: {r.reason}\n")
    if len(failed) > max_failures:
        out.write(f"... {len(failed) - max_failures} more failures in {report_path(doc['vendor'])}\n")
    cleared = [r for r in results if r.status == "pass" and r.verdict not in ("", "pass")]
    for r in cleared[:max_failures]:   # differ from the golden data, closer to float64 than it
        out.write(f"{r.verdict} {r.id}: {r.reason}\n")
    ran_fns: dict[str, dict] = {}
    for r in results:
        o = ran_fns.setdefault(r.fn, {s: 0 for s in STATUSES})
        o[r.status] += 1
    width = max((len(n) for n in ran_fns), default=8)
    out.write(f"{'function':<{width}}  {'pass':>5} {'fail':>5} {'skip':>5} {'n/i':>5}\n")
    for name, o in ran_fns.items():
        mark = " <-- FAIL" if o["fail"] else ""
        out.write(f"{name:<{width}}  {o['pass']:>5} {o['fail']:>5} {o['skip']:>5} "
                  f"{o['not_implemented']:>5}{mark}\n")
    skips: dict[str, int] = {}
    for r in results:
        if r.status == "skip":
            skips[r.reason] = skips.get(r.reason, 0) + 1
    for reason, n in sorted(skips.items(), key=lambda kv: -kv[1]):
        out.write(f"skipped {n}: {reason}\n")
    n = len(results)
    counts = {s: sum(1 for r in results if r.status == s) for s in STATUSES}
    fns_fail = sorted({r.fn for r in failed})
    out.write(f"conformance [{doc['vendor']}]: {n} cases: {counts['pass']} pass, "
              f"{counts['fail']} fail, {counts['skip']} skip, {counts['not_implemented']} "
              f"not-implemented; failing functions: {', '.join(fns_fail) or 'none'}"
              + (f"; {len(cleared)} passing cases differ from the golden data, cleared by "
                 "the float64 referee (device_closer or within_float64)" if cleared else "") + "\n")
    out.write(f"report: {report_path(doc['vendor'])} (+ cases.csv, functions.csv)\n")


# ---------------------------------------------------------------- support matrix

def _cell(o: dict | None, unsupported: str = "", adapted: str = "") -> dict:
    if o is None:
        if unsupported:
            return {"mode": "-", "rate": "no cases", "skipped": f"generator: {unsupported}"}
        return {"mode": "-", "rate": "no run", "skipped": ""}
    mode = "native" if o["native"] else "fallback"
    if adapted and o["native"]:
        mode = f"adapted ({adapted})"
    ran = o["pass"] + o["fail"]
    rate = f"{o['pass']}/{ran} ({100.0 * o['pass'] / ran:.0f}%)" if ran else "-"
    if ran and o["not_implemented"]:
        rate += f", {o['not_implemented']} not implemented"
    skipped = ""
    if o["skip"]:
        reasons = "; ".join(f"{n}x {r}" for r, n in o["skip_reasons"].items())
        skipped = f"{o['skip']} ({reasons})"
    return {"mode": mode, "rate": rate, "skipped": skipped,
            "not_implemented": o["not_implemented"]}


def support_matrix(vendors: list[str], functions: list[tuple[str, str, str]],
                   adapted: dict | None = None) -> tuple[str, str]:
    """(markdown, html) of the matrix: one row per DIOPI function, per vendor: native,
    adapted (the runtime's adaptor converts some dtypes or layouts on the device first:
    `adapted[vendor][function]` says which) or CPU fallback, conformance pass rate, skipped
    cases with reasons."""
    adapted = adapted or {}
    docs = {v: load_report(v) for v in vendors}
    stamp = datetime.datetime.now().isoformat(timespec="seconds")
    md = ["# OpWeave support matrix\n",
          f"Generated {stamp} from reports/<vendor>/conformance.json (torch {torch.__version__}).",
          "native: the vendor runs the function on the device (it exports the kernel and the "
          "kernel does not answer diopiNoImplement); adapted: native, and the adaptor converts "
          "the dtypes listed on the device first (vendors/<name>/kernel_support*.yaml; the "
          "pass rate is the kernel's own, in the dtypes it accepts); fallback: the op runs on "
          "CPU. Pass rate counts the cases that ran (pass + fail).\n"]
    for v in vendors:
        d = docs[v]
        if d:
            t = d["totals"]
            md.append(f"- **{v}**: {t['cases']} cases, {t['pass']} pass, {t['fail']} fail, "
                      f"{t['skip']} skip, {t['not_implemented']} not-implemented "
                      f"(updated {d['updated']})")
        else:
            md.append(f"- **{v}**: no conformance report (run `make conformance VENDOR={v}`)")
    md.append("")
    header = "| function | family | " + " | ".join(
        f"{v} | {v} pass rate | {v} skipped" for v in vendors) + " |"
    md.append(header)
    md.append("|" + "---|" * (2 + 3 * len(vendors)))
    rows = []
    for fn, fam, unsupported in functions:
        cells = []
        for v in vendors:
            d = docs[v]
            cells.append(_cell(d["functions"].get(fn) if d else None, unsupported,
                               adapted.get(v, {}).get(fn, "")))
        rows.append((fn, fam, cells))
        md.append(f"| {fn} | {fam} | " + " | ".join(
            f"{c['mode']} | {c['rate']} | {c['skipped'] or '-'}" for c in cells) + " |")
    native_counts = {v: sum(1 for _, _, cells in rows
                            if cells[i]["mode"] == "native" or cells[i]["mode"].startswith("adapted"))
                     for i, v in enumerate(vendors)}
    md.append("| **native functions** | | " + " | ".join(
        f"**{native_counts[v]}/{len(rows)}** | | " for v in vendors) + " |")
    markdown = "\n".join(md) + "\n"

    esc = html.escape
    h = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'><title>OpWeave support matrix</title>",
         "<style>body{font-family:sans-serif;font-size:13px}table{border-collapse:collapse}"
         "td,th{border:1px solid #bbb;padding:2px 6px}th{background:#eee}"
         ".native{background:#d8f5d0}.adapted{background:#d0e4f5}.fallback{background:#f5e6c8}.bad{color:#b00;font-weight:bold}"
         ".none{color:#888}</style></head><body>",
         "<h1>OpWeave support matrix</h1>",
         f"<p>Generated {esc(stamp)} from reports/&lt;vendor&gt;/conformance.json "
         f"(torch {esc(torch.__version__)}). <b>native</b>: the vendor runs the function on the "
         "device; <b>fallback</b>: the op runs on CPU. Pass rate counts the cases that ran.</p><ul>"]
    for v in vendors:
        d = docs[v]
        if d:
            t = d["totals"]
            h.append(f"<li><b>{esc(v)}</b>: {t['cases']} cases, {t['pass']} pass, {t['fail']} fail, "
                     f"{t['skip']} skip, {t['not_implemented']} not-implemented; "
                     f"{native_counts[v]}/{len(rows)} functions native (updated {esc(d['updated'])})</li>")
        else:
            h.append(f"<li><b>{esc(v)}</b>: no conformance report</li>")
    h.append("</ul><table><tr><th rowspan=2>function</th><th rowspan=2>family</th>" +
             "".join(f"<th colspan=3>{esc(v)}</th>" for v in vendors) + "</tr><tr>" +
             "<th>mode</th><th>pass rate</th><th>skipped</th>" * len(vendors) + "</tr>")
    for fn, fam, cells in rows:
        tds = []
        for c in cells:
            cls = c["mode"].split(" ")[0] if c["mode"] != "-" else "none"
            bad = " bad" if "%" in c["rate"] and "(100%)" not in c["rate"] else ""
            tds.append(f"<td class='{cls}'>{esc(c['mode'])}</td><td class='{cls}{bad}'>"
                       f"{esc(c['rate'])}</td><td>{esc(c['skipped']) or '-'}</td>")
        h.append(f"<tr><td>{esc(fn)}</td><td>{esc(fam)}</td>{''.join(tds)}</tr>")
    h.append("</table></body></html>")
    return markdown, "\n".join(h) + "\n"


def write_matrix(vendors: list[str], functions: list[tuple[str, str, str]],
                 adapted: dict | None = None) -> tuple[str, str]:
    markdown, page = support_matrix(vendors, functions, adapted)
    md_path = os.path.join(paths.reports_dir(), "support_matrix.md")
    html_path = os.path.join(paths.reports_dir(), "support_matrix.html")
    _atomic_write(md_path, markdown)
    _atomic_write(html_path, page)
    return md_path, html_path
