#!/usr/bin/env bash
# Prepared in session 28 (no device was lent then) for the next session's first call: run 115 (run 109's
# timeline on main and on run 114, see its script) and the checks on main at 9426407 (CandidateAim::rescaled,
# whose launch.cu compiles to the same SASS and PTX as d53d871's). Packs, git-ignored, on the session machine:
# build/pack115/{dmain,d114}.tar.xz (session 27) and build/pack116/main.tar.xz (device/sampler.test and
# device/native.test of `make device CUDA_ARCHS=90` at 9426407). Carry both folders (~62 MB with the tree, under the 64 MiB carry).
export BIN=/tmp/main/device BUDGET=${BUDGET:-570} STEP_LIMIT=100
P='-test.run+^$+-test.bench+GPUPhases/(B1_V128256_llm_kp|B1_V128256_llm_k|B8_V262208_llm_kp|B8_V262208_llm_k)$+-test.benchtime=1x'
bash scripts/device-steps.sh \
  run:mkdir:mkdir+-p+/tmp/dmain+/tmp/d114+/tmp/main \
  run:unpack-dmain:tar+-xJf+build/pack115/dmain.tar.xz+-C+/tmp/dmain \
  run:unpack-114:tar+-xJf+build/pack115/d114.tar.xz+-C+/tmp/d114 \
  run:unpack-main:tar+-xJf+build/pack116/main.tar.xz+-C+/tmp/main \
  "run:diag-main1:/tmp/dmain/device/sampler.test+$P" "run:diag-114-1:/tmp/d114/device/sampler.test+$P" \
  "run:diag-main2:/tmp/dmain/device/sampler.test+$P" "run:diag-114-2:/tmp/d114/device/sampler.test+$P" \
  checks
