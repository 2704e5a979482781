#!/usr/bin/env bash
# Run 102 (session 24): one reservation a warp for a vector's candidates, against 2256724's binary, base first,
# then new, alternating; the phases; then the checks.
export PACK=build/pack102/device.tar.gz BUDGET=${BUDGET:-480} STEP_LIMIT=120
B='/tmp/base/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
L='-batch+1,8,64,256,1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm'
H='-batch+64,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+llm,neginf90+-dtype+bf16,fp16'
M='-batch+64,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+neginf90,flat,peaked,onehot'
bash scripts/device-steps.sh \
  run:unpack-base:tar+-xzf+build/pack102/base.tar.gz+-C+/tmp \
  "run:warm:$B+-batch+64+-vocab+128256+-k+50+-p+0.9+-dist+llm+-gpu-reps+50" \
  "run:llm-base1:$B+$L" "ab:llm-new1:$L" "ab:llm-new2:$L" "run:llm-base2:$B+$L" "run:llm-base3:$B+$L" "ab:llm-new3:$L" \
  "run:half-base1:$B+$H" "ab:half-new1:$H" \
  "run:misc-base1:$B+$M" "ab:misc-new1:$M" \
  "phases:B1024_V128256_llm_p|B1024_V128256_llm_kp|B64_V128256_llm_p|B1_V128256_llm_kp" \
  checks
