#!/usr/bin/env bash
# Session 39, call 1: TestGPUHandedOnRowsMatchInPlace on main (its 2400 x
# 16384 case had not run on a GPU); DRAM bytes of main's and run 139's
# persistent kernels at bf16 1024 x 128256 top-p alone (Nsight Compute;
# run 139 = exp/run139: the rows'
# 16-byte loads and stores evict-first, ld.global.cs / st.global.cs);
# then main (n135: run 135's kernel), run 138 (served parts asked of the
# L2), run 139 and run 140 (exp/run140: 139 with 138) alternating, two
# samples; then run 140's checks (139's and 138's code). NONCU=1 leaves
# out the profile; TOTAL (575) bounds the call; BUILDS and FEW name the
# builds timed on every case and on the last few.
# Carry build/pack139 (one archive: /tmp/{n135,n138,n139,n140}/device).
#   OUT=... bash perf/patches/2026-12-06-run139-one-call.sh
set -u
root=${OUT:-device-out}
read -ra builds <<<"${BUILDS:-n135 n138 n139 n140}"
t0=$(date +%s)
tar -xJf build/pack139/all.tar.xz -C /tmp
mkdir -p "$root/ncu"
dram() { # name dtype case build
  timeout 60 ncu --clock-control none -k regex:truncate_rows --launch-skip 1 --launch-count 1 \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,gpu__time_duration.sum \
    "/tmp/$4/device/sampler.test" -test.run '^$' -test.benchtime=1x -test.bench "GPUPhases/$3\$" -phases-dtype "$2" \
    >"$root/ncu/$1.txt" 2>&1
}
timeout 120 /tmp/n135/device/sampler.test -test.v -test.count=1 -test.run TestGPUHandedOnRowsMatchInPlace >"$root/handon-n135.txt" 2>&1
echo "rc $?" >>"$root/handon-n135.txt"
if [ -z "${NONCU:-}" ]; then
  for b in n135 n139; do dram bf16-128256-$b bf16 B1024_V128256_llm_p $b; done
  tar -czf "$root/ncu.tgz" -C "$root" ncu && rm -r "$root/ncu"
fi
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
R='-batch+1024+-vocab+262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16+-seed'
T='-batch+1024+-vocab+128256+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90+-dtype+bf16'
J='-batch+64,1024+-vocab+128256+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
S='-batch+1,8,64+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
steps=("run:warm:$(bench n135)+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
for i in 1 2; do
  for r in "${builds[@]}"; do
    for s in 1 2 3; do steps+=("run:R$s-$r-$i:$(bench $r)+$R+$s"); done
    steps+=("run:T-$r-$i:$(bench $r)+$T")
  done
done
read -ra few <<<"${FEW:-n135 n139 n140}"
for r in "${few[@]}"; do
  steps+=("run:M-$r-1:$(bench $r)+$M")
  steps+=("run:J-$r-1:$(bench $r)+$J")
  steps+=("run:S-$r-1:$(bench $r)+$S")
done
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-250} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
[ -n "${NOCHECKS:-}" ] && exit 0
left=$((${TOTAL:-575} - ($(date +%s) - t0)))
OUT=$root/checks BUDGET=$left TEST_LIMIT=$((left - 20 < 250 ? left - 20 : 250)) BIN=/tmp/${CHECK:-n140}/device \
  bash scripts/device-steps.sh checks
