#!/usr/bin/env bash
# Session 38, call 2: run 138 (exp/run138: run 135 with a served row's
# parts asked of the L2 during the threshold and before each pass the
# decider posts) against main (run 133's kernel) and run 135 (32 groups
# of 8 parts), two samples; run 137 (run 135 with run 134's event log,
# diagnostic) on 1024 x 262208 bf16 top-p alone; the small batches of
# run 135 for the record; TestGPUHandedOnRowsMatchInPlace (its 2400 x
# 16384 case lists ~60 rows: two rounds of 32 groups) on run 135; and
# run 138's checks. RECORD=1 adds the event log and the small batches
# (left out of the call that ran: device time was short); NOCHECKS=1
# leaves out the checks (as in that call).
# Carry build/pack137 (one archive: /tmp/{base,n135,n137,n138}/device).
#   OUT=... bash perf/patches/2026-12-06-run137-one-call.sh
set -u
root=${OUT:-device-out}
builds=(base n135 n138)
t0=$(date +%s)
tar -xJf build/pack137/all.tar.xz -C /tmp
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
R='-batch+1024+-vocab+262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16+-seed'
T='-batch+1024+-vocab+128256+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
steps=("run:handon-n135:/tmp/n135/device/sampler.test+-test.v+-test.count=1+-test.run+TestGPUHandedOnRowsMatchInPlace")
steps+=("run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for i in 1 2; do
  for r in "${builds[@]}"; do
    for s in 1 2 3; do steps+=("run:R$s-$r-$i:$(bench $r)+$R+$s"); done
    steps+=("run:M-$r-$i:$(bench $r)+$M")
  done
done
for r in n135 n138; do steps+=("run:T-$r-1:$(bench $r)+$T"); done
if [ -n "${RECORD:-}" ]; then
steps+=("run:diag-bf16-s2:/tmp/n137/device/sampler.test+-test.run+^\$+-test.bench+GPUPhases/B1024_V262208_llm_p\$+-test.benchtime+1x+-phases-dtype+bf16+-phases-seed+2+-phases-slowest+40")
steps+=("run:small-joint:$(bench n135)+-batch+1,8,64+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16")
steps+=("run:small-topp:$(bench n135)+-batch+1,8,64+-vocab+128256,151936,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16")
steps+=("run:small-miss:$(bench n135)+-batch+1,64+-vocab+128256+-k+0,50+-p+0.9+-dist+flat,neginf90,onehot+-dtype+bf16")
fi
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-230} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
[ -n "${NOCHECKS:-}" ] && exit 0
left=$((${TOTAL:-575} - ($(date +%s) - t0)))
OUT=$root/checks BUDGET=$left TEST_LIMIT=$((left - 20 < 250 ? left - 20 : 250)) BIN=/tmp/n138/device \
  bash scripts/device-steps.sh checks
