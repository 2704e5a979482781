#!/usr/bin/env bash
# Runs 121-123 (session 32, not yet run: no machine was lent). One call times main's binary against the
# runs' binaries, alternating; a second checks one of them:
#   base  build/pack119/new.tar.xz  main (0181576's code; the kernels of main since)
#   121   build/pack121/new.tar.xz  exp/run121: the top-p gather takes a keepable chunk at once
#   122   build/pack122/new.tar.xz  exp/run122: 121 plus the rest mass summed by 16-byte chunks
#   123   build/pack123/new.tar.xz  exp/run123: 122 without the whole-row top-p gather's load-ahead
# The code: perf/patches/2026-12-05-run121-keepable-chunks.patch (against main), then
# 2026-12-05-run122-rest-groups.patch and 2026-12-05-run123-no-load-ahead.patch, each on the one before. The packs are git-ignored: if the machine was reset, build a side with
# `make device CUDA_ARCHS=90` on its branch (~15 min) and pack it stripped (copy build/device to a tmp
# device/ folder, strip, XZ_OPT=-9 tar -cJf). Carry build/pack119 and the packs of RUNS (at most two beside
# it: the tracked tree is ~21 MB of the 64 MiB a call carries).
# Call 1 (timings): RUNS="122 123" bash perf/patches/2026-12-05-runs121-123-device-script.sh
# Call 2 (checks):  MODE=checks CHECK=123 bash perf/patches/2026-12-05-runs121-123-device-script.sh
RUNS=${RUNS:-121 122 123}
CHECK=${CHECK:-123}
export BUDGET=${BUDGET:-570} STEP_LIMIT=100 TEST_LIMIT=${TEST_LIMIT:-420} BIN=/tmp/n$CHECK/device
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
T='-batch+256,1024+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16,fp16'
S='-batch+1,8,64+-vocab+128256,151936+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+64,1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90,onehot'
J='-batch+1,8,64,1024+-vocab+128256+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
steps=(run:mkdir:mkdir+-p+/tmp/base run:unpack-base:tar+-xJf+build/pack119/new.tar.xz+-C+/tmp/base)
if [ "${MODE:-timings}" = checks ]; then
  steps+=("run:mkdir-$CHECK:mkdir+-p+/tmp/n$CHECK" "run:unpack-$CHECK:tar+-xJf+build/pack$CHECK/new.tar.xz+-C+/tmp/n$CHECK"
    "run:probe:$BIN/sampler.test+-test.v+-test.count=1+-test.run+GPUTopPAlignment|GPUHandedOnRowsMatchInPlace|GPUSanitizerCoverageSliced"
    checks)
else
  for r in $RUNS; do
    steps+=("run:mkdir-$r:mkdir+-p+/tmp/n$r" "run:unpack-$r:tar+-xJf+build/pack$r/new.tar.xz+-C+/tmp/n$r")
  done
  steps+=("run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
  for i in 1 2; do
    for g in T S; do
      steps+=("run:$g-base$i:$(bench base)+${!g}")
      for r in $RUNS; do steps+=("run:$g-$r-$i:$(bench n$r)+${!g}"); done
    done
  done
  for g in M J; do
    steps+=("run:$g-base1:$(bench base)+${!g}")
    for r in $RUNS; do steps+=("run:$g-$r-1:$(bench n$r)+${!g}"); done
  done
fi
bash scripts/device-steps.sh "${steps[@]}"
