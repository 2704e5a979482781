#!/usr/bin/env bash
# Session 35: the small-batch top-p alone (S) and joint (J) groups of main
# against runs 125 and 126 again, three rounds alternating (the first
# call had one sample each and showed bf16 B <= 8 1.5-3 % slower), then
# one more round of the 1024-row top-p group (T). Carry build/pack-main,
# build/pack125 and build/pack126.
#   OUT=... bash perf/patches/2026-12-06-run125-sj-repeat.sh
set -u
builds=(base n125 n126)
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
T='-batch+1024+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16,fp16'
S='-batch+1,8,64+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
J='-batch+1,64,1024+-vocab+128256+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
steps=(run:mkdir:mkdir+-p+/tmp/base+/tmp/n125+/tmp/n126
  run:unpack-base:tar+-xJf+build/pack-main/new.tar.xz+-C+/tmp/base
  run:unpack-125:tar+-xJf+build/pack125/new.tar.xz+-C+/tmp/n125
  run:unpack-126:tar+-xJf+build/pack126/new.tar.xz+-C+/tmp/n126
  "run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for i in 2 3 4; do
  for g in S J; do
    for r in "${builds[@]}"; do steps+=("run:$g-$r-$i:$(bench $r)+${!g}"); done
  done
done
for r in "${builds[@]}"; do steps+=("run:T-$r-3:$(bench $r)+$T"); done
OUT=${OUT:-device-out} BUDGET=${BUDGET:-240} STEP_LIMIT=40 bash scripts/device-steps.sh "${steps[@]}"
