#!/usr/bin/env bash
# Session 36, call 5: the rows of qrita-bench's seed-1 draw at 1024 x
# 262208 top-p alone, one by one (BenchmarkGPUPhases -phases-seed 1
# -phases-slowest), under main and run 130, to find what makes 130's call
# 14 % slower there. Carry build/pack-st (the two sampler.test builds).
set -u
root=${OUT:-device-out}
mkdir -p /tmp/st "$root"
tar -xJf build/pack-st/st.tar.xz -C /tmp
for i in 1 2; do
  for r in base n130; do
    for dt in bf16 fp32; do
      timeout 60 /tmp/st/$r.test -test.run '^$' -test.benchtime=1x -test.bench 'GPUPhases/B1024_V262208_llm_p$' \
        -phases-dtype $dt -phases-seed 1 -phases-slowest 24 >"$root/rows-$r-$dt-$i.txt" 2>&1
    done
  done
done
tar -czf "$root/rows.tgz" -C "$root" $(cd "$root" && ls rows-*.txt) && rm "$root"/rows-*.txt
