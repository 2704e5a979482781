#!/usr/bin/env bash
# Session 47's second call: run 163 (split rows take one block per
# multiprocessor while a part takes at most two trips of its element
# type) against run 162 (n162: the same kernels, the old parts policy),
# builds alternating: two samples of the batches whose parts change (S:
# joint, 4-32 rows, the four vocabularies, fp32 and bf16), one of top-p
# alone and top-k alone there (Q, R) and of the control (J: 1-132 rows,
# whose parts do not change). Then the checks of n163. Build n163 from
# exp/run163 (make device CUDA_ARCHS=90), strip the three binaries into
# /tmp/pk4/n163/device, pack n162 and n163 into build/pack163/all.tar.xz
# and carry build/pack163.
#   OUT=... bash perf/patches/2026-12-08-run163-one-call.sh
set -u
export G_S=${G_S:-'-batch+4,6,8,12,16,24,32+-vocab+128256,151936,201088,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'}
export G_Q=${G_Q:-'-batch+8,16,32+-vocab+128256,201088+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'}
export G_R=${G_R:-'-batch+8,16,32+-vocab+128256,201088+-k+50+-p+1+-dist+llm+-dtype+fp32,bf16'}
BUILDS=${BUILDS:-"n162 n163"} PACK=${PACK:-build/pack163/all.tar.xz} SAMPLED=${SAMPLED:-"S"} \
  SAMPLES=${SAMPLES:-2} ONCE=${ONCE:-"Q R J"} CHECK=${CHECK-n163} TIMINGS_BUDGET=${TIMINGS_BUDGET:-250} \
  TOTAL=${TOTAL:-540} bash scripts/device-compare.sh
