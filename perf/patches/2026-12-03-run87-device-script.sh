#!/usr/bin/env bash
# Run 87: small batches' rows over a thread-block cluster (sm_90) against
# the split kernel (the no-clusters ablation), in one binary.
set -u
L=${OUT:-/tmp/out87}/logs; mkdir -p "$L"
tar -xzf build/pack87/v.tar.gz -C /tmp
B=/tmp/device
t0=$(date +%s)
log() { echo "$(( $(date +%s) - t0 ))s $*" >> "$L/progress.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$L/gpu.txt" 2>&1
# Lane 1: the GPU tests, then 15 s of fuzzing. Lane 2: the sanitizers.
( timeout 300 $B/sampler.test -test.v -test.count=1 -test.run 'GPU' > "$L/gpu-tests.log" 2>&1; echo "rc $?" >> "$L/gpu-tests.log"
  log tests
  timeout 40 $B/sampler.test -test.run '^$' -test.fuzz '^FuzzGPUvsReference$' -test.fuzztime 15s > "$L/fuzz.log" 2>&1; echo "rc $?" >> "$L/fuzz.log"
  log fuzz ) &
( for tool in memcheck racecheck synccheck; do
    timeout 170 compute-sanitizer --tool $tool --error-exitcode 3 $B/sampler.test -test.short -test.count=1 -test.v \
      -test.run 'GPUSanitizerCoverage|GPUBadInput|GPUTopKSecondGather|GPUClusterRows' > "$L/sanitize-$tool.log" 2>&1
    echo "rc $?" >> "$L/sanitize-$tool.log"; log $tool
  done ) &
wait
log checks
bench() { timeout 100 $B/qrita-bench -backend cuda -baselines copy -ref=false -ablation none,no-clusters "$@"; }
bench -batch 1,2,4,8,16 -vocab 128256,262208 -k 50 -p 0.9 > "$L/ab-joint.txt" 2>&1; log joint
bench -batch 1,8,16 -vocab 128256,262208 -k 50,0 -p 1,0.9 > "$L/ab-modes.txt" 2>&1; log modes
bench -batch 1,8 -vocab 128256 -k 50,0 -p 0.9 -dist flat,neginf90,neginf99,onehot > "$L/ab-miss.txt" 2>&1; log miss
bench -dtype bf16,fp16 -batch 1,8 -vocab 128256 -k 50 -p 0.9 > "$L/ab-half.txt" 2>&1; log half
bench -timing graph -batch 1,8 -vocab 128256,262208 -k 50 -p 0.9 > "$L/ab-graph.txt" 2>&1; log graph
bench -batch 1,8,16 -vocab 128256,262208 -k 50 -p 0.9 > "$L/ab-joint2.txt" 2>&1; log joint2
timeout 60 $B/sampler.test -test.run '^$' -test.bench 'GPUPhases/B1_|GPUPhases/B8_' -test.benchtime=1x > "$L/phases.txt" 2>&1
log done
grep -hE '^(--- FAIL|FAIL|PASS|ok|rc )' "$L/gpu-tests.log" "$L/fuzz.log" | head -20
for f in "$L"/sanitize-*.log; do echo "$(basename $f): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $f | tail -1) $(tail -1 $f)"; done
