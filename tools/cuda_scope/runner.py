"""The analyser runs: one Job per file side (clang-tidy host, device per architecture, the IR
pass), run in parallel with a time limit, stopped at once on Ctrl-C, with progress on stderr."""
import concurrent.futures
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

from .common import CXX_EXTS, PASS_COMPILE_FLAGS
from .locate import compat_flags, compat_header, is_toolkit, nvcc_build, toolkit_candidates
from .nvcc import Translation, arch_key
from .rules import PASS_RULES, glob_selects, project_checks

@dataclass(eq=False)
class Job:
    """One run of an analyser over one file: side 'host', 'device', 'single' (a C/C++ file) with
    clang-tidy, or 'pass' with clang++ and the IR pass (its remarks' rules in `record`)."""
    t: Translation
    side: str
    arch: str
    argv: list
    record: str = None
    facts: str = None                 # where the run writes its file's facts for the whole program
    env: dict = None                  # more environment (the IR pass: $CUDA_SCOPE_LAUNCHES)
    overlay: str = None               # the VFS overlay that serves rewritten copies (rewrite.py)
    cache_key: str = None             # its key in the cache (cache.py), once looked up
    cached: bool = False              # replayed from the cache, not run
    depfile: str = None               # where the run lists the files it reads, for the cache
    kernels: str = None               # where the IR pass lists the kernels it analysed (--shard)
    inputs: list = None               # the files it read, when the cache listed them

    @property
    def label(self):
        """How reports name the side: 'host', or 'device sm_90'."""
        if self.side == "pass":
            return f"IR pass {self.arch}"
        return f"device {self.arch}" if self.side == "device" else "host"


TIMED_OUT = "timed out"
RUNNING = set()           # the analyser processes running now, which Ctrl-C stops
RUNNING_LOCK = threading.Lock()
STOPPING = threading.Event()


def run_job(job, cwd, timeout=None, cache=None):
    """Runs one clang-tidy or clang++ job; rc is TIMED_OUT when it ran past timeout seconds. With a
    cache (cache.Cache), a stored run whose inputs are unchanged is replayed instead, and a new one
    is stored."""
    if STOPPING.is_set():
        return job, None, "", ""
    use = cache is not None and cache.cacheable(job)
    argv = job.argv
    if use:
        stored = cache.replay(job)
        if stored is not None:
            job.cached = True
            return (job,) + stored
        argv = argv + cache.dependency_flags(job)
    try:
        env = None
        if job.facts or job.env or job.kernels:
            env = dict(os.environ, **(job.env or {}))
            if job.facts:
                env["CUDA_SCOPE_FACTS"] = job.facts
            if job.kernels:
                env["CUDA_SCOPE_KERNELS"] = job.kernels
        p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             errors="replace", env=env)
    except OSError as e:
        if use:
            cache.store(job, None, "", "")  # stores nothing; removes what the run was to write
        return job, 127, "", f"cannot run {job.argv[0]}: {e.strerror}"
    with RUNNING_LOCK:
        RUNNING.add(p)
    try:
        out, err = p.communicate(timeout=timeout or None)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        rc = TIMED_OUT
    finally:
        with RUNNING_LOCK:
            RUNNING.discard(p)
    if use:
        cache.store(job, rc if not STOPPING.is_set() else None, out, err)
    return job, rc, out, err


def stop_running():
    """Ctrl-C: no queued job starts, and the running ones are stopped."""
    STOPPING.set()
    with RUNNING_LOCK:
        for p in list(RUNNING):
            try:
                p.kill()
            except OSError:
                pass


def run_all(jobs, workers, timeout, finished, cache=None):
    """Runs the jobs, `workers` at once; finished(job, out, err) is called as each one ends. Returns
    ([(job, rc, out, err)] in the order of jobs, whether Ctrl-C stopped the run). On Ctrl-C nothing
    queued starts, the running analysers are killed, and what finished is still returned."""
    results, interrupted = [], False
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, workers))
    try:
        futures = [pool.submit(run_job, j, j.t.directory, timeout, cache) for j in jobs]
        for fut in concurrent.futures.as_completed(futures):
            job, rc, out, err = fut.result()
            if rc is None:
                continue  # not started: the run was interrupted
            results.append((job, rc, out, err))
            finished(job, out, err)
    except KeyboardInterrupt:
        interrupted = True
        stop_running()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    order = {id(j): n for n, j in enumerate(jobs)}
    results.sort(key=lambda r: order[id(r[0])])
    return results, interrupted


class Progress:
    """A one-line progress bar on stderr when stderr is a terminal; otherwise (CI, a pipe) a
    heartbeat line every `heartbeat` seconds, so that a long run is seen to be alive."""

    def __init__(self, total, enabled, heartbeat=0):
        self.total, self.done, self.enabled = total, 0, enabled and total > 0
        self.lock = threading.Lock()
        self.width = shutil.get_terminal_size((80, 20)).columns
        self.heartbeat = heartbeat if not enabled and total > 0 else 0
        self.last = time.monotonic()

    def step(self, name):
        with self.lock:
            self.done += 1
            if self.heartbeat and time.monotonic() - self.last >= self.heartbeat:
                self.last = time.monotonic()
                print(f"cuda-scope: {self.done}/{self.total} runs done (last: {name})", file=sys.stderr, flush=True)
            if not self.enabled:
                return
            n = 24
            filled = n * self.done // self.total
            text = f"[{'#' * filled}{'.' * (n - filled)}] {self.done}/{self.total} {name}"
            sys.stderr.write("\r\033[K" + text[:self.width - 1])
            sys.stderr.flush()

    def finish(self):
        if self.enabled:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


SYSTEM_DIRS = ["/usr/include", "/usr/lib"]   # never rewritten, with the toolkit


def quoted_include_dirs(t):
    """The folders clang looks in for a quoted include after the includer's own: -iquote, then -I."""
    quote, plain = [], []
    flags = t.flags
    for n, a in enumerate(flags):
        for opt, into in (("-iquote", quote), ("-I", plain)):
            if a == opt and n + 1 < len(flags):
                into.append(flags[n + 1])
            elif a.startswith(opt) and len(a) > len(opt):
                into.append(a[len(opt):])
    return [os.path.normpath(os.path.join(t.directory, d)) for d in quote + plain]


def build_jobs(args, translations, tidy, module, toolkit_opt, ir=None, rewrites=None):
    """The clang-tidy runs, and with ir = (clang++, pass plugin, record directory) the IR pass's
    runs: one device compile per CUDA file and architecture. With rewrites (rewrite.Rewrites), a CUDA
    file that has nvcc syntax clang's parser rejects and a copy fixes is read through an overlay."""
    jobs = []
    common = [tidy, f"-load={module}"]
    tail = ["--quiet", "--use-color=false"]
    if args.header_filter is not None:
        tail.append(f"--header-filter={args.header_filter}")
    tail += args.tidy_arg
    toolkit_missing = []
    configs = {}
    for t in translations:
        # A project's configuration that speaks of cuda-scope checks is honoured (its Checks, and
        # its WarningsAsErrors and CheckOptions, which no flag here overrides); --checks overrides it.
        own = None if args.checks_given else project_checks(tidy, module, t, args.tidy_arg, configs)
        t.checks = own or args.checks
        base = common + ([] if own else [f"-checks=-*,{args.checks}"]) + tail
        cuda = None
        if t.lang == "cuda" or t.nvcc:
            candidates = [(t.cuda_path, "the command's --cuda-path")] if (t.cuda_path and not toolkit_opt) \
                else toolkit_candidates(toolkit_opt)
            path, source = candidates[0]
            if is_toolkit(path):
                cuda = os.path.abspath(path)
            elif t.lang == "cuda" and not t.nocudainc:
                toolkit_missing.append((t.file, path, source))
                continue
        flags = list(t.flags)
        if t.lang == "cuda":
            tk = []
            if cuda:
                tk += [f"--cuda-path={cuda}"]
                if os.path.isdir(os.path.join(cuda, "include", "cccl")):
                    tk += [f"-I{cuda}/include/cccl"]
                # __CUDACC_VER_BUILD__ of the toolkit's nvcc, which the nvcc-compatibility header
                # defines (the version itself it reads from cuda.h).
                if (build := nvcc_build(cuda)) is not None:
                    tk += [f"-D__CUDA_SCOPE_NVCC_BUILD={build}"]
            tk += ["-Wno-unknown-cuda-version"]
            if not cuda:
                tk += ["-nocudalib"] if "-nocudalib" not in flags else []
            t.note("(toolkit)", " ".join(tk))
            header = compat_header(module)
            if header:
                t.note("(nvcc compatibility)", f"-include {header} (the module adds it to every run)")
            # nvcc only warns of a narrowing conversion in a braced initializer (int2 P{blockIdx.x, 0}),
            # and in clang a narrowing one stays a substitution failure with the warning off
            # (nvcc-dialect-narrowing.test): the flag changes no overload and no trait. nvcc also only
            # warns of a `return;` in a function that returns a value (#117-D), which clang rejects by
            # default; the flag touches nothing but that statement (nvcc-dialect-verify.test).
            # Past its 20th error clang stops reading the file: the nvcc dialect it rejects
            # (diagnostics.DIALECT) would then cost the rest of the file, which the note says was analysed.
            dialect = ["-Wno-c++11-narrowing", "-Wno-return-mismatch", "-ferror-limit=0"]
            t.note("(nvcc dialect)", f"{' '.join(dialect)} (nvcc warns of a narrowing conversion in a braced "
                   f"initializer and of a return with no value in a function that returns one, clang rejects "
                   f"both; clang stops at its 20th error, and the nvcc dialect it rejects must not stop it)")
            flags = ["-x", "cuda"] + flags + (["-fgpu-rdc"] if t.rdc else []) + tk + dialect
            # clang decides some rewrites (packargs.py): its host side, parsed only, is asked first.
            probe = [rewrites.clang] + flags + compat_flags(module) + [
                "--cuda-host-only", "-fsyntax-only", "-fno-color-diagnostics", "-fno-caret-diagnostics", t.file] \
                if rewrites is not None and rewrites.clang else None
            overlay = rewrites.prepare(t, quoted_include_dirs(t), ([cuda] if cuda else []) + SYSTEM_DIRS, probe) \
                if rewrites is not None else None
            tidy_overlay = [f"--vfsoverlay={overlay}"] if overlay else []
            archs = t.archs or [args.default_arch]
            if not t.archs:
                t.note("(no architecture named)", f"--cuda-gpu-arch={args.default_arch} on the device side")
            device_archs = archs if args.all_archs else [max(archs, key=arch_key)]
            fix = ["--fix-placeholder"] if args.fix or args.export_fixes else []
            jobs.append(Job(t, "host", device_archs[0], base + tidy_overlay + fix + [t.file, "--"] + flags +
                            ["--cuda-host-only"], overlay=overlay))
            if not args.host_only:
                for a in device_archs:
                    jobs.append(Job(t, "device", a, base + tidy_overlay + [t.file, "--"] + flags +
                                    ["--cuda-device-only", f"--cuda-gpu-arch={a}"], overlay=overlay))
                if ir and any(glob_selects(t.checks, r) for r in PASS_RULES):
                    clang, plugin, records = ir
                    for a in device_archs:
                        record = os.path.join(records, f"{len(jobs)}.yaml")
                        job = Job(t, "pass", a, [clang] + flags + compat_flags(module) +
                                  (["-ivfsoverlay", overlay] if overlay else []) +
                                  PASS_COMPILE_FLAGS +
                                  ["--cuda-device-only", f"--cuda-gpu-arch={a}", "-O2", f"-fpass-plugin={plugin}",
                                   "-Rpass-analysis=cuda-scope", "-fsave-optimization-record",
                                   *(["-mllvm", "-cuda-scope-wide-scope"]
                                     if glob_selects(t.checks, "cuda-scope-wide-scope") else []),
                                   f"-foptimization-record-file={record}", "-foptimization-record-passes=cuda-scope",
                                   # The pass runs at the end of the optimizer: the NVPTX back end has
                                   # nothing to add (and cannot select some intrinsics that code
                                   # written for nvcc reaches). A crash leaves no reproducer in /tmp.
                                   "-fno-crash-diagnostics", "-S", "-emit-llvm", "-o", os.devnull, t.file])
                        job.record = record
                        job.overlay = overlay
                        jobs.append(job)
        else:
            if t.nvcc and cuda:
                # nvcc puts the toolkit's include directory on every command, .cpp ones too.
                flags.append(f"-I{cuda}/include")
                t.note("(nvcc's implicit include)", f"-I{cuda}/include")
            lang = ["-x", t.lang] if (t.lang != "c++" or os.path.splitext(t.file)[1] not in CXX_EXTS) else []
            fix = ["--fix-placeholder"] if args.fix or args.export_fixes else []
            jobs.append(Job(t, "single", None, base + fix + [t.file, "--"] + lang + flags))
    return jobs, toolkit_missing
