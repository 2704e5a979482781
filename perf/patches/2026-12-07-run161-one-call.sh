#!/usr/bin/env bash
# Session 45's call: run 161 (a split row's top-k short of k gathers again
# in its team before the decision) against main (n157's kernels), builds
# alternating: two samples of the split kernel's LLM batches, joint (J)
# and top-k alone (K, below: the hit path must not slow), and of the
# neginf rows across the batch sizes (X: 64 / 132 x 262208 neginf99 hold
# a row that misses); one of the neginf90 edge (N) and 1024 LLM rows (L)
# per build (scripts/device-compare.sh). Then the checks of n161. Build
# n161 from exp/run161 or perf/patches/2026-12-07-run161-split-regather-
# before-decide.patch (make device CUDA_ARCHS=90), strip the three
# binaries into /tmp/pk4/n161/device, pack n157 and n161 into
# build/pack161/all.tar.xz and carry build/pack161.
#   OUT=... bash perf/patches/2026-12-07-run161-one-call.sh
set -u
export G_K=${G_K:-'-batch+1,8,32,64,132+-vocab+128256,262208+-k+50+-p+1+-dist+llm+-dtype+fp32,bf16'}
BUILDS=${BUILDS:-"n157 n161"} PACK=${PACK:-build/pack161/all.tar.xz} SAMPLED=${SAMPLED:-"J K X"} \
  SAMPLES=${SAMPLES:-2} ONCE=${ONCE:-"N L"} CHECK=${CHECK-n161} TIMINGS_BUDGET=${TIMINGS_BUDGET:-230} \
  TOTAL=${TOTAL:-480} bash scripts/device-compare.sh
