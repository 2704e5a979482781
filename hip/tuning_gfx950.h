// MI350X (gfx950, CDNA4, wave64, 256 CUs, 160 KiB LDS) launch shapes for
// the truncation kernel; the algorithm's constants are shared with CUDA
// (cuda/policy.cuh). 1024 threads are 16 wavefronts; the 46.4 KB of LDS a
// block uses lets several blocks share a CU. Not yet measured on hardware:
// the shapes mirror the H200's.
#pragma once

namespace qrita {

struct TruncatePolicyGFX950 : TruncateAlgorithmPolicy {
  static constexpr int kFewRowsThreads = 1024;
  static constexpr int kFewRowsBlocksPerSM = 1;
  static constexpr int kManyRowsThreads = 512;
  static constexpr int kManyRowsBlocksPerSM = 2;
  static constexpr int kMostRowsThreads = 256;
  static constexpr int kMostRowsBlocksPerSM = 4;
  static constexpr int kLoadsInFlight = 4;
};

using TruncatePolicy = TruncatePolicyGFX950;

}  // namespace qrita
