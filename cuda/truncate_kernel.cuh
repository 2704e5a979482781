// The Qrita truncation kernel's steps for one row (the kernels that run
// them: persistent_kernel.cuh, one block per row; split_kernel.cuh).
//
// Per row, in the common case, the logits are read once:
//   1. sigma-truncation: mean and deviation from a sample (runs of
//      entries spread over the row) give a threshold expected to pass a
//      few times k entries (normal-quantile table, minus a safety margin);
//   2. one pass over the row gathers the entries above it into shared
//      memory, counting the keepable entries and, for top-p-only rows,
//      summing the mass of the rest;
//   3. the exact multi-pivot search (select.cuh) runs on the candidates:
//      top-k by rank, then top-p by mass over the survivors;
//   4. the mask is written without reading the row again: -Inf over the
//      row, then the kept candidates' original bits.
// When truncation misses (too few candidates, the buffer overflows, or the
// nucleus reaches below the threshold), the same search runs over the row
// in device memory, or for top-p the value-binned search of
// binned_topp.cuh: slower, equally exact.
#pragma once

#include <cstddef>

#include "binned_topp.cuh"
#include "block_primitives.cuh"
#include "keys.cuh"
#include "normal_quantiles.cuh"
#include "packed_pairs.cuh"
#include "policy.cuh"
#include "ranked_topp.cuh"
#include "row_access.cuh"
#include "select.cuh"
#include "sorted_top_k.cuh"
#include "truncate_params.h"

namespace qrita {

// How many candidates a threshold aims at: dense when at least a
// kSparseSampleDivisor-th of the row's sample is finite, else sparse.
struct CandidateAim {
  uint32_t dense, sparse;

  // Both aims scaled by num / den, at most `most`: the aims whose gather
  // found den candidates, moved so that the same error of the model
  // brings num.
  __device__ CandidateAim rescaled(uint64_t num, uint32_t den, uint32_t most) const {
    const auto one = [&](uint32_t t) {
      return static_cast<uint32_t>(min(uint64_t(t) * num / max(den, 1u), uint64_t(most)));
    };
    return CandidateAim{one(dense), one(sparse)};
  }
};

template <class Policy>
__device__ CandidateAim candidate_target(bool do_k, uint32_t k) {
  constexpr uint32_t kCap = Policy::kCandidateCapacity;
  constexpr uint32_t kMost = kCap / Policy::kMaxTargetDivisor;
  constexpr uint32_t kTopP = kCap / Policy::kTopPTargetDivisor;
  static_assert(kTopP <= kMost, "top-p's target within the bound");
  if (!do_k) return CandidateAim{kTopP, kMost};
  const uint32_t want = max(k * Policy::kTopKOversample, static_cast<uint32_t>(Policy::kMinCandidates));
  const uint32_t most = max(kMost, k + k / 4);
  return CandidateAim{min(want, most), min(want * Policy::kSparseTargetBoost, most)};
}

// Index of entry j of a row's sample: runs of kSampleRun consecutive
// entries spread evenly over the row, each from a multiple of kSampleRun.
// In a row of fewer than kSampleSize entries (never thresholded by its
// sample) the runs would reach past its end: they read its last entry.
template <class Policy>
__device__ __forceinline__ uint32_t sample_index(int j, uint32_t n) {
  constexpr uint32_t kRun = Policy::kSampleRun, kRuns = Policy::kSampleSize / Policy::kSampleRun;
  static_assert(Policy::kSampleSize % Policy::kSampleRun == 0, "whole runs");
  const uint32_t start = static_cast<uint32_t>(uint64_t(static_cast<uint32_t>(j) / kRun) * n / kRuns) / kRun * kRun;
  return min(start + static_cast<uint32_t>(j) % kRun, n - 1);
}

// This thread's share of a row's sample (for sigma_threshold), in
// registers: the split kernel and the second top-p gather load it just
// before they use it (the persistent kernel copies its next row's sample
// into shared memory instead: SampleWords).
template <class Policy, class E>
struct RowSample {
  static constexpr int kPerThread = (Policy::kSampleSize + Policy::kBlockThreads - 1) / Policy::kBlockThreads;
  typename E::bits_t v[kPerThread];

  __device__ void load(const typename E::bits_t* row, uint32_t n) {
    if (n <= static_cast<uint32_t>(Policy::kGatherWholeRowBelow)) return;  // not sampled
#pragma unroll
    for (int t = 0; t < kPerThread; ++t) {
      const int j = threadIdx.x + t * Policy::kBlockThreads;
      if (j < Policy::kSampleSize) v[t] = row[sample_index<Policy>(j, n)];
    }
  }
  // For sigma_threshold.
  __device__ float operator()(int, int t) const { return E::to_float(v[t]); }
};

// The persistent kernel's copy of the next row's sample: 4-byte words
// copied into shared memory while the block works on a row (a register
// copy spills under the 64-register cap, and the spill store waits for
// the load: ~9k cycles at every row start, runs 24 and 31). A 2-byte
// element comes with its neighbour in the aligned word that holds it: that
// word never leaves the allocation holding the element (allocations start
// 4-byte aligned).
template <class Policy, class E>
struct SampleWords {
  using bits_t = typename E::bits_t;
  uint32_t* words;  // Policy::kSampleSize of them, in shared memory

  __device__ static const bits_t* at(const bits_t* row, uint32_t n, int j) { return row + sample_index<Policy>(j, n); }
  // Starts the copies of row's sample (none for a row gathered whole).
  __device__ void start(const bits_t* row, uint32_t n) const {
    if (n <= static_cast<uint32_t>(Policy::kGatherWholeRowBelow)) return;
    for (int j = threadIdx.x; j < Policy::kSampleSize; j += Policy::kBlockThreads) {
      const uintptr_t a = reinterpret_cast<uintptr_t>(at(row, n, j));
      async_copy_4(&words[j], reinterpret_cast<const void*>(a & ~uintptr_t(3)));
    }
  }
  // Sample value j of row (after the copies landed).
  __device__ float value(const bits_t* row, uint32_t n, int j) const {
    const uint32_t w = words[j];
    if constexpr (sizeof(bits_t) == 4) {
      return E::to_float(w);
    } else {
      const unsigned shift = (reinterpret_cast<uintptr_t>(at(row, n, j)) & 2u) * 8u;
      return E::to_float(static_cast<bits_t>(w >> shift));
    }
  }
};

// The key above which about `aim` of the row's n entries lie, if the
// bulk of the row is Gaussian; every keepable key when the row is short.
// sample_value(j, t) gives sample entry j (j < kSampleSize) to the thread
// that stages it as its t-th (j = thread + t x block size).
template <class Policy, class E, class Sh, class Value>
__device__ uint32_t sigma_threshold(Value sample_value, uint32_t n, CandidateAim aim, Sh& sh) {
  constexpr uint32_t kAll = kKeyNegInf + 1;
  if (n <= static_cast<uint32_t>(Policy::kGatherWholeRowBelow)) return kAll;
  // Every thread stages part of the sample. The statistics are summed by a
  // fixed tree, so they do not depend on the block size: each group of a
  // warp's width of consecutive samples by one warp's shuffles, then the
  // groups' sums by warp 0 (warp 0 walking all 1024 samples in one chain
  // of double adds, then again to count the smallest, took 2.4k cycles:
  // PERFLOG run 54).
  static_assert(offsetof(Sh, ranked_idx) - offsetof(Sh, surv_key) + sizeof(sh.ranked_idx) == Sh::kSampleStagingBytes,
                "the rank arrays lie end to end");
  static_assert(Policy::kSampleSize * sizeof(float) <= Sh::kSampleStagingBytes, "the sample fits its staging");
  static_assert(Policy::kSampleSize % kWarpSize == 0, "lanes split the sample evenly");
  struct GroupStats {
    double s1, s2;      // sums of the finite samples and of their squares
    float lo, hi;       // their extremes
    uint32_t cnt, at_lo;  // how many are finite, and equal to lo
  };
  constexpr int kGroups = Policy::kSampleSize / kWarpSize;
  static_assert(kGroups <= kWarpSize, "warp 0 sums one group a lane");
  static_assert(kGroups * sizeof(GroupStats) <= Sh::kGroupStagingBytes, "the groups fit their staging");
  float* sample = sh.sample_staging();
  auto* groups = static_cast<GroupStats*>(sh.group_staging());
  constexpr int kPerThread = (Policy::kSampleSize + Policy::kBlockThreads - 1) / Policy::kBlockThreads;
#pragma unroll
  for (int t = 0; t < kPerThread; ++t) {
    const int j = threadIdx.x + t * Policy::kBlockThreads;
    if (j < Policy::kSampleSize) sample[j] = sample_value(j, t);
  }
  __syncthreads();
  const auto extremes = [](float& lo, float& hi) {
    for (int off = kWarpSize / 2; off > 0; off /= 2) {
      lo = fminf(lo, warp_shfl_xor(lo, off));
      hi = fmaxf(hi, warp_shfl_xor(hi, off));
    }
  };
  for (int g = warp_id(); g < kGroups; g += Policy::kBlockThreads / kWarpSize) {
    const float x = sample[g * kWarpSize + lane_id()];
    const bool finite = isfinite(x);
    const double s1 = warp_sum(finite ? double(x) : 0.0);
    const double s2 = warp_sum(finite ? double(x) * x : 0.0);
    float lo = finite ? x : INFINITY, hi = finite ? x : -INFINITY;
    extremes(lo, hi);
    const uint32_t cnt = popcount(warp_ballot(finite)), at_lo = popcount(warp_ballot(finite && x == lo));
    if (lane_id() == 0) groups[g] = GroupStats{s1, s2, lo, hi, cnt, at_lo};
  }
  __syncthreads();
  if (warp_id() == 0) {
    const GroupStats gs = lane_id() < kGroups ? groups[lane_id()] : GroupStats{0.0, 0.0, INFINITY, -INFINITY, 0, 0};
    const double s1 = warp_sum(gs.s1), s2 = warp_sum(gs.s2);
    const uint32_t cnt = warp_sum(gs.cnt);
    float lo = gs.lo, hi = gs.hi;
    extremes(lo, hi);
    const uint32_t at_lo = warp_sum(gs.lo == lo ? gs.at_lo : 0u);  // sampled values equal to the smallest
    if (lane_id() == 0) {
      uint32_t key;
      const uint32_t target = cnt * Policy::kSparseSampleDivisor < Policy::kSampleSize ? aim.sparse : aim.dense;
      const float q = float(target) * float(Policy::kSampleSize) / (float(n) * float(cnt));  // target / expected
      if (cnt == 0 || q >= 0.25f) {
        key = kAll;
      } else if (lo == hi) {
        // A constant sample (one-hot or constant rows) has no spread to
        // scale: keep what lies strictly above it. If that is fewer than
        // k, the search below the threshold settles the rest (decide_row).
        key = key_of(hi) + 1;
      } else if (at_lo + Policy::kSampleOutliers >= cnt) {
        // Nor does a sample with only a few values above its smallest (a
        // one-hot row whose hot entry was sampled: its spread would put the
        // threshold above the rest, which is then no longer one key and
        // takes a search over the row, PERFLOG run 43).
        key = key_of(lo) + 1;
      } else {
        // The threshold is a guess (any value gives exact results): the
        // quantile is taken in float, only the mean in double.
        const double inv = 1.0 / cnt, mean = s1 * inv;
        const float sd = sqrtf(static_cast<float>(fmax(0.0, s2 * inv - mean * mean)));
        float t = -log2f(q) * kQuantileStepsPerOctave;
        t = fminf(fmaxf(t, 1.0f), float(kQuantileEntries - 1));
        const int i = min(static_cast<int>(t), kQuantileEntries - 2);
        const float z = kNormalQuantiles[i] + (t - i) * (kNormalQuantiles[i + 1] - kNormalQuantiles[i]);
        const float thr = static_cast<float>(mean + double((z - Policy::kSigmaMargin) * sd));
        key = isfinite(thr) ? max(key_of(thr), kAll) : kAll;
      }
      sh.choice.digit = key;
    }
  }
  __syncthreads();
  const uint32_t key = sh.choice.digit;
  __syncthreads();  // choice is reused
  return key;
}

// Pass 2 over the part [lo, hi) of a row: gathers keys >= key_thr (with
// their row indices); counts keepable entries, the largest and smallest
// keepable keys and, when kRestMass, the mass of the others relative to
// the threshold value. kRestMass is a template argument: every instruction
// of the loop is issued for every entry, even predicated off, and a warp
// issues its next loads only after it has used the last ones (run 29: the
// rest-mass code, predicated off, made joint calls 8 % slower). kWholeRow
// (with kRestMass): the part is a whole row (see gather_candidates).
template <class Policy, class E, bool kRestMass, bool kWholeRow, bool kPairs, class Sh>
__device__ void gather_candidates_as(const typename E::bits_t* row, uint32_t lo, uint32_t hi, uint32_t key_thr,
                                     Sh& sh) {
  constexpr int kThreads = Policy::kBlockThreads;
  if (threadIdx.x == 0) {
    sh.cand_count = 0;
    sh.n_keepable = 0;
    sh.max_key = 0;
    sh.min_key = ~0u;
    sh.mass_rest = 0;
  }
  __syncthreads();
  // The pass is bound by instruction issue unless each entry costs only a
  // few: compare floats here, not keys. x >= thr holds exactly when
  // key_of(x) >= key_thr (the key order is the float order, -0 == +0, and
  // NaN fails both; a threshold key of ~0u reads as NaN: no candidates),
  // and x > -Inf is keepable(key_of(x)).
  const float thr = float_of_key(key_thr);
  uint32_t keepable_count = 0;
  // fp16 / bf16 without the rest mass, when kPairs: a vector of keepable
  // entries is settled in pairs (packed_pairs.cuh).
  constexpr bool kPaired = kPairs && PackedPairs<E>::kOn && !kRestMass;
  // Whole rows' gathers: top-p's (kWholeRow), and joint / top-k's, which
  // are not paired (gather_candidates), as the second top-k gather.
  constexpr bool kWholeRowGather = kRestMass ? kWholeRow : !kPairs;
  GatherExtremes<E, kPaired> ext;  // over keepable entries
  mass_t rest = 0;
  const auto each_entry = [&](auto count, uint32_t first, const auto& b, bool live) {
    constexpr int kCount = decltype(count)::value;
    bool any = false;
    if constexpr (kPaired) {
      // No per-entry flags kept across the vector (held as an array, they
      // went to local memory): the rare warp with a candidate compares again.
      bool whole = false;
      if constexpr (kCount == RowSplit<E>::kVec) {
        whole = live && add_keepable_vector(ext, b, thr, &any);
        if (whole) keepable_count += kCount;
      }
      if (!whole) {
#pragma unroll
        for (int t = 0; t < kCount; ++t) {
          const float x = E::to_float(b[t]);
          const bool ok = live && x > -INFINITY;
          if (ok) {
            ++keepable_count;
            ext.add(x, b[t]);
          }
          any |= ok && x >= thr;
        }
      }
      if (!warp_any(any)) return;
#pragma unroll
      for (int t = 0; t < kCount; ++t) {
        const float x = E::to_float(b[t]);
        append_candidate(live && x > -INFINITY && x >= thr, b[t], lo + first + t, sh);
      }
    } else if constexpr (kRestMass) {
      // A chunk of keepable entries (nearly every chunk of a row) is
      // counted and its extremes taken at once, and its entries are only
      // tested against thr for the rest mass: entry by entry, the flags
      // outlived the predicates and ptxas kept them as bits of a register
      // (PERFLOG runs 114, 121). A chunk with NaN or -Inf goes entry by
      // entry; the shares are the same either way, and the chunk's rest
      // mass is one sum of them (rest_mass_of).
      float x[kCount], share[kCount];
      chunk_floats<E>(b, x);
      const ChunkRange range = chunk_range<E>(b, x);
      if (live && range.keepable) {
        keepable_count += kCount;
        add_chunk_range(ext, range);
        any = range.hi >= thr;
#pragma unroll
        for (int t = 0; t < kCount; ++t) share[t] = !(x[t] >= thr) ? rest_share_below(x[t], thr) : 0.0f;
      } else {
#pragma unroll
        for (int t = 0; t < kCount; ++t) {
          const bool ok = live && x[t] > -INFINITY;
          if (ok) {
            ++keepable_count;
            ext.add(x[t], b[t]);
          }
          const bool cand = ok && x[t] >= thr;
          any |= cand;
          share[t] = ok && !cand ? rest_share_below(x[t], thr) : 0.0f;
        }
      }
      rest += rest_mass_of(share);
      if (!warp_any(any)) return;
      bool cand[kCount];
#pragma unroll
      for (int t = 0; t < kCount; ++t) cand[t] = live && x[t] > -INFINITY && x[t] >= thr;
      if constexpr (!kWholeRowGather) {
        append_candidates(cand, b, lo + first, sh);
      } else {
        append_lane_candidates(cand, b, lo + first, sh);
      }
    } else {
      bool cand[kCount];
#pragma unroll
      for (int t = 0; t < kCount; ++t) {
        const float x = E::to_float(b[t]);
        const bool ok = live && x > -INFINITY;
        if (ok) {
          ++keepable_count;
          ext.add(x, b[t]);
        }
        cand[t] = ok && x >= thr;
        any |= cand[t];
      }
      if (!warp_any(any)) return;
      // Whole rows: an atomic a lane (PERFLOG run 105). Split rows' parts
      // keep their kernel's code as before it, which was faster for
      // their joint calls (runs 105-106: with an atomic a lane in the
      // parts' gathers, B <= 32 joint 1-2 % slower): the fp32 joint and
      // top-k ones append an entry at a time, skipped where no lane has
      // one (the top-p gathers above reserve a warp's vector at once).
      if constexpr (!kWholeRowGather) {
#pragma unroll
        for (int t = 0; t < kCount; ++t) append_candidate(cand[t], b[t], lo + first + t, sh);
      } else {
        append_lane_candidates(cand, b, lo + first, sh);
      }
    }
  };
  // The rest mass is summed by chunks at vector multiples of the row index,
  // whatever the row's address (for_each_index_chunk).
  if constexpr (kRestMass) {
    for_each_index_chunk<E, kThreads, Policy::kLoadsInFlight, Policy::kStreamLoads>(row, lo, hi, each_entry);
  } else {
    for_each_chunk<E, kThreads, Policy::kLoadsInFlight, Policy::kStreamLoads>(row + lo, hi - lo, each_entry);
  }
  uint32_t max_key = keepable_count ? key_of(ext.max_value()) : 0u,
           min_key = keepable_count ? key_of(ext.min_value()) : ~0u;
  keepable_count = warp_sum(keepable_count);
  rest = warp_sum(rest);
  for (int off = kWarpSize / 2; off > 0; off /= 2) {
    max_key = max(max_key, warp_shfl_xor(max_key, off));
    min_key = min(min_key, warp_shfl_xor(min_key, off));
  }
  if (lane_id() == 0) {
    atomicAdd(&sh.n_keepable, keepable_count);
    atomicMax(&sh.max_key, max_key);
    atomicMin(&sh.min_key, min_key);
    if (rest) shared_add_u64(&sh.mass_rest, rest);
  }
  __syncthreads();
}

// kWholeRow: the part is a whole row. Every gather walks with
// for_each_chunk: the whole-row top-p gather's load-ahead (run 46: 4-7 %
// faster when its loop took ~200 instructions a bf16 vector) held 32
// registers that spilled its lean loop of run 122 (PERFLOG run 123).
// Entries in pairs (fp16 / bf16, no rest mass) only in parts: split rows'
// joint and top-k gathers 4 % faster, whole rows' 2 % slower (run 79).
template <class Policy, class E, bool kWholeRow, class Sh>
__device__ __forceinline__ void gather_candidates(const typename E::bits_t* row, uint32_t lo, uint32_t hi,
                                                  uint32_t key_thr, bool want_rest_mass, Sh& sh) {
  if (want_rest_mass) {
    gather_candidates_as<Policy, E, true, kWholeRow, false>(row, lo, hi, key_thr, sh);
  } else {
    gather_candidates_as<Policy, E, false, false, !kWholeRow>(row, lo, hi, key_thr, sh);
  }
}

struct RowPlan {
  Cut cut;
  bool in_shared;          // every kept entry is a candidate in shared memory
  bool needs_row = false;  // undecided: the whole-row search was not allowed
  bool read_row = false;   // the whole-row search ran (truncation missed)
  bool ranked = false;     // sh.ranked_idx holds the kept entries in rank order
  bool rest_written = false;  // the row outside the candidates holds its mask already
  bool regathered = false;    // in_shared, from a second gather (not the first one's candidates)

  // Truncation settled the row: its kept entries were candidates of the
  // gather (Table 1's hit; a second top-p gather counts as one).
  __device__ bool hit() const { return in_shared && !read_row; }
};

// Gathers exactly the entries at or above pv (after a whole-row search
// that kept at most the buffer's capacity), so the rest of the row's work
// runs in shared memory and the mask is written without a read.
template <class Policy, class E, class Sh>
__device__ void gather_kept(const typename E::bits_t* row, uint32_t n, Pivot pv, Sh& sh) {
  const GlobalSource<E, Policy::kBlockThreads, Policy::kLoadsInFlight, Policy::kStreamLoads> global{row, n};
  global.gather([&](uint32_t key, uint32_t idx) { return keepable(key) && at_or_above(key, idx, pv); }, sh);
}

// Benchmark-only ablations (qrita_bench.h's qrita_ablation bits).
constexpr unsigned kAblateNoTruncation = 1;   // no candidates: whole-row search
constexpr unsigned kAblateForceFallback = 2;  // gather, then search the row anyway
constexpr unsigned kAblateBinarySearch = 4;   // one key bit per search step
constexpr unsigned kAblateNoSort = 16;        // top-k over candidates by the digit search, never sorted
constexpr unsigned kAblateSliceAtOnce = 32;   // a split row's passes sliced from its first one

// What a row asks for.
struct RowAsk {
  int32_t k;
  float p;
  bool want_k;  // 0 < k < n
  bool want_p;  // p < 1 (a NaN p in a device array: top-p off)

  __device__ RowAsk(int32_t k_, float p_, uint32_t n)
      : k(k_), p(p_), want_k(k_ > 0 && static_cast<uint32_t>(k_) < n), want_p(p_ < 1.0f) {}
  __device__ bool any() const { return want_k || want_p; }
};

// Step 1: the sigma threshold of a row (the same for every part of it).
// No key reaches ~0u (+Inf's is lower), so the no-truncation ablation
// gathers nothing and still counts the keepable entries and the maximum.
template <class Policy, class E, class Sh, class Value>
__device__ uint32_t row_threshold(Value sample_value, uint32_t n, const RowAsk& ask, unsigned ablation, Sh& sh) {
  if (ablation & kAblateNoTruncation) return ~0u;
  return sigma_threshold<Policy, E>(sample_value, n, candidate_target<Policy>(ask.want_k, ask.k), sh);
}

// The top-p cut among the candidates in shared memory (every keepable
// key at or above thr), for a known goal.
template <class Policy, class E, class Sh>
__device__ RowPlan nucleus_in_candidates(uint32_t thr, double goal, MassScale scale, bool keep_ties, Sh& sh) {
  return RowPlan{select_mass(SharedSource<E, Policy::kBlockThreads, Sh>{&sh, sh.cand_count}, sh, kPivotAll,
                             [goal](double) { return goal; }, scale, keep_ties, KeyRange{thr, sh.max_key}),
                 true};
}

// Top-p alone from the candidates in shared memory (every keepable key at
// or above thr): they settle the row when their mass reaches p of the
// row's (the rest rescaled from the gather's sum relative to thr). Either
// way the candidates are weighed into *top and the share of the goal they
// hold goes to *reached. Their mass is the total of the nucleus search's
// first histogram, which the search then goes on from: one pass over them
// fewer (the integer sum is the same in any order).
template <class Policy, class E, class Sh>
__device__ bool settle_from_candidates(uint32_t thr, float p, MassScale scale, bool keep_ties, Sh& sh, KnownTop* top,
                                       double* reached, RowPlan* out) {
  const SharedSource<E, Policy::kBlockThreads, Sh> cands{&sh, sh.cand_count};
  // A digit or more to settle.
  MassSearch search = start_mass_search<E::kFreeKeyBits>(KeyRange{thr, sh.max_key}, sh.digit_bits);
  build_mass_histogram(cands, sh, kPivotAll, scale, search);
  search.histogram_ready = true;
  const mass_t zc = histogram_mass(sh);
  *top = KnownTop{thr, sh.cand_count, zc};
  const double rest = scale.inf_max
                          ? 0.0
                          : rint(double(sh.mass_rest) * exp(double(float_of_key(thr)) - double(scale.max_value)));
  const double goal = double(p) * (double(zc) + rest);
  *reached = goal > 0 ? double(zc) / goal : 1.0;
  if (double(zc) < goal) return false;
  search.goal = goal;
  search.counted = true;
  *out = RowPlan{finish_mass(cands, sh, kPivotAll, [goal](double) { return goal; }, scale, keep_ties, search), true};
  return true;
}

// The index of the j-th entry (from 1), in index order, that is not one of
// the cands candidates in shared memory, from their indices alone: the
// fixed point of x = j - 1 + #(candidates at or below x), reached from
// below, one step per run of candidates passed. ~0u after
// Policy::kTieIndexSteps steps.
template <class Policy, class Sh>
__device__ uint32_t nth_outside_candidates(uint32_t j, uint32_t cands, Sh& sh) {
  constexpr int kThreads = Policy::kBlockThreads;
  uint32_t x = j - 1;
  for (int step = 0; step < Policy::kTieIndexSteps; ++step) {
    uint32_t m = 0;
    for (uint32_t i = threadIdx.x; i < cands; i += kThreads) m += sh.cand_idx[i] <= x ? 1u : 0u;
    const uint32_t next = j - 1 + static_cast<uint32_t>(block_sum<kThreads>(mass_t(m), sh.scratch_u64));
    if (next == x) return x;
    x = next;
  }
  return ~0u;
}

// Step 4, the mask (below).
template <class Policy, class E, class Sh>
__device__ void write_mask(typename E::bits_t* row, uint32_t lo, uint32_t hi, const RowPlan& plan, Sh& sh);

// Top-p where the candidates did not settle the row: its nucleus reaches
// below them (or the top-k cut left more than the buffer), so the row is
// read (a constant rest aside). floor is the top-k cut (kPivotAll: none);
// alone says the row has no top-k and the buffer holds every keepable key
// at or above key_thr, with top and reached from settle_from_candidates.
// Not inlined: these paths keep their registers out of decide_row's
// common path (PERFLOG run 38).
template <class Policy, class E, class Team, class Sh>
__device__ __noinline__ RowPlan top_p_over_row(const typename E::bits_t* row, typename E::bits_t* mask_out,
                                               uint32_t n, float p, bool keep_ties, unsigned ablation,
                                               uint32_t key_thr, Pivot floor, bool alone, KnownTop top,
                                               double reached, MassScale scale, team_param_t<Team> team,
                                               Sh& sh) {
  const GlobalSource<E, Policy::kBlockThreads, Policy::kLoadsInFlight, Policy::kStreamLoads> global{row, n};
  const uint32_t cands = sh.cand_count;
  // A constant rest (one-hot rows): every keepable non-candidate holds the
  // key just below the threshold, so the row's mass is the candidates' plus
  // that key's times their count, exactly what a search over the row would
  // total; the nucleus ends among the candidates or takes the fewest ties
  // that reach p, lowest index first.
  if (alone && sh.min_key == key_thr - 1) {
    const mass_t zc = top.mass;  // settle weighed the candidates (none: 0)
    const uint32_t tie_key = sh.min_key, ties = sh.n_keepable - cands;
    const mass_t e = scale.of(float_of_key(tie_key));
    const double goal = double(p) * double(zc + mass_t(ties) * e);
    if (cands > 0 && double(zc) >= goal) return nucleus_in_candidates<Policy, E>(key_thr, goal, scale, keep_ties, sh);
    const uint32_t j = ties_to_reach(zc, e, ties, goal);
    // Without NaN or -Inf every non-candidate is a tie: the candidates'
    // indices place the j-th, and the row is kept up to it (a mask: -Inf
    // written after it, the candidates there put back; no read).
    if (!keep_ties && j < ties && sh.n_keepable == n) {
      const uint32_t last = nth_outside_candidates<Policy>(j, cands, sh);
      if (last != ~0u) {
        RowPlan plan{Cut{Pivot{tie_key, last}, cands + j}, false, false, true};
        if (mask_out) {
          // Past the last kept tie only candidates stay: that suffix is
          // written as an in-shared plan's mask is (no read). Candidates
          // rank above the pivot, so none of them is dropped.
          write_mask<Policy, E>(mask_out, last + 1, n, RowPlan{plan.cut, true}, sh);
          plan.rest_written = true;
        }
        return plan;
      }
    }
    const Pivot pv = rank_ties(global, sh, kPivotAll, tie_key, j, ties, keep_ties);
    return RowPlan{Cut{pv, cands + (keep_ties || j >= ties ? ties : j)}, false, false, true};
  }
  // Read again by this block alone, the row would keep the batch waiting:
  // the persistent kernel hands it on when the call lists rows
  // (hand_on.cuh), and nothing of it is written here (kPivotAll drops no
  // candidate). Before the deeper gather: a split row shares that pass too
  // (PERFLOG run 73: top-p alone 256 x 262208 426 -> 257 us).
  if constexpr (Team::kWholeRow) {
    if (mask_out && floor.key == kPivotAll.key && floor.idx == kPivotAll.idx && hand_on_row(row, sh)) {
      RowPlan left{Cut{kPivotAll, 0}, false, false, true};
      left.rest_written = true;
      return left;
    }
  }
  // The nucleus reaches a little below the threshold: one deeper gather,
  // sized from what the first one found, can settle it for one more read
  // of the row instead of a search over the row. Not when the candidates
  // hold too little of the goal (flat rows): it could not.
  if (alone && key_thr > kPivotAll.key && !(ablation & kAblateNoTruncation) &&
      reached >= Policy::kSecondGatherMinReach) {
    const uint32_t fill = static_cast<uint32_t>(Sh::kCapacity * Policy::kSecondGatherFill);
    const CandidateAim target1 = candidate_target<Policy>(false, 0);
    const CandidateAim target2 = target1.rescaled(fill, cands, fill);
    if (target2.dense > target1.dense) {
      RowSample<Policy, E> smp;
      smp.load(row, n);
      const uint32_t thr2 = sigma_threshold<Policy, E>(smp, n, target2, sh);
      // A sample that yields no lower threshold (constant, or all but a
      // few values at its smallest) gains nothing from a deeper gather.
      if (thr2 < key_thr) {
        team.post(TeamTask::gather(thr2));
        gather_candidates<Policy, E, Team::kWholeRow>(row, team.lo(n), team.hi(n), thr2, true, sh);
        team.template collect_candidates<Policy, true>(sh);
        top = KnownTop{};  // the buffer holds other entries now
        RowPlan plan;
        if (sh.cand_count <= Sh::kCapacity && sh.cand_count > 0 &&
            settle_from_candidates<Policy, E>(thr2, p, scale, keep_ties, sh, &top, &reached, &plan)) {
          plan.regathered = true;
          return plan;
        }
      }
    }
  }
  // Two passes over the row where the value bins allow (no top-k cut),
  // else the digit search over the row.
  if (floor.key == kPivotAll.key && floor.idx == kPivotAll.idx) {
    Cut cut;
    const BinnedEnd end = binned_top_p<Policy, E, Team>(row, mask_out, n, sh, p, scale, top, keep_ties, team, &cut);
    if (end != BinnedEnd::kUndecided) {
      RowPlan binned{cut, end == BinnedEnd::kInCandidates, false, true};
      binned.rest_written = end == BinnedEnd::kInBin && mask_out != nullptr;
      return binned;
    }
  }
  return RowPlan{select_mass(global, sh, floor, [p](double total) { return double(p) * total; }, scale, keep_ties),
                 false, false, true};
}

// A whole row's top-k whose first gather found fewer than k candidates
// gathers once more, at a threshold aimed by how far the sample's model
// was off: one more read of the row, where the search below the
// threshold takes a pass per key digit and a gather (rows 90 % -Inf: 3
// of 1024 missed and held the batch, PERFLOG runs 82-84). Returns the new
// threshold, the buffer and its statistics then being its gather's
// (whatever the count), or 0 when the sample promises nothing lower. A
// buffer that overflowed is not aimed again: a sample blind to the crowd
// above the threshold (ties, a hidden mode) stays blind. The pass is the
// joint gather's (no rest mass: the fewest registers).
template <class Policy, class E, class Sh>
__device__ uint32_t regather_top_k(const typename E::bits_t* row, uint32_t n, uint32_t k, uint32_t key_thr,
                                   Sh& sh) {
  const uint32_t cands = sh.cand_count;
  if (cands >= k || k > static_cast<uint32_t>(Sh::kCapacity)) return 0;
  // The first gather found cands where the model promised target1: the
  // same error brings kRegatherOversample x k.
  const uint32_t fill = static_cast<uint32_t>(Sh::kCapacity * Policy::kSecondGatherFill);
  const CandidateAim target1 = candidate_target<Policy>(true, k);
  const uint64_t aim = uint64_t(k) * Policy::kRegatherOversample;
  RowSample<Policy, E> smp;
  smp.load(row, n);
  const uint32_t thr2 = sigma_threshold<Policy, E>(smp, n, target1.rescaled(aim, cands, fill), sh);
  if (thr2 >= key_thr) return 0;  // a constant sample does not move it
  gather_candidates_as<Policy, E, false, false, false>(row, 0, n, thr2, sh);
  return thr2;
}

// Top-k where the buffer does not hold the k-th entry: fewer than k
// candidates (a whole row gathers again first, then searches below the
// threshold), or more than the buffer holds (the search over the row).
// Leaves the kept entries in the buffer when they fit. Inlined into
// decide_row: as a `__noinline__` function (or with the second gather
// as one), ptxas gave the kernels that call decide_row 30-90 bytes more
// spills and every call was 1-9 % slower (PERFLOG runs 82-83). A split
// row's decider does not gather again (in its decide_row the pass spilled
// the split kernel); its team does not share the search either.
template <class Policy, class E, class Team, class Sh>
__device__ __forceinline__ RowPlan top_k_over_row(const typename E::bits_t* row, uint32_t n, uint32_t k,
                                                  bool keep_ties, unsigned ablation, uint32_t key_thr, Sh& sh) {
  const GlobalSource<E, Policy::kBlockThreads, Policy::kLoadsInFlight, Policy::kStreamLoads> global{row, n};
  const uint32_t keepable_n = sh.n_keepable;
  uint32_t cands = sh.cand_count;
  bool complete = cands <= Sh::kCapacity && !(ablation & kAblateForceFallback);
  // Every keepable non-candidate holds the key just below the threshold.
  bool one_key = complete && sh.min_key == key_thr - 1;
  if constexpr (Team::kWholeRow) {
    if (!one_key && !(ablation & (kAblateForceFallback | kAblateNoTruncation))) {
      const uint32_t thr2 = regather_top_k<Policy, E>(row, n, k, key_thr, sh);
      if (thr2 != 0) {  // the buffer now holds the second gather's candidates
        key_thr = thr2;
        cands = sh.cand_count;
        complete = cands <= Sh::kCapacity;
        if (complete && cands >= k) {
          const SharedSource<E, Policy::kBlockThreads, Sh> shared{&sh, cands};
          RowPlan plan{select_rank(shared, sh, kPivotAll, k, keep_ties, KeyRange{key_thr, sh.max_key}), true};
          plan.regathered = true;
          return plan;
        }
        one_key = complete && sh.min_key == key_thr - 1;
      }
    }
  }
  RowPlan plan;
  if (complete) {
    // Fewer than k candidates: they are all kept, and the rest of the
    // top k lie below the threshold, within [min key, threshold).
    const KeyRange below{sh.min_key, key_thr - 1};
    const uint32_t need = k - cands;
    Cut rest;
    if (one_key) {
      // A constant rest (one-hot rows): only the ties' order by index
      // is left, read from the row's start as far as the need-th.
      const uint32_t ties = keepable_n - cands;
      rest = Cut{rank_ties(global, sh, kPivotAll, below.lo, need, ties, keep_ties),
                 keep_ties || need >= ties ? ties : need};
    } else {
      rest = select_rank(global, sh, kPivotAll, need, keep_ties, below, key_thr);
    }
    plan = RowPlan{Cut{rest.pivot, rest.kept + cands}, false};
  } else {
    plan = RowPlan{select_rank(global, sh, kPivotAll, k, keep_ties), false};
  }
  plan.read_row = true;
  if (plan.cut.kept <= static_cast<uint32_t>(Sh::kCapacity)) {
    const Pivot pv = plan.cut.pivot;
    if (one_key && pv.idx != kAnyIndex) {
      // The kept ties lie at indices up to the pivot's: only that
      // prefix is read, and the candidates stay.
      const decltype(global) prefix{row, pv.idx + 1};
      prefix.append([pv](uint32_t key, uint32_t idx) { return key == pv.key && idx <= pv.idx; }, sh);
    } else {
      gather_kept<Policy, E>(row, n, pv, sh);
    }
    plan.in_shared = true;
  }
  return plan;
}

// Whether a block shape sorts few candidates: not the 256-thread blocks
// of the largest batches, whose rows gather more than the sort takes
// (~570 at V=128256) and whose kernels spilled more with the call in
// their decide_row (PERFLOG run 92).
template <class Policy>
constexpr bool kSortsCandidates = Policy::kBlockThreads >= 512;

// Step 3: decides the kept set of a row from what the gather left in sh
// (candidates, their count, keepable entries, maximum, rest mass). When
// the candidates do not settle it and may_read_row is false, returns a
// plan with needs_row set before reading the row (another block may be
// writing it). mask_out is the row when a mask is the output: a search
// over the row may then write what it settles as it reads. Not inlined:
// the kernels' row loops keep their registers (inlined, the kernel
// spilled; PERFLOG run 38).
template <class Policy, class E, class Team, class Sh>
__device__ __noinline__ RowPlan decide_row(const typename E::bits_t* row, uint32_t n, const RowAsk& ask,
                                           bool keep_ties, unsigned ablation, uint32_t key_thr, bool may_read_row,
                                           typename E::bits_t* mask_out, team_param_t<Team> team, Sh& sh) {
  constexpr int kThreads = Policy::kBlockThreads;
  using Shared = SharedSource<E, kThreads, Sh>;
  using Global = GlobalSource<E, kThreads, Policy::kLoadsInFlight, Policy::kStreamLoads>;
  const int32_t k = ask.k;
  const float p = ask.p;
  const bool want_k = ask.want_k, want_p = ask.want_p;
  uint32_t cands = sh.cand_count;
  const uint32_t keepable_n = sh.n_keepable;
  // The buffer holds every key >= key_thr.
  bool complete = cands <= Sh::kCapacity && !(ablation & kAblateForceFallback);
  Shared shared{&sh, min(cands, static_cast<uint32_t>(Sh::kCapacity))};
  const Global global{row, n};
  KeyRange cand_keys{key_thr, sh.max_key};  // every candidate's key

  RowPlan plan{Cut{kPivotAll, keepable_n}, false};
  if (keepable_n == 0) return RowPlan{Cut{kPivotNone, 0}, true};
  const RowPlan undecided{Cut{kPivotAll, keepable_n}, false, true};

  const bool do_k = want_k && static_cast<uint32_t>(k) < keepable_n;
  if (do_k) {
    if (complete && cands >= static_cast<uint32_t>(k)) {
      // Few enough candidates are sorted in registers (a barrier only per
      // stride across warps: PERFLOG run 92); the binary-search ablation
      // keeps its steps.
      if (kSortsCandidates<Policy> && cands <= static_cast<uint32_t>(Policy::kSortedCandidates) &&
          sh.digit_bits == kDigitBits && !(ablation & kAblateNoSort)) {
        plan = RowPlan{sorted_top_k<kThreads, Policy::kSortedCandidates, E>(sh, cands, k, keep_ties), true};
        plan.ranked = plan.cut.ranked >= plan.cut.kept;  // the id output's order, if no top-p follows
      } else {
        plan = RowPlan{select_rank(shared, sh, kPivotAll, k, keep_ties, cand_keys), true};
      }
    } else {
      if (!may_read_row) return undecided;
      plan = top_k_over_row<Policy, E, Team>(row, n, k, keep_ties, ablation, key_thr, sh);
      // The buffer may hold a second gather's candidates or the kept
      // entries now: every key there at or above the pivot is in range.
      complete = sh.cand_count <= Sh::kCapacity && !(ablation & kAblateForceFallback);
      cands = sh.cand_count;
      shared.n = min(cands, static_cast<uint32_t>(Sh::kCapacity));
      cand_keys = KeyRange{plan.cut.pivot.key, sh.max_key};
    }
  }
  if (!want_p) return plan;

  const float max_value = float_of_key(sh.max_key);
  const MassScale scale{max_value, isinf(max_value)};
  if (plan.in_shared && plan.cut.kept <= static_cast<uint32_t>(Sh::kRankedCapacity)) {
    RowPlan ranked{ranked_top_p<kThreads, E>(sh, plan.cut, p, scale, keep_ties), true};
    ranked.read_row = plan.read_row;
    ranked.regathered = plan.regathered;
    ranked.ranked = true;
    return ranked;
  }
  // The top entry of the survivors is the row's top entry.
  const bool top_in_shared = plan.in_shared || (complete && cands > 0);
  if (p <= 0.0f) {
    if (top_in_shared) {
      RowPlan top{select_rank(shared, sh, plan.cut.pivot, 1, keep_ties, cand_keys), true};
      top.read_row = plan.read_row;
      top.regathered = plan.regathered;
      return top;
    }
    if (!may_read_row) return undecided;
    return RowPlan{select_rank(global, sh, plan.cut.pivot, 1, keep_ties), false, false, true};
  }
  const auto share_p = [p](double total) { return double(p) * total; };
  if (plan.in_shared) {
    RowPlan nucleus{select_mass(shared, sh, plan.cut.pivot, share_p, scale, keep_ties, cand_keys), true};
    nucleus.read_row = plan.read_row;
    nucleus.regathered = plan.regathered;
    return nucleus;
  }
  // Top-p over the whole row, unless the candidates settle it.
  double reached = 0;  // share of the goal the candidates hold
  KnownTop top;        // the candidates in shared memory, once weighed
  if (!want_k && top_in_shared &&
      settle_from_candidates<Policy, E>(key_thr, p, scale, keep_ties, sh, &top, &reached, &plan))
    return plan;
  if (!may_read_row) return undecided;
  return top_p_over_row<Policy, E, Team>(row, mask_out, n, p, keep_ties, ablation, key_thr, plan.cut.pivot,
                                         !want_k && complete, top, reached, scale, team, sh);
}

// Step 4, mask output over the part [lo, hi) of a row: only writes, when
// the kept entries are candidates.
template <class Policy, class E, class Sh>
__device__ void write_mask(typename E::bits_t* row, uint32_t lo, uint32_t hi, const RowPlan& plan, Sh& sh) {
  constexpr int kThreads = Policy::kBlockThreads;
  using bits_t = typename E::bits_t;
  const Pivot pv = plan.cut.pivot;
  if (plan.rest_written) {  // only candidates are left: drop those below the pivot
    const uint32_t cands = min(sh.cand_count, static_cast<uint32_t>(Sh::kCapacity));
    for (uint32_t i = threadIdx.x; i < cands; i += kThreads) {
      const uint32_t idx = sh.cand_idx[i];
      const bits_t b = static_cast<bits_t>(sh.cand_bits[i]);
      if (idx >= lo && idx < hi && !at_or_above(key_of(E::to_float(b)), idx, pv)) row[idx] = E::kNegInf;
    }
    return;
  }
  if (plan.in_shared) {
    fill_neg_inf<E, kThreads, Policy::kStreamStores>(row + lo, hi - lo);
    __syncthreads();  // the fill lands before the kept values
    const uint32_t cands = min(sh.cand_count, static_cast<uint32_t>(Sh::kCapacity));
    for (uint32_t i = threadIdx.x; i < cands; i += kThreads) {
      const uint32_t idx = sh.cand_idx[i];
      const bits_t b = static_cast<bits_t>(sh.cand_bits[i]);
      if (idx >= lo && idx < hi && at_or_above(key_of(E::to_float(b)), idx, pv)) row[idx] = b;
    }
    return;
  }
  if (pv.key == kPivotAll.key && pv.idx == kPivotAll.idx) {
    // Nothing filtered: only NaN entries change (-Inf stays -Inf), so the
    // loop tests each entry for NaN alone (the general compare costs
    // ten instructions an entry: rows without top-k or top-p are common).
    for_each_chunk<E, kThreads, Policy::kLoadsInFlight, Policy::kStreamLoads>(row + lo, hi - lo, [&](auto count, uint32_t first, const auto& b, bool live) {
      constexpr int kCount = decltype(count)::value;
      bool any_nan = false;
#pragma unroll
      for (int t = 0; t < kCount; ++t) any_nan |= E::is_nan(b[t]);
      if (!live || !any_nan) return;
      bits_t out[kCount];
#pragma unroll
      for (int t = 0; t < kCount; ++t) out[t] = E::is_nan(b[t]) ? E::kNegInf : b[t];
      store_chunk<E, kCount, Policy::kStreamStores>(row + lo, first, out);
    });
    return;
  }
  // Read, compare, write what changes.
  for_each_chunk<E, kThreads, Policy::kLoadsInFlight, Policy::kStreamLoads>(row + lo, hi - lo, [&](auto count, uint32_t first, const auto& b, bool live) {
    constexpr int kCount = decltype(count)::value;
    if (!live) return;
    bits_t out[kCount];
    bool changed = false;
#pragma unroll
    for (int t = 0; t < kCount; ++t) {
      const uint32_t key = key_of(E::to_float(b[t]));
      const bool keep = keepable(key) && at_or_above(key, lo + first + t, pv);
      out[t] = keep ? b[t] : E::kNegInf;
      changed |= out[t] != b[t];
    }
    if (changed) store_chunk<E, kCount, Policy::kStreamStores>(row + lo, first, out);
  });
}

// Moves the candidates at or above pv to the front of the buffer, as
// (key, index) pairs, in no particular order; returns their number. Each
// chunk is read before any slot is written, and writes land below the
// chunks still to be read.
template <class Policy, class E, class Sh>
__device__ uint32_t compact_kept(Pivot pv, Sh& sh) {
  constexpr int kThreads = Policy::kBlockThreads;
  const uint32_t cands = min(sh.cand_count, static_cast<uint32_t>(Sh::kCapacity));
  if (threadIdx.x == 0) sh.surv_count = 0;
  for (uint32_t base = 0; base < cands; base += kThreads) {  // same trip count on every lane
    const uint32_t i = base + threadIdx.x;
    uint32_t key = 0, idx = 0;
    bool keep = false;
    if (i < cands) {
      key = key_of(E::to_float(static_cast<typename E::bits_t>(sh.cand_bits[i])));
      idx = sh.cand_idx[i];
      keep = at_or_above(key, idx, pv);
    }
    __syncthreads();  // the chunk is read (and the counter reset) before slots are written
    const uint32_t at = warp_reserve(keep, &sh.surv_count);
    if (keep) {
      sh.cand_bits[at] = key;
      sh.cand_idx[at] = idx;
    }
  }
  __syncthreads();
  return sh.surv_count;
}

// Sorts the first m (key, index) pairs of the buffer into rank order (key
// descending, index ascending): a bitonic network over the next power of
// two, padded with pairs that rank last. O(m log^2 m) work in log^2 m
// barriers, where ranking each pair against all others is O(m^2).
template <class Policy, class Sh>
__device__ void sort_ranked_pairs(uint32_t m, Sh& sh) {
  constexpr int kThreads = Policy::kBlockThreads;
  static_assert((Sh::kCapacity & (Sh::kCapacity - 1)) == 0, "the buffer holds any padded power of two");
  uint32_t size = 2;
  while (size < m) size *= 2;
  for (uint32_t i = m + threadIdx.x; i < size; i += kThreads) {
    sh.cand_bits[i] = 0;  // NaN's key: below every kept entry
    sh.cand_idx[i] = ~0u;
  }
  __syncthreads();
  for (uint32_t run = 2; run <= size; run *= 2) {
    for (uint32_t gap = run / 2; gap > 0; gap /= 2) {
      for (uint32_t t = threadIdx.x; t < size / 2; t += kThreads) {
        const uint32_t i = 2 * t - (t & (gap - 1)), j = i + gap;
        const uint32_t ki = sh.cand_bits[i], kj = sh.cand_bits[j];
        const uint32_t ii = sh.cand_idx[i], ij = sh.cand_idx[j];
        const bool j_first = kj > ki || (kj == ki && ij < ii);
        if (j_first == ((i & run) == 0)) {  // out of order for this run's direction
          sh.cand_bits[i] = kj;
          sh.cand_bits[j] = ki;
          sh.cand_idx[i] = ij;
          sh.cand_idx[j] = ii;
        }
      }
      __syncthreads();
    }
  }
}

// Step 4, id output: the kept ids in rank order, at most max_ids of them.
// The ranked top-p already left them in order when it decided the row;
// otherwise the kept candidates are compacted and sorted.
template <class Policy, class E, class Sh>
__device__ void write_ids(const typename E::bits_t* row, uint32_t n, RowPlan plan, Sh& sh,
                          int32_t* ids, int32_t* count, uint32_t max_ids) {
  constexpr int kThreads = Policy::kBlockThreads;
  const uint32_t total = plan.cut.kept;
  const uint32_t shown = min(total, max_ids);
  if (plan.ranked) {
    for (uint32_t r = threadIdx.x; r < shown; r += kThreads) ids[r] = static_cast<int32_t>(sh.ranked_idx[r]);
  } else if (shown > 0) {
    Pivot pv = plan.cut.pivot;
    if (!plan.in_shared) {
      // Narrow to the top `shown` entries and gather exactly those.
      const GlobalSource<E, kThreads, Policy::kLoadsInFlight, Policy::kStreamLoads> global{row, n};
      pv = select_rank(global, sh, pv, shown, false).pivot;
      gather_kept<Policy, E>(row, n, pv, sh);
    }
    const uint32_t m = compact_kept<Policy, E>(pv, sh);
    sort_ranked_pairs<Policy>(m, sh);
    for (uint32_t r = threadIdx.x; r < shown; r += kThreads) ids[r] = static_cast<int32_t>(sh.cand_idx[r]);
  }
  for (uint32_t r = shown + threadIdx.x; r < max_ids; r += kThreads) ids[r] = -1;
  if (threadIdx.x == 0) *count = static_cast<int32_t>(total);
}

// The benchmark counters of a row (qrita_row_stats): thread 0 notes the
// SM clock at block-wide sync points and writes the fields it owns.
struct RowCounters {
  enum Phase { kThreshold = 0, kGather = 1, kDecide = 2, kWrite = 3 };
  int32_t* out;  // this row's qrita_row_stats, or null
  long long t0;

  // Ends a phase begun at the previous lap (or construction).
  __device__ void lap(Phase ph) {
    if (!out) return;
    const long long t = device_clock();
    out[2 + ph] = static_cast<int32_t>(min(t - t0, 0x7fffffffLL));
    t0 = t;
  }
  __device__ void outcome(uint32_t cands, bool hit) {
    if (!out) return;
    out[0] = static_cast<int32_t>(min(cands, 0x7fffffffu));
    out[1] = hit;
  }
};

// The counters of row r; owner: this block reports the row (one block of
// a split row does).
__device__ __forceinline__ RowCounters row_counters(const TruncateParams& prm, int64_t r, bool owner = true) {
  return RowCounters{owner && prm.row_stats && threadIdx.x == 0 ? prm.row_stats + kRowStatsInts * r : nullptr,
                     device_clock()};
}

template <class Policy>
using TruncateShared = RowShared<Policy::kCandidateCapacity, Policy::kRankedSurvivors>;

}  // namespace qrita
