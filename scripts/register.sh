#!/usr/bin/env bash
# Registers a build of cuda-scope for this user: links its module, pass plugin and
# nvcc-compatibility header into ${XDG_DATA_HOME:-~/.local/share}/cuda-scope/, where the cuda-scope
# command looks when it has no build of its own (the copy pre-commit clones from a repo: entry).
# scripts/setup.sh runs it. USAGE: scripts/register.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
dest="${XDG_DATA_HOME:-$HOME/.local/share}/cuda-scope"
for f in libCudaScopeTidy.so libCudaScopePass.so include; do
  [ -e "$build/plugin/$f" ] || { echo "register: $build/plugin/$f is missing; build first (scripts/setup.sh)" >&2; exit 1; }
done
mkdir -p "$dest"
for f in libCudaScopeTidy.so libCudaScopePass.so include; do
  ln -sfn "$build/plugin/$f" "$dest/$f"
done
echo "register: $dest -> $build/plugin"
