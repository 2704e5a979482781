// Tunables of the truncation kernel, as one constexpr policy. HIP builds
// take hip/tuning_gfx950.h's policy instead.
#pragma once

#include "compat.cuh"

namespace qrita {

struct TruncatePolicyCUDA {
  // One CTA per row, persistent over rows. Every row runs the same code
  // with the same block size whatever the batch, so results are batch
  // invariant.
  static constexpr int kBlockThreads = 512;
  static constexpr int kMinBlocksPerSM = 2;  // caps registers at 64/thread
  // 16-byte vectors each thread keeps in flight per loop trip.
  static constexpr int kLoadsInFlight = 4;
  // Candidate buffer (shared memory), in entries of (bits, index).
  static constexpr int kCandidateCapacity = 4096;
  // Rows this short are gathered whole: no sampling needed.
  static constexpr int kGatherWholeRowBelow = kCandidateCapacity;
  // Strided sample for the mean and deviation of the row.
  static constexpr int kSampleSize = 1024;
  // Target candidates: this many times k, at least kMinCandidates ...
  static constexpr int kTopKOversample = 4;
  static constexpr int kMinCandidates = 256;
  // ... and at most this share of the buffer (room for sampling error).
  static constexpr int kMaxTargetDivisor = 4;
  // The threshold moves this many deviations down for safety.
  static constexpr float kSigmaMargin = 0.25f;
};

#if !QRITA_HIP
using TruncatePolicy = TruncatePolicyCUDA;
#endif

}  // namespace qrita

#if QRITA_HIP
#include "../hip/tuning_gfx950.h"
#endif
