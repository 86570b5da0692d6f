#!/usr/bin/env python3
"""The mutation operators of the recall benchmark: for every synchronization point of some CUDA
source files, the mutants that the PTX memory model (or the CUDA runtime's capture and callback
rules) says are broken, each one textual change, plus the equivalences decidable from the text.

USAGE: bench/mutation/mutate.py --list FILE... [--kind KIND] [--json]

The files are read as one unit (a translation unit and its project headers): a host callback
registered in one file and defined in another is found. Comments and string literals are never
changed, except the template strings of asm statements, which are PTX. A mutant keeps every line
where it was (a deleted call that spans lines leaves its line breaks), so that a finding's line in
the mutant is the same line in the original. Standard library only.

Kinds (README.md states each one in the model's terms):
  order     a release, acquire, acq_rel or seq_cst order made relaxed
  fence     a fence deleted, or narrowed to block scope
  scope     an atomic's scope narrowed to block scope
  capture   a capture-safe call swapped for its synchronous twin inside a stream capture, or a
            cudaStreamSynchronize added
  callback  a host callback made to call the CUDA API
"""
import argparse
import bisect
import json
import os
import re
import sys
from dataclasses import dataclass, field

KINDS = ("order", "fence", "scope", "capture", "callback")

# The rules that should report each kind (without the 'cuda-scope-' prefix); by operator where the
# operator differs from its kind.
EXPECTED = {
    "order": ("release-acquire",),
    "fence": ("release-acquire",),
    "fence.narrow": ("release-acquire", "insufficient"),
    "scope": ("mismatch", "insufficient"),
    "capture": ("capture-api",),
    "callback": ("callback-api",),
}

# Kinds on host code only: the device-IR pass has no rule for them (tools/cuda_scope/rules.py).
HOST_KINDS = ("capture", "callback")


def expected_rules(op):
    kind = op.split(".")[0]
    return tuple("cuda-scope-" + r for r in EXPECTED.get(op, EXPECTED[kind]))


# ---------------------------------------------------------------------------------------------
# Lexing: enough of C++ to tell code from comments and literals, and to match brackets
# ---------------------------------------------------------------------------------------------

@dataclass
class Tok:
    kind: str      # id, num, str, chr, punct
    start: int
    end: int
    text: str
    pp: bool = False   # in a preprocessor directive


PUNCTS = ("<<<", ">>>", "...", "::", "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "+=", "-=",
          "*=", "/=", "%=", "&=", "|=", "^=", "##")
ID_RE = re.compile(r"[A-Za-z_$][A-Za-z_0-9$]*")
NUM_RE = re.compile(r"\.?[0-9](?:[eEpP][+-]|'(?=[0-9A-Za-z])|[A-Za-z_0-9.])*")
STR_PREFIX = re.compile(r"(?:u8|u|U|L)?R?(?=[\"'])")
RAW_RE = re.compile(r'(?:u8|u|U|L)?R"([^()\\ \t\n]{0,16})\(')


def _quoted_end(s, i, quote):
    """The end of a quoted literal whose opening quote is at i (lenient: stops at a line end)."""
    j = i + 1
    n = len(s)
    while j < n:
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        if c == "\n":
            return j
        j += 1
    return n


def lex(s):
    """The tokens of source text s, without comments and whitespace."""
    toks = []
    i, n = 0, len(s)
    line_start = True      # nothing but whitespace since the last line break (a # starts a directive)
    in_pp = False
    while i < n:
        c = s[i]
        if c == "\n":
            # a line break ends a directive unless escaped (handled below)
            in_pp = False
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "\\" and s.startswith("\n", i + 1):
            i += 2
            continue
        if c == "\\" and s.startswith("\r\n", i + 1):
            i += 3
            continue
        if s.startswith("//", i):
            j = i
            while True:
                e = s.find("\n", j)
                if e < 0:
                    j = n
                    break
                if s[e - 1] == "\\":  # a continued line comment
                    j = e + 1
                    continue
                j = e
                break
            i = j
            continue
        if s.startswith("/*", i):
            e = s.find("*/", i + 2)
            i = n if e < 0 else e + 2
            continue
        if c == "#" and line_start:
            toks.append(Tok("punct", i, i + 1, "#", True))
            in_pp = True
            line_start = False
            i += 1
            # #error and #warning take free text (an apostrophe is not a literal)
            m = re.compile(r"[ \t]*(error|warning|pragma)\b").match(s, i)
            if m and m.group(1) in ("error", "warning"):
                e = s.find("\n", i)
                i = n if e < 0 else e
            continue
        line_start = False
        m = RAW_RE.match(s, i)
        if m:
            close = ")" + m.group(1) + '"'
            e = s.find(close, m.end())
            e = n if e < 0 else e + len(close)
            toks.append(Tok("str", i, e, s[i:e], in_pp))
            i = e
            continue
        m = STR_PREFIX.match(s, i)
        if m and (m.end() > i or c in "\"'"):
            q = s[m.end()]
            e = _quoted_end(s, m.end(), q)
            toks.append(Tok("str" if q == '"' else "chr", i, e, s[i:e], in_pp))
            i = e
            continue
        m = ID_RE.match(s, i)
        if m:
            toks.append(Tok("id", i, m.end(), m.group(), in_pp))
            i = m.end()
            continue
        m = NUM_RE.match(s, i)
        if m:
            toks.append(Tok("num", i, m.end(), m.group(), in_pp))
            i = m.end()
            continue
        for p in PUNCTS:
            if s.startswith(p, i):
                toks.append(Tok("punct", i, i + len(p), p, in_pp))
                i += len(p)
                break
        else:
            toks.append(Tok("punct", i, i + 1, c, in_pp))
            i += 1
    return toks


OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {v: k for k, v in OPEN.items()}


class Source:
    """One file's text, tokens, bracket pairs, function bodies and asm template strings."""

    def __init__(self, path, text):
        self.path, self.text = path, text
        self.toks = lex(text)
        self.lines = [0] + [m.end() for m in re.finditer(r"\n", text)]
        self.match = {}
        stack = []
        for k, t in enumerate(self.toks):
            if t.kind != "punct" or t.pp:
                continue
            if t.text in OPEN:
                stack.append(k)
            elif t.text in CLOSE:
                # recover from unbalanced code (#if arms): pop to the matching opener
                for depth in range(len(stack) - 1, -1, -1):
                    if self.toks[stack[depth]].text == CLOSE[t.text]:
                        o = stack[depth]
                        del stack[depth:]
                        self.match[o] = k
                        self.match[k] = o
                        break
        # brackets inside a directive (a macro body) pair among themselves
        for start, end in self._directives():
            stack = []
            for k in range(start, end):
                t = self.toks[k]
                if t.kind != "punct":
                    continue
                if t.text in OPEN:
                    stack.append(k)
                elif t.text in CLOSE and stack and self.toks[stack[-1]].text == CLOSE[t.text]:
                    o = stack.pop()
                    self.match[o] = k
                    self.match[k] = o
        self.functions = self._functions()
        self.asm_strings = self._asm_strings()

    def line_of(self, offset):
        return bisect.bisect_right(self.lines, offset)

    def _directives(self):
        k, n = 0, len(self.toks)
        while k < n:
            if self.toks[k].pp and self.toks[k].text == "#":
                j = k + 1
                while j < n and self.toks[j].pp and self.toks[j].text != "#":
                    j += 1
                yield k, j
                k = j
            else:
                k += 1

    def _functions(self):
        """[(open token, close token)] of the outermost function bodies: a '{' outside any function
        whose declaration has a parameter list: a ')' before it (past qualifiers, a trailing return
        type, a constructor's initializer list)."""
        out = []
        k, n = 0, len(self.toks)
        while k < n:
            t = self.toks[k]
            if t.text == "{" and not t.pp and t.kind == "punct" and k in self.match:
                if self._is_function_body(k):
                    out.append((k, self.match[k]))
                    k = self.match[k] + 1
                    continue
            k += 1
        return out

    def _is_function_body(self, k):
        j = k - 1
        steps = 0
        while j >= 0 and steps < 200:
            t = self.toks[j]
            if t.pp:
                return False
            if t.text == ")":
                # a constructor's initializer list: name(args), name{args} ... after ':'
                o = self.match.get(j)
                if o is None:
                    return False
                p = self.toks[o - 1] if o > 0 else None
                if p is not None and p.kind == "id" and p.text in ("if", "while", "for", "switch", "catch"):
                    return False
                return True
            if t.text in (";", "{", "}", "=", "#") and t.kind == "punct":
                if t.text == "}" and j in self.match:   # name{args} in an initializer list
                    j = self.match[j] - 1
                    steps += 1
                    continue
                return False
            if t.kind == "str" or (t.kind == "id" and t.text in ("namespace", "class", "struct", "union", "enum",
                                                                   "extern")):
                return False
            j -= 1
            steps += 1
        return False

    def function_at(self, offset):
        """(first line, last line) of the function body holding offset, or None."""
        for o, c in self.functions:
            if self.toks[o].start <= offset < self.toks[c].end:
                return self.line_of(self.toks[o].start), self.line_of(self.toks[c].start)
        return None

    def body_at(self, k):
        """The function body (open, close) holding token k, or None."""
        for o, c in self.functions:
            if o <= k <= c:
                return o, c
        return None

    def _asm_strings(self):
        """{token index} of the string literals that are asm templates (PTX)."""
        out = set()
        n = len(self.toks)
        for k, t in enumerate(self.toks):
            if t.kind != "id" or t.text not in ("asm", "__asm", "__asm__"):
                continue
            j = k + 1
            while j < n and self.toks[j].kind == "id" and self.toks[j].text in (
                    "volatile", "__volatile__", "__volatile", "goto", "inline"):
                j += 1
            if j >= n or self.toks[j].text != "(":
                continue
            close = self.match.get(j, n)
            for m in range(j + 1, close):
                u = self.toks[m]
                if u.kind == "punct" and u.text in (":", "::"):
                    break
                if u.kind == "str":
                    out.add(m)
        return out

    def args(self, open_k):
        """The arguments of the call whose '(' is token open_k: [(first token, last token)]."""
        close = self.match.get(open_k)
        if close is None:
            return None
        out, start, depth = [], open_k + 1, 0
        for m in range(open_k + 1, close):
            t = self.toks[m]
            if t.kind == "punct" and t.text in OPEN:
                depth += 1
            elif t.kind == "punct" and t.text in CLOSE:
                depth -= 1
            elif t.kind == "punct" and t.text == "," and depth == 0:
                out.append((start, m - 1))
                start = m + 1
        if start <= close - 1:
            out.append((start, close - 1))
        return out

    def span_text(self, a, b):
        return self.text[self.toks[a].start:self.toks[b].end]

    def qualified_start(self, k):
        """The first token of the qualified name ending at token k (cuda::std::memory_order_acquire)."""
        while k >= 2 and self.toks[k - 1].text == "::" and self.toks[k - 2].kind == "id":
            k -= 2
        if k >= 1 and self.toks[k - 1].text == "::":
            k -= 1
        return k


# ---------------------------------------------------------------------------------------------
# Mutants
# ---------------------------------------------------------------------------------------------

@dataclass
class Mutant:
    file: str            # the file the mutation is in (as given)
    start: int           # byte range replaced
    end: int
    replacement: str
    op: str              # kind.operator, e.g. fence.delete
    line: int
    original: str        # the code before and after, one line each (for reports)
    mutated: str
    function: tuple = None          # (first line, last line) of the function body, or None
    equivalent: str = None          # why the mutant is semantically equivalent, when it is
    detail: dict = field(default_factory=dict)

    @property
    def kind(self):
        return self.op.split(".")[0]

    @property
    def ident(self):
        return f"{self.file}:{self.line}:{self.start}:{self.op}"

    def apply(self, text):
        return text[:self.start] + self.replacement + text[self.end:]

    def to_json(self):
        out = {"file": self.file, "line": self.line, "kind": self.kind, "operator": self.op,
               "original": self.original, "mutated": self.mutated}
        if self.function:
            out["function_lines"] = list(self.function)
        if self.equivalent:
            out["equivalent"] = self.equivalent
        if self.detail:
            out["detail"] = self.detail
        return out


def keep_lines(replacement, original):
    """The replacement with as many line breaks as the text it replaces, so no line moves (inside
    a macro body each one continued)."""
    breaks = original.count("\n") - replacement.count("\n")
    if breaks <= 0:
        return replacement
    sep = " \\\n" if "\\\n" in original else "\n"
    return replacement + sep * breaks


def make(src, start, end, replacement, op, **detail):
    replacement = keep_lines(replacement, src.text[start:end])
    line = src.line_of(start)
    ls = src.lines[line - 1]
    le_orig = src.text.find("\n", end)
    le_orig = len(src.text) if le_orig < 0 else le_orig
    # The original and mutated code from the mutation's line to the end of its last line.
    original = src.text[ls:le_orig]
    mutated = src.text[ls:start] + replacement + src.text[end:le_orig]
    return Mutant(src.path, start, end, replacement, op, line, " ".join(original.split()),
                  " ".join(mutated.split()), src.function_at(start), detail=detail)


ORDERS = {"release", "acquire", "acq_rel", "seq_cst", "consume"}
ORDER_RE = re.compile(r"memory_order_(release|acquire|acq_rel|seq_cst|consume)")
NV_ORDER_RE = re.compile(r"(__NV_ATOMIC|__ATOMIC)_(RELEASE|ACQUIRE|ACQ_REL|SEQ_CST|CONSUME)")
FENCE_CALLS = {"atomic_thread_fence", "__atomic_thread_fence", "__nv_atomic_thread_fence",
               "__scoped_atomic_thread_fence"}
THREADFENCES = {"__threadfence": ("sc", "gpu"), "__threadfence_system": ("sc", "sys")}
ATOMIC_FUNCS = {"atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc", "atomicDec",
                "atomicCAS", "atomicAnd", "atomicOr", "atomicXor"}
ATOMIC_TEMPLATES = {"atomic_ref", "atomic", "atomic_flag"}
WIDE_SCOPES = {"thread_scope_device", "thread_scope_system"}
NV_SCOPES = {"__NV_THREAD_SCOPE_DEVICE": "__NV_THREAD_SCOPE_BLOCK",
             "__NV_THREAD_SCOPE_SYSTEM": "__NV_THREAD_SCOPE_BLOCK",
             "__MEMORY_SCOPE_DEVICE": "__MEMORY_SCOPE_WRKGRP",
             "__MEMORY_SCOPE_SYSTEM": "__MEMORY_SCOPE_WRKGRP"}
# Before a call's name, these tokens say it is a statement or an expression, not a declaration.
CALL_PRECEDERS = {";", "{", "}", "(", ")", ",", ":", "?", "=", "&&", "||", "!", "return", "else", "do", "+", "-",
                  "*", "/", "<<", ">>", "==", "!=", "<", ">", "&", "|", "^", "+=", "-=", "[", "#", "throw"}


def is_call(src, k):
    """Token k is a name (possibly qualified) followed by '(' and used as a call, not declared:
    what precedes it is a statement or expression boundary, or the start of a macro's body."""
    if k + 1 >= len(src.toks) or src.toks[k + 1].text != "(":
        return False
    q = src.qualified_start(k)
    if q == 0:
        return True
    prev = src.toks[q - 1]
    if prev.pp and not src.toks[q].pp:
        return True   # the first statement after a directive (#endif)
    if prev.kind == "id":
        if prev.text in CALL_PRECEDERS:
            return True
        # '#define NAME __threadfence()': the body of an object-like macro
        return q >= 3 and src.toks[q - 2].text == "define" and src.toks[q - 3].text == "#" and \
            src.toks[q - 1].end < src.toks[q].start
    if prev.text == "#":
        return False
    return prev.text in CALL_PRECEDERS or prev.kind == "str"


def enclosing_paren(src, k, limit=400):
    """The '(' of the innermost call or parenthesis holding token k, within its statement."""
    j = k - 1
    while j >= 0 and k - j < limit:
        t = src.toks[j]
        if t.kind == "punct":
            if t.text in (";", "{", "}") or (t.pp and t.text == "#"):
                return None
            if t.text in (")", "]"):
                o = src.match.get(j)
                if o is None:
                    return None
                j = o - 1
                continue
            if t.text == "(":
                return j
            if t.text == "[":
                return None
        j -= 1
    return None


def enclosing_angle(src, k, limit=400):
    """The '<' of the innermost template argument list holding token k, or None."""
    depth = 0
    j = k - 1
    while j >= 0 and k - j < limit:
        t = src.toks[j]
        if t.kind == "punct":
            if t.text in (";", "{", "}", "(", "[") or (t.pp and t.text == "#"):
                return None
            if t.text in (")", "]"):
                o = src.match.get(j)
                if o is None:
                    return None
                j = o - 1
                continue
            if t.text == ">":
                depth += 1
            elif t.text == ">>":
                depth += 2
            elif t.text == "<":
                if depth == 0:
                    return j
                depth -= 1
        j -= 1
    return None


def in_argument_position(src, k):
    """The (possibly qualified) name ending at token k is a whole argument of a call."""
    q = src.qualified_start(k)
    if q == 0 or k + 1 >= len(src.toks):
        return False
    before, after = src.toks[q - 1].text, src.toks[k + 1].text
    return before in ("(", ",") and after in (")", ",")


def call_name_of(src, open_k):
    """The name of the function called with the '(' at open_k (a template call's name too)."""
    j = open_k - 1
    if j >= 0 and src.toks[j].text == ">":
        depth = 0
        while j >= 0:
            t = src.toks[j].text
            depth += {">": 1, ">>": 2, "<": -1}.get(t, 0)
            if depth == 0:
                break
            j -= 1
        j -= 1
    return src.toks[j].text if j >= 0 and src.toks[j].kind == "id" else None


# ---- PTX inside asm templates --------------------------------------------------------------

PTX_ACCESS = re.compile(r"(?<![\w.%])(ld|st|atom|red)((?:\.[A-Za-z_][A-Za-z_0-9]*(?:::[A-Za-z_]+)?)+)")
PTX_FENCE = re.compile(r"(?<![\w.%])(?:fence(?:\.(sc|acq_rel|acquire|release))?\.(cta|cluster|gpu|sys)|"
                       r"membar\.(cta|gl|sys))\s*;")
MEMBAR_SCOPE = {"cta": "cta", "gl": "gpu", "sys": "sys"}


def ptx_view(literal):
    """The literal's text with its escapes (\\n, \\t) blanked, same length: PTX words split there."""
    return re.sub(r"\\[ntrvf]", "  ", literal)


def ptx_mutants(src, k):
    t = src.toks[k]
    lit = t.text
    q = lit.find('"')
    if q < 0 or lit[q - 1:q] == "R":
        return []
    view = ptx_view(lit)
    base = t.start
    out = []
    for m in PTX_ACCESS.finditer(view, q + 1):
        quals = m.group(2)
        qstart = m.start(2)
        for qm in re.finditer(r"\.([A-Za-z_][A-Za-z_0-9]*)", quals):
            name = qm.group(1)
            a, b = base + qstart + qm.start(), base + qstart + qm.end()
            if name in ("acquire", "release", "acq_rel"):
                scope = next((q for q in ("cta", "cluster", "gpu", "sys") if re.search(r"\." + q + r"\b", quals)), None)
                out.append(make(src, a, b, ".relaxed", "order.ptx", instruction=m.group(0), order=name,
                                scope=scope, token=k))
            elif name in ("gpu", "sys"):
                mu = make(src, a, b, ".cta", "scope.ptx", instruction=m.group(0))
                if re.search(r"\.shared(?:::cta)?(?![\w:])", quals):
                    mu.equivalent = ("the instruction accesses .shared memory, which only the threads of one block "
                                     "reach, so .cta scope includes every accessor")
                out.append(mu)
    for m in PTX_FENCE.finditer(view, q + 1):
        a, b = base + m.start(), base + m.end()
        order, scope, mscope = m.group(1), m.group(2), m.group(3)
        fscope = scope or MEMBAR_SCOPE[mscope]
        fence = {"order": order or "sc", "scope": fscope, "ptx": True}
        out.append(make(src, a, b, "", "fence.delete", fence=fence, instruction=m.group(0)))
        if fscope in ("gpu", "sys", "cluster"):
            if scope:
                s = base + m.start(2) - 1
                out.append(make(src, s, s + 1 + len(scope), ".cta", "fence.narrow", fence=fence,
                                instruction=m.group(0)))
            else:
                s = base + m.start(3) - 1
                out.append(make(src, s, s + 1 + len(mscope), ".cta", "fence.narrow", fence=fence,
                                instruction=m.group(0)))
    return out


# ---- C++ sites -------------------------------------------------------------------------------

def order_of_args(src, arg_spans):
    """(order, scope) of a fence call's arguments: memory_order_X / __NV_ATOMIC_X and the scope."""
    order, scope = None, None
    for a, b in arg_spans:
        text = src.span_text(a, b)
        m = ORDER_RE.search(text) or re.search(r"memory_order::(\w+)", text)
        if m:
            order = m.group(1).lower()
        m = NV_ORDER_RE.search(text)
        if m:
            order = m.group(2).lower()
        m = re.search(r"thread_scope_(\w+)|__NV_THREAD_SCOPE_(\w+)|__MEMORY_SCOPE_(\w+)", text)
        if m:
            scope = (m.group(1) or m.group(2) or m.group(3)).lower()
    scope = {"block": "cta", "wrkgrp": "cta", "device": "gpu", "system": "sys", "thread": "thread",
             "single": "thread", "cluster": "cluster", "wvfrnt": "warp"}.get(scope, scope)
    return order, scope


def cxx_mutants(src):
    out = []
    toks = src.toks
    n = len(toks)
    for k, t in enumerate(toks):
        if t.kind == "str" and k in src.asm_strings:
            out += ptx_mutants(src, k)
            continue
        if t.kind != "id":
            continue
        name = t.text
        # 1. orders in calls
        m = ORDER_RE.fullmatch(name)
        nvm = NV_ORDER_RE.fullmatch(name)
        qual_order = (name in ORDERS and k >= 2 and toks[k - 1].text == "::" and toks[k - 2].text == "memory_order")
        if (m or nvm or qual_order) and in_argument_position(src, k):
            open_k = enclosing_paren(src, src.qualified_start(k))
            if open_k is None:
                continue
            callee = call_name_of(src, open_k)
            if not callee or callee in ("if", "while", "for", "switch", "return"):
                continue
            if callee == "atomic_signal_fence":
                continue   # a compiler-only fence: nothing in the memory model
            new = "memory_order_relaxed" if m else ("relaxed" if qual_order else nvm.group(1) + "_RELAXED")
            op = "order.fence" if callee in FENCE_CALLS else "order.access"
            order = (m.group(1) if m else name if qual_order else nvm.group(2)).lower()
            mu = make(src, t.start, t.end, new, op, callee=callee, order=order, token=k)
            if op == "order.fence":
                args = src.args(open_k)
                order, scope = order_of_args(src, args)
                mu.detail["fence"] = {"order": order, "scope": scope or "sys"}
                mu.detail["fence_tokens"] = (src.qualified_start(open_k - 1), src.match.get(open_k))
            out.append(mu)
            continue
        # 2. fences
        if name in THREADFENCES and is_call(src, k):
            close = src.match.get(k + 1)
            if close is None or close != k + 2:
                continue
            order, scope = THREADFENCES[name]
            fence = {"order": order, "scope": scope}
            d = make(src, t.start, toks[close].end, "((void)0)", "fence.delete", fence=fence, callee=name)
            d.detail["fence_tokens"] = (k, close)
            nw = make(src, t.start, t.end, "__threadfence_block", "fence.narrow", fence=fence, callee=name)
            nw.detail["fence_tokens"] = (k, close)
            out += [d, nw]
            continue
        if name in FENCE_CALLS and is_call(src, k):
            close = src.match.get(k + 1)
            if close is None:
                continue
            args = src.args(k + 1) or []
            order, scope = order_of_args(src, args)
            if scope is None:
                scope = "sys"   # the std:: forms, and cuda::atomic_thread_fence's default
            fence = {"order": order or "seq_cst", "scope": scope}
            q = src.qualified_start(k)
            d = make(src, toks[q].start, toks[close].end, "((void)0)", "fence.delete", fence=fence, callee=name)
            d.detail["fence_tokens"] = (q, close)
            out.append(d)
            for a, b in args:
                for j in range(a, b + 1):
                    u = toks[j]
                    if u.kind == "id" and (u.text in WIDE_SCOPES or u.text in NV_SCOPES):
                        new = "thread_scope_block" if u.text in WIDE_SCOPES else NV_SCOPES[u.text]
                        nw = make(src, u.start, u.end, new, "fence.narrow", fence=fence, callee=name)
                        nw.detail["fence_tokens"] = (q, close)
                        out.append(nw)
            continue
        # 3. scopes of atomics
        base = name[:-len("_system")] if name.endswith("_system") else name
        if base in ATOMIC_FUNCS and is_call(src, k):
            args = src.args(k + 1) or []
            mu = make(src, t.start, t.end, base + "_block", "scope.builtin", callee=name)
            if args:
                mu.detail["address"] = src.span_text(*args[0])
            out.append(mu)
            continue
        if name in NV_SCOPES and in_argument_position(src, k):
            open_k = enclosing_paren(src, k)
            callee = call_name_of(src, open_k) if open_k is not None else None
            if callee and callee not in FENCE_CALLS and (callee.startswith("__nv_atomic") or
                                                         callee.startswith("__scoped_atomic")):
                mu = make(src, t.start, t.end, NV_SCOPES[name], "scope.builtin", callee=callee)
                args = src.args(open_k) or []
                if args:
                    mu.detail["address"] = src.span_text(*args[0])
                out.append(mu)
            continue
        if name in WIDE_SCOPES:
            q = src.qualified_start(k)
            open_k = enclosing_angle(src, q)
            if open_k is None or toks[open_k - 1].text not in ATOMIC_TEMPLATES:
                continue
            # the object: the declarator's initializer after the template's '>' (name(obj) or name{obj})
            close = None
            depth = 0
            for j in range(open_k, min(n, open_k + 200)):
                depth += {"<": 1, ">": -1, ">>": -2}.get(toks[j].text, 0)
                if depth <= 0:
                    close = j
                    break
            mu = make(src, t.start, t.end, "thread_scope_block", "scope.template", template=toks[open_k - 1].text)
            if close is not None and close + 2 < n and toks[close + 1].kind == "id" and toks[close + 2].text in "({":
                obj = src.match.get(close + 2)
                if obj is not None:
                    mu.detail["address"] = src.span_text(close + 3, obj - 1) if obj > close + 3 else ""
            out.append(mu)
            continue
    return out


# ---- host: stream capture ------------------------------------------------------------------

# async call -> (synchronous twin, index of the stream argument)
CAPTURE_SWAPS = {
    "cudaMemcpyAsync": ("cudaMemcpy", 4, "capture.memcpy"),
    "cudaMemcpy2DAsync": ("cudaMemcpy2D", 6, "capture.memcpy"),
    "cudaMemcpy3DAsync": ("cudaMemcpy3D", 1, "capture.memcpy"),
    "cudaMemcpyToSymbolAsync": ("cudaMemcpyToSymbol", 5, "capture.memcpy"),
    "cudaMemcpyFromSymbolAsync": ("cudaMemcpyFromSymbol", 5, "capture.memcpy"),
    "cudaMemcpyPeerAsync": ("cudaMemcpyPeer", 5, "capture.memcpy"),
    "cudaMemsetAsync": ("cudaMemset", 3, "capture.memset"),
    "cudaMemset2DAsync": ("cudaMemset2D", 5, "capture.memset"),
    "cudaMallocAsync": ("cudaMalloc", 2, "capture.malloc"),
}
BEGIN_CAPTURE = {"cudaStreamBeginCapture", "cudaStreamBeginCaptureToGraph"}
END_CAPTURE = {"cudaStreamEndCapture"}
LEGACY_STREAMS = {"0", "NULL", "nullptr", "cudaStreamLegacy", "0x0", "(cudaStream_t)0", "cudaStream_t(0)",
                  "(cudaStream_t)nullptr"}


def statement_end(src, k, limit):
    """The token after which a statement that contains token k ends: its ';', or the '}' of a
    block it opens (the body of an if whose condition begins the capture)."""
    depth = 0
    j = k
    while j < limit:
        t = src.toks[j]
        if t.kind == "punct":
            if t.text in ("(", "["):
                depth += 1
            elif t.text in (")", "]"):
                depth -= 1
                if depth < 0:
                    depth = 0
            elif t.text == ";" and depth == 0:
                return j
            elif t.text == "{" and depth == 0 and j in src.match:
                c = src.match[j]
                if c + 1 < limit and src.toks[c + 1].text == "else":
                    j = c + 1
                    continue
                return c
            elif t.text == "}" and depth == 0:
                return None
        j += 1
    return None


def capture_mutants(src):
    out = []
    toks = src.toks
    for o, c in src.functions:
        k = o
        while k < c:
            t = toks[k]
            if t.kind == "id" and t.text in BEGIN_CAPTURE and k + 1 < c and toks[k + 1].text == "(":
                args = src.args(k + 1) or []
                end = None
                for j in range(src.match.get(k + 1, k + 1), c):
                    if toks[j].kind == "id" and toks[j].text in END_CAPTURE and toks[j + 1].text == "(":
                        end = j
                        break
                if end is None or not args:
                    k += 1
                    continue
                stream = src.span_text(*args[0])
                mode = src.span_text(*args[-1]) if len(args) >= 2 else ""
                region = {"begin_line": src.line_of(t.start), "end_line": src.line_of(toks[end].start),
                          "stream": stream, "mode": mode}
                # cudaStreamSynchronize(stream) as the statement after the begin
                se = statement_end(src, src.match.get(k + 1, k + 1), end)
                if se is not None:
                    at = toks[se].end
                    out.append(make(src, at, at, f" cudaStreamSynchronize({stream});", "capture.sync",
                                    region=region))
                for j in range(k + 2, end):
                    u = toks[j]
                    if u.kind != "id" or u.text not in CAPTURE_SWAPS or toks[j + 1].text != "(" or not is_call(src, j):
                        continue
                    twin, index, op = CAPTURE_SWAPS[u.text]
                    cargs = src.args(j + 1) or []
                    if len(cargs) > index + 1:
                        continue
                    if len(cargs) == index + 1:
                        # drop ', stream' (from the end of the argument before it)
                        a = toks[cargs[index - 1][1]].end
                        b = toks[cargs[index][1]].end
                        call_stream = src.span_text(*cargs[index])
                        mu = make(src, u.start, b, twin + src.text[u.end:a], op, region=region, callee=u.text,
                                  stream=call_stream)
                    else:
                        call_stream = None
                        mu = make(src, u.start, u.end, twin, op, region=region, callee=u.text, stream=None)
                    out.append(mu)
                k = end
            k += 1
    return out


# ---- host: callbacks ---------------------------------------------------------------------

# registration -> (index of the callback argument, what the inserted calls are)
REGISTRARS = {"cudaLaunchHostFunc": 1, "cudaStreamAddCallback": 1, "cuLaunchHostFunc": 1, "cuStreamAddCallback": 1}
CALLBACK_CALLS = {
    "runtime": (("callback.sync", "cudaDeviceSynchronize();"), ("callback.api", "cudaFree({null});")),
    "driver": (("callback.sync", "cuCtxSynchronize();"), ("callback.api", "cuMemFree(0);")),
}


def callback_names(src):
    """[(token index of the registration, callback name or None, lambda body '{' index or None)]."""
    out = []
    toks = src.toks
    for k, t in enumerate(toks):
        if t.kind != "id" or t.text not in REGISTRARS or not is_call(src, k):
            continue
        args = src.args(k + 1) or []
        idx = REGISTRARS[t.text]
        if len(args) <= idx:
            continue
        a, b = args[idx]
        if toks[a].text == "[":
            # a lambda: its body's '{'
            for j in range(a, b + 1):
                if toks[j].text == "{":
                    out.append((k, None, j))
                    break
            continue
        names = [toks[j].text for j in range(a, b + 1) if toks[j].kind == "id" and toks[j].text not in (
            "reinterpret_cast", "static_cast", "cudaHostFn_t", "cudaStreamCallback_t", "CUhostFn", "CUstreamCallback",
            "void", "const", "this")]
        if not names:
            continue
        name, lam = names[-1], None
        # a variable of the registering function: what it is initialized or assigned with
        body = src.body_at(k)
        if body is not None:
            for j in range(body[0], k):
                if toks[j].kind != "id" or toks[j].text != name or toks[j + 1].text not in ("=", "(", "{"):
                    continue
                if toks[j - 1].text in (".", "->", "::"):
                    continue
                first = j + 2
                if toks[first].text == "[":
                    lam = next((m for m in range(first, min(len(toks), first + 60))
                                if toks[m].text == "{" and m in src.match), None)
                    break
                if toks[first].text == "&":
                    first += 1
                if toks[first].kind == "id" and toks[first + 1].text in (";", ")", "}"):
                    name = toks[first].text
                    break
        out.append((k, None, lam) if lam is not None else (k, name, None))
    return out


def definition_body(src, name):
    """The '{' of the definition of function `name` in src, or None."""
    toks = src.toks
    for k, t in enumerate(toks):
        if t.kind != "id" or t.text != name or k + 1 >= len(toks) or toks[k + 1].text != "(":
            continue
        q = src.qualified_start(k)
        prev = toks[q - 1] if q > 0 else None
        if prev is None or not (prev.kind == "id" or prev.text in ("*", "&", ">", "::")) or \
                prev.text in CALL_PRECEDERS:
            continue
        close = src.match.get(k + 1)
        if close is None:
            continue
        j = close + 1
        while j < len(toks) and toks[j].kind == "id" and toks[j].text in ("const", "noexcept", "override",
                                                                          "final", "throw"):
            j += 1
        if j < len(toks) and toks[j].text == "{" and src.body_at(j) in (None, (j, src.match.get(j))):
            return j
    return None


def callback_mutants(sources):
    out = []
    seen = set()
    for src in sources:
        for reg, name, lam in callback_names(src):
            api = "driver" if src.toks[reg].text.startswith("cu") and not src.toks[reg].text.startswith("cuda") \
                else "runtime"
            where = None
            if lam is not None:
                where = (src, lam)
            else:
                for other in [src] + [s for s in sources if s is not src]:
                    b = definition_body(other, name)
                    if b is not None:
                        where = (other, b)
                        break
            if where is None:
                continue
            body_src, brace = where
            key = (body_src.path, brace)
            if key in seen:
                continue
            seen.add(key)
            at = body_src.toks[brace].end
            null = "0" if body_src.path.endswith(".c") else "nullptr"
            for op, call in CALLBACK_CALLS[api]:
                out.append(make(body_src, at, at, " " + call.format(null=null), op, callback=name or "(lambda)",
                                registered=f"{src.path}:{src.line_of(src.toks[reg].start)}",
                                registrar=src.toks[reg].text))
    return out


# ---------------------------------------------------------------------------------------------
# Equivalences decided from the text
# ---------------------------------------------------------------------------------------------

ORDER_SETS = {None: set(), "relaxed": set(), "acquire": {"acq"}, "consume": {"acq"}, "release": {"rel"},
              "acq_rel": {"acq", "rel"}, "seq_cst": {"acq", "rel", "sc"}, "sc": {"acq", "rel", "sc"}}
SCOPE_RANK = {"thread": 0, "warp": 1, "cta": 2, "cluster": 3, "gpu": 4, "sys": 5}


def covers(g, f):
    """Fence g orders at least what fence f orders: its order includes f's, its scope f's."""
    return ORDER_SETS.get(g["order"], set()) >= ORDER_SETS.get(f["order"], set()) and \
        SCOPE_RANK.get(g["scope"], -1) >= SCOPE_RANK.get(f["scope"], 99)


def fence_statements(src, muts):
    """[(first token, last token incl. ';', fence)] of the statements that are one fence: a C++
    fence call, or an asm statement whose template is one fence instruction."""
    out = {}
    toks = src.toks
    for mu in muts:
        if mu.file != src.path or "fence" not in mu.detail:
            continue
        span = mu.detail.get("fence_tokens")
        if span is None:
            continue
        a, b = span
        if b is not None and b + 1 < len(toks) and toks[b + 1].text == ";":
            out[a] = (a, b + 1, mu.detail["fence"])
    for k in src.asm_strings:
        text = ptx_view(toks[k].text)
        body = text[text.find('"') + 1:-1].strip()
        m = PTX_FENCE.fullmatch(body)
        if not m:
            continue
        # the asm statement: back to 'asm', forward to its ';'
        a = k
        while a > 0 and toks[a].text not in ("asm", "__asm", "__asm__"):
            a -= 1
        j = a + 1
        while toks[j].kind == "id":
            j += 1
        close = src.match.get(j)
        if close is None or close + 1 >= len(toks) or toks[close + 1].text != ";":
            continue
        strings = [m2 for m2 in src.asm_strings if j < m2 < close]
        if len(strings) != 1:
            continue
        fence = {"order": m.group(1) or "sc", "scope": m.group(2) or MEMBAR_SCOPE[m.group(3)]}
        out[a] = (a, close + 1, fence)
    return [out[a] for a in sorted(out)]


def shared_names(src, k):
    """Names declared __shared__ at file scope or in the function body holding token k."""
    names = set()
    body = src.body_at(k)
    toks = src.toks
    for j, t in enumerate(toks):
        if t.kind != "id" or t.text != "__shared__":
            continue
        b = src.body_at(j)
        if b is not None and b != body:
            continue
        # the declarators up to ';': identifiers followed by '[', ';', '=', ','
        m = j + 1
        while m < len(toks) and toks[m].text != ";":
            if toks[m].kind == "id" and m + 1 < len(toks) and toks[m + 1].text in ("[", ";", "=", ",") and \
                    toks[m - 1].text != "::":
                names.add(toks[m].text)
            if toks[m].text in OPEN and m in src.match:
                m = src.match[m]
            m += 1
    # pointers of the function initialized into them: T *p = smem + x; (one level, declarations only)
    if body is not None and names:
        for j in range(body[0], body[1]):
            if toks[j].text == "*" and toks[j + 1].kind == "id" and toks[j + 2].text == "=":
                m = j + 3
                while m < body[1] and toks[m].text != ";":
                    if toks[m].kind == "id" and toks[m].text in names and toks[m - 1].text not in (".", "->"):
                        names.add(toks[j + 1].text)
                        break
                    m += 1
    return names


def is_kernel_body(src, open_k):
    """Whether the '{' at open_k opens the body of a __global__ function."""
    if open_k is None or (open_k, src.match.get(open_k)) not in src.functions:
        return False
    j = open_k - 1
    while j >= 0 and src.toks[j].text not in (";", "}", "{") and not src.toks[j].pp:
        if src.toks[j].text == "__global__":
            return True
        j -= 1
    return False


def statement_of(src, k):
    """(first, last) token of the statement that holds token k, its ';' last; directives inside it
    (an asm template's #if arms) are part of it. None when k is not in a plain statement."""
    toks = src.toks
    j = k
    while j > 0:
        t = toks[j - 1]
        if t.pp or t.kind != "punct":
            j -= 1
            continue
        if t.text in (";", "{", "}"):
            break
        if t.text in (")", "]") and (j - 1) in src.match:
            j = src.match[j - 1]
            continue
        j -= 1
    while j < k and toks[j].pp:
        j += 1
    e, depth = k, 0
    while e < len(toks):
        t = toks[e]
        if not t.pp and t.kind == "punct":
            if t.text in ("(", "["):
                depth += 1
            elif t.text in (")", "]"):
                depth -= 1
            elif t.text in ("{", "}"):
                return None
            elif t.text == ";" and depth <= 0:
                return j, e
        e += 1
    return None


def neighbour_statement(src, span, after):
    """The statement right before (after=False) or after span in the same block, or None."""
    toks = src.toks
    if after:
        j = span[1] + 1
        while j < len(toks) and toks[j].pp:
            j += 1
        if j >= len(toks) or toks[j].text in ("}", "{"):
            return None
        return statement_of(src, j)
    j = span[0] - 1
    while j >= 0 and toks[j].pp:
        j -= 1
    if j < 0 or toks[j].text != ";":
        return None
    j -= 1
    while j >= 0 and toks[j].pp:
        j -= 1
    return statement_of(src, j) if j >= 0 else None


def weakest(fences):
    """The fence that each of fences orders at least as much as (the #if arms of a wrapper)."""
    common = set.intersection(*[ORDER_SETS.get(f["order"], set()) for f in fences])
    order = next((o for o in ("seq_cst", "acq_rel", "acquire", "release") if ORDER_SETS[o] == common), "relaxed")
    scope = min((f["scope"] for f in fences), key=lambda sc: SCOPE_RANK.get(sc, -1))
    return {"order": order, "scope": scope}


def fence_wrappers(sources, muts):
    """{name: fence} of the functions whose body is nothing but fences (in every #if arm):
    membar_acq_rel() { asm("fence.acq_rel.gpu;"); }. A call of one is a fence."""
    found = {}
    for src in sources:
        stmts = {a: (b, f) for a, b, f in fence_statements(src, [m for m in muts if m.file == src.path])}
        for o, c in src.functions:
            name = function_name(src, o)
            if not name:
                continue
            k, fences, ok = o + 1, [], True
            while k < c:
                if src.toks[k].pp:
                    k += 1
                    continue
                if k not in stmts:
                    ok = False
                    break
                b, f = stmts[k]
                fences.append(f)
                k = b + 1
            if ok and fences:
                found.setdefault(name, []).append(weakest(fences))
            elif name in found or not ok:
                found.setdefault(name, []).append(None)
    return {n: weakest(fs) for n, fs in found.items() if fs and all(fs)}


def fence_in(src, span, stmts, wrappers):
    """The fence that the statement span is (a fence statement or a call of a fence wrapper), or None."""
    if span is None:
        return None
    a, b = span
    if a in stmts and stmts[a][0] == b:
        return stmts[a][1]
    words = [t.text for t in src.toks[a:b + 1] if not t.pp]
    if len(words) == 4 and words[1:] == ["(", ")", ";"] and words[0] in wrappers:
        return wrappers[words[0]]
    return None


def release_acquire_covered(src, mu, stmts, wrappers):
    """Why weakening mu's order changes nothing, or None: the fence right before it (a release
    fence then a strong write is a release pattern) and the fence right after it (a strong read
    then an acquire fence is an acquire pattern) already give what the order gave."""
    order = mu.detail.get("order")
    if order not in ("release", "acquire", "acq_rel"):
        return None
    k = mu.detail.get("token")
    span = statement_of(src, k) if k is not None else None
    if span is None:
        return None
    words = {t.text for t in src.toks[span[0]:span[1] + 1] if t.kind == "id" and not t.pp}
    if words & {"if", "while", "for", "switch", "do", "return"}:
        return None
    if mu.op == "order.ptx":
        # every string of the asm template is at most one instruction
        for j in src.asm_strings:
            if span[0] <= j <= span[1] and ptx_view(src.toks[j].text).count(";") > 1:
                return None
    scope = mu.detail.get("scope") or "sys"
    reasons = []
    if order in ("release", "acq_rel"):
        before = neighbour_statement(src, span, after=False)
        f = fence_in(src, before, stmts, wrappers)
        if f is None or not covers(f, {"order": "release", "scope": scope}):
            return None
        reasons.append(f"the fence right before it (line {src.line_of(src.toks[before[0]].start)}: "
                       f"{src.span_text(*before)}) and the relaxed write form a release pattern")
    if order in ("acquire", "acq_rel"):
        after = neighbour_statement(src, span, after=True)
        f = fence_in(src, after, stmts, wrappers)
        if f is None or not covers(f, {"order": "acquire", "scope": scope}):
            return None
        reasons.append(f"the relaxed read and the fence right after it (line "
                       f"{src.line_of(src.toks[after[0]].start)}: {src.span_text(*after)}) form an acquire pattern")
    return "; ".join(reasons) + f", of {scope} scope or wider, as the PTX model defines them: the {order} it loses " \
                                "is already there"


def decide_equivalence(src, muts, wrappers=None):
    """Marks the mutants of src that change nothing the memory model sees."""
    fences = fence_statements(src, muts)
    by_token = {f[0]: n for n, f in enumerate(fences)}
    for mu in muts:
        if mu.file != src.path:
            continue
        if "fence" in mu.detail:
            a = mu.detail.get("fence_tokens", (None,))[0]
            n = by_token.get(a)
            if n is None:
                # an asm fence: the statement whose template holds the mutation
                for m2, (fa, fb, _) in enumerate(fences):
                    if src.toks[fa].start <= mu.start < src.toks[fb].end:
                        n = m2
                        break
            if n is not None:
                f = fences[n]
                close = f[1] + 1
                if close < len(src.toks) and src.toks[close].text == "}" and is_kernel_body(src, src.match.get(close)):
                    mu.equivalent = ("the fence is the last statement of a kernel: no memory operation of the thread "
                                     "follows it, so it orders nothing, and the kernel's end orders its writes "
                                     "before later work")
                for m2 in (n - 1, n + 1):
                    if 0 <= m2 < len(fences):
                        g = fences[m2]
                        adjacent = g[0] == f[1] + 1 if m2 > n else f[0] == g[1] + 1
                        if adjacent and covers(g[2], f[2]):
                            mu.equivalent = (f"the fence next to it at line {src.line_of(src.toks[g[0]].start)} "
                                             f"({src.span_text(g[0], g[1])}) orders the same or more, with nothing "
                                             f"between them")
                            break
        if mu.op in ("order.ptx", "order.access") and not mu.equivalent:
            stmts = {a: (b, f) for a, b, f in fences}
            mu.equivalent = release_acquire_covered(src, mu, stmts, wrappers or {})
        if mu.kind == "scope" and "address" in mu.detail:
            k = bisect.bisect_left([t.start for t in src.toks], mu.start)
            addr = mu.detail["address"]
            m = re.match(r"\s*&?\s*\(?\s*([A-Za-z_]\w*)", addr)
            if m and m.group(1) in shared_names(src, k):
                mu.equivalent = (f"the object '{m.group(1)}' is __shared__: only the threads of one block can "
                                 f"reach it, so block scope includes every accessor")
        if mu.kind == "capture":
            region = mu.detail.get("region", {})
            stream = mu.detail.get("stream", "")
            if mu.op in ("capture.memcpy", "capture.memset") and (mu.detail.get("stream") is None or
                                                                 re.sub(r"\s", "", stream) in LEGACY_STREAMS):
                mu.equivalent = ("the original call already runs on the legacy stream (its stream argument is "
                                 f"{stream or 'left out'}): it is the same escape from the capture")
            elif mu.op == "capture.malloc" and region.get("mode", "").endswith("cudaStreamCaptureModeRelaxed"):
                mu.equivalent = ("the capture is begun in cudaStreamCaptureModeRelaxed, where cudaMalloc is "
                                 "allowed and does not touch the capture (evidence/h100-probe/RESULTS.md)")


def function_name(src, open_k):
    """The name of the function whose body opens at token open_k (None for a lambda)."""
    j = open_k - 1
    while j >= 0 and src.toks[j].text != ")":
        if src.toks[j].text in (";", "{", "}"):
            return None
        j -= 1
    o = src.match.get(j)
    # a constructor's initializer list: back over name(args) pairs to the parameter list
    while o is not None and o >= 2 and src.toks[o - 2].text in (",", ":") and src.toks[o - 1].kind == "id":
        k = o - 3
        if k < 0 or src.toks[k].text != ")" or k not in src.match:
            break
        o = src.match[k]
    if o is None or o == 0:
        return None
    t = src.toks[o - 1]
    return t.text if t.kind == "id" and t.text not in ("if", "while", "for", "switch", "catch") else None


def declaration_words(src, open_k):
    """The identifiers of a function's declaration before its parameter list (__global__, static ...)."""
    j = open_k - 1
    words = set()
    while j >= 0 and src.toks[j].text not in (";", "{", "}") and not src.toks[j].pp:
        if src.toks[j].kind == "id":
            words.add(src.toks[j].text)
        j -= 1
    return words


def mark_reached(sources, muts):
    """Each mutant's function, and whether host code reaches it by name: the roots are the functions
    host code can call (neither __global__ nor __device__ only: main, a library's entry points), and a
    function or macro named in the body of a reached one is reached (by name: overloads are one). A
    mutation in code nothing reaches can only be seen by a front end that reads every function,
    run or not; it still counts as broken, and run.py prints recall without it too."""
    bodies = {}      # name -> set of identifiers in its bodies (functions and macros)
    roots = set()
    macros = {}      # macro name -> (file, line) of each place the unit names it outside its definition
    calls = {}       # function name -> (file, line) of each call of it in a function or macro body
    for src in sources:
        for start, end in src._directives():
            if end - start >= 3 and src.toks[start + 1].text == "define":
                macros.setdefault(src.toks[start + 2].text, [])
    for src in sources:
        in_body = bytearray(len(src.toks))
        for o, c in src.functions:
            in_body[o:c + 1] = b"\x01" * (c + 1 - o)
        for k, t in enumerate(src.toks):
            # a call: a name followed by its argument list in a function or macro body (not a destructor)
            if t.kind == "id" and (in_body[k] or t.pp) and k + 1 < len(src.toks) and src.toks[k + 1].text == "(" \
                    and (k == 0 or src.toks[k - 1].text != "~"):
                calls.setdefault(t.text, []).append((src.path, src.line_of(t.start)))
            if t.kind == "id" and t.text in macros and not t.pp:
                macros[t.text].append((src.path, src.line_of(t.start)))
                # a macro used outside any function (or macro) body defines code there: a root
                if not in_body[k] and not t.pp:
                    roots.add(t.text)
    for src in sources:
        for o, c in src.functions:
            name = function_name(src, o)
            if not name:
                continue
            ids = bodies.setdefault(name, set())
            ids.update(t.text for t in src.toks[o:c] if t.kind == "id")
            words = declaration_words(src, o)
            if "__global__" not in words and ("__device__" not in words or "__host__" in words):
                roots.add(name)
        for start, end in src._directives():
            if end - start >= 3 and src.toks[start + 1].text == "define":
                ids = bodies.setdefault(src.toks[start + 2].text, set())
                ids.update(t.text for t in src.toks[start + 3:end] if t.kind == "id")
    reached, work = set(roots), list(roots)
    while work:
        for name in bodies.get(work.pop(), ()):
            if name in bodies and name not in reached:
                reached.add(name)
                work.append(name)
    by_path = {s.path: s for s in sources}
    for m in muts:
        src = by_path[m.file]
        k = bisect.bisect_left([t.start for t in src.toks], m.start)
        k = min(k, len(src.toks) - 1)
        body = src.body_at(k) if m.function else None
        name = function_name(src, body[0]) if body else None
        if name is None and not m.function:
            # in a macro's body: the macro
            for start, end in src._directives():
                if src.toks[start].start <= m.start < src.toks[end - 1].end and end - start >= 3 and \
                        src.toks[start + 1].text == "define":
                    name = src.toks[start + 2].text
        if name:
            m.detail["function_name"] = name
            m.detail["function_reached"] = name in reached
        if name and not body and name in macros:
            # a finding in the macro's code is placed where it is expanded
            m.detail["expansions"] = sorted(set(macros[name]))[:50]
        if name and body and calls.get(name):
            # a helper's code acts where it is called (a fence in a wrapper orders the accesses around
            # each call): a finding next to a call of it is next to the mutation
            m.detail["calls"] = sorted(set(calls[name]))[:50]
        if body:
            words = declaration_words(src, body[0])
            m.detail["function_side"] = "device" if "__global__" in words or (
                "__device__" in words and "__host__" not in words) else \
                "host-device" if "__device__" in words else "host"


def mutants_of(files, kinds=KINDS):
    """Every mutant of the files (a {path: text} unit), in file and offset order, equivalences decided."""
    sources = [Source(p, t) for p, t in files.items()]
    out = []
    for src in sources:
        muts = []
        if set(kinds) & {"order", "fence", "scope"}:
            muts += cxx_mutants(src)
        if "capture" in kinds:
            muts += capture_mutants(src)
        out += muts
    if "callback" in kinds:
        out += callback_mutants(sources)
    wrappers = fence_wrappers(sources, out)
    for src in sources:
        decide_equivalence(src, [m for m in out if m.file == src.path], wrappers)
    out = [m for m in out if m.kind in kinds]
    out.sort(key=lambda m: (m.file, m.start, m.op))
    mark_reached(sources, out)
    for m in out:
        m.detail.pop("fence_tokens", None)
        m.detail.pop("token", None)
    return out


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", nargs="+", metavar="FILE", required=True,
                    help="print the mutants of these files (read as one unit) without running anything")
    ap.add_argument("--kind", action="append", choices=KINDS, help="only these kinds (repeatable)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of one line per mutant")
    args = ap.parse_args(argv)
    files = {}
    for p in args.list:
        with open(p, encoding="utf-8", errors="surrogateescape") as fh:
            files[p] = fh.read()
    muts = mutants_of(files, tuple(args.kind or KINDS))
    if args.json:
        json.dump([m.to_json() for m in muts], sys.stdout, indent=1)
        print()
        return 0
    for m in muts:
        eq = f"  [equivalent: {m.equivalent}]" if m.equivalent else ""
        print(f"{m.file}:{m.line}: {m.op}: {m.original}\n    -> {m.mutated}{eq}")
    counts = {}
    for m in muts:
        counts[m.op] = counts.get(m.op, 0) + 1
    print(f"{len(muts)} mutant(s): " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
