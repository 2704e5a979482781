#!/usr/bin/env bash
# Run 91: run 90 with the network unrolled (compile-time sizes 512 and 1024)
# (cuda/sorted_top_k.cuh) against the digit search, in one binary:
# `-ablation in-place,in-place+no-sort` (both through the benchmark entry;
# in-place changes nothing for rows that do not miss). Checks first.
set -u
L=${OUT:-/tmp/out91}/logs; mkdir -p "$L"
tar -xzf build/pack91/v.tar.gz -C /tmp
N=/tmp/device
t0=$(date +%s)
left() { echo $(( ${BUDGET:-575} - ($(date +%s) - t0) )); }
log() { echo "$(( $(date +%s) - t0 ))s $*" >> "$L/progress.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$L/gpu.txt" 2>&1
if [ "${CHECKS:-1}" = 1 ]; then
( timeout 290 $N/sampler.test -test.v -test.count=1 -test.run 'GPU' > "$L/gpu-tests.log" 2>&1; echo "rc $?" >> "$L/gpu-tests.log"; log tests
  timeout 60 $N/native.test -test.count=1 > "$L/native-tests.log" 2>&1; echo "rc $?" >> "$L/native-tests.log"
  mkdir -p /tmp/fz; timeout 40 $N/sampler.test -test.run '^$' -test.fuzz '^FuzzGPUvsReference$' -test.fuzztime 15s -test.fuzzcachedir /tmp/fz > "$L/fuzz.log" 2>&1; echo "rc $?" >> "$L/fuzz.log"; log fuzz ) &
( for tool in memcheck racecheck synccheck; do
    timeout 130 compute-sanitizer --tool $tool --error-exitcode 3 $N/sampler.test -test.short -test.count=1 \
      -test.run 'GPUSanitizerCoverage|GPUBadInput|GPUTopKSecondGather' > "$L/sanitize-$tool.log" 2>&1
    echo "rc $?" >> "$L/sanitize-$tool.log"; log $tool
  done ) &
wait
log checks
fi
ab() {  # name, flags: the same cases with the sort and without
  local name=$1; shift
  local t=$(left); [ "$t" -gt 100 ] && t=100
  [ "$t" -lt 15 ] && { log "skip $name"; return; }
  timeout $t $N/qrita-bench -backend cuda -baselines copy -ref=false -ablation ${ABL:-none,in-place,in-place+no-sort} "$@" > "$L/ab-$name.txt" 2>&1
  log "$name"
}
for step in ${STEPS:-small modes large dtypes misses ids phases}; do
  case $step in
  small) ab joint -batch 1,2,4,8,16,32,64 -vocab 128256,262208 -k 50 -p 0.9 ;;
  modes) ab modes -batch 1,8,64 -vocab 128256 -k 50,0 -p 1,0.9 ;;
  large) ab large -batch 528,1024,4096 -vocab 128256 -k 50 -p 1,0.9
         ab large262 -batch 1024 -vocab 262208 -k 50 -p 1,0.9 ;;
  dtypes) ab dtypes -dtype bf16,fp16 -batch 1,64,1024 -vocab 128256 -k 50 -p 0.9 ;;
  misses) ABL=none,no-sort ab misses -dist neginf90,flat,onehot -batch 64,1024 -vocab 128256 -k 50 -p 0.9 ;;
  ids) t=$(left); [ "$t" -gt 60 ] && t=60
       [ "$t" -ge 15 ] && timeout $t $N/qrita-bench -backend cuda -baselines copy,read -ref=false -out ids -batch 1024 -vocab 128256,262208 -k 50 -p 1,0.9 > "$L/ids.txt" 2>&1; log ids ;;
  phases) t=$(left); [ "$t" -gt 60 ] && t=60
       [ "$t" -ge 15 ] && timeout $t $N/sampler.test -test.run '^$' -test.bench 'GPUPhases/B1_|GPUPhases/B8_|GPUPhases/B64_V128256_llm|GPUPhases/B1024_V128256_llm' -test.benchtime=1x > "$L/phases.txt" 2>&1
       [ "$(left)" -ge 30 ] && timeout 50 $N/sampler.test -test.run '^$' -test.bench 'GPUPhases/B1_|GPUPhases/B8_|GPUPhases/B64_V128256_llm|GPUPhases/B1024_V128256_llm' -test.benchtime=1x -phases-ablation=16 > "$L/phases-nosort.txt" 2>&1; log phases ;;
  esac
done
log done
cd "$L" && tar czf ../logs91.tgz .
