#!/usr/bin/env bash
# Session 34: run 124 (exp/run124: the top-p gather's rest-mass walk and
# the aligned walk made one, walk_chunks) in one device call. Timings of
# main / 123 / 124 alternating (top-p alone at 1024 and 64, the split-row
# sizes whose kernels spilled, and the joint group), then 124's checks
# (GPU tests, native tests, fuzz, memcheck / racecheck / synccheck). Carry
# build/pack119, build/pack123 and build/pack124 (~63 MB with the tree).
#   OUT=... bash perf/patches/2026-12-06-run124-one-call.sh
set -u
root=${OUT:-device-out}
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
T='-batch+1024+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16,fp16'
S='-batch+1,8,32,64+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
J='-batch+1,8,64,1024+-vocab+128256+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+64,1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90,onehot'
steps=(run:mkdir:mkdir+-p+/tmp/base+/tmp/n123+/tmp/n124
  run:unpack-base:tar+-xJf+build/pack119/new.tar.xz+-C+/tmp/base
  run:unpack-123:tar+-xJf+build/pack123/new.tar.xz+-C+/tmp/n123
  run:unpack-124:tar+-xJf+build/pack124/new.tar.xz+-C+/tmp/n124
  "run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for i in 1 2; do
  for g in S T J M; do
    for r in base n123 n124; do steps+=("run:$g-$r-$i:$(bench $r)+${!g}"); done
  done
done
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-180} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
OUT=$root/checks BUDGET=${CHECKS_BUDGET:-390} TEST_LIMIT=${TEST_LIMIT:-360} BIN=/tmp/n124/device \
  bash scripts/device-steps.sh checks
