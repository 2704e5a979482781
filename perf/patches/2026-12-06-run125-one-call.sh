#!/usr/bin/env bash
# Session 35: runs 125 (exp/run125: the rest mass's exponent as one FFMA,
# fmaf(x, log2e, -base), the base's rounding taken off once where the
# rest is weighed) and 126 (exp/run126, on 125: keepable fp16 / bf16
# chunks compare with the threshold in pairs) in one device call.
# Phases (BenchmarkGPUPhases, now with -phases-dtype) in bf16 and fp32;
# timings of main / 125 / 126 alternating (top-p alone at 1024 and the
# split-row sizes, the joint group, flat / neginf90 / one-hot); then the
# checks (GPU tests, native tests, fuzz, memcheck / racecheck /
# synccheck) of CHECK (default n126). Carry build/pack-main,
# build/pack125 and build/pack126.
#   OUT=... bash perf/patches/2026-12-06-run125-one-call.sh
set -u
root=${OUT:-device-out}
builds=(base n125 n126)
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
phases() { echo "/tmp/$1/device/sampler.test+-test.run+^\$+-test.benchtime=1x+-phases-dtype=$2+-test.bench+GPUPhases/(B1024_V262208_llm_p|B1024_V262208_llm_kp|B1024_V128256_llm_p|B64_V128256_llm_p)"; }
T='-batch+1024+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16,fp16'
S='-batch+1,8,64+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
J='-batch+1,64,1024+-vocab+128256+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+64,1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90,onehot'
steps=(run:mkdir:mkdir+-p+/tmp/base+/tmp/n125+/tmp/n126
  run:unpack-base:tar+-xJf+build/pack-main/new.tar.xz+-C+/tmp/base
  run:unpack-125:tar+-xJf+build/pack125/new.tar.xz+-C+/tmp/n125
  run:unpack-126:tar+-xJf+build/pack126/new.tar.xz+-C+/tmp/n126
  "run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for r in "${builds[@]}"; do steps+=("run:phases-bf16-$r:$(phases $r bf16)"); done
for r in base n125; do steps+=("run:phases-fp32-$r:$(phases $r fp32)"); done
for i in 1 2; do
  for g in T S J M; do
    for r in "${builds[@]}"; do steps+=("run:$g-$r-$i:$(bench $r)+${!g}"); done
  done
done
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-255} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
OUT=$root/checks BUDGET=${CHECKS_BUDGET:-300} TEST_LIMIT=${TEST_LIMIT:-285} BIN=/tmp/${CHECK:-n126}/device \
  bash scripts/device-steps.sh checks
