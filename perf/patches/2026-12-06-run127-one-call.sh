#!/usr/bin/env bash
# Session 35: run 127 (exp/run127: top-p alone aims at 256 candidates,
# a sixteenth of the buffer, where it aimed at 512; rows mostly -Inf keep
# 1024) in one device call: timings of main / 127 alternating (top-p
# alone at 1024 rows in three dtypes, the small batches, the other vocab
# sizes, flat / neginf90 / one-hot), then 127's checks. Carry
# build/pack-main and build/pack127.
#   OUT=... bash perf/patches/2026-12-06-run127-one-call.sh
set -u
root=${OUT:-device-out}
builds=(base n127)
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
T='-batch+1024+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16,fp16'
S='-batch+1,8,64+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
P='-batch+1,64,1024+-vocab+151936,201088+-k+0+-p+0.9+-dist+llm,peaked'
M='-batch+64,1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90,neginf50,onehot'
steps=(run:mkdir:mkdir+-p+/tmp/base+/tmp/n127
  run:unpack-base:tar+-xJf+build/pack-main/new.tar.xz+-C+/tmp/base
  run:unpack-127:tar+-xJf+build/pack127/new.tar.xz+-C+/tmp/n127
  "run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for i in 1 2; do
  for g in T S P M; do
    for r in "${builds[@]}"; do steps+=("run:$g-$r-$i:$(bench $r)+${!g}"); done
  done
done
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-170} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
OUT=$root/checks BUDGET=${CHECKS_BUDGET:-300} TEST_LIMIT=${TEST_LIMIT:-285} BIN=/tmp/n127/device \
  bash scripts/device-steps.sh checks
