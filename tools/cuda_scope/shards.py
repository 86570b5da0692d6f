"""Shards: --shard K/N analyses a stable part of the database and keeps, in its JSON report, every
run's result (its output, and what it wrote: the host side's facts, the IR pass's remarks and the
kernels it analysed); --merge replays the shards' runs as one run over the whole database would
have made them, so the report is that run's, whole-program findings included.

One thing a shard cannot know is the launches of its kernels that sit in other shards' files: its
IR pass was given the launch facts of its own files. The pass lists the kernels it analysed, and
the merge replays a pass run only where the whole program's launch facts say of those kernels what
the shard's said; otherwise it runs that pass again, with the whole program's facts."""
import hashlib
import json
import os

from .common import VERSION, Fatal

FORMAT = "cuda-scope-shard"


def parse_shard(text):
    """(K, N) of 'K/N', 1 <= K <= N."""
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise Fatal(f"--shard={text}: give it as K/N, this run's shard K of N (1/4 ... 4/4)")
    if not 1 <= k <= n:
        raise Fatal(f"--shard={text}: K must be 1 to N")
    return k, n


def select(translations, k, n):
    """Shard k of n: every n-th translation, in the order of their files and flags, so that the
    shards are the same part for the same database and differ by at most one file in size."""
    order = sorted(translations, key=lambda t: (t.file, t.directory, "\0".join(t.flags)))
    return [t for i, t in enumerate(order) if i % n == k - 1]


def identity(job):
    """What names a run in every shard and in the merge: its file, folder, flags, side and
    architecture (not its command line, which names temporary files)."""
    h = hashlib.sha256()
    for part in (job.t.file, os.path.abspath(job.t.directory), job.side, job.arch or "", *job.t.flags):
        h.update(part.encode() + b"\0")
    return h.hexdigest()


def _read(path):
    if path and os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    return None


def record(results, k, n, device_sides):
    """The shard section of a shard's JSON report: every finished run's result (for the IR pass, with
    the launch facts it was given), and where --sides=auto ran the device side."""
    runs = []
    for job, rc, out, err in results:
        kernels = _read(job.kernels)
        runs.append({"id": identity(job), "file": job.t.file, "side": job.side, "arch": job.arch,
                     "rc": rc, "out": out, "err": err, "facts": _read(job.facts), "record": _read(job.record),
                     "kernels": kernels.split() if kernels is not None else None,
                     "launches": _read((job.env or {}).get("CUDA_SCOPE_LAUNCHES"))})
    return {"format": FORMAT, "version": VERSION, "index": k, "count": n, "runs": runs,
            "device_sides": device_sides}


def relevant(launches, kernels):
    """The lines of a launches file (facts.launches_file) that speak of these kernels."""
    out = set()
    for line in (launches or "").splitlines():
        fields = line.split("\t")
        symbol = fields[1] if len(fields) > 1 and fields[0] in ("not-cooperative", "grid-grows") else fields[0]
        if symbol in kernels:
            out.add(line)
    return out


class Recorded:
    """The runs of the shard reports given to --merge, replayed through the runner as the cache
    replays its entries (runner.run_job)."""

    def __init__(self, paths):
        self.runs, self.shards = {}, {}
        self.device_sides = {}   # file -> where --sides=auto ran its device side, and why
        self.rerun = self.hits = self.runs_seen = 0
        count = None
        for path in paths:
            try:
                with open(path, encoding="utf-8") as f:
                    doc = json.load(f)
            except OSError as e:
                raise Fatal(f"--merge {path}: {e.strerror} (nothing was merged)")
            except ValueError:
                raise Fatal(f"--merge {path}: not a JSON report (nothing was merged)")
            shard = doc.get("shard") if isinstance(doc, dict) else None
            if not isinstance(shard, dict) or shard.get("format") != FORMAT:
                raise Fatal(f"--merge {path}: not the JSON report of a cuda-scope --shard run (nothing was merged)")
            if shard.get("version") != VERSION:
                raise Fatal(f"--merge {path}: written by cuda-scope {shard.get('version')}, this is {VERSION}")
            k, n = shard["index"], shard["count"]
            if count is not None and n != count:
                raise Fatal(f"--merge {path}: shard {k} of {n}, the others are of {count}")
            count = n
            if k in self.shards:
                raise Fatal(f"--merge {path}: shard {k} of {n} is given twice ({self.shards[k]})")
            self.shards[k] = path
            for side in shard.get("device_sides") or ():
                self.device_sides[side["file"]] = side
            for run in shard["runs"]:
                self.runs[run["id"]] = run
        missing = sorted(set(range(1, (count or 0) + 1)) - set(self.shards))
        if missing:
            raise Fatal(f"--merge: shard{'s' * (len(missing) > 1)} {', '.join(map(str, missing))} of {count} "
                        f"{'are' if len(missing) > 1 else 'is'} missing (nothing was merged)")

    def has(self, job):
        return identity(job) in self.runs

    # The runner's cache interface.
    def cacheable(self, job):
        return True

    def dependency_flags(self, job):
        return []

    def store(self, job, rc, out, err):
        pass

    def replay(self, job):
        """The shard's result of the run, with what it wrote put where this run expects it; None for
        an IR pass run whose kernels' launch facts differ in the whole program: it runs again."""
        self.runs_seen += 1
        run = self.runs.get(identity(job))
        if run is None:
            return None
        if job.side == "pass" and run.get("kernels") is not None:
            whole = _read((job.env or {}).get("CUDA_SCOPE_LAUNCHES"))
            kernels = set(run["kernels"])
            if relevant(whole, kernels) != relevant(run.get("launches"), kernels):
                self.rerun += 1
                return None
        for field, target in (("facts", job.facts), ("record", job.record), ("kernels", job.kernels)):
            value = run.get(field)
            if target and value is not None:
                with open(target, "w", encoding="utf-8") as f:
                    f.write("\n".join(value) + "\n" if isinstance(value, list) else value)
        self.hits += 1
        return run["rc"], run["out"], run["err"]
