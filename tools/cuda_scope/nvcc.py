"""nvcc command lines -> clang 22 flags: the option table, GPU architectures, and the Translator
that reads one compile command (nvcc, gcc/clang, or flags after --) into a Translation."""
import os
import re
import shlex
from dataclasses import dataclass, field

from .common import LLVM_MAJOR, Fatal, warn

# nvcc option name -> (action, takes a value). Both spellings of each option are listed.
NVCC = {}


def _nvcc(names, action, value):
    for name in names.split():
        NVCC[name] = (action, value)


_nvcc("--gpu-architecture -arch", "arch", True)
_nvcc("--gpu-code -code", "code", True)
_nvcc("--generate-code -gencode", "gencode", True)
_nvcc("--compiler-options -Xcompiler", "host", True)
_nvcc("--options-file -optf", "options-file", True)
_nvcc("--x -x", "lang", True)
_nvcc("--std -std", "std", True)
_nvcc("--define-macro -D", "D", True)
_nvcc("--undefine-macro -U", "U", True)
_nvcc("--include-path -I", "I", True)
_nvcc("--system-include -isystem", "isystem", True)
_nvcc("--pre-include -include", "include", True)
_nvcc("--optimize -O", "O", True)
_nvcc("--debug -g", "g", False)
_nvcc("--disable-warnings -w", "w", False)
_nvcc("--default-stream -default-stream", "default-stream", True)
_nvcc("--cuda-path", "cuda-path", True)
_nvcc("--cuda-gpu-arch --offload-arch", "arch", True)
# Relocatable device code changes what the front end accepts: a kernel launched from device code
# and an extern __shared__ variable need clang's -fgpu-rdc (cuda-samples cdpAdvancedQuicksort.cu:263,
# nccl src/device/common.h:72).
_nvcc("--relocatable-device-code -rdc", "rdc", True)
_nvcc("--device-c -dc", "rdc-on", False)
# nvcc's cuda_runtime.h includes <functional> under --extended-lambda (where nvcc defines
# __CUDACC_EXTENDED_LAMBDA__); the compatibility header does the same when told so (cuda-scope-nvcc.h
# [extended-lambda]). Code that builds with nvcc may rely on what it brings: libstdc++'s <functional>
# brings <vector>, <unordered_map> and std::sort (MVGpuBTree's headers).
_nvcc("--expt-extended-lambda -expt-extended-lambda --extended-lambda -extended-lambda", "extended-lambda", False)
# Why each is dropped, for --explain. Code generation, linking and driver housekeeping do not
# change what the front end sees; the two nvcc language extensions are clang's default.
_DROPPED_WITHOUT_VALUE = {
    "code generation or debug info only": "--device-debug -G --generate-line-info -lineinfo "
    "--use_fast_math -use_fast_math --extra-device-vectorization -extra-device-vectorization "
    "--restrict -restrict --source-in-ptx -src-in-ptx --dlink-time-opt -dlto "
    "--disable-optimizer-constants -disable-optimizer-consts --resource-usage -res-usage "
    "-noprof --dont-use-profile",
    "clang accepts it without a flag": "--expt-relaxed-constexpr -expt-relaxed-constexpr "
    "-nohdinitlist --no-host-device-initializer-list -nohdmoveforward "
    "--no-host-device-move-forward",
    "driver setting": "--compile -c --device-w -dw --device-link -dlink "
    "--lib -lib --link -link --ptx -ptx --cubin -cubin --fatbin -fatbin --shared -shared "
    "--keep -keep --save-temps -save-temps --verbose -v --dryrun -dryrun "
    "-forward-unknown-to-host-compiler --forward-unknown-to-host-compiler "
    "-forward-unknown-to-host-linker --forward-unknown-to-host-linker "
    "--allow-unsupported-compiler -allow-unsupported-compiler --display-error-number -err-no "
    "--no-display-error-number -no-err-no -m64 -m32",
    "nvcc warning switch": "-Wno-deprecated-gpu-targets --Wno-deprecated-gpu-targets "
    "--Wreorder -Wreorder --Wdefault-stream-launch -Wdefault-stream-launch "
    "--Wmissing-launch-bounds -Wmissing-launch-bounds --Wext-lambda-captures-this "
    "-Wext-lambda-captures-this --Wno-deprecated-declarations",
    "dependency output": "-MD -MMD -M -MM -MP --generate-dependencies -generate-dependencies "
    "--generate-nonsystem-dependencies --generate-dependencies-with-compile "
    "--generate-nonsystem-dependencies-with-compile --preprocess -E",
    "the side is chosen per run": "--cuda-host-only --cuda-device-only --cuda-compile-host-device "
    "--offload-host-only --offload-device-only",
}
_DROPPED_WITH_VALUE = {
    "code generation or debug info only": "--ptxas-options -Xptxas --nvlink-options -Xnvlink "
    "--fatbin-options -Xfatbin --ftz -ftz --prec-div -prec-div "
    "--prec-sqrt -prec-sqrt --fmad -fmad --maxrregcount -maxrregcount --dopt -dopt "
    "--static-global-template-stub -static-global-template-stub "
    "--device-entity-has-hidden-visibility -device-entity-has-hidden-visibility "
    "--optimization-info -opt-info -Xcudafe --jump-table-density -jtd "
    "--compress-mode -compress-mode",
    "driver setting": "--compiler-bindir -ccbin --threads -t --split-compile -split-compile "
    "--split-compile-extended -split-compile-extended --keep-dir -keep-dir --time -time "
    "--machine -m --cudart -cudart --cudadevrt -cudadevrt --output-directory -odir "
    "--input-drive-prefix -idp --dependency-drive-prefix -ddp --drive-prefix -dp "
    "--entries -e --output-file -o",
    "linking": "--linker-options -Xlinker --archive-options -Xarchive --library -l "
    "--library-path -L",
    "nvcc diagnostic setting": "--diag-suppress -diag-suppress --diag-error -diag-error "
    "--diag-warn -diag-warn --Werror",
    "dependency output": "--dependency-output -MF --dependency-target-name -MT -MQ",
}
DROP_REASON = {}
for _reason, _names in _DROPPED_WITHOUT_VALUE.items():
    _nvcc(_names, "drop", False)
    DROP_REASON.update((n, _reason) for n in _names.split())
for _reason, _names in _DROPPED_WITH_VALUE.items():
    _nvcc(_names, "drop", True)
    DROP_REASON.update((n, _reason) for n in _names.split())
# Host compiler flags that mean the same to clang, by prefix. -Werror is not one of them: it
# would turn a warning clang gives and nvcc does not into a file that "does not parse".
HOST_PREFIXES = ("-W", "-f", "-m", "-D", "-U", "-I", "-O", "-g", "-std=", "-stdlib=", "-pthread",
                 "-pedantic", "-ansi", "-isystem", "-iquote", "-idirafter", "-include", "-isysroot",
                 "--sysroot", "-nostdinc", "-w", "-nocudainc", "-nocudalib", "--no-cuda-version-check",
                 "-x")
HOST_DROPPED = ("-Werror", "-pedantic-errors", "-Wl,", "-Wa,", "-Wp,", "-MD", "-MMD", "-MP",
                "-save-temps", "-fdiagnostics-format", "-fcolor-diagnostics")
HOST_DROPPED_WITH_VALUE = {"-MF", "-MT", "-MQ", "-o", "-Xlinker", "-Xassembler", "-Xpreprocessor"}
HOST_WITH_VALUE = {"-D", "-U", "-I", "-isystem", "-iquote", "-idirafter", "-include", "-isysroot",
                   "--sysroot", "-x", "-imacros", "-include-pch", "-Xclang", "-target", "--target",
                   "-arch"}
# nvcc -Werror takes a list of nvcc warning kinds; a bare -Werror can be followed by one.
NVCC_WARNING_KINDS = {"all-warnings", "cross-execution-space-call", "reorder",
                      "default-stream-launch", "missing-launch-bounds", "ext-lambda-captures-this",
                      "deprecated-declarations"}
LANGS = {"cu": "cuda", "cuda": "cuda", "c++": "c++", "cpp": "c++", "c": "c", "cuda-cpp-output": "cuda"}


# The GPU architectures clang 22's CUDA driver accepts for --cuda-gpu-arch (it has no family-specific
# 'f' targets, which nvcc 12.9+ has).
CLANG_ARCHS = {f"sm_{n}" for n in (20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 88, 89,
                                   90, 100, 101, 103, 110, 120, 121)} | \
              {f"sm_{n}a" for n in (90, 100, 101, 103, 110, 120, 121)}


def arch_of(value):
    """'sm_90', 'compute_90', 'lto_90a' -> 'sm_90' / 'sm_90a'; None for native/all/all-major. A
    family-specific target (sm_100f, compute_120f) is its family's architecture-specific one
    (sm_100a), which has every feature the family's has: clang 22 has no 'f' targets, and CCCL
    guards those features with the macros the 'a' target defines."""
    m = re.fullmatch(r"(?:sm|compute|lto)_(\d+)([a-z]?)", value.strip())
    if not m:
        return None
    return f"sm_{m.group(1)}{'a' if m.group(2) == 'f' else m.group(2)}"


def clang_arch(arch):
    """The architecture clang 22 compiles for arch: arch itself, or the newest it knows that is not
    newer (an unknown 'a' target falls back to the plain one); None when nothing fits."""
    if arch in CLANG_ARCHS:
        return arch
    fits = [a for a in CLANG_ARCHS if arch_key(a) <= arch_key(arch) and not a.endswith("a")]
    return max(fits, key=arch_key) if fits else None


def arch_key(arch):
    m = re.fullmatch(r"sm_(\d+)([a-z]?)", arch)
    return (int(m.group(1)), m.group(2)) if m else (0, "")


def gencode_archs(value):
    """-gencode arch=compute_90,code=[sm_90,compute_90] -> the real architectures it builds for."""
    value = value.replace('"', "").replace("'", "")
    m_arch = re.search(r"arch=([A-Za-z0-9_]+)", value)
    m_code = re.search(r"code=\[?([A-Za-z0-9_,]+)\]?", value)
    codes = [c for c in (m_code.group(1).split(",") if m_code else []) if c]
    real = [arch_of(c) for c in codes if c.startswith("sm_")]
    if real:
        return real
    virtual = [arch_of(c) for c in codes if arch_of(c)]
    if virtual:
        return virtual
    return [arch_of(m_arch.group(1))] if m_arch and arch_of(m_arch.group(1)) else []


@dataclass(eq=False)
class Translation:
    """One compile command as clang-22 sees it, before a side is chosen."""
    file: str
    directory: str
    origin: str                       # where the command came from, for --explain
    lang: str = None                  # cuda, c++ or c
    flags: list = field(default_factory=list)
    archs: list = field(default_factory=list)
    cuda_path: str = None
    nvcc: bool = False
    nocudainc: bool = False
    rdc: bool = False                 # relocatable device code: clang's -fgpu-rdc
    steps: list = field(default_factory=list)   # (what the command said, what it became) for --explain
    untranslated: list = field(default_factory=list)
    checks: str = None                # the check globs that apply to the file (the project's, or --checks)

    def note(self, before, after):
        self.steps.append((before, after))


def split_list(value):
    return [v for v in value.split(",") if v]


def split_words(value):
    """A host compiler option string as the shell would split it; as it is if the quotes do not match."""
    try:
        return shlex.split(value)
    except ValueError:
        return [value]


# The options of the table that gcc and clang spell and mean the same way; a gcc or clang
# command is read with these only, and every other flag of it is kept.
CC_COMMON = {"-o", "-c", "-x", "-std", "-D", "-U", "-I", "-isystem", "-include", "-O", "-g", "-w",
             "-MD", "-MMD", "-MF", "-MT", "-MQ", "-M", "-MM", "-MP", "-E", "-l", "-L", "-shared",
             "--cuda-gpu-arch", "--offload-arch", "--cuda-path", "--cuda-host-only",
             "--cuda-device-only", "--cuda-compile-host-device", "--offload-host-only",
             "--offload-device-only"}


class Translator:
    """Turns one command line into a Translation. Modes: 'nvcc' (an nvcc command: every flag is
    looked up, and one that is not known is named and left out), 'cc' (gcc or clang: flags are kept
    but for output, dependency files and the side), 'bare' (flags after --: nvcc's are translated,
    the rest kept)."""

    def __init__(self, warned):
        self.warned = warned  # flag names already warned about: each is named once per run

    def untranslatable(self, t, flag):
        t.untranslated.append(flag)
        t.note(flag, "(left out: cuda-scope cannot translate this nvcc flag)")
        name = flag.split("=", 1)[0].split(" ", 1)[0]
        if name not in self.warned:
            self.warned.add(name)
            warn(f"cannot translate the nvcc flag '{flag}' (first seen for {t.file}); it is left out "
                 "(--explain shows every translation)")

    def translate(self, t, args, mode):
        t.nvcc = t.nvcc or mode == "nvcc"
        self._walk(t, list(args), mode, depth=0)
        if t.lang is None:
            ext = os.path.splitext(t.file)[1]
            t.lang = "cuda" if ext in (".cu", ".cuh") else "c" if ext == ".c" else "c++"
        return t

    def _lookup(self, a, mode):
        """(option name, its table entry, the value written after '=' or attached, or None)."""
        table = NVCC if mode != "cc" else {k: v for k, v in NVCC.items() if k in CC_COMMON}
        if a in table:
            return a, table[a], None
        name, eq, inline = a.partition("=")
        if eq and name in table and table[name][1]:
            return name, table[name], inline
        # Single-letter options also take their value attached: -I/x, -DX=1, -O3, -lfoo.
        for short in ("-I", "-D", "-U", "-O", "-L", "-l", "-o"):
            if a.startswith(short) and len(a) > 2 and short in table:
                return short, table[short], a[2:]
        return None, None, None

    def _walk(self, t, args, mode, depth):
        i = 0
        while i < len(args):
            a = args[i]
            i += 1
            if not a.startswith("-") or a == "-":
                if os.path.normpath(os.path.join(t.directory, a)) != t.file:
                    t.note(a, "(left out: a second input)")
                continue
            name, spec, inline = self._lookup(a, mode)
            if spec is None:
                i = self._host(t, a, args, i, mode)
                continue
            action, takes_value = spec
            value = inline
            if takes_value and value is None:
                at_end = i >= len(args)
                # -O alone is -O1 to gcc; only a level after it is its value.
                if at_end or (name == "-O" and not re.fullmatch(r"[0-3sgz]|fast", args[i])):
                    if name == "-O":
                        t.flags.append("-O")
                    else:
                        t.note(a, "(left out: no value follows)")
                    continue
                value = args[i]
                i += 1
            shown = a if (inline is not None or not takes_value) else f"{a} {value}"
            i = self._apply(t, action, name, value, shown, args, i, mode, depth)

    def _apply(self, t, action, name, value, shown, args, i, mode, depth):
        if action == "drop":
            t.note(shown, f"(dropped: {DROP_REASON.get(name, 'not needed to analyse')})")
        elif action == "arch":
            archs = [arch_of(v) for v in split_list(value)]
            if archs and all(archs):
                self._add_archs(t, archs, shown)
            else:
                t.note(shown, "(no fixed architecture: the device side uses --default-arch)")
        elif action == "code":
            values = split_list(value)
            real = [arch_of(v) for v in values if v.startswith("sm_") and arch_of(v)]
            virtual = [arch_of(v) for v in values if arch_of(v)]
            if real or virtual:
                self._add_archs(t, real or virtual, shown)
            else:
                self.untranslatable(t, shown)
        elif action == "gencode":
            archs = gencode_archs(value)
            if archs:
                self._add_archs(t, archs, shown)
            else:
                self.untranslatable(t, shown)
        elif action == "host":
            # nvcc splits the value at commas and puts it on the host compiler's command line,
            # where the shell splits it again: "-fPIC -fvisibility=hidden" is two flags (nccl).
            host = [w for part in split_list(value) for w in split_words(part)]
            before = len(t.flags)
            j = 0
            while j < len(host):
                j = self._host(t, host[j], host, j + 1, "xcompiler")
            t.note(shown, " ".join(t.flags[before:]) or "(nothing clang needs)")
        elif action == "options-file":
            if depth > 8:
                raise Fatal(f"nvcc options files nest more than 8 deep at {value} ({t.origin})")
            for f in split_list(value):
                path = os.path.join(t.directory, f)
                try:
                    with open(path) as fh:
                        words = shlex.split(fh.read(), comments=True)
                except OSError as e:
                    raise Fatal(f"cannot read the nvcc options file {path} ({t.origin}): {e.strerror}")
                except ValueError as e:
                    raise Fatal(f"the nvcc options file {path} ({t.origin}) does not split into words: {e}")
                t.note(shown, f"(read: {shlex.join(words)})")
                self._walk(t, words, mode, depth + 1)
        elif action == "lang":
            lang = LANGS.get(value)
            if lang:
                t.lang = lang
                if value != lang:
                    t.note(shown, f"-x {lang}")
            elif value != "none":
                self.untranslatable(t, shown)
        elif action == "std":
            t.flags.append(f"-std={value}")
            if shown != f"-std={value}":
                t.note(shown, f"-std={value}")
        elif action in ("D", "U"):
            t.flags.append(f"-{action}{value}")
        elif action in ("I", "isystem"):
            # nvcc takes comma-separated lists of directories.
            added = []
            for d in (split_list(value) if mode == "nvcc" else [value]):
                added += ["-I" + d] if action == "I" else ["-isystem", d]
            t.flags += added
            if len(added) > (1 if action == "I" else 2):
                t.note(shown, shlex.join(added))
        elif action == "include":
            t.flags += ["-include", value]
        elif action == "O":
            t.flags.append(f"-O{value}")
        elif action == "g":
            t.flags.append("-g")
        elif action == "w":
            t.flags.append("-w")
        elif action == "default-stream":
            if value == "per-thread":
                t.flags.append("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1")
                t.note(shown, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1")
            else:
                t.note(shown, "(dropped: the legacy default stream is clang's too)")
        elif action in ("rdc", "rdc-on"):
            t.rdc = action == "rdc-on" or value.lower() in ("true", "1", "yes")
            t.note(shown, "-fgpu-rdc" if t.rdc else "(dropped: whole-program compilation is clang's default)")
        elif action == "extended-lambda":
            if "-D__CUDA_SCOPE_EXTENDED_LAMBDA=1" not in t.flags:
                t.flags.append("-D__CUDA_SCOPE_EXTENDED_LAMBDA=1")
            t.note(shown, "-D__CUDA_SCOPE_EXTENDED_LAMBDA=1 (clang accepts extended lambdas without a flag; "
                   "the compatibility header then includes <functional>, as nvcc's cuda_runtime.h does)")
        elif action == "cuda-path":
            t.cuda_path = os.path.join(t.directory, value)
        return i

    def _add_archs(self, t, archs, shown):
        mapped = []
        for a in archs:
            c = clang_arch(a)
            if c is None:
                if ("arch", a) not in self.warned:
                    self.warned.add(("arch", a))
                    warn(f"clang {LLVM_MAJOR} has no target for {a} nor any older one (first seen for {t.file}); "
                         f"the device side uses --default-arch")
                continue
            if c != a and ("arch", a) not in self.warned:
                self.warned.add(("arch", a))
                warn(f"clang {LLVM_MAJOR} has no target for {a} (first seen for {t.file}); the device side uses {c}")
            mapped.append(c)
        t.archs += [a for a in mapped if a not in t.archs]
        if mapped:
            t.note(shown, " ".join(f"--cuda-gpu-arch={a}" for a in mapped))
        else:
            t.note(shown, "(no architecture clang knows: the device side uses --default-arch)")

    def _host(self, t, a, args, i, mode):
        """A flag for the host compiler (nvcc forwards unknown ones to it): kept when clang reads it
        the same way, dropped when it only matters to linking or dependency files. Returns the
        index of the next argument."""
        quiet = mode == "xcompiler"
        if a == "-Werror" and mode != "cc" and i < len(args) and args[i] in NVCC_WARNING_KINDS:
            t.note(f"{a} {args[i]}", "(dropped: nvcc warning switch)")
            return i + 1
        if a in HOST_DROPPED_WITH_VALUE:
            if not quiet:
                t.note(f"{a} {args[i] if i < len(args) else ''}".strip(), "(dropped: output only)")
            return i + 1
        if a.startswith(HOST_DROPPED) or a in ("-c", "-shared", "-static", "-rdynamic"):
            if not quiet:
                t.note(a, "(dropped: not needed to analyse)")
            return i
        if a == "-nocudainc":
            t.nocudainc = True
        if a == "-x" and i < len(args):
            lang = LANGS.get(args[i])
            if lang:
                t.lang = lang
            return i + 1
        if a in HOST_WITH_VALUE and i < len(args):
            t.flags += [a, args[i]]
            return i + 1
        if a.startswith(HOST_PREFIXES):
            t.flags.append(a)
            return i
        if mode in ("nvcc", "xcompiler"):
            self.untranslatable(t, a)
        else:
            t.flags.append(a)
        return i
