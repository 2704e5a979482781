#!/usr/bin/env bash
# Runs on the lent GPU machine: times build/device/qrita-bench (the change)
# against a baseline binary of an earlier kernel in one call, case by case,
# each against its own device-to-device copy of the same bytes (PERFLOG's
# A/B protocol). Prints one line a case: the change's us/call and x copy,
# then the baseline's; raw outputs go to $OUT/ab (or ./device-out/ab).
# Usage: scripts/device-ab.sh BASELINE_BIN SET...
#   small  B=1,8,64 at V=128256 and 262208: joint, top-k alone, top-p alone
#   large  B=1024 x 128256 joint and top-p alone; 256-1024 x 262208 top-p alone
#   tail   top-p alone at V=262208 around the multiprocessor count (B=64-256)
#   miss   flat, neginf90, plateau and one-hot rows (truncation misses)
#   persist the persistent kernel's shapes (B=133-1024): joint, top-k alone,
#          top-p alone at V=128256 (and 262208 for joint and top-k)
#   half   bf16 and fp16 logits, B=64 and 1024 x 128256, joint and top-p alone
#   most   around and past four blocks a multiprocessor (B=512-4096): joint,
#          top-k alone, top-p alone at V=128256, joint and top-p at 262208;
#          joint and top-k alone over flat and neginf90 rows at 1024
# Each invocation sweeps several cases with -ref=false: with one case,
# qrita-bench runs the CPU reference by default (-ref auto), minutes at
# B=1024, which a time limit then cuts (PERFLOG run 68).
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,/^set /{/^#/p}' "$0"; exit 2; }
base=$1
shift
out=${OUT:-device-out}/ab
mkdir -p "$out"
new=build/device/qrita-bench
limit=${BENCH_LIMIT:-120}
status=0

# run NAME FLAGS...: both binaries over the same cases, then their lines side by side.
run() {
  local name=$1 bin tag rc
  shift
  for tag in new base; do
    bin=$new
    [ "$tag" = base ] && bin=$base
    timeout "$limit" "$bin" -backend cuda -baselines copy -ref=false "$@" >"$out/$name-$tag.txt" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
      echo "$name $tag: exit $rc (124: past BENCH_LIMIT=${limit}s; see $out/$name-$tag.txt)"
      status=1
    fi
  done
  echo "# $name: batch vocab k p dist dtype | change us x-copy | baseline us x-copy"
  paste <(grep -E '^ +cuda' "$out/$name-new.txt" | awk '{print $3, $4, $5, $6, $7, $8, "|", $10, $14}') \
    <(grep -E '^ +cuda' "$out/$name-base.txt" | awk '{print "|", $10, $14}')
}

for set in "$@"; do
  case $set in
  small)
    run small-joint -batch 1,8,64 -vocab 128256,262208 -k 50 -p 0.9
    run small-topk -batch 1,8,64 -vocab 128256 -k 50 -p 1
    run small-topp -batch 1,8,64 -vocab 128256,262208 -k 0 -p 0.9 ;;
  large)
    run large -batch 1024 -vocab 128256 -k 50,0 -p 0.9
    run large-topp -batch 256,512,1024 -vocab 262208 -k 0 -p 0.9 ;;
  tail)
    run tail -batch 64,96,128,133,256 -vocab 262208 -k 0 -p 0.9 ;;
  miss)
    run miss -batch 1,64,1024 -vocab 128256 -k 0 -p 0.9 -dist flat,neginf90
    run plateau -batch 1,8 -vocab 128256 -k 0 -p 0.9 -dist plateau
    run onehot -batch 1,64,1024 -vocab 128256 -k 50,0 -p 0.9 -dist onehot ;;
  persist)
    run persist-joint -batch 133,256,1024 -vocab 128256,262208 -k 50 -p 0.9
    run persist-topk -batch 256,1024 -vocab 128256,262208 -k 50 -p 1
    run persist-topp -batch 133,256,1024 -vocab 128256 -k 0 -p 0.9 ;;
  half)
    run half -dtype bf16,fp16 -batch 64,1024 -vocab 128256 -k 50,0 -p 0.9 ;;
  most)
    run most -batch 512,528,1024,2048,4096 -vocab 128256 -k 50,0 -p 0.9
    run most-topk -batch 512,528,2048 -vocab 128256 -k 50 -p 1
    run most-262208 -batch 512,528,2048 -vocab 262208 -k 50,0 -p 0.9
    run most-miss -batch 1024 -vocab 128256 -k 50 -p 0.9,1 -dist flat,neginf90 ;;
  *)
    echo "unknown set $set (small, large, tail, miss, persist, half, most)"
    status=2 ;;
  esac
done
exit $status
