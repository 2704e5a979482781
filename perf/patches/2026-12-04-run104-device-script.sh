#!/usr/bin/env bash
# Run 104 (session 25): source-level Nsight Compute of main's kernel (a13e963 built with -lineinfo):
# per-instruction stall samples and executed instructions of the persistent kernel (LLM top-p alone and
# joint, 1024 x 128256) and of the split kernel (B=1 x 128256 joint and top-k alone).
set -u
out=${OUT:-device-out}
logs=$out/logs
work=$(mktemp -d)
mkdir -p "$logs"
t0=$(date +%s)
tar -xzf build/pack104/dev.tar.gz -C "$work"
B=$work/device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$logs/gpu.txt" 2>&1
ncu --version >>"$logs/gpu.txt" 2>&1
# the -lineinfo paths point at /work/main: let ncu find the sources
mkdir -p /work 2>/dev/null && ln -sfn "$PWD" /work/main 2>/dev/null
prof() { # name kernel-regex bench-case [ncu flags...]
  local name=$1 kre=$2 pat=$3
  shift 3
  timeout 150 ncu --clock-control none -k "regex:$kre" --launch-skip 1 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section LaunchStats --section SpeedOfLight "$@" \
    -f -o "$work/$name" "$B/sampler.test" -test.run '^$' -test.benchtime=1x -test.bench "GPUPhases/$pat\$" \
    >"$logs/$name.txt" 2>&1
  echo "rc $? at $(($(date +%s) - t0))s" >>"$logs/$name.txt"
  ncu -i "$work/$name.ncu-rep" --page source --csv --print-source sass >"$logs/$name-sass.csv" 2>"$logs/$name-sass.err"
  ncu -i "$work/$name.ncu-rep" --page source --csv --print-source cuda,sass >"$logs/$name-cudasass.csv" 2>"$logs/$name-cudasass.err"
  ncu -i "$work/$name.ncu-rep" --page details --csv >"$logs/$name-details.csv" 2>&1
  tar -czf "$out/logs.tgz" -C "$logs" .
}
prof p1024 truncate_rows B1024_V128256_llm_p
prof kp1024 truncate_rows B1024_V128256_llm_kp
prof kp1 split_rows B1_V128256_llm_kp --warp-sampling-interval 0
prof k1 split_rows B1_V128256_llm_k --warp-sampling-interval 0
prof p1 split_rows B1_V128256_llm_p --warp-sampling-interval 0
timeout 60 "$B/sampler.test" -test.run '^$' -test.benchtime=1x -test.bench 'GPUPhases/B1_V128256_llm' >"$logs/phases.txt" 2>&1
rm -f "$logs"/*.err.empty
tar -czf "$out/logs.tgz" -C "$logs" .
echo "done $(($(date +%s) - t0))s"
