"""A cache of analyser runs: one entry per run (a file's host side, device side or IR pass), so that
a second run over an unchanged project replays what the first found instead of parsing again.

An entry is found by a key and then checked against the files the run read:
- the key is what decides the run besides those files: its command line (the temporary paths it
  writes to left out), the folder it runs in, the analysers themselves (the clang-tidy module and the
  IR pass by their bytes, clang-tidy and clang++ by path, size and time), the project's .clang-tidy
  files, and for the IR pass the whole program's launch facts it is given;
- the files are every file the preprocessor opens for that run (clang++ -M with the run's own flags,
  taken once when the entry is stored), each by the SHA-256 of its bytes. A header edited since then
  makes the entry stale, and the run is made again and stored anew.
What is kept is what the run gave: its exit status, its output, and what it wrote besides (the
host side's facts for the whole program, the IR pass's remarks and the kernels it analysed). Runs
that time out or are killed, runs that read a rewritten copy of their file (through an overlay in a
temporary folder, made anew each run) and runs that apply fixes are never stored.

Two runs may share a cache: an entry is written to a temporary file and renamed into place, so a
reader sees a whole entry or none, and an entry that cannot be read is a miss."""
import hashlib
import json
import os
import re
import subprocess
import tempfile
import threading

from .common import VERSION

FORMAT = 1          # the entries' layout; a new one leaves the old entries unread
TEMPORARY_ARGS = ("-foptimization-record-file=",)


def _sha(data):
    return hashlib.sha256(data).hexdigest()


class Cache:
    """The entries under `root`. `tools` are the analysers' files: hashed by their bytes when
    small (the module, the pass), by path, size and time otherwise (clang-tidy, clang++)."""

    def __init__(self, root, tools, clang, compat):
        self.root = os.path.abspath(root)
        self.clang = clang
        self.compat = compat                     # the flags that give clang++ -M the module's forced include
        self.hits = self.stored = self.runs = 0
        self.lock = threading.Lock()
        self.hashes = {}                         # path -> ((mtime_ns, size), sha): each file hashed once a run
        os.makedirs(self.root, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=self.root, prefix=".probe-", delete=True)
        probe.close()
        ident = [f"cuda-scope {VERSION} cache {FORMAT}"]
        for t in tools:
            if not t:
                continue
            st = os.stat(t)
            if st.st_size <= 64 << 20:
                ident.append(f"{os.path.basename(t)} {self.file_hash(t)}")
            else:
                ident.append(f"{os.path.realpath(t)} {st.st_size} {st.st_mtime_ns}")
        self.identity = "\n".join(ident)

    # -- what decides a run ---------------------------------------------------------------------

    def file_hash(self, path):
        """The SHA-256 of a file's bytes, or None when it cannot be read."""
        try:
            st = os.stat(path)
        except OSError:
            return None
        stamp = (st.st_mtime_ns, st.st_size)
        known = self.hashes.get(path)
        if known and known[0] == stamp:
            return known[1]
        try:
            with open(path, "rb") as f:
                sha = _sha(f.read())
        except OSError:
            return None
        self.hashes[path] = (stamp, sha)
        return sha

    def cacheable(self, job):
        return not job.overlay and not any(a == "--fix" or a.startswith(("--export-fixes", "--fix-placeholder"))
                                           for a in job.argv)

    def key(self, job):
        """The key of a run: everything that decides it but the files it reads."""
        h = hashlib.sha256()
        for part in (self.identity, job.side, job.arch or "", os.path.abspath(job.t.directory)):
            h.update(part.encode() + b"\0")
        for a in job.argv:
            if a.startswith(TEMPORARY_ARGS):
                a = a.split("=", 1)[0] + "=*"
            h.update(a.encode() + b"\0")
            if a.startswith(("--config-file=", "-config-file=")):
                h.update((self.file_hash(a.split("=", 1)[1]) or "missing").encode())
        # The .clang-tidy files clang-tidy reads for this file: its folder's and every one above.
        folder = os.path.dirname(os.path.abspath(os.path.join(job.t.directory, job.t.file)))
        while True:
            config = os.path.join(folder, ".clang-tidy")
            if os.path.isfile(config):
                h.update(f"{config} {self.file_hash(config)}".encode() + b"\0")
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        h.update(b"facts" if job.facts else b"-")
        h.update(b"kernels" if job.kernels else b"-")
        for name, value in sorted((job.env or {}).items()):
            # The environment names files (the launch facts): what they say decides the run.
            h.update(f"{name}={self.file_hash(value) if os.path.isfile(value) else value}".encode() + b"\0")
        return h.hexdigest()

    def path(self, key):
        return os.path.join(self.root, key[:2], key + ".json")

    # -- replay and store ------------------------------------------------------------------------

    def replay(self, job):
        """(rc, out, err) of the stored run, with what it wrote besides put where this run writes
        it; None when there is no entry or a file it read has changed."""
        with self.lock:
            self.runs += 1
        key = self.key(job)
        job.cache_key = key
        try:
            with open(self.path(key), encoding="utf-8") as f:
                entry = json.load(f)
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("format") != FORMAT:
            return None
        for path, sha in entry.get("inputs", {}).items():
            if self.file_hash(path) != sha:
                return None
        job.inputs = list(entry.get("inputs", {}))
        for field, target in (("facts", job.facts), ("record", job.record), ("kernels", job.kernels)):
            if target and entry.get(field) is not None:
                with open(target, "w", encoding="utf-8") as f:
                    f.write(entry[field])
        with self.lock:
            self.hits += 1
        return entry["rc"], entry["out"], entry["err"]

    def dependency_flags(self, job):
        """Flags that make a compile list the files it reads as it runs (the IR pass's clang++ -MD),
        so that storing it needs no second preprocessing; [] for clang-tidy, which drops them."""
        if job.side != "pass":
            return []
        fd, job.depfile = tempfile.mkstemp(prefix="cuda-scope-deps-", suffix=".d")
        os.close(fd)
        return ["-MD", "-MF", job.depfile]

    def store(self, job, rc, out, err):
        """Keeps a finished run, with the files it read; says nothing when that fails (the run's
        result stands, only the next run is not cheaper)."""
        depfile = getattr(job, "depfile", None)
        try:
            if not isinstance(rc, int) or rc < 0 or not getattr(job, "cache_key", None):
                return
            inputs = self.inputs(job, depfile if rc == 0 else None)
        finally:
            if depfile and os.path.exists(depfile):
                os.unlink(depfile)
        if inputs is None:
            return
        entry = {"format": FORMAT, "rc": rc, "out": out, "err": err, "inputs": inputs}
        for field, source in (("facts", job.facts), ("record", job.record), ("kernels", job.kernels)):
            if source and os.path.exists(source):
                with open(source, encoding="utf-8", errors="replace") as f:
                    entry[field] = f.read()
        target = self.path(job.cache_key)
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".entry-")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(entry, f)
            os.replace(tmp, target)
        except OSError:
            return
        with self.lock:
            self.stored += 1

    def inputs(self, job, listed=None):
        """{path: sha} of every file the run's preprocessor opens, or None when clang++ cannot say.
        `listed` is the list the run wrote itself, if it did (-MD)."""
        files = files_read(job, self.clang, self.compat, listed)
        if files is None:
            return None
        inputs = {}
        for path in files:
            sha = self.file_hash(path)
            if sha is None:
                return None
            inputs[path] = sha
        job.inputs = list(inputs)
        return inputs


def files_read(job, clang, compat, listed=None):
    """The files a run's preprocessor opens, as absolute paths: from the list the run wrote itself
    (`listed`, -MD), else from clang++ -M with the run's flags; None when neither can say."""
    try:
        if listed and os.path.getsize(listed) > 0:
            with open(listed, encoding="utf-8", errors="replace") as f:
                files = parse_depfile(f.read())
        else:
            if not clang:
                return None
            fd, deps = tempfile.mkstemp(prefix="cuda-scope-deps-", suffix=".d")
            os.close(fd)
            try:
                p = subprocess.run(dependency_command(job, clang, compat, deps), cwd=job.t.directory,
                                   capture_output=True)
                if p.returncode != 0:
                    return None
                with open(deps, encoding="utf-8", errors="replace") as f:
                    files = parse_depfile(f.read())
            finally:
                os.unlink(deps)
    except OSError:
        return None
    return [os.path.normpath(os.path.join(job.t.directory, name)) for name in files]


def dependency_command(job, clang, compat, deps):
    """clang++ -M with the flags of the run: the files its preprocessor opens."""
    if job.side == "pass":
        argv, skip = [], False
        for a in job.argv:
            if skip:
                skip = False
            elif a == "-o":
                skip = True
            elif a in ("-S", "-emit-llvm", "-fsave-optimization-record") or \
                    a.startswith(("-fpass-plugin=", "-foptimization-record", "-Rpass")):
                pass
            else:
                argv.append(a)
        return argv + ["-M", "-MF", deps]
    cut = job.argv.index("--")
    return [clang] + job.argv[cut + 1:] + compat + [job.argv[cut - 1], "-M", "-MF", deps]


def parse_depfile(text):
    """The prerequisites of a Make rule as clang writes it (-M): continued lines, escaped spaces."""
    text = text.replace("\\\n", " ")
    _, _, rest = text.partition(": ")
    names = re.findall(r"(?:\\.|[^\s\\])+", rest)
    return [re.sub(r"\\(.)", r"\1", n) for n in names]
