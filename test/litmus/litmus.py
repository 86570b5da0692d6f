#!/usr/bin/env python3
"""Runs the litmus programs through both front ends and compares their verdicts with the model's.

USAGE: litmus.py --tidy CLANG_TIDY --module TIDY_MODULE --clang CLANG --pass PASS_PLUGIN
                 --cuda CUDA_PATH FILE.cu...

Each kernel of a litmus program is one test, labelled on the comment line above it:
    // LITMUS: allowed <rule>...   the model allows the weak outcome: the rules must report it
    // LITMUS: forbidden           the model forbids it: no finding
    // LITMUS: forbidden; pass-differs: <why>
                                 the clang-tidy checks must give the model's verdict; the IR pass,
                                 which lacks what <why> names, must differ from it (so that the
                                 documented difference is checked, and noticed once it is gone)
The clang-tidy checks (device side) and the IR pass (-O2 without sinking common instructions, given
the host side's one-block launches, as the cuda-scope command runs it) each give a verdict per kernel: the
rules and line:column of their findings in it. Both must report the same findings, and the
verdict must match the label (an allowed test names the rules it expects). Prints one line per
kernel and exits 1 on any disagreement.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# The cuda-scope command's package: its facts, and how it compiles for the IR pass.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tools"))
from cuda_scope import common  # noqa: E402

RULES = ("cuda-scope-mismatch", "cuda-scope-insufficient", "cuda-scope-release-acquire", "cuda-scope-grid-barrier")


def labels(path):
    """(first line, kernel name, label, expected rules) per kernel, in file order. A test starts at
    its label: a helper written between the label and the kernel is the test's own, and its findings
    count for the kernel."""
    out = []
    pending = None
    with open(path) as f:
        for n, line in enumerate(f, 1):
            m = re.match(r"\s*// LITMUS: (allowed|forbidden)\b([^;]*)(?:; pass-differs: (.*))?", line)
            if m:
                pending = (n, m.group(1), set(m.group(2).split()), m.group(3))
                continue
            k = re.match(r"\s*__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?(\w+)", line)
            if k and pending:
                out.append((pending[0], k.group(1), pending[1], pending[2], pending[3]))
                pending = None
    return out


def tidy_findings(args, path, flags):
    r = subprocess.run([args.tidy, f"-load={args.module}", "--quiet", "-checks=-*," + ",".join(RULES), path,
                        "--", "-x", "cuda", "--cuda-device-only", *flags], capture_output=True, text=True)
    found = set()
    for m in re.finditer(r"^(.*?):(\d+):(\d+): warning: .*\[(cuda-scope-[a-z-]+)\]$", r.stdout, re.M):
        if os.path.samefile(m.group(1), path):
            found.add((m.group(4), int(m.group(2)), int(m.group(3))))
    errors = [l for l in (r.stdout + r.stderr).splitlines() if " error: " in l]
    return found, errors


def one_block_launches(args, path, flags, tmp):
    """The file of launch facts (the kernels the host side launches with one block only, those two
    grids of which may run at once, ...), as the cuda-scope command gives it to the IR pass: the
    host side's facts (docs/facts.md), merged."""
    from cuda_scope import facts
    written = os.path.join(tmp, "facts.json")
    subprocess.run([args.tidy, f"-load={args.module}", "--quiet", "-checks=-*,cuda-scope-capture-api", path,
                    "--", "-x", "cuda", "--cuda-host-only", *flags], capture_output=True, text=True,
                   env=dict(os.environ, CUDA_SCOPE_FACTS=written))
    program, problems = facts.load([written] if os.path.exists(written) else [])
    out = os.path.join(tmp, "launches.txt")
    with open(out, "w") as f:
        f.write(facts.launches_file(program))
    return out


def pass_findings(args, path, flags):
    with tempfile.TemporaryDirectory() as tmp:
        record = os.path.join(tmp, "remarks.yaml")
        launches = one_block_launches(args, path, flags, tmp)
        r = subprocess.run([args.clang, "-x", "cuda", "--cuda-device-only", *flags, "-O2",
                            *common.PASS_COMPILE_FLAGS,
                            f"-fpass-plugin={args.pass_plugin}", "-fsave-optimization-record",
                            f"-foptimization-record-file={record}", "-S", "-o", os.devnull, path],
                           capture_output=True, text=True, env=dict(os.environ, CUDA_SCOPE_LAUNCHES=launches))
        text = open(record).read() if os.path.exists(record) else ""
    found = set()
    # YAML wraps a long location over two lines: any space between its fields.
    for m in re.finditer(r"Name: +(cuda-scope-[a-z-]+)\nDebugLoc:\s+\{\s*File:\s*'?([^,']+)'?,\s+Line:\s*(\d+),\s*Column:\s*(\d+)",
                         text):
        if m.group(1) in RULES and os.path.basename(m.group(2)) == os.path.basename(path):
            found.add((m.group(1), int(m.group(3)), int(m.group(4))))
    errors = [l for l in r.stderr.splitlines() if " error: " in l]
    return found, errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tidy", required=True)
    ap.add_argument("--module", required=True)
    ap.add_argument("--clang", required=True)
    ap.add_argument("--pass", dest="pass_plugin", required=True)
    ap.add_argument("--cuda", required=True)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    flags = ["--cuda-gpu-arch=sm_90", f"--cuda-path={args.cuda}", f"-I{args.cuda}/include/cccl",
             "-Wno-unknown-cuda-version", "-std=c++17"]
    failed = 0
    for path in args.files:
        tests = labels(path)
        tidy, tidy_errors = tidy_findings(args, path, flags)
        ir, ir_errors = pass_findings(args, path, flags)
        for e in tidy_errors + ir_errors:
            print(f"error: {e}")
            failed += 1
        bounds = [t[0] for t in tests] + [10**9]
        # A finding no test holds (in a helper above the first label) would count for nothing.
        for f in sorted((tidy | ir) - {f for f in tidy | ir if tests and f[1] >= bounds[0]}):
            print(f"error: {os.path.basename(path)}:{f[1]}: {f[0]} outside every test: write the helper after its label")
            failed += 1
        for i, (first, kernel, label, expected, differs) in enumerate(tests):
            inside = lambda fs: {f for f in fs if first <= f[1] < bounds[i + 1]}
            t, p = inside(tidy), inside(ir)
            # An instruction -O2 made of several (two loads merged through a phi) keeps their line
            # and no column: it is the finding clang-tidy makes on that line.
            p = {next((f for f in t if f[:2] == g[:2]), g) if g[2] == 0 else g for g in p}
            rules = {f[0] for f in t}
            problems = []
            if differs:
                if t == p:
                    problems.append("the pass was expected to differ (%s) and does not: update the label" % differs)
            elif t != p:
                problems.append("front ends disagree: tidy %s, pass %s" % (sorted(t - p), sorted(p - t)))
            if label == "forbidden" and t:
                problems.append("the model forbids the weak outcome, but tidy reports %s" % sorted(t))
            if label == "forbidden" and p and not differs:
                problems.append("the model forbids the weak outcome, but the pass reports %s" % sorted(p))
            if label == "allowed" and rules != expected:
                problems.append("expected %s, tidy reports %s" % (sorted(expected), sorted(rules)))
            status = "FAIL" if problems else "ok"
            failed += bool(problems)
            print(f"{status} {os.path.basename(path)} {kernel}: {label}"
                  + ("" if not t else " " + " ".join(sorted({f[0][11:] for f in t})))
                  + (f" (the pass differs: {differs})" if differs else ""))
            for pr in problems:
                print(f"  {pr}")
    print(f"{'FAILED' if failed else 'PASSED'}: {failed} problem(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
