#!/usr/bin/env bash
# Run 114 (session 27), one call: the merged ranking of split rows' parts (exp/run114) against main's binary
# (1f3ad1d's code, run 113's record), base first, alternating; then the checks on the new binaries.
export BIN=/tmp/n114/device BUDGET=${BUDGET:-570} STEP_LIMIT=100
A='/tmp/b114/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
S='-batch+1,2,4,8,16,32+-vocab+128256,262208+-k+50+-p+0.9,1+-dist+llm'
G='-batch+1,8+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-timing+graph'
L='-batch+64,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+llm'
H='-batch+8,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+llm+-dtype+bf16'
bash scripts/device-steps.sh \
  run:mkdir:mkdir+-p+/tmp/b114+/tmp/n114 \
  run:unpack-base:tar+-xJf+build/pack114/base.tar.xz+-C+/tmp/b114 \
  run:unpack-new:tar+-xJf+build/pack114/new.tar.xz+-C+/tmp/n114 \
  "run:warm:$A+-batch+64+-vocab+128256+-k+50+-p+0.9+-dist+llm+-gpu-reps+50" \
  "run:small-base1:$A+$S" "ab:small-new1:$S" "ab:small-new2:$S" "run:small-base2:$A+$S" \
  "run:graph-base1:$A+$G" "ab:graph-new1:$G" \
  "run:large-base1:$A+$L" "ab:large-new1:$L" \
  "run:half-base1:$A+$H" "ab:half-new1:$H" \
  checks
