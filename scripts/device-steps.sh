#!/usr/bin/env bash
# Runs on the lent GPU machine (no Go there): the checks and timings of one
# PERFLOG run, step by step, within the call's time. Every step's log goes
# to a work folder and the folder is packed into $OUT/logs.tgz after each
# step, so a call cut short still returns what ran (the device tool brings
# back a few loose files at most).
#
# Usage: scripts/device-steps.sh STEP...
#   checks      GPU tests, native tests and 15 s of GPU fuzz, beside
#               memcheck, racecheck and synccheck of the sanitizer tests
#   ab:NAME:ARGS  qrita-bench -backend cuda -baselines copy -ref=false
#               -ablation $ABL ARGS (ARGS: qrita-bench flags, commas kept,
#               words split on '+' since ':' ends the name)
#   phases:PATTERN  BenchmarkGPUPhases cases matching PATTERN
#   run:NAME:CMD  any command (words split on '+'), output to NAME.txt
# Environment: BIN (the folder of the binaries, default build/device),
# PACK (a tarball of that folder to unpack first), ABL (ablations of ab
# steps, default none), BUDGET (seconds the call may take, default 575),
# STEP_LIMIT (seconds a bench step may take, default 100), TEST_LIMIT
# (seconds the GPU test run of checks may take, default 290: an H100 needs
# ~1.4x an H200's time, so give it more there).
set -u
out=${OUT:-device-out}
work=$(mktemp -d)
mkdir -p "$out"
t0=$(date +%s)
if [ -n "${PACK:-}" ]; then
  tar -xzf "$PACK" -C "$work" && BIN=$work/device
fi
bin=${BIN:-build/device}
logs=$work/logs
mkdir -p "$logs"
left() { echo $((${BUDGET:-575} - ($(date +%s) - t0))); }
pack() { tar -czf "$out/logs.tgz.part" -C "$logs" . && mv "$out/logs.tgz.part" "$out/logs.tgz"; }
log() {
  echo "$(($(date +%s) - t0))s $*" >>"$logs/progress.txt"
  pack
}
limit() {  # seconds a step may take: its own cap, less what the call has left
  local t
  t=$(left)
  t=$((t - 10))
  [ "$t" -gt "$1" ] && t=$1
  echo "$t"
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv >"$logs/gpu.txt" 2>&1
log start

checks() {
  (
    timeout "$(limit "${TEST_LIMIT:-290}")" "$bin/sampler.test" -test.v -test.count=1 -test.run 'GPU' >"$logs/gpu-tests.txt" 2>&1
    echo "rc $?" >>"$logs/gpu-tests.txt"
    log tests
    timeout "$(limit 60)" "$bin/native.test" -test.count=1 >"$logs/native-tests.txt" 2>&1
    echo "rc $?" >>"$logs/native-tests.txt"
    mkdir -p "$work/fuzz"
    timeout "$(limit 40)" "$bin/sampler.test" -test.run '^$' -test.fuzz '^FuzzGPUvsReference$' -test.fuzztime 15s \
      -test.fuzzcachedir "$work/fuzz" >"$logs/fuzz.txt" 2>&1
    echo "rc $?" >>"$logs/fuzz.txt"
    log fuzz
  ) &
  (
    for tool in memcheck racecheck synccheck; do
      timeout "$(limit 130)" compute-sanitizer --tool $tool --error-exitcode 3 "$bin/sampler.test" -test.short \
        -test.count=1 -test.run 'GPUSanitizerCoverage|GPUBadInput|GPUTopKSecondGather|GPUBinnedTopP|GPUTopPAlignment|GPUChainedCalls' >"$logs/sanitize-$tool.txt" 2>&1
      echo "rc $?" >>"$logs/sanitize-$tool.txt"
      log "$tool"
    done
  ) &
  wait
}

for step in "$@"; do
  kind=${step%%:*}
  rest=${step#*:}
  name=${rest%%:*}
  args=${rest#*:}
  args=${args//+/ }
  t=$(limit "${STEP_LIMIT:-100}")
  if [ "$kind" != checks ] && [ "$t" -lt 15 ]; then
    log "skip $step"
    continue
  fi
  case $kind in
  checks) checks ;;
  ab)
    # shellcheck disable=SC2086 # ARGS are words
    timeout "$t" "$bin/qrita-bench" -backend cuda -baselines copy -ref=false -ablation "${ABL:-none}" $args \
      >"$logs/ab-$name.txt" 2>&1
    ;;
  phases)
    timeout "$t" "$bin/sampler.test" -test.run '^$' -test.bench "GPUPhases/($name)" -test.benchtime=1x \
      >"$logs/phases-${name//[^A-Za-z0-9_]/_}.txt" 2>&1
    ;;
  run)
    # shellcheck disable=SC2086
    timeout "$t" $args >"$logs/$name.txt" 2>&1
    ;;
  *) echo "unknown step $step" >>"$logs/progress.txt" ;;
  esac
  log "$step"
done
log done
