#!/usr/bin/env python3
"""Renders the results.json written by integration/run-gpu.sh as a markdown table.

    python3 integration/render-results.py OUTDIR/results.json > table.md
    python3 integration/render-results.py --check OUTDIR/results.json   # also exit 1 on a surprise

The check of each case, and what its buggy program is expected to do, come from cases.json beside
this script. A surprise is a fixed program that failed, or a buggy program expected to fail
('fails') that was not seen failing, or a program that did not run.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STANDARD = {"case", "variant", "instances", "failures", "sanitizer", "build", "exit", "wall_s", "command"}


def fmt(v):
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:.3g}"
    if isinstance(v, dict):
        return ", ".join(f"{k}={fmt(x)}" for k, x in v.items())
    if v is None:
        return "-"
    return str(v)


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def details(r, keys):
    keys = keys or [k for k in r if k not in STANDARD]
    parts = []
    for k in keys:
        if k not in r:
            continue
        v = r[k]
        parts.append(f"{k}: {{{fmt(v)}}}" if isinstance(v, dict) else f"{k}: {fmt(v)}")
    return "; ".join(parts)


def sanitizer(r):
    san = r.get("sanitizer")
    if not san:
        return ""
    parts = []
    for tool, s in san.items():
        bits = [f"{fmt(s.get('errors'))} errors"]
        if "hazards" in s:
            bits.append(f"{fmt(s['hazards'])} hazards")
        bits.append(f"exit {s.get('exit')}")
        bits.append(f"failures seen {fmt(s.get('failures_seen'))} in {fmt(s.get('instances'))}")
        if s.get("note"):
            bits.append(s["note"])
        parts.append(f"{tool}: " + ", ".join(bits))
    return "; ".join(parts)


def verdict(r, expected):
    """(text, surprise)"""
    if r.get("skipped"):
        return f"skipped ({r['skipped']})", False
    if r.get("error") or r.get("failures") is None:
        return f"ERROR: {r.get('error', 'no result')} (exit {r.get('exit')})", True
    n, f = r.get("instances"), r["failures"]
    if r["variant"] == "fixed":
        return (f"ok: 0 in {fmt(n)}", False) if f == 0 else (f"FIX FAILS: {fmt(f)} in {fmt(n)}", True)
    if expected == "race-not-guaranteed":
        if f:
            return f"race observed: {fmt(f)} in {fmt(n)}", False
        return f"not observed in {fmt(n)} (a race: undefined behaviour that this GPU need not show)", False
    return (f"fails, as expected: {fmt(f)} in {fmt(n)}", False) if f else (f"NOT REPRODUCED: 0 in {fmt(n)}", True)


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    data = json.load(open(args[0]))
    header, results = data["header"], data["results"]
    cases = {c["case"]: c for c in json.load(open(os.path.join(HERE, "cases.json")))["cases"]}

    out = ["# cuda-scope GPU integration results", ""]
    secs = header.get("seconds", {})
    out.append(f"- GPU: {header.get('gpu')}; {header.get('nvcc')}; flags `{header.get('nvcc_flags')}`")
    out.append(f"- compute-sanitizer: {header.get('compute_sanitizer')}")
    out.append(f"- date (UTC): {header.get('date_utc')}; host: {header.get('host')}")
    out.append("- wall time: " + ", ".join(f"{k} {v:.0f} s" for k, v in secs.items()))
    if header.get("dry_run"):
        out.append("- DRY RUN: built only")
    out += ["", "| case | check that flags it | variant | instances | failures | details | sanitizer | verdict |",
            "| --- | --- | --- | ---: | ---: | --- | --- | --- |"]
    surprises = 0
    for r in results:
        c = cases.get(r["case"], {})
        text, surprise = verdict(r, c.get("expected", "fails"))
        surprises += surprise
        row = [f"`{r['case']}`", f"`{c.get('check', '?')}`", r["variant"], fmt(r.get("instances")),
               fmt(r.get("failures")), details(r, c.get("details")), sanitizer(r), text]
        out.append("| " + " | ".join(cell(x) for x in row) + " |")
    out.append("")
    out.append(f"{len(results)} programs, {surprises} surprise(s). 'fails': the buggy program must be seen failing; "
               "'race-not-guaranteed': a data race under the memory model that this GPU is not bound to show, "
               "so zero observed is reported as 'not observed in N', never as a pass.")
    print("\n".join(out))
    return 1 if (check and surprises) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
