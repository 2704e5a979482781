#!/usr/bin/env bash
# Run 86 (experiment): does staggering the persistent kernel's blocks by wave
# (QRITA_EXP_STAGGER=G,D) shorten the memory phases at large batch?
set -u
L=${OUT:-/tmp/out86}/logs; mkdir -p "$L"
tar -xzf build/pack86/v.tar.gz -C /tmp
B=/tmp/device
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$L/gpu.txt" 2>&1
t0=$(date +%s)
log() { echo "$(( $(date +%s) - t0 ))s $*" >> "$L/progress.txt"; }
QRITA_EXP_STAGGER=4,64 timeout 150 $B/sampler.test -test.count=1 -test.short -test.run 'GPU' > "$L/tests-stagger.txt" 2>&1; echo "rc $?" >> "$L/tests-stagger.txt"
log tests
for s in off 4,32 4,64; do
  QRITA_EXP_STAGGER=$s timeout 60 $B/sampler.test -test.run '^$' -test.bench 'GPUPhases/B1024_' -test.benchtime=1x > "$L/phases-$s.txt" 2>&1
done
log phases
bench() { timeout 90 $B/qrita-bench -backend cuda -baselines copy -ref=false "$@"; }
for pass in 1 2; do
  for s in off 4,16 4,32 4,64 2,64 8,16 4,128; do
    f="$L/sweep-p$pass-$s.txt"
    export QRITA_EXP_STAGGER=$s
    bench -batch 528,1024,4096 -vocab 128256 -k 50,0 -p 0.9 > "$f" 2>&1
    bench -batch 1024 -vocab 262208 -k 50 -p 0.9 >> "$f" 2>&1
    bench -dtype bf16 -batch 1024 -vocab 128256 -k 50 -p 0.9 >> "$f" 2>&1
    unset QRITA_EXP_STAGGER
    log "pass $pass $s"
  done
done
# summary: batch vocab k dtype us x-floor per setting
for f in "$L"/sweep-p*.txt; do
  echo "# $(basename $f)"; grep -E '^ +cuda' "$f" | awk '{print $3, $4, $5, $8, $10, $14}'
done > "$L/summary.txt"
log done
