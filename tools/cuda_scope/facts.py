"""The whole program: each host-side analysis of a file writes the part of its call graph that paths
leaving the file can take (the module's TUFacts; the format is docs/facts.md); this module reads
those files, merges them in one pass linear in their size, and walks host callbacks and stream
captures across files.

Only paths that cross a file are reported here: what stays within one file is the per-file checks'
and is reported by them. No CUDA rule is decided here: the facts carry the model's decisions
(checks/model/Capture.h). A call that can break a capture carries, under opaque keys, the sentence
of each finding it can be; a capture carries the key it is in and the words its findings take
(its stream, or the function declared capture-safe); the merge matches the keys and puts the words
in the sentence's slots.

Threads are the merge's alone (no file's check relates them): the merge finds which code runs on
which thread (the threads each file starts, and the rest of the program), which threads may run at
once (a thread its starter waits for runs only beside what the starter does before it waits), and
which locks are held on every way to a call; a capture and a call that hold the same lock do not
overlap. Which calls of another thread break which captures is the model's, as keys again."""
import json
import os
from collections import deque
from dataclasses import dataclass, field

from .common import source_line
from .diagnostics import Diag

FORMAT = "cuda-scope-facts"
VERSION = 3
SIDE = "whole program"


@dataclass
class Function:
    """A function other files can reach, as the file defining it sees it."""
    id: str
    name: str
    file: str                                     # the first file defining it
    files: set                                    # every file defining it (an inline function: several)
    callback: list = field(default_factory=list)  # what it does that no host callback may do
    capture: list = field(default_factory=list)   # its calls that can break a capture, with their verdicts
    edges: list = field(default_factory=list)     # its calls to functions its file defines
    calls: list = field(default_factory=list)     # its calls that leave its file


@dataclass
class Program:
    functions: dict = field(default_factory=dict)   # id -> Function (the first file's, for inline ones)
    overriders: dict = field(default_factory=dict)  # method id -> ids of the methods overriding it
    callbacks: list = field(default_factory=list)   # (file, registration)
    captures: list = field(default_factory=list)    # (file, call made while a capture is open)
    regions: dict = field(default_factory=dict)     # function id -> the captures it begins
    launches: dict = field(default_factory=dict)    # kernel symbol -> [launches, one-block ones, escapes]
    grid_grows: dict = field(default_factory=dict)  # kernel symbol -> (name, how, where, input): the first
    # launch that is not cooperative, on a grid the host code computes from the input
    not_cooperative: dict = field(default_factory=dict)  # kernel symbol -> (name, how, where), the first
    overlaps: set = field(default_factory=set)      # kernel symbols two grids of which may run at once
    threads: list = field(default_factory=list)     # the places where threads start
    launch_facts: list = field(default_factory=list)  # (file, a kernel's launches in that file)
    files: int = 0
    targets: dict = field(default_factory=dict)     # (callee, virtual) -> what the call may run


def load(paths):
    """The merged program, and a problem per file that could not be read (the rest are merged). Each
    item is a facts file, or (facts file, the source file whose run wrote it): a problem names the
    source file then, since the facts file is the run's own temporary one."""
    program, problems = Program(), []
    for item in paths:
        path, source = item if isinstance(item, tuple) else (item, None)
        where = f"{source} (the facts its host run wrote, {path})" if source else path
        try:
            with open(path, encoding="utf-8") as fh:
                doc = json.load(fh)
        except (OSError, ValueError) as e:
            problems.append(f"{where}: cannot read the facts ({e})")
            continue
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            problems.append(f"{where}: not a cuda-scope facts file")
            continue
        if doc.get("version") != VERSION:
            problems.append(f"{where}: facts version {doc.get('version')}, this command reads version {VERSION} "
                            f"(the module and the command come from different builds)")
            continue
        add(program, doc)
    return program, problems


def add(program, doc):
    """Merges one file's facts into the program (places read from the file's table of paths)."""
    program.files += 1
    file = doc["file"]
    paths = doc.get("files", [])

    def placed(record):
        for key in ("at", "begin", "joined"):
            at = record.get(key)
            if isinstance(at, list):
                record[key] = {"file": paths[at[0]], "line": at[1], "column": at[2]}
        return record

    for f in doc.get("functions", ()):
        for base in f.get("overrides", ()):
            program.overriders.setdefault(base, []).append(f["id"])
        if f["id"] in program.functions:
            program.functions[f["id"]].files.add(file)
            continue
        program.functions[f["id"]] = Function(
            f["id"], f["name"], file, {file}, [placed(e) for e in f.get("callback", ())],
            [verdicts(placed(e)) for e in f.get("capture", ())], [placed(e) for e in f.get("edges", ())],
            [placed(e) for e in f.get("calls", ())])
    program.callbacks += [(file, placed(r)) for r in doc.get("callbacks", ())]
    program.captures += [(file, placed(r)) for r in doc.get("captures", ())]
    for r in doc.get("regions", ()):
        program.regions.setdefault(r["in"], []).append(placed(r))
    program.threads += [placed(t) for t in doc.get("threads", ())]
    for k in doc.get("launches", ()):
        add_launches(program, k)
        program.launch_facts.append((file, k))


def verdicts(event):
    """An event with its findings by key: {key: sentence}, from its groups of keys."""
    event["verdicts"] = {key: group["message"] for group in event.get("breaks", ()) for key in group["keys"]}
    return event


def sentence(parts, words):
    """A sentence of the facts with a capture's words in its slots (a part that is a number)."""
    return "".join(p if isinstance(p, str) else words[p] for p in parts)


def add_launches(program, k):
    """Adds one file's launches of one kernel to the program's."""
    have = program.launches.setdefault(k["kernel"], [0, 0, False])
    have[0] += k["launches"]
    have[1] += k["one_block"]
    have[2] = have[2] or k["escapes"]
    if k.get("overlaps"):
        program.overlaps.add(k["kernel"])
    for launch in k.get("not_cooperative", ()):
        program.not_cooperative.setdefault(k["kernel"], (k["name"], launch["how"], launch["where"]))
        if launch.get("grid") == "input":
            program.grid_grows.setdefault(k["kernel"], (k["name"], launch["how"], launch["where"],
                                                        launch.get("grows_with") or "the input"))


def targets(program, callee, virtual):
    """The functions a call may run: the callee where a file defines it, and for a virtual call every
    method that overrides it, directly or not, in any file. Computed once per callee."""
    key = (callee, bool(virtual))
    out = program.targets.get(key)
    if out is None:
        out, seen, work = [], {callee}, deque([callee])
        while work:
            fid = work.popleft()
            if fid in program.functions:
                out.append(program.functions[fid])
            if virtual:
                for o in program.overriders.get(fid, ()):
                    if o not in seen:
                        seen.add(o)
                        work.append(o)
        program.targets[key] = out
    return out


SOURCE = {}  # file -> its lines, for the snippets


def snippet(d):
    """The source line and a caret under the column, as clang prints them under a diagnostic."""
    text = source_line(d.file, d.line, SOURCE) if d.file else None
    if text is None:
        return []
    line = text.decode("utf-8", "replace").rstrip("\r")
    width = max(5, len(str(d.line)))
    pad = "".join(c if c == "\t" else " " for c in line[:max(d.col - 1, 0)])
    return [f"{d.line:>{width}} | {line}", f"{'':>{width}} | {pad}^"]


def note(at, message):
    if not at:
        return Diag("note", None, 0, 0, message, None)
    d = Diag("note", at["file"], at["line"], at["column"], message, None)
    d.snippet = snippet(d)
    return d


def hop(call, target):
    """The note of one call that leaves a file (the call's own, as its file words it), naming the
    file that defines what runs."""
    if target.id == call["callee"]:
        text = f"{call['message']}; it is defined in {target.file}"
    else:
        text = f"{call['message']}; '{target.name}', defined in {target.file}, overrides it"
    return [note(call["at"], text)]


def walk(program, starts, capture=False):
    """One breadth-first walk from every start [(Function, crossed, kind, origin)] at once: a state is
    (function, whether the way to it left a file, kind), each visited once, so the walk is linear in
    the calls. Yields (Function, kind, state) once per function and kind reached by a way that left a
    file (a way inside one file is that file's own check's); notes_of(parents, state) gives the
    shortest such way. A capture walk takes no call that runs only when not capturing (`guarded`),
    and a call that sets a `state` (opaque: the file decided it) makes it the kind from there on.
    `parents` is yielded first."""
    parents = {}
    yield parents
    work = deque()
    for fn, crossed, kind, origin in starts:
        state = (fn.id, crossed, kind)
        if state not in parents:
            parents[state] = (None, origin)
            work.append((fn, crossed, kind))
    done = set()
    functions = program.functions
    while work:
        fn, crossed, kind = work.popleft()
        state = (fn.id, crossed, kind)
        if crossed and (fn.id, kind) not in done:
            done.add((fn.id, kind))
            yield fn, kind, state
        for edge in fn.edges:
            t = functions.get(edge["to"])
            if t is None or (capture and edge.get("guarded")):
                continue
            k = edge.get("state", kind) if capture else kind
            nxt = (t.id, crossed, k)
            if nxt not in parents:
                parents[nxt] = (state, (edge, None))
                work.append((t, crossed, k))
        for call in fn.calls:
            if capture and call.get("guarded"):
                continue
            k = call.get("state", kind) if capture else kind
            for t in targets(program, call["callee"], call.get("virtual")):
                # A virtual call's override in the caller's own file was that file's to follow.
                crosses = crossed or not (fn.files & t.files)
                nxt = (t.id, crosses, k)
                if nxt not in parents:
                    parents[nxt] = (state, (call, t))
                    work.append((t, crosses, k))


def notes_of(parents, state):
    """(the origin of the way to state, the notes of its hops in order)."""
    hops = []
    while True:
        prev, how = parents[state]
        if prev is None:
            return how, hops[::-1]
        hops.append(how)
        state = prev


def finding(check, event, message, notes):
    at = event["at"]
    d = Diag("warning", at["file"], at["line"], at["column"], message, check)
    d.snippet = snippet(d)
    d.notes = notes + [note(n["at"], n["message"]) for n in event.get("notes", ())]
    d.sides = [SIDE]
    return d


def findings(program):
    """The findings whose path crosses files, in a stable order: one walk for every callback, one for
    every capture."""
    out, seen = [], set()

    def emit(d, key):
        if key not in seen:
            seen.add(key)
            out.append(d)

    def path(origin_notes, hops):
        notes = list(origin_notes)
        for step, t in hops:
            notes += hop(step, t) if t is not None else [note(step["at"], step["message"])]
        return notes

    starts = []
    for file, reg in program.callbacks:
        for fn in targets(program, reg["callback"], False):
            # Defined where it is registered, the file's own check followed it there; defined in
            # another file, nothing there knew it for a callback.
            starts.append((fn, file not in fn.files, 0, (reg, fn, file in fn.files)))
    it = walk(program, starts)
    parents = next(it)
    for fn, _, state in it:
        (reg, root, here), hops = notes_of(parents, state)
        origin = [note(reg["at"], f"'{reg['name']}' is registered as a host callback here, through "
                                  f"'{reg['registrar']}'")]
        if not here:
            origin.append(note(reg["at"], f"'{reg['name']}' is defined in {root.file}"))
        for event in fn.callback:
            d = finding("cuda-scope-callback-api", event, event["message"], path(origin, hops))
            emit(d, (d.file, d.line, d.col, d.check, d.message))

    # The kind is the walk's state, which picks the capture's key; a call made during the capture
    # goes to a function its file defines ("to") or leaves the file.
    starts = []
    for file, call in program.captures:
        kind = call["state"]
        if "to" in call:
            if call["to"] in program.functions:
                starts.append((program.functions[call["to"]], False, kind, (call, None)))
        else:
            starts += [(t, True, kind, (call, t)) for t in targets(program, call["callee"], call.get("virtual"))]
    it = walk(program, starts, capture=True)
    parents = next(it)
    for fn, kind, state in it:
        (call, first), hops = notes_of(parents, state)
        key = call["keys"].get(kind)
        origin = [note(call.get("begin"), call["note"])]
        origin += hop(call, first) if first is not None else [note(call["at"], call["message"])]
        for event in fn.capture:
            parts = event["verdicts"].get(key)
            if parts is None:
                continue
            d = finding("cuda-scope-capture-api", event, sentence(parts, call["words"]), path(origin, hops))
            # One finding per place, whichever capture reaches it first.
            emit(d, (d.file, d.line, d.col, d.check))
    for d in thread_findings(program):
        emit(d, (d.file, d.line, d.col, d.check))
    return sorted(out, key=lambda d: (d.file or "", d.line, d.col, d.check, d.message))


# -- Threads ------------------------------------------------------------------------------------------

def position(at):
    return (at["file"], at["line"], at["column"]) if at else None


def between(at, start, end):
    """Whether place `at` lies after `start` and before `end` (None: no end) in the same file."""
    p, a = position(at), position(start)
    if p is None or a is None or p[0] != a[0] or p[1:] <= a[1:]:
        return False
    return end is None or p[1:] < position(end)[1:]


@dataclass
class Context:
    """Code that runs on one thread (or on the program's own threads, the ones it does not start):
    the functions it reaches, each with the locks held on every way there and the first way found."""
    describe: str
    start: dict = None                              # the thread's start, None for the program's own
    reached: dict = field(default_factory=dict)     # id -> [locks, parent: (id, step, target) | None]
    window: tuple = None                            # (spawner id, from, to): only its calls in there


def reach(program, context, starts):
    """Fills context.reached from starts [Function] with the locks held on every way (intersection),
    iterating until they stop shrinking: at most once more per lock, so linear in the calls times the
    few locks a program has. Calls that run only when nothing captures are not taken."""
    work = deque()
    reached = context.reached
    for fn in starts:
        if fn.id not in reached:
            reached[fn.id] = [frozenset(), None]
            work.append(fn.id)
    functions = program.functions
    window = context.window
    while work:
        fid = work.popleft()
        fn = functions[fid]
        locks = reached[fid][0]
        filtered = window is not None and fid == window[0]
        for step in fn.edges:
            t = functions.get(step["to"])
            if t is not None:
                _step(reached, work, fid, locks, step, (t,), None, filtered, window)
        for step in fn.calls:
            _step(reached, work, fid, locks, step, targets(program, step["callee"], step.get("virtual")), True,
                  filtered, window)


def _step(reached, work, fid, locks, step, runs, leaves, filtered, window):
    if step.get("guarded") or (filtered and not between(step.get("at"), window[1], window[2])):
        return
    extra = step.get("locks")
    held = locks | frozenset(extra) if extra else locks
    for t in runs:
        have = reached.get(t.id)
        if have is None:
            reached[t.id] = [held, (fid, step, t if leaves else None)]
            work.append(t.id)
        elif not have[0] <= held:
            have[0] = have[0] & held
            work.append(t.id)


def _admits(self, fid, item):
    if self.window is None or fid != self.window[0]:
        return True
    return between(item.get("at") or item.get("begin"), self.window[1], self.window[2])


Context.admits = _admits


def way(program, context, fid):
    """The notes of the first way the context found to function fid."""
    notes = []
    while True:
        parent = context.reached[fid][1]
        if parent is None:
            return notes[::-1]
        prev, step, target = parent
        notes += (hop(step, target) if target is not None else [note(step["at"], step["message"])])[::-1]
        fid = prev


def contexts(program):
    """The program's own threads (what no thread start reaches first: functions nothing calls), and
    one context per thread start; a start whose spawner waits for it also gets the window of the
    spawner between the start and the wait."""
    called, entries = set(), set()
    for fn in program.functions.values():
        called.update(e["to"] for e in fn.edges)
        for c in fn.calls:
            called.update(t.id for t in targets(program, c["callee"], c.get("virtual")))
    for t in program.threads:
        entries.update(f.id for f in targets(program, t["entry"], False))
    for _, reg in program.callbacks:
        entries.add(reg["callback"])
    # A project of several programs (each file with a main is one: tests, examples) runs each in its
    # own process: a thread is related to what its own program's main reaches. With one main or
    # none (a library), to everything nothing calls.
    mains = [f for fid, f in program.functions.items() if fid.startswith("main:")]
    if len(mains) > 1:
        own = []
        for m in mains:
            ctx = Context("the calling thread")
            reach(program, ctx, [m])
            own.append(ctx)
    else:
        ctx = Context("the calling thread")
        reach(program, ctx, [f for f in program.functions.values() if f.id not in called and f.id not in entries])
        own = [ctx]
    threads = []
    for t in program.threads:
        ctx = Context(f"the thread running '{t['name']}'", start=t)
        reach(program, ctx, targets(program, t["entry"], False))
        window = None
        if t.get("joined") and t["in"] in program.functions:
            window = Context(f"the thread that starts '{t['name']}', before it waits for it", window=(t["in"], t["at"], t["joined"]))
            reach(program, window, [program.functions[t["in"]]])
        threads.append((t, ctx, window))
    return own, threads


def overlap(t, u, own):
    """Whether two started threads may run at once: in one program (when the project has several),
    unless their spawners wait for both, they may; if one spawner waits for both, when each starts
    before the other is waited for."""
    if not any(t["in"] in o.reached and u["in"] in o.reached for o in own) and len(own) > 1:
        return False
    if not t.get("joined") or not u.get("joined"):
        return True
    if t["in"] != u["in"]:
        return False
    return between(u["at"], t["at"], t["joined"]) or between(t["at"], u["at"], u["joined"]) or \
        position(t["at"]) == position(u["at"])


def thread_findings(program):
    """A call of one thread that breaks a capture another thread has open: the call's verdicts hold
    the region's key. Not when both hold a lock in common (a lock the facts cannot name might be
    shared: silent), nor for a call that runs only when nothing captures."""
    if not program.threads or not program.regions:
        return []
    own, threads = contexts(program)
    out, seen = [], set()

    def regions(ctx):
        for fid, (locks, _) in ctx.reached.items():
            for r in program.regions.get(fid, ()):
                if ctx.admits(fid, r):
                    yield fid, r, locks | frozenset(r.get("locks", ()))

    def events(ctx):
        for fid, (locks, _) in ctx.reached.items():
            for e in program.functions[fid].capture:
                if ctx.admits(fid, e):
                    yield fid, e, locks | frozenset(e.get("locks", ()))

    def starts_note(ctx):
        t = ctx.start
        if t is None:
            return []
        return [note(t["at"], t["note"])]

    def check(a, b):
        found = list(regions(a))
        if not found:
            return
        for efid, e, elocks in events(b):
            for rfid, r, rlocks in found:
                parts = e["verdicts"].get(r["key"])
                if parts is None:
                    continue
                if "?" in elocks or "?" in rlocks or elocks & rlocks:
                    continue
                key = position(e["at"])
                if key in seen:
                    break
                seen.add(key)
                text = sentence(parts, r["words"])
                notes = [note(r["begin"], f"{r['note']}, on {a.describe}")]
                notes += starts_note(a) + way(program, a, rfid)
                notes += starts_note(b) if b is not a else []
                notes += way(program, b, efid)
                held = sorted(l for l in rlocks | elocks if not l.startswith("?"))
                if held:
                    notes.append(note(None, "the capture and the call hold no lock in common (held: "
                                            + ", ".join(h.split(":")[-1] for h in held) + ")"))
                d = finding("cuda-scope-capture-api", e, text, notes)
                out.append(d)
                break

    for i, (t, ctx, window) in enumerate(threads):
        if window is not None:
            partners = [window]
        else:
            partners = [o for o in own if len(own) == 1 or t["in"] in o.reached]
        if t.get("many"):
            partners.append(ctx)
        partners += [other for u, other, _ in threads[i + 1:] if overlap(t, u, own)]
        for p in partners:
            check(ctx, p)
            if p is not ctx:
                check(p, ctx)
    return out


def one_block_kernels(program):
    """The kernels every launch of which in the whole program runs one block (<<<1, N>>>): launched
    at least once, always with one block, and never named elsewhere (a pointer to it, a
    cudaLaunchKernel), as device symbols. The device IR does not see launches; the IR pass reads
    these (-cuda-scope-launches, $CUDA_SCOPE_LAUNCHES) and treats such a kernel as the clang-tidy
    checks do one every launch of which in its file runs one block."""
    return sorted(k for k, (n, one, escapes) in program.launches.items()
                  if n and one == n and not escapes and k not in program.overlaps)


def programs(program):
    """In a project of several programs (each file with a main is one: tests, examples, samples), the
    files of each: those defining what its main reaches. None with one main or none (a library)."""
    if not hasattr(program, "_programs"):
        mains = [f for fid, f in program.functions.items() if fid.startswith("main:")]
        program._programs = None
        if len(mains) > 1:
            program._programs = []
            for m in mains:
                ctx = Context("the calling thread")
                reach(program, ctx, [m])
                files = set()
                for fid in ctx.reached:
                    files |= program.functions[fid].files
                program._programs.append(files)
    return program._programs


def launches_of(program, file):
    """The launch facts that hold for a file's kernels: the whole project's, or, in a project of
    several programs, those of the programs the file is part of. Two programs that each define a
    kernel of one name (each sample's `kernel`) have two kernels, each launched only by its own."""
    every = programs(program)
    mine = [p for p in every or () if file in p]
    if not mine:
        return program   # one program, or a file no main reaches (a library every program may link)
    files = set().union(*mine)
    out = Program()
    for f, k in program.launch_facts:
        if f in files:
            add_launches(out, k)
    return out


def launches_file(program):
    """The text of the file the IR pass reads (-cuda-scope-launches): the one-block kernels, a symbol
    a line; then, per kernel some launch of which is not cooperative (the host side decided which
    are: checks/model/CudaApi.def), 'not-cooperative', its symbol, its name, how and where it is
    launched, tab-separated; and per kernel launched so on a grid that grows with the input (the host
    side decided that too: CudaApi.def's RESIDENCY rows), 'grid-grows', its symbol, name, how, where
    and the input. The pass applies the grid sync and grid barrier rules with them."""
    lines = [k + "\n" for k in one_block_kernels(program)]
    lines += ["\t".join(("not-cooperative", k) + program.not_cooperative[k]) + "\n"
              for k in sorted(program.not_cooperative)]
    lines += ["\t".join(("grid-grows", k) + program.grid_grows[k]) + "\n" for k in sorted(program.grid_grows)]
    lines += [f"overlaps\t{k}\n" for k in sorted(program.overlaps)]
    return "".join(lines)


def analyse(paths):
    """(findings, problems) of the facts files at paths."""
    program, problems = load(p for p in paths if os.path.exists(p))
    return findings(program), problems
