#!/usr/bin/env python3
"""Runs every cuda-scope clang-tidy check and the device-IR pass over the real-code corpus (corpus.json).

USAGE: bench/realcode/run.py [--src DIR] [--plugin-dir DIR] [-j N] [--half development|evaluation|holdout|holdout2|all]
       [--project NAME] [--file REGEX] [-o results.json] [--no-times] [--print-commands] | --summary results.json

Each project of corpus.json is one public CUDA project, extracted (not built) under --src at its pinned
commit (README.md says how). For each project a compile_commands.json of the project's own nvcc
command lines is written to a temporary directory, read back with tools/cuda-scope's database
loader and nvcc translator (imported, not re-implemented), and every translation unit is analysed
three times: clang-tidy-22 with all cuda-scope-* checks on the host side and on the device side
(the newest architecture the command builds for, as tools/cuda-scope does), and clang++-22 -O2
with libCudaScopePass.so on the device side. The JSON records, per TU, whether each side parsed
(with its first errors), the tidy findings and the pass remarks (the remark's name is its check,
read from -fsave-optimization-record), and wall times. Paths are relative to the project root
(${SRC}/... for dependencies outside it, ${BUILD}/... for generated headers, ${CUDA}/... for the
toolkit) and everything is sorted, so two runs diff cleanly (--no-times drops the timings).
--summary prints, per project: TUs, how many parse on each side, how many the pass ran on,
findings per check per front end, and the most common clang errors with an example of each.
Each project belongs to a half of the corpus (corpus.json "half"): development, the projects looked at
while the rules were tuned, or evaluation, chosen before any cuda-scope run on them and looked at only
to measure, or holdout, a second unseen set chosen after the evaluation half was spent (2026-11-26)
and run once, at the end of that day's work on the rules, or holdout2, a second holdout set chosen on
2026-11-26/27 before any cuda-scope run on it, kept for measuring how the analyser generalises to code
nobody on the project has looked at. --half selects which run: development by default (the projects a
plain run analysed before the evaluation half existed, so that the others stay unseen unless asked
for), evaluation, holdout, holdout2, or all (not the holdout sets);
--summary groups the projects by half and totals each half when a results file holds both.
Standard library only.
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "corpus.json")
CUDA = os.environ.get("CUDA_PATH", "/usr/local/cuda")
CRASH = re.compile(r"PLEASE submit a bug report|Stack dump:")
MAX_ERRORS = 10
DRIVER_ERROR = re.compile(r"^\S*clang(?:\+\+|-tidy)?(?:-\d+)?: (?:fatal )?error: (.*)$", re.M)
NOT_AN_ERROR = ("too many errors emitted, stopping now",)
# The halves of the corpus, in the order the summary shows them. A project without "half" is a
# development one (results files written before the halves existed).
HALVES = ("development", "evaluation", "holdout", "holdout2")
# The unseen sets: --half all leaves them out, so that each runs only when named.
HOLDOUTS = ("holdout", "holdout2")


def half_of(project):
    return project.get("half") or "development"


def selected(asked, half):
    """--half all is the development and evaluation halves: each holdout set runs only when named."""
    return asked == half or (asked == "all" and half not in HOLDOUTS)


# The cuda-scope command's package: its compile-database loader, nvcc translator and output parser.
sys.dont_write_bytecode = True  # leave no __pycache__ in the checkout
sys.path.insert(0, os.path.join(ROOT, "tools"))
from cuda_scope import common, database, diagnostics, facts, locate, nvcc, runner  # noqa: E402
from cuda_scope.rewrite import Rewrites  # noqa: E402


# ---------------------------------------------------------------------------------------------
# The corpus: projects, their nvcc commands, the compile databases
# ---------------------------------------------------------------------------------------------

def tu_entries(project):
    """(group, file relative to the project root, extra nvcc words, note) for every TU."""
    for group in project["groups"]:
        for tu in group["tus"]:
            if isinstance(tu, str):
                tu = {"file": tu}
            yield group, tu["file"], tu.get("extra", []), tu.get("note")


def expand(words, src, build):
    return [w.replace("${SRC}", src).replace("${BUILD}", build) for w in words]


def nvcc_command(project, group, file, extra, src="${SRC}", build="${BUILD}"):
    """The nvcc command line the project's build runs for one TU, run from the group's directory."""
    cwd = os.path.dirname(file) if group.get("dir") == "<tu>" else group.get("dir", ".")
    rel = os.path.relpath(file, cwd)
    obj = os.path.splitext(os.path.basename(file))[0] + ".o"
    words = [project.get("compiler", "nvcc")] + project.get("flags", []) + group.get("flags", []) + extra
    words += ([] if {"-dc", "--device-c"} & set(words) else ["-c"]) + [rel, "-o", obj]
    return cwd, expand(words, src, build)


def generate(project, root, build):
    """What the project's build writes before it compiles: headers made by plain text substitution
    (configure_file, sed) and headers it exports into its build directory (copies)."""
    for gen in project.get("generate", []):
        out = expand([gen["file"]], "", build)[0]
        if "copy" in gen:
            base = os.path.join(root, gen["base"])
            for pattern in gen["copy"]:
                for path in sorted(glob.glob(os.path.join(base, pattern), recursive=True)):
                    dest = os.path.join(out, os.path.relpath(path, base))
                    os.makedirs(os.path.dirname(dest), exist_ok=True)
                    shutil.copyfile(path, dest)
            continue
        with open(os.path.join(root, gen["from"]), encoding="utf-8") as fh:
            text = fh.read()
        for old, new in gen.get("replace", {}).items():
            text = text.replace(old, new)
        for pattern, new in gen.get("regex", []):
            text = re.sub(pattern, new, text, flags=re.M)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)


def write_database(project, root, src, build, dbdir, wanted):
    entries = []
    for group, file, extra, _ in tu_entries(project):
        if not wanted(project["name"], file):
            continue
        cwd, words = nvcc_command(project, group, file, extra, src, build)
        entries.append({"directory": os.path.normpath(os.path.join(root, cwd)),
                        "arguments": words, "file": os.path.relpath(file, cwd)})
    os.makedirs(dbdir, exist_ok=True)
    with open(os.path.join(dbdir, "compile_commands.json"), "w", encoding="utf-8") as fh:
        json.dump(entries, fh, indent=1)
    return len(entries)


# ---------------------------------------------------------------------------------------------
# Paths and messages that do not depend on where things were extracted
# ---------------------------------------------------------------------------------------------

class Paths:
    def __init__(self, root, src, build):
        cuda_real = os.path.realpath(CUDA)
        self.prefixes = [(os.path.realpath(build), "${BUILD}"), (build, "${BUILD}"),
                         (os.path.realpath(root), ""), (root, ""),
                         (os.path.realpath(src), "${SRC}"), (src, "${SRC}"),
                         (cuda_real, "${CUDA}"), (CUDA, "${CUDA}")]
        self.prefixes = [(p.rstrip("/") + "/", r) for p, r in self.prefixes]
        self.root = os.path.realpath(root)

    def rel(self, path, cwd):
        if not path:
            return path
        p = os.path.normpath(os.path.join(cwd, path))
        for prefix, repl in self.prefixes:
            if p.startswith(prefix):
                return (repl + "/" if repl else "") + p[len(prefix):]
        return p

    def where(self, relpath):
        if relpath is None:
            return "none"
        if relpath.startswith("${CUDA}/"):
            return "toolkit"
        if relpath.startswith("/") or relpath.startswith("${"):
            return "other"
        return "project"

    def text(self, msg):
        for prefix, repl in self.prefixes:
            msg = msg.replace(prefix, repl + "/" if repl else "")
        return msg


# ---------------------------------------------------------------------------------------------
# Running one side of one TU
# ---------------------------------------------------------------------------------------------

# --dump-ops DIR: where each side's operations go, as both front ends hand them to the engine
# (CUDA_SCOPE_DUMP_OPS), to diff two plugins' facts on the same TUs.
DUMP_OPS = None
OPS_LINE = re.compile(r"^(cuda-scope ops: \d+|  #\d+ .*)$", re.M)


def keep_ops(out, err, where):
    if DUMP_OPS and where:
        path = os.path.join(DUMP_OPS, where)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write("".join(m.group(0) + "\n" for text in (out, err) for m in OPS_LINE.finditer(text)))


def run(argv, cwd, timeout, env=None):
    start = time.perf_counter()
    if DUMP_OPS:
        env = dict(env or {}, CUDA_SCOPE_DUMP_OPS="1")
    try:
        p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=timeout,
                           env=dict(os.environ, **env) if env else None)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc = "timeout"
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
    return rc, out, err, time.perf_counter() - start


def crash_of(rc, err):
    if rc == "timeout":
        return "timed out"
    if (isinstance(rc, int) and rc < 0) or CRASH.search(err):
        tail = [l for l in err.splitlines() if l.strip()][-3:]
        return f"exit status {rc}: " + " | ".join(tail)
    return None


def errors_of(diags, err, paths, cwd):
    """(number of errors, the first MAX_ERRORS of them as 'file:line:col: message'). clang-tidy prints
    its diagnostics sorted by place, so 'first' is by place, not by time. Errors of the driver itself
    (an unknown argument) have no place and come first."""
    shown = [paths.text(m) for m in DRIVER_ERROR.findall(err)]
    errs = [d for d in diags if d.is_error and d.message not in NOT_AN_ERROR]
    for d in errs:
        loc = f"{paths.rel(d.file, cwd)}:{d.line}:{d.col}: " if d.file else ""
        text = loc + paths.text(d.message)
        if text not in shown:
            shown.append(text)
    return len(shown), shown[:MAX_ERRORS]


def finding(d, paths, cwd, check):
    f = paths.rel(d.file, cwd)
    out = {"file": f, "line": d.line, "column": d.col, "check": check, "message": paths.text(d.message),
           "where": paths.where(f)}
    if d.notes:
        out["notes"] = [{"file": paths.rel(n.file, cwd), "line": n.line, "column": n.col,
                         "message": paths.text(n.message)} for n in d.notes]
    return out


def dialect_of(diags, paths, cwd, err, host=False):
    """(the errors that are nvcc dialect clang rejects (tools/cuda-scope's DIALECT), which the command
    turns into one note per file naming what was not analysed; whether those are all of the side's
    errors, as the command then reports the file with its note, not as failed). host: the run
    compiles for the host."""
    known, rest = diagnostics.split_dialect(diags, {}, host)
    others = [d for d in rest if d.is_error and d.message not in NOT_AN_ERROR]
    dialect = [{"kind": k.name, "file": paths.rel(d.file, cwd), "line": d.line, "column": d.col} for d, k in known]
    return dialect, bool(dialect) and not others and not DRIVER_ERROR.search(err)


def tidy_side(job, cwd, paths, timeout, facts_path=None, where=None):
    """One clang-tidy side; with facts_path, the host side writes its file's facts there (the
    whole-program facts of tools/cuda_scope/facts.py, as the cuda-scope command has each host side do)."""
    rc, out, err, secs = run(job.argv, cwd, timeout, {"CUDA_SCOPE_FACTS": facts_path} if facts_path else None)
    keep_ops(out, err, where)
    diags = diagnostics.absolute(diagnostics.parse_output(out), cwd)
    n, shown = errors_of(diags, err, paths, cwd)
    res = {"parsed": n == 0 and rc != "timeout", "error_count": n, "errors": shown, "seconds": secs}
    dialect, noted = dialect_of(diags, paths, cwd, err, job.side == "host")
    if dialect:
        res["dialect"] = dialect
        res["noted"] = noted and rc != "timeout"
    crash = crash_of(rc, err)
    if crash:
        res["parsed"] = False
        res["crash"] = paths.text(crash)
    elif isinstance(rc, int) and rc not in (0, 1) and n == 0:
        res["parsed"] = False
        res["crash"] = paths.text(f"exit status {rc}: " + " | ".join(l for l in err.splitlines() if l.strip())[-400:])
    found = [finding(d, paths, cwd, d.check) for d in diags
             if not d.is_error and d.check and d.check.startswith("cuda-scope-")]
    return res, found


def program_of(facts_paths):
    """The whole program of the files analysed together (a project's database, or one TU), from
    their host sides' facts files, each a (path, file) pair."""
    return facts.load((p, f) for p, f in facts_paths if os.path.exists(p))[0]


def launches_text(program, file):
    """What the cuda-scope command hands the IR pass of `file` ($CUDA_SCOPE_LAUNCHES): the launch facts
    of its program (program_of). The device IR does not see the launches; without them the pass
    takes every kernel as launched on many blocks and never overlapping."""
    return facts.launches_file(facts.launches_of(program, os.path.normpath(file)))


def pass_side(job, cwd, paths, plugin, tidy_module, clangxx, tmp, timeout, launches=None, where=None):
    """The IR pass on the device side; `launches` is the text of the launches file to hand it
    (launches_text), none to run it without."""
    flags = job.argv[job.argv.index("--") + 1:]
    yaml_path = os.path.join(tmp, f"remarks-{threading.get_ident()}-{time.monotonic_ns()}.yaml")
    # The nvcc-compatibility layer that the module gives clang-tidy, given to clang++ as the user
    # guide says (-include the header beside the module).
    # As the command compiles for the pass (common.PASS_COMPILE_FLAGS; the optimizer only), with
    # every rule on, as clang-tidy runs with cuda-scope-* (the off-by-default wide-scope rule too).
    overlay = ["-ivfsoverlay", job.overlay] if getattr(job, "overlay", None) else []
    argv = [clangxx] + locate.compat_flags(tidy_module) + flags + overlay + common.PASS_COMPILE_FLAGS + [
        "-O2", f"-fpass-plugin={plugin}", "-Rpass-analysis=cuda-scope", "-mllvm", "-cuda-scope-wide-scope",
        "-fsave-optimization-record",
        f"-foptimization-record-file={yaml_path}", "-foptimization-record-passes=cuda-scope", "-S", "-emit-llvm",
        "-o", os.devnull, job.t.file]
    env = None
    if launches:
        launches_path = yaml_path[:-len(".yaml")] + ".launches"
        with open(launches_path, "w") as fh:
            fh.write(launches)
        env = {"CUDA_SCOPE_LAUNCHES": launches_path}
    rc, out, err, secs = run(argv, cwd, timeout, env)
    keep_ops(out, err, where)
    if launches:
        os.remove(launches_path)
    # The pass's remarks with their rules (from the optimization record), and clang's own errors:
    # read as the cuda-scope command reads them.
    remarks, diags = diagnostics.pass_diagnostics(err, yaml_path)
    diagnostics.absolute(remarks + diags, cwd)
    try:
        os.remove(yaml_path)
    except OSError:
        pass
    n, shown = errors_of(diags, err, paths, cwd)
    res = {"ran": rc == 0 and n == 0, "error_count": n, "errors": shown, "seconds": secs}
    dialect, noted = dialect_of(diags, paths, cwd, err)
    if dialect:
        res["dialect"] = dialect
        res["noted"] = noted and rc != "timeout"
    crash = crash_of(rc, err)
    if crash:
        res["ran"] = False
        res["crash"] = paths.text(crash)
    elif rc != 0 and n == 0:
        tail = [l for l in err.splitlines() if l.strip()][-3:]
        res["error_count"], res["errors"] = 1, [paths.text(f"exit status {rc}: " + " | ".join(tail))]
    found = []
    for d in remarks:
        f = finding(d, paths, cwd, d.check)
        if d.no_location:
            f["no_debug_location"] = True
        found.append(f)
    return res, found


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default_src = os.environ.get("CUDA_SCOPE_CORPUS") or os.path.join(os.path.dirname(ROOT), "corpus-src")
    ap.add_argument("--src", default=default_src,
                    help="where the projects are extracted (default: $CUDA_SCOPE_CORPUS, else ../corpus-src next to the repo)")
    ap.add_argument("--plugin-dir", default=os.path.join(ROOT, "build", "plugin"),
                    help="directory holding libCudaScopeTidy.so and libCudaScopePass.so (default: build/plugin)")
    ap.add_argument("--corpus", default=CORPUS, help="the corpus description (default: corpus.json beside this script)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="analyser runs at once (default 2)")
    ap.add_argument("--half", choices=HALVES + ("all",), default="development",
                    help="the projects of this half of the corpus, or all (development and evaluation; the "
                         "holdout sets, holdout and holdout2, only when named) (default: development, the projects "
                         "a plain run analysed before the evaluation half was added)")
    ap.add_argument("--project", action="append", default=[], help="only these projects (repeatable, or comma-separated)")
    ap.add_argument("--file", action="append", default=[], metavar="REGEX",
                    help="only TUs whose path (relative to the project root) matches (repeatable)")
    ap.add_argument("-o", "--output", help="write the results here (default: stdout)")
    ap.add_argument("--timeout", type=int, default=1200, help="seconds allowed to one analyser run (default 1200)")
    ap.add_argument("--no-times", action="store_true", help="leave the wall times out, for diffing two runs")
    ap.add_argument("--keep-db", metavar="DIR", help="write each project's compile_commands.json under DIR/<project>/")
    ap.add_argument("--print-commands", action="store_true",
                    help="print each TU's nvcc command and the three analyser commands, then stop")
    ap.add_argument("--summary", metavar="RESULTS", help="print the summary of a results file and stop")
    ap.add_argument("--dump-ops", metavar="DIR",
                    help="write the operations each side hands the engine to DIR/PROJECT/FILE.SIDE.ops, to diff "
                         "two plugins' facts")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    return ap.parse_args(argv)


def selector(args):
    projects = {p for arg in args.project for p in arg.split(",") if p}
    files = [re.compile(f) for f in args.file]

    def wanted(project, file):
        return (not projects or project in projects) and (not files or any(f.search(file) for f in files))
    return projects, wanted


def main(argv):
    global DUMP_OPS
    args = parse_args(argv)
    DUMP_OPS = os.path.abspath(args.dump_ops) if args.dump_ops else None
    with open(args.corpus, encoding="utf-8") as fh:
        corpus = json.load(fh)
    if args.summary:
        with open(args.summary, encoding="utf-8") as fh:
            doc = json.load(fh)
        summary(doc, sys.stdout, {p["name"]: half_of(p) for p in corpus["projects"]}, corpus)
        return 0
    src = os.path.abspath(args.src)
    tidy_module = os.path.abspath(os.path.join(args.plugin_dir, "libCudaScopeTidy.so"))
    pass_plugin = os.path.abspath(os.path.join(args.plugin_dir, "libCudaScopePass.so"))
    for p in (tidy_module, pass_plugin):
        if not os.path.isfile(p):
            sys.exit(f"run.py: {p} not found (--plugin-dir)")
    try:
        tidy = locate.find_clang_tidy(None)
        locate.require_compat_header(tidy_module)
    except locate.Fatal as e:
        sys.exit(f"run.py: {e}")
    clangxx = shutil.which("clang++-22") or "/usr/lib/llvm-22/bin/clang++"
    projects, wanted = selector(args)
    unknown = projects - {p["name"] for p in corpus["projects"]}
    if unknown:
        sys.exit(f"run.py: no such project in the corpus: {', '.join(sorted(unknown))}")
    if args.half != "all":
        other = sorted(p["name"] for p in corpus["projects"] if p["name"] in projects and half_of(p) != args.half)
        if other:
            sys.exit(f"run.py: not in the {args.half} half (--half): {', '.join(other)}")

    tmp = tempfile.mkdtemp(prefix="cuda-scope-realcode-")
    opts = argparse.Namespace(checks="cuda-scope-*", checks_given=True, header_filter=".*", fix=False,
                              export_fixes=None, all_archs=False,
                              host_only=False, default_arch=common.DEFAULT_ARCH,
                              tidy_arg=["--system-headers", "--config={}"])
    tasks, results, order = [], {}, []
    # nvcc syntax clang's parser rejects and a same-lines copy fixes, read through an overlay, as the
    # cuda-scope command reads it (tools/cuda_scope/rewrite.py).
    rewrites = Rewrites(os.path.join(tmp, "rewrites"))
    rewrites.clang = clangxx     # which decides some of them (packargs.py)
    rewrites.probe_timeout = args.timeout
    try:
        for project in corpus["projects"]:
            name = project["name"]
            if (projects and name not in projects) or not selected(args.half, half_of(project)):
                continue
            root = os.path.join(src, project.get("extract", name))
            if not os.path.isdir(root):
                sys.exit(f"run.py: {root} is missing: extract {project['repo']} at {project['commit']} there "
                         f"(bench/realcode/README.md)")
            # A kept database's commands name the generated headers: keep them beside it.
            build = os.path.join(args.keep_db or tmp, name, "build")
            dbdir = os.path.join(args.keep_db, name) if args.keep_db else os.path.join(tmp, name)
            os.makedirs(build, exist_ok=True)
            generate(project, root, build)
            if not write_database(project, root, src, build, dbdir, wanted):
                continue
            if args.print_commands:
                for group, file, extra, _ in tu_entries(project):
                    if wanted(name, file):
                        cwd, words = nvcc_command(project, group, file, extra)
                        print(f"[{name}] (cd {cwd} && {shlex.join(words)})")
            entries, problems = database.load_database(dbdir)
            if problems:
                sys.exit("run.py: " + "; ".join(problems))
            notes = {file: note for _, file, _, note in tu_entries(project) if note}
            unbuilt = {tu["file"]: tu["unbuilt"] for g in project["groups"] for tu in g["tus"]
                       if isinstance(tu, dict) and tu.get("unbuilt")}
            tr = nvcc.Translator(set())
            paths = Paths(root, src, build)
            for e in entries:
                t = database.translate_entry(tr, e["file"], e["directory"], e["words"], e["origin"])
                jobs, missing = runner.build_jobs(opts, [t], tidy, tidy_module, None, rewrites=rewrites)
                if missing:
                    sys.exit(f"run.py: no CUDA toolkit for {e['file']}")
                host = next(j for j in jobs if j.side == "host")
                device = next(j for j in jobs if j.side == "device")
                key = (name, paths.rel(e["file"], e["directory"]))
                order.append(key)
                results[key] = {"file": key[1], "arch": device.arch, "untranslated": sorted(t.untranslated)}
                if notes.get(key[1]):
                    results[key]["note"] = notes[key[1]]
                if unbuilt.get(key[1]):
                    results[key]["unbuilt"] = unbuilt[key[1]]
                if args.print_commands:
                    print("  host:   " + shlex.join(host.argv))
                    print("  device: " + shlex.join(device.argv))
                    continue
                tasks.append((key, "host", host, e["directory"], paths))
                tasks.append((key, "device", device, e["directory"], paths))
                tasks.append((key, "pass", device, e["directory"], paths))
        if args.print_commands:
            return 0

        lock = threading.Lock()
        done = [0]
        start = time.perf_counter()

        # Each host side writes its file's facts; a project's passes run once all its host sides have,
        # each with the launch facts of its program (launches_text), as the cuda-scope command runs
        # a project's database.
        os.makedirs(os.path.join(tmp, "facts"), exist_ok=True)
        facts_of = {key: os.path.join(tmp, "facts", f"{n}.json") for n, key in enumerate(order)}

        programs = {}

        def work(task):
            key, side, job, cwd, paths = task
            if side == "pass":
                with lock:
                    if key[0] not in programs:
                        programs[key[0]] = program_of([(facts_of[k], os.path.join(j.t.directory, j.t.file))
                                                       for k, s, j, _, _ in tasks if s == "host" and k[0] == key[0]])
                        facts.programs(programs[key[0]])   # decided once, not by two threads at once
                res, found = pass_side(job, cwd, paths, pass_plugin, tidy_module, clangxx, tmp, args.timeout,
                                       launches_text(programs[key[0]], os.path.join(job.t.directory, job.t.file)),
                                       where=f"{key[0]}/{key[1]}.{side}.ops")
            else:
                res, found = tidy_side(job, cwd, paths, args.timeout, facts_of[key] if side == "host" else None,
                                       where=f"{key[0]}/{key[1]}.{side}.ops")
            with lock:
                done[0] += 1
                if not args.quiet:
                    ok = res.get("parsed", res.get("ran"))
                    print(f"[{done[0]}/{len(tasks)}] {key[0]}/{key[1]} ({side}) {'ok' if ok else 'FAILED'} "
                          f"{len(found)} finding(s) {res['seconds']:.1f}s", file=sys.stderr, flush=True)
            return task, res, found

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            first = [t for t in tasks if t[1] != "pass"]
            for phase in (first, [t for t in tasks if t[1] == "pass"]):
                for task, res, found in pool.map(work, phase):
                    key, side = task[0], task[1]
                    results[key][side] = res
                    results[key].setdefault("_found", {})[side] = found
        wall = time.perf_counter() - start
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    doc = {"corpus": os.path.relpath(args.corpus, ROOT),
           "plugins": {"tidy": os.path.basename(tidy_module), "pass": os.path.basename(pass_plugin)},
           "clang_tidy": os.path.basename(tidy), "clang": os.path.basename(clangxx),
           "projects": []}
    if not args.no_times:
        doc["wall_seconds"] = round(wall, 1)
        doc["jobs"] = args.jobs
    for project in corpus["projects"]:
        keys = sorted(k for k in order if k[0] == project["name"])
        if not keys:
            continue
        tus = []
        for key in keys:
            r = results[key]
            found = r.pop("_found", {})
            merged = {}
            for side in ("host", "device"):
                for f in found.get(side, []):
                    k = (f["file"], f["line"], f["column"], f["check"], f["message"])
                    if k in merged:
                        merged[k]["sides"].append(side)
                    else:
                        merged[k] = dict(f, sides=[side])
            r["tidy_findings"] = [merged[k] for k in sorted(merged)]
            r["pass_findings"] = sorted(found.get("pass", []),
                                        key=lambda f: (f["file"], f["line"], f["column"], f["check"], f["message"]))
            if args.no_times:
                for side in ("host", "device", "pass"):
                    r[side].pop("seconds", None)
            else:
                for side in ("host", "device", "pass"):
                    r[side]["seconds"] = round(r[side]["seconds"], 2)
            tus.append(r)
        doc["projects"].append({"name": project["name"], "repo": project["repo"], "commit": project["commit"],
                                "half": half_of(project), "tus": tus})
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    json.dump(doc, out, indent=1, sort_keys=False)
    out.write("\n")
    if out is not sys.stdout:
        out.close()
        summary(doc, sys.stderr if args.quiet else sys.stdout, {p["name"]: half_of(p) for p in corpus["projects"]},
                corpus)
    return 0


# ---------------------------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------------------------

KEEP_NAME = ("no matching function for call to", "use of undeclared identifier", "unknown argument", "unknown type name",
             "no member named", "no template named", "no type named")


def error_kind(text):
    """An error line without its location and with quoted names blanked: one line per kind of error."""
    msg = re.sub(r"^\S+:\d+:\d+: ", "", text)
    if msg.startswith(KEEP_NAME):
        return msg
    return re.sub(r"'[^']*'", "'…'", msg)


def parse_bar(projects, out, corpus=None):
    """The parse bar: of the TUs nvcc 13 builds here (those without `unbuilt` in corpus.json), the
    share analysed on every side with the pass run; every other one must carry the one note on each
    side that failed (every error of that side nvcc dialect, DIALECT) or lack a dependency."""
    why = {(p["name"], tu["file"]): tu["unbuilt"] for p in (corpus or {}).get("projects", []) for g in p["groups"]
           for tu in g["tus"] if isinstance(tu, dict) and tu.get("unbuilt")}
    built = [(p["name"], t) for p in projects for t in p["tus"]
             if not (t.get("unbuilt") or why.get((p["name"], t["file"])))]
    unbuilt = sum(len(p["tus"]) for p in projects) - len(built)

    def fine(t, side):
        r = t[side]
        if r["ran"] if side == "pass" else r["parsed"]:
            return True
        # Results written before the pass side said "noted": every error of it dialect.
        return r.get("noted", len(r.get("dialect", [])) >= r["error_count"] > 0 and "crash" not in r)
    analysed = [t for _, t in built if t["host"]["parsed"] and t["device"]["parsed"] and t["pass"]["ran"]]
    unexplained = [(n, t) for n, t in built if t not in analysed and not all(fine(t, s) for s in ("host", "device", "pass"))]
    share = 100 * len(analysed) / len(built) if built else 0
    print(f"\nparse bar: of {len(built)} TUs nvcc 13 builds here ({unbuilt} it does not: corpus.json's unbuilt), "
          f"{len(analysed)} analysed on every side with the pass run ({share:.1f}%), "
          f"{len(built) - len(analysed) - len(unexplained)} noted, {len(unexplained)} failing without a note", file=out)
    for n, t in unexplained:
        sides = [s for s in ("host", "device", "pass") if not fine(t, s)]
        print(f"  {n} {t['file']}: {', '.join(sides)}", file=out)


def summary(doc, out, halves=None, corpus=None):
    """The tables of a results file. halves maps a project's name to its half, for results files
    written before the projects carried one; with projects of both halves in the file, the projects
    are grouped by half and each half has its own totals."""
    def half(p):
        return p.get("half") or (halves or {}).get(p["name"]) or "development"
    order = {h: i for i, h in enumerate(HALVES)}
    projects = sorted(doc["projects"], key=lambda p: order.get(half(p), len(HALVES)))  # stable: file order within a half
    present = []
    for p in projects:
        if half(p) not in present:
            present.append(half(p))
    both = len(present) > 1
    checks = sorted({f["check"] for p in projects for t in p["tus"]
                     for f in t["tidy_findings"] + t["pass_findings"]})
    w = max([len(p["name"]) for p in projects] + [8] + [len(f"total {h}") for h in present if both])
    print("ok: no error; noted: every error is nvcc dialect clang rejects, which tools/cuda-scope reports as "
          "one note per file naming what was not analysed", file=out)
    if both:
        print("halves: " + "; ".join(f"{h}: {', '.join(p['name'] for p in projects if half(p) == h)}" for h in present),
              file=out)
    cols = ("tus", "host", "host-noted", "device", "device-noted", "ran", "crash")
    heads = ("TUs", "host ok", "noted", "dev ok", "noted", "pass ok", "crash")
    print(f"{'project':<{w}} " + " ".join(f"{h:>7}" for h in heads) + f" {'seconds':>8}", file=out)
    tot = collections.Counter()
    for h in present:
        sub = collections.Counter()
        for p in projects:
            if half(p) != h:
                continue
            tus = p["tus"]
            c = collections.Counter(
                tus=len(tus), host=sum(t["host"]["parsed"] for t in tus), device=sum(t["device"]["parsed"] for t in tus),
                ran=sum(t["pass"]["ran"] for t in tus),
                crash=sum(1 for t in tus for s in ("host", "device", "pass") if "crash" in t[s]))
            for side in ("host", "device"):
                c[side + "-noted"] = sum(1 for t in tus if t[side].get("noted"))
            secs = sum(t[s].get("seconds", 0) for t in tus for s in ("host", "device", "pass"))
            sub.update(c)
            sub["seconds"] += secs
            print(f"{p['name']:<{w}} " + " ".join(f"{c[k]:>7}" for k in cols) + f" {secs:>8.0f}", file=out)
        if both:
            print(f"{'total ' + h:<{w}} " + " ".join(f"{sub[k]:>7}" for k in cols) + f" {sub['seconds']:>8.0f}", file=out)
        tot.update(sub)
    print(f"{'total':<{w}} " + " ".join(f"{tot[k]:>7}" for k in cols) + f" {tot['seconds']:>8.0f}", file=out)
    if "wall_seconds" in doc:
        print(f"wall time: {doc['wall_seconds']:.0f} s with -j {doc.get('jobs')}", file=out)
    parse_bar(projects, out, corpus)

    print("\nfindings in the projects' own files (tidy-host / tidy-device: a finding on both sides counts "
          "in each; tidy: distinct; tidy-w/errors: of those, reported by a side that had errors; ir: pass remarks); "
          "toolkit/other: findings of either front end outside the project", file=out)
    cols = ["tidy-host", "tidy-device", "tidy", "tidy-w/errors", "ir", "toolkit", "other"]
    print(f"{'project':<{w}} {'check':<28} " + " ".join(f"{c:>13}" for c in cols), file=out)
    grand = collections.Counter()
    for p in projects:
        for check in checks:
            c = collections.Counter()
            for t in p["tus"]:
                for f in t["tidy_findings"]:
                    if f["check"] != check:
                        continue
                    if f["where"] != "project":
                        c[f["where"]] += 1
                        continue
                    c["tidy"] += 1
                    for s in f["sides"]:
                        c[f"tidy-{s}"] += 1
                    if not all(t[s]["parsed"] for s in f["sides"]):
                        c["tidy-w/errors"] += 1
                for f in t["pass_findings"]:
                    if f["check"] != check:
                        continue
                    c["ir" if f["where"] == "project" else f["where"]] += 1
            if c:
                grand.update({(half(p), check, k): v for k, v in c.items()})
                print(f"{p['name']:<{w}} {check:<28} " + " ".join(f"{c[k]:>13}" for k in cols), file=out)
    if both:
        for h in present:
            for check in checks:
                print(f"{'total ' + h:<{w}} {check:<28} " + " ".join(f"{grand[(h, check, k)]:>13}" for k in cols),
                      file=out)
    for check in checks:
        print(f"{'total':<{w}} {check:<28} " + " ".join(f"{sum(grand[(h, check, k)] for h in present):>13}" for k in cols),
              file=out)

    kinds = collections.OrderedDict()
    for p in projects:
        for t in p["tus"]:
            for side in ("host", "device"):
                for e in t[side]["errors"]:
                    k = error_kind(e)
                    entry = kinds.setdefault(k, {"tus": set(), "example": f"{p['name']}/{e}"})
                    entry["tus"].add((p["name"], t["file"], side))
    if kinds:
        print("\nclang errors by kind (TU sides that show it among their first errors; an example):", file=out)
        for k, v in sorted(kinds.items(), key=lambda kv: (-len(kv[1]["tus"]), kv[0]))[:25]:
            print(f"{len(v['tus']):>4}  {k[:150]}\n      e.g. {v['example'][:220]}", file=out)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
