"""A template whose later parameters are values with defaults, given for a template template
parameter whose own parameters are a type pack: `template <template <class...> class Map, class K,
class V> using make = Map<K, V>;` then `make<bght::bcht, K, V>`, where `bght::bcht` is
`template <class Key, class T, ..., cuda::thread_scope Scope = ..., int B = 16>` (BGHT's tests).
nvcc (EDG) accepts it and reads `Map<K, V>` as `bcht<K, V>` with its defaults; clang and GCC reject it
([temp.arg.template]: a value parameter cannot match a type pack), and clang's recovery loses the
declaration that holds the argument, often a test suite's list of types, and with it every kernel
instantiated through that list.

The copy (rewrite.py) gives such an argument an alias template with a type pack, declared just before
the namespace-scope declaration that holds it, on the same line:
`template <class... __cuda_scope_T> using __cuda_scope_bght_bcht = bght::bcht<__cuda_scope_T...>;`.
Only where it means what nvcc reads:
- the parameter belongs to an alias template that uses it only as `Map<...>`: the alias is then
  transparent, and `make<alias, K, V>` is `bcht<K, V>`, nvcc's type (a class template's specialization
  would be a new type, named differently from nvcc's);
- clang rejected that very argument: an alias template with type parameters only, which clang accepts
  for the pack, would be broken by the rewrite (a pack cannot expand into an alias template's
  parameters), so the command asks clang first (clang++ -fsyntax-only, host side) for a file that names
  such an alias template;
- every parameter of the argument's template from the first one clang names as not matching has a
  default (without one nvcc rejects `Map<K, V>` too: the error stays);
- the argument is a name (`bcht`, `bght::bcht`, `::bght::bcht`) at namespace scope, outside any class,
  function or template head that could declare the name the alias would not see."""
import bisect
import re
import subprocess

from .rewrite import matching, tokens

PACK_HEAD = re.compile(rb"template\s*<\s*(?:class|typename)\s*\.\.\.")
PREFIX = "__cuda_scope_"
MISMATCH = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): note: template template argument has different "
                      r"template parameters than its corresponding template template parameter\s*$")
NOTE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): note: (?P<what>previous template template parameter "
                  r"is here|template parameter is declared here)\s*$")
NAMESPACE_OPENERS = ("namespace", "extern")


def _toks(s):
    return [(k, a, b, s[a:b] if k == "id" else None) for k, a, b in tokens(s)]


def offset_of(s, line, col):
    """The byte offset of (line, col), both from 1; None past the file."""
    at = 0
    for _ in range(line - 1):
        at = s.find("\n", at)
        if at < 0:
            return None
        at += 1
    return at + col - 1 if at + col - 1 <= len(s) else None


def _angles(toks, lt, braces=False):
    """(the index of the '>' that closes the angle list whose '<' is toks[lt], the indices of its
    top-level commas); (None, []) when it does not close before a ';' or a brace. A '>' inside
    parentheses is a comparison; with `braces`, a braced list inside is an argument."""
    commas, depth, m = [], 0, lt
    while m < len(toks):
        kind = toks[m][0]
        if kind == "<":
            depth += 1
        elif kind == ">":
            depth -= 1
            if depth == 0:
                return m, commas
        elif kind in "([" or (braces and kind == "{"):
            close = matching(toks, m)
            if close is None:
                return None, []
            m = close
        elif kind == "," and depth == 1:
            commas.append(m)
        elif kind in ";{}":
            return None, []
        m += 1
    return None, []


def head_end(toks, lt):
    """The index of the '>' that closes the template head whose '<' is toks[lt]; None when it does not
    close before a ';' or a brace."""
    return _angles(toks, lt)[0]


def _pack_parameters(toks, lt, gt):
    """{offset of P's name: (P, its index among the head's parameters)} for each `template <class...>
    class P` (or typename) in the head toks[lt..gt]."""
    found = {}
    for m in range(lt + 1, gt):
        if toks[m][3] != "template" or toks[m + 1][0] != "<":
            continue
        close = head_end(toks, m + 1)
        if close is None or close + 2 > gt:
            continue
        inner = [t[0] if t[0] != "id" else t[3] for t in toks[m + 2:close]]
        named = inner[:4] if len(inner) == 5 and toks[m + 2 + 4][0] == "id" else inner
        if named[:1] not in (["class"], ["typename"]) or named[1:] != [".", ".", "."]:
            continue
        if toks[close + 1][3] in ("class", "typename") and toks[close + 2][0] == "id":
            index = sum(1 for q in range(lt + 1, m) if toks[q][0] == "," and _depth(toks, lt, q) == 1)
            found[toks[close + 2][1]] = (toks[close + 2][3], index)
    return found


def owners(s):
    """{name: {offset of its pack parameter's name: the parameter's index}} of the alias templates of s
    that have a `template <class...> class P` parameter and use P only as `P<...>` in the type they
    name."""
    if not PACK_HEAD.search(s.encode("latin-1")):
        return {}
    toks = _toks(s)
    out = {}
    for i, t in enumerate(toks):
        if t[3] != "template" or i + 1 >= len(toks) or toks[i + 1][0] != "<":
            continue
        gt = head_end(toks, i + 1)
        if gt is None or gt + 3 >= len(toks) or toks[gt + 1][3] != "using" or toks[gt + 2][0] != "id" \
                or toks[gt + 3][0] != "=":
            continue
        params = _pack_parameters(toks, i + 1, gt)
        if not params:
            continue
        end = gt + 4
        while end < len(toks) and toks[end][0] != ";":
            end += 1
        body = range(gt + 4, end)
        kept = {off: index for off, (name, index) in params.items()
                if all(toks[m + 1][0] == "<" for m in body if toks[m][3] == name)}
        if kept:
            out.setdefault(toks[gt + 2][3], {}).update(kept)
    return out


def names_a_use(s, names):
    return any(re.search(r"\b" + re.escape(n) + r"\s*<", s) for n in names)


def rejected(output, directory, join):
    """[(argument place, parameter place, first unmatched parameter's place)], each (file, line, col)
    with the file joined to directory, from clang's diagnostics `output`."""
    out, lines = [], output.splitlines()
    for n, line in enumerate(lines):
        m = MISMATCH.match(line)
        if not m:
            continue
        places = {}
        for follow in lines[n + 1:n + 12]:
            if ": error: " in follow or ": warning: " in follow:
                break
            f = NOTE.match(follow)
            if f:
                places.setdefault(f.group("what"), (join(directory, f.group("file")), int(f.group("line")),
                                                     int(f.group("col"))))
        if len(places) == 2:
            out.append(((join(directory, m.group("file")), int(m.group("line")), int(m.group("col"))),
                        places["previous template template parameter is here"],
                        places["template parameter is declared here"]))
    return out


def _defaults(toks, lt, gt):
    """For each parameter of the head toks[lt..gt], whether it has a default."""
    out, has_default, j = [], False, lt + 1
    while j < gt:
        kind = toks[j][0]
        if kind in "([":
            j = matching(toks, j) or gt
        elif kind == "<":
            j = head_end(toks, j) or gt
        elif kind == "=":
            has_default = True
        elif kind == ",":
            out.append(has_default)
            has_default = False
        j += 1
    return out + [has_default] if gt > lt + 1 else out


def defaults_from(s, line, col):
    """Whether every template parameter of the class template whose head holds (line, col), from the
    one at that place to the last, has a default in one of the template's declarations in s (a default
    is given once: often on a forward declaration, while clang points at the definition)."""
    at = offset_of(s, line, col)
    toks = _toks(s)
    k = next((m for m, t in enumerate(toks) if t[1] <= at < t[2]), None) if at is not None else None
    if k is None:
        return False
    for m in range(k - 1, -1, -1):
        if toks[m][3] == "template" and m + 1 < len(toks) and toks[m + 1][0] == "<":
            gt = head_end(toks, m + 1)
            if gt is not None and gt > k:
                break
    else:
        return False
    index = sum(1 for q in range(m + 2, k) if toks[q][0] == "," and _depth(toks, m + 1, q) == 1)
    if gt + 2 >= len(toks) or toks[gt + 1][3] not in ("struct", "class", "union") or toks[gt + 2][0] != "id":
        return False
    key, name = toks[gt + 1][3], toks[gt + 2][3]
    heads = []
    for q in range(len(toks) - 1):
        if toks[q][3] == "template" and toks[q + 1][0] == "<":
            end = head_end(toks, q + 1)
            if end is not None and end + 2 < len(toks) and toks[end + 1][3] == key and toks[end + 2][3] == name:
                heads.append(_defaults(toks, q + 1, end))
    this = _defaults(toks, m + 1, gt)
    return index < len(this) and all(any(len(h) > j and h[j] for h in heads) for j in range(index, len(this)))


def _depth(toks, lt, at):
    """The angle depth at toks[at] in the head that opens at toks[lt] (1 at its top level)."""
    depth, m = 0, lt
    while m < at:
        kind = toks[m][0]
        if kind == "<":
            depth += 1
        elif kind == ">":
            depth -= 1
        elif kind in "([":
            m = matching(toks, m) or at
        m += 1
    return depth


DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)


def _opens_namespace(toks, m):
    """Whether the '{' at toks[m] opens a namespace or a linkage specification (extern "C" {)."""
    q = m - 1
    while q >= 0 and (toks[q][0] in ("id", "str") or toks[q][0] == ":"):
        if toks[q][3] in NAMESPACE_OPENERS:
            return True
        q -= 1
    return False


def declaration_start(s, toks, k):
    """(the index of the first token of the namespace-scope declaration that holds toks[k], whether
    toks[k] lies directly in it, in no class or function body). Braces of `namespace` and
    `extern "C"` are scopes, other braces hold; a preprocessor directive separates declarations."""
    spans = [(m.start(), m.end()) for m in DIRECTIVE.finditer(s)]
    firsts = [a for a, _ in spans]
    stack, start = [], 0
    for m in range(k):
        at = toks[m][1]
        n = bisect.bisect_right(firsts, at) - 1
        if n >= 0 and at < spans[n][1]:
            if all(stack):
                start = m + 1
            continue
        kind = toks[m][0]
        if kind == "{":
            scope = all(stack) and _opens_namespace(toks, m)
            stack.append(scope)
            if scope:
                start = m + 1
        elif kind == "}":
            if stack:
                stack.pop()
            if all(stack):
                start = m + 1
        elif kind == ";" and all(stack):
            start = m + 1
    return start, all(stack)


def _head_names(toks, start, k):
    """The names the template heads at the start of the declaration toks[start..k] declare."""
    names, m = set(), start
    while m + 1 < k and toks[m][3] == "template" and toks[m + 1][0] == "<":
        gt = head_end(toks, m + 1)
        if gt is None:
            break
        names |= {toks[q][3] for q in range(m + 2, gt) if toks[q][0] == "id"}
        m = gt + 1
    return names


def _name_start(toks, k):
    """The first token of the qualified name whose last name is toks[k] (clang points at the last):
    `bght::bcht`, `::bcht`; None when a qualifier is no plain name (`decltype(x)::t`, `A<T>::t`,
    `T::template t`)."""
    while k >= 2 and toks[k - 1][0] == ":" and toks[k - 2][0] == ":" and toks[k - 1][1] == toks[k - 2][2]:
        before = toks[k - 3] if k >= 3 else None
        if before is not None and before[0] == "id" and before[3] not in ("template", "typename"):
            k -= 3
        elif before is None or before[0] in "<,(":
            return k - 2
        else:
            return None
    if toks[k][3] in ("template", "typename"):
        return None
    return k


def argument_edits(s, places):
    """The edits (offset, bytes replaced, text, what, how) that give each argument at places ((line,
    col) in s) its alias: one declaration per declaration and name, before it, and the name written
    for the argument. An argument that is not a plain name at namespace scope is left alone."""
    toks = _toks(s)
    by_offset = {t[1]: n for n, t in enumerate(toks)}
    aliases, edits = {}, []
    for line, col in sorted(set(places)):
        at = offset_of(s, line, col)
        k = by_offset.get(at)
        if k is None:
            continue
        k = _name_start(toks, k)
        if k is None:
            continue
        at = toks[k][1]
        parts, m = [], k
        if toks[m][0] == ":" and m + 1 < len(toks) and toks[m + 1][0] == ":":
            m += 2
        while m < len(toks) and toks[m][0] == "id":
            parts.append(toks[m][3])
            if m + 2 < len(toks) and toks[m + 1][0] == ":" and toks[m + 2][0] == ":" and \
                    m + 3 < len(toks) and toks[m + 3][0] == "id":
                m += 3
            else:
                m += 1
                break
        if not parts or m >= len(toks) or toks[m][0] not in ",>":
            continue
        start, direct = declaration_start(s, toks, k)
        if not direct or start >= k or parts[0] in _head_names(toks, start, k):
            continue
        text = s[at:toks[m - 1][2]]
        name = PREFIX + ("_" if text.startswith("::") else "") + "_".join(parts)
        if len(name) <= len(text):
            continue
        key = (toks[start][1], name)
        if key not in aliases:
            aliases[key] = f"template <class... {PREFIX}T> using {name} = {text}<{PREFIX}T...>; "
        edits.append((at, len(text), name, text,
                      f"{name}, an alias template of a type pack for it, declared before its declaration on "
                      f"line {s.count(chr(10), 0, toks[start][1]) + 1} (nvcc accepts a template whose later "
                      f"parameters are values with defaults for a 'template <class...> class' parameter, clang "
                      f"rejects it: clang reads a copy through a VFS overlay, on the same lines)"))
    for (offset, _), text in aliases.items():
        edits.append((offset, 0, text, None, None))
    return edits


def _arguments(toks, lt):
    """[(first, last)] token indices of each argument of the template argument list whose '<' is
    toks[lt]; None when it does not close."""
    close, commas = _angles(toks, lt, braces=True)
    if close is None:
        return None
    firsts = [lt + 1] + [c + 1 for c in commas]
    args = [(f, c - 1) for f, c in zip(firsts, commas)]
    return args + [(firsts[-1], close - 1)] if close > firsts[-1] else args


def _spelled(s, toks, first, last):
    return "".join(s[toks[q][1]:toks[q][2]] for q in range(first, last + 1))


def spread(s, line, col, owner, index):
    """The places (line, col) of the arguments in the declaration that holds (line, col) that are
    spelled as the one there and given to `owner` at parameter `index`: clang reports the first
    rejected argument of a declaration only, and within one declaration a name means one template."""
    toks = _toks(s)
    at = offset_of(s, line, col)
    k = next((m for m, t in enumerate(toks) if t[1] == at), None)
    if k is None:
        return []
    k = _name_start(toks, k)
    if k is None:
        return []
    start, _ = declaration_start(s, toks, k)
    spelled, places, q, depth = None, [], start, 0
    while q < len(toks) - 1:
        kind = toks[q][0]
        if kind in "{(":
            depth += 1
        elif kind in "})":
            depth -= 1
        elif kind == ";" and depth <= 0:
            break
        if toks[q][3] == owner and toks[q + 1][0] == "<":
            args = _arguments(toks, q + 1)
            if args and len(args) > index:
                first, last = args[index]
                places.append((first, last))
                if first == k:
                    spelled = _spelled(s, toks, first, last)
        q += 1
    if spelled is None:
        return []
    return [(s.count("\n", 0, toks[f][1]) + 1, toks[f][1] - (s.rfind("\n", 0, toks[f][1]) + 1) + 1)
            for f, l in places if _spelled(s, toks, f, l) == spelled]


def probe_places(path, argv, directory, join, read, timeout=None):
    """[(line, col, owner, parameter index)] of the arguments in file `path` that clang (argv: clang++
    -fsyntax-only on the host side, run in directory) rejects for a pack parameter of an alias template
    found by owners(), where the argument's template's later parameters all have defaults. None when
    clang cannot be run."""
    try:
        p = subprocess.run(argv, cwd=directory, capture_output=True, text=True, errors="replace",
                           timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None
    out, texts = [], {}
    for arg, param, unmatched in rejected(p.stderr, directory, join):
        if arg[0] != path:
            continue
        for f in (param[0], unmatched[0]):
            if f not in texts:
                texts[f] = read(f)
        ptext = texts[param[0]]
        if ptext is None or texts[unmatched[0]] is None:
            continue
        poff = offset_of(ptext, param[1], param[2])
        owner = next(((name, offs[poff]) for name, offs in owners(ptext).items() if poff in offs), None)
        if owner is None or not defaults_from(texts[unmatched[0]], unmatched[1], unmatched[2]):
            continue
        out.append((arg[1], arg[2]) + owner)
    return out
