"""The command line: run-clang-tidy's spellings, the options, and the run from plan to report
(main); --launch makes it a compiler launcher for CMake."""
import argparse
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from . import locate
from .common import DEFAULT_ARCH, INTERNAL_ERROR, LLVM_MAJOR, MODULE_NAME, PASS_NAME, VERSION, Fatal, error, warn
from .cache import Cache
from .database import export_compile_commands, plan
from .diagnostics import Diag, place_of, skipped_notes
from . import facts
from .locate import find_clang, find_clang_apply_replacements, find_clang_tidy, find_docs, find_module, find_pass
from .merge import Merge
from .rewrite import Rewrites, map_fixes
from . import shards
from .sides import Sides
from .report import (Stream, absent_results, baseline_states, fixed_findings, load_baseline, print_text,
                     repository_root, to_json, to_sarif, write_fixes)
from .rules import DEFAULT_CHECKS, OFF_BY_DEFAULT, check_globs, glob_selects, list_checks, pass_rules
from .runner import Progress, build_jobs, run_all

# run-clang-tidy's options, which it spells with one dash: the same spelled with two here. Those that
# only clang-tidy reads are handed to it (--tidy-arg); a file option is made absolute, since
# clang-tidy runs in each entry's directory.
RUN_CLANG_TIDY_OWN = {"fix", "checks", "header-filter", "quiet", "extra-arg", "extra-arg-before", "export-fixes"}
RUN_CLANG_TIDY_TIDY = {"exclude-header-filter", "line-filter", "config", "config-file", "warnings-as-errors",
                       "use-color", "allow-no-checks", "enable-check-profile"}


def run_clang_tidy_spellings(argv):
    out = []
    for a in argv:
        m = re.fullmatch(r"-{1,2}([a-z][a-z-]+)(?:=(.*))?", a)
        if m and m.group(1) in RUN_CLANG_TIDY_TIDY:
            name, value = m.group(1), m.group(2)
            if name == "config-file" and value:
                value = os.path.abspath(value)
            out.append(f"--tidy-arg=--{name}" + (f"={value}" if value is not None else ""))
        elif m and a.startswith("-") and not a.startswith("--") and m.group(1) in RUN_CLANG_TIDY_OWN:
            out.append("-" + a)
        else:
            out.append(a)
    return out


def parse_args(argv):
    if "--" in argv:
        cut = argv.index("--")
        argv, flags = argv[:cut], argv[cut + 1:]
    else:
        flags = None
    argv = run_clang_tidy_spellings(argv)
    args, flags = _parse(argv, flags)
    if args.merge:
        # --merge takes the reports (.json) that follow it; what follows them is the files to analyse.
        n = next((i for i, a in enumerate(args.merge) if not a.endswith(".json")), len(args.merge))
        args.files = args.merge[n:] + args.files
        args.merge = args.merge[:n]
        if not args.merge:
            raise Fatal("--merge: give the shards' JSON reports (.json) after it")
    args.checks_given = args.checks is not None
    if args.checks is None:
        args.checks = DEFAULT_CHECKS
    return args, flags


def _parse(argv, flags):
    ap = argparse.ArgumentParser(
        prog="cuda-scope", allow_abbrev=False,
        description="Runs the cuda-scope-* clang-tidy checks over a project: reads a compile database "
                    "(nvcc commands included) or flags after --, analyses both sides of every .cu file in "
                    "parallel, merges the findings and prints them as text, SARIF or JSON.",
        epilog="Exit status: 0 no findings, 1 findings, 2 usage or analysis errors, 3 an internal error of "
               "cuda-scope. Guide: docs/tools.md.")
    ap.add_argument("files", nargs="*", metavar="FILE",
                    help="files to analyse (default with -p: every file in the database)")
    ap.add_argument("-p", dest="build", metavar="BUILD_DIR",
                    help="a directory holding compile_commands.json, or the file itself")
    ap.add_argument("-j", "--jobs", type=int, default=0, metavar="N",
                    help="clang-tidy runs at once (default: the number of cores)")
    ap.add_argument("--format", choices=("text", "sarif", "json"), default="text")
    ap.add_argument("-o", "--output", metavar="FILE", help="write the report here instead of stdout")
    ap.add_argument("--fix", action="store_true",
                    help="apply the checks' fix-its (from one side of each file only)")
    ap.add_argument("--export-fixes", metavar="FILE",
                    help="write the checks' fix-its to this YAML file, as run-clang-tidy does, without applying them")
    ap.add_argument("--launch", action="store_true",
                    help="be a compiler launcher (CMake's <LANG>_COMPILER_LAUNCHER): analyse the source of the "
                         "compile command after --, run the command while it does, print the findings and exit with its "
                         "status (or --findings-exit-code when it succeeds and there are findings)")
    ap.add_argument("--export-compile-commands", metavar="FILE",
                    help="write a compile database of clang commands (the nvcc ones translated, the toolkit and "
                         "the nvcc-compatibility header added) for clangd and other clang tools, then stop")
    ap.add_argument("--export-side", choices=("host", "device"), default="host",
                    help="which side of a CUDA file the exported database compiles (default: host; every "
                         "check reports on it but for code under #if __CUDA_ARCH__)")
    ap.add_argument("--list-checks", action="store_true",
                    help="print the rules the command runs, the clang-tidy checks and the IR pass's rules that "
                         "--checks selects, then stop")
    ap.add_argument("--explain", action="store_true",
                    help="print how each compile command is translated and the clang-tidy runs, then stop")
    ap.add_argument("--checks", metavar="GLOBS",
                    help="which checks, as clang-tidy globs (default: what the project's .clang-tidy, or "
                         "-config/-config-file, says of cuda-scope-* checks; when it says nothing, cuda-scope-* less the rules "
                         "that are off by default: " + ", ".join(OFF_BY_DEFAULT) + ")")
    ap.add_argument("--module", metavar="PATH", help=f"the clang-tidy module, {MODULE_NAME}")
    ap.add_argument("--clang-tidy", metavar="PATH", help=f"clang-tidy {LLVM_MAJOR} (default: clang-tidy-{LLVM_MAJOR})")
    ap.add_argument("--no-whole-program", dest="whole_program", action="store_false",
                    help="report only what each file shows alone (by default the host side of every file "
                         "writes facts, and callbacks and captures are followed across files)")
    ap.add_argument("--no-ir-pass", dest="ir_pass", action="store_false",
                    help="do not run the device-IR pass (by default it runs on the device side of every CUDA "
                         "file, for the rules only it has: cuda-scope-proxy-fence, cuda-scope-cluster-wait)")
    ap.add_argument("--clang", metavar="PATH",
                    help=f"clang++ {LLVM_MAJOR}, which runs the IR pass (default: $CLANG, clang++-{LLVM_MAJOR})")
    ap.add_argument("--pass-plugin", metavar="PATH", help=f"the IR pass, {PASS_NAME} (default: beside the module)")
    ap.add_argument("--cuda-path", metavar="DIR",
                    help="the CUDA toolkit (default: $CUDA_PATH, else /usr/local/cuda)")
    ap.add_argument("--default-arch", default=DEFAULT_ARCH, metavar="SM",
                    help=f"device side architecture when a command names none (default: {DEFAULT_ARCH}, as nvcc 13)")
    ap.add_argument("--all-archs", action="store_true",
                    help="analyse the device side once per architecture a command builds for "
                         "(default: only the newest one)")
    ap.add_argument("--host-only", action="store_true", help="analyse only the host side of .cu files")
    ap.add_argument("--sides", choices=("auto", "both"), default="auto",
                    help="auto (default): run clang-tidy on a .cu file's device side only where it can differ from "
                         "the host side (the host side did not parse, or a project file it reads tests __CUDA_ARCH__ "
                         "or NV_IF_TARGET); both: always. The IR pass always runs on the device side")
    ap.add_argument("--header-filter", metavar="REGEX",
                    help="passed to clang-tidy: which headers to report findings from")
    ap.add_argument("--extra-arg", action="append", default=[], metavar="FLAG",
                    help="a compiler flag appended to every command (repeatable)")
    ap.add_argument("--extra-arg-before", action="append", default=[], metavar="FLAG",
                    help="a compiler flag prepended to every command (repeatable)")
    ap.add_argument("--tidy-arg", action="append", default=[], metavar="ARG",
                    help="an argument passed to clang-tidy itself, e.g. --tidy-arg=--config-file=F")
    ap.add_argument("--findings-exit-code", type=int, default=1, metavar="N",
                    help="exit status when there are findings and no errors (default 1; 0 for build hooks)")
    ap.add_argument("--baseline", metavar="SARIF",
                    help="the SARIF report of an earlier run: findings it has are 'unchanged' and do not count for the "
                         "exit status, the others are 'new'; the SARIF report marks each (baselineState) and lists "
                         "the baseline's findings that are gone as 'absent'; the text report shows only new ones")
    ap.add_argument("--root", metavar="DIR",
                    help="SARIF paths are relative to this directory (default: the root of the repository the "
                         "command runs in, else the current directory)")
    ap.add_argument("--help-uri-base", metavar="URI",
                    help="SARIF helpUri prefix for docs/checks/<name>.md (default: the pages on the web page of the "
                         "cuda-scope checkout the command runs from, or the base an install was configured "
                         "with, else the docs beside the command as file:// URIs)")
    ap.add_argument("--cache", metavar="DIR", default=os.environ.get("CUDA_SCOPE_CACHE") or None,
                    help="keep every run's result in DIR and replay it while the files it read, its flags and the "
                         "analysers are unchanged (default: $CUDA_SCOPE_CACHE; none). Runs may share DIR")
    ap.add_argument("--no-cache", dest="cache", action="store_const", const=None,
                    help="neither read nor write a cache, whatever $CUDA_SCOPE_CACHE says")
    ap.add_argument("--shard", metavar="K/N",
                    help="analyse shard K of N of the files (a stable part, by name) and keep every run's result in "
                         "the JSON report, for --merge; a CI matrix runs the N shards at once")
    ap.add_argument("--merge", nargs="+", metavar="REPORT",
                    help="the JSON reports (.json) of --shard 1/N ... N/N: report what one run over the whole database "
                         "would have, whole-program findings included (give the same database and options as "
                         "the shards; only an IR pass whose kernels are launched from another shard's files "
                         "runs again)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary")
    ap.add_argument("--timeout", type=float, default=900, metavar="SECONDS",
                    help="stop one clang-tidy or IR-pass run after this long and report its file as failed "
                         "(default 900; 0: no limit)")
    ap.add_argument("--heartbeat", type=float, default=60, metavar="SECONDS",
                    help="when stderr is not a terminal, say how far the run is this often (default 60; 0: never)")
    ap.add_argument("--version", action="version", version=f"cuda-scope {VERSION} (LLVM {LLVM_MAJOR})")
    return ap.parse_args(argv), flags


def explain(translations, jobs, out):
    by_t = {}
    for j in jobs:
        by_t.setdefault(id(j.t), []).append(j)
    for t in translations:
        print(f"{t.file}", file=out)
        print(f"  from: {t.origin}{' (nvcc)' if t.nvcc else ''}; language: {t.lang}", file=out)
        for before, after in t.steps:
            print(f"  {before} -> {after}", file=out)
        for j in by_t.get(id(t), []):
            print(f"  {j.label}: {shlex.join(j.argv)}", file=out)


SOURCE_EXTS = (".cu", ".cpp", ".cc", ".cxx", ".c", ".C", ".c++")


def launch(argv):
    """Compiler-launcher mode: argv is the command line with --launch; what follows -- is the
    compile command (a launcher such as ccache may come first). The analysis's findings go to the
    build's output; the compile runs whatever they are."""
    cut = argv.index("--")
    options = [a for a in argv[:cut] if a != "--launch"]
    command = argv[cut + 1:]
    if not command:
        raise Fatal("--launch: no compile command after --")
    sources = [a for a in command[1:] if a.endswith(SOURCE_EXTS) and os.path.isfile(a)]
    status = 0
    # The compile runs while the file is analysed: the build waits for the longer of the two, not
    # their sum.
    try:
        compile_ = subprocess.Popen(command)
    except OSError as e:
        raise Fatal(f"--launch: cannot run {command[0]}: {e.strerror}")
    if sources:
        try:
            status = main(options + ["--quiet", sources[-1], "--"] + command)
        except Fatal as e:
            error(str(e))
            status = 2
    compiled = compile_.wait()
    if compiled != 0:
        return compiled
    # The findings' status (--findings-exit-code: 0 shows them and lets the build go on); a file
    # cuda-scope could not analyse is reported and does not fail a build that compiled.
    return status if status not in (2, INTERNAL_ERROR) else 0


def main(argv):
    if "--launch" in argv and "--" in argv:
        return launch(argv)
    if os.environ.get("CUDA_SCOPE_INTERNAL_ERROR_FOR_TESTING"):
        raise RuntimeError("an internal error, as asked by CUDA_SCOPE_INTERNAL_ERROR_FOR_TESTING")
    args, flags = parse_args(argv)
    if args.jobs < 0:
        raise Fatal("-j must be 0 (the number of cores) or more")
    if args.build and flags is not None:
        raise Fatal("give either -p BUILD_DIR or flags after '--', not both")
    if args.output and not args.list_checks:
        folder = os.path.dirname(os.path.abspath(args.output))
        if not os.path.isdir(folder):
            raise Fatal(f"-o {args.output}: the folder {folder} does not exist (nothing was analysed)")
        if not os.access(folder, os.W_OK) or (os.path.exists(args.output) and not os.access(args.output, os.W_OK)):
            raise Fatal(f"-o {args.output}: cannot write there (nothing was analysed)")
        # What access() cannot tell (root in /proc, a read-only mount): opening it can.
        existed = os.path.exists(args.output)
        try:
            open(args.output, "a").close()
        except OSError as e:
            raise Fatal(f"-o {args.output}: cannot write there: {e.strerror} (nothing was analysed)")
        if not existed:
            os.unlink(args.output)
    baseline = load_baseline(args.baseline) if args.baseline else None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    jobs_n = args.jobs or cores
    if args.list_checks:
        check_globs(find_clang_tidy(args.clang_tidy), find_module(args.module)[0], args.checks)
        checks = list_checks(find_clang_tidy(args.clang_tidy), find_module(args.module)[0], args.checks)
        for c in sorted(set(checks) | (set(pass_rules(args)) if args.ir_pass else set())):
            print(c)
        return 0
    shard = shards.parse_shard(args.shard) if args.shard else None
    if shard and args.merge:
        raise Fatal("give either --shard or --merge, not both")
    if (shard or args.merge) and (args.fix or args.export_fixes or args.export_compile_commands):
        raise Fatal(f"{'--shard' if shard else '--merge'} reports findings only: no --fix, --export-fixes or "
                    f"--export-compile-commands with it")
    if shard and args.format != "json":
        raise Fatal("--shard writes the JSON report that --merge reads: add --format=json -o FILE")
    recorded = shards.Recorded(args.merge) if args.merge else None
    warned = set()
    translations, problems = plan(args, flags, warned)
    if shard:
        translations = shards.select(translations, *shard)
    tidy = find_clang_tidy(args.clang_tidy)
    module, _ = find_module(args.module)
    check_globs(tidy, module, args.checks)
    ir = None
    if args.ir_pass and not args.host_only and not args.fix and not args.export_compile_commands and pass_rules(args):
        clang, plugin = find_clang(args.clang, tidy), find_pass(args.pass_plugin, module)
        if clang and plugin:
            records = os.path.join(tempfile.gettempdir(), "cuda-scope-remarks-XXXX") if args.explain \
                else tempfile.mkdtemp(prefix="cuda-scope-remarks-")
            ir = (clang, plugin, records)
        elif args.clang or args.pass_plugin:
            raise Fatal(f"the IR pass cannot run: {'no clang++ ' + str(LLVM_MAJOR) if not clang else 'no ' + PASS_NAME + ' beside the module'}")
        else:
            warn(f"the device-IR pass's rules ({', '.join(pass_rules(args))}) are not run: "
                 + (f"clang++-{LLVM_MAJOR} was not found (pass --clang=PATH)" if not clang
                    else f"{PASS_NAME} is not beside the module (pass --pass-plugin=PATH)")
                 + "; --no-ir-pass says this is intended")
    # nvcc syntax that clang's parser rejects and a same-lines copy of the file fixes (rewrite.py).
    rewrites = Rewrites(os.path.join(tempfile.gettempdir(), "cuda-scope-rewrite-XXXX"), write=False) \
        if args.explain or args.export_compile_commands else Rewrites(None)
    rewrites.clang = ir[0] if ir else find_clang(args.clang, tidy)
    rewrites.probe_timeout = args.timeout or None
    jobs, toolkit_missing = build_jobs(args, translations, tidy, module, args.cuda_path, ir, rewrites)
    if toolkit_missing:
        file, path, source = toolkit_missing[0]
        raise Fatal(f"no CUDA toolkit found for {file}: looked in {path} ({source}) for include/cuda_runtime.h; "
                    f"pass --cuda-path=DIR or set CUDA_PATH to the toolkit's directory")
    apply = find_clang_apply_replacements(tidy) if args.fix else None
    # Each run exports its fixes and clang-apply-replacements applies them once at the end, so a
    # header that several files include is not edited twice, nor by two runs at once.
    fixes_dir = None
    if (args.fix and apply) or args.export_fixes:
        fixes_dir = os.path.join(tempfile.gettempdir(), "cuda-scope-fixes-XXXX") if args.explain \
            else tempfile.mkdtemp(prefix="cuda-scope-fixes-")
    for n, j in enumerate(jobs):
        if "--fix-placeholder" in j.argv:
            k = j.argv.index("--fix-placeholder")
            if j.overlay and not fixes_dir:
                # clang-tidy would apply the copy's offsets to the file itself.
                j.argv[k:k + 1] = []
                warn(f"{j.t.file}: its fix-its are not applied: clang-tidy reads a rewritten copy of it (a braced "
                     f"list in a launch) and only clang-apply-replacements, which was not found, applies them mapped")
                continue
            j.argv[k:k + 1] = [f"--export-fixes={os.path.join(fixes_dir, f'{n}.yaml')}"] if fixes_dir else ["--fix"]
    # Each host-side run writes its file's facts; the whole program is their merge.
    facts_dir = None
    if args.whole_program and not args.explain and not args.export_compile_commands:
        facts_dir = tempfile.mkdtemp(prefix="cuda-scope-facts-")
        for n, j in enumerate(jobs):
            if j.side in ("host", "single"):
                j.facts = os.path.join(facts_dir, f"{n}.json")
            elif j.side == "pass" and (shard or recorded):
                j.kernels = os.path.join(facts_dir, f"{n}.kernels")
    if args.fix and not apply:
        jobs_n = 1  # each clang-tidy then edits the files itself: one at a time, never the same header twice at once
    if args.export_compile_commands:
        clang = find_clang(args.clang, tidy) or f"clang++-{LLVM_MAJOR}"
        n = export_compile_commands(args.export_compile_commands, jobs, module, clang, args.export_side)
        for p in problems:
            error(p)
        if not args.quiet:
            print(f"cuda-scope: wrote {n} entries ({args.export_side} side) to {args.export_compile_commands}",
                  file=sys.stderr)
        return 2 if problems else 0
    if args.explain:
        out = open(args.output, "w") if args.output else sys.stdout
        explain(translations, jobs, out)
        for p in problems:
            error(p)
        return 2 if problems else 0

    cache = None
    unrecorded = []
    if recorded:
        # The merge makes no run a shard made: it replays them (an IR pass whose kernels' launches the
        # shard did not see is the exception); a run no shard made is reported as not run.
        cache = recorded
        # A device side that no shard ran is one the shard found could not differ (--sides=auto).
        unrecorded = [j for j in jobs if not recorded.has(j) and j.side != "device"]
        jobs = [j for j in jobs if recorded.has(j)]
    elif args.cache and not args.fix and not args.export_fixes:
        clang = ir[0] if ir else find_clang(args.clang, tidy)
        if not clang:
            warn(f"--cache={args.cache}: nothing is cached: clang++-{LLVM_MAJOR}, which lists the files a run reads, "
                 f"was not found (pass --clang=PATH)")
        try:
            cache = Cache(args.cache, [module, ir[1] if ir else None, tidy, clang], clang, locate.compat_flags(module))
        except OSError as e:
            raise Fatal(f"--cache={args.cache}: cannot keep a cache there: {e.strerror} (nothing was analysed)")
    progress = Progress(len(jobs), sys.stderr.isatty() and not args.quiet,
                        heartbeat=0 if args.quiet else args.heartbeat)
    stream = Stream(jobs, sys.stdout, args.format == "text" and not args.output and sys.stdout.isatty()
                    and not args.fix, rewrites)

    def finished(job, out, err):
        stream.finished(job, out, err)
        progress.step(f"{os.path.basename(job.t.file)} ({job.label})")
    # The IR pass runs after the host side when the whole program is on: the device IR does not show
    # the launches, the host side's facts do (the kernels every launch of which runs one block, and
    # the launches that are not cooperative).
    program = None
    later = [j for j in jobs if j.side == "pass"] if facts_dir else []
    # A device side runs after its host side, where the host side shows that the two can differ.
    conditional = [j for j in jobs if j.side == "device"] if args.sides == "auto" and not recorded else []
    results, interrupted = run_all([j for j in jobs if j not in later and j not in conditional], jobs_n,
                                   args.timeout, finished, cache)
    device_sides = []   # where --sides=auto ran the device side, and why
    if conditional and not interrupted:
        decide = Sides(find_clang(args.clang, tidy), locate.compat_flags(module),
                       {a.split("=", 1)[1] for j in jobs for a in j.argv if a.startswith("--cuda-path=")})
        host = {id(j.t): (j, rc, out) for j, rc, out, _ in results if j.side == "host"}
        verdicts, dropped = {}, []
        for j in conditional:
            h = host.get(id(j.t))
            if h is None:
                continue
            if id(j.t) not in verdicts:
                verdicts[id(j.t)] = decide.device_needed(*h)
                device_sides.append({"file": j.t.file, "run": verdicts[id(j.t)][0], "why": verdicts[id(j.t)][1]})
            if verdicts[id(j.t)][0]:
                later.append(j)
            else:
                dropped.append(j)
        for j in dropped:
            stream.dropped(j)
            progress.total -= 1
        jobs = [j for j in jobs if j not in dropped]
    if facts_dir:
        program, facts_problems = facts.load((j.facts, j.t.file) for j, _, _, _ in results
                                             if j.facts and os.path.exists(j.facts))
        problems += facts_problems
    if later and not interrupted:
        if facts_dir:
            # Each file's pass gets the launch facts of its own program (facts.launches_of): one
            # file per distinct text.
            written = {}
            for j in later:
                if j.side != "pass":
                    continue
                text = facts.launches_file(facts.launches_of(program, os.path.normpath(
                    os.path.join(j.t.directory, j.t.file))))
                if text not in written:
                    written[text] = os.path.join(facts_dir, f"launches-{len(written)}.txt")
                    with open(written[text], "w") as out:
                        out.write(text)
                j.env = {"CUDA_SCOPE_LAUNCHES": written[text]}
        more, interrupted = run_all(later, jobs_n, args.timeout, finished, cache)
        order = {id(j): n for n, j in enumerate(jobs)}
        results = sorted(results + more, key=lambda r: order[id(r[0])])
    progress.finish()
    if interrupted:
        error(f"interrupted: {len(results)} of {len(jobs)} runs finished; the report has what they found")
    # The runs that never ran (Ctrl-C): their files were not analysed, and the reports say so.
    ran = {id(r[0]) for r in results}
    not_run = [(j.t.file, j.label, "not run: the command was interrupted") for j in jobs if id(j) not in ran]
    not_run += [(j.t.file, j.label, "not run: no shard's report has this run (were the shards made from the same "
                 "database and options?)") for j in unrecorded]
    shard_doc = shards.record(results, shard[0], shard[1], device_sides) if shard else None
    if recorded:
        device_sides = [recorded.device_sides[t.file] for t in translations if t.file in recorded.device_sides]
    merged = Merge(timeout=args.timeout, rewrites=rewrites)
    for job, rc, out, err in results:
        merged.add(job, rc, out, err)
    if facts_dir:
        # A shard's facts are part of the program's: the merge finds what crosses files.
        if not shard:
            merged.add_whole_program(d for d in facts.findings(program) if glob_selects(args.checks, d.check))
        shutil.rmtree(facts_dir, ignore_errors=True)
    findings, errors, failed, skipped = merged.findings, merged.errors, merged.failed, merged.skipped
    # -warnings-as-errors makes clang-tidy's findings errors; the pass's and the whole program's, which
    # clang-tidy never sees, are made so here, so that every finding it covers says error.
    as_errors = [a.split("=", 1)[1] for a in args.tidy_arg if re.match(r"--?warnings-as-errors=", a)]
    for d in findings.values():
        if d.level == "warning" and any(glob_selects(g, d.check) for g in as_errors):
            d.level = "error"

    if ir:
        shutil.rmtree(ir[2], ignore_errors=True)
    fix_problem = None
    if fixes_dir and rewrites:
        # The fix-its of the runs that read a copy are in the copy's bytes: mapped to the file's.
        for name in os.listdir(fixes_dir):
            path = os.path.join(fixes_dir, name)
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(map_fixes(text, rewrites))
    rewrites.remove()
    if fixes_dir and args.export_fixes:
        try:
            write_fixes(args.export_fixes, fixes_dir)
        except OSError as e:
            fix_problem = f"--export-fixes={args.export_fixes}: {e.strerror}"
    fixed = set()  # (check, file, line) of the findings whose fix-its were applied
    if fixes_dir:
        yamls = [f for f in os.listdir(fixes_dir) if f.endswith(".yaml")]
        if yamls and args.fix and apply:
            # What the fixes fix, read before they move the lines.
            fixed = fixed_findings(os.path.join(fixes_dir, f) for f in yamls)
            p = subprocess.run([apply, fixes_dir], capture_output=True, text=True)
            if p.returncode != 0:
                fix_problem = f"clang-apply-replacements could not apply the fixes: {p.stderr.strip()}"
                fixed = set()
        shutil.rmtree(fixes_dir, ignore_errors=True)

    sort = lambda d: (d.file or "", d.line, d.col, d.check or "", d.message)
    found = sorted(findings.values(), key=sort)
    # Against a baseline: which findings are new (only they count), which are the baseline's.
    root = os.path.abspath(args.root or repository_root())
    states = baseline_states(found, baseline, root) if baseline is not None else None
    absent = absent_results(found, baseline, root) if baseline is not None else []
    new = [d for d in found if states is None or states[id(d)] == "new"]
    errs = sorted(errors.values(), key=sort)
    notes = [Diag("note", f, line, col, text, None) for f, line, col, text in skipped_notes(skipped.values())]
    # The report is made whole first, then written: a write that fails (a full disk) loses nothing.
    out = io.StringIO() if args.output else sys.stdout
    if args.format == "text":
        # What streamed is not printed again: the errors and notes, and anything the merge placed
        # differently, are.
        streamed = stream.shown if stream.enabled else set()
        print_text(sorted([d for d in new if place_of(d) not in streamed] + errs + notes, key=sort), out)
    else:
        print_text(sorted(errs + notes, key=sort), sys.stderr)
        checks = list_checks(tidy, module, args.checks)
        checks += [r for r in (pass_rules(args) if ir else []) if r not in checks]
        # Analysed: every run of the file ran and none failed. What failed, did not run, or could not
        # be planned makes the run unsuccessful, whatever the findings (issue 26: a report that claims
        # success after a failure shows code scanning a clean project).
        incomplete = failed + not_run
        missed = {f for f, _, _ in incomplete}
        files = sorted({t.file for t in translations} - missed)
        troubles = problems + [f"{f} ({s} side) {reason}" for f, s, reason in incomplete]
        if interrupted:
            troubles.append(f"interrupted: {len(results)} of {len(jobs)} runs finished")
        if args.format == "sarif":
            doc = to_sarif(found, errs, checks, find_docs(), args.help_uri_base, root, len(files), notes, troubles,
                           states, absent)
        else:
            doc = to_json(found, errs, files, incomplete, notes, skipped.values(), problems, interrupted, states,
                          absent)
            if args.sides == "auto":
                doc["device_sides"] = device_sides
            if shard_doc:
                doc["shard"] = shard_doc
        json.dump(doc, out, indent=2)
        out.write("\n")
    write_problem = None
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(out.getvalue())
        except OSError as e:
            write_problem = f"-o {args.output}: the report could not be written: {e.strerror}; the findings follow on stdout"
            print_text(sorted(found + errs, key=sort), sys.stdout)
    for p in problems:
        error(p)
    for f, s, reason in failed:
        # A timeout is an error of the report already, in the same words: said once.
        if not reason.startswith("timed out"):
            error(f"{f} ({s} side) {reason}; the other files were analysed")
    for file in dict.fromkeys(j.t.file for j in unrecorded):
        sides = ", ".join(j.label for j in unrecorded if j.t.file == file)
        error(f"{file}: no shard's report given to --merge has its runs ({sides}); were the shards made from the "
              f"same database and options?")
    if fix_problem:
        error(fix_problem)
    if write_problem:
        error(write_problem)
    if sys.stderr.isatty() and not args.quiet:
        nfiles = len({d.file for d in found})
        print(f"cuda-scope: {len(found)} finding{'s' * (len(found) != 1)} in {nfiles} file{'s' * (nfiles != 1)}; "
              f"{len({t.file for t in translations})} analysed in {len(jobs)} runs", file=sys.stderr)
    # --fix: the findings whose fix-its were applied are fixed; the status is the rest's. With a
    # baseline, only new findings count.
    left = [d for d in new if (d.check, d.file, d.line) not in fixed]
    if recorded and not args.quiet:
        print(f"cuda-scope: merged {len(recorded.shards)} shards: {recorded.hits} runs replayed, {recorded.rerun} IR "
              f"pass runs made again with the whole program's launches", file=sys.stderr)
    elif cache is not None and not args.quiet:
        print(f"cuda-scope: cache: {cache.hits} of {cache.runs} runs replayed, {cache.stored} stored ({cache.root})",
              file=sys.stderr)
    if baseline is not None and not args.quiet:
        print(f"cuda-scope: against the baseline: {len(new)} new, {len(found) - len(new)} unchanged, "
              f"{len(absent)} absent", file=sys.stderr)
    if args.fix and fixes_dir and not args.quiet:
        n = sum(1 for d in found if (d.check, d.file, d.line) in fixed)
        print(f"cuda-scope: applied the fix-its of {n} finding{'s' * (n != 1)}; {len(left)} left", file=sys.stderr)
    if interrupted:
        return 130
    if problems or failed or fix_problem or write_problem or unrecorded:
        return 2
    if shard:
        return 0  # the merge's status is the run's
    return args.findings_exit_code if left else 0



def entry(argv, command_dir=None):
    """The command: main() with its exit statuses. command_dir is where the cuda-scope script is (its
    module, pass and docs are looked for relative to it)."""
    if command_dir:
        locate.COMMAND_DIR = command_dir
    try:
        return main(argv)
    except Fatal as e:
        error(str(e))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    except Exception:  # a bug of cuda-scope's own: a distinct status, so CI does not read it as findings
        import traceback
        traceback.print_exc()
        error("internal error (the traceback above); please report it with the command line")
        return INTERNAL_ERROR
