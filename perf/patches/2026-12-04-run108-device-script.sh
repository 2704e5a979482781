#!/usr/bin/env bash
# Runs 108-109 (session 26), one call: run 108 = exp/run108 (split rows' part gathers as a13e963's, whole rows
# as main's) against main's binary (0f14b29), base first, alternating; run 109 = a diagnostic build of run 108
# (printf timelines of a split row's blocks and the decider's inner laps, BenchmarkGPUPhases B=1); then the
# checks on run 108's binary.
export BIN=/tmp/n108/device BUDGET=${BUDGET:-540} STEP_LIMIT=100
B='/tmp/main/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
L='-batch+1,8,64,1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm'
S='-batch+1,2,8,32+-vocab+128256,262208+-k+50+-p+0.9,1+-dist+llm'
H='-batch+8,64,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+llm,neginf90+-dtype+bf16'
D='/tmp/diag/device/sampler.test+-test.run+^$+-test.bench+GPUPhases/B1_V128256_llm|GPUPhases/B1_V128256_flat_p+-test.benchtime=1x'
bash scripts/device-steps.sh \
  run:mkdir:mkdir+-p+/tmp/n108+/tmp/main+/tmp/diag \
  run:unpack-main:tar+-xJf+build/pack108/main.tar.xz+-C+/tmp/main \
  run:unpack-108:tar+-xJf+build/pack108/n108.tar.xz+-C+/tmp/n108 \
  run:unpack-diag:tar+-xJf+build/pack108/diag.tar.xz+-C+/tmp/diag \
  "run:warm:$B+-batch+64+-vocab+128256+-k+50+-p+0.9+-dist+llm+-gpu-reps+50" \
  "run:diag109:$D" \
  "run:llm-base1:$B+$L" "ab:llm-new1:$L" "ab:llm-new2:$L" "run:llm-base2:$B+$L" \
  "run:small-base1:$B+$S" "ab:small-new1:$S" "ab:small-new2:$S" "run:small-base2:$B+$S" \
  "run:half-base1:$B+$H" "ab:half-new1:$H" \
  checks
