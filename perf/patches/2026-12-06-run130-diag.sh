#!/usr/bin/env bash
# Session 36, call 3: where run 130 (the sample in runs of 8) loses at
# 1024 x 262208 top-p alone (+14 % against main while 792 rows gain 4 %):
# other seeds, batches between, rows kept in place (no hand-on), and the
# phases. Carry build/pack-main and build/pack130.
set -u
root=${OUT:-device-out}
mkdir -p /tmp/base /tmp/n130
tar -xJf build/pack-main/new.tar.xz -C /tmp/base
tar -xJf build/pack130/new.tar.xz -C /tmp/n130
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false+-vocab+262208+-k+0+-p+0.9+-dist+llm+-dtype+bf16"; }
steps=("run:warm:$(bench base)+-batch+64")
for r in base n130; do
  steps+=("run:seeds-$r-2:$(bench $r)+-batch+1024+-seed+2" "run:seeds-$r-3:$(bench $r)+-batch+1024+-seed+3"
    "run:batches-$r:$(bench $r)+-batch+850,900,950,1000"
    "run:inplace-$r:$(bench $r)+-batch+1024+-ablation+none,in-place"
    "run:phases-$r:/tmp/$r/device/sampler.test+-test.run+^\$+-test.benchtime=1x+-test.bench+GPUPhases/B1024_V262208_llm_p\$+-phases-dtype+bf16")
done
OUT=$root/diag BUDGET=${BUDGET:-250} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
