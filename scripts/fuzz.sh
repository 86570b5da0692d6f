#!/usr/bin/env bash
# Builds the libFuzzer targets with clang++-22 (ASan + UBSan) and runs each for SECONDS,
# starting from the seed corpus in test/fuzz/. Exits non-zero on the first crash.
# USAGE: scripts/fuzz.sh [SECONDS] [OUT_DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
out=${2:-$root/build/fuzz}
llvm=/usr/lib/llvm-22
mkdir -p "$out/ptx-corpus"
"$llvm/bin/clang++" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -I"$root/checks" -isystem "$llvm/include" \
  "$root/tools/fuzz/PtxFuzzer.cpp" "$root"/checks/model/*.cpp \
  -L"$llvm/lib" -Wl,-rpath,"$llvm/lib" -lLLVM -o "$out/ptx-fuzzer"
cd "$out"
./ptx-fuzzer -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
  ptx-corpus "$root/test/fuzz/ptx-corpus" 2>&1 | tail -n 12
