"""nvcc syntax that clang's parser rejects and that a same-lines rewrite of the source makes clang
accept: a braced list as a launch's grid or block (`k<<<n, {32, 4, 1}, 0, s>>>(p)`). clang parses
the execution configuration as a plain expression list and stops at the '{' ("expected expression"),
which costs the analysis the whole file; nvcc reads it as a dim3. The command writes a copy of the
file with each such list turned into `dim3(...)` (parentheses: braces would make an int -> unsigned
narrowing an error, which nvcc only warns about) and gives clang-tidy (--vfsoverlay) and clang++
(-ivfsoverlay) a VFS overlay that serves the copy under the file's own name. The copy keeps every
line; the columns it moves, on the lines it changes, are mapped back in every diagnostic, location
and fix-it, so findings point at the user's text."""
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


CONFIGURATION_TEXT = re.compile(rb"<<<(.*?)>>>", re.S)


def rewrite_text(data):
    """(the rewritten bytes, [Insertion], [(Braced, its text, line, col)]) for a file's bytes; (None, [],
    []) when it has no braced list in a launch."""
    # Most files have no launch, or none with a '{' before its '>>>': those are not tokenized.
    if b"<<<" not in data or not any(b"{" in m for m in CONFIGURATION_TEXT.findall(data)):
        return None, [], []
    s = data.decode("latin-1")     # one character per byte: offsets are byte offsets, as clang's columns
    lists = braced_launch_lists(s)
    if not lists:
        return None, [], []
    out, last, inserts, described = [], 0, [], []
    for b in lists:
        line = s.count("\n", 0, b.open) + 1
        col = b.open - (s.rfind("\n", 0, b.open) + 1) + 1
        out += [s[last:b.open], INSERTED + "(", s[b.open + 1:b.close], ")"]
        last = b.close + 1
        inserts.append(Insertion(b.open, line, col, len(INSERTED)))
        described.append((b, s[b.open:b.close + 1], line, col))
    out.append(s[last:])
    return "".join(out).encode("latin-1"), inserts, described


def shorten(text, width=48):
    text = re.sub(r"\s+", " ", text)
    return text if len(text) <= width else text[:width - 4] + " ...}"


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
        self.described = {}    # file -> [(Braced, text, line, col)]
        self.overlays = {}     # frozenset of files -> the overlay that serves their copies
        self.include_cache = {}  # file -> the names it includes with quotes
        self.resolved = {}       # (folder, name, include folders) -> the file a quoted include opens

    def _scan(self, path):
        if path not in self.files:
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
            except OSError:
                self.files[path] = []
                return []
            new, inserts, described = rewrite_text(data)
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

    def prepare(self, t, include_dirs, skip_dirs):
        """The overlay (a YAML file) for translation t, or None when neither its file nor a project
        header it includes with quotes needs a copy. Headers are looked up as clang looks up a quoted
        include (the includer's folder, then the -iquote and -I folders), never in skip_dirs (the
        toolkit, the system), at most 400 of them."""
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
            for b, text, line, col in self.described[f]:
                t.note(f"{shorten(text)} at {os.path.relpath(f, t.directory)}:{line}:{col}",
                       f"dim3({shorten(text[1:-1], 44)}) (a launch's {'grid' if b.argument == 0 else 'block'} as a "
                       f"braced list, which nvcc accepts and clang's parser does not: clang reads a copy with "
                       f"dim3(...) through a VFS overlay; diagnostics name the file, its lines and columns)")
        return self.overlays[key]

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
