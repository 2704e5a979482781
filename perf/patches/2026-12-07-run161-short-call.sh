#!/usr/bin/env bash
# Session 45's last call, for ~240 s of device time: one timing sample of
# the joint (J), top-k alone (K) and neginf (X) groups for main (n157) and
# run 161, then run 161's GPU tests in their short form, and memcheck of
# the second-gather test, each bounded. Logs: $OUT/short.tgz.
set -u
out=${OUT:-device-out}; w=$(mktemp -d); mkdir -p "$out" "$w/logs"
tar -xJf "${PACK:-build/pack161/all.tar.xz}" -C /tmp
pack() { tar -czf "$out/short.tgz" -C "$w/logs" .; }
G_J='-batch+1,8,64,132+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
G_K='-batch+1,8,32,64,132+-vocab+128256,262208+-k+50+-p+1+-dist+llm+-dtype+fp32,bf16'
G_X='-batch+1,64,132+-vocab+128256,262208+-k+50+-p+0.9,1+-dist+neginf90,neginf99+-dtype+bf16'
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > "$w/logs/gpu.txt" 2>&1
for g in J K X; do
  for b in n157 n161; do
    v="G_$g"; args=${!v//+/ }
    timeout 40 /tmp/$b/device/qrita-bench -backend cuda -baselines copy -ref=false $args > "$w/logs/$g-$b-1.txt" 2>&1
  done
  pack
done
timeout 140 /tmp/n161/device/sampler.test -test.short -test.count=1 -test.run GPU > "$w/logs/gpu-tests.txt" 2>&1
echo "rc $?" >> "$w/logs/gpu-tests.txt"; pack
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/n161/device/sampler.test -test.short \
  -test.count=1 -test.run 'GPUTopKSecondGather' > "$w/logs/memcheck.txt" 2>&1
echo "rc $?" >> "$w/logs/memcheck.txt"; pack
