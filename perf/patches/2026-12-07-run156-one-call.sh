#!/usr/bin/env bash
# Session 43's call: run 156 (kSparseTargetBoost 2 -> 4: rows mostly -Inf
# aim their first top-k gather at twice the candidates) against main
# (n150: main's kernels, SASS-identical), builds alternating: two samples
# of the split kernel's LLM batches (P, J: the code differs by one
# constant) and of sparse rows across the batch sizes (N, X); one of 1024
# rows (L, M) per build (scripts/device-compare.sh). Then the checks of
# n156. Carry build/pack156 (one archive: /tmp/{n150,n156}/device).
#   OUT=... bash perf/patches/2026-12-07-run156-one-call.sh
set -u
BUILDS=${BUILDS:-"n150 n156"} PACK=${PACK:-build/pack156/all.tar.xz} SAMPLED=${SAMPLED:-"P J N X"} \
  ONCE=${ONCE:-"L M"} CHECK=${CHECK-n156} bash scripts/device-compare.sh
