#!/usr/bin/env bash
# Run 89: run 88 with the sample ahead only where every row may filter;
# acq_rel fences. New: build/device (no
# ablation); base: run 87's binary with -ablation no-clusters (main's code
# path, the same split kernel source as main).
set -u
L=${OUT:-/tmp/out89}/logs; mkdir -p "$L"
tar -xzf build/pack89/v.tar.gz -C /tmp
N=/tmp/device; B=/tmp/device-base
t0=$(date +%s)
log() { echo "$(( $(date +%s) - t0 ))s $*" >> "$L/progress.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$L/gpu.txt" 2>&1
( timeout 290 $N/sampler.test -test.v -test.count=1 -test.run 'GPU' > "$L/gpu-tests.log" 2>&1; echo "rc $?" >> "$L/gpu-tests.log"; log tests
  mkdir -p /tmp/fz; timeout 40 $N/sampler.test -test.run '^$' -test.fuzz '^FuzzGPUvsReference$' -test.fuzztime 15s -test.fuzzcachedir /tmp/fz > "$L/fuzz.log" 2>&1; echo "rc $?" >> "$L/fuzz.log"; log fuzz ) &
( for tool in memcheck racecheck synccheck; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $N/sampler.test -test.short -test.count=1 \
      -test.run 'GPUSanitizerCoverage|GPUBadInput|GPUTopKSecondGather' > "$L/sanitize-$tool.log" 2>&1
    echo "rc $?" >> "$L/sanitize-$tool.log"; log $tool
  done ) &
wait
log checks
ab() {  # name, flags: the change then the baseline, same cases
  local name=$1; shift
  timeout 100 $N/qrita-bench -backend cuda -baselines copy -ref=false "$@" > "$L/ab-$name-new.txt" 2>&1
  timeout 100 $B/qrita-bench -backend cuda -baselines copy -ref=false -ablation no-clusters "$@" > "$L/ab-$name-base.txt" 2>&1
  log "$name"
}
ab joint -batch 1,2,4,8,16,32,64 -vocab 128256,262208 -k 50 -p 0.9
ab modes -batch 1,8,64 -vocab 128256 -k 50,0 -p 1,0.9
ab joint2 -batch 1,8,64 -vocab 128256,262208 -k 50 -p 0.9
ab modes2 -batch 1,8,64 -vocab 128256 -k 0 -p 1
ab graph -timing graph -batch 1,8 -vocab 128256,262208 -k 50 -p 0.9
timeout 60 $N/sampler.test -test.run '^$' -test.bench 'GPUPhases/B1_|GPUPhases/B8_|GPUPhases/B64_V128256_llm' -test.benchtime=1x > "$L/phases.txt" 2>&1
log done
cd "$L" && tar czf ../logs89.tgz .
