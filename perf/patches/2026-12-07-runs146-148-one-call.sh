#!/usr/bin/env bash
# Session 41's call: run 146 (run 141 plus the persistent kernel's mask
# stores evict-first), 147 (146 with the binned top-p passes' loads
# plain), 148 (146 plus the mask pass's loads evict-first in every kernel)
# and 149 (main's kernel with bf16 / fp16 digit searches two / one steps
# shorter) against main (n141), builds alternating: SAMPLES (2) samples of
# the split kernel's batches (P, J, F), one of 1024 rows (L: LLM; M: flat and
# neginf90) per build; first, main's phases of neginf90 rows (their missed
# rows' tail: 132 rows joint took 282 us, 64 rows 35) and a batch sweep of
# those rows (N). Then the checks of the fastest build against main
# (perf/patches/2026-12-07-pick-fastest.py; CHECK names one instead).
# Carry build/pack146 (one archive: /tmp/{n141,n146,...}/device). The
# checks may be a second call on the warm machine: NOTIMINGS=1 CHECK=nNNN.
#   OUT=... bash perf/patches/2026-12-07-runs146-148-one-call.sh
# TOTAL (575) bounds the call; NOCHECKS=1 leaves out the checks,
# NOTIMINGS=1 the timings.
set -u
root=${OUT:-device-out}
read -r -a builds <<<"${BUILDS:-n141 n146 n147 n148 n149}"
t0=$(date +%s)
tar -xJf build/pack146/all.tar.xz -C /tmp
base=${builds[0]}
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
phases() { echo "/tmp/$base/device/sampler.test+-test.run+^\$+-test.bench+GPUPhases/B(132|1024)_V128256_neginf90+-test.benchtime=1x+-phases-slowest+4+-phases-dtype+$1"; }
P='-batch+1,8,32,64,100,132+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
J='-batch+1,8,32,64,100,132+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
F='-batch+8,64,132+-vocab+128256+-k+0,50+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
L='-batch+1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+1024+-vocab+128256+-k+0,50+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
N='-batch+16,32,64,100,120,132,133,200,264,512+-vocab+128256+-k+50+-p+0.9,1+-dist+neginf90+-dtype+bf16,fp32'
if [ -z "${NOTIMINGS:-}" ]; then
  steps=("run:warm:$(bench "$base")+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50"
    "run:D-bf16:$(phases bf16)" "run:D-fp32:$(phases fp32)" "run:N-$base-1:$(bench "$base")+$N")
  # The 1024-row groups after the first sample: a call cut short loses
  # part of the second sample only.
  for ((i = 1; i <= ${SAMPLES:-2}; i++)); do
    for r in "${builds[@]}"; do
      for g in P J F; do steps+=("run:$g-$r-$i:$(bench "$r")+${!g}"); done
    done
    if [ "$i" = 1 ]; then
      for r in "${builds[@]}"; do
        for g in L M; do steps+=("run:$g-$r-1:$(bench "$r")+${!g}"); done
      done
    fi
  done
  OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-300} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
fi
[ -n "${NOCHECKS:-}" ] && exit 0
check=${CHECK:-}
if [ -z "$check" ]; then
  mkdir -p /tmp/picked && tar -xzf "$root/timings/logs.tgz" -C /tmp/picked
  python3 perf/patches/2026-12-07-pick-fastest.py /tmp/picked "$base" | tee "$root/picked.txt"
  check=$(tail -1 "$root/picked.txt")
fi
[ "$check" = none ] && exit 0
left=$((${TOTAL:-575} - ($(date +%s) - t0)))
OUT=$root/checks BUDGET=$left TEST_LIMIT=$((left - 20 < 290 ? left - 20 : 290)) BIN=/tmp/$check/device \
  bash scripts/device-steps.sh checks
