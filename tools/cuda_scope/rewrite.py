"""nvcc syntax that clang's parser rejects and that a same-lines rewrite of the source makes clang
accept: a braced list as a launch's grid or block (`k<<<n, {32, 4, 1}, 0, s>>>(p)`). clang parses
the execution configuration as a plain expression list and stops at the '{' ("expected expression"),
which costs the analysis the whole file; nvcc reads it as a dim3. The command writes a copy of the
file with each such list turned into `dim3(...)` (parentheses: braces would make an int -> unsigned
narrowing an error, which nvcc only warns about) and gives clang-tidy (--vfsoverlay) and clang++
(-ivfsoverlay) a VFS overlay that serves the copy under the file's own name. The copy keeps every
line; the columns it moves, on the lines it changes, are mapped back in every diagnostic, location
and fix-it, so findings point at the user's text.

The same copy carries a second nvcc reading: a member function that its class declares with no
execution space and that is defined out of line as `__device__` (`inline __device__ void
Lock::acquire() {...}`). nvcc takes the definition's space for the member; clang keeps the
declaration's (host) and rejects the definition ("out-of-line definition ... does not match any
declaration"), which costs the whole file. The copy writes the definition's space before the
declaration in the class, on its own line.

A third reading needs clang to decide where it applies (packargs.py): a template whose later
parameters are values with defaults, given for a `template <class...> class` parameter of an alias
template. prepare() asks clang++ which arguments it rejects, and the copy names an alias template of a
type pack for each."""
import os
import re
import shutil
import tempfile
from dataclasses import dataclass

IDENT = re.compile(r"[A-Za-z_$][A-Za-z_0-9$]*")
NUMBER = re.compile(r"\.?[0-9](?:[eEpP][+-]|'[A-Za-z0-9_]|[A-Za-z0-9_.])*")
STRING_PREFIXES = {"L", "u", "U", "u8", "R", "LR", "uR", "UR", "u8R"}
INSERTED = "dim3"   # written before the '{', which becomes '('


def tokens(s):
    """The tokens of C++ source s (a str whose indices are byte offsets), as (kind, start, end):
    kind 'id', 'num', 'str' or the punctuation character itself. Comments, string and character
    literals (raw strings, prefixes, digit separators in numbers) never yield punctuation; a
    preprocessor directive's tokens are yielded like others (a launch can be in a macro)."""
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in " \t\r\n\f\v" or (c == "\\" and s.startswith("\n", i + 1)):
            i += 1
            continue
        if s.startswith("//", i):
            # A line comment goes on past a backslash at the end of its line.
            while i < n and s[i] != "\n":
                i += 2 if s[i] == "\\" and i + 1 < n else 1
            continue
        if s.startswith("/*", i):
            end = s.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        m = IDENT.match(s, i)
        if m:
            word, end = m.group(0), m.end()
            if word in STRING_PREFIXES and end < n and s[end] in "\"'":
                if word.endswith("R") and s[end] == '"':
                    yield "str", i, raw_string_end(s, end)
                    i = raw_string_end(s, end)
                else:
                    i = quoted_end(s, end)
                    yield "str", m.start(), i
                continue
            yield "id", i, end
            i = end
            continue
        m = NUMBER.match(s, i)
        if m:
            yield "num", i, m.end()
            i = m.end()
            continue
        if c in "\"'":
            end = quoted_end(s, i)
            yield "str", i, end
            i = end
            continue
        yield c, i, i + 1
        i += 1


def quoted_end(s, i):
    """The end of the string or character literal that opens at s[i]; at the end of the line when
    it is not closed (as clang recovers)."""
    quote, j = s[i], i + 1
    while j < len(s):
        if s[j] == "\\":
            j += 2
            continue
        if s[j] == quote:
            return j + 1
        if s[j] == "\n":
            return j
        j += 1
    return len(s)


def raw_string_end(s, i):
    """The end of the raw string literal whose '"' is at s[i]: R"delim( ... )delim"."""
    open_paren = s.find("(", i + 1)
    if open_paren < 0 or open_paren - i - 1 > 16:
        return quoted_end(s, i)
    close = s.find(")" + s[i + 1:open_paren] + '"', open_paren + 1)
    return len(s) if close < 0 else close + open_paren - i + 1


@dataclass(frozen=True)
class Braced:
    """A braced list in a launch's configuration: its '{' and '}' (offsets in the file) and the
    argument it is (0 the grid, 1 the block)."""
    open: int
    close: int
    argument: int


def braced_launch_lists(s):
    """Every braced list that is a launch's grid or block in s. A launch's configuration is what lies
    between '<<<' and its '>>>'; its arguments are split at the commas outside brackets and template
    argument lists (a '<' after a name opens one, as in f<T>(n); when those do not balance, they were
    comparisons, and the configuration is read again without them). Nothing is found where the
    configuration does not end before a ';' or an unbalanced bracket (operator<<<T> is no launch)."""
    toks = list(tokens(s))
    found = []
    k = 0
    while k + 2 < len(toks):
        if not launch_opens(toks, k):
            k += 1
            continue
        if k > 0 and toks[k - 1][0] == "id" and s[toks[k - 1][1]:toks[k - 1][2]] == "operator":
            k += 3
            continue
        lists, end = configuration(s, toks, k + 3, angles=True)
        if lists is None:
            lists, end = configuration(s, toks, k + 3, angles=False)
        if lists:
            found += lists
        k = end if end else k + 3
    return found


def launch_opens(toks, k):
    if k > 0 and toks[k - 1][0] == "<" and toks[k - 1][2] == toks[k][1]:
        return False
    return all(toks[k + j][0] == "<" for j in range(3)) and toks[k + 1][1] == toks[k][2] and \
        toks[k + 2][1] == toks[k + 1][2] and not (k + 3 < len(toks) and toks[k + 3][0] == "<" and
                                                  toks[k + 3][1] == toks[k + 2][2])


def configuration(s, toks, k, angles):
    """Reads the configuration from token k: ([Braced], the index after '>>>'); (None, None) when
    template angles did not balance (only when angles); ([], None) when it is no configuration."""
    brackets = []          # the open '(', '[', '{' not yet closed
    angle = 0              # template argument lists open at bracket depth 0
    argument, starts_argument = 0, True
    lists = []
    j = k
    while j < len(toks):
        kind, start, end = toks[j]
        top = not brackets
        if top and kind == ">" and not (toks[j - 1][0] == "-" and toks[j - 1][2] == start):
            run = 1
            while j + run < len(toks) and toks[j + run][0] == ">" and toks[j + run][1] == toks[j + run - 1][2]:
                run += 1
            equals = j + run < len(toks) and toks[j + run][0] == "=" and toks[j + run][1] == toks[j + run - 1][2]
            closers = run - (1 if equals else 0)
            if closers >= 3 and not equals:
                closers -= 3
                if angles and closers != angle:
                    return None, None
                return lists, j + run
            if angles:
                angle = max(0, angle - closers)
            j += run
            starts_argument = False
            continue
        if top and kind == "<" and angles and j > 0 and toks[j - 1][0] == "id" and not (
                j + 1 < len(toks) and toks[j + 1][0] in "<=" and toks[j + 1][1] == end):
            angle += 1
            j += 1
            starts_argument = False
            continue
        if kind in "([{":
            if top and kind == "{" and starts_argument and angle == 0 and argument <= 1:
                close = matching(toks, j)
                if close is None:
                    return [], None
                lists.append(Braced(start, toks[close][1], argument))
                j = close + 1
                starts_argument = False
                continue
            brackets.append(kind)
        elif kind in ")]}":
            if not brackets or "([{"[")]}".index(kind)] != brackets[-1]:
                return [], None
            brackets.pop()
        elif top and kind == ";":
            return [], None
        elif top and kind == "," and angle == 0:
            argument += 1
            starts_argument = True
            j += 1
            continue
        starts_argument = False
        j += 1
    return [], None


def matching(toks, j):
    """The index of the bracket that closes toks[j], or None."""
    depth = []
    for m in range(j, len(toks)):
        kind = toks[m][0]
        if kind in "([{":
            depth.append(kind)
        elif kind in ")]}":
            if not depth or "([{"[")]}".index(kind)] != depth[-1]:
                return None
            depth.pop()
            if not depth:
                return m
    return None


@dataclass(frozen=True)
class Insertion:
    """Text the copy has and the file has not: `size` bytes before the file's byte `offset`, which is
    at (line, col)."""
    offset: int
    line: int
    col: int
    size: int


SPACES = ("__host__", "__device__", "__global__")
OUT_OF_LINE_TEXT = re.compile(r"__(?:host|device|global)__[^;{}()]*?\b([A-Za-z_]\w*)\s*::\s*~?\s*[A-Za-z_]\w*"
                              r"(?:\s*[^\w\s(;{}]+)?\s*\(")


def _statement_start(toks, i):
    """The index of the first token of the declaration that token i is in: after the last ';', '{',
    '}' before it, or after an access specifier's ':' (public:)."""
    j = i
    while j > 0 and toks[j - 1][0] not in ";{}":
        if toks[j - 1][0] == ":" and j >= 2 and toks[j - 2][0] == "id" and \
                toks[j - 2][3] in ("public", "private", "protected") and \
                not (j < len(toks) and toks[j][0] == ":"):
            break
        j -= 1
    return j


def _member_name(toks, j):
    """(the member's name, the index of the '(' of its parameters) for the name that starts at token
    j: a plain name, a destructor (~C) or an operator written with punctuation (operator +=); (None,
    None) for anything else (operator() and conversions are not read)."""
    n = len(toks)
    if toks[j][0] == "~" and j + 1 < n and toks[j + 1][0] == "id":
        name, j = "~" + toks[j + 1][3], j + 1
    elif toks[j][0] == "id" and toks[j][3] == "operator":
        k = j + 1
        while k < n and toks[k][0] not in ("id", "num", "str", "(", ")", ";", "{", "}"):
            k += 1
        if k == j + 1 or k >= n or toks[k][0] != "(":
            return None, None
        return "operator" + "".join(toks[q][0] for q in range(j + 1, k)), k
    elif toks[j][0] == "id":
        name = toks[j][3]
    else:
        return None, None
    return (name, j + 1) if j + 1 < n and toks[j + 1][0] == "(" else (None, None)


def member_space_insertions(s):
    """[(offset, text, class, member)]: where to write an out-of-line definition's execution space
    before its member's declaration in the class body, for each member of a class of s that the class
    declares with no execution space and whose out-of-line definitions in s all carry the same
    space(s). Only a class defined once in s, by its plain name (not a template), and only members
    none of whose declarations names a space."""
    # Most files have no such definition: only those with a space before a qualified name's '(' and
    # a class of that name are tokenized.
    classes = {m.group(1) for m in OUT_OF_LINE_TEXT.finditer(s)}
    if not any(re.search(r"\b(?:class|struct)\s+" + re.escape(c) + r"\b", s) for c in classes):
        return []
    toks = [(k, a, b, s[a:b] if k == "id" else None) for k, a, b in tokens(s)]
    definitions = {}   # (class, member) -> set of frozensets of spaces
    n = len(toks)
    for i in range(1, n - 4):
        if toks[i][0] != "id" or toks[i + 1][0] != ":" or toks[i + 2][0] != ":" or \
                toks[i + 2][1] != toks[i + 1][2]:
            continue
        name, paren = _member_name(toks, i + 3)
        if name is None or toks[i - 1][0] in (":", ">"):
            continue
        close = matching(toks, paren)
        if close is None:
            continue
        # A definition: its body (or a constructor's initializers) follows before any ';'.
        k = close + 1
        while k < n and toks[k][0] in ("id", "&"):   # const, noexcept, override, &
            k += 1
        if k >= n or toks[k][0] not in "{:" or (toks[k][0] == ":" and k + 1 < n and toks[k + 1][0] == ":"):
            continue
        words = {toks[m][3] for m in range(_statement_start(toks, i), i) if toks[m][0] == "id"}
        definitions.setdefault((toks[i][3], name), set()).add(frozenset(w for w in SPACES if w in words))
    wanted = {key: next(iter(sp)) for key, sp in definitions.items() if len(sp) == 1 and next(iter(sp))}
    if not wanted:
        return []
    out = []
    for cls in sorted({c for c, _ in wanted}):
        bodies = []
        for i in range(n - 2):
            if toks[i][0] == "id" and toks[i][3] in ("class", "struct") and toks[i + 1][0] == "id" and \
                    toks[i + 1][3] == cls and not (i > 0 and toks[i - 1][0] == "<"):
                k = i + 2
                while k < n and toks[k][0] not in ";{<":
                    k += 1
                if k < n and toks[k][0] == "{":
                    bodies.append(k)
        if len(bodies) != 1:
            continue
        end = matching(toks, bodies[0])
        if end is None:
            continue
        decls = {}   # member -> [(first token's offset, its spaces)]
        depth = 0
        for m in range(bodies[0] + 1, end):
            kind = toks[m][0]
            if kind in "([{":
                depth += 1
            elif kind in ")]}":
                depth -= 1
            elif depth == 0 and kind in ("id", "~") and (m == 0 or toks[m - 1][0] != "~"):
                name, paren = _member_name(toks, m)
                if name is None or paren >= end or (cls, name) not in wanted:
                    continue
                first = _statement_start(toks, m)
                words = {toks[q][3] for q in range(first, m) if toks[q][0] == "id"}
                if "friend" in words:
                    continue
                decls.setdefault(name, []).append((toks[first][1], frozenset(w for w in SPACES if w in words)))
        for name, found in sorted(decls.items()):
            if any(sp for _, sp in found):
                continue   # a declaration names a space already: nvcc and clang read it alike
            text = " ".join(w for w in SPACES if w in wanted[(cls, name)]) + " "
            out += [(offset, text, cls, name) for offset, _ in found]
    return sorted(out)


CONFIGURATION_TEXT = re.compile(rb"<<<(.*?)>>>", re.S)


def rewrite_text(data, extra=()):
    """(the rewritten bytes, [Insertion], [(what, line, col, how)]) for a file's bytes; (None, [], [])
    when it has neither a braced list in a launch nor a member whose execution space only its
    out-of-line definition names, nor `extra` edits (packargs.py's, which clang decided)."""
    s = data.decode("latin-1")     # one character per byte: offsets are byte offsets, as clang's columns
    edits = list(extra)            # (offset, bytes replaced, text written, what, how)
    # Most files have no launch, or none with a '{' before its '>>>': those are not tokenized for it.
    if b"<<<" in data and any(b"{" in m for m in CONFIGURATION_TEXT.findall(data)):
        for b in braced_launch_lists(s):
            edits.append((b.open, 1, INSERTED + "(", shorten(s[b.open:b.close + 1]),
                          f"dim3({shorten(s[b.open + 1:b.close], 44)}) (a launch's "
                          f"{'grid' if b.argument == 0 else 'block'} as a braced list, which nvcc accepts and "
                          f"clang's parser does not: clang reads a copy with dim3(...) through a VFS overlay; "
                          f"diagnostics name the file, its lines and columns)"))
            edits.append((b.close, 1, ")", None, None))
    if b"::" in data and b"__" in data:
        for offset, text, cls, name in member_space_insertions(s):
            edits.append((offset, 0, text, f"{cls}::{name} declared with no execution space",
                          f"{text.strip()} written before the declaration (its out-of-line definition is "
                          f"{text.strip()}: nvcc gives the member the definition's execution space, clang "
                          f"rejects the definition; clang reads a copy through a VFS overlay, on the same lines)"))
    if not edits:
        return None, [], []
    out, last, inserts, described = [], 0, [], []
    for offset, replaced, text, what, how in sorted(edits, key=lambda e: e[0]):
        line = s.count("\n", 0, offset) + 1
        col = offset - (s.rfind("\n", 0, offset) + 1) + 1
        out += [s[last:offset], text]
        last = offset + replaced
        if len(text) != replaced:
            inserts.append(Insertion(offset, line, col, len(text) - replaced))
        if what:
            described.append((what, line, col, how))
    out.append(s[last:])
    return "".join(out).encode("latin-1"), inserts, described


def shorten(text, width=48):
    text = re.sub(r"\s+", " ", text)
    return text if len(text) <= width else text[:width - 4] + " ...}"


PROBE_ROUNDS = 8         # clang runs at most to decide a file's packargs.py rewrites
QUOTED_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)


class Rewrites:
    """The rewritten copies of one run, in `folder` (a temporary folder made when the first copy is
    written; nothing is written when `write` is false: --explain), and for each file the insertions
    its copy has. prepare(t) gives a translation its overlay; col() and offset() take the copies'
    places back to the files'."""

    def __init__(self, folder, write=True):
        self.folder, self.write = folder, write
        self.files = {}        # file -> its copy's [Insertion] ([] when it needs none)
        self.copies = {}       # file -> its copy
        self.described = {}    # file -> [(what, line, col, how)]: the notes of its rewrites
        self.overlays = {}     # frozenset of files -> the overlay that serves their copies
        self.include_cache = {}  # file -> the names it includes with quotes
        self.resolved = {}       # (folder, name, include folders) -> the file a quoted include opens
        self.extra = {}          # file -> the edits clang decided for it (packargs.py)
        self.owners = {}         # file -> the alias templates it declares that packargs.py rewrites for
        self.clang = None        # clang++, which decides them (prepare's probe)
        self.probe_timeout = None

    def _scan(self, path):
        if path not in self.files:
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
            except OSError:
                self.files[path] = []
                return []
            new, inserts, described = rewrite_text(data, self.extra.get(path, ()))
            self.files[path] = inserts
            if new is not None:
                self.described[path] = described
                if self.write and self.folder is None:
                    self.folder = tempfile.mkdtemp(prefix="cuda-scope-rewrite-")
                copy = os.path.join(self.folder, f"{len(self.copies)}-{os.path.basename(path)}")
                self.copies[path] = copy
                if self.write:
                    os.makedirs(self.folder, exist_ok=True)
                    with open(copy, "wb") as fh:
                        fh.write(new)
        return self.files[path]

    def prepare(self, t, include_dirs, skip_dirs, probe=None):
        """The overlay (a YAML file) for translation t, or None when neither its file nor a project
        header it includes with quotes needs a copy. Headers are looked up as clang looks up a quoted
        include (the includer's folder, then the -iquote and -I folders), never in skip_dirs (the
        toolkit, the system), at most 400 of them. `probe` (clang++'s arguments, with -fsyntax-only on
        the host side) is run first when the file names an alias template that packargs.py rewrites
        for, to learn which arguments clang rejects."""
        if probe:
            self._probe(t, include_dirs, skip_dirs, probe)
        needed, seen, work = [], set(), [t.file]
        while work and len(seen) < 400:
            path = work.pop()
            if path in seen:
                continue
            seen.add(path)
            if self._scan(path):
                needed.append(path)
            for name in self._includes(path):
                c = self._resolve(os.path.dirname(path), name, include_dirs)
                if c and not any(c.startswith(s + os.sep) for s in skip_dirs):
                    work.append(c)
        if not needed:
            return None
        key = frozenset(needed)
        if key not in self.overlays:
            overlay = os.path.join(self.folder, f"overlay-{len(self.overlays)}.yaml")
            self.overlays[key] = overlay
            if self.write:
                roots = ", ".join(f"{{ 'type': 'file', 'name': {yaml_quote(f)}, 'external-contents': "
                                  f"{yaml_quote(self.copies[f])} }}" for f in sorted(needed))
                with open(overlay, "w", encoding="utf-8") as fh:
                    # The file's own name in diagnostics and debug info, not the copy's.
                    fh.write(f"{{ 'version': 0, 'use-external-names': false, 'roots': [ {roots} ] }}\n")
        for f in sorted(needed):
            for what, line, col, how in self.described[f]:
                t.note(f"{what} at {os.path.relpath(f, t.directory)}:{line}:{col}", how)
        return self.overlays[key]

    def _probe(self, t, include_dirs, skip_dirs, probe):
        from . import packargs
        path = os.path.normpath(os.path.join(t.directory, t.file))
        if path in self.files or path in self.extra:
            return   # decided by an earlier translation of the file
        self.extra[path] = ()
        text = _read(path)
        if text is None:
            return
        names, seen, work = set(), set(), [path]
        while work and len(seen) < 400:
            f = work.pop()
            if f in seen:
                continue
            seen.add(f)
            if f not in self.owners:   # every file of a project reads the same headers
                body = text if f == path else _read(f)
                self.owners[f] = set(packargs.owners(body)) if body is not None else set()
            names |= self.owners[f]
            for name in self._includes(f):
                c = self._resolve(os.path.dirname(f), name, include_dirs)
                if c and not any(c.startswith(s + os.sep) for s in skip_dirs):
                    work.append(c)
        if not names or not packargs.names_a_use(text, names):
            return
        # clang reports a declaration's first rejected argument only: each round reads the copy the
        # rounds before made, until clang rejects no more (BGHT's list of three tables takes three).
        places, work = set(), tempfile.mkdtemp(prefix="cuda-scope-probe-")
        try:
            for n in range(PROBE_ROUNDS):
                argv = probe
                if places:
                    copy, overlay = os.path.join(work, f"{n}-{os.path.basename(path)}"), os.path.join(work, f"{n}.yaml")
                    with open(copy, "wb") as fh:
                        fh.write(rewrite_text(text.encode("latin-1"), packargs.argument_edits(text, places))[0])
                    with open(overlay, "w", encoding="utf-8") as fh:
                        fh.write(f"{{ 'version': 0, 'use-external-names': false, 'roots': [ {{ 'type': 'file', "
                                 f"'name': {yaml_quote(path)}, 'external-contents': {yaml_quote(copy)} }} ] }}\n")
                    argv = probe[:-1] + ["-ivfsoverlay", overlay, probe[-1]]
                found = packargs.probe_places(path, argv, t.directory,
                                              lambda d, f: os.path.normpath(os.path.join(d, f)), _read,
                                              self.probe_timeout)
                new = set()
                for line, col, owner, index in found or ():
                    new |= set(packargs.spread(text, line, col, owner, index)) or {(line, col)}
                if not new - places:
                    break
                places |= new
        finally:
            shutil.rmtree(work, ignore_errors=True)
        if places:
            self.extra[path] = packargs.argument_edits(text, places)
            if t.file != path:
                self.extra[t.file] = self.extra[path]

    def _resolve(self, folder, name, include_dirs):
        """The file a quoted include of `name` in `folder` opens, or None (cached: every file of a
        project asks for the same headers)."""
        key = (folder, name, tuple(include_dirs))
        if key not in self.resolved:
            self.resolved[key] = None
            for d in [folder] + include_dirs:
                c = os.path.normpath(os.path.join(d, name.decode("utf-8", "replace")))
                if os.path.isfile(c):
                    self.resolved[key] = c
                    break
        return self.resolved[key]

    def _includes(self, path):
        if path in self.include_cache:
            return self.include_cache[path]
        try:
            with open(path, "rb") as fh:
                names = QUOTED_INCLUDE.findall(fh.read())
        except OSError:
            names = []
        self.include_cache[path] = names
        return names

    def __bool__(self):
        return bool(self.copies)

    def remove(self):
        if self.write and self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    def col(self, file, line, col):
        """The file's column of column `col` of `line` in file's copy."""
        shift = 0
        for ins in self.files.get(file, ()):
            if ins.line != line:
                continue
            at = ins.col + shift   # where the insertion starts in the copy
            if col >= at + ins.size:
                shift += ins.size
            elif col >= at:
                return ins.col     # inside the inserted text: the '{' it stands for
        return col - shift

    def offset(self, file, offset):
        """The file's byte offset of the copy's `offset`, and whether it falls inside inserted text."""
        shift = 0
        for ins in self.files.get(file, ()):
            at = ins.offset + shift
            if offset >= at + ins.size:
                shift += ins.size
            elif offset >= at:
                return ins.offset, offset > at
        return offset - shift, False

    def touches(self, file, line):
        return any(ins.line == line for ins in self.files.get(file, ()))


def _read(path):
    """A file's text, one character per byte (offsets are clang's columns); None when unreadable."""
    try:
        with open(path, "rb") as fh:
            return fh.read().decode("latin-1")
    except OSError:
        return None


def yaml_quote(text):
    return "'" + text.replace("'", "''") + "'"


LOCATION = re.compile(r"(?P<file>[^\s:'\"]+):(?P<line>\d+):(?P<col>\d+)")


def map_diags(diags, rewrites, directory, snippet):
    """Takes the diagnostics (and their notes) of a run that read copies back to the files' columns;
    a location written in a message (the IR pass's 'the write is at f.cu:8:21') too. On a line the
    copy changed, the source line clang printed is the copy's: it is replaced by the file's own,
    with the caret at the mapped column (snippet(d) makes it)."""
    if not rewrites:
        return diags
    for d in diags:
        for x in [d] + list(d.notes):
            _map_one(x, rewrites, directory, snippet)
    return diags


def _map_one(d, rewrites, directory, snippet):
    if d.file:
        f = os.path.normpath(os.path.join(directory, d.file))
        if rewrites.files.get(f) and rewrites.touches(f, d.line):
            d.col = rewrites.col(f, d.line, d.col)
            d.snippet = snippet(d)

    def place(m):
        f = os.path.normpath(os.path.join(directory, m.group("file")))
        line, col = int(m.group("line")), int(m.group("col"))
        if not rewrites.files.get(f):
            return m.group(0)
        return f"{m.group('file')}:{line}:{rewrites.col(f, line, col)}"
    d.message = LOCATION.sub(place, d.message)


FIX_PATH = re.compile(r"^(\s*(?:- )?)FilePath:\s*(?P<path>'(?:[^']|'')*'|\S+)\s*$")
FIX_NUMBER = re.compile(r"^(?P<indent>\s*(?:- )?)(?P<key>FileOffset|Offset|Length):(?P<space>\s*)(?P<value>\d+)\s*$")


def map_fixes(text, rewrites):
    """An exported fix-its YAML (clang-tidy --export-fixes) of a run that read copies, with its offsets
    in the files' bytes. A diagnostic whose replacement starts or ends inside inserted text cannot be
    mapped and is left out (its finding is still reported)."""
    if not rewrites or "\nDiagnostics:" not in text:
        return text
    head, body = text.split("\nDiagnostics:", 1)
    tail = ""
    if "\n..." in body:
        body, tail = body.split("\n...", 1)
        tail = "\n..." + tail
    items = re.split(r"\n(?=  - )", body)
    out = [items[0]]
    for item in items[1:]:
        mapped = _map_fix_item(item, rewrites)
        if mapped is not None:
            out.append(mapped)
    body = "\n".join(out)
    if len(out) == 1 and len(items) > 1:
        body = " []"
    return head + "\nDiagnostics:" + body + tail


def _map_fix_item(item, rewrites):
    lines = item.split("\n")
    path, start = None, None
    for n, line in enumerate(lines):
        m = FIX_PATH.match(line)
        if m:
            p = m.group("path")
            path = os.path.normpath(p[1:-1].replace("''", "'") if p.startswith("'") else p)
            continue
        m = FIX_NUMBER.match(line)
        if not m or not rewrites.files.get(path):
            continue
        value = int(m.group("value"))
        if m.group("key") == "Length" and start is not None:
            begin, inside_b, copy_begin = start
            end, inside_e = rewrites.offset(path, copy_begin + value)
            if inside_b or inside_e:
                return None
            value = end - begin
        else:
            mapped, inside = rewrites.offset(path, value)
            if m.group("key") == "Offset":
                start = (mapped, inside, value)
            value = mapped
        lines[n] = f"{m.group('indent')}{m.group('key')}:{m.group('space')}{value}"
    return "\n".join(lines)
