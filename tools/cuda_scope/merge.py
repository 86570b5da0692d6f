"""Merging what every run found into one report: a bug that several sides (host, device, each
architecture, the IR pass) report is one finding that names them all; errors are reported once per
file and side; the nvcc dialect clang rejects becomes one note per file."""
import os
import re
import signal
from dataclasses import dataclass, field

from .diagnostics import Diag, Skipped, absolute, parse_output, pass_diagnostics, place_of, split_dialect
from .facts import snippet
from .rewrite import map_diags
from .rules import PASS_RULES, glob_selects
from .runner import TIMED_OUT
from .suppress import Suppressions


LLVM_ERROR_SPELLINGS = ("error in backend: ", "LLVM ERROR: ")
LLVM_ERROR = re.compile(r"^(?:fatal error: error in backend|LLVM ERROR): (?P<why>.*)$", re.M)
FRONTEND_FAILED = re.compile(r"clang frontend command failed "
                             r"(?:with exit code (?P<code>\d+)|due to signal (?P<signal>\d+))")
STACK_CONTEXT = re.compile(r"^\d+\.\s+(?!Program arguments)(?P<what>\S.*)$", re.M)


def signal_name(n):
    try:
        return f"signal {n}, {signal.Signals(n).name}"
    except ValueError:
        return f"signal {n}"


def pass_stopped(rc, err):
    """(what happened, why) when clang++ stopped inside LLVM rather than at an error of the source:
    killed by a signal (its own, or its compiler process's, which the driver reports as exit code
    128+N), or an LLVM ERROR (exit code 70); None otherwise. `why` is LLVM's message, else the last
    step the crash report names (running which pass on which function), else the last line."""
    if rc == 0 or rc is None:
        return None
    m = LLVM_ERROR.search(err)
    frontend = FRONTEND_FAILED.search(err)
    sig = -rc if isinstance(rc, int) and rc < 0 else None
    if frontend and frontend.group("signal"):
        sig = int(frontend.group("signal"))
    elif frontend and int(frontend.group("code")) > 128:
        sig = int(frontend.group("code")) - 128
    if m and sig in (None, 6):
        return "stopped with an LLVM error", m.group("why").strip()
    if sig is None:
        return None
    steps = STACK_CONTEXT.findall(err)
    if m:
        why = m.group("why").strip()
    elif steps:
        why = steps[-1].strip()
    else:
        lines = [line.strip() for line in err.splitlines() if line.strip() and not line.lstrip().startswith("#")
                 and "PLEASE submit" not in line and line.strip() != "Stack dump:" and not FRONTEND_FAILED.search(line)]
        why = lines[-1] if lines else "it printed nothing"
    return f"crashed ({signal_name(sig)})", why


@dataclass
class Merge:
    """The report so far. add() takes each run's result in the order of the jobs."""
    timeout: float = 0
    findings: dict = field(default_factory=dict)   # Diag.key() -> the finding
    errors: dict = field(default_factory=dict)     # key -> the error
    failed: list = field(default_factory=list)     # (file, side, why) of the runs that did not analyse
    skipped: dict = field(default_factory=dict)    # (file, line, col, dialect) -> Skipped
    by_place: dict = field(default_factory=dict)   # place_of(finding) -> the finding there
    device_failed: set = field(default_factory=set)  # (file, arch) whose device side did not parse
    cache: dict = field(default_factory=dict)      # file -> its lines, for the dialect's source tests
    rewrites: object = None                        # rewrite.Rewrites: the copies some runs read
    # clang-tidy honours NOLINT in its own findings; the pass's and the whole program's are held to
    # the same comments here (suppress.py).
    nolint: Suppressions = field(default_factory=Suppressions)
    suppressed: int = 0                            # findings a NOLINT comment suppressed

    def add(self, job, rc, out, err):
        if rc == TIMED_OUT:
            self._error(Diag("error", None, 0, 0, f"{job.t.file} ({job.label}): the run took longer than "
                             f"{self.timeout:g} s and was stopped (--timeout)", None),
                        (job.t.file, job.label, "timeout"), job.label)
            self.failed.append((job.t.file, job.label, f"timed out after {self.timeout:g} s"))
        elif job.side == "pass":
            self._add_pass(job, rc, err)
        else:
            self._add_tidy(job, rc, out, err)

    def add_whole_program(self, diags):
        """The findings whose path crosses files (facts.findings); one a file's own run also
        reported there is that finding, seen from the whole program too."""
        for d in map_diags(list(diags), self.rewrites, "", snippet):
            if self.nolint.suppressed(d.file, d.line, d.check):
                self.suppressed += 1
                continue
            place = place_of(d)
            if place in self.by_place:
                if d.sides[0] not in self.by_place[place].sides:
                    self.by_place[place].sides.append(d.sides[0])
                continue
            self.findings[d.key()] = self.by_place[place] = d

    # An instruction -O2 made of several (two loads merged through a phi) keeps their line and no
    # column: its remark is the finding clang-tidy makes on that line, whichever came first.
    def _place(self, d):
        place = place_of(d)
        if d.col == 0 and place not in self.by_place:
            for other in self.by_place:
                if other[:2] == place[:2] and other[3:] == place[3:]:
                    return other
        return place

    def _absorb_lineonly(self, d):
        lineonly = place_of(d)[:2] + (0,) + place_of(d)[3:]
        found = self.by_place.get(lineonly)
        if found is None or found is d:
            return
        for side in found.sides:
            if side not in d.sides:
                d.sides.append(side)
        del self.by_place[lineonly]
        self.findings.pop(found.key(), None)

    def _error(self, d, key, side):
        if key not in self.errors:
            d.sides = [side]
            self.errors[key] = d

    def _skip(self, known, side):
        for d, k in known:
            key = (d.file, d.line, d.col, k.name)
            s = self.skipped.get(key) or Skipped.at(d.file, d.line, d.col, k, self.cache, d.part)
            self.skipped[key] = s
            if side not in s.sides:
                s.sides.append(side)

    def _add_pass(self, job, rc, err):
        remarks, others = pass_diagnostics(err, job.record)
        absolute(remarks + others, job.t.directory)
        map_diags(remarks + others, self.rewrites, job.t.directory, snippet)
        parsed = (job.t.file, job.arch) not in self.device_failed
        if not parsed:
            others = []  # the device side's errors are reported once, from clang-tidy
        # clang++ stopping in LLVM itself (a crash, an LLVM ERROR) is one account of the run, not
        # clang's error without a place.
        stopped = pass_stopped(rc, err)
        if stopped:
            others = [d for d in others
                      if not (d.is_error and not d.file and d.message.startswith(LLVM_ERROR_SPELLINGS))]
        known, others = split_dialect(others, self.cache)
        self._skip(known, job.label)
        errs = [d for d in others if d.level in ("error", "fatal error")]
        for d in errs:
            d.check = None
            if not d.file:
                d.message = f"{job.t.file} ({job.label}): {d.message}"
            self._error(d, d.key(), job.label)
        if errs:
            self.failed.append((job.t.file, job.label,
                                "does not compile for the IR pass (clang's errors for it are in the report)"))
        elif stopped and parsed:
            what, why = stopped
            self._error(Diag("error", None, 0, 0, f"clang++ {what} compiling {job.t.file} for the IR pass "
                             f"({job.label}): {why}", None), (job.t.file, job.label, "failed"), job.label)
            self.failed.append((job.t.file, job.label, f"the IR pass did not run: clang++ {what}"))
        elif rc != 0 and not known and parsed:
            tail = [line for line in err.splitlines() if line.strip()][-6:]
            self._error(Diag("error", None, 0, 0, f"the IR pass failed on {job.t.file} ({job.label}), exit status "
                             f"{rc}: " + " | ".join(tail), None), (job.t.file, job.label, "failed"), job.label)
            self.failed.append((job.t.file, job.label, f"the IR pass failed (exit status {rc})"))
        for d in remarks:
            if d.check not in PASS_RULES or not glob_selects(job.t.checks, d.check):
                continue
            if self.nolint.suppressed(d.file, d.line, d.check):
                self.suppressed += 1
                continue
            place = self._place(d)
            if place in self.by_place:
                if job.label not in self.by_place[place].sides:
                    self.by_place[place].sides.append(job.label)
                continue
            d.level = "warning"
            d.sides = [job.label]
            self.findings[d.key()] = self.by_place[place] = d

    def _add_tidy(self, job, rc, out, err):
        known, diags = split_dialect(
            map_diags(absolute(parse_output(out), job.t.directory), self.rewrites, job.t.directory, snippet),
            self.cache, host=job.side == "host")
        side = job.label
        self._skip(known, side)
        had_error, unknown = bool(known), False
        for d in diags:
            unknown |= d.is_error
            had_error |= d.is_error
            if d.is_error and not d.file:
                # An error with no place (an unknown argument, a missing input) names its file; the
                # sides that gave it are the error's sides.
                d.message = f"{job.t.file}: {d.message}"
            target = self.errors if d.is_error else self.findings
            key = d.key()
            if key in target:
                if side not in target[key].sides:
                    target[key].sides.append(side)
            else:
                d.sides = [side]
                target[key] = d
                if not d.is_error and d.check:
                    self.by_place.setdefault(place_of(d), d)
                    self._absorb_lineonly(d)
        # WarningsAsErrors (the project's .clang-tidy, or -warnings-as-errors) makes clang-tidy exit 1
        # with findings of level error: findings, not a failure.
        as_errors = any(d.level == "error" and d.check and not d.is_error for d in diags)
        if rc != 0 and not had_error and not as_errors:
            # clang-tidy failed without a diagnostic: a crash, a bad option, a module that does
            # not load. What it said last is the best account of why.
            tail = [line for line in err.splitlines()
                    if line.strip() and not line.startswith("Error while processing")][-6:]
            self._error(Diag("error", None, 0, 0, f"clang-tidy failed on {job.t.file} ({side}), exit status {rc}: "
                             + " | ".join(tail), None), (job.t.file, side, "failed"), side)
            self.failed.append((job.t.file, side, f"clang-tidy failed (exit status {rc})"))
        elif unknown:
            self.failed.append((job.t.file, side, "does not parse (clang's errors for it are in the report)"))
        if had_error and job.side == "device":
            self.device_failed.add((job.t.file, job.arch))
