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
  uint32_t helped;          // tasks the other blocks finished for the decider, all counted
  unsigned long long word;  // 0 until the decider posts a task or leaves the verdict (VerdictWord)
  float bins_lo, bins_scale, top_v, max_value;  // the posted task's (TeamTask)
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

// The decider's side of a split row's team: the row's other blocks have
// all arrived and wait in serve_decider, so a posted task always runs and
// waiting for it cannot deadlock. Each block runs a task over its own part
// and leaves the result in its region; the decider collects the regions.
template <class Policy>
struct SplitTeam {
  static constexpr bool kWholeRow = false;
  uint32_t part_lo, part_hi;  // this block's part
  SplitRowSync* sync;
  SliceRegionOf<Policy>* regions;  // the row's, in part order
  int S, s;                        // parts, and this block's
  uint32_t posted;                 // tasks so far

  __device__ uint32_t lo(uint32_t) const { return part_lo; }
  __device__ uint32_t hi(uint32_t) const { return part_hi; }

  // A histogram task's sums land in this block's region: cleared first.
  __device__ void post(TeamTask t) {
    ++posted;
    if (t.kind == TeamTask::kHistogram) {
      t.arg = static_cast<uint32_t>(s);
      PartHistogram& h = regions[s].hist();
      for (int j = threadIdx.x; j < kDigitBins; j += Policy::kBlockThreads) {
        h.count[j] = 0;
        h.mass[j] = 0;
      }
      if (threadIdx.x == 0) regions[s].head.mass_rest = 0;
      __syncthreads();  // cleared before thread 0 posts
    }
    if (threadIdx.x == 0) {
      sync->bins_lo = t.bins_lo;
      sync->bins_scale = t.bins_scale;
      sync->top_v = t.top_v;
      sync->max_value = t.max_value;
      __threadfence();  // the floats before the word
      atomicExch(&sync->word, VerdictWord::task(posted, t));
    }
  }

  // Pass 1's histograms: this block's is in sh, the others added theirs
  // into this block's region (one load a bin, where reading every part's
  // histogram cost a chain of L2 round trips).
  template <class P, class Sh>
  __device__ void collect_histogram(Sh& sh, mass_t* low) {
    await_others();
    const PartHistogram& h = regions[s].hist();
    for (int j = threadIdx.x; j < kDigitBins; j += Policy::kBlockThreads) {
      sh.hist_count[j] += load_coherent(&h.count[j]);
      sh.hist_mass[j] += load_coherent(&h.mass[j]);
    }
    *low += load_coherent(&regions[s].head.mass_rest);
    __syncthreads();
  }

  // A gather's candidates: this block's go to its region too, and all are
  // loaded in part order (kStats: with the parts' counts and key range).
  template <class P, bool kStats, class Sh>
  __device__ void collect_candidates(Sh& sh) {
    publish_part<Policy>(regions[s], sh);
    await_others();  // its barrier also orders this block's stores before the loads
    load_row_regions<Policy, kStats>(regions, S, sh);
  }

 private:
  __device__ void await_others() const {
    if (threadIdx.x == 0) {
      const volatile uint32_t* h = &sync->helped;
      const uint32_t want = static_cast<uint32_t>(S - 1) * posted;
      while (*h < want) sleep_briefly();
      __threadfence();  // their regions are read after their counts
    }
    __syncthreads();
  }
};

// A block that did not decide waits for the decider's word (its row's
// decider is running: every part has arrived), one load a poll. Returns
// the verdict, or a task numbered above `ran` with its floats in *task.
template <class Sh>
__device__ unsigned long long await_word(SplitRowSync* sync, uint32_t ran, TeamTask* task, Sh& sh) {
  if (threadIdx.x == 0) {
    const volatile unsigned long long* v = &sync->word;
    unsigned long long w;
    for (;;) {
      w = *v;
      if ((w & VerdictWord::kLeft) || ((w & VerdictWord::kTask) && VerdictWord::task_number(w) != ran)) break;
      sleep_briefly();
    }
    if (!(w & VerdictWord::kLeft)) {
      __threadfence();  // the floats after the word
      const volatile SplitRowSync* vs = sync;
      sh.scratch_u64[1] = (static_cast<mass_t>(__float_as_uint(vs->bins_scale)) << 32) | __float_as_uint(vs->bins_lo);
      sh.scratch_u64[2] = (static_cast<mass_t>(__float_as_uint(vs->max_value)) << 32) | __float_as_uint(vs->top_v);
    }
    sh.scratch_u64[0] = w;
  }
  __syncthreads();
  const unsigned long long w = sh.scratch_u64[0];
  const mass_t f1 = sh.scratch_u64[1], f2 = sh.scratch_u64[2];
  __syncthreads();  // scratch is reused
  *task = TeamTask{VerdictWord::task_kind(w), static_cast<uint32_t>(w),
                   __uint_as_float(static_cast<uint32_t>(f1)), __uint_as_float(static_cast<uint32_t>(f1 >> 32)),
                   __uint_as_float(static_cast<uint32_t>(f2)), __uint_as_float(static_cast<uint32_t>(f2 >> 32))};
  return w;
}

// Runs a posted task over this block's part [lo, hi) of the row, leaves
// the result in its region and counts itself done.
template <class Policy, class E, class Sh>
__device__ void run_task(typename E::bits_t* row, uint32_t lo, uint32_t hi, const TeamTask& t,
                         SliceRegionOf<Policy>* row_regions, int s, SplitRowSync* sync, Sh& sh) {
  SliceRegionOf<Policy>& reg = row_regions[s];
  const ValueBins bins{t.bins_lo, t.bins_scale};
  if (t.kind == TeamTask::kGather) {
    gather_candidates<Policy, E, false>(row, lo, hi, t.arg, true, sh);
    publish_part<Policy>(reg, sh);
  } else if (t.kind == TeamTask::kHistogram) {
    // Binned passes run only without +Inf in the row (binned_top_p).
    // The sums go to the decider's region (part t.arg), in integers: the
    // order of the adds does not matter.
    const mass_t low = bin_histogram<Policy, E>(row, lo, hi, bins, t.top_v, MassScale{t.max_value, false}, sh);
    SliceRegionOf<Policy>& dst = row_regions[t.arg];
    for (int j = threadIdx.x; j < kDigitBins; j += Policy::kBlockThreads) {
      if (sh.hist_count[j]) atomicAdd(&dst.hist().count[j], sh.hist_count[j]);
      if (sh.hist_mass[j]) atomicAdd(&dst.hist().mass[j], sh.hist_mass[j]);
    }
    if (threadIdx.x == 0 && low) atomicAdd(&dst.head.mass_rest, low);
  } else {
    gather_bin<Policy, E, false>(row, row, lo, hi, bins, t.top_v, t.arg, sh);
    publish_part<Policy>(reg, sh);
  }
  __syncthreads();  // the region's stores are issued
  if (threadIdx.x == 0) {
    __threadfence();  // ... and seen by the decider when it sees the count
    atomicAdd(&sync->helped, 1u);
  }
}

// Each block but the decider, once its part is written: the last of them
// sets the meeting point back to zero for the next call.
__device__ __forceinline__ void leave_row(SplitRowSync* sync, int S) {
  if (threadIdx.x == 0 && atomicAdd(&sync->arrived, 1u) == static_cast<uint32_t>(2 * S - 2)) {
    atomicExch(&sync->word, 0ull);
    atomicExch(&sync->helped, 0u);
    atomicExch(&sync->arrived, 0u);
  }
}

// The items of Items (first(), more(i), next(i)): item i is part i % S
// of the row whose regions and meeting point are slot i / S's, and whose
// logits are row items.row(i / S). Each part is gathered into its region;
// the last of the row's blocks to arrive decides the row, the others run
// the decider's tasks and write their parts. The split kernel's items are
// its rows' (GridItems); the persistent kernel serves a handed-on row's
// parts one at a time (hand_on.cuh). The loop is the split kernel's: a
// function per part made it 1-5 % slower (PERFLOG run 73).
template <class Policy, class E, class Items>
__device__ __forceinline__ void split_items(const TruncateParams& prm, SliceRegionOf<Policy>* regions,
                                            SplitRowSync* syncs, int S, Items items, TruncateShared<Policy>& sh) {
  using bits_t = typename E::bits_t;
  const uint32_t n = static_cast<uint32_t>(prm.vocab);
  using Item = decltype(items.first());
  for (Item item = items.first(); items.more(item); item = items.next(item)) {
    const Item slot = item / static_cast<Item>(S);
    const int64_t r = items.row(slot);
    const int s = static_cast<int>(item % static_cast<Item>(S));
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
    publish_part<Policy>(regions[item], sh);
    SplitRowSync* sync = syncs + slot;
    if (arrive_at_row(sync, S, sh)) {
      RowCounters decided = row_counters(prm, r);
      load_row_regions<Policy, true>(regions + slot * S, S, sh);
      const uint32_t cands = sh.cand_count;
      SplitTeam<Policy> team{lo, hi, sync, regions + slot * S, S, s, 0};
      const RowPlan plan =
          decide_row<Policy, E, SplitTeam<Policy>>(row, n, ask, prm.keep_ties != 0, prm.ablation, key_thr, true, row,
                                                   team, sh);
      decided.lap(RowCounters::kDecide);
      decided.outcome(cands, plan.hit());
      if (threadIdx.x == 0) atomicExch(&sync->word, VerdictWord::of(plan));
      // What is left of a written row are candidates, anywhere in it.
      write_mask<Policy, E>(row, plan.rest_written ? 0 : lo, plan.rest_written ? n : hi, plan, sh);
      decided.lap(RowCounters::kWrite);
    } else {
      // Run the decider's tasks until its verdict, then write this part:
      // write-only from this part's candidates (the decider's, in this
      // part), else read-compare-write against the pivot.
      uint32_t ran = 0;
      TeamTask task;
      unsigned long long w;
      while (!((w = await_word(sync, ran, &task, sh)) & VerdictWord::kLeft)) {
        run_task<Policy, E>(row, lo, hi, task, regions + slot * S, s, sync, sh);
        ran = VerdictWord::task_number(w);
      }
      const bool write_only = (w & VerdictWord::kWriteOnly) != 0 && ran == 0;
      if (!(w & VerdictWord::kRowWritten))
        write_mask<Policy, E>(row, lo, hi, RowPlan{Cut{VerdictWord::pivot(w), 0}, write_only}, sh);
      leave_row(sync, S);
    }
    __syncthreads();  // shared memory is reused by the next item
  }
}

// The split kernel's items: block b takes b, b + grid, ... of batch x S,
// each a part of its own row. The bounds are read from the launch at
// each trip, not held in registers across the item body, as the loop in
// the kernel had them (PERFLOG run 74).
struct GridItems {
  const TruncateParams& prm;
  int S;
  __device__ int64_t first() const { return blockIdx.x; }
  __device__ bool more(int64_t item) const { return item < prm.batch * S; }
  __device__ int64_t next(int64_t item) const { return item + gridDim.x; }
  __device__ int64_t row(int64_t slot) const { return slot; }
};

// One kernel: every block gathers its part of a row into its region; the
// last of the row's blocks to arrive loads the S regions, decides the row
// as the one-block kernel does and writes its part; the others run the
// passes over the row that the decider posts (when truncation missed),
// then take its verdict and write their parts, write-only from the
// candidates they gathered when the kept entries are among them. Only
// blocks whose row has fully arrived wait, and for a running block, so
// there is no deadlock whatever the residency. One kernel, where a finish
// kernel waited for the whole grid of a gather kernel: 3-16 % faster from
// B=4 up (PERFLOG run 58).
template <class Policy, class E>
__global__ void __launch_bounds__(Policy::kBlockThreads, Policy::kMinBlocksPerSM)
    split_rows_kernel(TruncateParams prm) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  auto& sh = *reinterpret_cast<TruncateShared<Policy>*>(shared_bytes);
  if (threadIdx.x == 0) sh.digit_bits = (prm.ablation & kAblateBinarySearch) ? 1 : kDigitBits;
  const int S = prm.split_slices;
  split_items<Policy, E>(prm, static_cast<SliceRegionOf<Policy>*>(prm.split_ws),
                         static_cast<SplitRowSync*>(prm.split_sync), S, GridItems{prm, S}, sh);
}

}  // namespace qrita
