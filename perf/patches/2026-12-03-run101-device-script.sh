#!/usr/bin/env bash
# Run 101 (session 24): main's kernel (2256724) with the session's test additions: the checks, then Nsight
# Compute on the persistent kernel of LLM top-p alone and joint at 1024 x 128256.
export BIN=/tmp/dev/device BUDGET=${BUDGET:-560} STEP_LIMIT=150
S='/tmp/dev/device/sampler.test+-test.run+^$+-test.benchtime=1x+-test.bench'
N='ncu+--clock-control+none+-k+regex:truncate_rows+--launch-skip+1+--launch-count+1'
SEC='--section+SpeedOfLight+--section+MemoryWorkloadAnalysis+--section+ComputeWorkloadAnalysis+--section+SchedulerStats+--section+WarpStateStats+--section+Occupancy'
PC='--metrics+regex:smsp__pcsamp_warps_issue_stalled_.*,smsp__pcsamp_sample_count'
bash scripts/device-steps.sh \
  run:mkdir:mkdir+-p+/tmp/dev run:unpack:tar+-xzf+build/pack101/dev.tar.gz+-C+/tmp/dev \
  "run:ncu-llm-p:$N+$SEC+$S+GPUPhases/B1024_V128256_llm_p\$" \
  "run:ncu-llm-p-stalls:$N+$PC+$S+GPUPhases/B1024_V128256_llm_p\$" \
  "run:ncu-llm-kp:$N+$SEC+$S+GPUPhases/B1024_V128256_llm_kp\$" \
  "run:ncu-llm-kp-stalls:$N+$PC+$S+GPUPhases/B1024_V128256_llm_kp\$" \
  checks
