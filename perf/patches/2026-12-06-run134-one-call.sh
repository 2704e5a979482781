#!/usr/bin/env bash
# Session 38, call 1: where a served (handed-on) row's time goes, and
# whether more, smaller groups serve the listed rows sooner.
# - Run 134 (exp/run134, diagnostic, not for main): an event log of the
#   served rows (claim, threshold, gather, arrival, each posted task, the
#   decider's waits, the helpers' polls and tasks, the verdict, the write),
#   globaltimer stamps, printed by the last block to leave;
#   BenchmarkGPUPhases 1024 x 262208 top-p alone.
# - Runs 135 / 136 (exp/run135, exp/run136): kHandOnGroups 32 / 64 (8 / 4
#   parts a listed row on an H100, the same workspace), the first 16
#   offers listed freely as before (kHandOnFreeOffers), against main
#   (run 133's kernel), seeds 1-3; then run 135's checks.
# Carry build/pack134 (one archive: /tmp/{base,n134,n135,n136}/device).
#   OUT=... bash perf/patches/2026-12-06-run134-one-call.sh
set -u
root=${OUT:-device-out}
builds=(base n135 n136)
t0=$(date +%s)
tar -xJf build/pack134/all.tar.xz -C /tmp
ph() { echo "run:diag-$1-s$2:/tmp/n134/device/sampler.test+-test.run+^\$+-test.bench+GPUPhases/B1024_V262208_llm_p\$+-test.benchtime+1x+-phases-dtype+$1+-phases-seed+$2+-phases-slowest+40"; }
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
R='-batch+1024+-vocab+262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16+-seed'
T='-batch+1024+-vocab+128256+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
W='-batch+2048+-vocab+262208+-k+0+-p+0.9+-dist+llm+-dtype+bf16'
M='-batch+1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
steps=("$(ph bf16 2)" "$(ph bf16 1)" "$(ph fp32 2)")
steps+=("run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for i in 1 2; do
  for r in "${builds[@]}"; do
    for s in 1 2 3; do steps+=("run:R$s-$r-$i:$(bench $r)+$R+$s"); done
    steps+=("run:M-$r-$i:$(bench $r)+$M")
  done
  [ "$i" = 2 ] && break
  for g in T W; do
    for r in "${builds[@]}"; do steps+=("run:$g-$r-$i:$(bench $r)+${!g}"); done
  done
done
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-300} STEP_LIMIT=50 bash scripts/device-steps.sh "${steps[@]}"
left=$((575 - ($(date +%s) - t0)))
OUT=$root/checks BUDGET=$left TEST_LIMIT=$((left - 20 < 250 ? left - 20 : 250)) BIN=/tmp/n135/device \
  bash scripts/device-steps.sh checks
