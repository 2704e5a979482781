#!/usr/bin/env bash
# Runs on the lent GPU machine (no Go there): the GPU tests, the three
# compute-sanitizer tools, the GPU fuzzer and the GPU benchmark, from the binaries that
# `make device` left in build/device. Logs go to $OUT (or ./device-out).
# Usage: scripts/device-run.sh [cmake] [tests] [sanitize] [fuzz] [bench] [cli]
#        [bench-filter=REGEX]
#   cmake: the CMake build with the machine's own nvcc (CUDA 12/13 check)
#   fuzz:  FuzzGPUvsReference for FUZZ_TIME (default 15s; the step stops at 120 s)
#   cli:   qrita-bench -backend cuda over the anchor shapes
set -uo pipefail
out=${OUT:-device-out}
mkdir -p "$out"
bin=build/device
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(tests sanitize bench)
filter=BenchmarkGPU
for s in "${steps[@]}"; do
  case $s in bench-filter=*) filter=${s#bench-filter=} ;; esac
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$out/nvidia-smi.csv"
status=0
for s in "${steps[@]}"; do
  case $s in
  tests)
    "$bin/sampler.test" -test.v -test.count=1 -test.run 'GPU' >"$out/gpu-tests.log" 2>&1 || status=1
    "$bin/native.test" -test.v -test.count=1 >"$out/native-tests.log" 2>&1 || status=1
    grep -hE '^(--- |PASS|FAIL|ok|qrita-gpu)' "$out/gpu-tests.log" "$out/native-tests.log" | grep -v '^    ' ;;
  sanitize)
    for tool in memcheck racecheck synccheck; do
      # racecheck and synccheck are slow: they get the small coverage test.
      pattern='GPUSanitizerCoverage|GPUBadInput|GPUTopKSecondGather|GPUBinnedTopP|GPUTopPAlignment|GPUChainedCalls'; limit=${SANITIZE_LIMIT:-150}
      timeout $limit compute-sanitizer --tool "$tool" --error-exitcode 3 "$bin/sampler.test" -test.short -test.count=1 \
        -test.run "$pattern" >"$out/sanitize-$tool.log" 2>&1 || status=1
      echo "$tool: $(grep -E 'ERROR SUMMARY' "$out/sanitize-$tool.log" | tail -1) $(tail -1 "$out/sanitize-$tool.log")"
    done ;;
  bench)
    "$bin/sampler.test" -test.run '^$' -test.bench "$filter" -test.benchtime=1x >"$out/bench.log" 2>&1 || status=1
    grep -E 'qrita-gpu-(bench|phases)' "$out/bench.log" ;;
  cmake)
    { nvcc --version | tail -2; cmake --version | head -1
      cmake -S . -B /tmp/qrita-cmake -G Ninja -DCMAKE_CUDA_ARCHITECTURES="${CMAKE_ARCHS:-80;90}" &&
        cmake --build /tmp/qrita-cmake; } >"$out/cmake.log" 2>&1 || status=1
    tail -3 "$out/cmake.log" ;;
  fuzz)
    # A test binary fuzzes only with a cache directory (go test names one;
    # without it the binary prints its usage and exits 2).
    mkdir -p /tmp/qrita-fuzzcache
    timeout 120 "$bin/sampler.test" -test.run '^$' -test.fuzz '^FuzzGPUvsReference$' \
      -test.fuzztime "${FUZZ_TIME:-15s}" -test.fuzzcachedir /tmp/qrita-fuzzcache >"$out/fuzz.log" 2>&1 || status=1
    grep -E 'execs|PASS|FAIL' "$out/fuzz.log" | tail -2 ;;
  cli)
    "$bin/qrita-bench" -backend cuda -sweep anchors -reps 5 -ref-reps 1 >"$out/qrita-bench.txt" 2>&1 || status=1
    cat "$out/qrita-bench.txt" ;;
  esac
done
exit $status
