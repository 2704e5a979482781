#!/usr/bin/env bash
# Runs 122 and 123 in one device call (session 33: machines were scarce and
# each start costs ~90 s of the budget): the timings of main / 122 / 123
# alternating, then the checks (tests, fuzz, sanitizers) of 123, each
# into its own folder under $OUT. Carry build/pack119, build/pack122 and
# build/pack123 (the tracked tree is ~21 MB, so four packs do not fit).
#   OUT=... bash perf/patches/2026-12-06-runs122-123-one-call.sh
set -u
root=${OUT:-device-out}
OUT=$root/timings BUDGET=${TIMINGS_BUDGET:-170} RUNS="122 123" \
  bash perf/patches/2026-12-05-runs121-123-device-script.sh
OUT=$root/checks BUDGET=${CHECKS_BUDGET:-405} TEST_LIMIT=${TEST_LIMIT:-380} MODE=checks CHECK=123 \
  bash perf/patches/2026-12-05-runs121-123-device-script.sh
