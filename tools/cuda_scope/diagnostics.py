"""Reading what the analysers print: clang-tidy's diagnostics, the IR pass's remarks (their rule
read from the optimization record), the claim a finding makes, and the nvcc dialect clang rejects."""
import os
import re
from dataclasses import dataclass, field

from .common import source_line
from .rewrite import tokens

HEADER = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<level>warning|error|fatal error|note|remark): "
                    r"(?P<msg>.*)$")
NOLOC = re.compile(r"^(?P<level>warning|error|fatal error|note): (?P<msg>.*)$")
CHECK = re.compile(r"^(?P<msg>.*) \[(?P<check>[A-Za-z0-9_.-]+(?:,[A-Za-z0-9_.-]+)*)\]$")


@dataclass(eq=False)
class Diag:
    """One diagnostic of clang-tidy or clang++: a finding (it names a check), an error, a note."""
    level: str                        # warning, error, fatal error, note, remark
    file: str                         # None when it has no place
    line: int
    col: int
    message: str
    check: str                        # the check or rule; None for clang's own diagnostics
    snippet: list = field(default_factory=list)  # the source lines clang printed under it
    notes: list = field(default_factory=list)
    sides: list = field(default_factory=list)    # the runs that reported it ('host', 'device sm_90', ...)
    no_location: bool = False                    # an IR remark with no debug location
    part: str = None                             # a Dialect error: the name of the part it stands for
    context: list = None                         # an error's instantiation notes, when clang left them out

    @property
    def is_error(self):
        return self.level in ("error", "fatal error") and (not self.check or self.check.startswith("clang-diagnostic"))

    def key(self):
        return (self.file, self.line, self.col, self.check, self.message)

    def header(self):
        loc = f"{self.file}:{self.line}:{self.col}: " if self.file else ""
        suffix = f" [{self.check}]" if self.check else ""
        return f"{loc}{self.level}: {self.message}{suffix}"


def parse_output(text):
    diags, current = [], None
    for line in text.splitlines():
        m = HEADER.match(line) or NOLOC.match(line)
        if not m:
            if current is not None:
                current.snippet.append(line)
            continue
        g = m.groupdict()
        msg, check = g["msg"], None
        c = CHECK.match(msg)
        if c:
            msg, check = c.group("msg"), c.group("check").split(",")[0]
        file = os.path.normpath(g["file"]) if g.get("file") else None
        d = Diag(g["level"], file, int(g["line"]) if g.get("line") else 0, int(g["col"]) if g.get("col") else 0,
                 msg, check)
        if g["level"] == "note" and diags:
            diags[-1].notes.append(d)
        else:
            diags.append(d)
        current = d
    return diags


REMARK_SUFFIX = re.compile(r" \[-Rpass-analysis=cuda-scope\]$")
NO_LOCATION = "note: could not determine the original source location"
YAML_DOC = re.compile(r"^--- !", re.M)
YAML_NAME = re.compile(r"^Name:\s*(\S+)", re.M)
YAML_LOC = re.compile(r"^DebugLoc:\s*\{\s*File:\s*(?:'((?:[^']|'')*)'|([^,]*)),\s*Line:\s*(\d+),\s*Column:\s*(\d+)\s*\}",
                      re.M | re.S)


def remark_names(yaml_path):
    """[(line, column, name)] of the pass's remarks in an optimization record, in emission order."""
    try:
        with open(yaml_path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return []
    names = []
    for doc in YAML_DOC.split(text)[1:]:
        m, loc = YAML_NAME.search(doc), YAML_LOC.search(doc)
        if m:
            names.append((int(loc.group(3)) if loc else 0, int(loc.group(4)) if loc else 0, m.group(1)))
    return names


def pass_diagnostics(err, yaml_path):
    """clang++'s diagnostics of a run with the pass: the pass's remarks, each with its rule read from
    the optimization record (clang prints a remark's name nowhere else), and clang's own. Returns
    (remarks, others); a remark without a debug location is marked no_location."""
    lines, noloc, pending = [], [], False
    for line in err.splitlines():
        if NO_LOCATION in line:
            pending = True
            continue
        m = HEADER.match(line)
        if m and m.group("level") == "remark":
            noloc.append(pending)
            pending = False
        lines.append(line)
    diags = parse_output("\n".join(lines))
    remarks = [d for d in diags if d.level == "remark"]
    records = remark_names(yaml_path)
    # The record and the remarks come from one emission, in the same order: pair them in order
    # when they agree, else by place.
    in_order = len(records) == len(remarks) and all(
        (r[0], r[1]) in ((d.line, d.col), (0, 0)) for r, d in zip(records, remarks))
    for k, d in enumerate(remarks):
        d.check = "cuda-scope"
        if in_order:
            d.check = records[k][2]
        else:
            for j, (line, col, name) in enumerate(records):
                if (line, col) == (d.line, d.col) or (noloc[k] and line == 0):
                    d.check = name
                    del records[j]
                    break
        d.message = REMARK_SUFFIX.sub("", d.message)
        d.no_location = noloc[k]
    return remarks, [d for d in diags if d.level != "remark"]


def claim_of(message):
    """What a finding's message says happens at its place, in words both front ends' messages share,
    so that one bug that clang-tidy and the IR pass both report is one finding (and one claim to
    judge, in bench/realcode/precision.py)."""
    for words, claim in ((" orders the message", "fence"), (" is published here", "publish"),
                         (" is received here", "receive")):
        if words in message:
            return claim
    return ""


def place_of(d):
    """A finding's identity across the front ends: where it is, its rule, and what it claims there."""
    return (d.file, d.line, d.col, d.check, claim_of(d.message))


@dataclass(frozen=True)
class Dialect:
    """A clang error on code that nvcc accepts, which the nvcc-compatibility header cannot supply
    because it is clang's parser or semantic analysis that rejects it. `message` matches the whole
    error; `source` (optional) must match the source text at the error's place, to tell the
    construct from other errors with the same message; `note_source` (optional) must match the
    source at one of the error's notes (the macro definition of 'expanded from macro'); `alone`, that
    nothing comes before the error's place on its line; `follows`
    (optional) names the kind whose parts this error follows from: it is that kind only when its
    'declared here' note names a part an error of that kind named in the same run. `naming` says how
    the part is named: 'here' (the name at the error's place), 'callee' (the function whose
    parameter list the place is in), 'declared' (the 'declared here' note's), 'function' (the
    function template whose instantiation the error is in), 'instantiated' (the function template
    whose instantiation a kind it follows failed: the callee of the error's message, or the function
    a 'no overload of' note names), 'skipped' (a name declared in what clang's recovery after a kind
    with `skips` passed over: the name in the error's message), 'message' (the first name the
    message quotes). `note` (optional): (message, source) patterns one of the error's notes must
    match, its message whole and the source at its place (a None source matches any). `before`
    (optional) must match the text before the error's place on its line. `name_at` (optional) reads
    the part's name at the error's place. `host`: only on the host side. `test` (optional): a
    function (diag, cache) that must say yes, for what the patterns cannot say. `skips`: clang's
    recovery after the error skips to the next ';' (what 'skipped' follows). docs/compatibility.md
    lists each one with the code that showed it."""
    name: str
    message: re.Pattern
    source: re.Pattern
    what: str
    why: str
    note_source: re.Pattern
    follows: str
    naming: str
    alone: bool
    note: tuple
    before: re.Pattern
    name_at: re.Pattern
    host: bool
    test: object
    skips: bool

    def __init__(self, name, message, source, what, why, note_source=None, follows=None, naming="here",
                 alone=False, note=None, before=None, name_at=None, host=False, test=None, skips=False):
        def rx(v):
            return re.compile(v) if v else None
        for k, v in (("name", name), ("message", re.compile(message)), ("source", rx(source)), ("what", what),
                     ("why", why), ("note_source", rx(note_source)), ("follows", follows), ("naming", naming),
                     ("alone", alone), ("note", (rx(note[0]), rx(note[1])) if note else None),
                     ("before", rx(before)), ("name_at", rx(name_at)), ("host", host), ("test", test),
                     ("skips", skips)):
            object.__setattr__(self, k, v)


INSTANTIATED = re.compile(r"in instantiation of (?:function template specialization|member function) '(.*)' "
                          r"requested here")
HEAD_LINES = 400   # how far above an error the head of the function it is in is looked for


def bare_name(qualified):
    """A C++ name without its qualifiers and template arguments: 'f' for 'ns::A<int>::f<T>'."""
    prev = None
    while prev != qualified:
        prev, qualified = qualified, re.sub(r"<[^<>]*>", "", qualified)
    return qualified.split("::")[-1].strip()


def instantiated_at(d):
    """(the function template whose instantiation an error is in, by its bare name; the place in
    its body the error comes from: the error's, or that of the instantiation it requested there,
    such as a class template's); (None, None) when the error is in no function's instantiation."""
    place = d
    for n in d.context or d.notes:
        m = INSTANTIATED.fullmatch(n.message)
        if m:
            return bare_name(m.group(1)), place
        if n.message.startswith("in instantiation of "):
            place = n
    return None, None


def instantiated(d):
    """The function template whose instantiation an error is in, by its bare name; None."""
    return instantiated_at(d)[0]


def encloses(file, head, place, cache):
    """The braces that open after line `head` of file are still open at `place` (a Diag or note):
    the definition that starts there holds the place."""
    text = "\n".join((source_line(file, n, cache) or b"").decode("utf-8", "replace") for n in range(head, place.line))
    text += "\n" + source_before(file, place.line, place.col, cache, lines=0)
    depth, opened = 0, False
    for kind, _, _ in tokens(text):
        if kind == "{":
            depth, opened = depth + 1, True
        elif kind == "}":
            depth -= 1
            if opened and depth <= 0:
                return False
    return opened and depth > 0


FUNCTION_HEAD = r"\b{name}\s*\("
DEFINITION_HEAD = r"\b{name}\s*\(|\b(?:class|struct|union)\s+{name}\b"


def head_of(name, place, cache, pattern=FUNCTION_HEAD, literal=True):
    """The nearest line at or above `place` where a definition of `name` that holds the place
    starts (`pattern`, given the name, finds its head; `literal`: the name is a name, not a regex);
    None."""
    head = re.compile(pattern.format(name=re.escape(name) if literal else name))
    for n in range(place.line, max(0, place.line - HEAD_LINES), -1):
        text = source_line(place.file, n, cache)
        if text is None:
            return None
        if head.search(text.decode("utf-8", "replace")[:place.col - 1 if n == place.line else None]) and \
                encloses(place.file, n, place, cache):
            return n
    return None


def inside(d, notes, cache):
    """d is inside the entity whose instantiation the first of `notes` requests (its definition
    holds d's place): clang gives an error no notes when they would repeat the last error's."""
    for n in notes:
        m = re.fullmatch(r"in instantiation of .* '(.*)' requested here", n.message)
        if m:
            return bool(d.file) and head_of(bare_name(m.group(1)), d, cache, DEFINITION_HEAD) is not None
    return False


def in_device_body(d, cache):
    """The error is in the instantiation of a function declared __device__ and not __host__: the
    head of that function's definition that holds the place in its body the error comes from has
    __device__ on its line or on the lines of its declaration before it (up to three)."""
    f, at = instantiated_at(d)
    if not f or not at.file:
        return False
    n = head_of(f, at, cache)
    if n is None:
        return False
    first = n
    while first > max(1, n - 3):
        above = (source_line(at.file, first - 1, cache) or b"").decode("utf-8", "replace")
        if re.search(r"[;{}]\s*(?://.*)?$", above) or not above.strip():
            break
        first -= 1
    spaces = set(re.findall(r"\b__(?:device|host|global)__\b", source_before(at.file, n + 1, 1, cache, lines=n + 1 - first)))
    return spaces == {"__device__"}


TYPE_HEAD = r"\b(?:class|struct|union)\s+{name}\b"


def in_class_template(d, cache):
    """The error is in a class template's definition, in no instantiation: the nearest class whose
    definition holds the error's place has 'template <' on its head's line or the three before it."""
    if instantiated(d) or not d.file:
        return False
    n = head_of(r"\w+", d, cache, TYPE_HEAD, literal=False)
    if n is None:
        return False
    return bool(re.search(r"\btemplate\s*<", source_before(d.file, n + 1, 1, cache, lines=4)))


CURRENT_MEMBER = re.compile(r"no member named '\w+' in '(?:[\w:]*::)?(\w+)<(.*)>'")


def in_own_template(d, cache):
    """The class an error names, 'C<P, 3>', is the class template being defined where the error is
    (the current instantiation): the error is in no instantiation, and the last definition of a
    template C above it has a template parameter named as one of the arguments."""
    m = CURRENT_MEMBER.fullmatch(d.message)
    if not m or instantiated(d):
        return False
    args = set(re.findall(r"\b[A-Za-z_]\w*\b", m.group(2)))
    heads = list(re.finditer(rf"\btemplate\s*<([^{{;]*?)>\s*(?:class|struct|union)\s+{re.escape(m.group(1))}\b",
                             source_before(d.file, d.line, d.col, cache, lines=d.line)))
    return bool(heads) and bool(args & set(re.findall(r"\b[A-Za-z_]\w*\b", heads[-1].group(1))))


DEFAULT_ARG_PARTIAL = ("given only on the out-of-line definition of a member of a class template partial "
                       "specialization")

DIALECT = [
    # cuda-samples cudaGraphsPerfScaling/cudaGraphPerfScaling.cu:96: "mov.u64 %0, %globaltimer;"
    Dialect("asm-percent", r"invalid % escape in inline assembly string", None, "the asm statement",
            "a PTX register written with one '%' in an asm statement with operands (nvcc passes it to "
            "ptxas as written, clang requires '%%')"),
    # cuda-samples conjugateGradientMultiDeviceCG.cu:214: ::"r"(reg_val) "l"(arrived)
    Dialect("asm-comma", r"expected '\)'", r'^"[^"]*"\s*\(', "the asm statement",
            "asm operands with no comma between them (nvcc accepts it)"),
    # cuda-samples simpleAWBarrier.cu:93: __shared__ cuda::barrier<cuda::thread_scope_block> barrier;
    Dialect("shared-init", r"initialization is not supported for __shared__ variables", None,
            "the __shared__ variable '{name}'",
            "a __shared__ variable of a type with a constructor, such as cuda::barrier (nvcc accepts it "
            "under #pragma nv_diag_suppress static_var_with_dynamic_init, clang has no switch for it)"),
    # HeCBench attentionMultiHeadKVCache-cuda/vec_dtypes.cuh:219: vec_cast<T, S>::cast<vec_size>(...)
    Dialect("template-keyword", r"reference to overloaded function could not be resolved; did you mean to call it\?|"
            r"missing 'template' keyword prior to dependent template name '\w+'",
            r"^[A-Za-z_][\w:]*\s*<[^;]*>\s*::\s*[A-Za-z_]\w*\s*<", "the call of '{name}'",
            "a member template of a dependent type called without the 'template' keyword (nvcc accepts "
            "it)"),
    # BGHT bcht.hpp:61: typename std::allocator_traits<Allocator>::rebind_alloc<pair_type>
    Dialect("template-keyword-type", r"use 'template' keyword to treat '[A-Za-z_]\w*' as a dependent template name",
            None, "the name '{name}'",
            "a member template of a dependent type named without the 'template' keyword (nvcc accepts it; "
            "clang reads it as the template after the error)"),
    # template <typename T> struct S<T, int> { int f(int x); };
    # template <typename T> int S<T, int>::f(int x = 4) { return x; }
    Dialect("default-arg-partial-spec", r"default arguments cannot be added to an out-of-line definition of a "
            r"member of a class template partial specialization", None, "the default argument of '{name}'",
            f"a default argument {DEFAULT_ARG_PARTIAL} (nvcc accepts it, clang drops it)", naming="callee"),
    # ... and s.f(), which leaves that argument out.
    Dialect("default-arg-call", r"too few arguments to function call, .*", None, "the call of '{name}'",
            f"a call that leaves out an argument whose default is {DEFAULT_ARG_PARTIAL} (nvcc accepts it)",
            follows="default-arg-partial-spec", naming="declared"),
    # template <int N> __device__ unsigned f(unsigned y) { unsigned x; asm("mov.u32 %0, %2;" : "=r"(x) : "r"(y)); ... }
    Dialect("asm-operand-number", r"invalid operand number in inline asm string", None, "the asm statement",
            "an operand number past the asm statement's operands, in code nvcc does not generate (a function "
            "never called, a template never instantiated): nvcc checks the numbers only where it generates "
            "code, clang wherever the statement is written"),
    # #define UNROLL #pragma unroll
    # UNROLL for (int i = 0; i < 8; ++i) ...
    Dialect("pragma-macro", r"expected expression", r"^[A-Za-z_]\w*\s*(?://.*)?$", "the statement after '{name}'",
            "a macro that expands to a #pragma, alone on its line (nvcc preprocesses the file to text first, "
            "where the expansion is a directive again; clang reads a '#' in code; _Pragma(\"unroll\") means the "
            "same to both)", note_source=r"^#\s*pragma\b", alone=True, skips=True),
    # cute/algorithm/gemm.hpp:530: CUTE_UNROLL for (...) {...} ... Tensor cC = ...;  then a use of cC:
    # clang's recovery skipped to the ';' after the loop, with the declaration.
    Dialect("pragma-macro-skipped", r"use of undeclared identifier '\w+'", None, "the use of '{name}'",
            "a name declared in the statements clang skipped after a macro that expands to a #pragma (the "
            "part above; nvcc reads the pragma)", follows="pragma-macro", naming="skipped"),
    # #pragma unroll 4
    # { ... }
    Dialect("unroll-not-loop", r"expected a for, while, or do-while loop to follow '#pragma unroll'", None,
            "the #pragma unroll of the statement",
            "a '#pragma unroll' before a statement that is not a loop (nvcc ignores the pragma with a warning, "
            "clang rejects it; the statement is analysed)"),
    # HeCBench quant3MatMul-cuda/kernels.h:135: half2 res2; ... res2 = {};
    Dialect("empty-braces-assign",
            r"use of overloaded operator '=' is ambiguous \(with operand types '.*'(?: \(aka '.*'\))? and 'void'\)", r"^=\s*\{\s*\}",
            "the assignment", "an empty braced list assigned to a type with several assignment operators, such "
            "as cuda_fp16.h's half2 (nvcc takes the copy assignment, clang finds the call ambiguous; the value "
            "assigned is the type's zero either way)"),
    # alignas(64) CUtensorMap Map;   (CUDA 13's cuda.h aligns CUtensorMap to 128)
    Dialect("alignas-weaker",
            r"requested alignment is less than minimum alignment of \d+ for type '.*'(?: \(aka '.*'\))?", None,
            "the alignas", "an alignas weaker than its type's own alignment, such as alignas(64) on CUDA 13's "
            "CUtensorMap (nvcc ignores it with a warning, clang rejects it; both keep the type's alignment, and "
            "the declaration is analysed)"),
    # TensorRT mhaRunner.cu:57: union SMem { T shm[VPT * TPB]; ...; SMem() {} }; __shared__ SMem tmp;
    Dialect("shared-host-ctor", r"no matching constructor for initialization of '.*'", None,
            "the __shared__ variable '{name}'",
            "a __shared__ variable of a class whose default constructor has no execution space (nvcc does not "
            "run a __shared__ variable's constructor, and warns of it when it is not empty, #20054-D; clang "
            "wants one it can call from the kernel)",
            note=(r"candidate constructor not viable: call to __host__ function from __(?:global|device)__ function",
                  None), before=r"\b__shared__\b"),
    # flash_attention_inference flash_fwd_kernel.h:421: convert_layout_rowcol_Aregs<Kernel_traits::TiledMma>(...)
    Dialect("typename-missing", r"missing 'typename' prior to dependent type name '.*'(?: \(aka '.*'\))?", None, "the type '{name}'",
            "a dependent type named without 'typename' (nvcc accepts it; clang reads it as a type after the "
            "error)", name_at=r"[A-Za-z_][\w:]*"),
    # flash_attention_inference cute/atom/mma_atom.hpp:457: return make_fragment_A(partition_A(atensor));
    Dialect("dependent-base-member", r"explicit qualification required to use member '\w+' from dependent base class",
            None, "the use of '{name}'",
            "a member of a dependent base class named without 'this->' (nvcc looks it up when the template is "
            "instantiated; clang reports it, then finds the member)"),
    # FasterTransformer xlnet_preprocess_kernels.cu:170: template<typename T> void blockAttnMask<T>(dim3& grid, ...)
    Dialect("function-partial-spec", r"function template partial specialization is not allowed", None,
            "the definition of '{name}'",
            "a function template defined with template arguments after its name, `template <typename T> void "
            "f<T>(...)` (nvcc accepts it; clang rejects it and drops the definition)"),
    # flash_attention_inference fmha/gemm.h:306: static_assert(FragmentA::kStorageElements * kIters == a[0].NUM_REGS);
    Dialect("unknown-reference", r"static assertion expression is not an integral constant expression|"
            r"non-type template argument is not a constant expression|"
            r"constexpr variable '\w+' must be initialized by a constant expression", None, "the constant expression",
            "a constant read through a reference parameter, `a[0].N` (C++23 allows it, P2280; nvcc accepts it in "
            "every language mode, clang 22 only in C++23)",
            note=(r"function parameter '\w+' with unknown value cannot be used in a constant expression", None)),
    # flash_attention_inference (cutlass) matrix.h:7284: Matrix m; m.set_slice3x3({...});  in Matrix<Element_, 3, 3>
    Dialect("current-instantiation-member", CURRENT_MEMBER.pattern, None, "the use of '{name}'",
            "a member the class template being defined does not have, used in a member never instantiated "
            "(nvcc looks it up only when the member is instantiated; clang already where it is defined)",
            test=in_own_template),
    # rapidjson 1.1.0 document.h:319 (SlabHash's bench/main_benchmarks.cu): in template<typename CharType>
    # struct GenericStringRef { ... const SizeType length; ... operator=(...) { s = rhs.s; length = rhs.length; } }
    Dialect("const-member-template", r"cannot assign to non-static data member '\w+' with const-qualified type "
            r"'.*'(?: \(aka '.*'\))?", None, "the assignment to '{name}'",
            "an assignment to a const member in a class template's member that is never instantiated (nvcc "
            "checks it only when the member is instantiated; clang already where it is defined)",
            naming="message", test=in_class_template),
    # flash_attention_inference fmha/gemm.h:292, on the host side: an error in the body of a __device__
    # function template that only __CUDA_ARCH__ makes right (#else: a shape that has no Mma).
    Dialect("device-body-on-host", r".*", None, "the body of '{name}' on the host side",
            "a __device__ function template's body instantiated when compiling for the host (nvcc does not "
            "instantiate it there, clang does; the device side analyses it)", naming="function", host=True,
            test=in_device_body),
    # TensorRT instanceNormFwdImpl.cu:701: cudaFuncSetAttribute(instanceNormFwd<...>, ...), after the
    # template-keyword error in instanceNormFwd's body made its instantiation fail.
    Dialect("template-keyword-use", r"no matching function for call to '\w+'", None, "the call of '{name}'",
            "a use of a function template whose instantiation failed on a member template called without "
            "the 'template' keyword (nvcc accepts both)", follows="template-keyword", naming="instantiated"),
]


@dataclass(eq=False)
class Skipped:
    """A part of a file that was not analysed because of a Dialect error."""
    file: str
    line: int
    col: int
    dialect: Dialect
    what: str                         # the part, named: "the __shared__ variable 'barrier'"
    sides: list = field(default_factory=list)

    @classmethod
    def at(cls, file, line, col, dialect, cache, name=None):
        if name is None:
            # The name at the error's place: the variable, or the qualified callee up to its '<'.
            m = (dialect.name_at or re.compile(r"[A-Za-z_][\w:<>, ]*::\s*[A-Za-z_]\w*" if "call" in dialect.what
                                               else r"[A-Za-z_]\w*")).match(source_at(file, line, col, cache))
            name = m.group(0) if m else "?"
        return cls(file, line, col, dialect, dialect.what.format(name=name))


def source_at(file, line, col, cache):
    """The text of file from (line, col) to the end of that line; '' when it cannot be read."""
    text = source_line(file, line, cache)
    return "" if text is None else text[max(col - 1, 0):].decode("utf-8", "replace")


def source_before(file, line, col, cache, lines=12):
    """The text of file before (line, col), from up to `lines` lines above it."""
    parts = []
    for n in range(max(1, line - lines), line + 1):
        text = source_line(file, n, cache)
        if text is not None:
            parts.append(text[:max(col - 1, 0)] if n == line else text)
    return b"\n".join(parts).decode("utf-8", "replace")


TEMPLATE_ARGS = r"<[^;{}()<>]*(?:<[^;{}()<>]*>[^;{}()<>]*)*>"
CALLEE = re.compile(rf"(?:([A-Za-z_]\w*)\s*(?:{TEMPLATE_ARGS})?\s*::\s*)?([A-Za-z_]\w*)\s*\((?:[^()]|\([^()]*\))*$")
DECLARED = re.compile(r"'([A-Za-z_]\w*)' declared here")
CLASS_HEAD = re.compile(r"\b(?:struct|class)\s+([A-Za-z_]\w*)")


def part_key(d, k, cache):
    """What names the part a Dialect error stands for, by the kind's naming: (class, function) for
    'callee' (the function whose parameter list the error's place is in, and the class that
    qualifies it) and 'declared' (the function of the 'declared here' note, and the class whose
    definition it is in: the last 'struct' or 'class' before it); None for 'here'."""
    if k.naming == "callee":
        m = CALLEE.search(source_before(d.file, d.line, d.col, cache))
        return (m.group(1), m.group(2)) if m else (None, "?")
    if k.naming == "function":
        return (None, instantiated(d) or "?")
    if k.naming in ("instantiated", "skipped", "message"):
        m = re.search(r"'(\w+)'", d.message)
        return (None, m.group(1) if m else "?")
    if k.naming == "declared":
        for n in d.notes:
            m = DECLARED.fullmatch(n.message)
            if m and n.file:
                opens = CLASS_HEAD.findall(source_before(n.file, n.line, n.col, cache, lines=200))
                return (opens[-1] if opens else None, m.group(1))
        return (None, "?")
    return None


def part_name(d, k, cache):
    """The name of the part a Dialect error stands for; None for 'here' (Skipped.at reads it)."""
    key = part_key(d, k, cache)
    return key[1] if key else None


SKIP_LINES = 200   # how far clang's recovery after a pragma macro is followed


def skipped_names(d, cache):
    """The names clang's recovery skips after an error at d: the statement from d's place to the
    next ';' outside brackets (a loop and the declaration after it, when the loop is braced), and
    of its tokens, the names outside the brackets (what it declares)."""
    text = "\n".join([source_at(d.file, d.line, d.col, cache)] +
                     [(source_line(d.file, n, cache) or b"").decode("utf-8", "replace")
                      for n in range(d.line + 1, d.line + SKIP_LINES)])
    names, depth = set(), 0
    for kind, start, end in tokens(text):
        if kind in "({[":
            depth += 1
        elif kind in ")}]":
            depth -= 1
            if depth < 0:
                break
        elif kind == ";" and depth == 0:
            break
        elif kind == "id" and depth == 0:
            names.add(text[start:end])
    return names


NO_OVERLOAD = re.compile(r"candidate function not viable: no overload of '(\w+)' matching .*")


def follow_keys(d, k, cache):
    """The keys of the parts an error of a kind that follows another may follow from: for
    'instantiated', the callee its message names and the function a 'no overload of' note names."""
    if k.naming == "skipped":
        m = re.search(r"'(\w+)'", d.message)
        return {("skipped", m.group(1) if m else "?")}
    if k.naming != "instantiated":
        return {part_key(d, k, cache)}
    return {part_key(d, k, cache)} | {(None, m.group(1)) for n in d.notes for m in [NO_OVERLOAD.fullmatch(n.message)] if m}


def lead_keys(d, k, cache):
    """The keys an error of kind k gives the kinds that follow it: its part, and the function
    template whose instantiation it is in (which then fails, for 'instantiated')."""
    keys = {part_key(d, k, cache), (None, instantiated(d))}
    if k.skips:
        keys |= {("skipped", name) for name in skipped_names(d, cache)}
    return keys


def dialect_of(d, cache, named=None, host=False):
    """The Dialect a clang error is, or None. named: kind -> the part names that errors of that kind
    named in the same run (for the kinds that follow another); host: the run compiles for the host."""
    if not d.is_error or not d.file:
        return None
    for k in DIALECT:
        if not k.message.fullmatch(d.message) or (k.host and not host):
            continue
        if k.source and not k.source.search(source_at(d.file, d.line, d.col, cache)):
            continue
        if k.alone and source_before(d.file, d.line, d.col, cache, lines=0).strip():
            continue
        if k.before and not k.before.search(source_before(d.file, d.line, d.col, cache, lines=0)):
            continue
        if k.note_source and not any(n.file and n.message.startswith("expanded from macro") and
                                     k.note_source.search(source_at(n.file, n.line, n.col, cache)) for n in d.notes):
            continue
        if k.note and not any(k.note[0].fullmatch(n.message) and
                              (not k.note[1] or (n.file and k.note[1].search(source_at(n.file, n.line, n.col, cache))))
                              for n in d.notes):
            continue
        if k.follows and not follow_keys(d, k, cache) & (named or {}).get(k.follows, set()):
            continue
        if k.test and not k.test(d, cache):
            continue
        return k
    return None


def absolute(diags, directory):
    """Makes each diagnostic's and note's file absolute, against the directory its run had: clang
    names a header found through a relative -I relative to that directory, and the source reads of
    the dialect check, the places findings merge by and the report's paths are all absolute."""
    for d in diags:
        for x in [d] + list(d.notes):
            if x.file and not os.path.isabs(x.file):
                x.file = os.path.normpath(os.path.join(directory, x.file))
    return diags


def split_dialect(diags, cache, host=False):
    """(the errors that are known nvcc dialect, as (Diag, Dialect), the other diagnostics). An error
    of a kind that follows another is known only after the errors of that kind in the same run.
    host: the diagnostics are of a run that compiles for the host (the kinds only nvcc's host pass
    differs on)."""
    kinds, named = {}, {}
    last = None
    for d in diags:
        # clang prints an instantiation's notes once for the errors in a row that it causes.
        if d.is_error:
            own = [n for n in d.notes if n.message.startswith("in instantiation of ")]
            if own:
                last = d.notes
            elif last and inside(d, last, cache):
                d.context = last
    for d in diags:
        k = dialect_of(d, cache, host=host)
        if k:
            kinds[id(d)] = k
            d.part = part_name(d, k, cache)
            named.setdefault(k.name, set()).update(lead_keys(d, k, cache))
    known, rest = [], []
    for d in diags:
        k = kinds.get(id(d)) or (dialect_of(d, cache, named, host) if d.is_error else None)
        if k and id(d) not in kinds:
            d.part = part_name(d, k, cache)
        if k:
            known.append((d, k))
        else:
            rest.append(d)
    return known, rest


def skipped_notes(skipped):
    """One note per file naming every part of it that was not analysed: (file, line, col, text)."""
    by_file = {}
    for s in sorted(skipped, key=lambda s: (s.file, s.line, s.col)):
        by_file.setdefault(s.file, []).append(s)
    notes = []
    for file, items in by_file.items():
        parts = "; ".join(f"{s.what} at line {s.line} ({', '.join(s.sides)}): {s.dialect.why}"
                          for s in items)
        what = "this part" if len(items) == 1 else f"these {len(items)} parts"
        notes.append((file, items[0].line, items[0].col,
                      f"cuda-scope did not analyse {what} of the file, which nvcc accepts and clang 22 "
                      f"rejects, and analysed the rest: {parts}"))
    return notes
