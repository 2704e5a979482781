#!/usr/bin/env bash
# Session 40's call: evict-first row accesses (PERFLOG run 139) split up.
# Runs 141 (the split kernel's row loads and stores evict-first), 142 (its
# stores alone), 143 (its loads alone) and 144 (142's stores in every
# kernel) against main (n135: run 135's kernel, main's since), builds
# alternating: SAMPLES (2) samples of the batches the split kernel takes
# (1-132 rows: LLM top-p alone and joint, flat and neginf90), one of 1024
# rows (LLM, flat, neginf90: the persistent kernel, which only 144
# changes) for LBUILDS; then the checks of the fastest build against the
# base (perf/patches/2026-12-07-pick-fastest.py; CHECK names one instead).
# Carry build/pack141 (one archive: /tmp/{n135,n141,...}/device).
#   OUT=... bash perf/patches/2026-12-07-runs141-144-one-call.sh
# TOTAL (575) bounds the call; NOCHECKS=1 leaves out the checks,
# NOTIMINGS=1 the timings.
set -u
root=${OUT:-device-out}
read -r -a builds <<<"${BUILDS:-n135 n141 n142 n143 n144}"
read -r -a lbuilds <<<"${LBUILDS:-n135 n141 n144}"
t0=$(date +%s)
tar -xJf build/pack141/all.tar.xz -C /tmp
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
P='-batch+1,8,32,64,100,132+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
J='-batch+1,8,32,64,100,132+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
F='-batch+8,64,132+-vocab+128256+-k+0,50+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
L='-batch+1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+1024+-vocab+128256+-k+0,50+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
if [ -z "${NOTIMINGS:-}" ]; then
  steps=("run:warm:$(bench "${builds[0]}")+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
  for ((i = 1; i <= ${SAMPLES:-2}; i++)); do
    for r in "${builds[@]}"; do
      for g in P J F; do steps+=("run:$g-$r-$i:$(bench "$r")+${!g}"); done
    done
  done
  for r in "${lbuilds[@]}"; do
    for g in L M; do steps+=("run:$g-$r-1:$(bench "$r")+${!g}"); done
  done
  OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-300} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
fi
[ -n "${NOCHECKS:-}" ] && exit 0
check=${CHECK:-}
if [ -z "$check" ]; then
  mkdir -p /tmp/picked && tar -xzf "$root/timings/logs.tgz" -C /tmp/picked
  python3 perf/patches/2026-12-07-pick-fastest.py /tmp/picked "${builds[0]}" | tee "$root/picked.txt"
  check=$(tail -1 "$root/picked.txt")
fi
[ "$check" = none ] && exit 0
left=$((${TOTAL:-575} - ($(date +%s) - t0)))
OUT=$root/checks BUDGET=$left TEST_LIMIT=$((left - 20 < 290 ? left - 20 : 290)) BIN=/tmp/$check/device \
  bash scripts/device-steps.sh checks
