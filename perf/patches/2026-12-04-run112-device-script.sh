#!/usr/bin/env bash
# Run 112 (session 26), one call: run 110's final binary (b1c238b: the second top-k gather aims at 4k again)
# against run 110's first (9b85d14), for code-layout effects on the hit path; run 112 (88f1029: top-p alone aims
# at an eighth of the buffer) against b1c238b; base first, alternating; the phases and the checks on run 112's
# binary.
export BIN=/tmp/n112/device BUDGET=${BUDGET:-560} STEP_LIMIT=100
A='/tmp/n110/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
B='/tmp/n110b/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
L='-batch+1,8,64,1024+-vocab+128256,262208+-k+50+-p+0.9,1+-dist+llm'
S='-batch+1,2,4,8,16,32+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm'
P='-batch+1,2,4,8,16,64,256,1024+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm'
V='-batch+1,64,1024+-vocab+151936,201088+-k+0+-p+0.9+-dist+llm'
M='-batch+1,64,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+neginf90,neginf50,peaked,flat'
H='-batch+8,64,1024+-vocab+128256+-k+0+-p+0.9+-dist+llm,neginf90+-dtype+bf16'
bash scripts/device-steps.sh \
  run:mkdir:mkdir+-p+/tmp/n110+/tmp/n110b+/tmp/n112 \
  run:unpack-110:tar+-xJf+build/pack112/n110.tar.xz+-C+/tmp/n110 \
  run:unpack-110b:tar+-xJf+build/pack112/n110b.tar.xz+-C+/tmp/n110b \
  run:unpack-112:tar+-xJf+build/pack112/n112.tar.xz+-C+/tmp/n112 \
  "run:warm:$A+-batch+64+-vocab+128256+-k+50+-p+0.9+-dist+llm+-gpu-reps+50" \
  "run:lay-base1:$A+$L" "run:ab-lay-new1:$B+$L" "run:lay-base2:$A+$S" "run:ab-lay-new2:$B+$S" \
  "run:lay-base3:$A+$S" "run:ab-lay-new3:$B+$S" \
  "run:topp-base1:$B+$P" "ab:topp-new1:$P" "ab:topp-new2:$P" "run:topp-base2:$B+$P" \
  "run:vocab-base1:$B+$V" "ab:vocab-new1:$V" \
  "run:misc-base1:$B+$M" "ab:misc-new1:$M" \
  "run:half-base1:$B+$H" "ab:half-new1:$H" \
  "phases:B1_V128256_llm_p|B64_V128256_llm_p|B1024_V128256_llm_p|B64_V128256_neginf90_p|B64_V128256_flat_p" \
  checks
