#!/usr/bin/env bash
# Run 97, third build (edges in whole rows only): base first, then new, then the checks.
export PACK=build/pack97/device.tar.gz BUDGET=${BUDGET:-585} STEP_LIMIT=120
B='/tmp/base/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
F='-batch+1,64,256,1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90'
L='-batch+1,8,1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm'
H='-batch+256,1024+-vocab+128256+-k+0+-p+0.9+-dist+flat+-dtype+bf16,fp16'
bash scripts/device-steps.sh \
  run:unpack-base:tar+-xzf+build/pack97/base.tar.gz+-C+/tmp \
  "run:warm:$B+-batch+64+-vocab+128256+-k+50+-p+0.9+-dist+llm+-gpu-reps+50" \
  "run:flat-base1:$B+$F" "ab:flat-new1:$F" "ab:flat-new2:$F" "run:flat-base2:$B+$F" \
  "run:llm-base1:$B+$L" "ab:llm-new1:$L" \
  "run:half-base1:$B+$H" "ab:half-new1:$H" \
  checks
