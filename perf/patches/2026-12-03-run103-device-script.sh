#!/usr/bin/env bash
# Run 103 (session 24): vector reservations in top-p gathers only (not fp32 whole rows), against 2256724's binary,
# base first, then new, alternating; then the checks.
export PACK=build/pack103/device.tar.gz BUDGET=${BUDGET:-370} STEP_LIMIT=100
B='/tmp/base/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
L='-batch+1,8,64,1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm'
H='-batch+64,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+llm,neginf90+-dtype+bf16,fp16'
M='-batch+64,1024+-vocab+128256+-k+0+-p+0.9+-dist+neginf90,peaked'
bash scripts/device-steps.sh \
  run:unpack-base:tar+-xzf+build/pack103/base.tar.gz+-C+/tmp \
  "run:warm:$B+-batch+64+-vocab+128256+-k+50+-p+0.9+-dist+llm+-gpu-reps+50" \
  "run:llm-base1:$B+$L" "ab:llm-new1:$L" "ab:llm-new2:$L" "run:llm-base2:$B+$L" \
  "run:half-base1:$B+$H" "ab:half-new1:$H" \
  "run:misc-base1:$B+$M" "ab:misc-new1:$M" \
  checks
