#!/usr/bin/env bash
# Run 115 (prepared in session 27, for the next session's first device call): where run 114's +25.5 us goes.
# Two diagnostic builds of sampler.test, each with run 109's timeline patch
# (perf/patches/2026-12-04-run109-diag-timeline.patch): main (1f3ad1d's code) and run 114
# (perf/patches/2026-12-04-run114-merged-ranking.patch). Each block of a split row printfs its %globaltimer at
# start, threshold, gather, arrival, verdict and end; the decider also prints its SM-clock laps (region load,
# sort, ranked top-p). Built in session 27 as build/pack115/{dmain,d114}.tar.xz (device/sampler.test each,
# `make device CUDA_ARCHS=90` in worktrees of main + the diag patch and exp/run114 + the diag patch); rebuild
# them the same way if build/ was not kept. Alternating, main first, twice; then the phases alone.
export BUDGET=${BUDGET:-560} STEP_LIMIT=100
P='-test.run+^$+-test.bench+GPUPhases/(B1_V128256_llm_kp|B1_V128256_llm_k|B8_V262208_llm_kp|B8_V262208_llm_k)$+-test.benchtime=1x'
bash scripts/device-steps.sh \
  run:mkdir:mkdir+-p+/tmp/dmain+/tmp/d114 \
  run:unpack-main:tar+-xJf+build/pack115/dmain.tar.xz+-C+/tmp/dmain \
  run:unpack-114:tar+-xJf+build/pack115/d114.tar.xz+-C+/tmp/d114 \
  "run:diag-main1:/tmp/dmain/device/sampler.test+$P" "run:diag-114-1:/tmp/d114/device/sampler.test+$P" \
  "run:diag-main2:/tmp/dmain/device/sampler.test+$P" "run:diag-114-2:/tmp/d114/device/sampler.test+$P"
