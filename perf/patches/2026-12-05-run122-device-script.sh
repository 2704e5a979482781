#!/usr/bin/env bash
# Run 122 (session 32, not yet run: no machine was lent): run 121 plus the rest mass summed as floats by
# groups of 4 entries and converted once a group (branch exp/run122; perf/patches/2026-12-05-run122-*.patch
# against 9c9a72e, which hold run 121 too). Times main (build/pack119/new.tar.xz, 0181576's code), run 121
# (build/pack121/new.tar.xz) and run 122 (build/pack122/new.tar.xz) in one call, alternating.
# The packs are git-ignored: if the machine was reset, build each side with `make device CUDA_ARCHS=90`
# (~15 min) and pack it stripped (copy build/device to a tmp device/ folder, strip, XZ_OPT=-9 tar -cJf).
# Without pack121, set ONLY=122 (base against 122 alone). Carry build/pack119, build/pack121, build/pack122.
# Call 1 (timings): bash perf/patches/2026-12-05-run122-device-script.sh
# Call 2 (checks of 122, with the new TestGPUTopPAlignmentInvariance under the sanitizers):
#   MODE=checks bash perf/patches/2026-12-05-run122-device-script.sh
export BIN=/tmp/n122/device BUDGET=${BUDGET:-570} STEP_LIMIT=100 TEST_LIMIT=${TEST_LIMIT:-420}
B='/tmp/b122/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
R='/tmp/r121/device/qrita-bench+-backend+cuda+-baselines+copy+-ref=false'
T='-batch+256,1024+-vocab+128256,262208+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16,fp16'
S='-batch+1,8,64+-vocab+128256,151936+-k+0+-p+0.9+-dist+llm+-dtype+fp32,bf16'
M='-batch+64,1024+-vocab+128256+-k+0+-p+0.9+-dist+flat,neginf90,onehot'
J='-batch+1,8,64,1024+-vocab+128256+-k+50+-p+0.9+-dist+llm+-dtype+fp32,bf16'
steps=(run:mkdir:mkdir+-p+/tmp/b122+/tmp/r121+/tmp/n122
  run:unpack-base:tar+-xJf+build/pack119/new.tar.xz+-C+/tmp/b122
  run:unpack-new:tar+-xJf+build/pack122/new.tar.xz+-C+/tmp/n122)
[ "${ONLY:-}" = 122 ] || steps+=(run:unpack-121:tar+-xJf+build/pack121/new.tar.xz+-C+/tmp/r121)
if [ "${MODE:-timings}" = checks ]; then
  steps+=("run:probe:/tmp/n122/device/sampler.test+-test.v+-test.count=1+-test.run+GPUTopPAlignment|GPUHandedOnRowsMatchInPlace|GPUSanitizerCoverageSliced" checks)
else
  steps+=("run:warm:$B+-batch+64+-vocab+128256+-k+0+-p+0.9+-dist+llm+-gpu-reps+50")
  for i in 1 2; do
    for g in T S; do
      steps+=("run:$g-base$i:$B+${!g}" "ab:$g-new$i:${!g}")
      [ "${ONLY:-}" = 122 ] || steps+=("run:$g-r121-$i:$R+${!g}")
    done
  done
  for g in M J; do steps+=("run:$g-base1:$B+${!g}" "ab:$g-new1:${!g}"); done
fi
bash scripts/device-steps.sh "${steps[@]}"
