#!/usr/bin/env bash
# Session 36, call 2: runs 129 (exp/run129: the persistent kernel's blocks
# that serve handed-on rows claim rows past the grid's first from a
# counter, where block b took rows b, b + grid, ...) and 130 (exp/run130:
# the sample read in 128 runs of 8 entries, where 1024 single entries
# were strided over the row) against main, in one device call: DRAM bytes
# of main's and 130's kernels (Nsight Compute), then timings alternating
# (top-p alone at 1024 rows in three dtypes; batches around whole waves of
# the 264-block grid, 792 / 1024 / 1056, and 256 / 2048; joint; small
# batches). Checks follow in another call, for the build that lands.
# Carry build/pack-main, build/pack129 and build/pack130.
#   OUT=... bash perf/patches/2026-12-06-run129-one-call.sh
set -u
root=${OUT:-device-out}
builds=(base n129 n130)
t0=$(date +%s)
mkdir -p /tmp/base /tmp/n129 /tmp/n130
tar -xJf build/pack-main/new.tar.xz -C /tmp/base
tar -xJf build/pack129/new.tar.xz -C /tmp/n129
tar -xJf build/pack130/new.tar.xz -C /tmp/n130
# DRAM bytes of main's persistent kernel, top-p alone at 1024 rows: how far
# past the row's read and write (the sample's 1024 scattered sectors?)
mkdir -p "$root/ncu"
dram() { # name dtype case [build]
  timeout 60 ncu --clock-control none -k regex:truncate_rows --launch-skip 1 --launch-count 1 \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,gpu__time_duration.sum \
    "/tmp/${4:-base}/device/sampler.test" -test.run '^$' -test.benchtime=1x -test.bench "GPUPhases/$3\$" -phases-dtype "$2" \
    >"$root/ncu/$1.txt" 2>&1
}
dram bf16-128256 bf16 B1024_V128256_llm_p
dram bf16-262208 bf16 B1024_V262208_llm_p
dram fp32-128256 fp32 B1024_V128256_llm_p
dram bf16-128256-kp bf16 B1024_V128256_llm_kp
dram bf16-128256-n130 bf16 B1024_V128256_llm_p n130
dram fp32-128256-n130 fp32 B1024_V128256_llm_p n130
tar -czf "$root/ncu.tgz" -C "$root" ncu && rm -r "$root/ncu"
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
T='-batch+1024+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16,fp16'
W='-batch+256,792,1056,2048+-vocab+128256+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
X='-batch+256,792,1056+-vocab+262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
J='-batch+64,1024+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
S='-batch+1,8,64+-vocab+128256+-k+0+-p+0.9+-dist+llm,flat+-dtype+fp32,bf16'
M='-batch+1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90,onehot+-dtype+bf16'
steps=("run:warm:$(bench base)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for i in 1 2; do
  for g in T W X J S M; do
    for r in "${builds[@]}"; do steps+=("run:$g-$r-$i:$(bench $r)+${!g}"); done
  done
done
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-$((570 - ($(date +%s) - t0)))} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
