#!/usr/bin/env python3
"""Joins a corpus run with the judged verdicts: precision of every scope and release/acquire finding.

USAGE: bench/realcode/precision.py RESULTS.json [--verdicts verdicts.json] [--markdown] [--unjudged] [--by-half]

RESULTS.json is what run.py writes. verdicts.json (beside this script) holds one verdict per claim,
judged by reading the code against the PTX memory model (shared/seeds/): a claim is a project, a
file, a line, a check and what the finding says happens there (publish, receive, fence, mismatch,
insufficient), so the clang-tidy checks and the IR pass, which word it differently, share it:
    {"project": ..., "file": ..., "line": N, "check": "cuda-scope-release-acquire",
     "kind": "receive", "verdict": "bug" | "false", "reason": "..."}
Prints, per check and front end, the distinct findings in the projects' own files, how many were
judged real bugs, false, or not yet judged, and the precision (bugs / judged), over all projects and,
with --by-half, per half of the corpus (each project's "half" in RESULTS.json); --markdown prints
the same as tables with every finding and its reason; --unjudged lists what needs a verdict.
Exits 1 when a finding has no verdict.
"""
import argparse
import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import diagnostics  # noqa: E402  (the cuda-scope command's package, put on the path by run.py)
RULES = ("cuda-scope-mismatch", "cuda-scope-insufficient", "cuda-scope-release-acquire")


def kind_of(check, message):
    """What the finding claims happens at its line: for the release/acquire rule, read from the
    message as the cuda-scope command reads it when it merges the two front ends' findings."""
    if check != "cuda-scope-release-acquire":
        return check[len("cuda-scope-"):]
    return diagnostics.claim_of(message) or "other"


def findings(results):
    """(front end, key) -> a finding, for the projects' own files; key = (project, file, line, check, kind)."""
    out = {}
    for project in results["projects"]:
        for tu in project["tus"]:
            for front, field in (("tidy", "tidy_findings"), ("pass", "pass_findings")):
                for f in tu.get(field, []):
                    if f.get("check") not in RULES or f.get("where", "project") != "project" or not f.get("file"):
                        continue
                    key = (project["name"], f["file"], f["line"], f["check"], kind_of(f["check"], f["message"]))
                    out.setdefault((front, key), dict(f, tu=tu["file"]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--verdicts", default=os.path.join(HERE, "verdicts.json"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--unjudged", action="store_true")
    ap.add_argument("--by-half", action="store_true", help="also the figures of each half of the corpus")
    args = ap.parse_args()
    with open(args.results) as f:
        results = json.load(f)
    verdicts = {}
    if os.path.exists(args.verdicts):
        with open(args.verdicts) as f:
            for v in json.load(f):
                verdicts[(v["project"], v["file"], v["line"], v["check"], v["kind"])] = v
    found = findings(results)
    half_of = {p["name"]: p.get("half", "-") for p in results["projects"]}
    table = collections.defaultdict(collections.Counter)
    missing = []
    for (front, key), f in sorted(found.items()):
        v = verdicts.get(key)
        verdict = v["verdict"] if v else "unjudged"
        table[(key[3], front, None)][verdict] += 1
        table[(key[3], front, half_of.get(key[0], "-"))][verdict] += 1
        if not v:
            missing.append((front, key, f))

    def rows_of(half):
        rows = []
        for check in RULES:
            for front in ("tidy", "pass"):
                c = table.get((check, front, half), collections.Counter())
                judged = c["bug"] + c["false"]
                precision = f"{100.0 * c['bug'] / judged:.0f}%" if judged else "-"
                rows.append((check, front, sum(c.values()), c["bug"], c["false"], c["unjudged"], precision))
        return rows
    rows = rows_of(None)
    if args.markdown:
        print("| check | front end | findings | real bugs | false | unjudged | precision |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
        for r in rows:
            print("| `%s` | %s | %d | %d | %d | %d | %s |" % r)
        print()
        print("| project | file:line | check | claim | clang-tidy | IR pass | verdict | why |")
        print("| --- | --- | --- | --- | :---: | :---: | --- | --- |")
        keys = sorted({key for (_, key) in found})
        for key in keys:
            v = verdicts.get(key, {})
            print("| %s | `%s:%d` | %s | %s | %s | %s | %s | %s |" % (
                key[0], key[1], key[2], key[3][len("cuda-scope-"):], key[4],
                "yes" if ("tidy", key) in found else "", "yes" if ("pass", key) in found else "",
                v.get("verdict", "**unjudged**"), v.get("reason", "").replace("|", "\\|")))
    else:
        for r in rows:
            print("%-28s %-5s findings %3d  bugs %3d  false %3d  unjudged %3d  precision %s" % r)
    if args.by_half:
        for half in sorted({h for h in half_of.values()}):
            print(f"\n{half} half:")
            for r in rows_of(half):
                print("%-28s %-5s findings %3d  bugs %3d  false %3d  unjudged %3d  precision %s" % r)
    if args.unjudged:
        for front, key, f in missing:
            print(f"unjudged {front}: {key[0]} {key[1]}:{key[2]} {key[3]} {key[4]}: {f['message'][:160]}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
