#!/usr/bin/env bash
# Session 36, call 4: run 130's checks (GPU tests with the sample-planting
# tests on sampleIndex, native tests, fuzz, memcheck / racecheck /
# synccheck), then the seed-1 1024 x 262208 top-p alone cases once more
# beside main. Carry build/pack-main and build/pack130.
set -u
root=${OUT:-device-out}
mkdir -p /tmp/base /tmp/n130
tar -xJf build/pack-main/new.tar.xz -C /tmp/base
tar -xJf build/pack130/new.tar.xz -C /tmp/n130
OUT=$root/checks BUDGET=${CHECKS_BUDGET:-280} TEST_LIMIT=${TEST_LIMIT:-260} BIN=/tmp/n130/device \
  bash scripts/device-steps.sh checks
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false+-k+0+-p+0.9+-dist+llm"; }
steps=()
for i in 1 2; do
  for r in base n130; do
    steps+=("run:R-$r-$i:$(bench $r)+-batch+1024+-vocab+128256,262208+-dtype+fp32,bf16")
  done
done
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-120} STEP_LIMIT=40 bash scripts/device-steps.sh "${steps[@]}"
