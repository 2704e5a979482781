#!/usr/bin/env bash
# Runs on the lent GPU machine: times builds against the first in one call,
# then checks one of them. The builds are folders /tmp/NAME/device (the
# binaries of `make device`, stripped) packed into one archive:
#   XZ_OPT='-9 --lzma2=dict=192MiB -T2' tar -cJf build/packN/all.tar.xz -C /tmp/pkN n150 n156
# and carried. The timings alternate the builds: SAMPLES samples of each
# group of SAMPLED, one of each of ONCE; each step's output is
# GROUP-BUILD-SAMPLE.txt in $OUT/timings/logs.tgz (scripts/device-steps.sh).
# Then the checks (scripts/device-steps.sh checks) of CHECK, if set.
#
#   BUILDS="n150 n156" PACK=build/pack156/all.tar.xz SAMPLED="P J N X" ONCE="L M" \
#     CHECK=n156 OUT=$OUT bash scripts/device-compare.sh
#
# Groups (qrita-bench flags, words split on '+'; G_NAME overrides or adds):
#   P  top-p alone, LLM rows, the split kernel's batches
#   J  joint k=50 p=0.9, LLM rows, the split kernel's batches
#   F  flat and neginf90 rows, 8-132 rows, top-p alone and joint
#   N  neginf90 top-k across the split / persistent edge (32-512 rows)
#   X  neginf90 and neginf99 top-k at 1, 64, 132 and 1024 rows
#   L  1024 LLM rows, top-p alone and joint
#   M  1024 flat and neginf90 rows, top-p alone and joint
# Env: SAMPLES (2), TIMINGS_BUDGET (240 s), TOTAL (560 s: the call's
# bound; the checks get what the timings left), NOTIMINGS=1.
set -u
root=${OUT:-device-out}
read -r -a builds <<<"${BUILDS:?BUILDS names the builds, the base first}"
t0=$(date +%s)
tar -xJf "${PACK:?PACK is the archive of the builds}" -C /tmp
unset PACK  # device-steps.sh would unpack it again, as a .tgz of one build
G_P=${G_P:-'-batch+1,8,64,132+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'}
G_J=${G_J:-'-batch+1,8,64,132+-vocab+128256,262208+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'}
G_F=${G_F:-'-batch+8,64,132+-vocab+128256+-k+0,50+-p+0.9+-dist+flat,neginf90+-dtype+bf16'}
G_N=${G_N:-'-batch+32,64,100,132,133,264,512+-vocab+128256+-k+50+-p+0.9,1+-dist+neginf90+-dtype+bf16,fp32'}
G_X=${G_X:-'-batch+1,64,132,1024+-vocab+128256,262208+-k+50+-p+0.9,1+-dist+neginf90,neginf99+-dtype+bf16'}
G_L=${G_L:-'-batch+1024+-vocab+128256,262208+-k+0,50+-p+0.9+-dist+llm+-dtype+fp32,bf16'}
G_M=${G_M:-'-batch+1024+-vocab+128256+-k+0,50+-p+0.9+-dist+flat,neginf90+-dtype+bf16'}
bench() { echo "/tmp/$1/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false"; }
group() {
  local v="G_$1"
  [ -n "${!v:-}" ] || { echo "unknown group $1" >&2; exit 2; }
  echo "${!v}"
}
if [ -z "${NOTIMINGS:-}" ]; then
  steps=("run:warm:$(bench "${builds[0]}")+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
  for ((i = 1; i <= ${SAMPLES:-2}; i++)); do
    for r in "${builds[@]}"; do
      for g in ${SAMPLED:-}; do steps+=("run:$g-$r-$i:$(bench "$r")+$(group "$g")"); done
    done
    if [ "$i" = 1 ]; then
      for r in "${builds[@]}"; do
        for g in ${ONCE:-}; do steps+=("run:$g-$r-1:$(bench "$r")+$(group "$g")"); done
      done
    fi
  done
  OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-240} STEP_LIMIT=60 bash scripts/device-steps.sh "${steps[@]}"
fi
[ -z "${CHECK:-}" ] && exit 0
left=$((${TOTAL:-560} - ($(date +%s) - t0)))
OUT=$root/checks BUDGET=$left TEST_LIMIT=$((left - 20 < 290 ? left - 20 : 290)) BIN=/tmp/$CHECK/device \
  bash scripts/device-steps.sh checks
