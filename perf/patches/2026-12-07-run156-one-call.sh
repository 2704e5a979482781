#!/usr/bin/env bash
# Session 43's call: run 156 (kSparseTargetBoost 2 -> 4: rows mostly -Inf
# aim their first top-k gather at twice the candidates) against main
# (n150: main's kernels, SASS-identical), builds alternating: SAMPLES (2)
# samples of the split kernel's LLM batches (P, J: the code differs by one
# constant) and of sparse rows across the batch sizes (N: neginf90 over
# the split / persistent edge; X: neginf90 and neginf99 at 1, 64, 132 and
# 1024 rows, both vocabs, top-k alone and joint); one of 1024 rows (L:
# LLM; M: flat and neginf90) per build. Then the checks of CHECK (n156).
# Carry build/pack156 (one archive: /tmp/{n150,n156}/device).
#   OUT=... bash perf/patches/2026-12-07-run156-one-call.sh
# TOTAL (560) bounds the call; NOCHECKS=1 leaves out the checks,
# NOTIMINGS=1 the timings.
set -u
root=${OUT:-device-out}
read -r -a builds <<<"${BUILDS:-n150 n156}"
t0=$(date +%s)
tar -xJf "${PACK:-build/pack156/all.tar.xz}" -C /tmp
base=${builds[0]}
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
P='-batch+1,8,64,132+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
J='-batch+1,8,64,132+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
N='-batch+32,64,100,132,133,264,512+-vocab+128256+-k+50+-p+0.9,1+-dist+neginf90+-dtype+bf16,fp32'
X='-batch+1,64,132,1024+-vocab+128256,262208+-k+50+-p+0.9,1+-dist+neginf90,neginf99+-dtype+bf16'
L='-batch+1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+1024+-vocab+128256+-k+0,50+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
if [ -z "${NOTIMINGS:-}" ]; then
  steps=("run:warm:$(bench "$base")+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
  for ((i = 1; i <= ${SAMPLES:-2}; i++)); do
    for r in "${builds[@]}"; do
      for g in P J N X; do steps+=("run:$g-$r-$i:$(bench "$r")+${!g}"); done
    done
    if [ "$i" = 1 ]; then
      for r in "${builds[@]}"; do
        for g in L M; do steps+=("run:$g-$r-1:$(bench "$r")+${!g}"); done
      done
    fi
  done
  OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-240} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
fi
[ -n "${NOCHECKS:-}" ] && exit 0
check=${CHECK:-n156}
left=$((${TOTAL:-560} - ($(date +%s) - t0)))
OUT=$root/checks BUDGET=$left TEST_LIMIT=$((left - 20 < 290 ? left - 20 : 290)) BIN=/tmp/$check/device \
  bash scripts/device-steps.sh checks
