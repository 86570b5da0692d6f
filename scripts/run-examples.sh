#!/usr/bin/env bash
# Runs the analyzer on the bundled examples/ and prints what it finds, as clang-tidy
# and clang print it: the cuda-scope-* clang-tidy checks on both compilation sides,
# then the device-IR pass. Needs the CUDA toolkit (CUDA_PATH, default /usr/local/cuda).
# USAGE: scripts/run-examples.sh [BUILD_DIR]
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
cuda=${CUDA_PATH:-/usr/local/cuda}
tools=/usr/lib/llvm-22/bin
module="$build/plugin/libCudaScopeTidy.so"
pass="$build/plugin/libCudaScopePass.so"
# The nvcc-compatibility layer: the module adds it to clang-tidy's runs, clang++ takes it by -include.
compat="$build/plugin/include/cuda-scope-nvcc.h"

if [ ! -f "$cuda/include/cuda_runtime.h" ]; then
  echo "run-examples: no CUDA toolkit at $cuda (looked for $cuda/include/cuda_runtime.h);" \
       "install it or set CUDA_PATH" >&2
  exit 2
fi
for f in "$module" "$pass" "$compat"; do
  [ -f "$f" ] || { echo "run-examples: $f is missing; run scripts/setup.sh first" >&2; exit 2; }
done

flags=(--cuda-path="$cuda" -I"$cuda/include/cccl" -Wno-unknown-cuda-version -std=c++17)
status=0
for src in "$root"/examples/*.cu; do
  echo "=== ${src#$root/} (clang-tidy, host side)"
  "$tools/clang-tidy" -load="$module" -checks='-*,cuda-scope-*' --quiet "$src" -- \
    -x cuda --cuda-host-only "${flags[@]}" 2>/dev/null || status=1
  echo "=== ${src#$root/} (device IR pass, -O2)"
  "$tools/clang++" -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 "${flags[@]}" -include "$compat" -O2 \
    -mllvm -sink-common-insts=false -fpass-plugin="$pass" -Rpass-analysis=cuda-scope -S -emit-llvm -o /dev/null \
    "$src" || status=1
done
exit $status
