#!/usr/bin/env bash
# Runs 110-111 (session 26), one call: run 110 = exp/run110 (top-k candidates aimed at max(2k, 128), twice that
# for a sample mostly -Inf) against run 108's binary; run 111 = exp/run111 (run 110 plus deep rows' region
# slots staged by cp.async in the decider's region load) against run 110's; base first, alternating; the phases
# and the checks on run 111's binary.
export BIN=/tmp/n111/device BUDGET=${BUDGET:-560} STEP_LIMIT=100
B='/tmp/n108/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
N='/tmp/n110/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
L='-batch+1,8,64,1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm'
S='-batch+1,2,4,8,16,32+-vocab+128256,262208+-k+50+-p+0.9,1+-dist+llm'
M='-batch+1,64,1024+-vocab+128256+-k+50+-p+0.9,1+-dist+neginf90,neginf50,peaked,bf16ties'
H='-batch+8,64,1024+-vocab+128256+-k+50+-p+0.9+-dist+llm+-dtype+bf16,fp16'
P='-batch+1,2,4,8,16,64+-vocab+128256,151936,262208+-k+0+-p+0.9+-dist+llm'
bash scripts/device-steps.sh \
  run:mkdir:mkdir+-p+/tmp/n108+/tmp/n110+/tmp/n111 \
  run:unpack-108:tar+-xJf+build/pack110/n108.tar.xz+-C+/tmp/n108 \
  run:unpack-110:tar+-xJf+build/pack110/n110.tar.xz+-C+/tmp/n110 \
  run:unpack-111:tar+-xJf+build/pack110/n111.tar.xz+-C+/tmp/n111 \
  "run:warm:$B+-batch+64+-vocab+128256+-k+50+-p+0.9+-dist+llm+-gpu-reps+50" \
  "run:llm-base1:$B+$L" "run:ab-llm-new1:$N+$L" "ab:llm-n111-1:$L" \
  "run:small-base1:$B+$S" "run:ab-small-new1:$N+$S" "ab:small-n111-1:$S" \
  "run:small-base2:$B+$S" "run:ab-small-new2:$N+$S" "ab:small-n111-2:$S" \
  "run:misc-base1:$B+$M" "run:ab-misc-new1:$N+$M" \
  "run:half-base1:$B+$H" "run:ab-half-new1:$N+$H" \
  "run:topp-base1:$N+$P" "ab:topp-n111-1:$P" "run:topp-base2:$N+$P" "ab:topp-n111-2:$P" \
  "phases:B1_V128256_llm|B8_V262208_llm_kp|B64_V128256_llm_kp|B1024_V128256_llm_kp|B64_V128256_neginf90" \
  checks
