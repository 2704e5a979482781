#!/usr/bin/env bash
# Run 120 (session 31), one call: exp/board against main's binary (0181576, built this session and packed as
# build/pack119/new.tar.xz, the name run 119's new pack had).
# exp/board: a split row is sliced only while it holds one of the board's 16 slots (claimed at a post,
# freed at close), the helpers read the board in one load and nap 64-512 ns between looks, and the
# in-place ablation runs the sliced instance with nothing sliced (so base / in-place / new split the
# instance's cost from the slicing's). New pack: build/pack120/new.tar.xz (stripped, xz -9).
# The exp/board code is perf/patches/2026-12-05-run120-board.patch (against 0181576).
# Carry build/pack119/new.tar.xz and build/pack120.
export BIN=/tmp/n120/device BUDGET=${BUDGET:-570} STEP_LIMIT=100
A='/tmp/b120/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
P='-batch+64,96,128+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm'
M='-batch+64,100,128+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90,onehot'
H='-batch+64,100,128+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+bf16'
J='-batch+1,8,64,128+-vocab+128256+-k+50+-p+0.9,1+-dist+llm'
L='-batch+1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm'
steps=(run:mkdir:mkdir+-p+/tmp/b120+/tmp/n120
  run:unpack-base:tar+-xJf+build/pack119/new.tar.xz+-C+/tmp/b120
  run:unpack-new:tar+-xJf+build/pack120/new.tar.xz+-C+/tmp/n120
  "run:probe:/tmp/n120/device/sampler.test+-test.v+-test.count=1+-test.run+GPUHandedOnRowsMatchInPlace|GPUSanitizerCoverageSliced"
  "run:warm:$A+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for g in P M H; do
  for i in 1 2; do
    steps+=("run:$g-base$i:$A+${!g}" "ab:$g-new$i:${!g}" "ab:$g-inplace$i:${!g}+-ablation+in-place")
  done
done
steps+=("run:J-base1:$A+$J" "ab:J-new1:$J" "run:L-base1:$A+$L" "ab:L-new1:$L" checks)
bash scripts/device-steps.sh "${steps[@]}"
