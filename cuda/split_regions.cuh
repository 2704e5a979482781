// The split kernel's meeting in device memory: the region each part of a
// row leaves its gather in (loaded in part order by the row's decider),
// the row's meeting point and the decider's word (cuda/split_kernel.cuh).
#pragma once

#include "truncate_kernel.cuh"

namespace qrita {


// What a block leaves in its region for one part of a row.
struct SliceHeader {
  uint32_t count;     // candidates of the part (may exceed the capacity)
  uint32_t keepable;  // keepable entries of the part
  uint32_t max_key;
  uint32_t min_key;   // smallest keepable key of the part
  mass_t mass_rest;   // mass below the threshold, relative to it (a histogram: below its bins)
  mass_t reserved;    // keeps the regions 16-byte aligned
};

// A row's value-bin histogram (TeamTask::kHistogram), summed by the
// row's blocks into the decider's region.
struct PartHistogram {
  uint32_t count[kDigitBins];
  mass_t mass[kDigitBins];
};

template <int kCap>
struct SliceRegion {
  SliceHeader head;
  uint32_t bits[kCap];
  uint32_t idx[kCap];

  // A histogram task's sums, over the candidates' slots (8-byte aligned:
  // they follow the 32-byte header).
  __device__ PartHistogram& hist() { return *reinterpret_cast<PartHistogram*>(bits); }
  static_assert(sizeof(PartHistogram) <= sizeof(uint32_t) * kCap, "a histogram fits the slots");
};
static_assert(sizeof(SliceHeader) == 2 * sizeof(uint4), "the slots after the header stay 16-byte aligned");

// A header another block of the row wrote (load_coherent), in two loads.
__device__ __forceinline__ SliceHeader load_header(const SliceHeader* h) {
  const uint4* v = reinterpret_cast<const uint4*>(h);
  const uint4 a = load_coherent(v), b = load_coherent(v + 1);
  return SliceHeader{a.x, a.y, a.z, a.w, (static_cast<mass_t>(b.y) << 32) | b.x, 0};
}

template <class Policy>
using SliceRegionOf = SliceRegion<Policy::kCandidateCapacity>;

// Parts start on multiples of this many entries: whole 16-byte vectors of
// the narrowest element type (relative to the row start).
constexpr uint32_t kSliceAlign = 8;

// Part s of S of a row of n entries.
__device__ __forceinline__ void slice_bounds(uint32_t n, int s, int S, uint32_t* lo, uint32_t* hi) {
  *lo = s == 0 ? 0u : static_cast<uint32_t>(uint64_t(n) * s / S) & ~(kSliceAlign - 1);
  *hi = s == S - 1 ? n : static_cast<uint32_t>(uint64_t(n) * (s + 1) / S) & ~(kSliceAlign - 1);
}

// Entries of a part of n / S that the gather reads in one trip of
// kLoadsInFlight vectors a thread, whatever the element type (the fp32
// count, less the rounding of the part's bounds).
template <class Policy>
constexpr int64_t slice_trip_entries() {
  return int64_t(Policy::kBlockThreads) * Policy::kLoadsInFlight * RowSplit<F32>::kVec - kSliceAlign;
}

// Loads the S regions of a row into sh as one gather would have left them
// (kStats: with the keepable count, key range and rest mass; else the
// candidates and their count only). The first slots of every part are fetched
// together with the parts' headers, before their counts are known (slots
// past a count are dropped): they need no search over the parts' starts,
// five dependent shared loads a slot (PERFLOG run 52: top-p alone's ~1700
// candidates 4-6 % faster; the saved L2 round trip did not show). Slots of
// fuller parts are then fetched independently, each part found by that
// search, so those loads overlap too.
template <class Policy, bool kStats, class Sh>
__device__ void load_row_regions(const SliceRegionOf<Policy>* regs, int S, Sh& sh) {
  constexpr int kThreads = Policy::kBlockThreads;
  constexpr uint32_t kCap = Policy::kCandidateCapacity;
  constexpr int kBatch = 4;  // slots a thread fetches before storing any
  static_assert(Policy::kMaxSlices <= kWarpSize, "one lane per part");
  static_assert(2 * kWarpSize + 1 <= kDigitBins, "starts, counts and the largest count fit the histogram");
  uint32_t* starts = sh.hist_count;              // where each part's candidates start
  uint32_t* counts = sh.hist_count + kWarpSize;  // how many each part has
  uint32_t* most = sh.hist_count + 2 * kWarpSize;
  // Slot q = u x kThreads + thread of the first fetch is slot q % ahead of
  // part q / ahead: consecutive lanes read consecutive slots of a part.
  const uint32_t ahead = min(static_cast<uint32_t>(kThreads * kBatch / S), kCap);
  uint32_t bits[kBatch] = {}, idx[kBatch] = {};
#pragma unroll
  for (int u = 0; u < kBatch; ++u) {
    const uint32_t q = u * kThreads + threadIdx.x, part = q / ahead;
    if (part < static_cast<uint32_t>(S)) {
      bits[u] = load_coherent(&regs[part].bits[q % ahead]);
      idx[u] = load_coherent(&regs[part].idx[q % ahead]);
    }
  }
  if (warp_id() == 0) {
    const bool mine = lane_id() < S;
    const SliceHeader h = mine ? load_header(&regs[lane_id()].head) : SliceHeader{0, 0, 0, ~0u, 0, 0};
    const uint32_t incl = warp_inclusive_scan(h.count);
    uint32_t max_key = h.max_key, min_key = h.min_key, max_count = h.count;
    for (int off = kWarpSize / 2; off > 0; off /= 2) {
      max_key = max(max_key, warp_shfl_xor(max_key, off));
      min_key = min(min_key, warp_shfl_xor(min_key, off));
      max_count = max(max_count, warp_shfl_xor(max_count, off));
    }
    const uint32_t keepable_n = warp_sum(h.keepable);
    const mass_t rest = warp_sum(h.mass_rest);
    if (mine) {
      starts[lane_id()] = incl - h.count;
      counts[lane_id()] = h.count;
    }
    if (lane_id() == kWarpSize - 1) {
      sh.cand_count = incl;
      if (kStats) {
        sh.n_keepable = keepable_n;
        sh.max_key = max_key;
        sh.min_key = min_key;
        sh.mass_rest = rest;
      }
      *most = max_count;
    }
  }
  __syncthreads();
  const uint32_t total = sh.cand_count;
  if (total <= kCap) {
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const uint32_t q = u * kThreads + threadIdx.x, part = q / ahead, slot = q % ahead;
      if (part < static_cast<uint32_t>(S) && slot < counts[part]) {
        sh.cand_bits[starts[part] + slot] = bits[u];
        sh.cand_idx[starts[part] + slot] = idx[u];
      }
    }
    if (*most > ahead) {
      for (uint32_t base = 0; base < total; base += kThreads * kBatch) {
        bool take[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          const uint32_t i = base + u * kThreads + threadIdx.x;
          take[u] = false;
          if (i >= total) continue;
          int lo = 0, hi = S - 1;  // the last part starting at or before i
          while (lo < hi) {
            const int mid = (lo + hi + 1) / 2;
            if (starts[mid] <= i) lo = mid; else hi = mid - 1;
          }
          const uint32_t slot = i - starts[lo];
          if (slot < ahead) continue;  // fetched with the headers
          take[u] = true;
          bits[u] = load_coherent(&regs[lo].bits[slot]);
          idx[u] = load_coherent(&regs[lo].idx[slot]);
        }
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          if (!take[u]) continue;
          const uint32_t i = base + u * kThreads + threadIdx.x;
          sh.cand_bits[i] = bits[u];
          sh.cand_idx[i] = idx[u];
        }
      }
    }
  }
  __syncthreads();
}

// Leaves this block's gather of its part in its region: the candidates the
// buffer holds and the part's counts.
template <class Policy, class Sh>
__device__ void publish_part(SliceRegionOf<Policy>& reg, Sh& sh) {
  const uint32_t kept = min(sh.cand_count, static_cast<uint32_t>(Policy::kCandidateCapacity));
  for (uint32_t i = threadIdx.x; i < kept; i += Policy::kBlockThreads) {
    reg.bits[i] = sh.cand_bits[i];
    reg.idx[i] = sh.cand_idx[i];
  }
  if (threadIdx.x == 0) reg.head = SliceHeader{sh.cand_count, sh.n_keepable, sh.max_key, sh.min_key, sh.mass_rest, 0};
}

// Where a split row's blocks meet (prm.split_sync, zero between calls).
struct SplitRowSync {
  uint32_t arrived;         // blocks that gathered their part (S), then also those that took the verdict
  uint32_t helped;          // tasks the other blocks finished for the decider, all counted (sliced
                            // passes: the posted task's slices finished)
  unsigned long long word;  // 0 until the decider posts a task or leaves the verdict (VerdictWord)
  float bins_lo, bins_scale, top_v, max_value;  // the posted task's (TeamTask)
  unsigned long long open;  // sliced passes: the posted task's slices to take (OpenSlices); 0
                            // between calls but for late takes, which leave task 0
};

// The decider's word in 64 bits, so that a polling block reads it whole in
// one load. The verdict: the cut's pivot (an index below QRITA_MAX_VOCAB =
// 2^24 fits 25 bits, all set meaning kAnyIndex) and how the others write.
// A task: its number (from 1), kind and argument; its floats are in
// SplitRowSync, stored before the word.
struct VerdictWord {
  static constexpr unsigned long long kLeft = 1ull << 63;
  static constexpr unsigned long long kWriteOnly = 1ull << 62;   // the kept entries are the parts' candidates
  static constexpr unsigned long long kRowWritten = 1ull << 61;  // the decider writes what is left of the row
  static constexpr unsigned long long kTask = 1ull << 60;
  static constexpr unsigned long long kSlicedTask = 1ull << 59;  // a task's slices are open (sliced_passes.cuh)
  static constexpr uint32_t kIdxMask = (1u << 25) - 1;

  // Blocks whose candidates ran a task are told to compare instead of
  // writing from them: only a first-gather plan decided without reading
  // the row is write-only.
  __device__ static unsigned long long of(const RowPlan& plan) {
    const Pivot pv = plan.cut.pivot;
    const bool write_only = plan.in_shared && !plan.regathered && !plan.read_row;
    return kLeft | (write_only ? kWriteOnly : 0ull) | (plan.rest_written ? kRowWritten : 0ull) |
           (static_cast<unsigned long long>(pv.idx & kIdxMask) << 32) | pv.key;
  }
  __device__ static Pivot pivot(unsigned long long w) {
    const uint32_t idx = static_cast<uint32_t>(w >> 32) & kIdxMask;
    return Pivot{static_cast<uint32_t>(w), idx == kIdxMask ? kAnyIndex : idx};
  }
  __device__ static unsigned long long task(uint32_t number, const TeamTask& t) {
    return kTask | (static_cast<unsigned long long>(number & 0xff) << 40) |
           (static_cast<unsigned long long>(t.kind & 0xff) << 32) | t.arg;
  }
  __device__ static uint32_t task_number(unsigned long long w) { return static_cast<uint32_t>(w >> 40) & 0xff; }
  __device__ static uint32_t task_kind(unsigned long long w) { return static_cast<uint32_t>(w >> 32) & 0xff; }
};

// Each block but the decider, once its part is written: the last of them
// sets the meeting point back to zero for the next call.
__device__ __forceinline__ void leave_row(SplitRowSync* sync, int S) {
  if (threadIdx.x == 0 && atomicAdd(&sync->arrived, 1u) == static_cast<uint32_t>(2 * S - 2)) {
    atomicExch(&sync->word, 0ull);
    atomicExch(&sync->helped, 0u);
    atomicExch(&sync->arrived, 0u);
  }
}

}  // namespace qrita
