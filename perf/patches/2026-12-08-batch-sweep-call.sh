#!/usr/bin/env bash
# Session 47's unrun call (refused): main's kernels (run 163) over batches
# 1-4096 at V=128256, joint (Y) and top-p alone (Z), fp32 and bf16, for
# issue 6's "no batch size from 1 to 4096 where rows per second falls
# below that of the next smaller batch size". ~120 s of bench time. Build
# main (make device CUDA_ARCHS=90), strip the three binaries into
# /tmp/pk4/n163/device, pack them (with any other build) into
# build/packNNN/all.tar.xz and carry it.
#   PACK=build/packNNN/all.tar.xz OUT=... bash perf/patches/2026-12-08-batch-sweep-call.sh
set -u
export G_Y=${G_Y:-'-batch+1,2,4,8,16,32,64,96,128,132,133,192,256,512,1024,2048,4096+-vocab+128256+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'}
export G_Z=${G_Z:-'-batch+1,2,4,8,16,32,64,96,128,132,133,192,256,512,1024,2048,4096+-vocab+128256+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'}
BUILDS=${BUILDS:-n163} PACK=${PACK:-build/pack163b/all.tar.xz} SAMPLES=1 SAMPLED="" ONCE=${ONCE:-"Y Z"} CHECK= \
  TIMINGS_BUDGET=${TIMINGS_BUDGET:-200} bash scripts/device-compare.sh
