#!/usr/bin/env bash
# Session 37, call 1: run 131 (exp/run131: the hand-on list holds 236 rows,
# served 16 at a time in groups of the split workspace, where 16 rows fit
# and the 17th missing row of a call stayed in place) and run 132
# (exp/run132: run 130's sample in runs of 8, with run 131) against main.
# Top-p alone 1024 x 262208 over seeds 1-3 (a host model of the threshold
# finds 16 / 25 / 21 first-gather misses for main's strided sample, 17 /
# 26 / 19 for run 130's runs), 1024 x 128256, 256 and 2048 x 262208 (4 and
# 31 misses), joint,
# and rows that all miss (flat: more than the list holds; neginf90).
# Carry build/bench3 (the three builds' qrita-bench in one archive: xz
# finds their common bytes, 18.5 MB where three packs took 43 MB).
#   OUT=... bash perf/patches/2026-12-06-run131-timings.sh
set -u
root=${OUT:-device-out}
builds=(base n131 n132)
t0=$(date +%s)
tar -xJf build/bench3/all.tar.xz -C /tmp  # /tmp/{base,n131,n132}/device/qrita-bench
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
R='-batch+1024+-vocab+262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16+-seed'
T='-batch+1024+-vocab+128256+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
W='-batch+256,2048+-vocab+262208+-k+0+-p+0.9+-dist+llm+-dtype+bf16'
J='-batch+1024+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
steps=("run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for i in 1 2; do
  for r in "${builds[@]}"; do
    for s in 1 2 3; do steps+=("run:R$s-$r-$i:$(bench $r)+$R+$s"); done
  done
  [ "$i" = 2 ] && break
  for g in T W J M; do
    for r in "${builds[@]}"; do steps+=("run:$g-$r-$i:$(bench $r)+${!g}"); done
  done
done
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-$((570 - ($(date +%s) - t0)))} STEP_LIMIT=50 bash scripts/device-steps.sh "${steps[@]}"
