// Small batches: each row is cut into S parts, one block each, so that a
// handful of rows still keeps every multiprocessor streaming. Every block
// computes its row's sigma threshold (the same sample, so the same
// threshold in every part) and gathers the candidates of its part into its
// own workspace region, with the part's keepable count, largest key and
// rest mass. The last block of the row to arrive loads the S regions in
// part order and decides the kept set exactly as the one-block kernel does
// (the same candidate set, counts and integer mass, so the same bits:
// results do not depend on S or on the batch); the row's other blocks take
// its verdict and write the mask of their own parts. When truncation
// misses, the decider runs the whole-row search and writes the whole row.
// No atomics cross rows, and a row's meeting point (SplitRowSync) is back
// at zero when the kernel ends.
#pragma once

#include "truncate_kernel.cuh"

namespace qrita {

// What a block leaves in its region for one part of a row.
struct SliceHeader {
  uint32_t count;     // candidates of the part (may exceed the capacity)
  uint32_t keepable;  // keepable entries of the part
  uint32_t max_key;
  uint32_t key_thr;   // the row's threshold
  mass_t mass_rest;   // mass below the threshold, relative to it
  uint32_t min_key;   // smallest keepable key of the part
  uint32_t reserved;  // keeps the regions 16-byte aligned
};

template <int kCap>
struct SliceRegion {
  SliceHeader head;
  uint32_t bits[kCap];
  uint32_t idx[kCap];
};

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

// Loads the S regions of a row into sh as one gather would have left them;
// returns the row's threshold. The first slots of every part are fetched
// together with the parts' headers, before their counts are known (slots
// past a count are dropped): they need no search over the parts' starts,
// five dependent shared loads a slot (PERFLOG run 52: top-p alone's ~1700
// candidates 4-6 % faster; the saved L2 round trip did not show). Slots of
// fuller parts are then fetched independently, each part found by that
// search, so those loads overlap too.
template <class Policy, class Sh>
__device__ uint32_t load_row_regions(const SliceRegionOf<Policy>* regs, int S, Sh& sh) {
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
      bits[u] = regs[part].bits[q % ahead];
      idx[u] = regs[part].idx[q % ahead];
    }
  }
  if (warp_id() == 0) {
    const bool mine = lane_id() < S;
    const SliceHeader h = mine ? regs[lane_id()].head : SliceHeader{0, 0, 0, 0, 0, ~0u, 0};
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
      sh.n_keepable = keepable_n;
      sh.max_key = max_key;
      sh.min_key = min_key;
      sh.mass_rest = rest;
      *most = max_count;
    }
    if (lane_id() == 0) sh.choice.digit = h.key_thr;
  }
  __syncthreads();
  const uint32_t key_thr = sh.choice.digit;
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
          bits[u] = regs[lo].bits[slot];
          idx[u] = regs[lo].idx[slot];
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
  return key_thr;
}

// Where a split row's blocks meet (prm.split_sync, zero between calls).
struct SplitRowSync {
  uint32_t arrived;  // blocks that gathered their part (S), then also those that took the verdict
  uint32_t reserved;
  unsigned long long verdict;  // 0 until the decider leaves it (VerdictWord)
};

// The decider's verdict in one 64-bit word, so that a polling block reads
// it whole in one load: the cut's pivot (an index below QRITA_MAX_VOCAB =
// 2^24 fits 25 bits, all set meaning kAnyIndex) and how the others write.
struct VerdictWord {
  static constexpr unsigned long long kLeft = 1ull << 63;
  static constexpr unsigned long long kWriteOnly = 1ull << 62;   // the kept entries are the parts' candidates
  static constexpr unsigned long long kRowWritten = 1ull << 61;  // the decider wrote the whole row
  static constexpr uint32_t kIdxMask = (1u << 25) - 1;

  __device__ static unsigned long long of(const RowPlan& plan) {
    const Pivot pv = plan.cut.pivot;
    return kLeft | (plan.in_shared && !plan.regathered ? kWriteOnly : 0ull) | (plan.read_row ? kRowWritten : 0ull) |
           (static_cast<unsigned long long>(pv.idx & kIdxMask) << 32) | pv.key;
  }
  __device__ static Pivot pivot(unsigned long long w) {
    const uint32_t idx = static_cast<uint32_t>(w >> 32) & kIdxMask;
    return Pivot{static_cast<uint32_t>(w), idx == kIdxMask ? kAnyIndex : idx};
  }
};

// Called by every thread once this block's region is written: true for the
// last of the row's S blocks to arrive, which decides the row. Nothing
// waits here, so a row's blocks need not be resident together.
template <class Sh>
__device__ bool arrive_at_row(SplitRowSync* sync, int S, Sh& sh) {
  __syncthreads();  // the block's region stores are issued
  if (threadIdx.x == 0) {
    __threadfence();  // ... and seen by any block that sees the arrival
    const bool last = atomicAdd(&sync->arrived, 1u) == static_cast<uint32_t>(S - 1);
    if (last) __threadfence();  // the other parts' regions are read after their arrivals
    sh.choice.digit = last;
  }
  __syncthreads();
  const bool last = sh.choice.digit != 0;
  __syncthreads();  // choice is reused
  return last;
}

// A block that did not decide waits for the verdict (its row's decider is
// running: every part has arrived), one load a poll.
template <class Sh>
__device__ unsigned long long await_verdict(const SplitRowSync* sync, Sh& sh) {
  if (threadIdx.x == 0) {
    const volatile unsigned long long* v = &sync->verdict;
    unsigned long long w;
    while (!((w = *v) & VerdictWord::kLeft)) sleep_briefly();
    sh.scratch_u64[0] = w;
  }
  __syncthreads();
  const unsigned long long w = sh.scratch_u64[0];
  __syncthreads();  // scratch is reused
  return w;
}

// Each block but the decider, once its part is written: the last of them
// sets the meeting point back to zero for the next call.
__device__ __forceinline__ void leave_row(SplitRowSync* sync, int S) {
  if (threadIdx.x == 0 && atomicAdd(&sync->arrived, 1u) == static_cast<uint32_t>(2 * S - 2)) {
    atomicExch(&sync->verdict, 0ull);
    atomicExch(&sync->arrived, 0u);
  }
}

// One kernel: every block gathers its part of a row into its region; the
// last of the row's blocks to arrive loads the S regions, decides the row
// as the one-block kernel does and writes its part (or, when truncation
// missed, the whole row); the others wait for its verdict and write their
// parts, write-only from the candidates they gathered when the kept
// entries are among them. Only blocks whose row has fully arrived wait,
// and for a running block, so there is no deadlock whatever the
// residency. One kernel, where a finish kernel waited for the whole grid
// of a gather kernel: 3-16 % faster from B=4 up (PERFLOG run 58).
template <class Policy, class E>
__global__ void __launch_bounds__(Policy::kBlockThreads, Policy::kMinBlocksPerSM)
    split_rows_kernel(TruncateParams prm) {
  using bits_t = typename E::bits_t;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  auto& sh = *reinterpret_cast<TruncateShared<Policy>*>(shared_bytes);
  auto* regions = static_cast<SliceRegionOf<Policy>*>(prm.split_ws);
  auto* syncs = static_cast<SplitRowSync*>(prm.split_sync);
  const int S = prm.split_slices;
  const uint32_t n = static_cast<uint32_t>(prm.vocab);
  if (threadIdx.x == 0) sh.digit_bits = (prm.ablation & kAblateBinarySearch) ? 1 : kDigitBits;
  for (int64_t item = blockIdx.x; item < prm.batch * S; item += gridDim.x) {
    const int64_t r = item / S;
    const int s = static_cast<int>(item % S);
    bits_t* row = static_cast<bits_t*>(prm.logits) + r * prm.row_stride;
    const RowAsk ask(prm.k ? prm.k[r] : 0, prm.p ? prm.p[r] : 1.0f, n);
    uint32_t lo, hi;
    slice_bounds(n, s, S, &lo, &hi);
    RowCounters counters = row_counters(prm, r, s == 0);
    if (!ask.any()) {  // nothing to decide: only NaN changes
      counters.outcome(0, true);
      write_mask<Policy, E>(row, lo, hi, RowPlan{Cut{kPivotAll, 0}, false}, sh);
      __syncthreads();
      continue;
    }
    RowSample<Policy, E> smp;
    smp.load(row, n);
    // The part moves to the L2 while the threshold waits for the sample:
    // the gather's loads then wait for the L2 only.
    if (prm.split_prefetch) prefetch_row_l2<E, Policy::kBlockThreads>(row + lo, hi - lo);
    const uint32_t key_thr = row_threshold<Policy, E>(smp, n, ask, prm.ablation, sh);
    counters.lap(RowCounters::kThreshold);
    gather_candidates<Policy, E, false>(row, lo, hi, key_thr, ask.want_p && !ask.want_k, sh);
    counters.lap(RowCounters::kGather);
    auto& reg = regions[item];
    const uint32_t kept = min(sh.cand_count, static_cast<uint32_t>(Policy::kCandidateCapacity));
    for (uint32_t i = threadIdx.x; i < kept; i += Policy::kBlockThreads) {
      reg.bits[i] = sh.cand_bits[i];
      reg.idx[i] = sh.cand_idx[i];
    }
    if (threadIdx.x == 0)
      reg.head = SliceHeader{sh.cand_count, sh.n_keepable, sh.max_key, key_thr, sh.mass_rest, sh.min_key, 0};
    SplitRowSync* sync = syncs + r;
    if (arrive_at_row(sync, S, sh)) {
      RowCounters decided = row_counters(prm, r);
      load_row_regions<Policy>(regions + r * S, S, sh);
      const uint32_t cands = sh.cand_count;
      const RowPlan plan = decide_row<Policy, E>(row, n, ask, prm.keep_ties != 0, prm.ablation, key_thr, true, row, sh);
      decided.lap(RowCounters::kDecide);
      decided.outcome(cands, plan.hit());
      if (threadIdx.x == 0) atomicExch(&sync->verdict, VerdictWord::of(plan));
      if (plan.read_row) {
        write_mask<Policy, E>(row, 0, n, plan, sh);
      } else {
        write_mask<Policy, E>(row, lo, hi, plan, sh);
      }
      decided.lap(RowCounters::kWrite);
    } else {
      // Write-only from this part's candidates in sh (the decider's, in
      // this part), else read-compare-write against the pivot.
      const unsigned long long w = await_verdict(sync, sh);
      if (!(w & VerdictWord::kRowWritten))
        write_mask<Policy, E>(row, lo, hi, RowPlan{Cut{VerdictWord::pivot(w), 0}, (w & VerdictWord::kWriteOnly) != 0}, sh);
      leave_row(sync, S);
    }
    __syncthreads();  // shared memory is reused by the next item
  }
}

}  // namespace qrita
