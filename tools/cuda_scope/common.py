"""What every part of the command shares: its version, exit statuses, file kinds, and how it
stops (Fatal) or warns."""
import os
import sys

VERSION = "0.1.0"
LLVM_MAJOR = 22
# nvcc 13's own default when a command names no GPU architecture.
DEFAULT_ARCH = "sm_75"
INTERNAL_ERROR = 3  # exit status of a bug in cuda-scope itself (0 clean, 1 findings, 2 usage or analysis errors)
MODULE_NAME = "libCudaScopeTidy.so"
PASS_NAME = "libCudaScopePass.so"
# What the IR pass's compile adds to the file's flags. The pass reads an atomic's CUDA meaning
# (atomicExch is relaxed at device scope, clang lowers it seq_cst at system scope) from the debug
# location of the builtin it was inlined from; -O2's late CFG simplification sinks the same atomic
# of two branches into one block (a lock released once after either of two critical sections) and
# merges the locations, which loses it. The pass only reads the IR: keeping them apart costs nothing.
PASS_COMPILE_FLAGS = ["-mllvm", "-sink-common-insts=false"]


LAUNCHERS = {"ccache", "sccache", "distcc", "icecc", "buildcache"}
HEADER_EXTS = {".cuh", ".h", ".hh", ".hpp", ".hxx", ".inl", ".inc"}
CXX_EXTS = {".cpp", ".cc", ".cxx", ".c++", ".cp", ".C"}


class Fatal(Exception):
    """Input that stops the whole run; the message says what to do. Exit status 2."""


def find_up(folder, name):
    """The nearest folder at or above `folder` holding `name` (as git and clang-tidy look), or None."""
    d = os.path.abspath(folder)
    while True:
        if os.path.exists(os.path.join(d, name)):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def source_line(file, line, cache):
    """Line `line` of file as bytes (files read once into cache); None when it cannot be read."""
    if file not in cache:
        try:
            with open(file, "rb") as fh:
                cache[file] = fh.read().split(b"\n")
        except OSError:
            cache[file] = None
    lines = cache[file]
    return lines[line - 1] if lines and 0 < line <= len(lines) else None


def warn(msg):
    print(f"cuda-scope: warning: {msg}", file=sys.stderr)


def error(msg):
    print(f"cuda-scope: error: {msg}", file=sys.stderr)
