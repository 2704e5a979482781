// MI350X (gfx950, CDNA4, wave64) policy for the truncation kernel. The
// candidate buffer fits the 160 KiB LDS; 1024-thread blocks are 16 waves.
// Unmeasured on hardware so far: the values mirror the CUDA policy scaled
// to wave64 and the 256 CUs.
#pragma once

namespace qrita {

struct TruncatePolicyGFX950 {
  static constexpr int kFewRowsThreads = 1024;
  static constexpr int kFewRowsBlocksPerSM = 1;
  static constexpr int kManyRowsThreads = 512;
  static constexpr int kManyRowsBlocksPerSM = 2;
  static constexpr int kLoadsInFlight = 4;
  static constexpr int kCandidateCapacity = 4096;
  static constexpr int kGatherWholeRowBelow = kCandidateCapacity;
  static constexpr int kSampleSize = 1024;
  static constexpr int kRankedSurvivors = 256;
  static constexpr int kTopKOversample = 4;
  static constexpr int kMinCandidates = 256;
  static constexpr int kMaxTargetDivisor = 4;
  static constexpr float kSigmaMargin = 0.25f;
};

using TruncatePolicy = TruncatePolicyGFX950;

}  // namespace qrita
