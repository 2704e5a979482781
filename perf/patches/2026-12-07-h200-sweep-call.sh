#!/usr/bin/env bash
# Session 46's unrun call: main's kernels (n157) once over issue 6's
# target shapes, for the H200 (any card: the floor is timed in the same
# run). J, P and L are scripts/device-compare.sh's groups; T adds B=1 x
# 151936 (the top-p-alone target), V and W the large-batch vocabularies
# 151936 and 201088 (W: top-k alone at all four); F and M the flat and
# neginf90 rows. ~90 s of bench time here. Carry a pack holding n157.
#   OUT=... bash perf/patches/2026-12-07-h200-sweep-call.sh
set -u
export G_T=${G_T:-'-batch+1+-vocab+151936+-k+0,50+-p+0.9+-dist+llm+-dtype+fp32,bf16'}
export G_V=${G_V:-'-batch+256,1024+-vocab+151936,201088+-k+0,50+-p+0.9+-dist+llm+-dtype+fp32,bf16'}
export G_W=${G_W:-'-batch+256,1024+-vocab+128256,151936,201088,262208+-k+50+-p+1+-dist+llm+-dtype+fp32,bf16'}
BUILDS=${BUILDS:-n157} PACK=${PACK:-build/pack161/all.tar.xz} SAMPLES=1 SAMPLED="" \
  ONCE=${ONCE:-"J P L T V W F M"} CHECK= TIMINGS_BUDGET=${TIMINGS_BUDGET:-190} bash scripts/device-compare.sh
