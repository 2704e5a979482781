// Tunables of the truncation kernel, as constexpr policies: the algorithm's
// constants, shared by every GPU, and each vendor's launch shapes (HIP
// builds take hip/tuning_gfx950.h's).
#pragma once

#include "compat.cuh"

namespace qrita {

struct TruncateAlgorithmPolicy {
  // Candidate buffer (shared memory), in entries of (bits, index).
  static constexpr int kCandidateCapacity = 4096;
  // Rows this short are gathered whole: no sampling needed.
  static constexpr int kGatherWholeRowBelow = kCandidateCapacity;
  // Sample for the mean and deviation of the row (summed by a
  // fixed tree of warps, so the statistics do not depend on the block
  // size).
  static constexpr int kSampleSize = 1024;
  // The sample is read in runs of this many consecutive entries (one
  // 32-byte sector of fp32): 128 sectors of device memory a row, where a
  // stride of n / 1024 entries read 1024 (PERFLOG run 130).
  static constexpr int kSampleRun = 8;
  // A sample with at most this many values above its smallest counts as
  // constant (the threshold goes just above that value).
  static constexpr int kSampleOutliers = 8;
  // Top-p over at most this many top-k survivors ranks them directly
  // (quadratic, but a few syncs) instead of the four-step mass search.
  static constexpr int kRankedSurvivors = 256;
  // Top-k over at most this many candidates sorts them (sorted_top_k.cuh:
  // registers and shuffles, a barrier only per stride across warps)
  // instead of the digit search: 5 % faster calls at B=1 x 128256 (~490
  // candidates); a network over 1024 was 3-5 % slower than the digit
  // search (PERFLOG run 91). At most an eighth of the buffer.
  static constexpr int kSortedCandidates = 512;
  // Target candidates of a top-k row: this many times k, at least
  // kMinCandidates (the margin below makes it ~2.6x: k = 50 gathers ~330
  // at V = 128256, under the sort's 512 in 98 % of LLM rows, where 4x and
  // 256 gathered ~570, under 512 in 30 %: PERFLOG run 110) ...
  static constexpr int kTopKOversample = 2;
  static constexpr int kMinCandidates = 128;
  // ... and at most this share of the buffer (room for sampling error).
  static constexpr int kMaxTargetDivisor = 4;
  // Target candidates of a row with top-p alone: this share of the buffer
  // (~500 at V = 128256, where the nuclei of LLM-like rows at p = 0.9
  // hold 10-50 entries; a nucleus reaching below them gathers once more:
  // PERFLOG runs 112, 127). Rows mostly -Inf aim at the bound
  // (kMaxTargetDivisor) instead: their nuclei run longer.
  static constexpr int kTopPTargetDivisor = 16;
  // A top-k target times this (at most a kMaxTargetDivisor-th of
  // the buffer) when fewer than a kSparseSampleDivisor-th of the sample
  // is finite (rows mostly -Inf): their mean and deviation come from ~100
  // sampled values, and a top-k that misses reads the row again (a split
  // row: searched by its decider alone, ~200 us at V = 128256). At 4, not
  // 2, rows 90 % -Inf miss 2 in 12288 where 27 did (perf/tools/
  // missmodel), and neginf90 joint calls of 100-1024 rows are 47-75 %
  // faster; the extra candidates cost rows 99 % -Inf 2-5 us at B=1
  // (PERFLOG run 156).
  static constexpr int kSparseTargetBoost = 4;
  static constexpr int kSparseSampleDivisor = 4;
  // A top-k row whose first gather missed gathers again aiming at this
  // many times k: the model that missed once is off again, by more the
  // lower its threshold (at 2x, planted outliers of 20 on an N(0, 1)
  // row's sample missed twice where 4x found k).
  static constexpr int kRegatherOversample = 4;
  // The threshold moves this many deviations down for safety.
  static constexpr float kSigmaMargin = 0.25f;
  // A top-p row whose nucleus reaches below the threshold gathers once
  // more, aiming to fill this share of the buffer.
  static constexpr float kSecondGatherFill = 0.75f;
  // ... when the first candidates hold at least this share of the goal.
  static constexpr float kSecondGatherMinReach = 0.5f;
  // Top-p over a constant rest finds the last kept tie's index from the
  // candidates' indices in at most this many block-wide counting steps
  // (one per run of candidates passed), else reads the row in order.
  static constexpr int kTieIndexSteps = 8;
  // The value bins of a whole-row top-p search start at most this far
  // below the row's maximum: lower entries carry no fixed-point mass
  // (e^-32 x 2^39 < 0.01), so they never end a nucleus.
  static constexpr float kBinnedMassRange = 32.0f;
  // Small batches cut each row into parts of at least this many entries,
  // at most kMaxSlices parts (cuda/split_kernel.cuh). A part is read in
  // one trip of kLoadsInFlight vectors a thread when it is short enough;
  // every extra trip waits for device memory once more (B=1 x 128256 in 15
  // parts of 8550 fp32 entries took two, PERFLOG run 49).
  static constexpr int kMinSliceEntries = 2048;
  static constexpr int kMaxSlices = 32;
  // Parts take one block per multiprocessor while each is read in at most
  // this many trips of its element type (fp16 / bf16: twice the fp32
  // entries a trip), else two blocks: a second block on a multiprocessor
  // slows the first one's decision more than a second trip, prefetched to
  // the L2 during the threshold, costs (PERFLOG run 49: 8 x 128256 fp32,
  // 15 parts of two trips one block an SM, 2.2 us faster than 33 of one
  // trip two; run 163 for the type's own trips).
  static constexpr int kOneBlockMaxTrips = 2;
  // Top-p calls whose rows are cut into at most this many parts slice the
  // whole-row passes of a row that misses, so that blocks past their own
  // parts take them too (cuda/sliced_passes.cuh); with more parts a row's
  // own blocks are a large share of the grid already. Four lost: 64 x
  // 128256 flat rows, all missing, 87 -> 125 us, each part's passes paying
  // a take, a wait and the atomics a slice (PERFLOG run 117).
  static constexpr int kSlicedPassMaxParts = 2;
  // A row's passes are sliced once at most this share of the batch's rows
  // is undecided (1 / 4): before, too few blocks are past their parts to
  // take slices (PERFLOG run 118: flat rows, all missing, +53 % sliced).
  static constexpr int kSlicedPassUndecidedShare = 4;
  // The rows' 16-byte loads (kStreamLoads) and stores (kStreamStores)
  // evict-first in the L1 and the L2 (load_vector, store_vector). Loads
  // plain by default: at 1024 rows evict-first loads and stores cost
  // 0.4-2.8 %, flat rows 13 % (their passes read the row again; PERFLOG
  // run 139), where the stores alone took 8 % off flat top-p alone (runs
  // 144 and 146). The split kernel's shape streams both (cuda/launch.cu), where
  // 32-132 rows were 5-13 % faster (runs 139 and 141; the stores alone
  // gave 1-4 %, run 142).
  static constexpr bool kStreamLoads = false;
  static constexpr bool kStreamStores = true;
  // The binned top-p passes (binned_topp.cuh) read a row or a part again
  // after its first gather: plain, whatever kStreamLoads says, so that the
  // next binned pass finds the lines in the L2 (flat split rows were 7 %
  // slower with them evict-first: PERFLOG run 141; run 147).
  static constexpr bool kStreamRereads = false;
};

// One CTA per row, persistent over rows. Batches no larger than the
// multiprocessor count get one wide block per SM; larger batches two
// narrower ones; batches that give every block of four 256-thread ones
// a row, every row with a top-k, those (all cap registers at 64 a
// thread): one block's threshold and decision then overlap three others'
// streams, not one (joint and top-k 2-5 % faster, top-p alone up to 13 %
// slower: PERFLOG runs 75 and 83). Four blocks of 256 for every batch
// past the SM count (run 17) lost at 256 rows and in whole-row searches;
// a top-k row that misses gathers once more instead (run 83).
// Every decision of the algorithm depends on the row alone, never on the
// block size, so results are batch invariant.
struct TruncatePolicyCUDA : TruncateAlgorithmPolicy {
  static constexpr int kFewRowsThreads = 1024;
  static constexpr int kFewRowsBlocksPerSM = 1;
  static constexpr int kManyRowsThreads = 512;
  static constexpr int kManyRowsBlocksPerSM = 2;
  static constexpr int kMostRowsThreads = 256;
  static constexpr int kMostRowsBlocksPerSM = 4;
  // 16-byte vectors each thread keeps in flight per loop trip. Eight
  // (run 18) made the gather ~8 % shorter but spilled the decision's
  // registers under the 64-register cap: slower overall.
  static constexpr int kLoadsInFlight = 4;
};

#if !QRITA_HIP
using TruncatePolicy = TruncatePolicyCUDA;
#endif

// A policy with its launch shape fixed.
template <class Base, int kThreads, int kBlocksPerSM>
struct BlockShape : Base {
  static constexpr int kBlockThreads = kThreads;
  static constexpr int kMinBlocksPerSM = kBlocksPerSM;
};

}  // namespace qrita

#if QRITA_HIP
#include "../hip/tuning_gfx950.h"
#endif
