#!/usr/bin/env bash
# Prepared in session 39 for the next call: run 141 (exp/run141: the rows'
# 16-byte loads and stores evict-first in the split kernel only, batches
# up to the SM count; the persistent kernel as main's) against main (n135:
# run 135's kernel), alternating, two samples of the batches the split
# kernel takes (1-132 rows, LLM, flat and neginf90), one of 1024 rows
# (whose code should not change), then run 141's checks.
# Carry build/pack141 (one archive: /tmp/{n135,n141}/device).
#   OUT=... bash perf/patches/2026-12-06-run141-one-call.sh
# TOTAL (575) bounds the call; NOCHECKS=1 leaves out the checks.
set -u
root=${OUT:-device-out}
builds=(n135 n141)
t0=$(date +%s)
tar -xJf build/pack141/all.tar.xz -C /tmp
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
P='-batch+1,8,32,64,100,132+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
J='-batch+1,8,32,64,100,132+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
F='-batch+8,64,132+-vocab+128256+-k+0,50+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
L='-batch+1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
steps=("run:warm:$(bench n135)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for i in 1 2; do
  for r in "${builds[@]}"; do
    for g in P J F; do steps+=("run:$g-$r-$i:$(bench $r)+${!g}"); done
  done
done
for r in "${builds[@]}"; do steps+=("run:L-$r-1:$(bench $r)+$L"); done
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-250} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
[ -n "${NOCHECKS:-}" ] && exit 0
left=$((${TOTAL:-575} - ($(date +%s) - t0)))
OUT=$root/checks BUDGET=$left TEST_LIMIT=$((left - 20 < 250 ? left - 20 : 250)) BIN=/tmp/n141/device \
  bash scripts/device-steps.sh checks
