#!/usr/bin/env bash
# Run 121 (session 32, not yet run: no machine was lent): the top-p gather's keepable chunks at once
# (branch exp/run121; perf/patches/2026-12-05-run121-keepable-chunks.patch against 9c9a72e) against main's
# binary (0181576's code, packed in session 31 as build/pack119/new.tar.xz). New pack: build/pack121/new.tar.xz.
# Both packs are git-ignored: if the machine was reset, build each side with `make device CUDA_ARCHS=90`
# (~15 min) and pack it stripped (copy build/device to a tmp device/ folder, strip, XZ_OPT=-9 tar -cJf).
# Carry build/pack119 and build/pack121.
# Call 1 (timings): bash perf/patches/2026-12-05-run121-device-script.sh
# Call 2 (checks):  MODE=checks bash perf/patches/2026-12-05-run121-device-script.sh
export BIN=/tmp/n121/device BUDGET=${BUDGET:-570} STEP_LIMIT=100 TEST_LIMIT=${TEST_LIMIT:-420}
A='/tmp/b121/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
T='-batch+256,1024+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16,fp16'
S='-batch+1,8,64+-vocab+128256,151936+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+64,1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90,onehot'
J='-batch+1,8,64,1024+-vocab+128256+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
steps=(run:mkdir:mkdir+-p+/tmp/b121+/tmp/n121
  run:unpack-base:tar+-xJf+build/pack119/new.tar.xz+-C+/tmp/b121
  run:unpack-new:tar+-xJf+build/pack121/new.tar.xz+-C+/tmp/n121)
if [ "${MODE:-timings}" = checks ]; then
  steps+=("run:probe:/tmp/n121/device/sampler.test+-test.v+-test.count=1+-test.run+GPUHandedOnRowsMatchInPlace|GPUSanitizerCoverageSliced" checks)
else
  steps+=("run:warm:$A+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
  for i in 1 2; do
    for g in T S; do steps+=("run:$g-base$i:$A+${!g}" "ab:$g-new$i:${!g}"); done
  done
  for g in M J; do steps+=("run:$g-base1:$A+${!g}" "ab:$g-new1:${!g}"); done
fi
bash scripts/device-steps.sh "${steps[@]}"
