"""Prints a cuda-scope --format=json report one line per finding, error, failure and skipped part,
for FileCheck.
USAGE: python3 summarize.py < report.json"""
import json
import os
import sys

report = json.load(sys.stdin)
for kind in ("findings", "errors"):
    for d in report[kind]:
        where = f"{os.path.basename(d['file'])}:{d['line']}:{d['column']}" if d["file"] else "-"
        notes = " ".join(f"{os.path.basename(n['file'])}:{n['line']}" for n in d.get("notes", []))
        print(f"{kind[:-1]} {where} {d.get('check', '-')} sides={','.join(d['sides'])} notes=[{notes}]")
for f in report["failed"]:
    print(f"failed {os.path.basename(f['file'])} {f['side']}: {f['reason']}")
for k in report.get("skipped", []):
    print(f"skipped {os.path.basename(k['file'])}:{k['line']}:{k['column']} {k['kind']} {k['what']} "
          f"sides={','.join(k['sides'])}")
print(f"files {len(report['files'])}")
