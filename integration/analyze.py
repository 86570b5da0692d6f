#!/usr/bin/env python3
"""Runs the analyzer on every integration pair: the cuda-scope clang-tidy checks (host side) and
the device-IR pass (-O2), and says which checks flag the buggy and the fixed program.

USAGE: integration/analyze.py [--build build] [--json OUT.json] [--assert]
With --assert it fails when a buggy program is not flagged with its expected check, or a fixed one
is flagged at all, for the checks this build implements (those listed by --list-checks, plus the
rules the IR pass reports).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = "/usr/lib/llvm-22/bin"
CUDA = os.environ.get("CUDA_PATH", "/usr/local/cuda")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from cuda_scope.common import PASS_COMPILE_FLAGS  # noqa: E402
from cuda_scope.diagnostics import remark_names  # noqa: E402
FLAGS = [f"--cuda-path={CUDA}", f"-I{CUDA}/include/cccl", f"-I{ROOT}/integration/common",
         "-Wno-unknown-cuda-version", "-std=c++17"]
# Rules both the clang-tidy checks and the IR pass apply, which must agree.
SHARED_RULES = ("cuda-scope-mismatch", "cuda-scope-insufficient", "cuda-scope-release-acquire")
# Where they would differ by design, as (case, rule) pairs; none today.
BY_DESIGN = set()
IR_RULES = {"cuda-scope-mismatch", "cuda-scope-insufficient", "cuda-scope-proxy-fence",
            "cuda-scope-release-acquire"}


def findings(build, src):
    module = os.path.join(build, "plugin", "libCudaScopeTidy.so")
    plugin = os.path.join(build, "plugin", "libCudaScopePass.so")
    tidy = subprocess.run([f"{TOOLS}/clang-tidy", f"-load={module}", "-checks=-*,cuda-scope-*", "--quiet", src,
                           "--", "-x", "cuda", "--cuda-host-only", *FLAGS], capture_output=True, text=True)
    # The rule of each remark is its name in the optimization record, read as the command reads it:
    # the text of a remark is wording, which changes.
    with tempfile.TemporaryDirectory() as tmp:
        record = os.path.join(tmp, "remarks.yaml")
        ir = subprocess.run([f"{TOOLS}/clang++", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90", *FLAGS,
                             "-O2", *PASS_COMPILE_FLAGS, f"-fpass-plugin={plugin}", "-fsave-optimization-record",
                             f"-foptimization-record-file={record}", "-foptimization-record-passes=cuda-scope",
                             "-Rpass-analysis=cuda-scope", "-S", "-o", os.devnull, src],
                            capture_output=True, text=True)
        found = {name for _, _, name in remark_names(record)}
    by_tidy = set(re.findall(r"warning: .*\[(cuda-scope-[a-z-]+)\]", tidy.stdout))
    errors = [l for l in (tidy.stdout + ir.stderr).splitlines() if " error: " in l]
    return sorted(by_tidy), sorted(found), errors


def findings_across(build, folder):
    """The cuda-scope command (host side) over a variant: every file of a folder, or one file, so that
    what crosses files or threads (the whole-program facts) is seen; (checks flagged, errors)."""
    if os.path.isdir(folder):
        files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith((".cu", ".cpp")))
    else:
        files = [folder]
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "cuda-scope"),
                        f"--module={os.path.join(build, 'plugin', 'libCudaScopeTidy.so')}",
                        f"--clang-tidy={TOOLS}/clang-tidy", f"--cuda-path={CUDA}", "--host-only", "--no-ir-pass",
                        "-q", "--format=json", *files, "--", "-std=c++17", f"-I{CUDA}/include",
                        f"-I{ROOT}/integration/common"], capture_output=True, text=True)
    try:
        report = json.loads(p.stdout)
    except ValueError:
        return [], [f"cuda-scope failed on {folder}: {p.stderr.strip()[-300:]}"]
    return (sorted({f["check"] for f in report["findings"]}),
            [e["message"] for e in report["errors"]])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--json")
    ap.add_argument("--assert", dest="strict", action="store_true")
    a = ap.parse_args()
    listed = subprocess.run([f"{TOOLS}/clang-tidy", f"-load={a.build}/plugin/libCudaScopeTidy.so", "--list-checks",
                             "-checks=-*,cuda-scope-*"], capture_output=True, text=True).stdout
    implemented = set(re.findall(r"cuda-scope-[a-z-]+", listed)) | IR_RULES
    cases = json.load(open(os.path.join(ROOT, "integration", "cases.json")))
    cases = cases if isinstance(cases, list) else cases["cases"]
    rows, bad = [], []
    print("| case | expected check | bug flagged with | fixed flagged with | verdict | tidy on bug | IR pass on bug |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for c in cases:
        expected = "cuda-scope-proxy-fence" if c["check"] == "cuda-scope-ir" else c["check"]
        got = {}
        for variant in ("bug", "fixed"):
            folder = os.path.join(ROOT, "integration", "cases", c["case"], variant)
            if os.path.isdir(folder):
                (tidy_found, errors), ir_found = findings_across(a.build, folder), []
            elif c["kind"] == "host-api":
                # The host API rules have no IR side; the command merges the file's facts (threads).
                (tidy_found, errors), ir_found = findings_across(a.build, folder + ".cu"), []
            else:
                tidy_found, ir_found, errors = findings(a.build, folder + ".cu")
            got[variant] = sorted(set(tidy_found) | set(ir_found))
            got[variant + "-tidy"], got[variant + "-ir"] = tidy_found, ir_found
            if errors:
                bad.append(f"{c['case']}/{variant}: {errors[0]}")
        if expected not in implemented:
            verdict = "check not implemented yet"
        elif expected in got["bug"] and not got["fixed"]:
            verdict = "flagged; fix clean"
        else:
            verdict = "MISSED" if expected not in got["bug"] else "FALSE POSITIVE on the fix"
            bad.append(f"{c['case']}: {verdict}")
        rows.append({"case": c["case"], "expected": expected, "bug": got["bug"], "fixed": got["fixed"],
                     "verdict": verdict, "bug_tidy": got["bug-tidy"], "bug_ir": got["bug-ir"]})
        # The scope rules exist both as clang-tidy checks and as IR remarks: on each program the
        # two must say the same, except where they differ by design.
        for rule in SHARED_RULES:
            t, i = rule in got["bug-tidy"], rule in got["bug-ir"]
            if t != i and (c["case"], rule) not in BY_DESIGN:
                bad.append(f"{c['case']}: {rule} from {'tidy' if t else 'the IR pass'} only")
            if rule in got["fixed-tidy"] or rule in got["fixed-ir"]:
                bad.append(f"{c['case']}/fixed: {rule}")
        print(f"| `{c['case']}` | `{expected}` | {', '.join(got['bug']) or '-'} | "
              f"{', '.join(got['fixed']) or '-'} | {verdict} | {', '.join(got['bug-tidy']) or '-'} | "
              f"{', '.join(got['bug-ir']) or '-'} |")
    if a.json:
        json.dump(rows, open(a.json, "w"), indent=1)
    for b in bad:
        print(b, file=sys.stderr)
    sys.exit(1 if a.strict and bad else 0)


if __name__ == "__main__":
    main()
