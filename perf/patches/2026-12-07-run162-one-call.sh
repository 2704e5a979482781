#!/usr/bin/env bash
# Session 47's call: run 162 (each call's kernel a programmatic dependent
# of the kernel before it on the stream) against main (n157's kernels),
# builds alternating: two samples of the split kernel's LLM batches,
# joint (J), top-k alone (K) and top-p alone (P); once the 1024-row calls
# (L) and graph replay of joint calls (H: no programmatic launch under
# capture, so unchanged). Then the checks of n162. Build n162 from
# exp/run162 (make device CUDA_ARCHS=90), strip the three binaries into
# /tmp/pk4/n162/device, pack n157 and n162 into build/pack162/all.tar.xz
# and carry build/pack162.
#   OUT=... bash perf/patches/2026-12-07-run162-one-call.sh
set -u
export G_K=${G_K:-'-batch+1,8,32,64,132+-vocab+128256,262208+-k+50+-p+1+-dist+llm+-dtype+fp32,bf16'}
export G_H=${G_H:-'-batch+1,8,64+-vocab+128256+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16+-timing+graph'}
BUILDS=${BUILDS:-"n157 n162"} PACK=${PACK:-build/pack162/all.tar.xz} SAMPLED=${SAMPLED:-"J K P"} \
  SAMPLES=${SAMPLES:-2} ONCE=${ONCE:-"L H"} CHECK=${CHECK-n162} TIMINGS_BUDGET=${TIMINGS_BUDGET:-230} \
  TOTAL=${TOTAL:-500} bash scripts/device-compare.sh
