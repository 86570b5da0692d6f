#!/usr/bin/env python3
"""Recall by mutation: breaks the synchronization of real translation units one point at a time
(mutate.py) and measures how many of the broken mutants each front end (clang-tidy, the IR pass)
reports at the place it was broken.

USAGE: bench/mutation/run.py [--src DIR] [--plugin-dir DIR] [--projects A,B] [--file REGEX]
       [--max-tus N] [--max-per-tu N] [--max-per-kind N] [--kinds K,..] [--seed S] [--near N]
       [--budget SECONDS] [-j N] [-o out.json] [--dry-run] | --summary out.json

The translation units and their flags come from bench/realcode/corpus.json (--corpus), translated
by bench/realcode/run.py's code and tools/cuda-scope's nvcc translator (imported), and each run is
made as bench/realcode/run.py makes it (its tidy_side and pass_side). For each TU chosen, the
unmutated TU is analysed once (the baseline); then each mutant is written to a temporary copy that
clang-tidy (--vfsoverlay) and clang++ (-ivfsoverlay) read in place of the original file, through a
VFS overlay that keeps the original's name, so its relative includes and the findings' paths are
the original's. A mutant is left out, with the reason, when it is equivalent by the text
(mutate.py), when the preprocessor drops it on both compilation sides (clang -E gives the same
output as the original's), or when it no longer parses. Standard library only.
"""
import argparse
import collections
import concurrent.futures
import dataclasses
import hashlib
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import mutate  # noqa: E402


def _load_realcode():
    spec = importlib.util.spec_from_file_location("realcode_run", os.path.join(ROOT, "bench", "realcode", "run.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


realcode = _load_realcode()
from cuda_scope import database, locate, nvcc, runner  # noqa: E402  (realcode put tools/ on the path)
from cuda_scope.rewrite import Rewrites, rewrite_text  # noqa: E402

FRONT_ENDS = ("clang-tidy", "ir-pass")
NEAR_LINES = 10
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^">\n]+)[">]', re.M)
# __DATE__ and __TIME__ differ between two preprocessor runs; nothing here depends on them.
SRCLOC = re.compile(rb"^!\d+ = !\{i64 -?\d+\}\n", re.M)
FIXED_CLOCK = ["-Wno-builtin-macro-redefined", "-D__DATE__=\"-\"", "-D__TIME__=\"-\"", "-D__TIMESTAMP__=\"-\""]


# ---------------------------------------------------------------------------------------------
# Translation units, as bench/realcode/run.py reads the corpus
# ---------------------------------------------------------------------------------------------

@dataclasses.dataclass(eq=False)
class TU:
    project: str
    rel: str                # relative to the project root
    path: str               # absolute
    root: str
    cwd: str
    host: object            # runner.Job
    device: object
    paths: object           # realcode.Paths
    translation: object
    files: list = None      # the project's files this TU includes (absolute), itself first
    mutants: list = None
    rewritten: dict = None  # file -> its rewritten copy (nvcc syntax, tools/cuda_scope/rewrite.py)


def corpus_tus(corpus, src, tmp, projects, wanted, tidy, tidy_module):
    """Every TU of the chosen projects, with its clang-tidy jobs (host, device). nvcc syntax that
    clang's parser rejects is read through the same-lines copies the cuda-scope command makes."""
    rewrites = Rewrites(os.path.join(tmp, "rewrites"))
    opts = argparse.Namespace(checks="cuda-scope-*", checks_given=True, header_filter=".*", fix=False,
                              export_fixes=None, all_archs=False, host_only=False,
                              default_arch=realcode.common.DEFAULT_ARCH, tidy_arg=["--system-headers", "--config={}"])
    out, missing = [], []
    for project in corpus["projects"]:
        name = project["name"]
        if projects and name not in projects:
            continue
        root = os.path.join(src, project.get("extract", name))
        if not os.path.isdir(root):
            missing.append(name)
            continue
        build = os.path.join(tmp, name, "build")
        dbdir = os.path.join(tmp, name)
        os.makedirs(build, exist_ok=True)
        realcode.generate(project, root, build)
        if not realcode.write_database(project, root, src, build, dbdir, wanted):
            continue
        entries, problems = database.load_database(dbdir)
        if problems:
            sys.exit("run.py: " + "; ".join(problems))
        tr = nvcc.Translator(set())
        paths = realcode.Paths(root, src, build)
        for e in entries:
            t = database.translate_entry(tr, e["file"], e["directory"], e["words"], e["origin"])
            jobs, lacking = runner.build_jobs(opts, [t], tidy, tidy_module, None, rewrites=rewrites)
            if lacking:
                sys.exit(f"run.py: no CUDA toolkit for {e['file']}")
            host = next((j for j in jobs if j.side == "host"), None)
            device = next((j for j in jobs if j.side == "device"), None)
            if host is None or device is None:
                continue
            needed = next((files for files, o in rewrites.overlays.items() if o == host.overlay), ())
            out.append(TU(name, paths.rel(e["file"], e["directory"]), os.path.normpath(e["file"]),
                          os.path.realpath(root), e["directory"], host, device, paths, t,
                          rewritten={f: rewrites.copies[f] for f in needed}))
    return out, missing


def project_files(tu, limit=400):
    """The TU and the files under its project's root that it includes (quoted: the includer's folder,
    then -iquote and -I; angled: -I), found from the text: a header behind an #if is listed too, and
    its mutants are then found not compiled by the preprocessor check."""
    dirs = runner.quoted_include_dirs(tu.translation)
    seen, order, work = set(), [], [tu.path]
    while work and len(order) < limit:
        path = work.pop(0)
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        order.append(path)
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as fh:
                text = fh.read()
        except OSError:
            continue
        for quote, name in INCLUDE.findall(text):
            for d in ([os.path.dirname(path)] if quote == '"' else []) + dirs:
                c = os.path.normpath(os.path.join(d, name))
                if os.path.isfile(c):
                    if os.path.realpath(c).startswith(tu.root + os.sep):
                        work.append(c)
                    break
    return order


def read_unit(files):
    unit = {}
    for f in files:
        try:
            with open(f, encoding="utf-8", errors="surrogateescape") as fh:
                unit[f] = fh.read()
        except OSError:
            pass
    return unit


# ---------------------------------------------------------------------------------------------
# Running the front ends on a TU or a mutant
# ---------------------------------------------------------------------------------------------

def with_overlay(job, overlay, side):
    """A copy of a job that reads the files the overlay maps through it (in place of the overlay of
    the TU's rewritten copies, which write_overlay's includes). The pass gets it from the job's
    overlay (bench/realcode/run.py's pass_side)."""
    if not overlay:
        return job
    argv = [a for a in job.argv if not a.startswith("--vfsoverlay=")]
    if side != "pass":
        cut = argv.index("--")
        argv = argv[:cut - 1] + [f"--vfsoverlay={overlay}"] + argv[cut - 1:]
    return dataclasses.replace(job, argv=argv, overlay=overlay)


def write_overlay(folder, original, text, rewritten=None):
    """The mutated copy of `original` in folder, and an overlay that serves it under the original's
    name ('use-external-names': false: diagnostics and line markers name the original), with the
    TU's other rewritten copies (`rewritten`: file -> copy). The mutated text is rewritten as the
    command rewrites the file (nvcc syntax clang rejects, on the same lines)."""
    os.makedirs(folder, exist_ok=True)
    copy = os.path.join(folder, os.path.basename(original))
    data = text.encode("utf-8", errors="surrogateescape")
    new, _, _ = rewrite_text(data)
    with open(copy, "wb") as fh:
        fh.write(new if new is not None else data)
    overlay = os.path.join(folder, "overlay.yaml")
    roots = [{"type": "file", "name": os.path.abspath(original), "external-contents": copy}]
    roots += [{"type": "file", "name": f, "external-contents": c} for f, c in sorted((rewritten or {}).items())
              if os.path.abspath(f) != os.path.abspath(original)]
    with open(overlay, "w", encoding="utf-8") as fh:
        json.dump({"version": 0, "use-external-names": False, "roots": roots}, fh)
    return overlay


class Analyser:
    def __init__(self, args, tidy_module, pass_plugin, clangxx, tmp):
        self.args, self.tidy_module, self.pass_plugin, self.clangxx, self.tmp = \
            args, tidy_module, pass_plugin, clangxx, tmp
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))

    def sides(self, tu, overlay, with_pass):
        """{side: (result, findings)} for host, device and (with_pass) the IR pass. The host side writes
        the TU's facts, and the pass gets their launch facts, as the cuda-scope command runs one TU
        (bench/realcode/run.py's launches_text)."""
        facts_path = os.path.join(self.tmp, f"facts-{threading.get_ident()}-{time.monotonic_ns()}.json")
        futures = {
            "host": self.pool.submit(realcode.tidy_side, with_overlay(tu.host, overlay, "host"), tu.cwd, tu.paths,
                                     self.args.timeout, facts_path),
            "device": self.pool.submit(realcode.tidy_side, with_overlay(tu.device, overlay, "device"), tu.cwd,
                                       tu.paths, self.args.timeout)}
        if with_pass:
            futures["host"].result()   # the pass waits for the facts (not in the pool: it may be full)
            file = os.path.join(tu.device.t.directory, tu.device.t.file)
            launches = realcode.launches_text(realcode.program_of([(facts_path, file)]), file)
            futures["pass"] = self.pool.submit(realcode.pass_side, with_overlay(tu.device, overlay, "pass"), tu.cwd,
                                               tu.paths, self.pass_plugin, self.tidy_module, self.clangxx, self.tmp,
                                               self.args.timeout, launches)
        out = {k: f.result() for k, f in futures.items()}
        if os.path.exists(facts_path):
            os.remove(facts_path)
        return out

    def preprocess(self, tu, overlay, emit=False):
        """{side: digest of clang -E's output} on the host and device sides; with `emit` ("-O0" or
        "-O2"; True is "-O0"), of the LLVM IR each side generates at that level (at -O0, what the
        compiler makes of the code it uses; at -O2, what is left once calls are inlined and the
        branches their constant arguments decide are folded)."""
        def one(job):
            flags = job.argv[job.argv.index("--") + 1:]
            # A fixed CUID: under relocatable device code (-dc) clang suffixes a kernel of internal
            # linkage (static, or in an anonymous namespace) with a hash of the command, and a
            # mutant's command names its own overlay.
            level = emit if isinstance(emit, str) else "-O0"
            out = ["-S", "-emit-llvm", level, "-g0", "-cuid=cuda-scope-mutant"] if emit else ["-E"]
            through = overlay or job.overlay   # the mutant's, or the TU's rewritten copies'
            argv = [self.clangxx] + locate.compat_flags(self.tidy_module) + flags + FIXED_CLOCK + \
                (["-ivfsoverlay", through] if through else []) + out + ["-o", "-", tu.path]
            try:
                p = subprocess.run(argv, cwd=tu.cwd, capture_output=True, timeout=self.args.timeout)
            except subprocess.TimeoutExpired:
                return None
            if p.returncode != 0:
                if os.environ.get("CUDA_SCOPE_MUTATION_DEBUG"):   # why a side did not compile
                    print(f"run.py: {' '.join(argv)} failed:\n{p.stderr.decode(errors='replace')[-1500:]}",
                          file=sys.stderr)
                return None
            text = p.stdout
            if emit:
                # An inline asm statement carries its source position (!srcloc, a file offset): a
                # mutant that changes a line's length moves every later one, not the code.
                text = SRCLOC.sub(b"", text)
            return hashlib.sha256(text).hexdigest()
        futures = {"host": self.pool.submit(one, tu.host), "device": self.pool.submit(one, tu.device)}
        return {k: f.result() for k, f in futures.items()}


def finding_key(f):
    """A finding's identity between the unmutated and the mutated run. Columns are left out (a
    mutation moves the columns of its own line), also inside messages that cite a place."""
    msg = re.sub(r"(\.\w+):(\d+):\d+", r"\1:\2", f["message"])
    return (f["file"], f["line"], f["check"], msg)


def short(f):
    out = {"file": f["file"], "line": f["line"], "check": f["check"], "message": f["message"][:300]}
    if f.get("sides"):
        out["sides"] = f["sides"]
    return out


def merged_tidy(res):
    """The findings of both clang-tidy sides, one entry per finding (as bench/realcode/run.py merges them)."""
    merged = {}
    for side in ("host", "device"):
        for f in res[side][1]:
            k = finding_key(f)
            if k in merged:
                merged[k]["sides"].append(side)
            else:
                merged[k] = dict(f, sides=[side])
    return list(merged.values())


def near(f, m, window):
    """Whether a finding (or one of its notes, or a place its message cites) is at the mutation: the
    same file, and in the mutated function or within `window` lines of the mutated lines; or, for a
    mutation in a macro's body or a helper function's, within `window` lines of a place the TU
    expands the macro or calls the helper (its code acts there)."""
    places = [f] + list(f.get("notes", [])) + list(f.get("places", []))
    for p in places:
        if p.get("file") != m["file"]:
            continue
        if m["line"] - window <= p["line"] <= m["end_line"] + window:
            return True
        fn = m.get("function_lines")
        if fn and fn[0] <= p["line"] <= fn[1]:
            return True
    for p in places:
        for file, line in list(m.get("expansions", ())) + list(m.get("calls", ())):
            if p.get("file") == file and line - window <= p["line"] <= line + window:
                return True
    return False


MESSAGE_PLACE = re.compile(r"(?<![\w/.$])((?:\$\{\w+\}/|/|\.\.?/|\w)[^\s,;()'\"]*\.\w+):(\d+):\d+")


def with_places(findings, tu):
    """The findings with the places their messages cite (the IR pass names the other access and the
    calls that reach a helper in its message, where clang-tidy gives notes), as project paths."""
    out = []
    for f in findings:
        cited = [{"file": tu.paths.rel(file, tu.cwd) if not file.startswith("${") else file, "line": int(line)}
                 for file, line in MESSAGE_PLACE.findall(f.get("message", ""))]
        out.append(dict(f, places=cited) if cited else f)
    return out


def judge(m, base, found, window):
    """The verdict of one front end on one mutant: reported when a new finding of an expected rule is
    at or near the mutation."""
    old = {finding_key(f) for f in base}
    new = [f for f in found if finding_key(f) not in old]
    expected = set(m["expected"])
    out = {"near": [], "other_near": [], "elsewhere": []}
    for f in new:
        if near(f, m, window):
            out["near" if f["check"] in expected else "other_near"].append(short(f))
        else:
            out["elsewhere"].append(short(f))
    out["lost"] = len([k for k in old if k not in {finding_key(f) for f in found}])
    out["verdict"] = "reported" if out["near"] else "missed"
    return out


# ---------------------------------------------------------------------------------------------
# Choosing TUs and mutants (deterministic for a seed)
# ---------------------------------------------------------------------------------------------

def pick_tus(tus, seed):
    """The TUs in the order they are tried: shuffled with the seed, then each next one the TU that
    has the mutation kind least measured so far (kinds the corpus has few of come early), then one
    whose sites are in files least tried, taking the projects in turn."""
    rng = random.Random(f"{seed}:tus")
    pool = sorted(tus, key=lambda t: (t.project, t.rel))
    rng.shuffle(pool)
    covered = collections.Counter()
    per_project = collections.Counter()
    per_file = collections.Counter()
    out = []

    def files(t):
        return {m.file for m in t.mutants if not m.equivalent}

    def score(t):
        kinds = {m.kind for m in t.mutants if not m.equivalent}
        # then TUs whose mutation sites are in files not tried yet (a header many TUs share comes once)
        return (min(covered[k] for k in kinds), max(per_file[f] for f in files(t)), per_project[t.project])
    while pool:
        best = min(range(len(pool)), key=lambda n: score(pool[n]))
        t = pool.pop(best)
        out.append(t)
        for k in {m.kind for m in t.mutants if not m.equivalent}:
            covered[k] += 1
        for f in files(t):
            per_file[f] += 1
        per_project[t.project] += 1
    return out


def candidate_order(tu, seed, kinds):
    """The TU's mutants in the order they are tried: each kind's shuffled with the seed, the kinds
    taken in turn (their order shuffled too)."""
    rng = random.Random(f"{seed}:{tu.project}:{tu.rel}")
    by_kind = collections.OrderedDict((k, []) for k in kinds)
    for m in tu.mutants:
        if m.kind in by_kind:
            by_kind[m.kind].append(m)
    order = [k for k in kinds if by_kind[k]]
    rng.shuffle(order)
    for k in order:
        rng.shuffle(by_kind[k])
    return order, by_kind


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default_src = os.environ.get("CUDA_SCOPE_CORPUS") or os.path.join(os.path.dirname(ROOT), "corpus-src")
    ap.add_argument("--src", default=default_src, help="where the projects are extracted (bench/realcode/README.md)")
    ap.add_argument("--plugin-dir", default=os.path.join(ROOT, "build", "plugin"))
    ap.add_argument("--corpus", default=realcode.CORPUS, help="the corpus description (default: bench/realcode/corpus.json)")
    ap.add_argument("--projects", action="append", default=[], help="only these projects (comma-separated, repeatable)")
    ap.add_argument("--file", action="append", default=[], metavar="REGEX", help="only TUs whose path matches")
    ap.add_argument("--kinds", default=",".join(mutate.KINDS), help="mutation kinds (default: all)")
    ap.add_argument("--max-tus", type=int, default=10, help="TUs to measure (those whose unmutated run is clean)")
    ap.add_argument("--max-per-tu", type=int, default=3, help="broken mutants measured per TU")
    ap.add_argument("--max-per-kind", type=int, default=2, help="broken mutants measured per TU and kind")
    ap.add_argument("--max-tries", type=int, default=3,
                    help="per TU, stop after this many times --max-per-tu mutants tried (left-out ones included)")
    ap.add_argument("--seed", default="0", help="the seed of every choice (default 0)")
    ap.add_argument("--near", type=int, default=NEAR_LINES,
                    help=f"a finding within this many lines of the mutation counts as at it (default {NEAR_LINES})")
    ap.add_argument("--budget", type=float, default=0, help="start no new TU or mutant after this many seconds (0: none)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds allowed to one analyser run")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="analyser runs at once")
    ap.add_argument("-o", "--output", help="the JSON of every mutant (default: none)")
    ap.add_argument("--judged", default=os.path.join(HERE, "judged.json"),
                    help="mutants judged equivalent by reading the code (default: judged.json beside this script; "
                         "'' for none)")
    ap.add_argument("--dry-run", action="store_true", help="print the TUs and mutants that would be tried, run nothing")
    ap.add_argument("--summary", metavar="JSON", help="print the tables of an earlier run and stop")
    ap.add_argument("-q", "--quiet", action="store_true")
    return ap.parse_args(argv)


def log(args, msg):
    if not args.quiet:
        print(msg, file=sys.stderr, flush=True)


def main(argv):
    args = parse_args(argv)
    if args.summary:
        with open(args.summary, encoding="utf-8") as fh:
            print_tables(json.load(fh), sys.stdout)
        return 0
    args.judged = load_judged(args.judged)
    kinds = tuple(k for k in args.kinds.split(",") if k)
    bad = set(kinds) - set(mutate.KINDS)
    if bad:
        sys.exit(f"run.py: unknown kind(s) {', '.join(sorted(bad))}; the kinds are {', '.join(mutate.KINDS)}")
    with open(args.corpus, encoding="utf-8") as fh:
        corpus = json.load(fh)
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
    projects = {p for arg in args.projects for p in arg.split(",") if p}
    unknown = projects - {p["name"] for p in corpus["projects"]}
    if unknown:
        sys.exit(f"run.py: no such project in the corpus: {', '.join(sorted(unknown))}")
    files_re = [re.compile(f) for f in args.file]

    def wanted(project, file):
        return (not projects or project in projects) and (not files_re or any(f.search(file) for f in files_re))

    tmp = tempfile.mkdtemp(prefix="cuda-scope-mutation-")
    start = time.perf_counter()
    try:
        # One build for the whole run: a rebuild of build/plugin while it runs would make the
        # baseline and the mutants disagree. The module finds its header in include/ beside it.
        snap = os.path.join(tmp, "plugins")
        os.makedirs(snap)
        digests_of = {}
        for name, path in (("tidy", tidy_module), ("pass", pass_plugin)):
            copy = os.path.join(snap, os.path.basename(path))
            shutil.copy2(path, copy)
            with open(copy, "rb") as fh:
                digests_of[name] = hashlib.sha256(fh.read()).hexdigest()[:16]
        if os.path.isdir(os.path.join(os.path.dirname(tidy_module), "include")):
            shutil.copytree(os.path.join(os.path.dirname(tidy_module), "include"), os.path.join(snap, "include"))
        tidy_module = os.path.join(snap, os.path.basename(tidy_module))
        pass_plugin = os.path.join(snap, os.path.basename(pass_plugin))
        tus, missing = corpus_tus(corpus, src, tmp, projects, wanted, tidy, tidy_module)
        for name in missing:
            log(args, f"run.py: {name} is not under {src}; left out")
        for tu in tus:
            tu.files = project_files(tu)
            unit = read_unit(tu.files)
            tu.mutants = mutate.mutants_of(unit, kinds)
        with_sites = [t for t in tus if any(not m.equivalent for m in t.mutants)]
        log(args, f"{len(tus)} TU(s), {len(with_sites)} with mutation sites, "
                  f"{sum(len(t.mutants) for t in tus)} mutant(s) in all")
        order = pick_tus(with_sites, args.seed)
        doc = {"settings": {"corpus": os.path.relpath(args.corpus, ROOT), "projects": sorted(projects),
                            "file": args.file, "kinds": list(kinds), "seed": args.seed, "max_tus": args.max_tus,
                            "max_per_tu": args.max_per_tu, "max_per_kind": args.max_per_kind, "near": args.near,
                            "plugins": os.path.relpath(args.plugin_dir, ROOT) if not os.path.isabs(args.plugin_dir)
                            else args.plugin_dir, "plugin_sha256": digests_of},
               "sites": site_counts(tus), "tus": [], "mutants": []}
        if args.dry_run:
            for tu in order[:args.max_tus]:
                kinds_order, by_kind = candidate_order(tu, args.seed, kinds)
                print(f"[{tu.project}] {tu.rel}: " + ", ".join(f"{k} {len(by_kind[k])}" for k in kinds_order))
                for k in kinds_order:
                    for m in by_kind[k][:args.max_per_kind]:
                        eq = f"  [equivalent: {m.equivalent}]" if m.equivalent else ""
                        print(f"  {tu.paths.rel(m.file, tu.cwd)}:{m.line}: {m.op}: {m.original}\n      -> {m.mutated}{eq}")
            return 0
        analyser = Analyser(args, tidy_module, pass_plugin, clangxx, tmp)
        measured = 0
        for tu in order:
            if measured >= args.max_tus or (args.budget and time.perf_counter() - start > args.budget):
                break
            entry = measure_tu(tu, analyser, args, kinds, doc, start)
            doc["tus"].append(entry)
            if entry["status"] == "measured":
                measured += 1
        doc["wall_seconds"] = round(time.perf_counter() - start, 1)
        doc["jobs"] = args.jobs
        doc["summary"] = summarise(doc)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)
            fh.write("\n")
    print_tables(doc, sys.stdout)
    return 0


def site_counts(tus):
    c = collections.Counter()
    for t in tus:
        for m in t.mutants:
            c[m.op] += 1
    return dict(sorted(c.items()))


def measure_tu(tu, analyser, args, kinds, doc, start):
    entry = {"project": tu.project, "file": tu.rel, "files": len(tu.files),
             "sites": collections.Counter(m.op for m in tu.mutants)}
    log(args, f"[{tu.project}] {tu.rel}: baseline")
    t0 = time.perf_counter()
    base = analyser.sides(tu, None, True)
    entry["baseline_seconds"] = round(time.perf_counter() - t0, 1)
    problems = []
    for side in ("host", "device"):
        if not base[side][0]["parsed"]:
            problems.append(f"{side}: " + "; ".join(base[side][0]["errors"][:1] or [base[side][0].get("crash", "?")]))
    if not base["pass"][0]["ran"]:
        problems.append("IR pass: " + "; ".join(base["pass"][0]["errors"][:1] or [base["pass"][0].get("crash", "?")]))
    if problems:
        entry["status"] = "skipped"
        entry["reason"] = "the unmutated TU does not analyse cleanly: " + " | ".join(problems)[:600]
        log(args, f"  skipped: {entry['reason'][:200]}")
        return entry
    entry["status"] = "measured"
    base_findings = {"clang-tidy": merged_tidy(base), "ir-pass": base["pass"][1]}
    entry["baseline_findings"] = {fe: len(v) for fe, v in base_findings.items()}
    digests = None
    kinds_order, by_kind = candidate_order(tu, args.seed, kinds)
    taken = collections.Counter()
    tried = 0
    queues = {k: list(by_kind[k]) for k in kinds_order}
    while sum(taken.values()) < args.max_per_tu and tried < args.max_per_tu * args.max_tries:
        if args.budget and time.perf_counter() - start > args.budget:
            entry["stopped"] = "time budget"
            break
        progressed = False
        for k in kinds_order:
            if sum(taken.values()) >= args.max_per_tu or tried >= args.max_per_tu * args.max_tries:
                break
            if taken[k] >= args.max_per_kind or not queues[k]:
                continue
            m = queues[k].pop(0)
            progressed = True
            tried += 1
            rec = record_of(tu, m)
            doc["mutants"].append(rec)
            if m.equivalent:
                rec["status"], rec["reason"] = "equivalent", m.equivalent
                continue
            why = judged_equivalent(rec, args.judged)
            if why:
                rec["status"], rec["reason"], rec["judged"] = "equivalent", "judged by reading the code: " + why, True
                continue
            if digests is None:
                digests = analyser.preprocess(tu, None)
            t0 = time.perf_counter()
            evaluate(tu, m, rec, analyser, args, base, base_findings, digests)
            rec["seconds"] = round(time.perf_counter() - t0, 1)
            log(args, f"  {rec['file']}:{rec['line']} {m.op}: {rec['status']}"
                      + (f" ({rec['reason'][:120]})" if rec.get("reason") else "")
                      + "".join(f"  {fe}: {v['verdict']}" for fe, v in rec.get("front_ends", {}).items()))
            if rec["status"] == "broken":
                taken[k] += 1
        if not progressed:
            break
    entry["measured_mutants"] = sum(taken.values())
    return entry


def load_judged(path):
    """The mutants judged equivalent by reading the code (judged.json): the text alone cannot decide
    them, the memory model can. Each names its project, TU ("*": any TU), file, line ("*": every
    mutant of that operator in the file, where the reason holds for all), operator and why."""
    if not path:
        return []
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    for j in doc["mutants"]:
        missing = {"project", "tu", "file", "line", "operator", "reason"} - set(j)
        if missing:
            sys.exit(f"run.py: {path}: an entry lacks {', '.join(sorted(missing))}: {j}")
    return doc["mutants"]


def judged_equivalent(rec, judged):
    """Why the mutant `rec` is equivalent, when judged.json says it is; else None."""
    for j in judged:
        if (j["project"], j["file"], j["operator"]) == (rec["project"], rec["file"], rec["operator"]) and \
                j["line"] in ("*", rec["line"]) and j["tu"] in ("*", rec["tu"]):
            return j["reason"]
    return None


def record_of(tu, m):
    rel = tu.paths.rel(m.file, tu.cwd)
    with open(m.file, encoding="utf-8", errors="surrogateescape") as fh:
        text = fh.read()
    end_line = m.line + text[m.start:m.end].count("\n")
    rec = {"project": tu.project, "tu": tu.rel, "file": rel, "line": m.line, "end_line": end_line, "kind": m.kind,
           "operator": m.op, "original": m.original, "mutated": m.mutated,
           "expected": list(mutate.expected_rules(m.op))}
    if m.function:
        rec["function_lines"] = list(m.function)
    detail = {k: v for k, v in m.detail.items() if k not in ("fence_tokens", "expansions", "calls")}
    if detail:
        rec["detail"] = detail
    for key in ("expansions", "calls"):
        if m.detail.get(key):
            rec[key] = [[tu.paths.rel(f, tu.cwd), line] for f, line in m.detail[key]]
    return rec


def evaluate(tu, m, rec, analyser, args, base, base_findings, digests):
    with open(m.file, encoding="utf-8", errors="surrogateescape") as fh:
        text = fh.read()
    folder = tempfile.mkdtemp(prefix="mutant-", dir=analyser.tmp)
    try:
        overlay = write_overlay(folder, m.file, m.apply(text), tu.rewritten)
        pp = analyser.preprocess(tu, overlay)
        same = {s: pp[s] is not None and pp[s] == digests[s] for s in ("host", "device")}
        side = m.detail.get("function_side")
        if same["host"] and same["device"]:
            rec["status"] = "not-compiled"
            rec["reason"] = ("the preprocessor drops it on both compilation sides (an #if arm not taken, or a "
                             "macro never used): clang -E gives the unmutated output")
            return
        if same["device"] and side == "device":
            rec["status"] = "not-compiled"
            rec["reason"] = (f"the preprocessor drops it from the device compilation for {tu.device.arch}, the "
                             f"architecture both front ends analyse (an #if __CUDA_ARCH__ arm not taken), and "
                             f"{m.detail.get('function_name')} is device code: the host side parses it but never "
                             f"runs it")
            archs = sorted(set(tu.translation.archs) - {tu.device.arch})
            if archs:
                rec["reason"] += f" (the build also compiles it for {', '.join(archs)})"
            return
        if same["host"] and side == "host":
            rec["status"] = "not-compiled"
            rec["reason"] = (f"the preprocessor drops it from the host compilation, and "
                             f"{m.detail.get('function_name')} is host code: the device side never runs it")
            return
        host_only = m.kind in mutate.HOST_KINDS
        if not host_only:
            # Code neither side generates (an inline function or a template the TU never uses) runs
            # nowhere: the same IR, the same program.
            if "emitted" not in digests:
                digests["emitted"] = analyser.preprocess(tu, None, emit=True)
            ir = analyser.preprocess(tu, overlay, emit=True)
            if all(ir[s] is not None and ir[s] == digests["emitted"][s] for s in ("host", "device")):
                rec["status"] = "not-compiled"
                rec["reason"] = (f"neither side generates it: both compile to the unmutated LLVM IR at -O0 "
                                 f"({m.detail.get('function_name') or 'the code'} is never used by this TU)")
                return
            # Code that every call of the TU leaves out once its constant arguments are known (a
            # switch case on an order that no caller passes) runs nowhere either: the optimizer
            # removes it, and the program is the unmutated one. An asm statement is volatile: it is
            # only removed where no path reaches it.
            if "optimized" not in digests:
                digests["optimized"] = analyser.preprocess(tu, None, emit="-O2")
            opt = analyser.preprocess(tu, overlay, emit="-O2")
            if all(opt[s] is not None and opt[s] == digests["optimized"][s] for s in ("host", "device")):
                rec["status"] = "not-compiled"
                rec["reason"] = (f"no call of this TU reaches it: both sides compile to the unmutated LLVM IR at "
                                 f"-O2, once calls are inlined and the branches their constant arguments decide "
                                 f"are folded ({m.detail.get('function_name') or 'the code'} is used, with other "
                                 f"values)")
                return
        res = analyser.sides(tu, overlay, not host_only)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    broken = []
    for side in ("host", "device"):
        r = res[side][0]
        if not r["parsed"]:
            broken.append(f"{side}: " + "; ".join(r["errors"][:2] or [r.get("crash", "?")]))
    if "pass" in res and not res["pass"][0]["ran"]:
        r = res["pass"][0]
        broken.append("IR pass: " + "; ".join(r["errors"][:2] or [r.get("crash", "?")]))
    if broken:
        rec["status"] = "does-not-parse"
        rec["reason"] = "the mutant does not compile: " + " | ".join(broken)[:600]
        return
    rec["status"] = "broken"
    rec["front_ends"] = {"clang-tidy": judge(rec, base_findings["clang-tidy"], with_places(merged_tidy(res), tu),
                                             args.near)}
    if host_only:
        rec["front_ends"]["ir-pass"] = {"verdict": "n/a", "why": "the IR pass has no host API rule"}
    else:
        rec["front_ends"]["ir-pass"] = judge(rec, base_findings["ir-pass"], with_places(res["pass"][1], tu),
                                             args.near)


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------

def summarise(doc):
    rows = collections.OrderedDict()
    for m in doc["mutants"]:
        for key in (m["kind"], m["operator"], "total"):
            r = rows.setdefault(key, collections.Counter())
            r[m["status"]] += 1
            if m["status"] != "broken":
                continue
            referenced = m.get("detail", {}).get("function_reached", True)
            r["ref:broken"] += referenced
            for fe in FRONT_ENDS:
                v = m["front_ends"][fe]
                if v["verdict"] == "n/a":
                    continue
                r[f"{fe}:broken"] += 1
                r[f"{fe}:reported"] += v["verdict"] == "reported"
                r[f"ref:{fe}:broken"] += referenced
                r[f"ref:{fe}:reported"] += referenced and v["verdict"] == "reported"
                r[f"{fe}:elsewhere"] += bool(v["elsewhere"])
                r[f"{fe}:other_near"] += bool(v["other_near"])
    return {k: dict(v) for k, v in rows.items()}


def pct(a, b):
    return f"{a}/{b} {100 * a / b:3.0f}%" if b else "-"


def print_tables(doc, out):
    summary = summarise(doc)
    measured = [t for t in doc["tus"] if t["status"] == "measured"]
    skipped = [t for t in doc["tus"] if t["status"] != "measured"]
    projects = sorted({t["project"] for t in measured})
    s = doc["settings"]
    print(f"recall by mutation: {len(measured)} TU(s) of {', '.join(projects) or '-'} "
          f"(seed {s['seed']}, at most {s['max_per_tu']} per TU and {s['max_per_kind']} per kind; a finding within "
          f"{s['near']} lines or in the mutated function counts)", file=out)
    if "wall_seconds" in doc:
        print(f"wall time {doc['wall_seconds']:.0f} s with -j {doc.get('jobs')}", file=out)
    head = f"{'kind / operator':<18} {'broken':>6}  {'clang-tidy':>13}  {'IR pass':>13}  {'elsewhere(b)':>13}  " \
           f"{'equiv.':>6} {'not-comp':>8} {'no-parse':>8}"
    print(head, file=out)
    print("-" * len(head), file=out)
    kinds = [k for k in mutate.KINDS if k in summary]
    for k in kinds + ["total"]:
        if k == "total":
            print("-" * len(head), file=out)
        subs = [] if k == "total" else sorted(o for o in summary if o.startswith(k + "."))
        for key in [k] + subs:
            r = summary.get(key, {})   # no mutant at all: an empty total
            label = key if key in kinds or key == "total" else "  " + key
            tidy = pct(r.get("clang-tidy:reported", 0), r.get("clang-tidy:broken", 0))
            ir = pct(r.get("ir-pass:reported", 0), r.get("ir-pass:broken", 0)) if r.get("ir-pass:broken") else \
                ("n/a" if r.get("broken") else "-")
            b = f"{r.get('clang-tidy:elsewhere', 0)} / {r.get('ir-pass:elsewhere', 0)}"
            print(f"{label:<18} {r.get('broken', 0):>6}  {tidy:>13}  {ir:>13}  {b:>13}  {r.get('equivalent', 0):>6} "
                  f"{r.get('not-compiled', 0):>8} {r.get('does-not-parse', 0):>8}", file=out)
    print("broken: mutants measured; clang-tidy / IR pass: reported / broken (IR pass n/a: host API kinds, no pass "
          "rule); elsewhere(b): mutants with a new finding away from the mutation (clang-tidy / IR pass)", file=out)
    print("\nthe same, only mutants in code that host code reaches by name (host functions, the kernels and device "
          "functions they name, and so on):", file=out)
    print(f"{'kind':<18} {'broken':>6}  {'clang-tidy':>13}  {'IR pass':>13}", file=out)
    for k in kinds + ["total"]:
        r = summary.get(k, {})   # no mutant at all: an empty total
        ir = pct(r.get("ref:ir-pass:reported", 0), r.get("ref:ir-pass:broken", 0)) if r.get("ref:ir-pass:broken") \
            else ("n/a" if r.get("ref:broken") and k in mutate.HOST_KINDS else "-")
        print(f"{k:<18} {r.get('ref:broken', 0):>6}  "
              f"{pct(r.get('ref:clang-tidy:reported', 0), r.get('ref:clang-tidy:broken', 0)):>13}  {ir:>13}", file=out)
    left = [m for m in doc["mutants"] if m["status"] in ("equivalent", "not-compiled", "does-not-parse")]
    if left:
        print("\nleft out:", file=out)
        for m in left:
            print(f"  {m['project']}/{m['file']}:{m['line']} {m['operator']} ({m['status']}): {m['reason'][:220]}",
                  file=out)
    other = [(m, fe) for m in doc["mutants"] if m["status"] == "broken" for fe in FRONT_ENDS
             if m["front_ends"][fe].get("elsewhere") or m["front_ends"][fe].get("other_near")]
    if other:
        print("\nnew findings elsewhere (b), or of another rule at the mutation:", file=out)
        for m, fe in other:
            v = m["front_ends"][fe]
            for what, label in (("elsewhere", ""), ("other_near", " (another rule, at the mutation)")):
                places = collections.Counter((f["file"], f["line"], f["check"]) for f in v.get(what, []))
                for (file, line, check), n in sorted(places.items()):
                    times = f" ({n} findings)" if n > 1 else ""
                    print(f"  {m['project']}/{m['file']}:{m['line']} {m['operator']} -> {fe}: {file}:{line} "
                          f"{check}{times}{label}", file=out)
    missed = [m for m in doc["mutants"] if m["status"] == "broken"
              and any(m["front_ends"][fe]["verdict"] == "missed" for fe in FRONT_ENDS)]
    if missed:
        print("\nmissed (front ends that did not report it):", file=out)
        for m in missed:
            fes = [fe for fe in FRONT_ENDS if m["front_ends"][fe]["verdict"] == "missed"]
            d = m.get("detail", {})
            where = f" in {d['function_name']}" + ("" if d.get("function_reached", True) else ", which no host code reaches") \
                if d.get("function_name") else ""
            print(f"  {m['project']}/{m['file']}:{m['line']} {m['operator']}{where} [{', '.join(fes)}]: "
                  f"{m['mutated'][:150]}", file=out)
    if skipped:
        print("\nTUs skipped:", file=out)
        for t in skipped:
            print(f"  {t['project']}/{t['file']}: {t.get('reason', '')[:220]}", file=out)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
