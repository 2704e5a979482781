#!/usr/bin/env bash
# Session 36, call 1: Nsight Compute's stall samples and source counters of
# main's persistent kernel on top-p alone at 1024 x 262208 (bf16 and fp32;
# the bf16 gather moves bytes at three quarters of fp32's rate, PERFLOG
# session 35), then run 128's (the whole-row top-p gather refills each
# vector's register before using it) bf16 profile, the phases of both, and
# timings of main / 128 / 128b (the same walk for every rest-mass gather,
# split rows' parts too) alternating. Carry build/pack-main, build/pack128
# and build/pack128b.
#   OUT=... bash perf/patches/2026-12-06-run128-ncu-timings.sh
set -u
root=${OUT:-device-out}
logs=$root/ncu
mkdir -p "$logs" /tmp/base /tmp/n128 /tmp/n128b
t0=$(date +%s)
tar -xJf build/pack-main/new.tar.xz -C /tmp/base
tar -xJf build/pack128/new.tar.xz -C /tmp/n128
tar -xJf build/pack128b/new.tar.xz -C /tmp/n128b
ncu --version >"$logs/ncu-version.txt" 2>&1
prof() { # name build dtype bench-case
  local name=$1 b=$2 dt=$3 pat=$4
  timeout 120 ncu --clock-control none -k "regex:truncate_rows" --launch-skip 1 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section LaunchStats --section SpeedOfLight \
    --section MemoryWorkloadAnalysis --section SchedulerStats --section Occupancy \
    -f -o "/tmp/$name" "/tmp/$b/device/sampler.test" -test.run '^$' -test.benchtime=1x \
    -test.bench "GPUPhases/$pat\$" -phases-dtype "$dt" >"$logs/$name.txt" 2>&1
  echo "rc $? at $(($(date +%s) - t0))s" >>"$logs/$name.txt"
  ncu -i "/tmp/$name.ncu-rep" --page source --csv --print-source sass >"$logs/$name-sass.csv" 2>"$logs/$name-sass.err"
  ncu -i "/tmp/$name.ncu-rep" --page details --csv >"$logs/$name-details.csv" 2>&1
  xz -9 "$logs/$name-sass.csv"
}
prof base-bf16 base bf16 B1024_V262208_llm_p
prof base-fp32 base fp32 B1024_V262208_llm_p
prof n128-bf16 n128 bf16 B1024_V262208_llm_p
echo "ncu done $(($(date +%s) - t0))s" >>"$logs/progress.txt"
builds=(base n128 n128b)
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
phases() { echo "/tmp/$1/device/sampler.test+-test.run+^\$+-test.benchtime=1x+-test.bench+GPUPhases/B1024_V.*_llm_p\$+-phases-dtype+$2"; }
T='-batch+1024+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16,fp16'
S='-batch+1,8,64,256+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
J='-batch+1,64,1024+-vocab+128256+-k+50+-p+0.9,1+-dist+llm+-dtype+fp32,bf16'
steps=("run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for r in "${builds[@]}"; do steps+=("run:phases-bf16-$r:$(phases $r bf16)" "run:phases-fp32-$r:$(phases $r fp32)"); done
for i in 1 2; do
  for g in T S J; do
    for r in "${builds[@]}"; do steps+=("run:$g-$r-$i:$(bench $r)+${!g}"); done
  done
done
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-$((570 - ($(date +%s) - t0)))} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
