#!/usr/bin/env bash
# Runs 106-107 (session 25), one call: run 106 = fab8457 (run 105's per-lane appends except in the fp32 joint /
# top-k gathers of split rows' parts), run 107 = run 106 plus per-lane appends in the whole-row binned top-p's
# bin gather; each against a13e963's binary, base first, then the new ones, alternating; the phases; then the
# checks on run 107's binary.
export BIN=/tmp/n107/device BUDGET=${BUDGET:-480} STEP_LIMIT=100
B='/tmp/base/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
N='/tmp/n106/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
L='-batch+1,8,64,1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm'
S='-batch+1,2,8,32+-vocab+128256,262208+-k+50+-p+0.9,1+-dist+llm'
H='-batch+64,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+llm,neginf90+-dtype+bf16,fp16'
M='-batch+1,64,256,1024+-vocab+128256+-k+0+-p+0.9+-dist+neginf90,peaked,flat'
bash scripts/device-steps.sh \
  run:mkdir:mkdir+-p+/tmp/n106+/tmp/n107 \
  run:unpack-base:tar+-xJf+build/pack106/base.tar.xz+-C+/tmp \
  run:unpack-106:tar+-xJf+build/pack106/n106.tar.xz+-C+/tmp/n106 \
  run:unpack-107:tar+-xJf+build/pack106/n107.tar.xz+-C+/tmp/n107 \
  "run:warm:$B+-batch+64+-vocab+128256+-k+50+-p+0.9+-dist+llm+-gpu-reps+50" \
  "run:llm-base1:$B+$L" "run:ab-llm-new1:$N+$L" "ab:llm-n107-1:$L" \
  "run:ab-llm-new2:$N+$L" "ab:llm-n107-2:$L" "run:llm-base2:$B+$L" \
  "run:small-base1:$B+$S" "run:ab-small-new1:$N+$S" "run:ab-small-new2:$N+$S" "run:small-base2:$B+$S" \
  "run:small-base3:$B+$S" "run:ab-small-new3:$N+$S" \
  "run:half-base1:$B+$H" "run:ab-half-new1:$N+$H" "ab:half-n107-1:$H" \
  "run:misc-base1:$B+$M" "run:ab-misc-new1:$N+$M" "ab:misc-n107-1:$M" \
  "phases:B1024_V128256_llm_p|B64_V128256_llm_p|B1_V128256_llm_kp|B1024_V128256_llm_kp|B64_V128256_flat_p|B64_V128256_neginf90_p" \
  checks
