#!/usr/bin/env bash
# Run 117, prepared in session 29 (no device lent then): sliced passes (branch exp/helpers,
# cuda/sliced_passes.cuh) against main. Packs, git-ignored, on the session machine: build/pack117/new.tar.xz
# (device/qrita-bench, sampler.test and native.test of `make device CUDA_ARCHS=90` on exp/helpers) and
# build/pack117/base.tar.xz (device/qrita-bench of main: a copy of build/pack114/base.tar.xz serves, main's
# kernel having had only a SASS-identical change since 1f3ad1d). Carry build/pack117.
# Session 30: the owed part is gone (the decider writes a row that ran sliced passes in a last sliced
# pass; the row's other blocks leave at its first task), split kernel 56 / 84 bytes (fp32), the packs built
# with `make device` and stripped. L and H: the 1024-row and bf16 shapes, whose persistent kernel shares
# split_items (ptxas moved its spills by 16-24 bytes).
# First the new binary's bits on the sliced cases (a hang would show here, under the step's limit), then
# the A/B, base first, alternating (the same binary with -ablation in-place keeps the passes with each
# row's own blocks), then the checks on the new binaries.
export BIN=/tmp/n117/device BUDGET=${BUDGET:-570} STEP_LIMIT=100
A='/tmp/b117/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
P='-batch+48,64,96,128+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm'
M='-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90'
J='-batch+1,8,64,128+-vocab+128256+-k+50+-p+0.9,1+-dist+llm'
L='-batch+1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm'
H='-batch+8,64,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+llm+-dtype+bf16'
bash scripts/device-steps.sh \
  run:mkdir:mkdir+-p+/tmp/b117+/tmp/n117 \
  run:unpack-base:tar+-xJf+build/pack117/base.tar.xz+-C+/tmp/b117 \
  run:unpack-new:tar+-xJf+build/pack117/new.tar.xz+-C+/tmp/n117 \
  "run:probe:/tmp/n117/device/sampler.test+-test.v+-test.count=1+-test.run+GPUHandedOnRowsMatchInPlace/_(128|100|64|60)x" \
  "run:warm:$A+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50" \
  "run:p-base1:$A+$P" "ab:p-new1:$P" "ab:p-inplace1:$P+-ablation+in-place" "run:p-base2:$A+$P" "ab:p-new2:$P" \
  "run:m-base1:$A+$M" "ab:m-new1:$M" \
  "run:j-base1:$A+$J" "ab:j-new1:$J" \
  "run:l-base1:$A+$L" "ab:l-new1:$L" "run:h-base1:$A+$H" "ab:h-new1:$H" \
  checks
