#!/usr/bin/env bash
# Session 44's call (not run: the device refused eight starts): runs 158
# and 160 (a split row's other blocks write -Inf over their parts while
# the decider decides, when the candidates settle its top-k; 160: its
# top-p alone too) against main (n157), builds alternating: three samples
# of the split kernel's LLM batches, joint (J), top-k alone (K, below) and
# top-p alone (P), one of flat / neginf90 rows (F), neginf rows across
# the batch sizes (X) and 1024 LLM rows (L, the persistent kernel: no
# change) per build (scripts/device-compare.sh). Then the checks of n160,
# which holds both. Build each run from its patch
# (perf/patches/2026-12-07-run158-fill-while-deciding.patch, then
# ...-run160-topp-fill-on-158.patch), strip the three binaries into
# /tmp/pkN/{n157,n158,n160}/device, pack them into build/pack160/all.tar.xz
# (README: scripts/device-compare.sh) and carry build/pack160.
#   OUT=... bash perf/patches/2026-12-07-run158-one-call.sh
set -u
export G_K=${G_K:-'-batch+1,8,32,64,132+-vocab+128256,262208+-k+50+-p+1+-dist+llm+-dtype+fp32,bf16'}
BUILDS=${BUILDS:-"n157 n158 n160"} PACK=${PACK:-build/pack160/all.tar.xz} SAMPLED=${SAMPLED:-"J K P"} \
  SAMPLES=${SAMPLES:-3} ONCE=${ONCE:-"F X L"} CHECK=${CHECK-n160} TIMINGS_BUDGET=${TIMINGS_BUDGET:-270} \
  TOTAL=${TOTAL:-560} bash scripts/device-compare.sh
