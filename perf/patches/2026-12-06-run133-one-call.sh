#!/usr/bin/env bash
# Session 37, call 3: run 133 (exp/run133: run 132, i.e. runs 130 and 131,
# with kHandOnMissShare: past the first 16 rows offered, a row is listed
# only while fewer than 1 in 32 of the rows before it were offered, so
# flat and 90 % -Inf rows stay in place as on main) against main and run
# 132: its checks first (GPU tests, with a 1200 x 32768 case listing ~30
# rows, native tests, fuzz, sanitizers), then the timings of call 1.
# Carry build/pack133 (one archive: main's and 132's qrita-bench, 133's
# qrita-bench, sampler.test and native.test).
#   OUT=... bash perf/patches/2026-12-06-run133-one-call.sh
set -u
root=${OUT:-device-out}
builds=(base n132 n133)
t0=$(date +%s)
tar -xJf build/pack133/all.tar.xz -C /tmp  # /tmp/{base,n132,n133}/device
OUT=$root/checks BUDGET=${CHECKS_BUDGET:-270} TEST_LIMIT=${TEST_LIMIT:-250} BIN=/tmp/n133/device \
  bash scripts/device-steps.sh checks
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
R='-batch+1024+-vocab+262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16+-seed'
T='-batch+1024+-vocab+128256+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
W='-batch+256,2048+-vocab+262208+-k+0+-p+0.9+-dist+llm+-dtype+bf16'
J='-batch+1024+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
steps=("run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for i in 1 2; do
  for r in "${builds[@]}"; do
    for s in 1 2 3; do steps+=("run:R$s-$r-$i:$(bench $r)+$R+$s"); done
    steps+=("run:M-$r-$i:$(bench $r)+$M")
  done
  [ "$i" = 2 ] && break
  for g in T W J; do
    for r in "${builds[@]}"; do steps+=("run:$g-$r-$i:$(bench $r)+${!g}"); done
  done
done
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-$((575 - ($(date +%s) - t0)))} STEP_LIMIT=50 bash scripts/device-steps.sh "${steps[@]}"
