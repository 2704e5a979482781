#!/usr/bin/env bash
# Run 119 (session 30), one call: run 118 with (a) the split team's sliced state in the sliced instance only
# (SplitTeam<Policy, E, kSliced>: the plain instance's team and passes as main's), (b) a row's passes sliced
# only from the first one posted once at least 3/4 of the batch's rows are decided (kSlicedPassUndecidedShare;
# before, in place on its own blocks as in main). Packs as run 118's (main's qrita-bench as base), in
# build/pack119, git-ignored; the new one stripped. Carry build/pack119.
export BIN=/tmp/n119/device BUDGET=${BUDGET:-570} STEP_LIMIT=100
A='/tmp/b119/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
P='-batch+48,64,96,128+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm'
M='-batch+64,100,128+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90,onehot'
J='-batch+1,8,64,128+-vocab+128256+-k+50+-p+0.9,1+-dist+llm'
L='-batch+1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm'
H='-batch+8,64,100,1024+-vocab+128256+-k+0,50+-p+0.9+-dist+llm+-dtype+bf16'
bash scripts/device-steps.sh \
  run:mkdir:mkdir+-p+/tmp/b119+/tmp/n119 \
  run:unpack-base:tar+-xJf+build/pack119/base.tar.xz+-C+/tmp/b119 \
  run:unpack-new:tar+-xJf+build/pack119/new.tar.xz+-C+/tmp/n119 \
  "run:probe:/tmp/n119/device/sampler.test+-test.v+-test.count=1+-test.run+GPUHandedOnRowsMatchInPlace/_(128|120|100|64)x" \
  "run:warm:$A+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50" \
  "run:p-base1:$A+$P" "ab:p-new1:$P" "ab:p-inplace1:$P+-ablation+in-place" "run:p-base2:$A+$P" "ab:p-new2:$P" \
  "run:m-base1:$A+$M" "ab:m-new1:$M" \
  "run:j-base1:$A+$J" "ab:j-new1:$J" "run:j-base2:$A+$J" "ab:j-new2:$J" \
  "run:l-base1:$A+$L" "ab:l-new1:$L" "run:h-base1:$A+$H" "ab:h-new1:$H" \
  checks
