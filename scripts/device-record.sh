#!/usr/bin/env bash
# Runs on the lent GPU machine: the performance record of issue 6, the six
# qrita-bench blocks whose cases are exactly `-sweep full`, one table per
# block in $OUT (or ./device-out), the main block's plot as h200-main.png.
# Usage: scripts/device-record.sh [block...]  (main ids half miss midvocab
# graph; all by default). Each block runs under its own time limit so one
# slow block cannot take the others' time.
set -uo pipefail
out=${OUT:-device-out}
mkdir -p "$out"
bench="build/device/qrita-bench -backend cuda -progress=false -gpu-reps 7"
blocks=("$@")
[ ${#blocks[@]} -eq 0 ] && blocks=(main ids half miss midvocab graph)
status=0
for b in "${blocks[@]}"; do
  case $b in
  main) args=(-batch 1,2,4,8,16,32,64,128,256,512,1024 -vocab llama3,gemma3 -k 50,0 -p 0.9,1 -plot "$out/h200-main.png"); limit=160 ;;
  ids) args=(-out ids -batch 256,1024 -vocab llama3,gemma3 -k 50,0 -p 0.9,1); limit=50 ;;
  half) args=(-dtype bf16,fp16 -batch 1,64,1024 -vocab llama3 -k 50,0 -p 0.9,1); limit=75 ;;
  miss) args=(-dist flat,onehot,neginf90 -batch 1,64,1024 -vocab llama3 -k 50,0 -p 0.9,1); limit=70 ;;
  midvocab) args=(-batch 256,1024 -vocab qwen,gpt-oss -k 50,0 -p 0.9,1); limit=50 ;;
  graph) args=(-timing graph -batch 1 -vocab llama3,gemma3 -k 50,0 -p 0.9,1); limit=30 ;;
  *) echo "unknown block $b" >&2; exit 2 ;;
  esac
  # SIGTERM at the limit still writes the finished cases (marked INTERRUPTED).
  timeout "$limit" $bench "${args[@]}" >"$out/$b.txt" 2>&1
  rc=$?
  [ $rc -eq 0 ] || { status=1; echo "$b: exit $rc"; }
done
exit $status
