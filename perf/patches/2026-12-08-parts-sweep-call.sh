#!/usr/bin/env bash
# Session 47's unrun call: the new parts knob's GPU tests, then a sweep of
# parts a row over the split kernel's small batches (qrita-bench
# -ablation none,partsN: `none` is the launch policy's count, the rest
# force it), to settle kMaxSlices and kOneBlockMaxTrips from data (B=1:
# 32 parts of half an fp32 trip, is 16 faster? B=8 x 262208: 16 or 32?).
# Build main (make device CUDA_ARCHS=90), strip sampler.test and
# qrita-bench into /tmp/pk5/nparts/device, pack that folder into
# build/packparts/all.tar.xz and carry build/packparts.
#   OUT=... bash perf/patches/2026-12-08-parts-sweep-call.sh
set -u
mkdir -p /tmp/x "$OUT"
tar -xJf "${PACK:-build/packparts/all.tar.xz}" -C /tmp/x
B=/tmp/x/nparts/device
timeout 90 "$B/sampler.test" -test.v -test.count=1 -test.run 'GPUAnyParts|GPUPartsKnob|GPUChained' >"$OUT/tests.txt" 2>&1
echo "rc $?" >>"$OUT/tests.txt"
bench() { timeout 150 "$B/qrita-bench" -backend cuda -baselines copy -ref=false -dist llm -dtype fp32,bf16 "$@"; }
bench -batch 1,2,4 -vocab 128256,262208 -k 50 -p 0.9 -ablation none,parts8,parts16,parts24,parts32 >"$OUT/parts-small.txt" 2>&1
bench -batch 8 -vocab 128256,151936,201088,262208 -k 50 -p 0.9 -ablation none,parts8,parts12,parts16,parts24,parts32 \
  >"$OUT/parts-8.txt" 2>&1
# A count the split kernel cannot take fails the whole run: B x N <= 264.
bench -batch 16 -vocab 128256,262208 -k 50 -p 0.9 -ablation none,parts4,parts6,parts8,parts16 >"$OUT/parts-16.txt" 2>&1
bench -batch 32 -vocab 128256,262208 -k 50 -p 0.9 -ablation none,parts4,parts6,parts8 >"$OUT/parts-32.txt" 2>&1
bench -batch 1,8 -vocab 128256 -k 0 -p 0.9 -ablation none,parts8,parts16,parts32 >"$OUT/parts-topp.txt" 2>&1
tail -n 3 "$OUT"/*.txt
