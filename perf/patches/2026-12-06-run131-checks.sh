#!/usr/bin/env bash
# Session 37, call 2: the checks of the build that lands (GPU tests, with
# TestGPUHandedOnRowsMatchInPlace's flat 300 x 32768 listing more rows
# than the 16 groups serve at once and more than the list holds; native
# tests, fuzz, memcheck / racecheck / synccheck), then the slowest rows of
# seeds 1 and 2 at 1024 x 262208 top-p alone under it and main. Carry
# build/checks2 (the build's sampler.test and native.test, main's
# sampler.test, in one archive).
set -u
root=${OUT:-device-out}
tar -xJf build/checks2/all.tar.xz -C /tmp  # /tmp/check/device: the build's tests; /tmp/base/device: main's sampler.test
OUT=$root/checks BUDGET=${CHECKS_BUDGET:-300} TEST_LIMIT=${TEST_LIMIT:-270} BIN=/tmp/check/device \
  bash scripts/device-steps.sh checks
steps=()
for r in base check; do
  for s in 1 2; do
    steps+=("run:rows-$r-$s:/tmp/$r/device/sampler.test+-test.run+^\$+-test.benchtime=1x+-test.bench+GPUPhases/B1024_V262208_llm_p\$+-phases-dtype+bf16+-phases-seed+$s+-phases-slowest+16")
  done
done
OUT=$root/rows BUDGET=${ROWS_BUDGET:-150} STEP_LIMIT=40 bash scripts/device-steps.sh "${steps[@]}"
