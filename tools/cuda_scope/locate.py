"""Finding what the command runs with: clang-tidy, clang++, the module and the pass plugin, the CUDA
toolkit, the check pages -- relative to the command itself first (a checkout, an install), then the
user's registered build, then the system."""
import os
import re
import shutil
import subprocess

from .common import LLVM_MAJOR, MODULE_NAME, PASS_NAME, Fatal

# The folder of the cuda-scope script (a checkout's tools/, an install's bin/); the entry script sets
# it, and run as `python3 -m cuda_scope` from a checkout it is the package's parent, tools/.
COMMAND_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def user_data_dir():
    """$XDG_DATA_HOME, else ~/.local/share: where scripts/setup.sh registers the build it made."""
    return os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")


def find_module(opt):
    if opt:
        if not os.path.isfile(opt):
            raise Fatal(f"--module={opt}: no such file")
        return os.path.abspath(opt), []
    looked = []
    env = os.environ.get("CUDA_SCOPE_MODULE")
    candidates = [env] if env else []
    prefix = os.path.dirname(COMMAND_DIR)
    candidates += [os.path.join(prefix, "lib", "cuda-scope", MODULE_NAME)]
    lib = os.path.join(prefix, "lib")
    if os.path.isdir(lib):
        candidates += sorted(os.path.join(lib, d, "cuda-scope", MODULE_NAME) for d in os.listdir(lib))
    candidates += [os.path.join(prefix, "plugin", MODULE_NAME),            # a build tree's bin/
                   os.path.join(prefix, "build", "plugin", MODULE_NAME),   # a checkout's tools/
                   os.path.join(os.getcwd(), "build", "plugin", MODULE_NAME),
                   # what scripts/setup.sh registers for the user: a copy of the command that knows
                   # no build of its own (pre-commit's clone of this repository) finds it there
                   os.path.join(user_data_dir(), "cuda-scope", MODULE_NAME),
                   os.path.join("/usr/local/lib/cuda-scope", MODULE_NAME),
                   os.path.join("/usr/lib/cuda-scope", MODULE_NAME)]
    for c in candidates:
        looked.append(c)
        if os.path.isfile(c):
            return os.path.abspath(c), looked
    raise Fatal("the cuda-scope clang-tidy module was not found; looked for\n  " + "\n  ".join(looked) +
                f"\nbuild it with scripts/setup.sh in a checkout of cuda-scope (which also registers it for this "
                f"user in {os.path.join(user_data_dir(), 'cuda-scope')}), install it (cmake --install), or pass "
                f"--module=PATH/{MODULE_NAME}")


def compat_header(module):
    """The nvcc-compatibility header beside the module (compat/cuda-scope-nvcc.h, installed in
    include/ next to it), which the module adds to every clang-tidy run; None if it is not there."""
    path = os.path.join(os.path.dirname(os.path.abspath(module)), "include", "cuda-scope-nvcc.h")
    return path if os.path.isfile(path) else None


def require_compat_header(module):
    """The compatibility header beside \p module, or Fatal: a measurement run without it would not
    analyse what nvcc builds (its dialect costs whole files), and its figures would not compare."""
    header = compat_header(module)
    if not header:
        raise Fatal(f"{os.path.join(os.path.dirname(os.path.abspath(module)), 'include', 'cuda-scope-nvcc.h')} "
                    "not found: the nvcc-compatibility layer is installed beside the module, and without it "
                    "nvcc's dialect costs whole files; copy the plugin directory with its include/")
    return header


def compat_flags(module):
    """The flags that give a clang++ run (the IR pass) the layer the module gives clang-tidy."""
    header = compat_header(module)
    return ["-include", header] if header else []


def find_clang_tidy(opt):
    if opt:
        path = shutil.which(opt) or (opt if os.path.isfile(opt) else None)
        if not path:
            raise Fatal(f"--clang-tidy={opt}: not found")
        major = tool_major(path)
        if major is not None and major != LLVM_MAJOR:
            raise Fatal(f"--clang-tidy={opt} is clang-tidy {major}: the module is built for clang-tidy {LLVM_MAJOR} "
                        f"only, and another version cannot load it (apt-get install clang-tidy-{LLVM_MAJOR}, or pass "
                        f"--clang-tidy=clang-tidy-{LLVM_MAJOR}); nothing was analysed")
        return path
    for c in (os.environ.get("CLANG_TIDY"), f"clang-tidy-{LLVM_MAJOR}", f"/usr/lib/llvm-{LLVM_MAJOR}/bin/clang-tidy"):
        if c and shutil.which(c):
            return shutil.which(c)
    raise Fatal(f"clang-tidy {LLVM_MAJOR} was not found (looked for $CLANG_TIDY, clang-tidy-{LLVM_MAJOR} on PATH and "
                f"/usr/lib/llvm-{LLVM_MAJOR}/bin/clang-tidy); apt-get install clang-tidy-{LLVM_MAJOR}, "
                f"or pass --clang-tidy=PATH (the module is built for LLVM {LLVM_MAJOR} only)")


def tool_major(path):
    """The LLVM major version an LLVM tool says it is (--version), or None when it does not say."""
    try:
        p = subprocess.run([path, "--version"], capture_output=True, text=True, errors="replace", timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"LLVM version (\d+)\.", p.stdout + p.stderr)
    return int(m.group(1)) if m else None


def find_clang(opt, tidy):
    """clang++ 22, which runs the device-IR pass: --clang, $CLANG, clang++-22 on PATH, the one beside
    clang-tidy, LLVM's directory. None when there is none and none was asked for."""
    if opt:
        path = shutil.which(opt) or (opt if os.path.isfile(opt) else None)
        if not path:
            raise Fatal(f"--clang={opt}: not found")
        return path
    for c in (os.environ.get("CLANG"), f"clang++-{LLVM_MAJOR}",
              os.path.join(os.path.dirname(os.path.realpath(tidy)), "clang++"),
              f"/usr/lib/llvm-{LLVM_MAJOR}/bin/clang++"):
        if c and shutil.which(c):
            return shutil.which(c)
    return None


def find_pass(opt, module):
    """The pass plugin: --pass-plugin, else beside the clang-tidy module (both are built and
    installed together)."""
    if opt:
        if not os.path.isfile(opt):
            raise Fatal(f"--pass-plugin={opt}: no such file")
        return os.path.abspath(opt)
    path = os.path.join(os.path.dirname(os.path.abspath(module)), PASS_NAME)
    return path if os.path.isfile(path) else None


def find_clang_apply_replacements(tidy):
    for c in (os.path.join(os.path.dirname(os.path.realpath(tidy)), "clang-apply-replacements"),
              f"clang-apply-replacements-{LLVM_MAJOR}"):
        if shutil.which(c):
            return shutil.which(c)
    return None


def toolkit_candidates(opt):
    if opt:
        return [(opt, "--cuda-path")]
    if os.environ.get("CUDA_PATH"):
        return [(os.environ["CUDA_PATH"], "CUDA_PATH")]
    return [("/usr/local/cuda", "the default")]


def is_toolkit(path):
    return os.path.isfile(os.path.join(path, "include", "cuda_runtime.h"))


_NVCC_BUILDS = {}


def nvcc_build(cuda):
    """The build number of the toolkit's nvcc (13.0.88 -> 88), which nvcc defines as
    __CUDACC_VER_BUILD__ and the headers do not say; None without <cuda>/bin/nvcc."""
    if cuda not in _NVCC_BUILDS:
        build = None
        nvcc = os.path.join(cuda, "bin", "nvcc")
        if os.access(nvcc, os.X_OK):
            try:
                out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=30).stdout
                m = re.search(r"\bV\d+\.\d+\.(\d+)", out)
                build = int(m.group(1)) if m else None
            except (OSError, subprocess.SubprocessError):
                build = None
        _NVCC_BUILDS[cuda] = build
    return _NVCC_BUILDS[cuda]


def find_docs():
    for d in (os.path.join(os.path.dirname(COMMAND_DIR), "share", "doc", "cuda-scope", "checks"),
              os.path.join(os.path.dirname(COMMAND_DIR), "docs", "checks")):
        if os.path.isdir(d):
            return d
    return None


REMOTE = re.compile(r"^(?:https?://(?:[^@/]+@)?|ssh://(?:[^@/]+@)?|[^@/:]+@)(?P<host>[\w.-]+)(?::\d+)?[:/]"
                    r"(?P<path>[\w.-]+(?:/[\w.-]+)+)/?$")


def web_url(remote):
    """The web page of a git remote on a forge (https://host/owner/repo), or None for a path or a
    file:// remote, which has no page to point a reader at."""
    m = REMOTE.match(remote.strip())
    return f"https://{m.group('host')}/{re.sub(r'[.]git$', '', m.group('path'))}" if m else None


def help_uri_base(docs):
    """Where SARIF's helpUri points by default: the check pages on the web page of the cuda-scope
    repository the command comes from (its checkout's origin, at the commit it runs), or the base an
    install was configured with (CUDA_SCOPE_HELP_URI_BASE); None when neither is known (the pages
    are then named by file:// URIs)."""
    prefix = os.path.dirname(COMMAND_DIR)
    try:
        with open(os.path.join(prefix, "share", "cuda-scope", "help-uri-base"), encoding="utf-8") as fh:
            base = fh.read().strip()
        if base:
            return base
    except OSError:
        pass
    if not docs or os.path.dirname(os.path.dirname(docs)) != prefix or not os.path.exists(os.path.join(prefix, ".git")):
        return None

    def git(*args):
        try:
            p = subprocess.run(["git", "-C", prefix] + list(args), capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return p.stdout.strip() if p.returncode == 0 else None
    page, commit = web_url(git("remote", "get-url", "origin") or ""), git("rev-parse", "HEAD")
    return f"{page}/blob/{commit}/docs/checks/" if page and commit else None


def doc_summary(docs, check):
    """The first sentence of docs/checks/<name>.md, which is also the check's header summary."""
    if not docs:
        return None
    path = os.path.join(docs, check[len("cuda-scope-"):] + ".md")
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    para = []
    for line in lines:
        if line.startswith("#"):
            if para:
                break
            continue
        if not line.strip():
            if para:
                break
            continue
        para.append(line.strip())
    text = " ".join(para)
    m = re.match(r"(.+?\.)(\s|$)", text)
    return m.group(1) if m else (text or None)
