#!/usr/bin/env bash
# Run 106 (session 25): run 105's per-lane appends except in the fp32 joint / top-k gathers of split rows' parts,
# against a13e963's binary, base first, then new, alternating; the phases of top-p alone; then the checks.
export PACK=build/pack106/device.tar.gz BUDGET=${BUDGET:-440} STEP_LIMIT=100
B='/tmp/base/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
L='-batch+1,8,64,1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm'
S='-batch+1,2,8,32+-vocab+128256,262208+-k+50+-p+0.9,1+-dist+llm'
H='-batch+64,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+llm,neginf90+-dtype+bf16,fp16'
M='-batch+1,64,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+neginf90,peaked,flat'
bash scripts/device-steps.sh \
  run:unpack-base:tar+-xzf+build/pack106/base.tar.gz+-C+/tmp \
  "run:warm:$B+-batch+64+-vocab+128256+-k+50+-p+0.9+-dist+llm+-gpu-reps+50" \
  "run:llm-base1:$B+$L" "ab:llm-new1:$L" "ab:llm-new2:$L" "run:llm-base2:$B+$L" \
  "run:small-base1:$B+$S" "ab:small-new1:$S" "ab:small-new2:$S" "run:small-base2:$B+$S" \
  "run:small-base3:$B+$S" "ab:small-new3:$S" \
  "run:half-base1:$B+$H" "ab:half-new1:$H" \
  "run:misc-base1:$B+$M" "ab:misc-new1:$M" \
  "phases:B1024_V128256_llm_p|B64_V128256_llm_p|B1_V128256_llm_kp|B1024_V128256_llm_kp" \
  checks
