#!/usr/bin/env bash
# Builds the plugins with ASan + UBSan (clang++-22) in build-sanitized/ and runs the whole lit
# suite against them. Run after scripts/setup.sh, which installs what it needs.
# USAGE: scripts/check-sanitized.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build-sanitized
CXX=/usr/lib/llvm-22/bin/clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCUDA_SCOPE_SANITIZE=ON -Wno-dev >/dev/null
cmake --build "$build"
/usr/lib/llvm-22/bin/lit -sv "$build/test"
