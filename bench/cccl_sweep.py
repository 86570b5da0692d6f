#!/usr/bin/env python3
"""Hardening sweep: every public CCCL header in a TU of its own, analysed by every cuda-scope-*
clang-tidy check on the host and the device side, and by the device-IR pass at -O2.
Counts crashes, findings and headers that do not parse; each finding must be a documented true
finding, so the expected count is zero.

USAGE: bench/cccl_sweep.py [--build build] [--sample N] [-j JOBS] [--out results.json]
--sample N takes every k-th header so that N are left (what CI runs); without it, all of them.
Exit status: 1 when a crash or an undocumented finding was seen.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = "/usr/lib/llvm-22/bin"
CUDA = os.environ.get("CUDA_PATH", "/usr/local/cuda")
CCCL = os.path.join(CUDA, "include", "cccl")
FLAGS = [f"--cuda-path={CUDA}", f"-I{CCCL}", "-Wno-unknown-cuda-version", "-std=c++17"]
# Internal headers (__foo/, detail/), backend-specific ones (system/) and experimental ones are not
# meant to be included alone.
PRIVATE = re.compile(r"/__|/detail/|/system/|/cmake/|/experimental/")
CRASH = re.compile(r"Stack dump|PLEASE submit a bug report|Segmentation fault")


def public_headers():
    found = []
    for top in ("cuda", "cub", "thrust"):
        for dirpath, _, files in os.walk(os.path.join(CCCL, top)):
            for f in files:
                rel = os.path.relpath(os.path.join(dirpath, f), CCCL)
                if (f.endswith((".h", ".cuh")) or "." not in f) and not PRIVATE.search("/" + rel):
                    found.append(rel)
    return sorted(found)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def sweep_one(build, header):
    module = os.path.join(build, "plugin", "libCudaScopeTidy.so")
    plugin = os.path.join(build, "plugin", "libCudaScopePass.so")
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "tu.cu")
        open(src, "w").write(f"#include <{header}>\n")
        result = {"header": header, "findings": [], "crash": False, "parse_errors": 0}
        sides = {
            "host": [f"{TOOLS}/clang-tidy", f"-load={module}", "-checks=-*,cuda-scope-*", "--quiet", src, "--",
                     "-x", "cuda", "--cuda-host-only", *FLAGS],
            "device": [f"{TOOLS}/clang-tidy", f"-load={module}", "-checks=-*,cuda-scope-*", "--quiet", src, "--",
                       "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90", *FLAGS],
            "pass": [f"{TOOLS}/clang++", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90", *FLAGS, "-O2",
                     "-mllvm", "-sink-common-insts=false", f"-fpass-plugin={plugin}", "-Rpass-analysis=cuda-scope",
                     "-S", "-emit-llvm", "-o", os.devnull, src],
        }
        for side, cmd in sides.items():
            code, out = run(cmd)
            if CRASH.search(out) or code < 0:
                result["crash"] = True
                result.setdefault("crash_output", out[-2000:])
            result["findings"] += [f"{side}: {l}" for l in out.splitlines()
                                   if re.search(r"(warning|remark): .*(cuda-scope|\[-Rpass-analysis=cuda-scope\])", l)]
            result["parse_errors"] += len(re.findall(r" error: ", out))
        return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--sample", type=int)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--out")
    a = ap.parse_args()
    if not os.path.isdir(CCCL):
        sys.exit(f"cccl_sweep: no CCCL headers at {CCCL}; set CUDA_PATH")
    headers = public_headers()
    if a.sample and a.sample < len(headers):
        step = len(headers) / a.sample
        headers = [headers[int(i * step)] for i in range(a.sample)]
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(lambda h: sweep_one(a.build, h), headers))
    seconds = time.time() - start
    crashes = [r for r in results if r["crash"]]
    findings = [f for r in results for f in r["findings"]]
    unparsed = [r["header"] for r in results if r["parse_errors"]]
    print(f"headers: {len(results)}  crashes: {len(crashes)}  cuda-scope findings: {len(findings)}  "
          f"headers with clang errors: {len(unparsed)}  seconds: {seconds:.0f}")
    for r in crashes:
        print(f"CRASH {r['header']}\n{r['crash_output']}")
    for f in findings:
        print(f"FINDING {f}")
    for h in unparsed:
        print(f"does not parse alone (clang errors, not ours): {h}")
    if a.out:
        json.dump({"seconds": seconds, "results": results}, open(a.out, "w"), indent=1)
    sys.exit(1 if crashes or findings else 0)


if __name__ == "__main__":
    main()
