"""Inputs: a compile database (or files with flags after --) read into Translations, the plan of
what to analyse, and a clang database written for clangd."""
import json
import os
import re
import shlex

from .common import LAUNCHERS, Fatal
from .locate import compat_flags
from .nvcc import Translation, Translator

def compiler_kind(argv0):
    base = os.path.basename(argv0).lower()
    if base.endswith(".exe"):
        base = base[:-4]
    if base == "nvcc" or base.startswith("nvcc-"):
        return "nvcc"
    if re.fullmatch(r"(.*-)?(clang|clang\+\+|gcc|g\+\+|cc|c\+\+|clang-cl)(-\d+(\.\d+)*)?", base):
        return "cc"
    return None


def strip_launchers(words):
    while words and os.path.basename(words[0]) in LAUNCHERS:
        words = words[1:]
    return words


def load_database(path):
    """Returns (entries, problems). A missing or unreadable database is Fatal."""
    db = path if (path.endswith(".json") and not os.path.isdir(path)) else os.path.join(path, "compile_commands.json")
    db = os.path.abspath(db)
    if not os.path.isfile(db):
        raise Fatal(f"no compile database at {db}; configure the build with "
                    f"-DCMAKE_EXPORT_COMPILE_COMMANDS=ON (or 'bear -- make'), or give the flags after "
                    f"'--' instead of -p")
    try:
        with open(db, encoding="utf-8") as fh:
            data = json.load(fh)
    except json.JSONDecodeError as e:
        raise Fatal(f"{db} is not valid JSON: line {e.lineno}, column {e.colno}: {e.msg}")
    except (OSError, UnicodeDecodeError) as e:
        raise Fatal(f"cannot read {db}: {getattr(e, 'strerror', None) or e}")
    if not isinstance(data, list):
        raise Fatal(f"{db} is not a compile database: it must be a JSON array of "
                    f"{{directory, file, command|arguments}} objects")
    entries, problems = [], []
    for n, e in enumerate(data, 1):
        where = f"{db}, entry {n}"
        if not isinstance(e, dict):
            problems.append(f"{where}: not an object; skipped")
            continue
        missing = [k for k in ("directory", "file") if not isinstance(e.get(k), str)]
        if missing or not (isinstance(e.get("arguments"), list) or isinstance(e.get("command"), str)):
            missing += [] if (isinstance(e.get("arguments"), list) or isinstance(e.get("command"), str)) \
                else ["command or arguments"]
            problems.append(f"{where}: no {', '.join(missing)}; skipped")
            continue
        directory = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(db)), e["directory"]))
        if isinstance(e.get("arguments"), list):
            words = [str(w) for w in e["arguments"]]
        else:
            try:
                words = shlex.split(e["command"])
            except ValueError as err:
                problems.append(f"{where}: its command does not split into words ({err}); skipped")
                continue
        file = os.path.normpath(os.path.join(directory, e["file"]))
        entries.append({"file": file, "directory": directory, "words": words, "origin": where})
    return entries, problems


def translate_entry(tr, file, directory, words, origin):
    words = strip_launchers(words)
    t = Translation(file, directory, origin)
    if not words:
        return tr.translate(t, [], "bare")
    kind = compiler_kind(words[0])
    if kind is None:
        # Bare flags (after --, or a command whose first word is no compiler we know): nvcc's
        # own are translated, the rest kept.
        return tr.translate(t, words, "bare")
    return tr.translate(t, words[1:], kind)


def nearest_entry(file, entries):
    """The entry whose file is closest in the tree, for a header or a file the database lacks.
    .cuh files prefer CUDA entries."""
    want_cuda = file.endswith(".cuh")

    def score(e):
        common = os.path.commonpath([file, e["file"]])
        cuda = e["file"].endswith(".cu") == want_cuda
        return (cuda, len(common))
    return max(entries, key=score) if entries else None


def plan(args, flags, warned):
    """The translated commands to analyse, and the problems found on the way."""
    tr = Translator(warned)
    problems, translations = [], []
    files = [os.path.abspath(f) for f in args.files]
    # A mistyped name stops the run before anything is analysed, rather than being reported
    # after the whole project.
    missing = [f for f in files if not os.path.isfile(f)]
    patterns = []
    if missing and args.build:
        # run-clang-tidy reads its positional arguments as regular expressions over the
        # database's files; a name that is not a file is read that way.
        entries, _ = load_database(args.build)
        for name, f in zip(args.files, files):
            if f not in missing:
                continue
            try:
                rx = re.compile(name)
            except re.error:
                continue
            if any(rx.search(e["file"]) for e in entries):
                patterns.append(rx)
                missing.remove(f)
        if missing:
            raise Fatal("; ".join(f"{f}: no such file, and no file of the compile database matches it as a "
                                  f"regular expression" for f in missing) + " (nothing was analysed)")
    if missing:
        raise Fatal("; ".join(f"{f}: no such file" for f in missing) + " (nothing was analysed)")
    files = [f for f in files if os.path.isfile(f)]
    extra_before = [a for a in args.extra_arg_before if not a.startswith("--driver-mode=")]
    if args.build:
        entries, bad = load_database(args.build)
        problems += bad
        if files or patterns:
            wanted = set(files)
            chosen = [e for e in entries if e["file"] in wanted or any(rx.search(e["file"]) for rx in patterns)]
            for f in files:
                if not any(e["file"] == f for e in chosen):
                    near = nearest_entry(f, entries)
                    if near is None:
                        problems.append(f"{f}: the compile database has no entries to borrow flags from")
                        continue
                    e = dict(near, file=f, origin=f"the flags of {near['file']} ({near['origin']})")
                    chosen.append(e)
        else:
            chosen = entries
            if not entries and not bad:
                problems.append(f"the compile database {args.build} is empty")
        seen = set()
        for e in chosen:
            if not os.path.isfile(e["file"]):
                problems.append(f"{e['file']}: listed in {e['origin']} but the file does not exist")
                continue
            t = translate_entry(tr, e["file"], e["directory"], e["words"], e["origin"])
            if e["file"].endswith(".cuh"):
                t.lang = "cuda"
            sig = (t.file, t.lang, tuple(t.flags), tuple(t.archs))
            if sig not in seen:
                seen.add(sig)
                translations.append(t)
    else:
        if not files and not problems:
            raise Fatal("nothing to analyse: pass -p BUILD_DIR (for its compile_commands.json) or files, "
                        "with their compiler flags after '--'")
        words = flags or []
        for f in files:
            t = translate_entry(tr, f, os.getcwd(), list(words), "the flags after --" if flags else "no flags")
            if f.endswith(".cuh"):
                t.lang = "cuda"
            translations.append(t)
    for t in translations:
        t.flags = extra_before + t.flags + list(args.extra_arg)
        if any(a == "-nocudainc" for a in t.flags):
            t.nocudainc = True
    return translations, problems


def export_compile_commands(path, jobs, module, clang, side):
    """A compile_commands.json that clangd reads: one clang entry per file, its side pinned, with
    what the module gives clang-tidy (the nvcc-compatibility header) written in."""
    entries = []
    for j in jobs:
        if j.side not in ("single", side) or j.side == "pass":
            continue
        if any(e["file"] == j.t.file for e in entries):
            continue  # one architecture per file: the first, the newest
        flags = j.argv[j.argv.index("--") + 1:]
        extra = compat_flags(module) if "-x" in flags and "cuda" in flags else []
        entries.append({"directory": j.t.directory, "file": j.t.file,
                        "arguments": [clang] + extra + flags + ["-c", j.t.file]})
    # A database usually goes to a folder of its own (clang-db/), which is made when missing.
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w", encoding="utf-8") as out:
            json.dump(entries, out, indent=1)
            out.write("\n")
    except OSError as e:
        raise Fatal(f"--export-compile-commands={path}: {e.strerror}")
    return len(entries)
