#!/usr/bin/env bash
# Run 118 (session 30), one call: run 117's sliced passes as their own split kernel instance (kSliced; the
# plain instance has none of their code) and only for rows of two parts (kSlicedPassMaxParts 4 -> 2: run
# 117's four-part flat rows lost 43 %), against main's binary. Packs, git-ignored: build/pack118/new.tar.xz
# (device/ of `make device CUDA_ARCHS=90` on exp/helpers, stripped) and build/pack118/base.tar.xz (main's
# qrita-bench, as run 117's). Carry build/pack118. First the sliced cases' bits, then the A/B, base first,
# alternating, then the checks on the new binaries.
export BIN=/tmp/n118/device BUDGET=${BUDGET:-570} STEP_LIMIT=100
A='/tmp/b118/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
P='-batch+48,64,96,128+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm'
M='-batch+64,100+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90,onehot'
J='-batch+1,8,64,128+-vocab+128256+-k+50+-p+0.9,1+-dist+llm'
L='-batch+1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm'
H='-batch+8,64,100,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+llm+-dtype+bf16'
bash scripts/device-steps.sh \
  run:mkdir:mkdir+-p+/tmp/b118+/tmp/n118 \
  run:unpack-base:tar+-xJf+build/pack118/base.tar.xz+-C+/tmp/b118 \
  run:unpack-new:tar+-xJf+build/pack118/new.tar.xz+-C+/tmp/n118 \
  "run:probe:/tmp/n118/device/sampler.test+-test.v+-test.count=1+-test.run+GPUHandedOnRowsMatchInPlace/_(128|120|100|64)x" \
  "run:warm:$A+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50" \
  "run:p-base1:$A+$P" "ab:p-new1:$P" "ab:p-inplace1:$P+-ablation+in-place" "run:p-base2:$A+$P" "ab:p-new2:$P" \
  "run:m-base1:$A+$M" "ab:m-new1:$M" \
  "run:j-base1:$A+$J" "ab:j-new1:$J" "run:j-base2:$A+$J" "ab:j-new2:$J" \
  "run:l-base1:$A+$L" "ab:l-new1:$L" "run:h-base1:$A+$H" "ab:h-new1:$H" \
  checks
