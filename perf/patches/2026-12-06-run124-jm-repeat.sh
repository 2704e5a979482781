#!/usr/bin/env bash
# Session 34: the joint and the flat / neginf90 / one-hot groups of main
# against run 124 again (the first call had budget for one sample each),
# alternating, three rounds. Carry build/pack119 and build/pack124.
#   OUT=... bash perf/patches/2026-12-06-run124-jm-repeat.sh
set -u
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
J='-batch+64,1024+-vocab+128256+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+1024+-vocab+128256+-k+0+-p+0.9+-dist+neginf90,flat'
steps=(run:mkdir:mkdir+-p+/tmp/base+/tmp/n124
  run:unpack-base:tar+-xJf+build/pack119/new.tar.xz+-C+/tmp/base
  run:unpack-124:tar+-xJf+build/pack124/new.tar.xz+-C+/tmp/n124
  "run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for i in 1 2 3; do
  for g in J M; do
    for r in base n124; do steps+=("run:$g-$r-$i:$(bench $r)+${!g}"); done
  done
done
OUT=${OUT:-device-out} BUDGET=${BUDGET:-150} STEP_LIMIT=40 bash scripts/device-steps.sh "${steps[@]}"
