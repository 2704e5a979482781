#!/usr/bin/env bash
# Session 34: the rest of run 123 in one device call. First the groups that
# session 33 had no time for (flat / neginf90 / one-hot, and joint top-k +
# top-p), main against 123 alternating, then 123's checks (GPU tests, native
# tests, fuzz, memcheck / racecheck / synccheck). Carry build/pack119 and
# build/pack123.
#   OUT=... bash perf/patches/2026-12-06-run123-checks-mj.sh
set -u
root=${OUT:-device-out}
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
M='-batch+64,1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90,onehot'
J='-batch+1,8,64,1024+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
K='-batch+64,1024+-vocab+128256+-k+50+-p+1+-dist+llm+-dtype+fp32,bf16'
steps=(run:mkdir:mkdir+-p+/tmp/base+/tmp/n123
  run:unpack-base:tar+-xJf+build/pack119/new.tar.xz+-C+/tmp/base
  run:unpack-123:tar+-xJf+build/pack123/new.tar.xz+-C+/tmp/n123
  "run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for i in 1 2; do
  for g in M J K; do
    steps+=("run:$g-base$i:$(bench base)+${!g}" "run:$g-123-$i:$(bench n123)+${!g}")
  done
done
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-160} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
OUT=$root/checks BUDGET=${CHECKS_BUDGET:-400} TEST_LIMIT=${TEST_LIMIT:-360} BIN=/tmp/n123/device \
  bash scripts/device-steps.sh checks
