#!/usr/bin/env python3
"""cuda-scope benchmarks: what the checks cost next to parsing, and how that grows.

USAGE: bench/run.py [--build build] [--runs 5] [--sizes 1000,2000,4000,8000] [--depth 8] [--only compat,...]

1. Overhead: clang-tidy with every cuda-scope-* check versus the same clang-tidy with no
   effective check (objc-avoid-nserror-init, which registers nothing on CUDA/C++), on the same TUs,
   alternating runs; median wall time and peak memory (ru_maxrss) of each, and the ratio.
   Each check's own cost is measured the same way, the check alone against the baseline
   (clang-tidy's --enable-check-profile misses work done at the end of the translation unit,
   which is where the host-API checks walk their call graph).
2. Growth: a generated host TU with N functions (callback registrations, capture regions and call
   chains of depth D); analysis time per function at each N must stay flat.
3. Device growth: generated kernels that pass messages through device functions (the scope checks'
   collector and the message analysis): time per kernel as kernels are added must stay flat; and
   one kernel with M messages, where pairing writes, flags and fences within a kernel grows faster.
4. The IR pass's share of device compile time at -O2 on a generated kernel file.
5. The nvcc-compatibility layer (docs/compatibility.md): every cuda-scope-* check on both sides of
   the same TUs as part 1, and the IR pass, with the layer and without it (the module copied where
   its header is not beside it; clang++ without -include), alternating runs; median wall and CPU
   time and peak memory of each.
6. The command's cache (--cache): the same files run on an empty cache, again unchanged, and after
   one file changed, beside a run without the cache; wall and CPU time and their ratios.
7. Real projects (--only projects, not run by default: it needs the corpus, bench/realcode): the
   command on files of real projects against the projects' own nvcc build of the same files, with
   the device side everywhere and only where it can differ, and the CMake launcher route.
8. Merged pointers (--only merged): one kernel whose pointer is merged from two ways, each the
   pointer of the level above merged the same way, D levels deep; the resolution that names its
   object follows every way, so without its budget of ways (ObjectIdentity.cpp) its cost doubles per
   level. Time must stay flat as D grows.
9. Chained locals (--only chained): one kernel whose condition is copied through D locals, each
   reading the one before twice (`c1 = c0 && c0`, as generated code may); an index's canonical text
   inlines locals, so without its budget (IndexText.cpp) its size doubles per level. Time must stay
   flat as D grows.
10. Called barriers (--only called): one kernel calling, under a condition on the thread's index,
   a chain of D device functions each calling the next twice, the last running a block barrier and
   a full-mask shuffle; the divergent-barrier and warp-mask checks read what each call runs, once
   per function. Time must stay flat as D grows.
Prints one table per part, figures and ratios side by side; --only runs some parts.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = "/usr/lib/llvm-22/bin"
CUDA = os.environ.get("CUDA_PATH", "/usr/local/cuda")
TOOLKIT = ["-x", "cuda", "--cuda-host-only", f"--cuda-path={CUDA}", f"-I{CUDA}/include/cccl",
           "-Wno-unknown-cuda-version", "-std=c++17"]
HERMETIC_CXX = ["-x", "c++", "-isystem", os.path.join(ROOT, "test", "Inputs"), "-std=c++17"]
BASELINE = "-*,objc-avoid-nserror-init"


def measure(cmd):
    """Wall seconds and peak RSS (MiB) of one run."""
    wall, _, rss = measure_cpu(cmd)
    return wall, rss


def measure_cpu(cmd, env=None):
    """Wall seconds, CPU seconds (user + system) and peak RSS (MiB) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"failed: {' '.join(cmd)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def tidy(build, checks, src, flags, extra=(), module=None):
    module = module or os.path.join(build, "plugin", "libCudaScopeTidy.so")
    return [f"{TOOLS}/clang-tidy", f"-load={module}", f"-checks={checks}", "--quiet", *extra, src, "--", *flags]


def paired(build, src, flags, runs):
    """Alternates baseline and cuda-scope runs; returns medians."""
    base, ours = [], []
    for _ in range(runs):
        base.append(measure(tidy(build, BASELINE, src, flags)))
        ours.append(measure(tidy(build, "-*,cuda-scope-*", src, flags)))
    med = lambda xs, i: statistics.median(x[i] for x in xs)
    return med(base, 0), med(ours, 0), med(base, 1), med(ours, 1)


def checks_listed(build):
    module = os.path.join(build, "plugin", "libCudaScopeTidy.so")
    out = subprocess.run([f"{TOOLS}/clang-tidy", f"-load={module}", "--list-checks", "-checks=-*,cuda-scope-*"],
                         capture_output=True, text=True).stdout
    return sorted(set(l.strip() for l in out.splitlines() if l.strip().startswith("cuda-scope-")))


def per_check(build, src, flags, runs, checks):
    """Median extra wall seconds of each check alone over the baseline."""
    extra = {}
    for check in checks:
        base, ours = [], []
        for _ in range(runs):
            base.append(measure(tidy(build, BASELINE, src, flags))[0])
            ours.append(measure(tidy(build, f"-*,{check}", src, flags))[0])
        extra[check] = statistics.median(ours) - statistics.median(base)
    return extra


def overhead(build, runs):
    print("## Overhead of all cuda-scope-* checks over a clang-tidy run with no check")
    print(f"(median of {runs} alternating runs each; wall seconds, peak RSS MiB)\n")
    checks = checks_listed(build)
    print("| TU | base s | cuda-scope s | ratio | base MiB | cuda-scope MiB | ratio | each check alone, extra s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    tus = sorted(glob.glob(os.path.join(ROOT, "bench", "corpus", "*.cu"))) + \
        sorted(glob.glob(os.path.join(ROOT, "examples", "*.cu")))
    totals = [0.0, 0.0, 0.0, 0.0]
    for src in tus:
        bw, ow, bm, om = paired(build, src, TOOLKIT, runs)
        for i, v in enumerate((bw, ow, bm, om)):
            totals[i] = max(totals[i], v) if i >= 2 else totals[i] + v
        shares = per_check(build, src, TOOLKIT, max(3, runs // 2), checks)
        share_text = ", ".join(f"{k[len('cuda-scope-'):]} {v:+.3f}" for k, v in sorted(shares.items())) or "-"
        print(f"| {os.path.relpath(src, ROOT)} | {bw:.3f} | {ow:.3f} | {ow / bw:.3f} | {bm:.0f} | {om:.0f} "
              f"| {om / bm:.3f} | {share_text} |")
    print(f"| **all** | {totals[0]:.3f} | {totals[1]:.3f} | {totals[1] / totals[0]:.3f} | {totals[2]:.0f} "
          f"| {totals[3]:.0f} | {totals[3] / totals[2]:.3f} | |\n")


def generate_host(n, depth, path):
    """N functions: each registers a callback whose chain of depth D ends in a CUDA call, or
    captures a stream and calls a chain; some chains are recursive."""
    out = ["#include <cuda_runtime.h>", "#include <cuda.h>"]
    for i in range(n):
        for d in range(depth, 0, -1):
            nxt = f"c{i}_{d + 1}(P);" if d < depth else ("cudaFree(P);" if i % 2 else "*(int *)P = 1;")
            rec = f" if (!P) c{i}_1(P);" if d == depth and i % 7 == 0 else ""
            out.append(f"void c{i}_{d}(void *P);" if d == depth else "")
            out.append(f"void c{i}_{d}(void *P) {{ {nxt}{rec} }}")
        out.append(f"void CUDART_CB cb{i}(void *P) {{ c{i}_1(P); }}")
        if i % 3 == 0:
            out.append(f"void f{i}(cudaStream_t S, void *P) {{ cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);"
                       f" c{i}_1(P); cudaGraph_t G; cudaStreamEndCapture(S, &G); }}")
        else:
            out.append(f"void f{i}(cudaStream_t S, void *P) {{ cudaLaunchHostFunc(S, cb{i}, P); }}")
    with open(path, "w") as f:
        f.write("\n".join(line for line in out if line) + "\n")


def growth(build, sizes, depth, runs):
    print(f"## Growth: generated host TU, call chains of depth {depth}, every 7th recursive")
    print(f"(median of {runs} alternating runs; the check time is cuda-scope minus baseline)\n")
    print("| N functions | base s | cuda-scope s | checks s | checks µs per function | vs smallest N |")
    print("| --- | --- | --- | --- | --- | --- |")
    first = None
    with tempfile.TemporaryDirectory() as d:
        for n in sizes:
            src = os.path.join(d, f"gen{n}.cpp")
            generate_host(n, depth, src)
            bw, ow, _, _ = paired(build, src, HERMETIC_CXX, runs)
            per = max(ow - bw, 0.0) / n * 1e6
            if first is None:
                first = per
            rel = f"{per / first:.2f}" if first > 0 else "-"
            print(f"| {n} | {bw:.3f} | {ow:.3f} | {ow - bw:.3f} | {per:.1f} | {rel} |")
    print()


def generate_device(kernels, messages, path):
    """KERNELS kernels, each passing MESSAGES messages (correctly fenced: nothing is reported, all
    is analysed) between block m and the others, through a publishing and a receiving helper."""
    out = ["#include <cuda/atomic>", "using Ref = cuda::atomic_ref<int, cuda::thread_scope_device>;",
           "__device__ void put(int *D, int *F, int V) { D[threadIdx.x] = V; __threadfence();"
           " Ref(*F).store(1, cuda::memory_order_relaxed); }",
           "__device__ int get(int *D, int *F) { while (Ref(*F).load(cuda::memory_order_relaxed) == 0) {}"
           " __threadfence(); return D[threadIdx.x]; }"]
    for k in range(kernels):
        body = " ".join(f"if (blockIdx.x == {m}) put(D + {m * 1024}, F + {m}, {k}); else S += get(D + {m * 1024}, F + {m});"
                        for m in range(messages))
        out.append(f"__global__ void k{k}(int *D, int *F, int *Out) {{ int S = 0; {body} Out[blockIdx.x] = S; }}")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def device_growth(build, kernel_counts, message_counts, runs):
    print("## Device growth: generated kernels passing messages (every check; the scope checks do the work)")
    print(f"(median of {runs} alternating runs; the check time is cuda-scope minus baseline)\n")
    with tempfile.TemporaryDirectory() as d:
        for label, unit, shapes in (("kernels, 4 messages each", "kernel", [(k, 4) for k in kernel_counts]),
                                    ("messages in one kernel", "message", [(1, m) for m in message_counts])):
            print(f"| {label} | base s | cuda-scope s | checks s | checks ms per {unit} | vs smallest "
                  "| base MiB | cuda-scope MiB | ratio |")
            print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
            first = None
            for k, m in shapes:
                src = os.path.join(d, f"dev{k}_{m}.cu")
                generate_device(k, m, src)
                bw, ow, bm, om = paired(build, src, TOOLKIT, runs)
                n = k if unit == "kernel" else m
                per = max(ow - bw, 0.0) / n * 1e3
                if first is None:
                    first = per
                rel = f"{per / first:.2f}" if first > 0 else "-"
                print(f"| {n} | {bw:.3f} | {ow:.3f} | {ow - bw:.3f} | {per:.2f} | {rel} | {bm:.0f} | {om:.0f} "
                      f"| {om / bm:.2f} |")
            print()


def generate_merged(depth, path):
    """A pointer merged from two ways at each of DEPTH levels: p_i is p_{i-1} or p_{i-1} + i."""
    out = ["__global__ void merged(int *A, int *Out, int c) {", "  int *p0 = A;", "  if (c & 1) p0 = A + 1;"]
    for i in range(1, depth + 1):
        out.append(f"  int *p{i} = p{i - 1};")
        out.append(f"  if (c & {1 << (i % 20)}) p{i} = p{i - 1} + {i};")
    out += [f"  atomicAdd(p{depth}, 1);", f"  Out[threadIdx.x] = *p{depth};", "}"]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def generate_chained(depth, path):
    """A condition copied through DEPTH locals, each reading the one before twice: c_i = c_{i-1} && c_{i-1}."""
    out = ["__global__ void chained(int *Data, int *Flag, int n) {", "  bool c0 = threadIdx.x < n;"]
    out += [f"  bool c{i} = c{i - 1} && c{i - 1};" for i in range(1, depth + 1)]
    out += [f"  if (c{depth}) Data[threadIdx.x] = 1;", "  __syncthreads();",
            "  if (threadIdx.x == 0) atomicExch(Flag, 1);", "}"]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def generate_called(depth, path):
    """DEPTH device functions, each calling the next twice, the last making a full-mask shuffle and
    a block barrier; the kernel calls the first under a condition on the thread's index."""
    out = [f"__device__ float level{depth}(float v) {{ __syncthreads(); return __shfl_xor_sync(0xffffffff, v, 1); }}"]
    for i in range(depth - 1, -1, -1):
        out.append(f"__device__ float level{i}(float v) {{ return level{i + 1}(v) + level{i + 1}(v + 1); }}")
    out += ["__global__ void called(float *A, int n) {", "  float v = A[threadIdx.x];",
            "  if (threadIdx.x < n) v = level0(v);", "  A[threadIdx.x] = v;", "}"]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def depth_series(build, depths, runs, generate, title, note):
    """Every check on the device side of one generated kernel per depth; the checks' time beside the shallowest's."""
    print(f"## {title}")
    print(f"(median of {runs} alternating runs, device side; {note})\n")
    print("| levels | base s | cuda-scope s | checks s | vs fewest levels | base MiB | cuda-scope MiB |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    flags = ["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90", f"--cuda-path={CUDA}",
             "-Wno-unknown-cuda-version"]
    with tempfile.TemporaryDirectory() as d:
        first = None
        for depth in depths:
            src = os.path.join(d, f"series{depth}.cu")
            generate(depth, src)
            bw, ow, bm, om = paired(build, src, flags, runs)
            checks = max(ow - bw, 0.0)
            if first is None:
                first = checks
            rel = f"{checks / first:.2f}" if first > 0 else "-"
            print(f"| {depth} | {bw:.3f} | {ow:.3f} | {checks:.3f} | {rel} | {bm:.0f} | {om:.0f} |")
    print()


def called_cost(build, depths, runs):
    depth_series(build, depths, runs, generate_called,
                 "Called barriers: one kernel, a chain of device functions each calling the next twice (every check)",
                 "the divergent-barrier and warp-mask checks read each function once for what its calls run "
                 "(CalledTargets, Divergence.cpp); read once per call, each level would double it")


def merged_cost(build, depths, runs):
    depth_series(build, depths, runs, generate_merged,
                 "Merged pointers: one kernel, a pointer merged from two ways per level (every check)",
                 "without the budget of ways each level doubled the resolution's work")


def chained_cost(build, depths, runs):
    depth_series(build, depths, runs, generate_chained,
                 "Chained locals: one kernel, a condition copied through locals that each read the last twice "
                 "(every check)",
                 "without the budget of an index's canonical text (IndexText.cpp) each level doubled it: "
                 "24 levels took the memory rules 45 s and 1.1 GB")


def ir_pass_share(build, kernels, runs):
    plugin = os.path.join(build, "plugin", "libCudaScopePass.so")
    print(f"## The IR pass's share of device compile time at -O2 ({kernels} generated kernels)\n")
    body = ["#include <cuda/atomic>", "__device__ int Flag; __device__ unsigned long long Count;"]
    for k in range(kernels):
        body.append(f"__global__ void k{k}(int *Out, float *X) {{ int I = blockIdx.x * blockDim.x + threadIdx.x;"
                    f" X[I] = X[I] * {k + 1}.0f + 1.0f;"
                    f" cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(Count).fetch_add(1);"
                    f" if (cuda::atomic_ref<int, cuda::thread_scope_device>(Flag).load(cuda::memory_order_acquire))"
                    f" Out[blockIdx.x] = I; }}")
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "kernels.cu")
        open(src, "w").write("\n".join(body) + "\n")
        base_cmd = [f"{TOOLS}/clang++", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
                    f"--cuda-path={CUDA}", f"-I{CUDA}/include/cccl", "-Wno-unknown-cuda-version", "-std=c++17",
                    "-O2", "-S", "-o", os.devnull, src]
        base, ours = [], []
        for _ in range(runs):
            base.append(measure(base_cmd)[0])
            ours.append(measure(base_cmd + [f"-fpass-plugin={plugin}"])[0])
        b, o = statistics.median(base), statistics.median(ours)
        print("| compile -O2 s | with pass s | pass share |")
        print("| --- | --- | --- |")
        print(f"| {b:.3f} | {o:.3f} | {(o - b) / b * 100:.1f}% |\n")


def compat_cost(build, runs):
    print("## The nvcc-compatibility layer: every cuda-scope-* check, and the IR pass, with and without it")
    print(f"(median of {runs} alternating runs each; wall and CPU seconds, peak RSS MiB; without: the module "
          "copied away from its header, clang++ without -include)\n")
    header = os.path.join(build, "plugin", "include", "cuda-scope-nvcc.h")
    if not os.path.isfile(header):
        sys.exit(f"bench: no {header}: build the plugins first")
    device = ["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90"] + TOOLKIT[3:]
    tus = sorted(glob.glob(os.path.join(ROOT, "bench", "corpus", "*.cu"))) + \
        sorted(glob.glob(os.path.join(ROOT, "examples", "*.cu")))
    med = lambda xs, i: statistics.median(x[i] for x in xs)
    print("| TU | run | without s | with s | ratio | without CPU s | with CPU s | ratio | without MiB | with MiB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    totals = {}
    with tempfile.TemporaryDirectory() as d:
        bare = os.path.join(d, "libCudaScopeTidy.so")
        with open(os.path.join(build, "plugin", "libCudaScopeTidy.so"), "rb") as src_fh, open(bare, "wb") as out:
            out.write(src_fh.read())
        plugin = os.path.join(build, "plugin", "libCudaScopePass.so")
        clangxx = [f"{TOOLS}/clang++"] + device + ["-O2", "-mllvm", "-sink-common-insts=false",
                                                    f"-fpass-plugin={plugin}", "-S", "-emit-llvm", "-o", os.devnull]
        for src in tus:
            kinds = (("tidy host", tidy(build, "-*,cuda-scope-*", src, TOOLKIT, module=bare),
                      tidy(build, "-*,cuda-scope-*", src, TOOLKIT)),
                     ("tidy device", tidy(build, "-*,cuda-scope-*", src, device, module=bare),
                      tidy(build, "-*,cuda-scope-*", src, device)),
                     ("IR pass -O2", clangxx + [src], clangxx[:1] + ["-include", header] + clangxx[1:] + [src]))
            for label, without_cmd, with_cmd in kinds:
                without, with_ = [], []
                for _ in range(runs):
                    without.append(measure_cpu(without_cmd))
                    with_.append(measure_cpu(with_cmd))
                f = [med(without, 0), med(with_, 0), med(without, 1), med(with_, 1), med(without, 2), med(with_, 2)]
                t = totals.setdefault(label, [0.0] * 4)
                for i in range(4):
                    t[i] += f[i]
                print(f"| {os.path.relpath(src, ROOT)} | {label} | {f[0]:.3f} | {f[1]:.3f} | {f[1] / f[0]:.3f} "
                      f"| {f[2]:.3f} | {f[3]:.3f} | {f[3] / f[2]:.3f} | {f[4]:.0f} | {f[5]:.0f} |")
    for label, t in totals.items():
        print(f"| **all** | {label} | {t[0]:.3f} | {t[1]:.3f} | {t[1] / t[0]:.3f} | {t[2]:.3f} | {t[3]:.3f} "
              f"| {t[3] / t[2]:.3f} | | |")
    print()


def command_cost(build, runs):
    print("## The cuda-scope command: its clang-tidy runs alone (--no-ir-pass) and with the IR pass")
    print(f"(median of {runs} alternating runs each, -j 1, the command's own Python included; wall and CPU "
          "seconds, peak RSS MiB of the largest process)\n")
    tus = sorted(glob.glob(os.path.join(ROOT, "bench", "corpus", "*.cu"))) + \
        sorted(glob.glob(os.path.join(ROOT, "examples", "*.cu")))
    med = lambda xs, i: statistics.median(x[i] for x in xs)
    print("| TU | tidy only s | with IR pass s | ratio | tidy only CPU s | with IR pass CPU s | ratio | MiB | MiB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    total = [0.0] * 4
    with tempfile.TemporaryDirectory() as d:
        report = os.path.join(d, "report.json")
        command = [sys.executable, os.path.join(ROOT, "tools", "cuda-scope"),
                   f"--module={os.path.join(build, 'plugin', 'libCudaScopeTidy.so')}",
                   f"--clang-tidy={TOOLS}/clang-tidy", f"--clang={TOOLS}/clang++", "-j", "1", "-q",
                   "--format=json", "-o", report, f"--cuda-path={CUDA}"]
        for src in tus:
            flags = [src, "--", "-std=c++17", "-arch=sm_90"]
            alone, both = [], []
            for _ in range(runs):
                alone.append(measure_cpu(command + ["--no-ir-pass"] + flags))
                both.append(measure_cpu(command + flags))
            f = [med(alone, 0), med(both, 0), med(alone, 1), med(both, 1), med(alone, 2), med(both, 2)]
            for i in range(4):
                total[i] += f[i]
            print(f"| {os.path.relpath(src, ROOT)} | {f[0]:.3f} | {f[1]:.3f} | {f[1] / f[0]:.3f} | {f[2]:.3f} "
                  f"| {f[3]:.3f} | {f[3] / f[2]:.3f} | {f[4]:.0f} | {f[5]:.0f} |")
    print(f"| **all** | {total[0]:.3f} | {total[1]:.3f} | {total[1] / total[0]:.3f} | {total[2]:.3f} "
          f"| {total[3]:.3f} | {total[3] / total[2]:.3f} | | |\n")


def cache_cost(build, runs):
    print("## The command's cache (--cache): a run on an empty cache, a second run on the same files, and a "
          "run after one file changed")
    print(f"(median of {runs} rounds, -j 1, every rule and the IR pass, the command's own Python included; "
          "each round starts from an empty cache on fresh copies of the files; wall and CPU seconds)\n")
    tus = sorted(glob.glob(os.path.join(ROOT, "bench", "corpus", "*.cu"))) + \
        sorted(glob.glob(os.path.join(ROOT, "examples", "*.cu")))
    rounds = {"empty cache": [], "unchanged": [], "one file changed": [], "no cache": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as d:
            copies = []
            for src in tus:
                copy = os.path.join(d, os.path.basename(src))
                with open(src) as f, open(copy, "w") as g:
                    g.write(f.read())
                copies.append(copy)
            command = [sys.executable, os.path.join(ROOT, "tools", "cuda-scope"),
                       f"--module={os.path.join(build, 'plugin', 'libCudaScopeTidy.so')}",
                       f"--clang-tidy={TOOLS}/clang-tidy", f"--clang={TOOLS}/clang++", "-j", "1", "-q",
                       "--format=json", "-o", os.path.join(d, "report.json"), f"--cuda-path={CUDA}"]
            files = copies + ["--", "-std=c++17", "-arch=sm_90"]
            cached = command + [f"--cache={os.path.join(d, 'cache')}"]
            rounds["no cache"].append(measure_cpu(command + files))
            rounds["empty cache"].append(measure_cpu(cached + files))
            rounds["unchanged"].append(measure_cpu(cached + files))
            with open(copies[-1], "a") as g:
                g.write("// changed\n")
            rounds["one file changed"].append(measure_cpu(cached + files))
    med = lambda xs, i: statistics.median(x[i] for x in xs)
    base_wall, base_cpu = med(rounds["no cache"], 0), med(rounds["no cache"], 1)
    print(f"{len(tus)} files ({', '.join(os.path.basename(t) for t in tus)})\n")
    print("| run | wall s | CPU s | wall / no cache | CPU / no cache |")
    print("| --- | --- | --- | --- | --- |")
    for name, xs in rounds.items():
        print(f"| {name} | {med(xs, 0):.3f} | {med(xs, 1):.3f} | {med(xs, 0) / base_wall:.3f} "
              f"| {med(xs, 1) / base_cpu:.3f} |")
    print()


def project_cost(build, specs, corpus_src):
    """The command on real projects' files, against the projects' own nvcc build of the same files:
    CPU seconds of nvcc (each file's command as the project runs it, one at a time), of the command
    (-j 1, every rule) with the device side on every file (--sides=both, as before) and where it can
    differ (--sides=auto, the default), and of the CMake launcher route (cuda-scope --launch -- nvcc
    ..., per file: CPU and wall time, the compile running while the file is analysed), with their ratios
    to nvcc; and whether the two sides settings found the same."""
    sys.path.insert(0, os.path.join(ROOT, "bench", "realcode"))
    import run as realcode  # noqa: E402  (bench/realcode/run.py: the corpus's nvcc commands)
    with open(os.path.join(ROOT, "bench", "realcode", "corpus.json"), encoding="utf-8") as fh:
        corpus = {p["name"]: p for p in json.load(fh)["projects"]}
    print("## Real projects: the command against the projects' own nvcc build of the same files")
    print(f"(one run each, -j 1, the command's own Python included; CPU seconds, user + system, of the process "
          f"and its children; the corpus at {corpus_src})\n")
    print("| project | files | nvcc CPU s | both sides CPU s | ratio | auto CPU s | ratio | launcher route CPU s | "
          "ratio | nvcc wall s | launcher route wall s | ratio | device sides run (auto) | same findings |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    tool = [sys.executable, os.path.join(ROOT, "tools", "cuda-scope"),
            f"--module={os.path.join(build, 'plugin', 'libCudaScopeTidy.so')}",
            f"--clang-tidy={TOOLS}/clang-tidy", f"--clang={TOOLS}/clang++", f"--cuda-path={CUDA}", "-j", "1"]
    for spec in specs:
        name, _, count = spec.partition(":")
        project = corpus[name]
        root = os.path.join(corpus_src, project.get("extract", name))
        if not os.path.isdir(root):
            sys.exit(f"bench: {root} is missing (bench/realcode/README.md says how to fetch the corpus)")
        files = sorted(f for _, f, _, _ in realcode.tu_entries(project))[:int(count or 6)]
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "build")
            os.makedirs(out)
            realcode.generate(project, root, out)
            realcode.write_database(project, root, corpus_src, out, d, lambda _, f: f in files)
            with open(os.path.join(d, "compile_commands.json"), encoding="utf-8") as fh:
                entries = json.load(fh)
            nvcc = [0.0, 0.0]
            launcher = [0.0, 0.0]
            for n, e in enumerate(entries):
                words = list(e["arguments"])
                words[words.index("-o") + 1] = os.path.join(d, f"{n}.o")
                words[0] = os.path.join(CUDA, "bin", "nvcc")
                os.chdir(e["directory"])
                if subprocess.run(words, capture_output=True).returncode != 0:
                    sys.exit(f"bench: nvcc fails on {e['file']} of {name} here ({' '.join(words)}): choose another project")
                for total, cmd in ((nvcc, words), (launcher, tool + ["-q", "--launch", "--"] + words)):
                    wall, cpu, _ = measure_cpu(cmd)
                    total[0] += wall
                    total[1] += cpu
            os.chdir(ROOT)
            cpu, found = {}, {}
            for sides in ("both", "auto"):
                report = os.path.join(d, f"{sides}.json")
                cpu[sides] = measure_cpu(tool + ["-q", f"--sides={sides}", "-p", d, "--format=json", "-o", report])[1]
                with open(report, encoding="utf-8") as fh:
                    doc = json.load(fh)
                found[sides] = sorted((f["file"], f["line"], f["column"], f["check"], f["message"])
                                      for f in doc["findings"])
                if sides == "auto":
                    ran = sum(1 for s in doc.get("device_sides", ()) if s["run"])
                    decided = len(doc.get("device_sides", ()))
        same = "yes" if found["both"] == found["auto"] else f"no ({len(found['both'])} against {len(found['auto'])})"
        print(f"| {name} | {len(entries)} | {nvcc[1]:.1f} | {cpu['both']:.1f} | {cpu['both'] / nvcc[1]:.2f} | "
              f"{cpu['auto']:.1f} | {cpu['auto'] / nvcc[1]:.2f} | {launcher[1]:.1f} | {launcher[1] / nvcc[1]:.2f} | "
              f"{nvcc[0]:.1f} | {launcher[0]:.1f} | {launcher[0] / nvcc[0]:.2f} | {ran} of {decided} | {same} |")
    print()


def generate_facts(folder, files, edges_per_file, threads=0, seed=7):
    """A generated project's facts (docs/facts.md): `files` files of 20 functions each; every
    function calls two functions of its own file and edges_per_file / 20 - 2 functions of other files
    (one call in eight virtual, through a base method that two functions of two files override); one
    file in ten registers a host callback and one in ten captures; one function in ten makes an API
    call each rule reports; `threads` files start a thread (never waited for), and one call in ten
    holds a lock (one of four). Returns the paths."""
    import random
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from cuda_scope.facts import VERSION
    rnd = random.Random(seed)
    per_fn = max(3, edges_per_file // 20)
    paths = []
    for f in range(files):
        at = lambda line: [0, line, 3]
        fns = []
        for k in range(20):
            edges = [{"to": f"f{f}_{(k + d) % 20}", "at": at(k * 40 + d), "message": "'g' is called here"}
                     for d in (1, 2)]
            if k % 5 == 0:
                edges[0]["locks"] = [f"var:m{(f + k) % 4}"]
            calls = []
            for c in range(per_fn - 2):
                g, j = rnd.randrange(files), rnd.randrange(20)
                virtual = c % 8 == 0
                callee = f"base{g}_{j % 4}" if virtual else f"f{g}_{j}"
                calls.append({"callee": callee, "name": callee, "virtual": virtual, "at": at(k * 40 + c + 3),
                              "message": f"'{callee}' is called here"})
            event = (k * 7 + f) % 10 == 0
            fns.append({"id": f"f{f}_{k}", "name": f"f{f}_{k}", "at": at(k * 40 + 1),
                        "overrides": [f"base{f}_{k}", f"base{(f - 1) % files}_{k}"] if k < 4 else [],
                        "callback": [{"at": at(k * 40 + 1), "message": "'cudaFree' called from a host callback"}]
                        if event else [],
                        # The keys and sentence a device-wide synchronize gets (checks/model).
                        "capture": [{"at": at(k * 40 + 1), "breaks": [
                            {"keys": [f"{t}:{m}:{fl}{x}" for t, xs in (("same", ("", ":exchanged")), ("other", ("",)))
                                      for m in ("global", "thread-local", "relaxed", "unknown")
                                      for fl in ("blocking", "nonblocking", "unknown") for x in xs],
                             "message": ["'cudaDeviceSynchronize' called ", 0, " invalidates the capture"]}]}]
                        if event else [],
                        "edges": edges, "calls": calls})
        starts = threads and f % max(1, files // threads) == 0 and f // max(1, files // threads) < threads
        doc = {"format": "cuda-scope-facts", "version": VERSION, "file": f"/gen/src{f}.cpp",
               "files": [f"/gen/src{f}.cpp"],
               "functions": fns,
               "callbacks": [{"callback": f"f{f}_0", "name": f"f{f}_0", "registrar": "cudaLaunchHostFunc",
                              "at": at(900)}] if f % 10 == 0 else [],
               "captures": [{"state": "as-begun", "keys": {"as-begun": "same:global:unknown",
                                                          "exchanged": "same:global:unknown:exchanged"},
                             "words": ["while stream 's' is being captured", "'s'"],
                             "note": "capture of 's' begins here", "begin": at(901),
                             "callee": f"f{(f * 31 + 5) % files}_3", "name": "op", "virtual": False,
                             "message": "'op' is called here", "at": at(902)}] if f % 10 == 5 else [],
               "regions": [{"in": f"f{f}_4", "key": "other:global:unknown",
                            "words": ["while stream 's' is being captured", "'s'"],
                            "note": "capture of 's' begins here, in global mode", "begin": at(903)}]
               if f % 10 == 5 else [],
               "threads": [{"entry": f"f{f}_7", "name": f"f{f}_7", "how": "std::thread", "at": at(904),
                            "note": f"a thread running 'f{f}_7' is started here, through 'std::thread'",
                            "in": f"f{f}_8", "many": False}] if starts else []}
        path = os.path.join(folder, f"{f}.json")
        with open(path, "w") as out:
            json.dump(doc, out)
        paths.append(path)
    return paths


def facts_cost(build, runs):
    print("## Writing the whole program's facts: every cuda-scope-* check, host side, with and without "
          "$CUDA_SCOPE_FACTS")
    print(f"(median of {runs} alternating runs each; wall and CPU seconds, peak RSS MiB)\n")
    tus = sorted(glob.glob(os.path.join(ROOT, "bench", "corpus", "*.cu"))) + \
        sorted(glob.glob(os.path.join(ROOT, "examples", "*.cu")))
    med = lambda xs, i: statistics.median(x[i] for x in xs)
    print("| TU | without s | with s | ratio | without CPU s | with CPU s | ratio | without MiB | with MiB | facts KiB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    total = [0.0] * 4
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "facts.json")
        for src in tus:
            cmd = tidy(build, "-*,cuda-scope-*", src, TOOLKIT)
            without, with_ = [], []
            for _ in range(runs):
                without.append(measure_cpu(cmd))
                with_.append(measure_cpu(cmd, env=dict(os.environ, CUDA_SCOPE_FACTS=out)))
            f = [med(without, 0), med(with_, 0), med(without, 1), med(with_, 1), med(without, 2), med(with_, 2)]
            for i in range(4):
                total[i] += f[i]
            print(f"| {os.path.relpath(src, ROOT)} | {f[0]:.3f} | {f[1]:.3f} | {f[1] / f[0]:.3f} | {f[2]:.3f} "
                  f"| {f[3]:.3f} | {f[3] / f[2]:.3f} | {f[4]:.0f} | {f[5]:.0f} | {os.path.getsize(out) / 1024:.0f} |")
    print(f"| **all** | {total[0]:.3f} | {total[1]:.3f} | {total[1] / total[0]:.3f} | {total[2]:.3f} "
          f"| {total[3]:.3f} | {total[3] / total[2]:.3f} | | | |\n")


def merge_cost(file_counts, edges_per_file, runs, threads=(0, 10)):
    print(f"## Whole-program merge: generated facts, {edges_per_file} call edges per file")
    print(f"(median of {runs} runs of the cuda-scope command's merge alone, tools/cuda_scope/facts.py, in a "
          "fresh python3; wall and CPU seconds, peak RSS MiB)\n")
    print("| files | threads | call edges | facts MiB | findings | wall s | CPU s | peak MiB | µs per edge | vs smallest |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    first = {}
    for files, nthreads in ((f, t) for f in file_counts for t in threads):
        with tempfile.TemporaryDirectory() as d:
            paths = generate_facts(d, files, edges_per_file, nthreads)
            size = sum(os.path.getsize(p) for p in paths) / 2 ** 20
            listing = os.path.join(d, "paths.txt")
            with open(listing, "w") as out:
                out.write("\n".join(paths))
            code = ("import sys; sys.path.insert(0, sys.argv[1]); from cuda_scope import facts; "
                    "f, p = facts.analyse(open(sys.argv[2]).read().split()); assert not p, p; "
                    "open(sys.argv[3], 'w').write(str(len(f)))")
            count = os.path.join(d, "count.txt")
            cmd = [sys.executable, "-c", code, os.path.join(ROOT, "tools"), listing, count]
            times = [measure_cpu(cmd) for _ in range(runs)]
            wall, cpu, rss = (statistics.median(t[i] for t in times) for i in range(3))
            found = open(count).read()
        edges = files * max(3, edges_per_file // 20) * 20
        per_edge = cpu / edges * 1e6
        first.setdefault(nthreads, per_edge)
        print(f"| {files} | {nthreads} | {edges} | {size:.0f} | {found} | {wall:.2f} | {cpu:.2f} | {rss:.0f} "
              f"| {per_edge:.2f} | {per_edge / first[nthreads]:.2f} |")
    print()


PARTS = ("overhead", "merged", "chained", "called", "growth", "device-growth", "ir-pass", "compat", "command", "cache", "projects", "facts",
         "merge")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="1000,2000,4000,8000")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--kernels", type=int, default=400)
    ap.add_argument("--device-kernels", default="500,1000,2000,4000")
    ap.add_argument("--device-messages", default="512,1024,2048,4096")
    ap.add_argument("--merged-depths", default="8,16,24,32")
    ap.add_argument("--chained-depths", default="8,16,24,32")
    ap.add_argument("--called-depths", default="8,16,24,32")
    ap.add_argument("--merge-files", default="1250,2500,5000")
    ap.add_argument("--merge-edges-per-file", type=int, default=200)
    ap.add_argument("--projects", default="cuda_hgemm:4,CUDALibrarySamples:4,gunrock:2",
                    help="the real projects of part 7 and how many of their files (bench/realcode/corpus.json)")
    ap.add_argument("--corpus-src", default=os.environ.get("CUDA_SCOPE_CORPUS", "/work/corpus-src"),
                    help="where the corpus's projects are extracted (bench/realcode/README.md)")
    ap.add_argument("--only", default=",".join(p for p in PARTS if p != "projects"), help=f"the parts to run, of {','.join(PARTS)} (default: all but projects)")
    a = ap.parse_args()
    parts = set(a.only.split(","))
    if parts - set(PARTS):
        sys.exit(f"bench: no such part: {', '.join(sorted(parts - set(PARTS)))}")
    if not os.path.isfile(os.path.join(CUDA, "include", "cuda_runtime.h")):
        sys.exit(f"bench: no CUDA toolkit at {CUDA}; set CUDA_PATH")
    print(f"# cuda-scope benchmarks ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
          f"{os.uname().machine})\n")
    if "overhead" in parts:
        overhead(a.build, a.runs)
    if "growth" in parts:
        growth(a.build, [int(s) for s in a.sizes.split(",")], a.depth, a.runs)
    if "device-growth" in parts:
        device_growth(a.build, [int(s) for s in a.device_kernels.split(",")],
                      [int(s) for s in a.device_messages.split(",")], a.runs)
    if "merged" in parts:
        merged_cost(a.build, [int(s) for s in a.merged_depths.split(",")], a.runs)
    if "called" in parts:
        called_cost(a.build, [int(s) for s in a.called_depths.split(",")], a.runs)
    if "chained" in parts:
        chained_cost(a.build, [int(s) for s in a.chained_depths.split(",")], a.runs)
    if "ir-pass" in parts:
        ir_pass_share(a.build, a.kernels, a.runs)
    if "compat" in parts:
        compat_cost(a.build, a.runs)
    if "command" in parts:
        command_cost(a.build, a.runs)
    if "cache" in parts:
        cache_cost(a.build, a.runs)
    if "projects" in parts:
        project_cost(a.build, a.projects.split(","), a.corpus_src)
    if "facts" in parts:
        facts_cost(a.build, a.runs)
    if "merge" in parts:
        merge_cost([int(n) for n in a.merge_files.split(",")], a.merge_edges_per_file, a.runs)


if __name__ == "__main__":
    main()
