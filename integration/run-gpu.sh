#!/usr/bin/env bash
# Builds and runs every cuda-scope integration case (integration/cases/*/{bug,fixed}.cu) on this
# machine's GPU, and runs the buggy memory-model programs once more under compute-sanitizer.
#
#   integration/run-gpu.sh OUTDIR     writes OUTDIR/results.json and OUTDIR/log.txt
#
# Environment: DRY_RUN=1 only builds; NVCC, COMPUTE_SANITIZER pick the tools (default: PATH, then
# /usr/local/cuda/bin); JOBS parallel builds (default: nproc); RUN_TIMEOUT seconds per run (60);
# BUILD_DIR where the programs go (default OUTDIR/build); CASES a space-separated subset of cases.
# Render the table with: python3 integration/render-results.py OUTDIR/results.json > table.md
set -u -o pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$1" || exit 2
OUT="$(cd "$1" && pwd)"
BUILD="${BUILD_DIR:-$OUT/build}"
RUNS="$OUT/runs"
LOG="$OUT/log.txt"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 8)}"
RUN_TIMEOUT="${RUN_TIMEOUT:-60}"
DRY_RUN="${DRY_RUN:-0}"
find_tool() { command -v "$1" 2>/dev/null || { [ -x "/usr/local/cuda/bin/$1" ] && echo "/usr/local/cuda/bin/$1"; } || true; }
NVCC="${NVCC:-$(find_tool nvcc)}"
SANITIZER="${COMPUTE_SANITIZER:-$(find_tool compute-sanitizer)}"
NVCC_FLAGS=(-arch=sm_90 -O2)

mkdir -p "$BUILD" "$RUNS" || exit 2
: >"$LOG"
MANIFEST="$OUT/.manifest.tsv"   # one line per run, read by the final python step
: >"$MANIFEST"
T0=$(date +%s.%N)
now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(now)"; }
log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$LOG"; }

if [ -z "$NVCC" ]; then
  log "nvcc not found (set NVCC)"
  exit 2
fi

# The plan, from cases.json: case, variant, build flags, args, sanitizer args (tab-separated; lists
# space-separated; sanitizer args '-' when the program is not run under compute-sanitizer).
PLAN="$BUILD/plan.tsv"
python3 - "$HERE/cases.json" "${CASES:-}" >"$PLAN" <<'EOF' || { log "cannot read cases.json"; exit 2; }
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
only = set(sys.argv[2].split())
for c in cases:
    if only and c["case"] not in only:
        continue
    for v in ("bug", "fixed"):
        san = " ".join(c.get("sanitizer_args", [])) if (v == "bug" and c.get("sanitize")) else "-"
        print("\t".join([c["case"], v, " ".join(c.get("nvcc_flags", [])) or "-",
                         " ".join(c.get("args", [])) or "-", san or "-"]))
EOF
NPROG=$(wc -l <"$PLAN")
log "cuda-scope integration suite: $NPROG programs, nvcc $NVCC, compute-sanitizer ${SANITIZER:-none}, output $OUT"

# ---- build, in parallel ----------------------------------------------------------------------
TB=$(now)
rm -rf "$BUILD/cmd" && mkdir -p "$BUILD/cmd"
while IFS=$'\t' read -r case variant flags args san; do
  [ "$flags" = "-" ] && flags=""
  bin="$BUILD/$case.$variant"
  {
    echo "cd '$HERE'"
    echo "s=\$(date +%s.%N)"
    # A variant is one file, or a folder of files (.cu, .cpp) built into one program.
    if [ -d "$HERE/cases/$case/$variant" ]; then
      src=$(cd "$HERE" && ls cases/$case/$variant/*.cu cases/$case/$variant/*.cpp 2>/dev/null | tr '\n' ' ')
    else
      src="cases/$case/$variant.cu"
    fi
    echo "timeout 300 '$NVCC' ${NVCC_FLAGS[*]} -o '$bin' $src $flags >'$bin.build.log' 2>&1"
    echo "echo \$? \$(python3 -c 'import sys; print(f\"{float(sys.argv[2])-float(sys.argv[1]):.1f}\")' \$s \$(date +%s.%N)) >'$bin.build.rc'"
  } >"$BUILD/cmd/$case.$variant.sh"
  rm -f "$bin" "$bin.build.rc"
done <"$PLAN"
ls "$BUILD"/cmd/*.sh | xargs -P "$JOBS" -n 1 bash
BUILD_FAILED=0
while IFS=$'\t' read -r case variant flags args san; do
  bin="$BUILD/$case.$variant"
  read -r rc secs <"$bin.build.rc" 2>/dev/null || { rc=1; secs=0; }
  nwarn=$(grep -ci "warning" "$bin.build.log" || true)
  if [ "$rc" != 0 ]; then BUILD_FAILED=$((BUILD_FAILED + 1)); fi
  log "build $case/$variant: exit $rc, ${secs}s, $nwarn warning lines"
  { echo "---- nvcc ${NVCC_FLAGS[*]} cases/$case/$variant $([ "$flags" = "-" ] || echo "$flags")"; cat "$bin.build.log"; } >>"$LOG"
done <"$PLAN"
BUILD_S=$(since "$TB")
log "builds done in ${BUILD_S}s ($BUILD_FAILED failed)"

# ---- runs ------------------------------------------------------------------------------------
# run_one PHASE CASE VARIANT TOOL ARGS: runs one program (under compute-sanitizer TOOL unless '-').
run_one() {
  local phase=$1 case=$2 variant=$3 tool=$4 args=$5
  local bin="$BUILD/$case.$variant" base="$RUNS/$case.$variant.$phase"
  local -a argv=()
  [ "$args" != "-" ] && read -r -a argv <<<"$args"
  local -a cmd=("$bin" "${argv[@]}")
  local sanlog="-"
  if [ "$tool" != "-" ]; then
    sanlog="$base.sanitizer.log"
    cmd=("$SANITIZER" --tool "$tool" --log-file "$sanlog" "${cmd[@]}")
  fi
  local s rc wall
  s=$(now)
  timeout "$RUN_TIMEOUT" "${cmd[@]}" >"$base.out" 2>"$base.err"
  rc=$?
  wall=$(since "$s")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$phase" "$case" "$variant" "$rc" "$wall" "$base.out" "$base.err" "$sanlog" "${cmd[*]}" >>"$MANIFEST"
  log "$phase $case/$variant: exit $rc, ${wall}s: $(tail -n 1 "$base.out" | cut -c1-300)"
  {
    echo "---- $phase: ${cmd[*]}"
    cat "$base.out"
    [ -s "$base.err" ] && { echo "(stderr)"; cat "$base.err"; }
    [ "$sanlog" != "-" ] && [ -f "$sanlog" ] && { echo "(compute-sanitizer log, last 30 lines)"; tail -n 30 "$sanlog"; }
  } >>"$LOG"
}

TR=$(now)
RUN_S=0
SAN_S=0
if [ "$DRY_RUN" = 1 ]; then
  log "DRY_RUN=1: built only, nothing run"
else
  if ! nvidia-smi >/dev/null 2>&1; then log "warning: nvidia-smi fails; the programs will report themselves skipped (exit 77)"; fi
  while IFS=$'\t' read -r case variant flags args san; do
    [ -x "$BUILD/$case.$variant" ] || { log "run $case/$variant: not built"; continue; }
    run_one run "$case" "$variant" - "$args"
  done <"$PLAN"
  RUN_S=$(since "$TR")
  TS=$(now)
  if [ -n "$SANITIZER" ]; then
    for tool in racecheck synccheck; do
      while IFS=$'\t' read -r case variant flags args san; do
        [ "$san" = "-" ] && continue
        [ -x "$BUILD/$case.$variant" ] || continue
        run_one "$tool" "$case" "$variant" "$tool" "$san"
      done <"$PLAN"
    done
  else
    log "compute-sanitizer not found: sanitizer runs skipped"
  fi
  SAN_S=$(since "$TS")
fi

# ---- results.json ----------------------------------------------------------------------------
GPU="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
NVCC_VERSION="$("$NVCC" --version 2>/dev/null | grep -i release | head -n 1)"
SAN_VERSION="$([ -n "$SANITIZER" ] && "$SANITIZER" --version 2>/dev/null | grep -i version | head -n 1)"
TOTAL_S=$(since "$T0")
export GPU NVCC_VERSION SAN_VERSION DRY_RUN BUILD_S RUN_S SAN_S TOTAL_S
export NVCC_FLAGS_TEXT="${NVCC_FLAGS[*]}"
python3 - "$PLAN" "$MANIFEST" "$BUILD" "$OUT/results.json" <<'PY'
import datetime, json, os, re, socket, sys
plan_path, manifest_path, build, out_path = sys.argv[1:5]
env = os.environ

def read(path):
    try:
        return open(path, errors="replace").read()
    except OSError:
        return None

def last_json(path):
    """The last line of a program's stdout that is a JSON object, or None."""
    for line in reversed((read(path) or "").splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict):
                return obj
    return None

def sanitizer_summary(path):
    """Counts from compute-sanitizer's summary line."""
    res = {"errors": None}
    text = read(path)
    if text is None:
        res["note"] = "no sanitizer log"
        return res
    m = re.search(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", text)
    if m:
        res.update(hazards=int(m.group(1)), errors=int(m.group(2)), warnings=int(m.group(3)))
    m = re.search(r"ERROR SUMMARY: (\d+) errors?", text)
    if m and res["errors"] is None:
        res["errors"] = int(m.group(1))
    summary = [l.strip("= ") for l in text.splitlines() if "SUMMARY" in l]
    if summary:
        res["summary"] = summary[-1]
    return res

results, index = [], {}
for line in open(plan_path):
    case, variant = line.rstrip("\n").split("\t")[:2]
    rc_time = (read(f"{build}/{case}.{variant}.build.rc") or "1 0").split()
    warnings = sum("warning" in l.lower() for l in (read(f"{build}/{case}.{variant}.build.log") or "").splitlines())
    obj = {"case": case, "variant": variant, "instances": None, "failures": None,
           "build": {"exit": int(rc_time[0]), "seconds": float(rc_time[1]), "warnings": warnings}}
    if env["DRY_RUN"] == "1":
        obj["skipped"] = "dry run"
    elif int(rc_time[0]) != 0:
        obj["error"] = "build failed"
    index[(case, variant)] = obj
    results.append(obj)

for line in open(manifest_path):
    phase, case, variant, rc, wall, out, err, sanlog, cmd = line.rstrip("\n").split("\t")
    obj = index[(case, variant)]
    rc, wall = int(rc), float(wall)
    got = last_json(out)
    if phase == "run":
        if got:
            build_info = obj.pop("build")
            obj.clear()
            obj.update(got)
            obj["build"] = build_info
        elif rc == 77:
            obj["skipped"] = "no GPU (exit 77)"
        else:
            obj["error"] = "timed out" if rc in (124, 137) else "no JSON result line"
        obj["exit"] = rc
        obj["wall_s"] = wall
        obj["command"] = cmd
    else:
        s = sanitizer_summary(sanlog)
        s["exit"] = rc
        s["wall_s"] = wall
        s["instances"] = got.get("instances") if got else None
        s["failures_seen"] = got.get("failures") if got else None
        if rc in (124, 137):
            s["note"] = "timed out"
        obj.setdefault("sanitizer", {})[phase] = s

header = {
    "suite": "cuda-scope integration",
    "gpu": env.get("GPU") or None,
    "nvcc": env.get("NVCC_VERSION") or None,
    "compute_sanitizer": env.get("SAN_VERSION") or None,
    "nvcc_flags": env.get("NVCC_FLAGS_TEXT"),
    "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "host": socket.gethostname(),
    "dry_run": env["DRY_RUN"] == "1",
    "seconds": {k: float(env[v]) for k, v in
                (("build", "BUILD_S"), ("runs", "RUN_S"), ("sanitizer", "SAN_S"), ("total", "TOTAL_S"))},
}
with open(out_path, "w") as f:
    json.dump({"header": header, "results": results}, f, indent=1)
    f.write("\n")
print(f"wrote {out_path}: {len(results)} programs")
PY
log "suite done in ${TOTAL_S}s (build ${BUILD_S}s, runs ${RUN_S}s, sanitizer ${SAN_S}s); results: $OUT/results.json"
rm -f "$MANIFEST"
[ "$BUILD_FAILED" = 0 ]
