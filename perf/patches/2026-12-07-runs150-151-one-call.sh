#!/usr/bin/env bash
# Session 42's call: run 150 (runs 146 + 147 + 149 together: evict-first
# persistent stores, plain binned re-reads, bf16 / fp16 digit searches two
# / one steps shorter) and 151 (150 plus the split row's top-k regather,
# its parts sharing the pass) against main (n141), builds alternating:
# SAMPLES (2) samples of the split kernel's batches (P, J, F) and of
# neginf90 batches across the split / persistent edge (N); one of 1024
# rows (L: LLM; M: flat and neginf90) per build. Run 152 is 151 with that
# pass in a function of its own (team_gather). Then the checks of CHECK, or
# of the faster of 151 and 152. Carry build/pack150 (one archive:
# /tmp/{n141,...}/device).
#   OUT=... bash perf/patches/2026-12-07-runs150-151-one-call.sh
# Later: BUILDS="n150 n154" CHECK=n154 PACK=build/pack154/all.tar.xz (run
# 154 against landed 150).
# TOTAL (580) bounds the call; NOCHECKS=1 leaves out the checks,
# NOTIMINGS=1 the timings.
set -u
root=${OUT:-device-out}
read -r -a builds <<<"${BUILDS:-n141 n150 n151 n152}"
t0=$(date +%s)
tar -xJf "${PACK:-build/pack150/all.tar.xz}" -C /tmp
base=${builds[0]}
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
P='-batch+1,8,32,64,100,132+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
J='-batch+1,8,32,64,100,132+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
F='-batch+8,64,132+-vocab+128256+-k+0,50+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
N='-batch+32,64,100,132,133,264,512+-vocab+128256+-k+50+-p+0.9,1+-dist+neginf90+-dtype+bf16,fp32'
L='-batch+1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+1024+-vocab+128256+-k+0,50+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
if [ -z "${NOTIMINGS:-}" ]; then
  steps=("run:warm:$(bench "$base")+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
  for ((i = 1; i <= ${SAMPLES:-2}; i++)); do
    for r in "${builds[@]}"; do
      for g in P J F N; do steps+=("run:$g-$r-$i:$(bench "$r")+${!g}"); done
    done
    if [ "$i" = 1 ]; then
      for r in "${builds[@]}"; do
        for g in L M; do steps+=("run:$g-$r-1:$(bench "$r")+${!g}"); done
      done
    fi
  done
  OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-280} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
fi
[ -n "${NOCHECKS:-}" ] && exit 0
# The checks go to CHECK, else to the faster of CANDIDATES (n151 n152)
# against the base (geometric mean over every case both ran).
check=${CHECK:-}
if [ -z "$check" ]; then
  mkdir -p /tmp/picked && tar -xzf "$root/timings/logs.tgz" -C /tmp/picked
  mkdir -p /tmp/pick
  for b in "$base" ${CANDIDATES:-n151 n152}; do cp /tmp/picked/*-"$b"-*.txt /tmp/pick/ 2>/dev/null; done
  python3 perf/patches/2026-12-07-pick-fastest.py /tmp/pick "$base" 10 | tee "$root/picked.txt"
  check=$(tail -1 "$root/picked.txt")
fi
[ "$check" = none ] && exit 0
left=$((${TOTAL:-580} - ($(date +%s) - t0)))
OUT=$root/checks BUDGET=$left TEST_LIMIT=$((left - 20 < 290 ? left - 20 : 290)) BIN=/tmp/$check/device \
  bash scripts/device-steps.sh checks
